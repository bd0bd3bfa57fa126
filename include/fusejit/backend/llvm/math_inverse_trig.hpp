// asin, acos, atan, atan2 as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include <array>

#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/backend/llvm/math_special.hpp"

namespace fj::backend::llvm_ir::detail {

// atan t = t + t^3 P(t^2) on t in [0, 1]. Minimax P from our Remez fit (scripts/math/fit_atan.py),
// weighted for the relative error of atan t: 2.7e-9 (f32, 9 terms), 6.6e-18 (f64, 21 terms).
// One polynomial over all of [0, 1] (no second reduction, which would cost a division and round
// the reduced argument once more); the f64 one is long because atan(sqrt z) has a branch point at
// z = -1, next to the interval.
inline constexpr std::array<double, 9> kAtanP32 = {-0x1.55553ep-2, 0x1.9991e4p-3,  -0x1.242086p-3,
                                                   0x1.c08c5p-4,   -0x1.58091ep-4, 0x1.da298ep-5,
                                                   -0x1.fd7abcp-6, 0x1.641d36p-7,  -0x1.d342b8p-10};
inline constexpr std::array<double, 21> kAtanP64 = {
    -0x1.555555555554dp-2, 0x1.9999999998c65p-3, -0x1.2492492470fap-3,   0x1.c71c71c3c9262p-4,
    -0x1.745d17535777ap-4, 0x1.3b13b481bb081p-4, -0x1.1111397ba90b2p-4,  0x1.e1e3d7d8e9cep-5,
    -0x1.af2dc1cdb3a7bp-5, 0x1.860a642d8f8c5p-5, -0x1.635805cbdb64p-5,   0x1.4347af7d032f6p-5,
    -0x1.2029315f96045p-5, 0x1.e6e9daa0d129ap-6, -0x1.74df2b67f3864p-6,  0x1.ec4ea50cab2cep-7,
    -0x1.09def850cbe22p-7, 0x1.bb6d5486c84b6p-9, -0x1.08cb80038f43ep-10, 0x1.9024d8c2de53p-13,
    -0x1.1e0a4cfe82fbp-16};

// asin s = s + s^3 P(s^2) on s in [0, 1/2]. Minimax P from our Remez fit, weighted for the
// relative error of asin s: 3.5e-10 (f32, 6 terms), 3.9e-18 (f64, 13 terms).
inline constexpr std::array<double, 6> kAsinP32 = {0x1.55554cp-3, 0x1.3338acp-4, 0x1.6ca808p-5,
                                                   0x1.04c27ap-5, 0x1.d6d8dcp-7, 0x1.33e836p-5};
inline constexpr std::array<double, 13> kAsinP64 = {
    0x1.5555555555577p-3, 0x1.333333332e10ap-4, 0x1.6db6db7140447p-5, 0x1.f1c71b3d5a079p-6,
    0x1.6e8bc365b89a3p-6, 0x1.1c4c65ee66842p-6, 0x1.c9da1c5df6708p-7, 0x1.7803689d0f0fcp-7,
    0x1.52096e21fb265p-7, 0x1.6d53f9efc8521p-8, 0x1.158006b1236c9p-6, -0x1.ca7d0558719bep-7,
    0x1.ccad8ed04a665p-6};

// pi/2 as hi + lo: hi the format's rounding of pi/2, lo the rounding of the rest. pi is twice
// both (exact).
inline constexpr double kPio2Hi32 = 0x1.921fb6p0, kPio2Lo32 = -0x1.777a5cp-25;
inline constexpr double kPio2Hi64 = 0x1.921fb54442d18p0, kPio2Lo64 = 0x1.1a62633145c07p-54;

// c + u + lo for a constant c = c_hi + c_lo (0, pi/2 or pi, selected per lane), |u| <= 1 <= |c|
// or c = 0, and a small lo: c_hi + u is split exactly (fast two-sum), so u is never rounded
// to the ulp of c, and the small terms are added below it, then one final rounding. This is what
// keeps pi/2 - atan t and pi - 2 asin s within an ulp where they cancel.
inline llvm::Value* add_to_const(Fp& f, llvm::Value* c_hi, llvm::Value* c_lo, llvm::Value* u,
                                 llvm::Value* lo) {
  DoubleWord s = fast_two_sum(f, c_hi, u);
  return f.add(s.hi, f.add(s.lo, f.add(c_lo, lo)));
}

// atan t as t + tail: tail = t^3 P(t^2) plus the first-order effect of t's own rounding error
// t_lo (already divided by 1 + t^2, atan's derivative, or close to that). At t = 1 the pair is
// pi/4 as hi + lo instead, so that atan(+-1) and atan2(+-inf, +-inf) are pi/4 and 3pi/4 rounded
// correctly (the polynomial's sum lands 0.67 ulp off pi/4 in f32).
struct AtanTerms {
  llvm::Value* t;
  llvm::Value* tail;
};
inline AtanTerms atan_terms(Fp& f, llvm::Value* t, llvm::Value* t_lo) {
  llvm::Value* z = f.mul(t, t);
  llvm::Value* tail = f.fma(f.mul(t, z), f.poly(z, kAtanP32, kAtanP64), t_lo);
  llvm::Value* one = f.eq(t, f.k(1.0));
  return {f.sel(one, f.k(kPio2Hi32 / 2, kPio2Hi64 / 2), t),
          f.sel(one, f.k(kPio2Lo32 / 2, kPio2Lo64 / 2), tail)};
}

// 1/(1 + z) on [0, 1] within 1% (the quadratic through its Chebyshev nodes).
inline constexpr std::array<double, 3> kAtanDeriv = {0.99, -0.808, 0.3232};

// atan x = atan|x| with x's sign; |x| > 1: pi/2 - atan(1/|x|). The reciprocal's rounding error,
// t_lo = (1 - t|x|) t (the fma makes the remainder exact), times 1/(1 + t^2) to 1% (a quadratic),
// is added back: without it t's half-ulp error becomes up to 0.4 ulp of pi/2 - atan t.
inline llvm::Value* atan_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* zero = f.k(0.0);
  llvm::Value* a = f.abs(x);
  llvm::Value* big = f.gt(a, one);
  llvm::Value* t = f.sel(big, f.div(one, a), a);
  llvm::Value* z = f.mul(t, t);
  llvm::Value* d = f.poly(z, kAtanDeriv);
  llvm::Value* t_lo = f.sel(big, f.mul(f.mul(f.fma(f.neg(t), a, one), t), d), zero);
  AtanTerms p = atan_terms(f, t, t_lo);
  llvm::Value* r = add_to_const(f, f.sel(big, f.k(kPio2Hi32, kPio2Hi64), zero),
                                f.sel(big, f.k(kPio2Lo32, kPio2Lo64), zero),
                                f.sel(big, f.neg(p.t), p.t), f.sel(big, f.neg(p.tail), p.tail));
  // +-inf: t = 0 but t_lo = (1 - 0 * inf) 0 = NaN; the limit is pi/2 rounded.
  r = f.sel(f.eq(a, f.inf()), f.k(kPio2Hi32, kPio2Hi64), r);
  return f.copysign(r, x);
}

// atan2(y, x) = c +- atan t with t = min(|x|, |y|) / max(|x|, |y|) in [0, 1]:
//   |y| <= |x|: atan t (x >= +0) or pi - atan t (x <= -0, the sign bit decides);
//   |y| >  |x|: pi/2 - atan t (x >= +0) or pi/2 + atan t (x <= -0);
// then y's sign. The quotient's rounding error is added back as remainder / (max + min t), a
// second division, exact to first order (its derivative 1/(1 + t^2) included): without it the
// half-ulp error of t cost up to 1.47 ulp of the result (measured), with it 0.98.
// Special values (C99 Annex F) are handled on the inputs: if either is infinite, infinities
// become 1 and finite values 0 (NaN stays NaN), which gives +-pi/4, +-3pi/4, +-pi/2, +-0 and +-pi
// from the same formula; both zero gives t = 0 / 1, hence +-0 or +-pi.
inline llvm::Value* atan2_impl(Fp& f, llvm::Value* y, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* zero = f.k(0.0);
  llvm::Value* inf = f.inf();
  llvm::Value* ay = f.abs(y);
  llvm::Value* ax = f.abs(x);
  llvm::Value* y_inf = f.eq(ay, inf);
  llvm::Value* x_inf = f.eq(ax, inf);
  llvm::Value* any_inf = f.either(y_inf, x_inf);
  // ay * 0: 0 for finite ay, NaN for NaN
  ay = f.sel(any_inf, f.sel(y_inf, one, f.mul(ay, zero)), ay);
  ax = f.sel(any_inf, f.sel(x_inf, one, f.mul(ax, zero)), ax);

  llvm::Value* swap = f.gt(ay, ax);
  llvm::Value* mn = f.sel(swap, ax, ay);
  llvm::Value* mx = f.sel(swap, ay, ax);
  mx = f.sel(f.eq(mx, zero), one, mx);  // both zero
  llvm::Value* t = f.div(mn, mx);
  llvm::Value* rem = f.fma(f.neg(t), mx, mn);  // exact (unless it underflows)
  llvm::Value* t_lo = f.div(rem, f.fma(mn, t, mx));
  AtanTerms p = atan_terms(f, t, t_lo);

  llvm::Value* x_neg = f.b.CreateICmpSLT(f.as_int(x), f.ki(0));  // sign bit: -0 counts
  llvm::Value* minus = f.b.CreateXor(swap, x_neg);
  llvm::Value* c_hi =
      f.sel(swap, f.k(kPio2Hi32, kPio2Hi64), f.sel(x_neg, f.k(2 * kPio2Hi32, 2 * kPio2Hi64), zero));
  llvm::Value* c_lo =
      f.sel(swap, f.k(kPio2Lo32, kPio2Lo64), f.sel(x_neg, f.k(2 * kPio2Lo32, 2 * kPio2Lo64), zero));
  llvm::Value* r = add_to_const(f, c_hi, c_lo, f.sel(minus, f.neg(p.t), p.t),
                                f.sel(minus, f.neg(p.tail), p.tail));
  return f.copysign(r, y);
}

// The pieces asin and acos share, for a = |x| <= 1:
//   a <= 1/2: asin a = a + a R, R = z P(z), z = a^2;
//   a >  1/2: asin a = pi/2 - 2 asin s, s = sqrt(z), z = (1 - a)/2 (exact: Sterbenz, then a
//             halving), so 2 asin s = 2s + (2s R + 2 s_lo), s_lo = (z - s^2) / (2s) the square
//             root's rounding error (without it that error is up to 0.6 ulp of the result).
// s_lo is a correction below half an ulp of s, so its division needs only a few bits: 1/s to
// within 12.5% is the bit pattern of 2^(2 bias) minus that of s (exact at powers of 2, high by
// (2 - m)(1 + m)/2 for a significand 1 + m), no division; at s = 0 (a = 1) the remainder is 0 and
// so is s_lo. Outside [-1, 1] z < 0 and the square root is NaN.
struct AsinParts {
  llvm::Value* big;   // a > 1/2
  llvm::Value* s2;    // 2s (big lanes)
  llvm::Value* tail;  // 2s R + 2 s_lo (big lanes)
  llvm::Value* aR;    // a R (small lanes)
};
inline AsinParts asin_parts(Fp& f, llvm::Value* a) {
  llvm::Value* big = f.gt(a, f.k(0.5));
  llvm::Value* z = f.sel(big, f.mul(f.sub(f.k(1.0), a), f.k(0.5)), f.mul(a, a));
  llvm::Value* R = f.mul(z, f.poly(z, kAsinP32, kAsinP64));
  llvm::Value* s = f.sqrt(z);
  llvm::Value* s2 = f.add(s, s);
  llvm::Value* rem = f.fma(f.neg(s), s, z);
  // ~1/s: 2 bias in the exponent field minus s's bits; 2 s_lo = rem / s
  llvm::Value* inv_s = f.as_fp(f.isub(f.ki(std::int64_t{2} * f.bias << f.mant), f.as_int(s)));
  llvm::Value* tail = f.fma(s2, R, f.mul(rem, inv_s));
  return {big, s2, tail, f.mul(a, R)};
}

// asin x: pi/2 - 2s - tail for |x| > 1/2, |x| + |x| R below, with x's sign (asin(-0) = -0).
inline llvm::Value* asin_impl(Fp& f, llvm::Value* x) {
  llvm::Value* zero = f.k(0.0);
  llvm::Value* a = f.abs(x);
  AsinParts p = asin_parts(f, a);
  llvm::Value* r = add_to_const(f, f.sel(p.big, f.k(kPio2Hi32, kPio2Hi64), zero),
                                f.sel(p.big, f.k(kPio2Lo32, kPio2Lo64), zero),
                                f.sel(p.big, f.neg(p.s2), a), f.sel(p.big, f.neg(p.tail), p.aR));
  return f.copysign(r, x);
}

// acos x: pi/2 - (x + x R) for |x| <= 1/2; 2 asin s = 2s + tail for x > 1/2; pi - (2s + tail)
// for x < -1/2. acos(1) = +0, acos(-1) = pi rounded.
inline llvm::Value* acos_impl(Fp& f, llvm::Value* x) {
  llvm::Value* zero = f.k(0.0);
  llvm::Value* a = f.abs(x);
  AsinParts p = asin_parts(f, a);
  llvm::Value* x_neg = f.lt(x, zero);
  llvm::Value* pi_hi = f.k(2 * kPio2Hi32, 2 * kPio2Hi64);
  llvm::Value* pi_lo = f.k(2 * kPio2Lo32, 2 * kPio2Lo64);
  llvm::Value* c_hi = f.sel(p.big, f.sel(x_neg, pi_hi, zero), f.k(kPio2Hi32, kPio2Hi64));
  llvm::Value* c_lo = f.sel(p.big, f.sel(x_neg, pi_lo, zero), f.k(kPio2Lo32, kPio2Lo64));
  llvm::Value* u = f.sel(p.big, f.sel(x_neg, f.neg(p.s2), p.s2), f.neg(x));
  llvm::Value* lo = f.sel(p.big, f.sel(x_neg, f.neg(p.tail), p.tail), f.neg(f.copysign(p.aR, x)));
  return add_to_const(f, c_hi, c_lo, u, lo);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_asin(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::asin_impl(f, x);
}
inline llvm::Value* emit_acos(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::acos_impl(f, x);
}
inline llvm::Value* emit_atan(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::atan_impl(f, x);
}
inline llvm::Value* emit_atan2(llvm::IRBuilderBase& b, llvm::Value* y, llvm::Value* x) {
  detail::Fp f(b, y->getType());
  return detail::atan2_impl(f, y, x);
}

}  // namespace fj::backend::llvm_ir
