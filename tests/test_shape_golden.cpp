// Golden jaxprs of shape ops, static indexing, iota and creation functions: fusejit's text must
// equal JAX's byte for byte. The expected texts are tests/golden/jaxpr_goldens.txt, printed by
// JAX 0.10.2 from tests/golden/jaxpr_goldens.py (the `shape_cases`).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include "golden_file.hpp"

using fj::Tracer;

namespace {
const fj::Shape s23{2, 3}, s56{5, 6};
}  // namespace

namespace {
constexpr fusejit_test::Golden kGolden{"jaxpr_goldens.txt"};
}  // namespace

TEST_CASE("shape golden: flip_all") {
  auto f = [](Tracer x) { return fj::flip(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("flip_all"));
}

TEST_CASE("shape golden: flip_axes") {
  auto f = [](Tracer x) { return fj::flip(x, {1, 0}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("flip_axes"));
}

TEST_CASE("shape golden: flip_negative_axis") {
  auto f = [](Tracer x) { return fj::flip(x, {-1}); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("flip_negative_axis"));
}

TEST_CASE("shape golden: flip_twice_shared") {
  auto f = [](Tracer x) { return fj::flip(x) + fj::flip(x * 2); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("flip_twice_shared"));
}

TEST_CASE("shape golden: squeeze_all") {
  auto f = [](Tracer x) { return fj::squeeze(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3, 1})).str() == kGolden.all().at("squeeze_all"));
}

TEST_CASE("shape golden: squeeze_axes") {
  auto f = [](Tracer x) { return fj::squeeze(x, {-1, 0}); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3, 1})).str() == kGolden.all().at("squeeze_axes"));
}

TEST_CASE("shape golden: squeeze_nothing") {
  auto f = [](Tracer x) { return fj::squeeze(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("squeeze_nothing"));
}

TEST_CASE("shape golden: expand_dims") {
  auto f = [](Tracer x) { return fj::expand_dims(x, {0, 3}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("expand_dims"));
}

TEST_CASE("shape golden: expand_dims_negative") {
  auto f = [](Tracer x) { return fj::expand_dims(x, {-1}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("expand_dims_negative"));
}

TEST_CASE("shape golden: broadcast_to") {
  auto f = [](Tracer x) { return fj::broadcast_to(x, {5, 2, 3}); };
  CHECK(fj::make_jaxpr(f)(fj::ones({1, 3})).str() == kGolden.all().at("broadcast_to"));
}

TEST_CASE("shape golden: broadcast_to_scalar") {
  auto f = [](Tracer x) { return fj::broadcast_to(x, {3}); };
  CHECK(fj::make_jaxpr(f)(fj::array(2.0f)).str() == kGolden.all().at("broadcast_to_scalar"));
}

TEST_CASE("shape golden: transpose_3d") {
  auto f = [](Tracer x) { return x.T(); };
  CHECK(fj::make_jaxpr(f)(fj::ones({2, 3, 4})).str() == kGolden.all().at("transpose_3d"));
}

TEST_CASE("shape golden: transpose_1d") {
  auto f = [](Tracer x) { return x.T(); };
  CHECK(fj::make_jaxpr(f)(fj::ones({4})).str() == kGolden.all().at("transpose_1d"));
}

TEST_CASE("shape golden: index_range_int") {
  auto f = [](Tracer x) { return x(fj::range(1, 4), 2); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_range_int"));
}

TEST_CASE("shape golden: index_negative_int") {
  auto f = [](Tracer x) { return x(-1); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_negative_int"));
}

TEST_CASE("shape golden: index_two_ints") {
  auto f = [](Tracer x) { return x(0, 1); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_two_ints"));
}

TEST_CASE("shape golden: index_negative_step") {
  auto f = [](Tracer x) { return x(fj::range(4, 0, -2)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_negative_step"));
}

TEST_CASE("shape golden: index_reverse") {
  auto f = [](Tracer x) { return x(fj::range(fj::none, fj::none, -1)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_reverse"));
}

TEST_CASE("shape golden: index_clamped") {
  auto f = [](Tracer x) { return x(fj::range(1, 100), fj::range(fj::none, fj::none, 2)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_clamped"));
}

TEST_CASE("shape golden: index_whole") {
  auto f = [](Tracer x) { return x(fj::range(), fj::range()); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_whole"));
}

TEST_CASE("shape golden: index_empty") {
  auto f = [](Tracer x) { return x(fj::range(3, 1)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_empty"));
}

TEST_CASE("shape golden: index_reverse_stride") {
  auto f = [](Tracer x) { return x(fj::range(), fj::range(fj::none, fj::none, -4)); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s56)).str() == kGolden.all().at("index_reverse_stride"));
}

TEST_CASE("shape golden: iota") {
  auto f = [] { return fj::iota(fj::i32, 5); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("iota"));
}

TEST_CASE("shape golden: iota_where") {
  auto f = [](Tracer x) { return fj::where(fj::iota(fj::i32, {2, 3}, 1) > 0, x, 0.0); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("iota_where"));
}

TEST_CASE("shape golden: sum_flip_iota") {
  auto f = [](Tracer x) { return fj::sum(fj::flip(x) * fj::iota(fj::f32, 6)); };
  CHECK(fj::make_jaxpr(f)(fj::ones({6})).str() == kGolden.all().at("sum_flip_iota"));
}

TEST_CASE("shape golden: eye") {
  auto f = [] { return fj::eye(3); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("eye"));
}

TEST_CASE("shape golden: eye_rect_k") {
  auto f = [] { return fj::eye(3, 4, 1); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("eye_rect_k"));
}

TEST_CASE("shape golden: eye_bool") {
  auto f = [] { return fj::eye(2, -1, 0, fj::bool_); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("eye_bool"));
}

TEST_CASE("shape golden: zeros_like") {
  auto f = [](Tracer x) { return fj::zeros_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("zeros_like"));
}

TEST_CASE("shape golden: ones_like_bool") {
  auto f = [](Tracer x) { return fj::ones_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::array({true, true, true})).str() ==
        kGolden.all().at("ones_like_bool"));
}

TEST_CASE("shape golden: full_like_int") {
  auto f = [](Tracer x) { return fj::full_like(x, 3.5); };
  CHECK(fj::make_jaxpr(f)(fj::arange(3)).str() == kGolden.all().at("full_like_int"));
}

TEST_CASE("shape golden: full_like_dtype") {
  auto f = [](Tracer x) { return fj::full_like(x, 2, fj::i32); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("full_like_dtype"));
}

TEST_CASE("shape golden: zeros_like_scalar") {
  auto f = [](Tracer x) { return fj::zeros_like(x); };
  CHECK(fj::make_jaxpr(f)(fj::array(1.0f)).str() == kGolden.all().at("zeros_like_scalar"));
}

TEST_CASE("shape golden: linspace_one") {
  auto f = [] { return fj::linspace(0, 1, 1); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("linspace_one"));
}

TEST_CASE("shape golden: linspace_zero") {
  auto f = [] { return fj::linspace(0, 1, 0); };
  CHECK(fj::make_jaxpr(f)().str() == kGolden.all().at("linspace_zero"));
}

TEST_CASE("shape golden: astype") {
  auto f = [](Tracer x) { return x.astype(fj::i32); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("astype_method"));
}

TEST_CASE("shape golden: reshape_method") {
  auto f = [](Tracer x) { return x.reshape({-1}); };
  CHECK(fj::make_jaxpr(f)(fj::ones(s23)).str() == kGolden.all().at("reshape_method"));
}

// A reduction over no axes (a scalar, or an empty axis list) is still staged, as jnp's are.
TEST_CASE("shape golden: sum_mean_scalar") {
  auto f = [](Tracer x) { return std::tuple{fj::Array(fj::sum(x)), fj::Array(fj::mean(x))}; };
  CHECK(fj::make_jaxpr(f)(fj::ones({})).str() == kGolden.all().at("sum_mean_scalar"));
}

TEST_CASE("shape golden: max_no_axes") {
  auto f = [](Tracer x) { return fj::Array(fj::max(x, std::initializer_list<int>{})); };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == kGolden.all().at("max_no_axes"));
}
