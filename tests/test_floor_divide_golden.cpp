// Golden jaxprs of floor_divide, remainder and where (the composites JAX stages as jit calls):
// fusejit's text must equal what JAX 0.10.2 prints for tests/golden/jaxpr_goldens.py
// (jaxpr_goldens.txt).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include "golden_file.hpp"

using fj::Tracer;

namespace {
constexpr fusejit_test::Golden kGolden{"jaxpr_goldens.txt"};
}  // namespace

TEST_CASE("int ops golden: floor_divide_int") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        kGolden.all().at("floor_divide_int"));
}

TEST_CASE("int ops golden: floor_divide_int_scalar") {
  auto f = [](Tracer x) { return fj::floor_divide(x, 2); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("floor_divide_int_scalar"));
}

TEST_CASE("int ops golden: floor_divide_float_scalar") {
  auto f = [](Tracer x) { return fj::floor_divide(x, 2.0); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f)).str() == kGolden.all().at("floor_divide_float_scalar"));
}

TEST_CASE("int ops golden: floor_divide_unsigned") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array({0u, 1u, 2u}), fj::array({0u, 1u, 2u})).str() ==
        kGolden.all().at("floor_divide_unsigned"));
}

TEST_CASE("int ops golden: floor_divide_float") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3.0f), fj::arange(3.0f)).str() ==
        kGolden.all().at("floor_divide_float"));
}

TEST_CASE("int ops golden: floor_divide_rank") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        kGolden.all().at("floor_divide_rank"));
}

TEST_CASE("int ops golden: floor_divide_rank_float") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}), fj::ones({1, 3})).str() ==
        kGolden.all().at("floor_divide_rank_float"));
}

TEST_CASE("int ops golden: floor_divide_scalar_left") {
  auto f = [](Tracer x) { return fj::floor_divide(7, x); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("floor_divide_scalar_left"));
}

TEST_CASE("int ops golden: floor_divide_bool") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, false, true}), fj::array({true, false, true})).str() ==
        kGolden.all().at("floor_divide_bool"));
}

TEST_CASE("int ops golden: floor_divide_mixed") {
  auto f = [](Tracer x, Tracer y) { return fj::floor_divide(x, y); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3.0f)).str() ==
        kGolden.all().at("floor_divide_mixed"));
}

TEST_CASE("int ops golden: remainder_arrays") {
  auto f = [](Tracer x, Tracer y) { return x % y; };
  CHECK(fj::make_jaxpr(f)(fj::arange(3), fj::arange(3)).str() ==
        kGolden.all().at("remainder_arrays"));
}

TEST_CASE("int ops golden: remainder_rank") {
  auto f = [](Tracer x, Tracer y) { return x % y; };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3}, fj::i32), fj::arange(3)).str() ==
        kGolden.all().at("remainder_rank"));
}

TEST_CASE("int ops golden: where_scalar_cond") {
  auto f = [](Tracer c, Tracer x, Tracer y) { return fj::where(c, x, y); };
  CHECK(fj::make_jaxpr(f)(fj::array(true), fj::ones({3}), fj::ones({3})).str() ==
        kGolden.all().at("where_scalar_cond"));
}

TEST_CASE("int ops golden: where_python_float") {
  // The 0.1 passed to the _where jit prints as the Python float, unrounded.
  auto f = [](Tracer x) { return fj::where(x > 0.0f, x, 0.1); };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == kGolden.all().at("where_python_float"));
}
