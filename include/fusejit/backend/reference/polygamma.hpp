// polygamma(m, x) and the Hurwitz zeta(x, q) in long double, for the reference backend: the C
// library has neither.
#pragma once
#include <cmath>
#include <limits>

#include "fusejit/backend/reference/digamma.hpp"

namespace fj::detail::reference {

// zeta(s, q) = sum_k (q + k)^-s as the LLVM backend sums it (backend/llvm/math_polygamma.hpp, where
// the method and its range are described): ten terms and an Euler-Maclaurin tail of twelve
// Bernoulli corrections at q + 10, here in long double. No special cases.
inline long double hurwitz_zeta_ld(long double s, long double q) {
  long double zeta = 0;
  for (int k = 0; k < 10; ++k) zeta += std::pow(q + k, -s);
  const long double a = q + 10, u = 1 / (a * a);
  static constexpr long double c[] = {1.0L / 12,
                                      -1.0L / 720,
                                      1.0L / 30240,
                                      -1.0L / 1209600,
                                      1.0L / 47900160,
                                      -691.0L / 1307674368000.0L,
                                      1.0L / 74724249600.0L,
                                      -3617.0L / 10670622842880000.0L,
                                      43867.0L / 5109094217170944000.0L,
                                      -174611.0L / 802857662698291200000.0L,
                                      77683.0L / 14101100039391805440000.0L,
                                      -236364091.0L / 1693824136731743669452800000.0L};
  long double h = c[11];
  for (int j = 11; j >= 1; --j) h = c[j - 1] + u * (s + 2 * j - 1) * (s + 2 * j) * h;
  const long double scale = std::pow(a, 1 - s);
  return zeta + scale / (s - 1) + scale * (0.5L / a + s * u * h);
}

// lax.zeta(x, q) with XLA's special cases: NaN for x < 1, and for q <= 0 with x fractional; at
// the poles (q a whole number <= 0) +inf for an even whole x, else NaN; +inf at x = 1; NaN at
// q = +inf.
inline long double zeta_ld(long double x, long double q) {
  constexpr long double nan = std::numeric_limits<long double>::quiet_NaN();
  constexpr long double inf = std::numeric_limits<long double>::infinity();
  if (std::isnan(x) || std::isnan(q) || (q == inf && x != 1)) return nan;  // XLA's inf / inf
  if (x == 1) return inf;
  const bool x_whole = x == std::floor(x);
  if (q <= 0 && q == std::floor(q)) return x_whole && std::fmod(x, 2.0L) == 0 ? inf : nan;
  if (x < 1 || (q <= 0 && !x_whole)) return nan;
  return hurwitz_zeta_ld(x, q);
}

// polygamma(m, x) = (-1)^(m+1) m! zeta(m + 1, x), m! from the running product as the LLVM
// backend forms it. digamma at m = 0; NaN for a negative or fractional m or one past 170 (m!
// overflows f64); +inf (odd m) or NaN (even m) at x = 0, the negative integers and -inf; NaN at
// +inf, as JAX.
inline long double polygamma_ld(long double m, long double x) {
  constexpr long double nan = std::numeric_limits<long double>::quiet_NaN();
  constexpr long double inf = std::numeric_limits<long double>::infinity();
  if (std::isnan(m) || std::isnan(x) || m < 0 || m > 170 || m != std::floor(m)) return nan;
  if (m == 0) return digamma_ld(x);
  const bool m_odd = std::fmod(m, 2.0L) == 1;
  if (x <= 0 && x == std::floor(x)) return m_odd ? inf : nan;
  if (x == inf) return nan;
  long double factorial = 1;  // m <= 170
  for (long double i = 2; i <= m; ++i) factorial *= i;
  const long double mag = factorial * hurwitz_zeta_ld(m + 1, x);
  return m_odd ? mag : -mag;
}

}  // namespace fj::detail::reference
