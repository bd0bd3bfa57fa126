// sin, cos, tan as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include <array>

#include "fusejit/backend/llvm/math_trig_reduce.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"

namespace fj::backend::llvm_ir::detail {

// On |r| <= pi/4 * 1.05 (f32) / 1.001 (f64):
//   sin r = r + r^3 * S(r^2),   cos r = 1 - r^2/2 + r^4 * C(r^2).
// The margin is there because q is the integer nearest to x * fl(2/pi), not to x * 2/pi: the
// constant's relative error lets r overshoot pi/4 by up to |x| * 4e-8 (f32) / |x| * 6e-17 (f64).
// Minimax S and C from our own Remez fit (mpmath) of the relative error of sin / cos, in the
// style of Cephes/SLEEF kernels; f32 coefficients rounded one at a time, lowest degree first,
// refitting the rest. Max relative error: S 1.9e-10 (f32, 4 terms), 6e-18 (f64, 7 terms);
// C 2e-10 (f32, 3 terms), 1.2e-18 (f64, 7 terms).
inline constexpr std::array<double, 4> kSinS32 = {-0x1.555556p-3, 0x1.11116ap-7, -0x1.a04c1cp-13,
                                                  0x1.783706p-19};
inline constexpr std::array<double, 7> kSinS64 = {
    -0x1.5555555555555p-3,  0x1.111111111110bp-7,  -0x1.a01a01a018a35p-13, 0x1.71de3a532bf1cp-19,
    -0x1.ae645287695abp-26, 0x1.61208859743aep-33, -0x1.aaa04d222aba4p-41};
inline constexpr std::array<double, 3> kCosC32 = {0x1.555546p-5, -0x1.6c09cep-10, 0x1.9941eep-16};
inline constexpr std::array<double, 7> kCosC64 = {
    0x1.5555555555555p-5,  -0x1.6c16c16c16c0fp-10, 0x1.a01a01a018c98p-16, -0x1.27e4fb75e82fap-22,
    0x1.1eed8c8d030cbp-29, -0x1.93931fd4392c4p-37, 0x1.aabb2892a95a2p-45};

// pi/2 in three parts (each the format's rounding of what is left). With the products taken
// inside FMAs, the first step x - q*p1 is exact, and the total error of the reduced argument is
// two roundings relative to r plus q * 1e-23 (f32) / q * 6e-50 (f64) absolute.
inline constexpr double kPio2_32[3] = {0x1.921fb6p+0, -0x1.777a5cp-25, -0x1.ee59dap-50};
inline constexpr double kPio2_64[3] = {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54,
                                       -0x1.f1976b7ed8fbcp-110};

// x = q*pi/2 + r (Cody-Waite), for |x| <= 5e5 (f32) / 5e12 (f64): there q is within one
// rounding of x * 2/pi's nearest integer and |r| <= 0.806 / 0.78571 stays inside the fitted
// range. Beyond, q drifts from the nearest integer and (past 2^22 / 2^51 * pi/2) stops being an
// integer at all; trig_reduce_large (math_trig_reduce.hpp) replaces those lanes with a
// Payne-Hanek reduction, behind a branch taken only when some lane needs it. NaN gives r = NaN.
// q is returned as the bits of the shifted value: those of 1.5 * 2^23 / 2^52 are clear at the
// bottom, so the two low bits are q's (no subtraction, and nothing more to carry through the
// join). An earlier reduction of the same x is reused (shared_trig_reduction).
// sin, cos and tan share it: one helper in the GPU's C (Fp::outlined_n).
inline TrigReduced trig_reduce(Fp& f, llvm::Value* x) {
  if (std::optional<TrigReduced> done = shared_trig_reduction(f, x)) return *done;
  const std::vector<llvm::Value*> rq =
      f.outlined_n("trig_reduce", {x}, {f.ty, f.ity}, [](Fp& g, std::span<llvm::Value* const> a) {
        llvm::Value* shifter = g.k(0x1.8p23, 0x1.8p52);
        llvm::Value* t = g.fma(a[0], g.k(0x1.45f306p-1, 0x1.45f306dc9c883p-1), shifter);
        llvm::Value* nq = g.neg(g.sub(t, shifter));
        const double* p = g.f64 ? kPio2_64 : kPio2_32;
        llvm::Value* r = g.fma(nq, g.k(p[0]), a[0]);
        r = g.fma(nq, g.k(p[1]), r);
        r = g.fma(nq, g.k(p[2]), r);
        const TrigReduced done = trig_reduce_large(g, a[0], {r, g.as_int(t)});
        return std::vector<llvm::Value*>{done.r, done.q};
      });
  return {rq[0], rq[1]};
}

inline llvm::Value* sin_poly(Fp& f, llvm::Value* r, llvm::Value* z) {
  return f.fma(f.mul(r, z), f.poly(z, kSinS32, kSinS64), r);
}
// 1 - z/2 rounds at the leading term; (1 - w) - hz recovers that rounding error exactly (fdlibm's
// trick), so the result carries one rounding of the final sum.
inline llvm::Value* cos_poly(Fp& f, llvm::Value* z) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* hz = f.mul(f.k(0.5), z);
  llvm::Value* w = f.sub(one, hz);
  llvm::Value* tail = f.fma(f.mul(z, z), f.poly(z, kCosC32, kCosC64), f.sub(f.sub(one, w), hz));
  return f.add(w, tail);
}

// sin(x + offset*pi/2): quadrant n = q + offset picks sin or cos of r (bit 0) and the sign
// (bit 1, xored into the sign bit so that sin(-0) stays -0).
inline llvm::Value* sincos_impl(Fp& f, llvm::Value* x, int offset) {
  auto [r, q] = trig_reduce(f, x);
  llvm::Value* n = offset ? f.iadd(q, f.ki(offset)) : q;
  llvm::Value* z = f.mul(r, r);
  llvm::Value* odd = f.b.CreateICmpNE(f.iand(n, f.ki(1)), f.ki(0));
  llvm::Value* res = f.sel(odd, cos_poly(f, z), sin_poly(f, r, z));
  llvm::Value* sign = f.shl(f.iand(n, f.ki(2)), f.f64 ? 62 : 30);
  res = f.as_fp(f.ixor(f.as_int(res), sign));
  // r + r^3*S rounds -0 to +0 (S < 0); sin(+-0) must be +-0.
  return offset ? res : f.sel(f.eq(x, f.k(0.0)), x, res);
}

// tan r = r + r^3 * T(r^2) on the same range as sin/cos, and tan x = -1/tan r in odd quadrants.
// One polynomial and one reciprocal (instead of a quotient of sin and cos, two polynomials and a
// division that add their errors). Minimax T from our Remez fit, relative error 3.1e-9 (f32,
// 7 terms), 1.9e-17 (f64, 14 terms); T has poles at z = (pi/2)^2, hence the higher degree.
inline constexpr std::array<double, 7> kTanT32 = {0x1.55556ep-2, 0x1.1109ecp-3, 0x1.bb7e02p-5,
                                                  0x1.56437ep-6, 0x1.83b496p-7, -0x1.2c6dc8p-10,
                                                  0x1.45d85ep-8};
inline constexpr std::array<double, 14> kTanT64 = {
    0x1.55555555554eep-2,   0x1.1111111118689p-3,  0x1.ba1ba1b43fdcfp-5,   0x1.664f49b083795p-6,
    0x1.226e1177e0c38p-7,   0x1.d6d95387a2056p-9,  0x1.7d59db309b052p-10,  0x1.38072fccbc4e6p-11,
    0x1.d1dbce3e7a068p-13,  0x1.1f5bf09782556p-13, -0x1.c67ea52e20d74p-16, 0x1.79e9331e2277ap-14,
    -0x1.7b65c16b8ec92p-15, 0x1.5f72bc090bb09p-16};

inline llvm::Value* tan_impl(Fp& f, llvm::Value* x) {
  auto [r, q] = trig_reduce(f, x);
  llvm::Value* z = f.mul(r, r);
  llvm::Value* t = f.fma(f.mul(r, z), f.poly(z, kTanT32, kTanT64), r);
  llvm::Value* odd = f.b.CreateICmpNE(f.iand(q, f.ki(1)), f.ki(0));
  llvm::Value* res = f.sel(odd, f.div(f.k(-1.0), t), t);
  return f.sel(f.eq(x, f.k(0.0)), x, res);  // tan(+-0) = +-0
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_sin(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::sincos_impl(f, x, 0);
}
inline llvm::Value* emit_cos(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::sincos_impl(f, x, 1);
}
inline llvm::Value* emit_tan(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::tan_impl(f, x);
}

}  // namespace fj::backend::llvm_ir
