// lgamma and digamma at negative f64 arguments (absolute error next to their negative zeros,
// where the exhaustive sweep's ulp bound cannot hold), and the special values of erfc, lgamma and
// digamma in both formats, on the llvm backend (docs/MATH.md, "erfc, lgamma, digamma").
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "exhaustive/digamma_ref.hpp"
#include "llvm_backend_scope.hpp"

namespace {

using LD = long double;

using fusejit_test::LlvmBackend;

template <class T, class F>
std::vector<T> eval(F& f, const std::vector<T>& x) {
  return f(fj::array(x, fj::Shape{static_cast<std::int64_t>(x.size())})).template to_vector<T>();
}

// Uniform on (-30, 0) and log-uniform magnitudes up to 2^52 (beyond, every double is an
// integer), plus 2^12 doubles around each of the first negative zeros of the function.
std::vector<double> negative_inputs(const std::vector<double>& zeros) {
  std::mt19937_64 rng(19);
  std::vector<double> x;
  std::uniform_real_distribution<double> u(-30, 0), e(-40, 52);
  for (int i = 0; i < 20000; ++i) {
    x.push_back(u(rng));
    x.push_back(-std::exp2(e(rng)));
  }
  for (double z : zeros) {
    double v = z;
    for (int i = 0; i < 2048; ++i) v = std::nextafter(v, 0.0);
    for (int i = 0; i < 4096; ++i, v = std::nextafter(v, -1e300)) x.push_back(v);
  }
  return x;
}

// Both functions are reflected as A(x) - B(1 - x) for x < 0 (log(pi/|sin pi x|) - lgamma(1 - x),
// digamma(1 - x) - pi cot(pi x)): next to a zero the difference cancels, so its error is bounded
// in ulps of the terms, not of the result. The tolerance is 4 ulp of |A| + |B| + 1 (measured: at
// most 0.12 of it for lgamma, whose reflection is double-word, and 0.40 for digamma, whose cot
// carries about 1.5 ulp; the long double reference is 2^11 times finer).
void check_negative(const char* name, const std::vector<double>& x, const std::vector<double>& got,
                    LD (*ref)(LD), LD (*scale)(LD)) {
  double worst = 0, at = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const LD r = ref(x[i]);
    if (std::isinf(r) || std::isnan(r)) {
      CHECK_MESSAGE((std::isnan(r) ? std::isnan(got[i]) : got[i] == double(r)), std::string(name),
                    " at ", x[i]);
      continue;
    }
    const LD tol = 4 * 0x1p-52L * (1 + scale(x[i]));
    const double err = double(std::fabs(LD(got[i]) - r) / tol);
    if (err > worst) worst = err, at = x[i];
  }
  MESSAGE(std::string(name), ": worst error ", worst, " of the tolerance, at ", at);
  CHECK(worst <= 1);
}

LD lgamma_ref(LD x) {
  int s = 0;
  return ::lgammal_r(x, &s);
}
LD lgamma_scale(LD x) {
  const LD r = x - std::nearbyint(x);
  return std::fabs(lgamma_ref(1 - x)) +
         std::fabs(std::log(3.14159265358979323846264338328L /
                            std::fabs(std::sin(3.14159265358979323846264338328L * r))));
}
LD digamma_ref_ld(LD x) { return fusejit_exhaustive::digamma_ref(x); }
LD digamma_scale(LD x) {
  const LD pi = 3.14159265358979323846264338328L;
  const LD r = x - std::nearbyint(x);
  return std::fabs(fusejit_exhaustive::digamma_ref(1 - x)) + std::fabs(pi / std::tan(pi * r));
}

}  // namespace

TEST_CASE("math gamma: lgamma and digamma at negative f64 arguments, absolute error") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto lg = fj::jit([](fj::Tracer x) { return fj::lgamma(x); });
  auto dg = fj::jit([](fj::Tracer x) { return fj::digamma(x); });
  // The first zeros of lgamma and digamma below 0 (mpmath).
  const auto xl = negative_inputs({-2.4570247382208006, -2.7476826467274126, -3.1435808883499801,
                                   -3.9552942848585979, -4.0393618397405369, -4.9915446405600477,
                                   -5.0082181683225935, -5.9986074800808756, -6.0013852944531551,
                                   -6.9998015078906377});
  check_negative("lgamma", xl, eval(lg, xl), lgamma_ref, lgamma_scale);
  const auto xd = negative_inputs({-0.50408300826445541, -1.5734984731623905, -2.6107208684441447,
                                   -3.6352933664369011, -4.6532377617431424});
  check_negative("digamma", xd, eval(dg, xd), digamma_ref_ld, digamma_scale);
}

TEST_CASE("math gamma: special values") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto ec = fj::jit([](fj::Tracer x) { return fj::erfc(x); });
  auto lg = fj::jit([](fj::Tracer x) { return fj::lgamma(x); });
  auto dg = fj::jit([](fj::Tracer x) { return fj::digamma(x); });
  auto same = [](auto got, double want) {
    return std::isnan(want) ? std::isnan(got)
                            : got == want && std::signbit(got) == std::signbit(want);
  };
  auto both = [&](auto t) {
    using T = decltype(t);
    using L = std::numeric_limits<T>;
    const double inf = L::infinity(), nan = L::quiet_NaN();
    const std::vector<T> x = {T(0),           T(-0.0),        T(1),     T(2),
                              T(-1),          T(-2),          T(-1e30), L::infinity(),
                              -L::infinity(), L::quiet_NaN(), T(30),    L::denorm_min()};
    const auto e = eval(ec, x), l = eval(lg, x), d = eval(dg, x);
    // erfc: 1 at +-0, 2 at -inf and far left, 0 at +inf and past the underflow.
    const double erfc_want[] = {1, 1, -1, -1, -1, -1, 2, 0, 2, nan, 0, 1};
    // lgamma: +inf at 0, the negative integers and +-inf (C99, JAX); 0 (+0) at 1 and 2.
    const double lgamma_want[] = {inf, inf, 0, 0, inf, inf, inf, inf, inf, nan, -1, -1};
    // digamma: NaN at 0, the negative integers and -inf (JAX, scipy); +inf at +inf; -1/x at the
    // smallest subnormal overflows to -inf.
    const double digamma_want[] = {nan, nan, -1, -1, nan, nan, nan, inf, nan, nan, -1, -inf};
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (erfc_want[i] != -1) CHECK_MESSAGE(same(e[i], erfc_want[i]), "erfc(", x[i], ")");
      if (lgamma_want[i] != -1) CHECK_MESSAGE(same(l[i], lgamma_want[i]), "lgamma(", x[i], ")");
      if (digamma_want[i] != -1) CHECK_MESSAGE(same(d[i], digamma_want[i]), "digamma(", x[i], ")");
    }
  };
  both(float{});
  both(double{});
}
