// sinh, cosh, asinh, acosh, atanh, cbrt, exp2 as inline IR (definitions of math_ir.hpp, over
// math_fp.hpp and the exp / log kernels of math_exp_log.hpp).
#pragma once
#include <array>

#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/backend/llvm/math_special.hpp"

namespace fj::backend::llvm_ir::detail {

// ---- sinh, cosh ----------------------------------------------------------------------------

// sinh x = x + x^3 P(x^2) on |x| < 1. Minimax P from our Remez fit (scripts/math/
// fit_hyperbolic.py), weighted for the error of x^3 P relative to sinh x: 3.1e-10 (f32, 4 terms,
// coefficients rounded to float one at a time), 9.5e-18 (f64, 7 terms).
inline constexpr std::array<double, 4> kSinhP32 = {0x1.555556p-3, 0x1.1110ep-7, 0x1.a022bcp-13,
                                                   0x1.756c5cp-19};
inline constexpr std::array<double, 7> kSinhP64 = {
    0x1.5555555555556p-3,  0x1.11111111110a6p-7,  0x1.a01a01a02899dp-13, 0x1.71de3a465b1f0p-19,
    0x1.ae64671b186c9p-26, 0x1.611a561dba4d5p-33, 0x1.b4c75aa3e88c3p-41};

// e^a / 2 for 0 <= a <= 90 / 711 as a double-word hi + lo, good to ~2^-60 relative: exp's
// reduction with r = r_hi + r_lo kept as two parts (r_hi exact; r_lo = -k ln2_lo reaches 2e-7 /
// 2e-14 at the top, far above an ulp of r), e^r = (1 + r_hi) + r^2 Q(r) + r_lo summed in
// double-word arithmetic (only r^2 Q, below 0.07, rounds), and 2^(k-1) applied as two exact
// factors, so that the value stays finite up to FLT_MAX / DBL_MAX (e^a itself overflows first).
// Halving inside the exponent is what lets sinh and cosh reach their own overflow points
// (sinh(89) in f32 is 2.2e38) without exp(a)'s overflow at 88.72.
inline DoubleWord exp_half_dw(Fp& f, llvm::Value* a) {
  auto [kf, k] = f.round_mul(a, f.k(kLog2e32, kLog2e64));
  llvm::Value* nk = f.neg(kf);
  llvm::Value* r_hi = f.fma(nk, f.k(kLn2.hi32, kLn2.hi64), a);
  llvm::Value* r_lo = f.mul(nk, f.k(kLn2.lo32, kLn2.lo64));
  llvm::Value* r = f.add(r_hi, r_lo);
  llvm::Value* t = f.mul(f.mul(r, r), f.poly(r, kExpQ32, kExpQ64));
  DoubleWord s = two_sum(f, f.k(1.0), r_hi);
  DoubleWord h = fast_two_sum(f, s.hi, t);
  llvm::Value* hl = f.add(r_lo, f.add(s.lo, h.lo));
  llvm::Value* km = f.isub(k, f.ki(1));
  llvm::Value* k1 = f.ashr(km, 1);
  llvm::Value* s1 = f.pow2i(k1);
  llvm::Value* s2 = f.pow2i(f.isub(km, k1));
  return {f.mul(f.mul(h.hi, s1), s2), f.mul(f.mul(hl, s1), s2)};
}

// E +- 1/(4E) for E = e^a/2 = hi + lo (a = |x|, clamped at 90 / 711, past the overflow of sinh
// and cosh at 89.4 / 710.5, where E is inf): q = 1/(4 hi) with the division's remainder (fma)
// as ql, 1/(4E) = q + ql - 4q^2 lo to first order, E +- q as a Fast2Sum (E >= 1/2 >= q), and
// every small term summed before the one last rounding. For cosh near 0 the errors of E and
// 1/(4E) would otherwise add up to about an ulp (measured 1.12 without ql and the Fast2Sum).
inline llvm::Value* exp_pm_recip(Fp& f, llvm::Value* a, bool minus) {
  llvm::Value* edge = f.k(90.0, 711.0);
  auto [e, el] = exp_half_dw(f, f.sel(f.gt(a, edge), edge, a));
  llvm::Value* q = f.div(f.k(0.25), e);
  llvm::Value* q4 = f.mul(f.k(4.0), q);
  llvm::Value* ql = f.mul(f.fma(f.neg(q), e, f.k(0.25)), q4);
  llvm::Value* one = f.k(1.0);
  llvm::Value* lo =
      minus ? f.fma(el, f.fma(q, q4, one), f.neg(ql)) : f.fma(el, f.fma(f.neg(q), q4, one), ql);
  DoubleWord s = fast_two_sum(f, e, minus ? f.neg(q) : q);
  llvm::Value* res = f.add(s.hi, f.add(s.lo, lo));
  return f.sel(f.eq(e, f.inf()), e, res);  // ql is NaN there (inf * 0)
}

// sinh: |x| < 1: the polynomial; above, E - 1/(4E), whose cancellation costs at most a factor
// coth 1 = 1.31 on E's tiny error. Odd.
inline llvm::Value* sinh_impl(Fp& f, llvm::Value* x) {
  llvm::Value* a = f.abs(x);
  llvm::Value* z = f.mul(a, a);
  llvm::Value* small = f.fma(f.mul(a, z), f.poly(z, kSinhP32, kSinhP64), a);
  llvm::Value* big = exp_pm_recip(f, a, true);
  return f.copysign(f.sel(f.lt(a, f.k(1.0)), small, big), x);
}

// cosh = E + 1/(4E): no cancellation, so one form serves every x. Even.
inline llvm::Value* cosh_impl(Fp& f, llvm::Value* x) { return exp_pm_recip(f, f.abs(x), false); }

// ---- asinh, acosh, atanh: log1p of a double-word argument -----------------------------------

// log(1 + hi + lo) + e_extra * ln2 for hi + lo > -1 (lo a small correction; e_extra 0 or 1, or
// null). As log1p_impl: u = fl(1 + hi), and the rounding error of that sum plus lo, relative to
// u, is log_combine's correction term. Special values are the callers'.
inline llvm::Value* log1p_dw(Fp& f, llvm::Value* hi, llvm::Value* lo, llvm::Value* e_extra) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* u = f.add(one, hi);
  llvm::Value* c = f.div(f.add(f.sub(hi, f.sub(u, one)), lo), u);
  auto [e, m] = log_decompose(f, u, false);
  if (e_extra) e = f.add(e, e_extra);
  return log_combine(f, e, f.sub(m, one), c);
}

// Beyond 2^12 / 2^28, sqrt(x^2 + 1) = |x| to within 2^-25 / 2^-57 relative, and asinh and acosh
// are log(2|x|) = log(1 + (|x| - 1)) + ln2 (|x| - 1 exact up to 2^24 / 2^53, and irrelevant
// beyond): no x^2, which would overflow.
inline llvm::Value* huge_arg(Fp& f, llvm::Value* a) { return f.ge(a, f.k(0x1p12, 0x1p28)); }

// Below 2^-10 / 2^-20, asinh and atanh are a + c3 a^3 + c5 a^5 to within 2^-60 / 2^-120
// relative (the next term). There 1 + (argument of log1p) lies within a few ulps of 1, where
// log1p's correction term carries the whole result and its roundings cost up to an ulp; the
// series is exact but for its last rounding, and tiny arguments give themselves.
inline llvm::Value* odd_series(Fp& f, llvm::Value* a, double c3, double c5) {
  llvm::Value* z = f.mul(a, a);
  return f.fma(f.mul(a, z), f.fma(z, f.k(c5), f.k(c3)), a);
}
inline llvm::Value* tiny_arg(Fp& f, llvm::Value* a) { return f.lt(a, f.k(0x1p-10, 0x1p-20)); }

// asinh|x| = log1p(|x| + w), w = sqrt(1 + x^2) - 1, kept as a double-word: 1 + x^2 to 2^-100
// (two_prod, two_sum), the root corrected by its residual, and s - 1 exact (s >= 1). As w < |x|,
// |x| + w is a Fast2Sum, so log1p's argument is good to ~2^-100 and only log1p's own error
// remains. Odd; tiny arguments by the series.
inline llvm::Value* asinh_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* a = f.abs(x);
  DoubleWord p = two_prod(f, a, a);
  DoubleWord v = two_sum(f, one, p.hi);
  llvm::Value* s = f.sqrt(v.hi);
  llvm::Value* sl = f.div(f.add(f.fma(f.neg(s), s, v.hi), f.add(v.lo, p.lo)), f.add(s, s));
  DoubleWord u = fast_two_sum(f, a, f.sub(s, one));
  u.lo = f.add(u.lo, sl);
  llvm::Value* huge = huge_arg(f, a);
  llvm::Value* res = log1p_dw(f, f.sel(huge, f.sub(a, one), u.hi), f.sel(huge, f.k(0.0), u.lo),
                              f.sel(huge, one, f.k(0.0)));
  res = f.sel(tiny_arg(f, a), odd_series(f, a, -1.0 / 6.0, 3.0 / 40.0), res);
  res = f.sel(f.eq(a, f.inf()), a, res);
  return f.copysign(res, x);
}

// acosh x = log1p(t + sqrt(t^2 + 2t)), t = x - 1 (exact for x in [1, 2^mant]). Near x = 1 the
// result is about sqrt(2t), so the square root's argument is formed as a double-word
// (two_prod, two_sum) and the root corrected by its residual; t + sqrt(..) is a Fast2Sum (the
// root exceeds t). acosh(1) = +0, NaN below 1.
inline llvm::Value* acosh_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* t = f.sub(x, one);
  DoubleWord p = two_prod(f, t, t);
  DoubleWord y = two_sum(f, f.add(t, t), p.hi);
  llvm::Value* ylo = f.add(y.lo, p.lo);
  llvm::Value* s = f.sqrt(y.hi);
  llvm::Value* sl = f.div(f.add(f.fma(f.neg(s), s, y.hi), ylo), f.add(s, s));
  DoubleWord u = fast_two_sum(f, s, t);
  llvm::Value* huge = huge_arg(f, x);
  llvm::Value* res = log1p_dw(f, f.sel(huge, t, u.hi), f.sel(huge, f.k(0.0), f.add(u.lo, sl)),
                              f.sel(huge, one, f.k(0.0)));
  res = f.sel(f.eq(x, one), f.k(0.0), res);  // s = 0 there, and sl = 0/0
  res = f.sel(f.eq(x, f.inf()), x, res);
  return f.sel(f.b.CreateFCmpULT(x, one), f.nan(), res);  // x < 1 or NaN
}

// atanh|x| = log1p(2|x| / (1 - |x|)) / 2, the quotient as a double-word: 1 - |x| is exact with
// its Fast2Sum error, and the division's remainder (one fma) gives the low word. atanh(+-1) =
// +-inf, NaN beyond; odd; tiny arguments by the series.
inline llvm::Value* atanh_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* a = f.abs(x);
  llvm::Value* d = f.sub(one, a);
  llvm::Value* dl = f.sub(f.sub(one, d), a);
  llvm::Value* n = f.add(a, a);
  llvm::Value* q = f.div(n, d);
  llvm::Value* ql = f.div(f.fma(f.neg(q), dl, f.fma(f.neg(q), d, n)), d);
  llvm::Value* res = f.mul(f.k(0.5), log1p_dw(f, q, ql, nullptr));
  res = f.sel(tiny_arg(f, a), odd_series(f, a, 1.0 / 3.0, 1.0 / 5.0), res);
  res = f.sel(f.eq(a, one), f.inf(), res);
  res = f.sel(f.gt(a, one), f.nan(), res);
  return f.copysign(res, x);
}

// ---- cbrt ----------------------------------------------------------------------------------

// m^(1/3) on [1, 2]: the starting point of the Newton steps. Minimax P from our Remez fit,
// relative error 1.24e-6 (f32, coefficients rounded to float one at a time), 1.23e-6 (f64).
inline constexpr std::array<double, 6> kCbrtP32 = {0x1.e4b0ccp-2, 0x1.ad235p-1,   -0x1.e07d7ep-2,
                                                   0x1.9f49aap-3, -0x1.9cc43ap-5, 0x1.5e85bep-8};
inline constexpr std::array<double, 6> kCbrtP64 = {0x1.e4b0cc21185f8p-2,  0x1.ad234fe069607p-1,
                                                   -0x1.e07d7e49fa19dp-2, 0x1.9f49aad1af99ap-3,
                                                   -0x1.9cc43aabfbeb2p-5, 0x1.5e85bc1c728bap-8};

// cbrt of a positive finite nonzero a (other lanes get values the caller replaces).
// a = 2^(3q + j) m with m in [1, 2), j in {0, 1, 2}; z = 2^j m is exact and cbrt a = 2^q cbrt z.
// y = P(m) 2^(j/3) (relative error ~1.3e-6); for f64 one plain Newton step y += (z/y^2 - y)/3
// (~2e-12); then a last Newton step whose residual y^3 - z is exact to far below an ulp (y^2 by
// two_prod, then two fmas), so the result y - r/(3y^2) is the cube root to ~2^-39 / 2^-78
// relative, rounded once: within 0.5 + 2^-15 ulp. Subnormals are scaled by 2^24 / 2^54 first
// (and the result by 2^-8 / 2^-18).
inline llvm::Value* cbrt_core(Fp& f, llvm::Value* a) {
  const int sub = f.f64 ? 54 : 24;  // a multiple of 3 above the significand's width
  llvm::Value* tiny = f.lt(a, f.k(0x1p-126, 0x1p-1022));
  llvm::Value* as = f.sel(tiny, f.mul(a, f.k(f.f64 ? 0x1p54 : 0x1p24)), a);
  llvm::Value* bits = f.as_int(as);
  llvm::Value* ef = f.small_int_to_fp(f.isub(f.lshr(bits, f.mant), f.ki(f.bias)));
  const std::int64_t mant_mask = (std::int64_t{1} << f.mant) - 1;
  llvm::Value* m = f.as_fp(f.b.CreateOr(f.iand(bits, f.ki(mant_mask)),
                                        f.ki(static_cast<std::int64_t>(f.bias) << f.mant)));
  // q = floor(e/3): e + 0.5 keeps the product off the integers whatever 1/3's rounding does.
  llvm::Value* qf = f.floor(f.mul(f.add(ef, f.k(0.5)), f.k(1.0 / 3.0)));
  llvm::Value* j = f.fma(f.k(-3.0), qf, ef);
  llvm::Value* j1 = f.eq(j, f.k(1.0));
  llvm::Value* j2 = f.eq(j, f.k(2.0));
  llvm::Value* z = f.mul(m, f.sel(j1, f.k(2.0), f.sel(j2, f.k(4.0), f.k(1.0))));
  llvm::Value* c =
      f.sel(j1, f.k(0x1.428a2f98d728bp+0), f.sel(j2, f.k(0x1.965fea53d6e3dp+0), f.k(1.0)));
  llvm::Value* y = f.mul(f.poly(m, kCbrtP32, kCbrtP64), c);
  if (f.f64) y = f.fma(f.sub(f.div(z, f.mul(y, y)), y), f.k(1.0 / 3.0), y);
  DoubleWord y2 = two_prod(f, y, y);
  llvm::Value* r = f.fma(y, y2.lo, f.fma(y, y2.hi, f.neg(z)));
  y = f.sub(y, f.div(r, f.mul(f.k(3.0), y2.hi)));
  llvm::Value* q = f.round_mul(qf, f.k(1.0)).i;
  q = f.isub(q, f.sel(tiny, f.ki(sub / 3), f.ki(0)));
  return f.mul(y, f.pow2i(q));
}

// cbrt(+-0) = +-0, cbrt(+-inf) = +-inf, NaN: NaN; odd.
inline llvm::Value* cbrt_impl(Fp& f, llvm::Value* x) {
  llvm::Value* a = f.abs(x);
  llvm::Value* res = f.copysign(cbrt_core(f, a), x);
  return f.sel(f.either(f.either(f.eq(a, f.k(0.0)), f.eq(a, f.inf())), f.isnan(x)), x, res);
}

// ---- exp2 ----------------------------------------------------------------------------------

// 2^x = 2^k * e^(r ln2), k = nearest integer to x, r = x - k exact (|r| <= 1/2). r ln2 is formed
// as a double-word (the product's error by fma, plus r times ln2's low part) and rounded once,
// then exp's polynomial and scale_2k (subnormal results rounded once). Integers give r = 0 and
// exactly 2^k. x is clamped to [-152, 129] / [-1080, 1025] (NaN passes), where scale_2k gives 0
// and inf by itself.
inline llvm::Value* exp2_impl(Fp& f, llvm::Value* x) {
  llvm::Value* hi_edge = f.k(129.0, 1025.0);
  llvm::Value* lo_edge = f.k(-152.0, -1080.0);
  llvm::Value* xc = f.sel(f.gt(x, hi_edge), hi_edge, x);
  xc = f.sel(f.lt(xc, lo_edge), lo_edge, xc);
  auto [kf, k] = f.round_mul(xc, f.k(1.0));
  llvm::Value* r = f.sub(xc, kf);
  llvm::Value* ln2 = f.k(kLn2.hi32, kLn2.hi64);
  llvm::Value* hi = f.mul(r, ln2);
  llvm::Value* lo = f.fma(r, f.k(kLn2.lo32, kLn2.lo64), f.fma(r, ln2, f.neg(hi)));
  llvm::Value* t = f.add(hi, lo);
  return scale_2k(f, f.add(f.k(1.0), expm1_poly(f, t)), kf, k);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_sinh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::sinh_impl(f, x);
}
inline llvm::Value* emit_cosh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::cosh_impl(f, x);
}
inline llvm::Value* emit_asinh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::asinh_impl(f, x);
}
inline llvm::Value* emit_acosh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::acosh_impl(f, x);
}
inline llvm::Value* emit_atanh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::atanh_impl(f, x);
}
inline llvm::Value* emit_cbrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::cbrt_impl(f, x);
}
inline llvm::Value* emit_exp2(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::exp2_impl(f, x);
}

}  // namespace fj::backend::llvm_ir
