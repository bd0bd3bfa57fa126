// erf_inv on scalars, for the reference backend; math_special.ipp emits the same steps as IR.
#pragma once
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

namespace fj::ir {

// XLA's ErfInv32 (M. Giles, "Approximating the erfinv function"): w = -log1p(-x*x), then a
// degree-8 polynomial in w - 2.5 (w < 5) or sqrt(w) - 3, times x. Highest degree first.
inline constexpr std::array<float, 9> kErfInvSmallW = {
    2.81022636e-08f,  3.43273939e-07f, -3.5233877e-06f, -4.39150654e-06f, 0.00021858087f,
    -0.00125372503f, -0.00417768164f,  0.246640727f,    1.50140941f};
inline constexpr std::array<float, 9> kErfInvLargeW = {
    -0.000200214257f, 0.000100950558f, 0.00134934322f, -0.00367342844f, 0.00573950773f,
    -0.0076224613f,   0.00943887047f,  1.00167406f,    2.83297682f};

/// erf_inv(x). f32: ErfInv32 exactly as XLA evaluates it (each step `c + p * w` one fused
/// multiply-add, as XLA's CPU code contracts it; |x| == 1 gives x * FLT_MAX, XLA's edge case).
/// f64: that polynomial in f64 as a first guess, then two Newton steps on erf(y) = x; not XLA's
/// ErfInv64, so f64 results are close to JAX's (a few ulps in the body) but not bit-exact, and
/// lose accuracy where 1 - |x| < 1e-6 (erf(y) - x cancels there).
/// `m` provides log1p, sqrt, erf, exp, fma on T.
template <class T, class M>
T erf_inv(T x, M& m) {
  T w = -m.log1p(-x * x);
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
