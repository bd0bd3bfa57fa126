// digamma (the derivative of log Gamma) in long double, for the reference backend: the C
// library has none.
#pragma once
#include <cmath>
#include <limits>

namespace fj::detail::reference {

// Recurrence psi(x) = psi(x + 1) - 1/x up to x >= 16, then the asymptotic series
// psi(x) = log x - 1/(2x) - sum B_2k / (2k x^2k) to x^-18: its first omitted term is below
// 4e-24 there, under the long double's 5.4e-20 relative spacing. For x < 1/2 the reflection
// psi(x) = psi(1 - x) - pi / tan(pi x), with pi x reduced exactly (x - round(x) is exact).
// Non-positive integers give NaN and -inf gives NaN (as JAX); +inf gives +inf.
inline long double digamma_ld(long double x) {
  if (std::isnan(x) || x == -std::numeric_limits<long double>::infinity())
    return std::numeric_limits<long double>::quiet_NaN();
  if (x == std::numeric_limits<long double>::infinity()) return x;
  long double reflected = 0;
  if (x < 0.5L) {
    if (x == std::floor(x)) return std::numeric_limits<long double>::quiet_NaN();
    const long double r = x - std::round(x);  // exact; tan(pi x) = tan(pi r)
    constexpr long double pi = 3.141592653589793238462643383279502884L;
    reflected = -pi / std::tan(pi * r);
    x = 1 - x;
  }
  long double shift = 0;
  while (x < 16) {
    shift -= 1 / x;
    x += 1;
  }
  // B_2k / (2k) for k = 1..9.
  static constexpr long double c[] = {1.0L / 12,   -1.0L / 120,     1.0L / 252,
                                      -1.0L / 240, 1.0L / 132,      -691.0L / 32760,
                                      1.0L / 12,   -3617.0L / 8160, 43867.0L / 14364};
  const long double z = 1 / (x * x);
  long double series = 0;
  for (int k = 8; k >= 0; --k) series = series * z + c[k];
  return reflected + shift + std::log(x) - 0.5L / x - z * series;
}

}  // namespace fj::detail::reference
