// erf_inv on scalars, for the reference backend; math_special.ipp emits the same steps as IR.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace fj::ir {

// XLA's ErfInv32 (M. Giles, "Approximating the erfinv function"): w = -log1p(-x*x), then a
// degree-8 polynomial in w - 2.5 (w < 5) or sqrt(w) - 3, times x. Highest degree first.
inline constexpr std::array<float, 9> kErfInvSmallW = {
    2.81022636e-08f, 3.43273939e-07f, -3.5233877e-06f, -4.39150654e-06f, 0.00021858087f,
    -0.00125372503f, -0.00417768164f, 0.246640727f,    1.50140941f};
inline constexpr std::array<float, 9> kErfInvLargeW = {
    -0.000200214257f, 0.000100950558f, 0.00134934322f, -0.00367342844f, 0.00573950773f,
    -0.0076224613f,   0.00943887047f,  1.00167406f,    2.83297682f};

// XLA's CPU log1p for f32 (xla/codegen/intrinsic/log1p.cc): a Cephes rational function where
// |x| < sqrt(2) - 1, else log(1 + x) with XLA's vectorized logf (Cephes' polynomial, Eigen's
// evaluation order). Reproduced step for step, with the multiply-adds XLA's code fuses, so that
// erf_inv, and with it fj::random::normal, gives JAX's bits (checked on 200000 values).
inline constexpr std::array<double, 7> kXlaLog1pNum = {
    4.5270000862445199635215E-5, 4.9854102823193375972212E-1, 6.5787325942061044846969E0,
    2.9911919328553073277375E1,  6.0949667980987787057556E1,  5.7112963590585538103336E1,
    2.0039553499201281259648E1};
inline constexpr std::array<double, 7> kXlaLog1pDen = {1.,
                                                       1.5062909083469192043167E1,
                                                       8.3047565967967209469434E1,
                                                       2.2176239823732856465394E2,
                                                       3.0909872225312059774938E2,
                                                       2.1642788614495947685003E2,
                                                       6.0118660497603843919306E1};
inline constexpr std::array<float, 9> kXlaLogP = {
    7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,  -1.2420140846E-1f, 1.4249322787E-1f,
    -1.6668057665E-1f, 2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
inline constexpr float kXlaLogQ1 = -2.12194440e-4f, kXlaLogQ2 = 0.693359375f;

inline float xla_logf(float v) {
  if (v != v || v == std::numeric_limits<float>::infinity()) return v;
  if (v < 0) return std::numeric_limits<float>::quiet_NaN();
  if (v == 0) return -std::numeric_limits<float>::infinity();
  v = std::max(v, std::numeric_limits<float>::min());
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 126);
  const std::uint32_t mbits = (bits & 0x807fffffu) | 0x3f000000u;
  float m;
  std::memcpy(&m, &mbits, 4);
  const bool below = m < 0.707106781186547524f;
  float x = m - 1.0f;
  if (below) e -= 1.0f, x = x + m;
  const float x2 = x * x, x3 = x2 * x;
  const auto& P = kXlaLogP;
  float y = std::fma(P[0], x, P[1]), y1 = std::fma(P[3], x, P[4]), y2 = std::fma(P[6], x, P[7]);
  y = std::fma(y, x, P[2]), y1 = std::fma(y1, x, P[5]), y2 = std::fma(y2, x, P[8]);
  y = std::fma(y, x3, y1);
  y = std::fma(y, x3, y2);
  y = std::fma(y, x3, e * kXlaLogQ1);
  x = std::fma(x2, -0.5f, x);
  x = x + y;
  return std::fma(e, kXlaLogQ2, x);
}

inline float xla_log1pf(float x) {
  if (!(std::abs(x) < static_cast<float>(0.41421356237309504880))) return xla_logf(x + 1.0f);
  const float x2 = x * x;
  float num = 0, den = 0;
  for (double c : kXlaLog1pNum) num = std::fma(num, x, static_cast<float>(c));
  for (double c : kXlaLog1pDen) den = std::fma(den, x, static_cast<float>(c));
  const float r = (x * x2) * (num / den);
  return x + std::fma(-0.5f, x2, r);
}

/// erf_inv(x). f32: ErfInv32 exactly as XLA evaluates it (each step `c + p * w` one fused
/// multiply-add, as XLA's CPU code contracts it; |x| == 1 gives x * FLT_MAX, XLA's edge case).
/// f64: that polynomial in f64 as a first guess, then two Newton steps on erf(y) = x; not XLA's
/// ErfInv64, so f64 results are close to JAX's (a few ulps in the body) but not bit-exact, and
/// lose accuracy where 1 - |x| < 1e-6 (erf(y) - x cancels there).
/// `m` provides log1p (f64), sqrt, erf, exp, fma on T.
template <class T, class M>
T erf_inv(T x, M& m) {
  T w;
  if constexpr (std::is_same_v<T, float>)
    w = -xla_log1pf(-x * x);
  else
    w = -m.log1p(-x * x);
  const bool small = w < T(5);
  w = small ? w - T(2.5) : m.sqrt(w) - T(3);
  T p = T(small ? kErfInvSmallW[0] : kErfInvLargeW[0]);
  for (std::size_t i = 1; i < kErfInvSmallW.size(); ++i)
    p = m.fma(p, w, T(small ? kErfInvSmallW[i] : kErfInvLargeW[i]));
  T y = p * x;
  if constexpr (std::is_same_v<T, double>) {
    const T two_over_sqrt_pi = 1.1283791670955126;
    for (int k = 0; k < 2; ++k) y = y - (m.erf(y) - x) / (two_over_sqrt_pi * m.exp(-(y * y)));
  }
  return std::abs(x) == T(1) ? x * std::numeric_limits<T>::max() : y;
}

}  // namespace fj::ir
