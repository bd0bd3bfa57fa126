// Golden jaxprs of the bitwise operators, shifts and integer powers: fusejit's text
// must equal what JAX 0.10.2 prints for tests/golden/jaxpr_goldens.py (jaxpr_goldens.txt, the
// same case names).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include "golden_file.hpp"

using fj::Tracer;

namespace {
constexpr fusejit_test::Golden kGolden{"jaxpr_goldens.txt"};
}  // namespace

TEST_CASE("int ops golden: bitwise_and_scalar") {
  auto f = [](Tracer x) { return x & 3; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("bitwise_and_scalar"));
}

TEST_CASE("int ops golden: bitwise_xor_bool") {
  auto f = [](Tracer x, Tracer y) { return x ^ y; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true}), fj::array({true, false, true})).str() ==
        kGolden.all().at("bitwise_xor_bool"));
}

TEST_CASE("int ops golden: bitwise_not_int") {
  auto f = [](Tracer x) { return ~x; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("bitwise_not_int"));
}

TEST_CASE("int ops golden: bitwise_not_bool") {
  auto f = [](Tracer x) { return ~x; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() ==
        kGolden.all().at("bitwise_not_bool"));
}

TEST_CASE("int ops golden: bitwise_rank_promotion") {
  auto f = [](Tracer x, Tracer y) { return (x & y) | (x ^ ~y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        kGolden.all().at("bitwise_rank_promotion"));
}

TEST_CASE("int ops golden: bool_and_int_scalar") {
  auto f = [](Tracer x) { return x & 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() ==
        kGolden.all().at("bool_and_int_scalar"));
}

TEST_CASE("int ops golden: shift_left") {
  auto f = [](Tracer x) { return x << 2; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("shift_left"));
}

TEST_CASE("int ops golden: right_shift_signed") {
  auto f = [](Tracer x) { return x >> 2; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("right_shift_signed"));
}

TEST_CASE("int ops golden: right_shift_unsigned") {
  auto f = [](Tracer x) { return x >> 2; };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u})).str() ==
        kGolden.all().at("right_shift_unsigned"));
}

TEST_CASE("int ops golden: shifts_unsigned") {
  auto f = [](Tracer x) { return (x << 3) >> 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u})).str() == kGolden.all().at("shifts_unsigned"));
}

TEST_CASE("int ops golden: shift_bool") {
  auto f = [](Tracer x) { return x << 1; };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() == kGolden.all().at("shift_bool"));
}

TEST_CASE("int ops golden: left_shift_arrays") {
  auto f = [](Tracer x, Tracer y) { return fj::left_shift(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        kGolden.all().at("left_shift_arrays"));
}

TEST_CASE("int ops golden: integer_pow_2") {
  auto f = [](Tracer x) { return fj::pow(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() == kGolden.all().at("integer_pow_2"));
}

TEST_CASE("int ops golden: integer_pow_neg") {
  auto f = [](Tracer x) { return fj::pow(x, -2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() == kGolden.all().at("integer_pow_neg"));
}

TEST_CASE("int ops golden: power_int") {
  auto f = [](Tracer x) { return fj::pow(x, 3); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("power_int"));
}

TEST_CASE("int ops golden: integer_pow_bool") {
  auto f = [](Tracer x) { return fj::pow(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true})).str() ==
        kGolden.all().at("integer_pow_bool"));
}

TEST_CASE("int ops golden: lax_integer_pow") {
  auto f = [](Tracer x) { return fj::integer_pow(x, 5) + 1.0; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() == kGolden.all().at("lax_integer_pow"));
}

TEST_CASE("int ops golden: power_int_arrays") {
  auto f = [](Tracer x, Tracer y) { return fj::pow(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        kGolden.all().at("power_int_arrays"));
}

TEST_CASE("int ops golden: power_int_rank") {
  auto f = [](Tracer x, Tracer y) { return fj::pow(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        kGolden.all().at("power_int_rank"));
}

TEST_CASE("int ops golden: power_scalar_base") {
  auto f = [](Tracer x) { return fj::pow(2, x); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("power_scalar_base"));
}
