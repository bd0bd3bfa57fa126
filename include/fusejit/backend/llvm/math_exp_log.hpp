// exp, expm1, log, log1p as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include <array>

#include "fusejit/backend/llvm/math_fp.hpp"

namespace fj::backend::llvm_ir::detail {

// expm1(r) = r + r^2 * Q(r) on |r| <= ln2/2 (+0.01%): the classic exp kernel (Cephes, SLEEF, musl
// all reduce this way). Minimax Q from our own Remez exchange (mpmath), weighted for the relative
// error of expm1(r), which also bounds that of exp(r) = 1 + expm1(r); f32 coefficients rounded
// one at a time, lowest degree first, refitting the rest. Max relative error of the rounded
// polynomial: 3.3e-9 (f32, Q of degree 5), 9e-19 (f64, degree 10).
inline constexpr std::array<double, 6> kExpQ32 = {0x1p-1,        0x1.55552cp-3,  0x1.555502p-5,
                                                  0x1.1155a8p-7, 0x1.6d2e46p-10, 0x1.3b7efcp-13};
inline constexpr std::array<double, 11> kExpQ64 = {0x1p-1,
                                                   0x1.5555555555559p-3,
                                                   0x1.555555555553fp-5,
                                                   0x1.111111110f6dap-7,
                                                   0x1.6c16c16c1f077p-10,
                                                   0x1.a01a01afd3e68p-13,
                                                   0x1.a01a017bc6e5ep-16,
                                                   0x1.71ddf87eacf18p-19,
                                                   0x1.27e5362b2da5ap-22,
                                                   0x1.af5e751c029e9p-26,
                                                   0x1.1ee8896360cb7p-29};

// ln2 and pi/2 split for Cody-Waite reduction. The leading part is the format's own rounding of
// the constant: with the product taken inside an FMA, x - k*hi is exact for every k the domain
// produces (x and k*hi agree in all bits above |r| < 1), so only the second step rounds.
struct Split {
  double hi32, lo32, hi64, lo64;
};
inline constexpr Split kLn2 = {0x1.62e43p-1, -0x1.05c61p-29, 0x1.62e42fefa39efp-1,
                               0x1.abc9e3b39803fp-56};
inline constexpr double kLog2e32 = 0x1.715476p+0, kLog2e64 = 0x1.71547652b82fep+0;

// x = k*ln2 + r with k the nearest integer to x/ln2 and |r| <= ln2/2 (up to the rounding of
// x*log2e, which the polynomial's fitted range covers).
struct ExpReduced {
  llvm::Value* r;
  llvm::Value* kf;  // k as a float
  llvm::Value* k;   // k as an integer, in Fp::ity
};
inline ExpReduced exp_reduce(Fp& f, llvm::Value* x) {
  auto [kf, ki] = f.round_mul(x, f.k(kLog2e32, kLog2e64));
  llvm::Value* nk = f.neg(kf);
  llvm::Value* r = f.fma(nk, f.k(kLn2.hi32, kLn2.hi64), x);
  r = f.fma(nk, f.k(kLn2.lo32, kLn2.lo64), r);
  return {r, kf, ki};
}

inline llvm::Value* expm1_poly(Fp& f, llvm::Value* r) {
  return f.fma(f.mul(r, r), f.poly(r, kExpQ32, kExpQ64), r);
}

// p * 2^k for |k| up to twice the exponent range: with AVX-512 one vscalef; elsewhere in two
// exactly representable factors 2^(k>>1) and 2^(k - (k>>1)). Either way results that overflow
// become inf and subnormal results are rounded once, so both forms give the same bits.
inline llvm::Value* scale_2k(Fp& f, llvm::Value* p, llvm::Value* kf, llvm::Value* k) {
  if (llvm::Value* scaled = f.scalef(p, kf)) return scaled;
  llvm::Value* k1 = f.ashr(k, 1);
  return f.mul(f.mul(p, f.pow2i(k1)), f.pow2i(f.isub(k, k1)));
}

// exp(x + lo) for a small correction lo (|lo| <= ulp(x)), used by pow; lo may be null.
// Above `hi` the result is +inf and below `lo_edge` it is +0; both edges are past the point
// where the arithmetic itself overflows / underflows. Without lo, x is clamped to the edges
// (a NaN passes through: the compares are false), where the reduction and scale_2k give inf
// and 0 by themselves: two min/max instructions instead of two compares and two blends. With lo
// (which may be large where x is huge), the edges are applied as selects afterwards.
inline llvm::Value* exp_impl(Fp& f, llvm::Value* x, llvm::Value* lo = nullptr) {
  llvm::Value* hi_edge = f.k(88.8, 709.9);
  llvm::Value* lo_edge = f.k(-104.0, -745.2);
  llvm::Value* xr = x;
  if (!lo) {
    xr = f.sel(f.gt(x, hi_edge), hi_edge, x);
    xr = f.sel(f.lt(xr, lo_edge), lo_edge, xr);
  }
  auto [r, kf, k] = exp_reduce(f, xr);
  if (lo) r = f.add(r, lo);
  llvm::Value* res = scale_2k(f, f.add(f.k(1.0), expm1_poly(f, r)), kf, k);
  if (!lo) return res;
  res = f.sel(f.gt(x, hi_edge), f.inf(), res);
  return f.sel(f.lt(x, lo_edge), f.k(0.0), res);
}

// expm1(x) = 2^k * (1 + expm1(r)) - 1 = 2^k * expm1(r) + (2^k - 1), one rounding in the fma.
// For k = 0 (|x| < ln2/2) this is the polynomial alone, so small arguments keep full relative
// precision. 2^k is kept normal: k is capped at the top exponent and the last factor of 2 is
// applied afterwards (there the -1 no longer matters); below -88 / -709 the result is -1.
inline llvm::Value* expm1_impl(Fp& f, llvm::Value* x) {
  auto [r, kf, k] = exp_reduce(f, x);
  llvm::Value* em1 = expm1_poly(f, r);
  llvm::Value* kmax = f.ki(f.bias);
  llvm::Value* s = f.pow2i(f.imin(k, kmax));
  llvm::Value* res = f.fma(s, em1, f.sub(s, f.k(1.0)));
  res = f.mul(res, f.sel(f.igt(k, kmax), f.k(2.0), f.k(1.0)));
  res = f.sel(f.gt(x, f.k(88.8, 709.9)), f.inf(), res);
  res = f.sel(f.lt(x, f.k(-88.0, -709.0)), f.k(-1.0), res);
  return f.sel(f.eq(x, f.k(0.0)), x, res);  // keeps the sign of -0
}

// log(1+f) = 2s + s*R(z), s = f/(2+f), z = s^2, R(z) = z*P(z): the atanh series, whose
// remainder is smooth in z on [0, ((sqrt2-1)/(sqrt2+1))^2] (the fdlibm/musl method). Minimax P
// from our own Remez fit, weighted for the relative error of log(1+f); max error 8.1e-10
// (f32, 3 terms), 2e-18 (f64, 7 terms). The evaluation order of log_combine (fdlibm's) adds the
// small terms first, so the result carries essentially one rounding: < 0.85 ulp measured.
inline constexpr std::array<double, 3> kLogP32 = {0x1.55557ap-1, 0x1.995ed4p-2, 0x1.31e0dap-2};
inline constexpr std::array<double, 7> kLogP64 = {
    0x1.5555555555592p-1, 0x1.999999997fd37p-2, 0x1.24924941f8c69p-2, 0x1.c71c5202bba2dp-3,
    0x1.7466405a2f2e0p-3, 0x1.39a1935f1beb1p-3, 0x1.2f07041664b13p-3};

// x = 2^e * m with m in [sqrt2/2, sqrt2), for positive finite x (other lanes get garbage that
// the callers replace). Subnormals are first scaled by 2^mant. Subtracting the significand bits
// of sqrt2/2 before extracting the exponent moves the binade boundary to sqrt2/2, so no compare
// is needed, and the logical shift is safe because the difference stays positive.
struct LogDecomposed {
  llvm::Value* e;  // float
  llvm::Value* m;
};
inline LogDecomposed log_decompose(Fp& f, llvm::Value* x, bool handle_subnormal) {
  const std::int64_t mant_mask = (std::int64_t{1} << f.mant) - 1;
  const std::int64_t off = f.f64 ? 0x6a09e667f3bcdLL : 0x3504f3LL;  // sqrt2/2's significand
  llvm::Value* xs = x;
  llvm::Value* e_adj = f.ki(f.bias - 1);
  if (handle_subnormal) {
    llvm::Value* tiny = f.lt(x, f.k(0x1p-126, 0x1p-1022));
    xs = f.sel(tiny, f.mul(x, f.k(0x1p23, 0x1p52)), x);
    e_adj = f.sel(tiny, f.ki(f.bias - 1 + f.mant), e_adj);
  }
  llvm::Value* t = f.isub(f.as_int(xs), f.ki(off));
  llvm::Value* e = f.isub(f.lshr(t, f.mant), e_adj);
  llvm::Value* m = f.as_fp(f.iadd(f.iand(t, f.ki(mant_mask)),
                                  f.ki((static_cast<std::int64_t>(f.bias - 1) << f.mant) + off)));
  return {f.small_int_to_fp(e), m};
}

// e*ln2 + log1p(fm), with `corr` (a correction to the argument, relative to 1+fm) folded into
// the smallest terms.
inline llvm::Value* log_combine(Fp& f, llvm::Value* e, llvm::Value* fm, llvm::Value* corr) {
  llvm::Value* s = f.div(fm, f.add(f.k(2.0), fm));
  llvm::Value* z = f.mul(s, s);
  llvm::Value* R = f.mul(z, f.poly(z, kLogP32, kLogP64));
  llvm::Value* hfsq = f.mul(f.k(0.5), f.mul(fm, fm));
  llvm::Value* small = f.mul(e, f.k(kLn2.lo32, kLn2.lo64));
  if (corr) small = f.add(small, corr);
  llvm::Value* tail = f.fma(s, f.add(hfsq, R), small);
  return f.fma(e, f.k(kLn2.hi32, kLn2.hi64), f.sub(fm, f.sub(hfsq, tail)));
}

inline llvm::Value* log_impl(Fp& f, llvm::Value* x) {
  auto [e, m] = log_decompose(f, x, true);
  llvm::Value* res = log_combine(f, e, f.sub(m, f.k(1.0)), nullptr);
  res = f.sel(f.eq(x, f.inf()), x, res);
  res = f.sel(f.eq(x, f.k(0.0)), f.neg(f.inf()), res);
  return f.sel(f.b.CreateFCmpULT(x, f.k(0.0)), f.nan(), res);  // x < 0 or NaN
}

// log1p(x) = log(u) + c/u with u = fl(1+x) and c = x - (u-1) the rounding error of that sum
// (exact while u < 2^mant; beyond, c/u is below the result's ulp anyway). Tiny x gives u = 1 and
// the result c = x itself.
inline llvm::Value* log1p_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* u = f.add(one, x);
  llvm::Value* c = f.div(f.sub(x, f.sub(u, one)), u);
  auto [e, m] = log_decompose(f, u, false);
  llvm::Value* res = log_combine(f, e, f.sub(m, one), c);
  res = f.sel(f.eq(x, f.inf()), x, res);
  res = f.sel(f.eq(x, f.k(-1.0)), f.neg(f.inf()), res);
  res = f.sel(f.eq(x, f.k(0.0)), x, res);                       // keeps the sign of -0
  return f.sel(f.b.CreateFCmpULT(x, f.k(-1.0)), f.nan(), res);  // x < -1 or NaN
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_exp(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::exp_impl(f, x);
}
inline llvm::Value* emit_expm1(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::expm1_impl(f, x);
}
inline llvm::Value* emit_log(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::log_impl(f, x);
}
inline llvm::Value* emit_log1p(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::log1p_impl(f, x);
}

}  // namespace fj::backend::llvm_ir
