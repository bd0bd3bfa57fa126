// grad, jvp and vmap through fj::lax control flow: gradients against central finite differences
// in f64, reverse against forward mode (the transpose identity), vmap against per-example
// calls, and while_loop's forward-only error.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <vector>

namespace lax = fj::lax;
using fj::Array;
using fj::Tracer;

namespace {

std::vector<double> doubles(const Array& a) { return Array(a.astype(fj::f64)).to_vector<double>(); }

Array f64_array(const std::vector<double>& v) {
  return fj::array(v, fj::Shape{static_cast<std::int64_t>(v.size())});
}

/// d/dx_i of a scalar function of one f64 vector by central differences. With h = 1e-5 the
/// error is about h^2 |f'''| + eps |f| / h, below 1e-9 for these smooth, O(1) functions.
template <class F>
std::vector<double> finite_differences(F f, const std::vector<double>& x) {
  const double h = 1e-5;
  std::vector<double> g;
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto p = x, m = x;
    p[i] += h;
    m[i] -= h;
    g.push_back((Array(f(f64_array(p))).item<double>() - Array(f(f64_array(m))).item<double>()) /
                (2 * h));
  }
  return g;
}

void check_close(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(got[i] - want[i]) <= tol * std::max(1.0, std::abs(want[i])));
  }
}

// A scan whose carry and ys both depend on the carry, xs and a closed-over constant.
Array scan_program(Tracer x, bool reverse) {
  Array w = x(0) * 0.5;  // a value captured by the body: a const of the scan
  auto [c, ys] = lax::scan(
      [&](Tracer carry, Tracer xi) {
        Array next = fj::sin(carry) * xi + w;
        return std::make_pair(next, next * carry);
      },
      x(1), x, reverse);
  return c + fj::sum(ys);
}

Array cond_program(Tracer x) {
  return fj::sum(lax::cond(
      fj::sum(x) > 0, [](Tracer v) { return fj::sin(v) * v; },
      [](Tracer v) { return fj::exp(v) * 2.0; }, x));
}

Array fori_program(Tracer x) {
  // Static bounds: a scan, so reverse mode works.
  Array r = lax::fori_loop(
      0, 4, [](Tracer, Tracer c) { return fj::tanh(c) * 1.5 + 0.1; }, x);
  return fj::sum(r * r);
}

}  // namespace

TEST_CASE("grad through lax.scan, forward and reverse, against finite differences (f64)") {
  const std::vector<double> x{0.3, -0.7, 1.1, 0.4, -0.2};
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    auto f = [reverse](Tracer v) { return scan_program(v, reverse); };
    const auto g = doubles(fj::grad(f)(f64_array(x)));
    check_close(g, finite_differences(fj::jit(f), x), 1e-7);
    // jit(grad) and grad(jit) give the same numbers.
    check_close(doubles(fj::jit(fj::grad(f))(f64_array(x))), g, 1e-14);
    check_close(doubles(fj::grad(fj::jit(f))(f64_array(x))), g, 1e-14);
  }
}

TEST_CASE("grad through lax.cond and a static fori_loop against finite differences (f64)") {
  for (const std::vector<double>& x :
       {std::vector<double>{0.3, 0.9, -0.1}, std::vector<double>{-0.5, -0.9, 0.2}}) {
    CAPTURE(x[0]);
    check_close(doubles(fj::grad(cond_program)(f64_array(x))),
                finite_differences(fj::jit(cond_program), x), 1e-7);
    check_close(doubles(fj::grad(fori_program)(f64_array(x))),
                finite_differences(fj::jit(fori_program), x), 1e-7);
  }
}

TEST_CASE("jvp through scan, cond and while_loop: forward mode against finite differences") {
  const std::vector<double> x{0.3, -0.7, 1.1}, v{1.0, -2.0, 0.5};
  auto directional = [&](auto f) {
    // f(x + h v) - f(x - h v) over 2h.
    const double h = 1e-5;
    std::vector<double> p = x, m = x;
    for (std::size_t i = 0; i < x.size(); ++i) p[i] += h * v[i], m[i] -= h * v[i];
    return (Array(fj::jit(f)(f64_array(p))).item<double>() -
            Array(fj::jit(f)(f64_array(m))).item<double>()) /
           (2 * h);
  };
  auto while_program = [](Tracer x) {
    // Doubles x until its sum passes 10: a trip count that depends on the value (3 here).
    auto r = lax::while_loop([](Tracer c) { return fj::sum(fj::abs(c)) < 10.0; },
                             [](Tracer c) { return c * 2.0 + fj::sin(c); }, x);
    return fj::sum(r * r);
  };
  auto scan_fwd = [](Tracer x) { return scan_program(x, false); };
  auto check = [&](auto f) {
    auto [y, t] =
        fj::jvp(f, std::array<Array, 1>{f64_array(x)}, std::array<Array, 1>{f64_array(v)});
    CHECK(t.template item<double>() == doctest::Approx(directional(f)).epsilon(1e-7));
    (void)y;
  };
  check(scan_fwd);
  check(cond_program);
  check(while_program);
}

TEST_CASE("reverse mode through scan and cond is the transpose of forward mode") {
  // <vjp(u), v> = <u, jvp(v)> for a vector-valued program, exactly up to rounding.
  auto f = [](Tracer x) {
    auto [c, ys] = lax::scan(
        [](Tracer carry, Tracer xi) {
          Array next = lax::cond(
              xi > 0, [](Tracer a) { return fj::sin(a) * 2.0; }, [](Tracer a) { return a * a; },
              carry + xi);
          return std::make_pair(next, next * xi);
        },
        x(0), x);
    return ys * c;
  };
  const Array x = f64_array({0.3, -0.7, 1.1, 0.4}), v = f64_array({1.0, -2.0, 0.5, 0.25});
  const Array u = f64_array({0.5, 1.5, -1.0, 2.0});
  auto [y, jv] = fj::jvp(f, std::array<Array, 1>{x}, std::array<Array, 1>{v});
  auto [out, pullback] = fj::vjp(f, std::array<Array, 1>{x});
  const auto ct = doubles(pullback(u)[0]);
  double lhs = 0, rhs = 0;
  const auto jvv = doubles(jv), vv = doubles(v), uv = doubles(u);
  for (std::size_t i = 0; i < 4; ++i) lhs += ct[i] * vv[i], rhs += uv[i] * jvv[i];
  CHECK(lhs == doctest::Approx(rhs).epsilon(1e-12));
  CHECK(doubles(out) == doubles(y));
}

TEST_CASE("vmap of lax control flow equals per-example calls") {
  // cond with a batched predicate (both branches run, each element picks), scan over batched
  // xs, and while_loop whose trip count differs per element.
  auto g = [](Tracer x, Tracer n) {
    auto i = lax::while_loop([&](Tracer k) { return k < n; }, [](Tracer k) { return k + 1; }, 0);
    return x + i;
  };
  auto vg = fj::vmap(g, fj::in_axes{fj::none, 0});
  const Array ns = fj::array({20, 5, 0, 7});
  const auto got = Array(vg(fj::array(10), ns)).to_vector<int>();
  for (int k = 0; k < 4; ++k)
    CHECK(got[static_cast<std::size_t>(k)] == Array(g(fj::array(10), ns(k))).item<int>());
  CHECK(got == std::vector<int>{30, 15, 10, 17});

  const Array xs = fj::array({{0.3, -0.7, 1.1}, {-0.3, 0.2, -1.5}, {2.0, 0.1, 0.4}});
  auto per_row = [&](auto f) {
    const Array batched = fj::vmap(f)(xs);
    for (std::int64_t r = 0; r < 3; ++r) {
      CAPTURE(r);
      check_close(doubles(Array(batched(r))), doubles(Array(fj::jit(f)(Array(xs(r))))), 1e-14);
    }
  };
  per_row(cond_program);
  per_row([](Tracer x) { return scan_program(x, false); });
  per_row(fori_program);
  // Per-example gradients through control flow.
  per_row(fj::grad([](Tracer x) { return scan_program(x, true); }));
  per_row(fj::grad(cond_program));
}

TEST_CASE("grad of while_loop is a clear error, as in JAX") {
  auto f = [](Tracer x) {
    return lax::while_loop([](Tracer c) { return c < 10.0; }, [](Tracer c) { return c * 2.0; }, x);
  };
  CHECK_THROWS_WITH_AS(fj::grad(f)(1.0), doctest::Contains("does not work for lax.while_loop"),
                       fj::ValueError);
  // fori_loop with traced bounds is a while loop too.
  auto h = [](Tracer x, Tracer n) {
    return lax::fori_loop(
        0, n, [](Tracer, Tracer c) { return c * 2.0; }, x);
  };
  CHECK_THROWS_AS(fj::grad(h)(1.0, 3), fj::ValueError);
}
