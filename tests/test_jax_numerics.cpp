// Issue 18 on both CPU backends: erf_inv near +-1 against mpmath, max/min/argmax on signed zeros
// and NaN as XLA defines them, and sin/cos/tan near multiples of pi/2 against mpmath.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "backend_compare.hpp"
#include "golden/erf_inv_refs.hpp"  // both written by python3 tests/golden/numerics_refs.py
#include "golden/trig_refs.hpp"
#include "ulp.hpp"

using fj::Tracer;
using fusejit_test::BackendScope;
using fusejit_test::has_backend;
using LD = long double;

namespace {

constexpr const char* kBackends[] = {"reference", "llvm"};

using fusejit_test::ulp_at;

// |got - (hi + lo)| in ulps of T at the reference. got - hi is exact in long double (its 64-bit
// significand holds the difference of two nearby doubles), so the measure resolves 2^-11 ulp.
template <class T>
double ulps(T got, double hi, double lo = 0) {
  if (!std::isfinite(got)) return 1e30;
  const LD d = (static_cast<LD>(got) - static_cast<LD>(hi)) - static_cast<LD>(lo);
  return static_cast<double>(std::fabs(d) / ulp_at<T>(static_cast<LD>(hi) + lo));
}

template <class T>
fj::Array vec(const std::vector<T>& v) {
  return fj::array(v, fj::Shape{static_cast<std::int64_t>(v.size())});
}

template <class T, class F>
std::vector<T> jit_map(F f, const std::vector<T>& x) {
  const fj::Array out = fj::jit([f](Tracer t) { return f(t); })(vec(x));
  REQUIRE(out.dtype() == fj::dtype_of_v<T>);
  return out.to_vector<T>();
}

struct Worst {
  double ulp = 0, x = 0;
};
void note(Worst& w, double u, double x) {
  if (u > w.ulp) w = {u, x};
}

// Runs `fn(name)` with each registered backend of kBackends as the default.
template <class Fn>
void on_each_backend(Fn fn) {
  for (const char* backend : kBackends) {
    if (!has_backend(backend)) continue;
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    fn(std::string(backend));
  }
}

}  // namespace

// ---- 1. erf_inv ----------------------------------------------------------------------------
//
// Conditioning. y = erfinv(x) has dy/dx = (sqrt(pi)/2) e^{y^2}, so the relative condition number
// is k(x) = x y'/y = sqrt(pi) x e^{y^2} / (2y). Near 1, 1 - x = erfc(y) ~ e^{-y^2} / (y sqrt(pi)),
// so k ~ x / (2 y^2 (1 - x)): 1.3e14 at x = 1 - 2^-53 (y = 5.86). An input's rounding (half an
// ulp, 2^-54 relative below 1) would thus allow an error of 0.7% there; but x is exact as given,
// and 1 - x^2 = (1 - x)(1 + x) can be formed with one rounding (fma(-x, x, 1)). As a function of
// d = 1 - x^2, y is well conditioned: with w = -log d, dy/dw ~ 1/(2y) and |d log y / d log d|
// ~ 1/(2y^2) < 0.5 for y >= 1. So an error of a few ulps of y is achievable for every double, and
// the bounds below are that, not k times an ulp.
//
// f64 bound: 3 ulps. The polynomial pieces (our mpmath fits, docs/MATH.md) are within 3.2e-18
// of erfinv before their coefficients are rounded; the constant term's rounding and Horner's
// add up to about an ulp of P; w's error (d = fma(-x, x, 1) rounded once, log's half ulp) moves
// y by dw/(2y) in the tail and by at most ~0.3 ulp in the body; the final x * P (or the sqrt of
// the tail variable) adds half an ulp. Measured: 1.40 ulps on these points, 2.19 at the worst of
// a 2e6-point scan of [0.5, 1) against a long double solution (that point is in the table).
//
// f32 bound: 65 ulps. f32 is XLA's ErfInv32 bit for bit (fj::random::normal equals JAX's on
// that), and XLA forms 1 - x^2 from x*x rounded in f32: for x = 1 - d the rounding error is up
// to min(d^2, 2^-25), relative to 1 - x^2 ~ 2d that peaks at 2^-13.5 where d = 2^-12.5, and
// moves y by ~2^-13.5 / (2y), 65 ulps at y = 2.7. An exhaustive scan of every float in [0.5, 1)
// measured 64.73 ulps at 0x1.ffe962p-1 (in the table); JAX has the same error there.
// erf_inv of every row's x on each backend within `bound` ulps (`error(row, got)`); `more(got)`
// adds a backend's further checks.
template <class T, class Rows, class Error, class More>
void check_erf_inv_rows(const Rows& rows, Error error, double bound, const char* label, More more) {
  std::vector<T> xs;
  for (const auto& r : rows) xs.push_back(static_cast<T>(r.x));
  on_each_backend([&](const std::string& backend) {
    const auto got = jit_map([](Tracer t) { return fj::erf_inv(t); }, xs);
    Worst w;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double u = error(rows[i], got[i]);
      CAPTURE(rows[i].x);
      CAPTURE(got[i]);
      CHECK(u <= bound);
      note(w, u, rows[i].x);
    }
    MESSAGE(backend, " erf_inv ", label, ": max ", w.ulp, " ulp at x = ", w.x);
    more(got);
  });
}

TEST_CASE("jax numerics: erf_inv f64 near +-1 and in the body against mpmath") {
  check_erf_inv_rows<double>(
      numerics_refs::kErfInv64, [](const auto& r, double got) { return ulps(got, r.hi, r.lo); },
      3.0, "f64",
      [](const std::vector<double>& got) {
        // The issue's numbers (JAX 0.10.2 and scipy print these digits).
        CHECK(got[52] == doctest::Approx(5.86358).epsilon(1e-6));  // x = 1 - 2^-53
        const auto issue = jit_map([](Tracer t) { return fj::erf_inv(t); },
                                   std::vector<double>{0.9999999999999999, 0.999999999999});
        CHECK(issue[0] == doctest::Approx(5.86358).epsilon(1e-6));
        CHECK(issue[1] == doctest::Approx(5.0420319).epsilon(1e-8));
      });
}

TEST_CASE("jax numerics: erf_inv f32 near +-1 and in the body against mpmath") {
  check_erf_inv_rows<float>(
      numerics_refs::kErfInv32, [](const auto& r, float got) { return ulps(got, r.ref); }, 65.0,
      "f32", [](const std::vector<float>&) {});
}

// ---- 2. max / min on signed zeros and NaN ----------------------------------------------------
//
// XLA (and so JAX): max(+0, -0) = max(-0, +0) = +0, min(+0, -0) = min(-0, +0) = -0, and a NaN
// on either side gives NaN. The reductions fold with the same operation, so a max over values
// mixing +-0 is +0 and a min is -0, whatever the order and the lane split.
namespace {

template <class T>
bool neg(T v) {
  return std::signbit(v);
}

// Operand pairs cycling through (+0,+0), (+0,-0), (-0,+0), (-0,-0), (NaN, 0), (0, NaN),
// (-1, -0), (+0, 1), n of them: 37 leaves a tail after 4-, 8- and 16-lane vectors.
template <class T>
void zero_pairs(std::size_t n, std::vector<T>& a, std::vector<T>& b) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T pa[] = {T(0), T(0), T(-0.0), T(-0.0), nan, T(-0.0), T(-1), T(0)};
  const T pb[] = {T(0), T(-0.0), T(0), T(-0.0), T(-0.0), nan, T(-0.0), T(1)};
  for (std::size_t i = 0; i < n; ++i) a.push_back(pa[i % 8]), b.push_back(pb[i % 8]);
}

template <class T>
void check_pairs(const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& got,
                 bool is_max) {
  REQUIRE(got.size() == a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    CAPTURE(a[i]);
    CAPTURE(b[i]);
    CAPTURE(got[i]);
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      CHECK(std::isnan(got[i]));
    } else if (a[i] == b[i]) {  // +-0 pairs: max is -0 only if both are, min if either is
      CHECK(got[i] == T(0));
      CHECK(neg(got[i]) == (is_max ? neg(a[i]) && neg(b[i]) : neg(a[i]) || neg(b[i])));
    } else {
      const T want = is_max ? (a[i] > b[i] ? a[i] : b[i]) : (a[i] < b[i] ? a[i] : b[i]);
      CHECK(got[i] == want);
      CHECK(neg(got[i]) == neg(want));
    }
  }
}

template <class T>
void elementwise_cases() {
  for (std::size_t n : {std::size_t{4}, std::size_t{8}, std::size_t{16}, std::size_t{37}}) {
    CAPTURE(n);
    std::vector<T> a, b;
    zero_pairs(n, a, b);
    // Jitted (one fused kernel: vector body and scalar tail) and op by op.
    const auto jmax = fj::jit([](Tracer x, Tracer y) { return fj::maximum(x, y); });
    const auto jmin = fj::jit([](Tracer x, Tracer y) { return fj::minimum(x, y); });
    check_pairs(a, b, jmax(vec(a), vec(b)).template to_vector<T>(), true);
    check_pairs(a, b, jmin(vec(a), vec(b)).template to_vector<T>(), false);
    check_pairs(a, b, fj::Array(fj::maximum(vec(a), vec(b))).template to_vector<T>(), true);
    check_pairs(a, b, fj::Array(fj::minimum(vec(a), vec(b))).template to_vector<T>(), false);
  }
  // A broadcast scalar on either side: jnp.maximum(-0.0, 0.0) is 0.0, jnp.minimum(0.0, -0.0) -0.0.
  const std::vector<T> mz(37, T(-0.0)), pz(37, T(0));
  const auto sc = [](T v) { return fj::array(v); };
  for (const T& v : fj::Array(fj::maximum(vec(mz), sc(T(0)))).template to_vector<T>())
    CHECK(!neg(v));
  for (const T& v : fj::Array(fj::maximum(sc(T(0)), vec(mz))).template to_vector<T>())
    CHECK(!neg(v));
  for (const T& v : fj::Array(fj::minimum(vec(pz), sc(T(-0.0)))).template to_vector<T>())
    CHECK(neg(v));
  for (const T& v : fj::Array(fj::minimum(sc(T(-0.0)), vec(pz))).template to_vector<T>())
    CHECK(neg(v));
}

}  // namespace

TEST_CASE("jax numerics: maximum/minimum of +-0 and NaN (XLA's semantics)") {
  on_each_backend([](const std::string&) {
    elementwise_cases<float>();
    elementwise_cases<double>();
  });
}

namespace {

template <class T>
void reduction_cases() {
  const T pz = T(0), mz = T(-0.0), nan = std::numeric_limits<T>::quiet_NaN();
  // 1 << 20 elements split into per-thread partials that the host combines.
  for (std::size_t n : {std::size_t{1}, std::size_t{4}, std::size_t{8}, std::size_t{16},
                        std::size_t{37}, std::size_t{1} << 20}) {
    CAPTURE(n);
    // The odd one out first, in the middle, last (in the scalar tail when n is 37).
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      CAPTURE(at);
      for (bool odd_is_plus : {true, false}) {
        std::vector<T> x(n, odd_is_plus ? mz : pz);
        x[at] = odd_is_plus ? pz : mz;
        const bool all_minus = n == 1 ? !odd_is_plus : false;
        const bool all_plus = n == 1 ? odd_is_plus : false;
        const fj::Array a = vec(x);
        const T mx = fj::jit([](Tracer t) { return fj::max(t); })(a).template item<T>();
        const T mn = fj::jit([](Tracer t) { return fj::min(t); })(a).template item<T>();
        const T mx_eager = fj::Array(fj::max(a)).template item<T>();
        const T mn_eager = fj::Array(fj::min(a)).template item<T>();
        for (T v : {mx, mx_eager}) CHECK((v == T(0) && neg(v) == all_minus));
        for (T v : {mn, mn_eager}) CHECK((v == T(0) && neg(v) == !all_plus));
        // A NaN anywhere wins over the zeros.
        x[n / 3] = nan;
        CHECK(std::isnan(fj::jit([](Tracer t) { return fj::max(t); })(vec(x)).template item<T>()));
        CHECK(std::isnan(fj::jit([](Tracer t) { return fj::min(t); })(vec(x)).template item<T>()));
      }
    }
  }
  // Along either axis of a 37 x 5 array whose rows and columns each mix +-0 (or not).
  std::vector<T> m(37 * 5);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = (i % 3 == 0) ? pz : mz;
  const fj::Array a = fj::array(m, fj::Shape{37, 5});
  for (int axis : {0, 1}) {
    CAPTURE(axis);
    const auto mx =
        fj::jit([axis](Tracer t) { return fj::max(t, {axis}); })(a).template to_vector<T>();
    const auto mn =
        fj::jit([axis](Tracer t) { return fj::min(t, {axis}); })(a).template to_vector<T>();
    for (std::size_t j = 0; j < mx.size(); ++j) {
      bool any_plus = false, any_minus = false;
      const std::size_t len = axis == 0 ? 37 : 5;
      for (std::size_t k = 0; k < len; ++k) {
        const std::size_t i = axis == 0 ? k * 5 + j : j * 5 + k;
        (neg(m[i]) ? any_minus : any_plus) = true;
      }
      CHECK(neg(mx[j]) == !any_plus);
      CHECK(neg(mn[j]) == any_minus);
    }
  }
}

}  // namespace

TEST_CASE("jax numerics: reduce_max/reduce_min over mixed +-0 (XLA's semantics)") {
  on_each_backend([](const std::string&) {
    reduction_cases<float>();
    reduction_cases<double>();
  });
}

TEST_CASE("jax numerics: argmax/argmin treat -0 == +0, first index wins (as JAX)") {
  // jnp.argmax(jnp.array([-0., 0.])) == 0 and jnp.argmin(jnp.array([0., -0.])) == 0: XLA's
  // argmax compares with >, under which the zeros tie.
  on_each_backend([](const std::string&) {
    for (const std::vector<double>& v :
         {std::vector<double>{-0.0, 0.0, -0.0}, std::vector<double>{0.0, -0.0, 0.0}}) {
      const fj::Array a = vec(v);
      CHECK(fj::Array(fj::argmax(a)).item<std::int32_t>() == 0);
      CHECK(fj::Array(fj::argmin(a)).item<std::int32_t>() == 0);
      CHECK(fj::jit([](Tracer t) { return fj::argmax(t); })(a).item<std::int32_t>() == 0);
      CHECK(fj::jit([](Tracer t) { return fj::argmin(t); })(a).item<std::int32_t>() == 0);
    }
    const fj::Array withnan = vec(std::vector<float>{-0.0f, 0.0f, NAN, 1.0f});
    CHECK(fj::Array(fj::argmax(withnan)).item<std::int32_t>() == 2);
    CHECK(fj::Array(fj::argmin(withnan)).item<std::int32_t>() == 2);
  });
}

// ---- 3. sin, cos, tan near multiples of pi/2 --------------------------------------------------
//
// Bounds, in ulps of the result against mpmath's exact value:
// - reference, f64 and f32: 0.5 + 2^-9. It evaluates the C library's long double sin/cos/tan
//   (exact reduction; within an ulp or two of a long double, i.e. 2^-10 ulp of a double) and
//   rounds once; measured 0.4989. (glibc's double cos/tan were 8/14 ulps off at the hardest
//   double, 6381956970095103 * 2^797, which is why the reference does not use them.)
// - llvm: docs/MATH.md's bounds (2 ulps sin/cos, 3.5 tan), there for comparison: the oracle is
//   the more accurate of the two.
// sin, cos and tan of every row's x on each backend within the bounds above; `errors(row, s, c,
// t)` gives the three results' distances in ulps from the row's references.
template <class T, class Rows, class Errors>
void check_trig_rows(const Rows& rows, Errors errors, const char* label) {
  std::vector<T> xs;
  for (const auto& r : rows) xs.push_back(static_cast<T>(r.x));
  on_each_backend([&](const std::string& backend) {
    const bool ref = backend == "reference";
    const double bsc = ref ? 0.5 + 0x1p-9 : 2.0, bt = ref ? 0.5 + 0x1p-9 : 3.5;
    const auto s = jit_map([](Tracer t) { return fj::sin(t); }, xs);
    const auto c = jit_map([](Tracer t) { return fj::cos(t); }, xs);
    const auto t = jit_map([](Tracer v) { return fj::tan(v); }, xs);
    Worst ws, wc, wt;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const auto& r = rows[i];
      CAPTURE(r.x);
      const auto [us, uc, ut] = errors(r, s[i], c[i], t[i]);
      CHECK(us <= bsc);
      CHECK(uc <= bsc);
      CHECK(ut <= bt);
      note(ws, us, r.x), note(wc, uc, r.x), note(wt, ut, r.x);
    }
    MESSAGE(backend, " ", label, " sin/cos/tan: max ", ws.ulp, " / ", wc.ulp, " / ", wt.ulp,
            " ulp at x = ", ws.x, " / ", wc.x, " / ", wt.x);
  });
}

TEST_CASE("jax numerics: sin/cos/tan f64 at the doubles nearest k pi/2 against mpmath") {
  check_trig_rows<double>(
      numerics_refs::kTrig64,
      [](const auto& r, double s, double c, double t) {
        return std::array<double, 3>{ulps(s, r.sin_hi, r.sin_lo), ulps(c, r.cos_hi, r.cos_lo),
                                     ulps(t, r.tan_hi, r.tan_lo)};
      },
      "f64");
  // The issue's number: sin(fl(pi)) = 1.2246467991473532e-16 (exact, rounded).
  BackendScope scope("reference");
  CHECK(jit_map([](Tracer t) { return fj::sin(t); }, std::vector<double>{M_PI})[0] ==
        1.2246467991473532e-16);
}

TEST_CASE("jax numerics: sin/cos/tan f32 at the floats nearest k pi/2 against mpmath") {
  check_trig_rows<float>(
      numerics_refs::kTrig32,
      [](const auto& r, float s, float c, float t) {
        return std::array<double, 3>{ulps(s, r.sin), ulps(c, r.cos), ulps(t, r.tan)};
      },
      "f32");
}
