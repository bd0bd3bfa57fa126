// digamma's reference for tests/exhaustive and tests/test_math_gamma.cpp (the C library has
// none): R = double for f32 inputs, long double (x87, 64-bit significand) for f64 inputs.
#pragma once
#include <cmath>
#include <limits>

namespace fusejit_exhaustive {

// Taylor coefficients of digamma at its positive root x0, psi^(n)(x0) / n! for n = 1..20 (mpmath,
// 40 digits): next to x0 the recurrence below would cancel (psi(x0 + 19) - sum = 0 to 2^-64 of 3),
// while a double next to x0 has |psi| down to 1e-16.
inline constexpr long double kDigammaTaylor[20] = {
    0.9676722454476211704274L,    -0.4427631689835921060929L,   0.2584997609556510106244L,
    -0.1639427054424065275043L,   0.1078240506912623657572L,    -0.07219956125645471092612L,
    0.04880428816414310722509L,   -0.03316112647484735929226L,  0.02259764823221810465962L,
    -0.0154247659049489591388L,   0.01053879161661217538812L,   -0.00720453438635686824097L,
    0.004926781395729853446354L,  -0.003369801655439328082793L, 0.002305126326734927836938L,
    -0.001576936771430197259271L, 0.001078825201916296580692L,  -0.000738070938996005129566L,
    0.0005049532658346020351774L, -0.0003454680251063076995556L};
// x0 = hi + lo, hi the long double nearest.
inline constexpr long double kDigammaRootHiL = 0x1.762d86356be3f6e2p+0L;
inline constexpr long double kDigammaRootLoL = -1.8257096315963484215e-20L;

// digamma(x): NaN at 0, the negative integers and -inf (scipy, JAX); +inf at +inf.
// - |x - x0| < 1/8: the Taylor series above (terms fall as 0.0855^n: 20 reach 2^-70 relative);
// - x < 0: reflection, psi(x) = psi(1 - x) - pi cot(pi r), r = x - round(x) exact (then 1 - x is
//   exact for the inputs of the tested format, in R, unless |x| < 2^-11 where 1/x dominates);
// - 0 < x < 20: psi(x) = psi(x + n) - sum 1/(x + k), up to x + n >= 20;
// - x >= 20: log x - 1/(2x) - sum B_2k / (2k x^2k), k = 1..8: the first omitted term is below
//   2^-70 of the result at x = 20.
// Accuracy (checked against mpmath at 400 points, docs/MATH.md, "erfc, lgamma, digamma"): a few
// ulps of R, except next to the negative zeros, where the reflection's difference is absolute (an
// ulp of psi(1 - x)).
template <class R>
R digamma_ref(R x) {
  if (std::isnan(x)) return x;
  if (x == std::numeric_limits<R>::infinity()) return x;
  if (x <= 0 && x == std::floor(x)) return std::numeric_limits<R>::quiet_NaN();
  const R pi = R(3.14159265358979323846264338328L);
  if (x < 0) {
    const R r = x - std::nearbyint(x);
    return digamma_ref<R>(1 - x) - pi * std::cos(pi * r) / std::sin(pi * r);
  }
  const R root_hi = R(kDigammaRootHiL);  // x0 as hi + lo in R
  const R root_lo = R((kDigammaRootHiL - static_cast<long double>(root_hi)) + kDigammaRootLoL);
  const R t = (x - root_hi) - root_lo;
  if (std::fabs(t) < R(0.125)) {
    R s = 0;
    for (int n = 19; n >= 0; --n) s = (s + R(kDigammaTaylor[n])) * t;
    return s;
  }
  R acc = 0;
  while (x < 20) {
    acc -= 1 / x;
    x += 1;
  }
  const R z = 1 / (x * x);
  // B_2k / (2k) for k = 1..8.
  constexpr long double b[8] = {1.0L / 12,  -1.0L / 120,     1.0L / 252, -1.0L / 240,
                                1.0L / 132, -691.0L / 32760, 1.0L / 12,  -3617.0L / 8160};
  R series = 0;
  for (int k = 7; k >= 0; --k) series = (series + R(b[k])) * z;
  return acc + (std::log(x) - 1 / (2 * x) - series);
}

}  // namespace fusejit_exhaustive
