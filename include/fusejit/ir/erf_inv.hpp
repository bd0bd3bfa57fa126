// erf_inv on scalars, for the reference backend; math_special.hpp emits the same steps as IR.
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

// f64: our own fit, four pieces in w = -log(1 - x^2), each a degree-18 polynomial (lowest degree
// first) in w - center (w < 6.25: erf_inv(x) = x * P(w - c)) or in sqrt(w) - center (beyond:
// |erf_inv(x)| = P(sqrt(w) - c)). Chebyshev interpolants computed in mpmath at 60 digits, then
// rounded to double; relative error of erf_inv before that rounding: 2.9e-20, 4.0e-19, 3.2e-18,
// 1.9e-19 (scripts/math/fit_erf_inv64.py makes them; docs/MATH.md has the method and bounds).
// The last piece reaches w = 36.2, past the largest w of a double below 1 (36.04 at 1 - 2^-53).
struct ErfInv64Piece {
  double w_end;   // the piece serves w < w_end
  bool in_sqrt;   // the variable is sqrt(w) - center, else w - center
  double center;  // exact, so the subtraction rounds once
  std::array<double, 19> c;
};
inline constexpr std::array<ErfInv64Piece, 4> kErfInv64 = {{
    {2.5,
     false,
     1.25,
     {0x1.30871b8663a3cp+0, 0x1.ff042646be649p-3, 0x1.49362bc17621ap-9, -0x1.276842e431ed9p-9,
      0x1.2d21a92b9db84p-13, 0x1.055ac784b656cp-15, -0x1.5293f92f63b16p-18, -0x1.4fa698df33ef4p-22,
      0x1.11f43987e3da7p-23, -0x1.55e795e001c94p-30, -0x1.76020ba370cf9p-29, 0x1.ab531f3f9f91ep-33,
      0x1.ae84286c06d33p-35, -0x1.0201b0bf6e36fp-37, -0x1.75c307367b8f2p-41, 0x1.ccf8df5560c0cp-43,
      0x1.a3aa762b5a757p-49, -0x1.2fdb7c8c8c686p-48, 0x1.6f7a489fca3bbp-53}},
    {6.25,
     false,
     4.375,
     {0x1.f181e293d5833p+0, 0x1.c8736cdd69cb4p-3, -0x1.e23abe81bb96dp-8, -0x1.8903f5eb2b34ap-15,
      0x1.7e15823db635cp-14, -0x1.d572f96492330p-17, 0x1.bd3d4a255779ap-21, 0x1.78b19e3abda64p-24,
      -0x1.bd517ff45a6ffp-26, 0x1.50f03a6a2da84p-29, 0x1.a580014f7e22dp-35, -0x1.91628d828bddfp-35,
      0x1.9e39b30b01cb5p-38, -0x1.29eda117a03f8p-43, -0x1.50dafb905d09ap-44, 0x1.da78179ec3d05p-47,
      -0x1.83a314533c02fp-51, -0x1.3a33f25644312p-53, 0x1.be7e1c0b7ae93p-56}},
    {16.0,
     true,
     3.25,
     {0x1.8abb74e751a6ap+1, 0x1.0168ca8555d95p+0, 0x1.30e9d719ba205p-8, -0x1.4096906de29d8p-9,
      0x1.c0cddfd245964p-11, -0x1.d19a56ce2d7f0p-13, 0x1.95168902963c1p-16, 0x1.1e779207747c9p-16,
      -0x1.cf5002641c44dp-17, 0x1.5511562fa15dep-18, -0x1.f300b57e0fe8cp-22, -0x1.4c8b445bfb278p-21,
      0x1.aad68f4a146dbp-22, -0x1.9e11092a04b76p-24, -0x1.36a6b44c26b96p-26, 0x1.b568300c767c3p-26,
      -0x1.2c052c3a8e5a5p-27, -0x1.151d0d9fabfe7p-30, 0x1.63eb821a51e74p-30}},
    {std::numeric_limits<double>::infinity(),
     true,
     5.0078125,
     {0x1.36e62f4f015b4p+2, 0x1.02a2e81b4269bp+0, -0x1.2d6df82a71433p-13, -0x1.bdfc63594e5bbp-13,
      0x1.3b7ef1571e74fp-14, -0x1.465a5362cadffp-16, 0x1.2a4e3419a143ep-18, -0x1.fc202e066be94p-21,
      0x1.9b6f1875807e8p-23, -0x1.3de9b36f964d6p-25, 0x1.cb02f12ce2816p-28, -0x1.15eccb2d7a38ep-30,
      0x1.d5a556b6a17f1p-35, 0x1.e6763e9ff6e88p-35, -0x1.507a0fcb56bf8p-35, 0x1.404fa8df15f3ep-36,
      -0x1.d2149bc672f17p-38, 0x1.7d554dc09e25fp-40, -0x1.01124b593bf95p-44}},
}};

/// erf_inv(x). f32: ErfInv32 exactly as XLA evaluates it (each step `c + p * w` one fused
/// multiply-add, as XLA's CPU code contracts it; |x| == 1 gives x * FLT_MAX, XLA's edge case).
/// f64: the pieces above, with w formed so that it carries no more than a few ulps of error:
/// -log1p(-x*x) for |x| < 0.5 (x*x rounds once, relative), -log(fma(-x, x, 1)) above (1 - x^2
/// rounded once, relative: x*x alone would lose up to half of 1 - x^2's bits near 1, which is
/// what made the old Newton-on-erf form 0.5 off at 1 - 2^-53). Not XLA's ErfInv64, so f64 is
/// within ulps of JAX's, not bit-exact; |x| == 1 gives x * DBL_MAX, |x| > 1 and NaN give NaN.
/// `m` provides log1p, log, sqrt and fma on T.
template <class T, class M>
T erf_inv(T x, M& m) {
  if constexpr (std::is_same_v<T, float>) {
    T w = -xla_log1pf(-x * x);
    const bool small = w < T(5);
    w = small ? w - T(2.5) : m.sqrt(w) - T(3);
    T p = T(small ? kErfInvSmallW[0] : kErfInvLargeW[0]);
    for (std::size_t i = 1; i < kErfInvSmallW.size(); ++i)
      p = m.fma(p, w, T(small ? kErfInvSmallW[i] : kErfInvLargeW[i]));
    return std::abs(x) == T(1) ? x * std::numeric_limits<T>::max() : p * x;
  } else {
    const T w = std::abs(x) < T(0.5) ? -m.log1p(-(x * x)) : -m.log(m.fma(-x, x, T(1)));
    std::size_t i = 0;
    while (i + 1 < kErfInv64.size() && !(w < kErfInv64[i].w_end)) ++i;  // NaN: the last piece
    const ErfInv64Piece& pc = kErfInv64[i];
    const T v = (pc.in_sqrt ? m.sqrt(w) : w) - pc.center;
    T p = pc.c.back();
    for (std::size_t j = pc.c.size() - 1; j-- > 0;) p = m.fma(p, v, pc.c[j]);
    const T y = pc.in_sqrt ? std::copysign(p, x) : p * x;
    return std::abs(x) == T(1) ? x * std::numeric_limits<T>::max() : y;
  }
}

}  // namespace fj::ir
