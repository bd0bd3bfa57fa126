// exp(-|x|) I0(x) and exp(-|x|) I1(x) in long double, for the reference backend: the C library
// has none. Written from the defining series, not from the Chebyshev fits the LLVM backend
// shares with XLA, so the two backends check each other.
#pragma once
#include <cmath>
#include <limits>

namespace fj::detail::reference {

// exp(-z) I_nu(z) for nu = 0 or 1 and z >= 0. Up to z = 64 the power series
// I_nu(z) = sum_k (z/2)^(2k+nu) / (k! (k+nu)!), its terms positive (no cancellation), summed
// until a term is below 2^-70 of the sum; past 64 Hankel's expansion
// I_nu(z) ~ e^z / sqrt(2 pi z) sum_k (-1)^k a_k(nu) / z^k, a_k = prod_{j<=k} (4nu^2 - (2j-1)^2) /
// (k! 8^k), whose terms shrink until k ~ 2z: at z = 64 the smallest is under 1e-40.
inline long double scaled_bessel_ld(int nu, long double z) {
  if (std::isnan(z)) return z;
  if (z == std::numeric_limits<long double>::infinity()) return 0;
  if (z <= 64) {
    const long double h = z / 2, h2 = h * h;
    long double term = nu == 0 ? 1 : h, sum = term;
    for (int k = 1; k < 500 && term > sum * 0x1p-70L; ++k) {
      term *= h2 / (static_cast<long double>(k) * (k + nu));
      sum += term;
    }
    return sum * std::exp(-z);
  }
  const long double mu = 4.0L * nu * nu;
  long double term = 1, sum = 1;
  for (int k = 1; k < 60; ++k) {
    const long double odd = 2.0L * k - 1;
    term *= -(mu - odd * odd) / (8.0L * k * z);
    sum += term;
    if (std::fabs(term) < sum * 0x1p-70L) break;
  }
  return sum / std::sqrt(2 * 3.14159265358979323846264338327950288L * z);
}

inline long double bessel_i0e_ld(long double x) { return scaled_bessel_ld(0, std::fabs(x)); }

// Odd: the sign of x (and of a zero) times the value at |x|.
inline long double bessel_i1e_ld(long double x) {
  return std::copysign(scaled_bessel_ld(1, std::fabs(x)), x);
}

}  // namespace fj::detail::reference
