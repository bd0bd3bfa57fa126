// Higher-precision references and ulp distances for tests/exhaustive/exhaustive_math.cpp: double
// (C library) for f32 results, long double (x87, 64-bit significand) for f64 results.
#pragma once
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace fusejit_exhaustive {

using LD = long double;

// An error that no bound accepts: a special value (NaN, infinity, signed zero) that differs from
// the reference's.
inline constexpr double kMismatch = 1e30;

// The spacing of floats at |r|'s magnitude (r a double): 2^(e-23) for r in [2^e, 2^(e+1)), the
// subnormal spacing 2^-149 below FLT_MIN. Read off the exponent bits: this runs 2^32 times per
// function and width, where frexp's call would cost more than the comparison itself.
inline double ulp_f32(double r) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(r) & ~(std::uint64_t{1} << 63);
  if (bits < std::bit_cast<std::uint64_t>(0x1p-126)) return 0x1p-149;
  return std::bit_cast<double>(((bits >> 52) - 23) << 52);
}

// The same for doubles at a long double's magnitude (x87 layout: 64-bit significand with an
// explicit integer bit, then 15 exponent bits with bias 16383).
inline LD ulp_f64(LD r) {
  static_assert(std::numeric_limits<LD>::digits == 64, "needs x87 long double");
  unsigned char raw[sizeof(LD)];
  std::memcpy(raw, &r, sizeof(LD));
  const int biased = (raw[8] | (raw[9] << 8)) & 0x7fff;
  const int e = biased - 16383;  // r in [2^e, 2^(e+1)) for normal long doubles
  if (e < -1022) return 0x1p-1074L;
  return std::ldexp(1.0L, e - 52);
}

// The error of `got` in ulps of T against `ref`. NaN must give NaN; an infinite result must have
// the sign of a reference that rounds to infinity in T; an infinite reference must give that
// infinity; exact zeros must agree in sign. A finite reference beyond T's range is measured
// normally against a finite result.
template <class T, class R>
double ulp_error(T got, R ref) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : kMismatch;
  if (std::isnan(got)) return kMismatch;
  const bool neg = std::signbit(got) != std::signbit(ref);
  if (std::isinf(got)) {
    // T's largest value plus half its ulp: the smallest magnitude that rounds to infinity.
    constexpr R overflow = std::is_same_v<T, float> ? R(0x1.fffffep127) + R(0x1p103)
                                                    : R(0x1.fffffffffffffp1023L) + R(0x1p970L);
    return (std::isinf(ref) || std::fabs(ref) >= overflow) && !neg ? 0 : kMismatch;
  }
  if (std::isinf(ref)) return kMismatch;
  if (got == 0 && ref == 0) return neg ? kMismatch : 0;
  const R diff = std::fabs(static_cast<R>(got) - ref);
  if constexpr (std::is_same_v<T, float>)
    return diff / ulp_f32(ref);
  else
    return static_cast<double>(diff / ulp_f64(ref));
}

// logistic(x) = 1 / (1 + exp(-x)), written so that neither form overflows.
template <class R>
R logistic_ref(R x) {
  if (std::isnan(x)) return x;
  return x >= 0 ? R(1) / (R(1) + std::exp(-x)) : std::exp(x) / (R(1) + std::exp(x));
}

// erf_inv's reference, R = double for f32 inputs, long double for f64 inputs. The edges follow
// the library (docs/MATH.md, README: JAX/XLA's behaviour): erf_inv(+-1) = +-FLT_MAX / DBL_MAX,
// NaN for |x| > 1 and NaN.
//
// Accuracy: the C library has no erfinv, so y solves erf(y) = |x| by Newton's method, and for
// |x| >= 1/2 erfc(y) = 1 - |x| instead (1 - |x| is exact there by Sterbenz, so no digits are lost
// next to 1). Newton runs until the step is within 4 ulps of R (its rounding then dominates).
// At the solution the residual is erf's or erfc's own rounding (about one ulp of R); the
// condition number of erfinv in those variables is |x| / (y erf'(y)) <= 1.2 for |x| < 1/2 and
// |t / (y erfc'(y))| <= 1 / (2 y^2) < 1 for the tail (t = 1 - |x| <= 1/2, y >= 0.476), so y is
// within a few ulps of R: 2^-50 relative (double) or 2^-61 (long double), far below an ulp of the
// tested format. --full checks the double reference against the long double one on a sample.
template <class R>
R erf_inv_ref(R x, R edge) {
  if (std::isnan(x) || std::fabs(x) > 1) return std::numeric_limits<R>::quiet_NaN();
  if (std::fabs(x) == 1) return std::copysign(edge, x);
  const R a = std::fabs(x);
  constexpr R kSqrtPiOver2 = 0.886226925452758013649083741671L;
  // erfinv(a) = (sqrt(pi)/2) (a + (pi/12) a^3 + ...): the next term is below 2^-80 relative here.
  if (a < R(1e-12)) return x * kSqrtPiOver2 * (1 + R(0.261799387799149436538553615273L) * a * a);
  // Winitzki's approximation (relative error below 2e-3) as the starting point.
  const R t = 1 - a;  // exact for a >= 1/2
  const R l = std::log(t * (1 + a));
  const R c = R(2) / (R(3.14159265358979323846264338328L) * R(0.147)) + l / 2;
  R y = std::sqrt(std::sqrt(c * c - l / R(0.147)) - c);
  constexpr R kTwoOverSqrtPi = 1.12837916709551257389615890312L;
  for (int i = 0; i < 40; ++i) {
    const R d = kTwoOverSqrtPi * std::exp(-y * y);  // erf'(y) = -erfc'(y)
    const R step = a < R(0.5) ? (std::erf(y) - a) / d : (t - std::erfc(y)) / d;
    y -= step;
    if (std::fabs(step) <= std::fabs(y) * 4 * std::numeric_limits<R>::epsilon()) break;
  }
  return std::copysign(y, x);
}

}  // namespace fusejit_exhaustive
