// polygamma(m, x) and zeta(x, q) as inline IR (definitions of math_ir.hpp, over math_fp.hpp):
// digamma for m = 0, else (-1)^(m+1) m! zeta(m + 1, x) with the Hurwitz zeta summed as XLA's
// chlo.polygamma sums it, so that fusejit's values are JAX's (docs/MATH.md, "polygamma").
#pragma once
#include <array>
#include <span>

#include "fusejit/backend/llvm/math_gamma.hpp"
#include "fusejit/backend/llvm/math_special.hpp"

namespace fj::backend::llvm_ir::detail {

// Euler-Maclaurin for zeta(s, q) = sum_k (q + k)^-s: the first kZetaTerms terms directly, then
// a = q + kZetaTerms and a^-s (a / (s - 1) + 1/2 + sum_j c_j (s)_(2j-1) a^(1-2j)), c_j =
// B_2j / (2j)!, j = 1..12, in Horner form. With a >= 10 the first omitted term is below 1e-20 of
// the result for small s; XLA uses the same ten terms and twelve corrections. Below q = -9 the
// expansion point a is negative and the formula is not zeta's (nor is XLA's).
inline constexpr int kZetaTerms = 10;
inline constexpr std::array<double, 12> kZetaBernoulli = {
    1.0 / 12,
    -1.0 / 720,
    1.0 / 30240,
    -1.0 / 1209600,
    1.0 / 47900160,
    -691.0 / 1307674368000.0,
    1.0 / 74724249600.0,
    -3617.0 / 10670622842880000.0,
    43867.0 / 5109094217170944000.0,
    -174611.0 / 802857662698291200000.0,
    77683.0 / 14101100039391805440000.0,
    -236364091.0 / 1693824136731743669452800000.0};

// base^e for a whole e: |base|^e, negated for a negative base when e is odd (base finite and
// nonzero; the poles are polygamma_impl's).
inline llvm::Value* whole_pow(Fp& f, llvm::Value* base, llvm::Value* e, llvm::Value* e_odd) {
  llvm::Value* p = pow_core(f, f.abs(base), e);
  return f.sel(f.both(e_odd, f.lt(base, f.k(0.0))), f.neg(p), p);
}

inline llvm::Value* hurwitz_zeta(Fp& f, llvm::Value* s, llvm::Value* q, llvm::Value* s_odd) {
  llvm::Value* neg_s = f.neg(s);
  llvm::Value* sum = whole_pow(f, q, neg_s, s_odd);
  for (int k = 1; k < kZetaTerms; ++k)
    sum = f.add(sum, whole_pow(f, f.add(q, f.k(k)), neg_s, s_odd));
  llvm::Value* a = f.add(q, f.k(kZetaTerms));
  llvm::Value* u = f.div(f.k(1.0), f.mul(a, a));
  // h = c_j + u (s + 2j - 1)(s + 2j) h from j = 11 down to 1.
  llvm::Value* h = f.k(kZetaBernoulli.back());
  for (int j = static_cast<int>(kZetaBernoulli.size()) - 1; j >= 1; --j) {
    llvm::Value* rise = f.mul(f.add(s, f.k(2.0 * j - 1)), f.add(s, f.k(2.0 * j)));
    h = f.fma(f.mul(u, rise), h, f.k(kZetaBernoulli[j - 1]));
  }
  // a^(1-s) / (s - 1) + a^(1-s) (1/(2a) + s u h): scaled by a^(1-s), not a^-s, which underflows
  // first (x = 2.8e219, m = 1: a^-2 is 0, a^-1 the result); the leading term divided, not
  // multiplied by a rounded 1 / (s - 1).
  llvm::Value* scale = whole_pow(f, a, f.sub(f.k(1.0), s), f.b.CreateNot(s_odd));
  llvm::Value* corrections = f.fma(f.mul(s, u), h, f.div(f.k(0.5), a));
  llvm::Value* tail = f.fma(scale, corrections, f.div(scale, f.sub(s, f.k(1.0))));
  return f.add(sum, tail);
}

// m! for a whole m >= 1 as the running product 2 * 3 * ... * m: exact up to 22! (each fits f64's
// significand once its factors of 2 are out), then half an ulp per factor (XLA's exp(lgamma(m +
// 1)) is off by up to |lgamma(m + 1)| ulps: 32 at m = 25). Orders past 170 are polygamma_impl's.
// Outlined in the GPU's C: 169 steps, one function.
inline llvm::Value* factorial(Fp& f, llvm::Value* m) {
  return f.outlined("factorial", {m}, [](Fp& g, std::span<llvm::Value* const> a) {
    llvm::Value* p = g.k(1.0);
    for (int i = 2; i <= 170; ++i) p = g.sel(g.ge(a[0], g.k(i)), g.mul(p, g.k(i)), p);
    return p;
  });
}

// NaN unless m is a whole number in [0, 170] (past 170, m! overflows f64 and XLA's product is inf
// or NaN by the operands' magnitudes); digamma at m = 0. x = 0, a negative integer or -inf: +inf
// for odd m, NaN for even m (the sign of the pole depends on the side); x = +inf: NaN, where the
// limit is 0 (XLA's sum meets inf / inf there, and JAX's value is the one kept).
inline llvm::Value* polygamma_impl(Fp& f, llvm::Value* m, llvm::Value* x) {
  llvm::Value* whole =
      f.both(f.both(f.ge(m, f.k(0.0)), f.b.CreateFCmpOLE(m, f.k(170.0))), f.eq(f.floor(m), m));
  llvm::Value* half_m = f.mul(m, f.k(0.5));
  llvm::Value* m_odd = f.ne(f.floor(half_m), half_m);
  llvm::Value* s = f.add(m, f.k(1.0));
  llvm::Value* mag = f.mul(factorial(f, m), hurwitz_zeta(f, s, x, f.b.CreateNot(m_odd)));
  llvm::Value* res = f.sel(m_odd, mag, f.neg(mag));
  res = f.sel(f.eq(x, f.inf()), f.nan(), res);
  res = f.sel(nonpositive_int(f, x), f.sel(m_odd, f.inf(), f.nan()), res);
  llvm::Value* digamma = f.outlined(
      "digamma", {x}, [](Fp& g, std::span<llvm::Value* const> a) { return digamma_impl(g, a[0]); });
  res = f.sel(f.eq(m, f.k(0.0)), digamma, res);
  return f.sel(f.either(f.isnan(x), f.b.CreateNot(whole)), f.nan(), res);
}

// zeta(x, q), XLA's chlo.zeta: the sum above with its special cases. NaN for x < 1 and for q <= 0
// with x fractional; at the poles (q a whole number <= 0) +inf for an even whole x, else NaN;
// +inf at x = 1 (the harmonic series); NaN at q = +inf, where XLA's tail is inf / inf.
inline llvm::Value* zeta_impl(Fp& f, llvm::Value* x, llvm::Value* q) {
  llvm::Value* x_whole = f.eq(f.floor(x), x);
  llvm::Value* half_x = f.mul(x, f.k(0.5));
  llvm::Value* x_odd = f.both(x_whole, f.ne(f.floor(half_x), half_x));
  llvm::Value* x_even = f.both(x_whole, f.eq(f.floor(half_x), half_x));
  llvm::Value* res = hurwitz_zeta(f, x, q, x_odd);
  res = f.sel(f.either(f.lt(x, f.k(1.0)), f.eq(q, f.inf())), f.nan(), res);
  llvm::Value* q_nonpositive = f.b.CreateFCmpOLE(q, f.k(0.0));
  res = f.sel(f.both(q_nonpositive, f.b.CreateNot(x_whole)), f.nan(), res);
  llvm::Value* pole = f.both(q_nonpositive, f.eq(f.floor(q), q));
  res = f.sel(pole, f.sel(x_even, f.inf(), f.nan()), res);
  return f.sel(f.eq(x, f.k(1.0)), f.inf(), res);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

namespace detail {
// impl(x, y) at f64; at f32 the operands are widened, impl runs once in f64 (outlined as `name`
// in the GPU's C) and the result is rounded once: the sums' powers lose bits in f32.
template <llvm::Value* (*Impl)(Fp&, llvm::Value*, llvm::Value*)>
llvm::Value* binary_in_f64(llvm::IRBuilderBase& b, const char* name, llvm::Value* x,
                           llvm::Value* y) {
  Fp f(b, x->getType());
  if (f.f64) return Impl(f, x, y);
  llvm::Type* dty = llvm::Type::getDoubleTy(b.getContext());
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(f.ty))
    dty = llvm::FixedVectorType::get(dty, v->getNumElements());
  Fp d(b, dty);
  llvm::Value* r =
      d.outlined(name, {b.CreateFPExt(x, dty), b.CreateFPExt(y, dty)},
                 [](Fp& g, std::span<llvm::Value* const> a) { return Impl(g, a[0], a[1]); });
  return b.CreateFPTrunc(r, f.ty);
}
}  // namespace detail

inline llvm::Value* emit_zeta(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* q) {
  return detail::binary_in_f64<detail::zeta_impl>(b, "zeta", x, q);
}

inline llvm::Value* emit_polygamma(llvm::IRBuilderBase& b, llvm::Value* m, llvm::Value* x) {
  return detail::binary_in_f64<detail::polygamma_impl>(b, "polygamma", m, x);
}

}  // namespace fj::backend::llvm_ir
