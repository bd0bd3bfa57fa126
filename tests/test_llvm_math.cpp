// Ulp accuracy of the LLVM backend's inline transcendental functions (docs/MATH.md), via fj::jit.
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "llvm_backend_scope.hpp"
#include "ulp.hpp"

namespace {

using LD = long double;

using fusejit_test::LlvmBackend;

using fusejit_test::ulp_at;

// Distance in ulps between a result and a higher-precision reference. Special values must match
// exactly (NaN for NaN, infinities and zeros with their signs); a finite reference beyond T's
// range must give the infinity it rounds to.
template <class T>
double ulp_distance(T got, LD ref) {
  constexpr double kMismatch = 1e30;
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : kMismatch;
  const LD max = static_cast<LD>(std::numeric_limits<T>::max());
  if (std::isinf(got)) {
    const bool rounds_to_inf = std::isinf(ref) || std::fabs(ref) >= max + ulp_at<T>(max) / 2;
    return rounds_to_inf && std::signbit(got) == std::signbit(ref) ? 0 : kMismatch;
  }
  if (std::isinf(ref)) return kMismatch;
  if (got == 0 && ref == 0) return std::signbit(got) == std::signbit(ref) ? 0 : kMismatch;
  return static_cast<double>(std::fabs(static_cast<LD>(got) - ref) / ulp_at<T>(ref));
}

// f32 results are compared with the function evaluated in double, f64 results with long double
// (both from the C library, whose own errors are far below an ulp of the tested format). `fn` is
// a generic lambda such as [](auto v) { return std::exp(v); }.
template <class T, class Fn>
LD reference(const Fn& fn, T x) {
  if constexpr (std::is_same_v<T, float>)
    return static_cast<LD>(fn(static_cast<double>(x)));
  else
    return fn(static_cast<LD>(x));
}
template <class T, class Fn>
LD reference(const Fn& fn, T x, T y) {
  if constexpr (std::is_same_v<T, float>)
    return static_cast<LD>(fn(static_cast<double>(x), static_cast<double>(y)));
  else
    return fn(static_cast<LD>(x), static_cast<LD>(y));
}

constexpr bool is_f32(float) { return true; }
constexpr bool is_f32(double) { return false; }

// Input sets: every set has the special values and a log-uniform sweep of magnitudes of both
// signs over T's whole range (subnormals included), so each function's domain handling is
// exercised, then a dense uniform sweep of the interesting interval and per-function edges.
template <class T>
struct Inputs {
  std::vector<T> x;
  std::mt19937_64 rng{20240607};

  explicit Inputs(double lo, double hi) {
    using L = std::numeric_limits<T>;
    for (T v : {T(0), T(-0.0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                -L::denorm_min(), L::min(), -L::min(), L::max(), -L::max(), T(1), T(-1), T(0.5),
                T(-0.5), T(2), T(-2), L::epsilon(), -L::epsilon()})
      x.push_back(v);
    std::uniform_real_distribution<double> e(std::log2(static_cast<double>(L::denorm_min())),
                                             std::log2(static_cast<double>(L::max())));
    for (int i = 0; i < 10000; ++i) {
      const T v = static_cast<T>(std::exp2(static_cast<LD>(e(rng))));
      x.push_back(v);
      x.push_back(-v);
    }
    uniform(lo, hi, 100000);
  }
  void uniform(double lo, double hi, int n) {
    std::uniform_real_distribution<double> d(lo, hi);
    for (int i = 0; i < n; ++i) x.push_back(static_cast<T>(d(rng)));
  }
  // The 2n+1 consecutive values of T centred on v.
  void around(double v, int n = 100) {
    T t = static_cast<T>(v);
    for (int i = 0; i < n; ++i) t = std::nextafter(t, -std::numeric_limits<T>::infinity());
    for (int i = 0; i <= 2 * n; ++i, t = std::nextafter(t, std::numeric_limits<T>::infinity()))
      x.push_back(t);
  }
};

template <class T>
fj::Array make(const std::vector<T>& v) {
  return fj::array(v, fj::Shape{static_cast<std::int64_t>(v.size())});
}
template <class T>
std::vector<T> run(const fj::Array& out, std::size_t n) {
  REQUIRE(out.dtype() == fj::dtype_of_v<T>);
  std::vector<T> got = out.to_vector<T>();
  REQUIRE(got.size() == n);
  return got;
}

struct Worst {
  double ulp = 0;
  double x = 0, y = 0, got = 0, want = 0;
};
void report(const char* name, bool f32, const Worst& w, double bound) {
  const std::string label = std::string(name) + (f32 ? " f32" : " f64");
  INFO(label, ": max ", w.ulp, " ulp at x = ", w.x, ", y = ", w.y, " (got ", w.got, ", want ",
       w.want, ")");
  CHECK(w.ulp <= bound);
}

// Checks f on the inputs and on the 3-element slice of them starting at `tail` (shorter than any
// vector width, so only a scalar tail runs). The inputs are padded to an odd length so the long
// run has a tail too.
template <class T, class F, class Ref>
void check_unary(const char* name, F& f, std::vector<T> xs, const Ref& ref, double bound,
                 std::size_t tail = 20) {
  if (xs.size() % 2 == 0) xs.push_back(T(0.375));
  REQUIRE(tail + 3 <= xs.size());
  Worst w;
  auto scan = [&](const std::vector<T>& in) {
    const std::vector<T> got = run<T>(f(make(in)), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const LD want = reference(ref, in[i]);
      const double u = ulp_distance<T>(got[i], want);
      if (u > w.ulp) w = {u, double(in[i]), 0, double(got[i]), double(want)};
    }
  };
  scan(xs);
  const auto at = xs.begin() + static_cast<std::ptrdiff_t>(tail);
  scan(std::vector<T>(at, at + 3));
  report(name, is_f32(T()), w, bound);
}

template <class T, class F, class Ref>
void check_binary(const char* name, F& f, std::vector<T> xs, std::vector<T> ys, const Ref& ref,
                  double bound) {
  if (xs.size() % 2 == 0) xs.push_back(T(0.375)), ys.push_back(T(1.5));
  Worst w;
  auto scan = [&](const std::vector<T>& a, const std::vector<T>& b) {
    const std::vector<T> got = run<T>(f(make(a), make(b)), a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      const LD want = reference(ref, a[i], b[i]);
      const double u = ulp_distance<T>(got[i], want);
      if (u > w.ulp) w = {u, double(a[i]), double(b[i]), double(got[i]), double(want)};
    }
  };
  scan(xs, ys);
  scan(std::vector<T>(xs.end() - 3, xs.end()), std::vector<T>(ys.end() - 3, ys.end()));
  report(name, is_f32(T()), w, bound);
}

// Each test case checks f32 then f64. The bounds (in ulps) are docs/MATH.md's: the measured
// maxima rounded up, with an argument for why the function cannot do much worse.
template <class Body>
void both(Body&& body) {
  body(float());
  body(double());
}

}  // namespace

TEST_CASE("llvm math: exp") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::exp(x); });
  both([&](auto t) {
    using T = decltype(t);
    const bool s = is_f32(t);
    Inputs<T> in(s ? -110 : -750, s ? 90 : 715);
    in.uniform(-1, 1, 10000);
    // Overflow to inf, first subnormal result, last nonzero result.
    for (double e :
         s ? std::vector<double>{88.72283935546875, -87.336544, -103.972076}
           : std::vector<double>{709.78271289338397, -708.39641853226408, -745.13321910194111})
      in.around(e);
    // Cody-Waite reduction to |r| <= ln2/2, a minimax polynomial and an exact 2^k scaling: the
    // result carries about two roundings (measured 0.99 / 0.96 ulp).
    check_unary(
        "exp", f, in.x, [](auto v) { return std::exp(v); }, 1.5);
  });
}

TEST_CASE("llvm math: expm1") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::expm1(x); });
  both([&](auto t) {
    using T = decltype(t);
    const bool s = is_f32(t);
    Inputs<T> in(s ? -20 : -40, s ? 90 : 715);
    in.uniform(-1, 1, 10000);
    in.uniform(-1e-3, 1e-3, 5000);
    for (double e :
         {0.34657359027997264, -0.34657359027997264, s ? 88.72283935546875 : 709.782712893384})
      in.around(e);
    // 2^k * expm1(r) + (2^k - 1) in one fma, the worst case just past |x| = ln2/2 where the fma
    // result is near a power of 2 (measured 1.42 / 1.79 ulp).
    check_unary(
        "expm1", f, in.x, [](auto v) { return std::expm1(v); }, 2.0);
  });
}

TEST_CASE("llvm math: log") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::log(x); });
  both([&](auto t) {
    using T = decltype(t);
    Inputs<T> in(0, 4);
    in.uniform(1 - 1e-3, 1 + 1e-3, 10000);
    for (double e :
         {1.0, 0.70710678118654752, 1.4142135623730951, double(std::numeric_limits<T>::min())})
      in.around(e);
    // fdlibm-style atanh series with the small terms added first, so one rounding dominates
    // (measured 0.80 / 0.80 ulp).
    check_unary(
        "log", f, in.x, [](auto v) { return std::log(v); }, 1.0);
  });
}

TEST_CASE("llvm math: log1p") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::log1p(x); });
  both([&](auto t) {
    using T = decltype(t);
    Inputs<T> in(-1, 4);
    in.uniform(-1e-3, 1e-3, 10000);
    for (double e : {-1.0, 0.41421356237309505, -0.29289321881345248, 0.0}) in.around(e);
    // log of fl(1+x) plus the rounding error of that sum, as log (measured 0.84 / 0.80 ulp).
    check_unary(
        "log1p", f, in.x, [](auto v) { return std::log1p(v); }, 1.0);
  });
}

namespace {
// Where sin, cos and tan switch from the Cody-Waite reduction to Payne-Hanek (docs/MATH.md).
template <class T>
double trig_switch() {
  return is_f32(T()) ? 5e5 : 5e12;
}
// Multiples of pi/2 in long double (64-bit significand), exact enough for T's rounding of
// k pi/2 to be one of the T values nearest to it while k < 2^40 (f32) / 2^62 (f64).
constexpr LD kPio2L = 1.5707963267948966192313216916397514L;

// Both reductions: the usual arguments, each side of the switch, and the whole finite range.
// Starts with the inputs of `Inputs` (which include +-max and log-uniform magnitudes up to it);
// `tail` is where three large arguments sit for the scalar-tail run.
template <class T>
struct TrigInputs : Inputs<T> {
  std::size_t tail = 0;
  TrigInputs() : Inputs<T>(-1e3, 1e3) {
    auto& x = this->x;
    auto& rng = this->rng;
    const bool s = is_f32(T());
    const double r = trig_switch<T>();
    this->uniform(-r, r, 20000);
    this->uniform(-10, 10, 20000);
    this->around(r, 50);
    this->around(-r, 50);
    // Next to multiples of pi/2, where the reduced argument is smallest: below the switch, and
    // above it up to where k pi/2 in long double stops being close enough.
    auto near_multiples = [&](double k_lo, double k_hi, int n) {
      std::uniform_real_distribution<double> lk(std::log(k_lo), std::log(k_hi));
      for (int i = 0; i < n; ++i) {
        const T v = static_cast<T>(std::floor(std::exp(static_cast<LD>(lk(rng)))) * kPio2L);
        for (T w : {v, std::nextafter(v, T(0)), std::nextafter(v, T(2) * v)})
          x.push_back(w), x.push_back(-w);
      }
    };
    near_multiples(1, r / 1.5707963267948966, 1000);
    near_multiples(r / 1.5707963267948966, s ? 0x1p40 : 0x1p62, 3000);
    // Log-uniform magnitudes from the switch to the largest finite value, both signs.
    using L = std::numeric_limits<T>;
    std::uniform_real_distribution<double> e(std::log2(r), std::log2(double(L::max())));
    for (int i = 0; i < 20000; ++i) {
      const T v = static_cast<T>(std::exp2(static_cast<LD>(e(rng))));
      x.push_back(v), x.push_back(-v);
    }
    // The arguments closest to a multiple of pi/2 in the whole format (Payne-Hanek has to get
    // the most bits right there): 16367173 * 2^72 for f32, with r = 1.6e-9 (found by an
    // exhaustive search), and 6381956970095103 * 2^797 for f64, with r = 4.7e-19 (Muller,
    // "Elementary Functions", worst cases of range reduction). Then the largest values.
    tail = x.size();
    const T worst = s ? static_cast<T>(std::ldexp(16367173.0, 72))
                      : static_cast<T>(std::ldexp(6381956970095103.0, 797));
    for (T v : {worst, -L::max(), T(1e30), std::nextafter(worst, T(0)), L::max(), -worst,
                std::nextafter(L::max(), T(0)), std::nextafter(worst, L::max())})
      x.push_back(v);
  }
};
}  // namespace

TEST_CASE("llvm math: sin") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::sin(x); });
  both([&](auto t) {
    using T = decltype(t);
    // Cody-Waite: 3-part pi/2 (r rounded twice) and a polynomial on |r| <= pi/4: r's error and
    // the final sum's rounding add up (measured 1.54 / 1.49 ulp). Payne-Hanek rounds r once
    // (measured 1.49 / 1.48 ulp beyond the switch).
    TrigInputs<T> in;
    check_unary(
        "sin", f, in.x, [](auto v) { return std::sin(v); }, 2.0, in.tail);
  });
}

TEST_CASE("llvm math: cos") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::cos(x); });
  both([&](auto t) {
    using T = decltype(t);
    // As sin, with the rounding of 1 - r^2/2 recovered (measured 1.54 / 1.48 ulp; 1.50 / 1.47
    // beyond the switch).
    TrigInputs<T> in;
    check_unary(
        "cos", f, in.x, [](auto v) { return std::cos(v); }, 2.0, in.tail);
  });
}

TEST_CASE("llvm math: tan") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::tan(x); });
  both([&](auto t) {
    using T = decltype(t);
    // Reduction as sin, a polynomial for tan r and, in odd quadrants, a reciprocal: one more
    // rounding on top of r's (measured 3.05 / 3.17 ulp; 2.53 / 2.49 beyond the switch).
    TrigInputs<T> in;
    check_unary(
        "tan", f, in.x, [](auto v) { return std::tan(v); }, 3.5, in.tail);
  });
}

TEST_CASE("llvm math: sin, cos and tan of one argument in one kernel, large and small lanes") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  // The three share one reduction (and one large-argument branch) and the kernel keeps other
  // values live across it; shuffled inputs put large and small arguments in the same vectors.
  auto f = fj::jit(
      [](fj::Tracer x) { return std::make_tuple(fj::sin(x), fj::cos(x), fj::tan(x), x * 2.0f); });
  both([&](auto t) {
    using T = decltype(t);
    TrigInputs<T> in;
    std::vector<T> xs = in.x;
    std::shuffle(xs.begin(), xs.end(), in.rng);
    if (xs.size() % 2 == 0) xs.push_back(T(0.375));
    auto [s, c, tn, twice] = f(make(xs));
    const std::vector<T> got[3] = {run<T>(s, xs.size()), run<T>(c, xs.size()),
                                   run<T>(tn, xs.size())};
    const std::vector<T> got2 = run<T>(twice, xs.size());
    Worst w[3];
    bool twice_ok = true;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const LD want[3] = {reference([](auto v) { return std::sin(v); }, xs[i]),
                          reference([](auto v) { return std::cos(v); }, xs[i]),
                          reference([](auto v) { return std::tan(v); }, xs[i])};
      for (int k = 0; k < 3; ++k) {
        const double u = ulp_distance<T>(got[k][i], want[k]);
        if (u > w[k].ulp) w[k] = {u, double(xs[i]), 0, double(got[k][i]), double(want[k])};
      }
      twice_ok &= got2[i] == xs[i] * T(2) || (std::isnan(got2[i]) && std::isnan(xs[i]));
    }
    report("sin (fused)", is_f32(t), w[0], 2.0);
    report("cos (fused)", is_f32(t), w[1], 2.0);
    report("tan (fused)", is_f32(t), w[2], 3.5);
    CHECK(twice_ok);
  });
}

TEST_CASE("llvm math: tanh") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::tanh(x); });
  both([&](auto t) {
    using T = decltype(t);
    Inputs<T> in(-10, 10);
    in.uniform(-1, 1, 10000);
    for (double e : {0.625, -0.625, 9.0, 19.0}) in.around(e);
    // Odd polynomial below 0.625, 1 - 2/(expm1(2x) + 2) above, worst just past 0.625 where the
    // subtracted term is largest (measured 1.33 / 1.34 ulp).
    check_unary(
        "tanh", f, in.x, [](auto v) { return std::tanh(v); }, 1.5);
  });
}

TEST_CASE("llvm math: erf") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::erf(x); });
  both([&](auto t) {
    using T = decltype(t);
    Inputs<T> in(-7, 7);
    in.uniform(-1, 1, 10000);
    for (double e : {1.0, -1.0, 2.0, 4.0, 3.92, 5.93}) in.around(e);
    // x + x P(x^2) below 1, 1 - exp(-x^2 + H(x)) above, where erfc < 0.16 shrinks exp's error
    // (measured 0.97 / 0.96 ulp).
    check_unary(
        "erf", f, in.x, [](auto v) { return std::erf(v); }, 1.5);
  });
}

TEST_CASE("llvm math: logistic") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::logistic(x); });
  both([&](auto t) {
    using T = decltype(t);
    const bool s = is_f32(t);
    Inputs<T> in(s ? -110 : -750, s ? 90 : 720);
    in.uniform(-20, 20, 10000);
    // exp(-|x|) (~1 ulp), then an addition and a division, each rounded (measured 2.40 /
    // 2.30 ulp).
    check_unary(
        "logistic", f, in.x,
        [](auto v) {
          using R = decltype(v);
          return v >= 0 ? R(1) / (R(1) + std::exp(-v)) : std::exp(v) / (R(1) + std::exp(v));
        },
        3.0);
  });
}

TEST_CASE("llvm math: rsqrt") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x) { return fj::rsqrt(x); });
  both([&](auto t) {
    using T = decltype(t);
    Inputs<T> in(0, 10);
    // 1/sqrt(x): two correctly rounded operations, at most 2 ulp in theory (measured 1.49 /
    // 1.49 ulp).
    check_unary(
        "rsqrt", f, in.x, [](auto v) { return 1 / std::sqrt(v); }, 2.0);
  });
}

TEST_CASE("llvm math: pow") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer x, fj::Tracer y) { return fj::pow(x, y); });
  both([&](auto t) {
    using T = decltype(t);
    const bool s = is_f32(t);
    std::vector<T> xs, ys;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> ux(0, 10), uy(-30, 30), u1(-1, 1);
    std::uniform_real_distribution<double> lx(s ? -45 : -320, s ? 38 : 308);
    std::uniform_int_distribution<int> iy(-60, 60);
    for (int i = 0; i < 40000; ++i) xs.push_back(T(ux(rng))), ys.push_back(T(uy(rng)));
    // Magnitudes over the whole range, with y scaled so that |y log x| reaches past overflow and
    // underflow (subnormal results included).
    for (int i = 0; i < 40000; ++i) {
      const T x = static_cast<T>(std::pow(10.0L, lx(rng)));
      const double lim = (s ? 110.0 : 760.0) / std::fabs(std::log(double(x)));
      xs.push_back(x), ys.push_back(static_cast<T>(u1(rng) * lim));
    }
    // x near 1 with large y: the product needs log x to many more bits than T has.
    for (int i = 0; i < 20000; ++i)
      xs.push_back(T(1 + 1e-3 * u1(rng))), ys.push_back(T(u1(rng) * (s ? 8e4 : 7e5)));
    // Negative bases with integer exponents (the sign comes from the parity of y).
    for (int i = 0; i < 10000; ++i) xs.push_back(T(-ux(rng))), ys.push_back(T(iy(rng)));
    using L = std::numeric_limits<T>;
    const T sp[] = {T(0),           T(-0.0),         T(1),    T(-1),         T(2),
                    T(-2),          T(0.5),          T(-0.5), T(3),          T(-3),
                    T(2.5),         T(-2.5),         T(1e-3), L::infinity(), -L::infinity(),
                    L::quiet_NaN(), L::denorm_min(), L::max()};
    for (T a : sp)
      for (T b : sp) xs.push_back(a), ys.push_back(b);
    // f32 evaluates log and exp in f64, so only the final rounding remains (measured 0.50 ulp);
    // f64 uses a double-word log (~2^-64) and exp (measured 1.13 ulp).
    check_binary(
        "pow", f, xs, ys, [](auto x, auto y) { return std::pow(x, y); }, s ? 1.0 : 1.5);
  });
}
