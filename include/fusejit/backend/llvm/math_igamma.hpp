// The regularized incomplete gamma functions as inline IR (definitions of math_ir.hpp, over
// math_fp.hpp): lax.igamma, igammac, igamma_grad_a and random_gamma_grad, each JAX's composition
// (jax/_src/lax/special.py, after XLA's math.cc) with its while_loops as IR loops over the lanes
// (math_loop.hpp), so that fusejit's values are JAX's (docs/MATH.md, "igamma").
#pragma once
#include <llvm/IR/IRBuilder.h>

#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_gamma.hpp"
#include "fusejit/backend/llvm/math_loop.hpp"

namespace fj::backend::llvm_ir::detail {

// What a loop's result is: the function, its derivative in a, or a gamma sample's derivative.
enum class IgammaMode { value, derivative, sample_derivative };

// The format's epsilon (JAX's finfo(dtype).eps) and -log of its largest finite value.
inline llvm::Value* igamma_eps(Fp& f) { return f.k(0x1p-23, 0x1p-52); }
inline llvm::Value* neg_log_max(Fp& f) { return f.k(-88.72283935546875, -709.782712893384); }

// At most this many terms of the series (JAX's loop has no limit): past a ~ 1e10 with x near a,
// where the terms shrink by x / (a + k), or where a + 1 rounds to a, the sum would otherwise run
// for hours (f64 a = 1e300); the same limit as the reference backend's.
inline constexpr double kIgammaSeriesTerms = 1e6;

// JAX's _igamma_series: P(a, x) = ax / a * sum_k x^k / (a+1)...(a+k) on the lanes `enabled`,
// each until its term is below eps of the sum (in value mode; of the derivative's otherwise).
inline llvm::Value* igamma_series(Fp& f, llvm::Value* ax, llvm::Value* x, llvm::Value* a,
                                  llvm::Value* enabled, IgammaMode mode) {
  // enabled, r, c, ans, dc_da, dans_da, and the count of terms (the same in every lane).
  const LoopValues init{enabled, a, f.k(1.0), f.k(1.0), f.k(0.0), f.k(0.0), f.k(0.0)};
  const LoopValues out = while_any(
      f, init,
      [](Fp& g, const LoopValues& v) { return g.both(v[0], g.lt(v[6], g.k(kIgammaSeriesTerms))); },
      [&](Fp& g, const LoopValues& v) -> LoopValues {
        llvm::Value* on = v[0];
        llvm::Value* r = g.add(v[1], g.k(1.0));
        llvm::Value* x_r = g.div(x, r);
        llvm::Value* dc_da = g.sub(g.mul(v[4], x_r), g.div(g.mul(v[2], x), g.mul(r, r)));
        llvm::Value* dans_da = g.add(v[5], dc_da);
        llvm::Value* c = g.mul(v[2], x_r);
        llvm::Value* ans = g.add(v[3], c);
        llvm::Value* more = mode == IgammaMode::value
                                ? g.gt(g.div(c, ans), igamma_eps(g))
                                : g.gt(g.abs(g.div(dc_da, dans_da)), igamma_eps(g));
        return {g.both(on, more),     g.sel(on, r, v[1]),     g.sel(on, c, v[2]),
                g.sel(on, ans, v[3]), g.sel(on, dc_da, v[4]), g.sel(on, dans_da, v[5]),
                g.add(v[6], g.k(1.0))};
      });
  llvm::Value* ans = out[3];
  llvm::Value* dans_da = out[5];
  if (mode == IgammaMode::value) return f.div(f.mul(ans, ax), a);
  llvm::Value* dlogax_da = f.sub(emit_log(f.b, x), emit_digamma(f.b, f.add(a, f.k(1.0))));
  if (mode == IgammaMode::derivative)
    return f.div(f.mul(ax, f.add(f.mul(ans, dlogax_da), dans_da)), a);
  return f.div(f.mul(f.neg(f.add(dans_da, f.mul(ans, dlogax_da))), x), a);
}

// JAX's _igammac_continued_fraction: Q(a, x) = ax times Legendre's continued fraction on the
// lanes `enabled`, at most 2000 steps, its recurrences rescaled by eps when they grow past 1/eps.
inline llvm::Value* igammac_continued_fraction(Fp& f, llvm::Value* ax, llvm::Value* x,
                                               llvm::Value* a, llvm::Value* enabled,
                                               IgammaMode mode) {
  llvm::Value* y = f.sub(f.k(1.0), a);
  llvm::Value* z = f.add(f.add(x, y), f.k(1.0));
  llvm::Value* pkm1 = f.add(x, f.k(1.0));
  llvm::Value* qkm1 = f.mul(z, x);
  llvm::Value* ans = f.div(pkm1, qkm1);
  llvm::Value* dqkm1_da = f.neg(x);
  llvm::Value* dans_da = f.div(f.sub(f.k(0.0), f.mul(ans, dqkm1_da)), qkm1);
  // enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da,
  // dans_da: JAX's loop state, c (the step) the same in every lane.
  const LoopValues init{enabled,  ans, f.k(1.0), y,        z,        f.k(0.0), pkm1,   qkm1,
                        f.k(1.0), x,   f.k(0.0), f.k(0.0), f.k(0.0), dqkm1_da, dans_da};
  const LoopValues out = while_any(
      f, init, [](Fp& g, const LoopValues& v) { return g.both(g.lt(v[5], g.k(2000.0)), v[0]); },
      [&](Fp& g, const LoopValues& v) -> LoopValues {
        llvm::Value* on = v[0];
        llvm::Value* c = g.add(v[5], g.k(1.0));
        llvm::Value* yv = g.add(v[3], g.k(1.0));
        llvm::Value* zv = g.add(v[4], g.k(2.0));
        llvm::Value* yc = g.mul(yv, c);
        llvm::Value *p1 = v[6], *q1 = v[7], *p2 = v[8], *q2 = v[9];
        llvm::Value *dp2 = v[10], *dq2 = v[11], *dp1 = v[12], *dq1 = v[13];
        llvm::Value* pk = g.sub(g.mul(p1, zv), g.mul(p2, yc));
        llvm::Value* qk = g.sub(g.mul(q1, zv), g.mul(q2, yc));
        llvm::Value* qk_nonzero = g.ne(qk, g.k(0.0));
        llvm::Value* r = g.div(pk, qk);
        llvm::Value* t = g.sel(qk_nonzero, g.abs(g.div(g.sub(v[1], r), r)), g.k(1.0));
        llvm::Value* ansv = g.sel(qk_nonzero, r, v[1]);
        llvm::Value* dpk_da = g.add(g.sub(g.sub(g.mul(dp1, zv), p1), g.mul(dp2, yc)), g.mul(p2, c));
        llvm::Value* dqk_da = g.add(g.sub(g.sub(g.mul(dq1, zv), q1), g.mul(dq2, yc)), g.mul(q2, c));
        llvm::Value* dans_new =
            g.sel(qk_nonzero, g.div(g.sub(dpk_da, g.mul(ansv, dqk_da)), qk), v[14]);
        llvm::Value* grad_cond = g.sel(qk_nonzero, g.abs(g.sub(dans_new, v[14])), g.k(1.0));
        llvm::Value* rescale = g.gt(g.abs(pk), g.div(g.k(1.0), igamma_eps(g)));
        auto scaled = [&](llvm::Value* u) { return g.sel(rescale, g.mul(u, igamma_eps(g)), u); };
        // After the shift: pkm2 = pkm1, pkm1 = pk, and the same for q and the derivatives.
        llvm::Value *n_p2 = scaled(p1), *n_p1 = scaled(pk), *n_q2 = scaled(q1), *n_q1 = scaled(qk);
        llvm::Value *n_dp2 = scaled(dp1), *n_dq2 = scaled(dq1);
        llvm::Value *n_dp1 = scaled(dpk_da), *n_dq1 = scaled(dqk_da);
        llvm::Value* more =
            mode == IgammaMode::value ? g.gt(t, igamma_eps(g)) : g.gt(grad_cond, igamma_eps(g));
        return {g.both(on, more),      g.sel(on, ansv, v[1]), g.sel(on, t, v[2]),
                g.sel(on, yv, v[3]),   g.sel(on, zv, v[4]),   c,
                g.sel(on, n_p1, p1),   g.sel(on, n_q1, q1),   g.sel(on, n_p2, p2),
                g.sel(on, n_q2, q2),   g.sel(on, n_dp2, dp2), g.sel(on, n_dq2, dq2),
                g.sel(on, n_dp1, dp1), g.sel(on, n_dq1, dq1), g.sel(on, dans_new, v[14])};
      });
  if (mode == IgammaMode::value) return f.mul(out[1], ax);
  llvm::Value* dlogax_da = f.sub(emit_log(f.b, x), emit_digamma(f.b, a));
  llvm::Value* inner = f.add(f.mul(out[1], dlogax_da), out[14]);
  if (mode == IgammaMode::derivative) return f.mul(ax, inner);
  return f.neg(f.mul(f.add(out[14], f.mul(out[1], dlogax_da)), x));
}

// ax = x^a e^-x / Gamma(a) through its log, and whether that log is below -log(max finite).
struct Prefactor {
  llvm::Value* ax;
  llvm::Value* underflow;
};
inline Prefactor igamma_prefactor(Fp& f, llvm::Value* a, llvm::Value* x) {
  llvm::Value* log_ax = f.sub(f.sub(f.mul(a, emit_log(f.b, x)), x), emit_lgamma(f.b, a));
  return {emit_exp(f.b, log_ax), f.lt(log_ax, neg_log_max(f))};
}

// JAX's igamma_impl: P(a, x).
inline llvm::Value* igamma_impl(Fp& f, llvm::Value* a, llvm::Value* x) {
  llvm::Value* is_nan = f.either(f.isnan(a), f.isnan(x));
  llvm::Value* x_inf = f.eq(x, f.inf());
  llvm::Value* x_zero = f.eq(x, f.k(0.0));
  llvm::Value* domain = f.either(f.either(f.lt(x, f.k(0.0)), f.lt(a, f.k(0.0))),
                                 f.either(f.both(f.eq(a, f.k(0.0)), x_zero), is_nan));
  llvm::Value* use_cf = f.both(f.ge(x, f.k(1.0)), f.gt(x, a));
  const Prefactor p = igamma_prefactor(f, a, x);
  llvm::Value* enabled =
      f.b.CreateNot(f.either(f.either(x_zero, domain), f.either(p.underflow, x_inf)));
  llvm::Value* not_cf = f.b.CreateNot(use_cf);
  llvm::Value* cf =
      igammac_continued_fraction(f, p.ax, x, a, f.both(enabled, use_cf), IgammaMode::value);
  llvm::Value* series = igamma_series(f, p.ax, x, a, f.both(enabled, not_cf), IgammaMode::value);
  llvm::Value* out = f.sel(use_cf, f.sub(f.k(1.0), cf), series);
  out = f.sel(x_zero, f.k(0.0), out);
  out = f.sel(x_inf, f.k(1.0), out);
  return f.sel(domain, f.nan(), out);
}

// JAX's igammac_impl: Q(a, x) = 1 - P(a, x).
inline llvm::Value* igammac_impl(Fp& f, llvm::Value* a, llvm::Value* x) {
  llvm::Value* is_nan = f.either(f.isnan(a), f.isnan(x));
  llvm::Value* a_zero = f.eq(a, f.k(0.0));
  llvm::Value* x_zero = f.eq(x, f.k(0.0));
  llvm::Value* x_inf = f.eq(x, f.inf());
  llvm::Value* domain = f.either(f.either(f.lt(x, f.k(0.0)), f.lt(a, f.k(0.0))),
                                 f.either(f.both(a_zero, x_zero), is_nan));
  llvm::Value* use_series = f.either(f.lt(x, f.k(1.0)), f.lt(x, a));
  const Prefactor p = igamma_prefactor(f, a, x);
  llvm::Value* enabled =
      f.b.CreateNot(f.either(f.either(domain, p.underflow), f.either(x_inf, a_zero)));
  llvm::Value* series =
      igamma_series(f, p.ax, x, a, f.both(enabled, use_series), IgammaMode::value);
  llvm::Value* cf = igammac_continued_fraction(
      f, p.ax, x, a, f.both(enabled, f.b.CreateNot(use_series)), IgammaMode::value);
  llvm::Value* out = f.sel(use_series, f.sub(f.k(1.0), series), cf);
  out = f.sel(f.either(x_inf, a_zero), f.k(0.0), out);
  return f.sel(domain, f.nan(), out);
}

// JAX's igamma_grad_a_impl (mode derivative) and random_gamma_grad_impl (sample_derivative).
inline llvm::Value* igamma_derivative_impl(Fp& f, llvm::Value* a, llvm::Value* x, IgammaMode mode) {
  llvm::Value* is_nan = f.either(f.isnan(a), f.isnan(x));
  llvm::Value* x_zero = f.eq(x, f.k(0.0));
  llvm::Value* domain = f.either(f.lt(x, f.k(0.0)), f.b.CreateFCmpOLE(a, f.k(0.0)));
  llvm::Value* use_cf = f.both(f.gt(x, f.k(1.0)), f.gt(x, a));
  const Prefactor p = igamma_prefactor(f, a, x);
  llvm::Value* enabled =
      f.b.CreateNot(f.either(f.either(x_zero, domain), f.either(p.underflow, is_nan)));
  llvm::Value* cf = igammac_continued_fraction(f, p.ax, x, a, f.both(enabled, use_cf), mode);
  llvm::Value* series = igamma_series(f, p.ax, x, a, f.both(enabled, f.b.CreateNot(use_cf)), mode);
  llvm::Value* out = f.sel(use_cf, f.neg(cf), series);
  out = f.sel(x_zero, f.k(0.0), out);
  return f.sel(f.either(domain, is_nan), f.nan(), out);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_igamma(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::igamma_impl(f, a, x);
}
inline llvm::Value* emit_igammac(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::igammac_impl(f, a, x);
}
inline llvm::Value* emit_igamma_grad_a(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::igamma_derivative_impl(f, a, x, detail::IgammaMode::derivative);
}
inline llvm::Value* emit_random_gamma_grad(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::igamma_derivative_impl(f, a, x, detail::IgammaMode::sample_derivative);
}

}  // namespace fj::backend::llvm_ir
