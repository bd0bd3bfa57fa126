// The regularized incomplete gamma functions P(a, x) and Q(a, x), the derivative of P in a, and
// the derivative of a gamma sample in a (lax.igamma, igammac, igamma_grad_a, random_gamma_grad),
// in long double, for the reference backend: the C library has none.
#pragma once
#include <cmath>
#include <limits>

#include "fusejit/backend/reference/digamma.hpp"

namespace fj::detail::reference {

/// What an incomplete-gamma evaluation returns: the function, its derivative in a, or the
/// derivative of a gamma sample x in its shape a (-(dP/da) / (dP/dx)).
enum class IgammaMode { value, derivative, sample_derivative };

namespace igamma_detail {

constexpr long double kEps = std::numeric_limits<long double>::epsilon();
constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();

inline long double log_gamma(long double a) {
  int sign = 0;
  return ::lgammal_r(a, &sign);
}

// P(a, x) by its power series, sum_k x^k / (a+1)...(a+k), and its derivative in a: the method of
// JAX's _igamma_series (XLA's math.cc), here in long double until a term is below its epsilon.
// `run` false (an underflowing prefactor) skips the loop, as JAX's loop leaves a lane it does not
// enable at its first values.
inline long double series(long double a, long double x, long double ax, IgammaMode mode, bool run) {
  long double r = a, c = 1, ans = 1, dc_da = 0, dans_da = 0;
  for (int k = 0; run && k < 1000000; ++k) {  // the LLVM backend's limit (kIgammaSeriesTerms)
    r += 1;
    dc_da = dc_da * (x / r) - (c * x) / (r * r);
    dans_da += dc_da;
    c *= x / r;
    ans += c;
    const bool more =
        mode == IgammaMode::value ? c / ans > kEps : std::fabs(dc_da / dans_da) > kEps;
    if (!more) break;
  }
  if (mode == IgammaMode::value) return ans * ax / a;
  const long double dlogax_da = std::log(x) - digamma_ld(a + 1);
  if (mode == IgammaMode::derivative) return ax * (ans * dlogax_da + dans_da) / a;
  return -(dans_da + ans * dlogax_da) * x / a;
}

// Q(a, x) by its continued fraction (Legendre's, evaluated by the recurrences of JAX's
// _igammac_continued_fraction, rescaled when the terms grow), and its derivative in a.
inline long double continued_fraction(long double a, long double x, long double ax, IgammaMode mode,
                                      bool run) {
  long double y = 1 - a, z = x + y + 1, c = 0;
  long double pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
  long double ans = pkm1 / qkm1;
  long double dpkm2_da = 0, dqkm2_da = 0, dpkm1_da = 0, dqkm1_da = -x;
  long double dans_da = (dpkm1_da - ans * dqkm1_da) / qkm1;
  for (int k = 0; run && k < 20000; ++k) {
    c += 1;
    y += 1;
    z += 2;
    const long double yc = y * c;
    const long double pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;
    long double t = 1, grad = 1;
    if (qk != 0) {
      const long double r = pk / qk;
      t = std::fabs((ans - r) / r);
      ans = r;
    }
    const long double dpk_da = dpkm1_da * z - pkm1 - dpkm2_da * yc + pkm2 * c;
    const long double dqk_da = dqkm1_da * z - qkm1 - dqkm2_da * yc + qkm2 * c;
    if (qk != 0) {
      const long double d = (dpk_da - ans * dqk_da) / qk;
      grad = std::fabs(d - dans_da);
      dans_da = d;
    }
    pkm2 = pkm1;
    pkm1 = pk;
    qkm2 = qkm1;
    qkm1 = qk;
    dpkm2_da = dpkm1_da;
    dqkm2_da = dqkm1_da;
    dpkm1_da = dpk_da;
    dqkm1_da = dqk_da;
    if (std::fabs(pk) > 1 / kEps) {
      pkm2 *= kEps;
      pkm1 *= kEps;
      qkm2 *= kEps;
      qkm1 *= kEps;
      dpkm2_da *= kEps;
      dqkm2_da *= kEps;
      dpkm1_da *= kEps;
      dqkm1_da *= kEps;
    }
    if (!(mode == IgammaMode::value ? t > kEps : grad > kEps)) break;
  }
  if (mode == IgammaMode::value) return ans * ax;
  const long double dlogax_da = std::log(x) - digamma_ld(a);
  if (mode == IgammaMode::derivative) return ax * (ans * dlogax_da + dans_da);
  return -(dans_da + ans * dlogax_da) * x;
}

// x^a e^-x / Gamma(a), and whether its log is below -log_max (`underflow`: JAX then leaves the
// loops at their first values).
inline long double prefactor(long double a, long double x, long double log_max, bool* underflow) {
  const long double log_ax = a * std::log(x) - x - log_gamma(a);
  *underflow = log_ax < -log_max;
  return std::exp(log_ax);
}

}  // namespace igamma_detail

/// lax.igamma(a, x): P(a, x); NaN outside a >= 0, x >= 0 (and at a = x = 0), 0 at x = 0, 1 at
/// x = +inf. `log_max` is the log of the largest finite value of the result's format, JAX's
/// threshold for an underflowing x^a e^-x.
inline long double igamma_ld(long double a, long double x, long double log_max) {
  using namespace igamma_detail;
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0 || (a == 0 && x == 0)) return kNaN;
  if (x == 0) return 0;
  if (x == std::numeric_limits<long double>::infinity()) return 1;
  bool underflow = false;
  const long double ax = prefactor(a, x, log_max, &underflow);
  const bool use_cf = x >= 1 && x > a;
  return use_cf ? 1 - continued_fraction(a, x, ax, IgammaMode::value, !underflow)
                : series(a, x, ax, IgammaMode::value, !underflow);
}

/// lax.igammac(a, x): Q(a, x) = 1 - P(a, x), with the same domain; 0 at x = +inf and at a = 0.
inline long double igammac_ld(long double a, long double x, long double log_max) {
  using namespace igamma_detail;
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0 || (a == 0 && x == 0)) return kNaN;
  if (x == std::numeric_limits<long double>::infinity() || a == 0) return 0;
  bool underflow = false;
  const long double ax = prefactor(a, x, log_max, &underflow);
  const bool use_series = x < 1 || x < a;
  return use_series ? 1 - series(a, x, ax, IgammaMode::value, !underflow)
                    : continued_fraction(a, x, ax, IgammaMode::value, !underflow);
}

/// lax.igamma_grad_a (mode derivative) and lax.random_gamma_grad (mode sample_derivative):
/// NaN for x < 0 or a <= 0, 0 at x = 0.
inline long double igamma_derivative_ld(long double a, long double x, long double log_max,
                                        IgammaMode mode) {
  using namespace igamma_detail;
  if (std::isnan(a) || std::isnan(x) || x < 0 || a <= 0) return kNaN;
  if (x == 0) return 0;
  bool underflow = false;
  const long double ax = prefactor(a, x, log_max, &underflow);
  const bool use_cf = x > 1 && x > a;
  return use_cf ? -continued_fraction(a, x, ax, mode, !underflow)
                : series(a, x, ax, mode, !underflow);
}

}  // namespace fj::detail::reference
