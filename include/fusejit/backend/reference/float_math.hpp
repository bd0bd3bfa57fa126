// Vectorized f32/f64 math over xsimd 8.1, with the edge cases xsimd gets wrong patched.
#pragma once
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include <xsimd/xsimd.hpp>

namespace fj::detail::reference::math {

template <class T>
using batch = xsimd::batch<T>;

// Recomputes the lanes selected by `mask` with the C library's scalar function. Used where
// xsimd's polynomial is wrong on a narrow edge of the domain; those lanes are rare, so the
// scalar fallback is kept out of line and the common path pays one movemask per batch.
template <class T, class F>
[[gnu::noinline]] batch<T> patch_lanes_slow(batch<T> r, const batch<T>& mask_bits,
                                            const batch<T>& x, F scalar) {
  constexpr std::size_t n = batch<T>::size;
  alignas(64) T xs[n], rs[n], ms[n];
  x.store_aligned(xs);
  r.store_aligned(rs);
  mask_bits.store_aligned(ms);
  for (std::size_t i = 0; i < n; ++i)
    if (ms[i] != T(0)) rs[i] = scalar(xs[i]);
  return batch<T>::load_aligned(rs);
}
template <class T, class F>
[[gnu::always_inline]] inline batch<T> patch_lanes(const batch<T>& r,
                                                   const xsimd::batch_bool<T>& mask,
                                                   const batch<T>& x, F scalar) {
  if (!xsimd::any(mask)) return r;
  return patch_lanes_slow(r, xsimd::select(mask, batch<T>(T(1)), batch<T>(T(0))), x, scalar);
}

// xsimd builds 2^k straight into the exponent field: it returns inf from about 88.38 (f32) /
// 709.09 (f64), below the true overflow point, and 0 where the result is subnormal.
template <class T>
[[gnu::always_inline]] inline batch<T> exp(const batch<T>& x) {
  const batch<T> edge(std::is_same_v<T, float> ? T(87) : T(708));
  return patch_lanes(xsimd::exp(x), xsimd::abs(x) > edge, x, [](T v) { return std::exp(v); });
}

// Same overflow edge as exp; the low side is fine (expm1 saturates to -1 long before).
// xsimd also turns expm1(-0) and log1p(-0) into +0; both functions are odd at 0.
template <class T>
[[gnu::always_inline]] inline batch<T> expm1(const batch<T>& x) {
  const batch<T> edge(std::is_same_v<T, float> ? T(87) : T(708));
  const batch<T> r = patch_lanes(xsimd::expm1(x), x > edge, x, [](T v) { return std::expm1(v); });
  return xsimd::select(x == batch<T>(T(0)), x, r);
}
template <class T>
[[gnu::always_inline]] inline batch<T> log1p(const batch<T>& x) {
  return xsimd::select(x == batch<T>(T(0)), x, xsimd::log1p(x));
}

// xsimd's f64 log does not normalize subnormal inputs (log(1e-310) comes out as -746.5).
template <class T>
[[gnu::always_inline]] inline batch<T> log(const batch<T>& x) {
  const auto tiny = (x > batch<T>(T(0))) && (x < batch<T>(std::numeric_limits<T>::min()));
  return patch_lanes(xsimd::log(x), tiny, x, [](T v) { return std::log(v); });
}

// Flips the sign bit: on some targets xsimd's unary minus is 0 - x, which maps +0 to +0.
template <class T>
[[gnu::always_inline]] inline batch<T> neg(const batch<T>& x) {
  return x ^ batch<T>(T(-0.0));
}

// The rsqrt instruction is a 12-bit approximation; the oracle needs the accurate value.
template <class T>
[[gnu::always_inline]] inline batch<T> rsqrt(const batch<T>& x) {
  return batch<T>(T(1)) / xsimd::sqrt(x);
}

// 1/(1+exp(-x)) overflows exp for very negative x and then loses the tiny result; evaluating
// exp(-|x|) only ever underflows, and e/(1+e) keeps full relative precision on the left tail.
template <class T>
[[gnu::always_inline]] inline batch<T> logistic(const batch<T>& x) {
  const batch<T> one(T(1));
  const batch<T> e = exp(-xsimd::abs(x));
  const batch<T> d = one + e;
  return xsimd::select(x >= batch<T>(T(0)), one / d, e / d);
}

// lax.sign keeps the sign of zero and passes NaN through, so the fallback lane is x itself.
template <class T>
[[gnu::always_inline]] inline batch<T> sign(const batch<T>& x) {
  const batch<T> zero(T(0));
  return xsimd::select(x > zero, batch<T>(T(1)), xsimd::select(x < zero, batch<T>(T(-1)), x));
}

// Rounding to integers, built on xsimd::nearbyint (the 2^52 / 2^23 addition trick, defined for
// every input). xsimd's own trunc, and the floor, ceil and round built on it, convert each lane
// to a same-width integer and back: without AVX-512DQ a scalar cast per double lane, undefined
// behaviour for NaN and |x| >= 2^63 even though those lanes are then masked out (UBSan's
// float-cast-overflow reported it in the sanitized suite). Each result carries the operand's
// sign, which also keeps the sign of zero (ceil(-0.5) is -0), which xsimd's versions lose.
template <class T>
[[gnu::always_inline]] inline batch<T> trunc(const batch<T>& x) {
  const batch<T> n = xsimd::nearbyint(x);  // NaN, infinities and big integers come back as is
  const batch<T> t =
      xsimd::select(xsimd::abs(n) > xsimd::abs(x), n - xsimd::copysign(batch<T>(T(1)), x), n);
  return xsimd::copysign(t, x);
}
template <class T>
[[gnu::always_inline]] inline batch<T> floor(const batch<T>& x) {
  const batch<T> t = trunc(x);
  return xsimd::copysign(xsimd::select(t > x, t - batch<T>(T(1)), t), x);
}
template <class T>
[[gnu::always_inline]] inline batch<T> ceil(const batch<T>& x) {
  const batch<T> t = trunc(x);
  return xsimd::copysign(xsimd::select(t < x, t + batch<T>(T(1)), t), x);
}
// Halves away from zero (lax.round's default). x - trunc(x) is exact: it is x's fraction.
template <class T>
[[gnu::always_inline]] inline batch<T> round_half_away(const batch<T>& x) {
  const batch<T> t = trunc(x);
  const batch<T> up = t + xsimd::copysign(batch<T>(T(1)), x);
  return xsimd::copysign(xsimd::select(xsimd::abs(x - t) >= batch<T>(T(0.5)), up, t), x);
}

// lax.max/min as XLA defines them (IEEE 754-2019 maximum/minimum): NaN from either side
// propagates, unlike std::max and the SSE max instruction, and -0 < +0: max(+0, -0) = +0 and
// min(+0, -0) = -0 in either order. Equal operands differ only in the sign of zero, so the
// tie takes the bitwise and (max: +0 if either is) or or (min: -0 if either is) of the two.
template <class T>
[[gnu::always_inline]] inline batch<T> max(const batch<T>& a, const batch<T>& b) {
  const batch<T> r = xsimd::select(a == b, a & b, xsimd::select(a > b, a, b));
  return xsimd::select(xsimd::isnan(a), a, r);  // a NaN b falls to b above
}
template <class T>
[[gnu::always_inline]] inline batch<T> min(const batch<T>& a, const batch<T>& b) {
  const batch<T> r = xsimd::select(a == b, a | b, xsimd::select(a < b, a, b));
  return xsimd::select(xsimd::isnan(a), a, r);
}
// The same on scalars (any arithmetic T; the zero rule only matters for floating point).
template <class T>
inline T max_scalar(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (a == b) return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}
template <class T>
inline T min_scalar(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (a == b) return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

}  // namespace fj::detail::reference::math
