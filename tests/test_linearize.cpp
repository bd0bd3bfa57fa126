// fj::linearize, fj::linear_transpose, fj::eval_shape and fj::disable_jit: values against JAX
// 0.10.2 (tests/golden/linearize_goldens.txt, printed by tests/golden/linearize_goldens.py) on
// every backend, the transpose against the matrix transpose, shapes without running, eager
// execution under disable_jit, and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_close.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"linearize_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// Each value is a few f64 operations on transcendentals (within 1 ulp of JAX's on each
// backend) summed in an order that may differ: within 8 ulps of the largest value of its array.
void check_close(const Array& got, const std::string& section) {
  fusejit_test::check_close_to_golden(kGolden, got, section, 8);
}

std::pair<Array, Array> f(Tracer x) {
  return {fj::sin(x) * fj::sum(x * x), fj::exp(fj::slice(x, {0}, {1}).reshape({}))};
}

}  // namespace

TEST_CASE("linearize golden: the primal output and the tangent map as JAX's on every backend") {
  const Array x = input("x"), t = input("t");
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    auto [y, f_jvp] = fj::linearize(f, x);
    check_close(y.first, "linearize primal 0");
    check_close(y.second, "linearize primal 1");
    const auto [t0, t1] = f_jvp(t);
    check_close(t0, "linearize tangent 0");
    check_close(t1, "linearize tangent 1");
    const auto [u0, u1] = f_jvp(Array(t * 2.0));  // compiled once, called again
    check_close(u0, "linearize tangent2 0");
    check_close(u1, "linearize tangent2 1");
    // The same tangent as fj::jvp's, bit for bit (both run the one JVP rule).
    const auto [p, tj] = fj::jvp([](Tracer v) { return f(v).first; }, std::array{x}, std::array{t});
    (void)p;
    const auto a = fusejit_test::as_doubles(t0), b = fusejit_test::as_doubles(tj);
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
  }
}

TEST_CASE("linear_transpose golden: the transpose as JAX's and as the matrix transpose") {
  const Array x = input("x"), a = input("a"), ct = input("ct");
  auto g = [a](Tracer v, Tracer b) {
    return Array(fj::matmul(a, v) + 3.0 * fj::slice(b, {0}, {2}) - fj::sum(v));
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    auto gt = fj::linear_transpose(g, x, x);
    const auto [ct_x, ct_b] = gt(ct);
    check_close(ct_x, "transpose x 0");
    check_close(ct_b, "transpose b 0");
    // Independently: A^T ct - sum(ct), and 3 ct padded with a zero.
    const auto want = fusejit_test::as_doubles(Array(fj::matmul(a.T(), ct) - fj::sum(ct)));
    const auto got = fusejit_test::as_doubles(ct_x);
    for (std::size_t i = 0; i < 3; ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-15));
  }
}

TEST_CASE("linear_transpose: a non-linear function and a cotangent of the wrong shape raise") {
  const Array x = input("x");
  auto square = fj::linear_transpose([](Tracer v) { return Array(v * v); }, x);
  fusejit_test::check_throws_with<fj::TypeError>([&] { (void)square(x); },
                                                 {"fj::linear_transpose", "not linear"});
  auto relu = fj::linear_transpose([](Tracer v) { return Array(fj::maximum(v, 0.0)); }, x);
  fusejit_test::check_throws_with<fj::TypeError>([&] { (void)relu(x); }, {"not linear"});
  auto scale = fj::linear_transpose([](Tracer v) { return Array(v * 2.0); }, x);
  fusejit_test::check_throws_with<fj::ShapeError>(
      [&] { (void)scale(fj::zeros({4}, fj::f64)); },
      {"fj::linear_transpose", "the cotangent", "f64[4]", "f64[3]"});
  auto [y, f_jvp] = fj::linearize(f, x);
  (void)y;
  fusejit_test::check_throws_with<fj::ShapeError>(
      [&] { (void)f_jvp(x.astype(fj::f32)); }, {"fj::linearize", "tangent 0", "f32[3]", "f64[3]"});
}

TEST_CASE("eval_shape: the outputs' shapes and dtypes without compiling or running") {
  auto fn = [](Tracer m, Tracer v) {
    return std::make_tuple(Array(fj::matmul(m, v)), Array(fj::sum(m, {0}).astype(fj::i32)));
  };
  const fj::CacheStats before = fj::cache_stats();
  const auto [a, b] =
      fj::eval_shape(fn, fj::ShapeDtypeStruct{{1000, 3}, fj::f32}, fj::zeros({3}, fj::f32));
  CHECK(a.shape == fj::Shape{1000});
  CHECK(a.dtype == fj::f32);
  CHECK(b.shape == fj::Shape{3});
  CHECK(b.dtype == fj::i32);
  CHECK(fj::cache_stats().compiles == before.compiles);
  fusejit_test::check_throws_with<fj::ShapeError>(
      [&] {
        (void)fj::eval_shape(fn, fj::ShapeDtypeStruct{{2, 3}, fj::f32},
                             fj::ShapeDtypeStruct{{4}, fj::f32});
      },
      {"f32[2,3]", "f32[4]"});
}

TEST_CASE("disable_jit: jitted functions run eagerly inside the scope, compiled outside") {
  int traces = 0;
  auto f2 = fj::jit([&](Tracer v) {
    ++traces;
    // Eager: the argument is a concrete array whose values can be read mid-function.
    if (!fj::detail::current_trace()) CHECK(v.data<float>()[1] == 2.0f);
    return Array(v * 2.0f + 1.0f);
  });
  const Array x = fj::array(std::vector<float>{1, 2, 3}, fj::Shape{3});
  {
    fj::disable_jit no_jit;
    CHECK(fj::jit_disabled());
    const Array y = f2(x);
    CHECK(y.data<float>()[2] == 7.0f);
    CHECK(f2.trace_count() == 0);
    {
      fj::disable_jit on(false);
      CHECK(!fj::jit_disabled());
    }
    CHECK(fj::jit_disabled());
    // Transformations still trace (their own jit is not the user's), and so do the library's
    // functions that only run inside a trace (an eager call of them once recursed forever).
    CHECK(fj::grad([](Tracer v) { return fj::sum(v * v); })(x).data<float>()[2] == 6.0f);
    const Array neg = fj::array(std::vector<float>{-1, 2, -3}, fj::Shape{3});
    CHECK(Array(fj::nn::relu(neg)).data<float>()[1] == 2.0f);  // a custom_jvp function
    CHECK(fj::checkpoint([](Tracer v) { return Array(v * 3.0f); })(x).data<float>()[0] == 3.0f);
    auto twice = fj::custom_vjp([](Tracer v) { return Array(v * 2.0f); },
                                [](Tracer v) { return std::make_pair(Array(v * 2.0f), v); },
                                [](Tracer, Tracer g) { return std::make_tuple(Array(g * 2.0f)); });
    CHECK(twice(x).data<float>()[2] == 6.0f);
    const auto [jy, t] =
        fj::jvp([](Tracer v) { return Array(v * v); }, std::array{x}, std::array{x});
    CHECK(t.data<float>()[1] == 8.0f);
    const auto [y2, pullback] = fj::vjp([](Tracer v) { return Array(v * v); }, std::array{x});
    CHECK(pullback(x)[0].data<float>()[2] == 18.0f);
    const auto [lse, sign] = fj::nn::logsumexp_with_sign(neg);
    CHECK(sign.item<float>() == 1.0f);
    (void)jy, (void)y2, (void)lse;
  }
  CHECK(!fj::jit_disabled());
  const int eager_calls = traces;
  CHECK(f2(x).data<float>()[0] == 3.0f);
  CHECK(f2.trace_count() == 1);
  CHECK(traces == eager_calls + 1);
}
