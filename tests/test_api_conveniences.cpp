// jax.Array's methods on fj::Array and expressions, keyword-style options structs, grad's
// indexable gradients, vmap's in_axes count and printing of expressions, each against values
// worked by hand (or numpy's definition) on small inputs, on both backends.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_compare.hpp"
#include "throws_with.hpp"

namespace {
using fj::Array;
using fusejit_test::check_throws_with;

// x = [[1, 5, 3], [4, 2, 6]] (f32): every method below has a result small enough to work by
// hand, and each is exact in f32 (sums of small integers, exact quotients), so the rows compare
// exactly except std, whose one rounding (sqrt) is bounded by 1 ulp.
Array x() { return fj::array({{1.f, 5.f, 3.f}, {4.f, 2.f, 6.f}}); }

struct MethodRow {
  const char* name;
  std::function<Array()> got;
  std::vector<double> want;
  fj::Shape shape;
  fj::DType dtype;
};

std::vector<MethodRow> method_rows() {
  // mean 3.5; squared deviations 6.25, 2.25, 0.25, 0.25, 2.25, 6.25: var 17.5 / 6.
  const double var6 = 17.5 / 6;
  return {
      {"sum", [] { return Array(x().sum()); }, {21}, {}, fj::f32},
      {"sum axis 1", [] { return Array(x().sum({1})); }, {9, 12}, {2}, fj::f32},
      {"mean axis 0 keepdims",
       [] { return Array(x().mean({0}, true)); },
       {2.5, 3.5, 4.5},
       {1, 3},
       fj::f32},
      {"prod", [] { return Array(x().prod()); }, {720}, {}, fj::f32},
      {"max", [] { return Array(x().max()); }, {6}, {}, fj::f32},
      {"min axis 0", [] { return Array(x().min({0})); }, {1, 2, 3}, {3}, fj::f32},
      {"any", [] { return Array((x() > 5.f).any()); }, {1}, {}, fj::bool_},
      {"all axis 1", [] { return Array((x() > 1.f).all({1})); }, {0, 1}, {2}, fj::bool_},
      {"argmax", [] { return Array(x().argmax()); }, {5}, {}, fj::i32},
      {"argmin axis 1", [] { return Array(x().argmin(1)); }, {0, 1}, {2}, fj::i32},
      {"var", [] { return Array(x().var()); }, {var6}, {}, fj::f32},
      {"var axis 1 ddof 1", [] { return Array(x().var({1}, 1)); }, {4, 4}, {2}, fj::f32},
      {"std", [] { return Array(x().std()); }, {std::sqrt(var6)}, {}, fj::f32},
      {"cumsum axis 1", [] { return Array(x().cumsum(1)); }, {1, 6, 9, 4, 6, 12}, {2, 3}, fj::f32},
      {"cumprod flattened",
       [] { return Array(x().cumprod()); },
       {1, 5, 15, 60, 120, 720},
       {6},
       fj::f32},
      {"sort", [] { return Array(x().sort()); }, {1, 3, 5, 2, 4, 6}, {2, 3}, fj::f32},
      {"argsort axis 0", [] { return Array(x().argsort(0)); }, {0, 1, 0, 1, 0, 1}, {2, 3}, fj::i32},
      {"clip", [] { return Array(x().clip(2.f, 4.f)); }, {2, 4, 3, 4, 2, 4}, {2, 3}, fj::f32},
      {"round", [] { return Array((x() * 0.5f).round()); }, {0, 2, 2, 2, 1, 3}, {2, 3}, fj::f32},
      {"ravel", [] { return Array(x().ravel()); }, {1, 5, 3, 4, 2, 6}, {6}, fj::f32},
      {"flatten", [] { return Array(x().flatten()); }, {1, 5, 3, 4, 2, 6}, {6}, fj::f32},
      {"transpose",
       [] {
         return Array(x().transpose({1, 0}));
       },
       {1, 4, 5, 2, 3, 6},
       {3, 2},
       fj::f32},
      {"dot",
       [] {
         return Array(x().dot(fj::array({1.f, 0.f, 2.f})));
       },
       {7, 16},
       {2},
       fj::f32},
      // On an expression, not only on fj::Array.
      {"expression sum", [] { return Array((x() + 1.f).sum({0})); }, {7, 9, 11}, {3}, fj::f32},
  };
}

void check_row(const MethodRow& r) {
  CAPTURE(r.name);
  const Array got = r.got();
  CHECK(got.shape() == r.shape);
  CHECK(got.dtype() == r.dtype);
  const Array as_f64 = fj::astype(got, fj::f64);
  const std::vector<double> v = as_f64.to_vector<double>();
  REQUIRE(v.size() == r.want.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    // Exact but for the f32 rounding of the hand-worked double: within 1 ulp of f32.
    const float want = static_cast<float>(r.want[i]);
    CHECK(static_cast<float>(v[i]) == doctest::Approx(want).epsilon(1.2e-7));
  }
}

std::string printed(const auto& e) {
  std::ostringstream os;
  os << e;
  return os.str();
}

}  // namespace

TEST_CASE("api conveniences: jax.Array's methods give the values worked by hand") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    CAPTURE(backend);
    const fusejit_test::BackendScope scope(backend.c_str());
    for (const MethodRow& r : method_rows()) check_row(r);
  }
}

TEST_CASE("api conveniences: methods inside jit stage the free functions' equations") {
  auto f = [](const Array& a) { return a.sum({1}) + a.max({1}); };
  auto g = [](const Array& a) { return fj::sum(a, {1}) + fj::max(a, {1}); };
  CHECK(fj::make_jaxpr(f)(x()).str() == fj::make_jaxpr(g)(x()).str());
  CHECK(fj::jit(f)(x()).to_vector<float>() == std::vector<float>{14, 18});
}

TEST_CASE("api conveniences: x.at(idx).subtract, multiply, divide and power") {
  // v = [2, 4, 8]; repeated indices accumulate, as JAX's scatters do.
  const Array v = fj::array({2.f, 4.f, 8.f});
  const Array twice0 = fj::array({0, 0});
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    CAPTURE(backend);
    const fusejit_test::BackendScope scope(backend.c_str());
    CHECK(v.at(0).subtract(1.f).to_vector<float>() == std::vector<float>{1, 4, 8});
    CHECK(v.at(twice0).subtract(1.f).to_vector<float>() == std::vector<float>{0, 4, 8});
    CHECK(v.at(2).multiply(0.5f).to_vector<float>() == std::vector<float>{2, 4, 4});
    CHECK(v.at(1).divide(2.f).to_vector<float>() == std::vector<float>{2, 2, 8});
    // x / (1 * 2 * 2) at index 0.
    CHECK(v.at(twice0).divide(2.f).to_vector<float>() == std::vector<float>{0.5f, 4, 8});
    CHECK(v.at(1).power(2.f).to_vector<float>() == std::vector<float>{2, 16, 8});
    CHECK(v.at(fj::range(0, 2)).power(3.f).to_vector<float>() == std::vector<float>{8, 64, 8});
  }
}

TEST_CASE("api conveniences: keyword-style options give what the keywords give") {
  // jnp.eye(3, k=1, dtype=float64): ones at (0, 1) and (1, 2).
  const Array e = fj::eye(3, {.k = 1, .dtype = fj::f64});
  CHECK(e.dtype() == fj::f64);
  CHECK(e.to_vector<double>() == std::vector<double>{0, 1, 0, 0, 0, 1, 0, 0, 0});
  CHECK(fj::eye(2, {.m = 3}).shape() == fj::Shape{2, 3});
  CHECK(fj::eye(2, {}).dtype() == fj::default_float_dtype());
  // jnp.linspace(0, 1, num=5, endpoint=False) = [0, .2, .4, .6, .8] in f32.
  const Array l = fj::linspace(0, 1, {.num = 5, .endpoint = false});
  CHECK(l.to_vector<float>() == fj::linspace(0, 1, 5, false).to_vector<float>());
  CHECK(l.to_vector<float>()[1] == doctest::Approx(0.2f).epsilon(1.2e-7));
  // random: the options are the positional arguments by name.
  const Array key = fj::random::key(3);
  CHECK(fj::random::uniform(key, {4}, {.minval = -2, .maxval = 5}).to_vector<float>() ==
        fj::random::uniform(key, {4}, fj::f32, -2, 5).to_vector<float>());
  const Array n64 = fj::random::normal(key, {3}, {.dtype = fj::f64});
  CHECK(n64.dtype() == fj::f64);
  CHECK(n64.to_vector<double>() == fj::random::normal(key, {3}, fj::f64).to_vector<double>());
  // solve_triangular(L, b, lower=True) with L = [[2, 0], [1, 3]], b = [1, 2]: x = [0.5, 0.5].
  // The upper triangle holds 7s, which lower=True must not read.
  const Array lo = fj::array({{2.f, 7.f}, {1.f, 3.f}});
  const Array b = fj::array({1.f, 2.f});
  CHECK(Array(fj::scipy::linalg::solve_triangular(lo, b, {.lower = true})).to_vector<float>() ==
        std::vector<float>{0.5f, 0.5f});
  // cholesky(a, upper=True) of [[4, 2], [2, 3]]: U = [[2, 1], [0, sqrt(2)]].
  const std::vector<float> u =
      Array(fj::linalg::cholesky(fj::array({{4.f, 2.f}, {2.f, 3.f}}), {.upper = true}))
          .to_vector<float>();
  CHECK(u[0] == 2.f);
  CHECK(u[1] == 1.f);
  CHECK(u[2] == 0.f);
  CHECK(u[3] == doctest::Approx(std::sqrt(2.f)).epsilon(1.2e-7));
  // lax.linalg.triangular_solve(a, b, left_side=True, lower=True): the same x.
  CHECK(Array(fj::lax::linalg::triangular_solve(lo, b.reshape({2, 1}),
                                                {.left_side = true, .lower = true}))
            .to_vector<float>() == std::vector<float>{0.5f, 0.5f});
}

TEST_CASE("api conveniences: grad with several argnums of one type is indexable") {
  auto f = [](const Array& p, const Array& q) { return fj::sum(p * p * q); };
  const Array p = fj::array({1.f, 2.f}), q = fj::array({3.f, 5.f});
  auto g = fj::grad(f, fj::argnums{0, 1})(p, q);
  static_assert(std::is_same_v<decltype(g), std::array<Array, 2>>);
  // d/dp = 2 p q = [6, 20]; d/dq = p^2 = [1, 4].
  CHECK(g[0].to_vector<float>() == std::vector<float>{6, 20});
  CHECK(g[1].to_vector<float>() == std::vector<float>{1, 4});
  auto [gp, gq] = fj::grad(f, fj::argnums_v<0, 1>)(p, q);
  CHECK(gq.to_vector<float>() == std::vector<float>{1, 4});
  auto [value, grads] = fj::value_and_grad(f, fj::argnums{0, 1})(p, q);
  CHECK(value.item<float>() == 3.f + 20.f);
  CHECK(grads[0].to_vector<float>() == std::vector<float>{6, 20});
}

TEST_CASE("api conveniences: vmap's in_axes count is checked as JAX checks it") {
  auto mul = [](const Array& a, const Array& b) { return a * b; };
  const Array m = x();
  // One axis for all, JAX's in_axes=1: column j of both, multiplied.
  CHECK(Array(fj::vmap(mul, 1)(m, m)).to_vector<float>() ==
        std::vector<float>{1, 16, 25, 4, 9, 36});
  CHECK(Array(fj::vmap(mul)(m, m)).shape() == fj::Shape{2, 3});
  CHECK(Array(fj::vmap(mul, fj::in_axes{0, fj::none})(m, fj::array({1.f, 2.f, 3.f})))
            .to_vector<float>() == std::vector<float>{1, 10, 9, 4, 4, 18});
  check_throws_with<fj::ValueError>([&] { (void)fj::vmap(mul, fj::in_axes{0})(m, m); },
                                    {"fj::vmap", "len(in_axes)=1, len(args)=2"});
}

TEST_CASE("api conveniences: an expression prints as the array it evaluates to") {
  const Array m = x();
  CHECK(printed(m + 1.f) == printed(Array(m + 1.f)));
  CHECK(printed(m.sum()) == "Array(21., dtype=float32)");
}
