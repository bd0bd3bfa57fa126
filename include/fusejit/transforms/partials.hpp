// The derivative of each elementwise primitive with respect to each operand, written once
// (partials.cpp) and used by both forward mode (t_y = sum t_i * d_i) and reverse mode
// (ct_i = ct * d_i): jvp.cpp, vjp.cpp, batch.cpp and control_rules.cpp share them.
#pragma once
#include <array>
#include <functional>
#include <utility>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// A float 0/1 mask of a comparison, in dtype d.
inline Atom mask(Emit& E, Prim cmp, Atom a, Atom b, DType d) {
  return E.convert(E.bin(cmp, a, b), d);
}

/// The partials of `out = p(in...)` for each operand: nullopt where the derivative is zero or
/// the operand is a literal (no tangent can flow from it). Only elementwise primitives.
std::vector<MaybeAtom> elementwise_partials(Emit& E, Prim p, const ir::Params& params,
                                            const std::vector<Atom>& in, Atom y);

// How forward and reverse mode apply these partials, in the equations JAX 0.10.2 writes, so that
// make_jaxpr prints JAX's text. Most primitives multiply by the partial. tanh keeps JAX's
// factored form of 1 - y^2 (y = tanh x): the tangent is `mul(add(t, mul(t, y)), sub(1, y))`, and
// its transpose adds d = ct (1 - y), then d y, to x's cotangent.
/// What reverse mode keeps from the forward pass for one elementwise equation, where JAX's
/// linearization leaves it (its residuals): up to three values (clamp's masks), in the order
/// JAX computes them.
using Residuals = std::array<MaybeAtom, 3>;

/// The tangent of a unary elementwise equation `y = p(x)` from x's tangent t (nullopt: zero).
MaybeAtom unary_tangent(Emit& E, Prim p, const ir::Params& params, Atom x, Atom y, Atom t);

/// What reverse mode computes in the forward pass right after a unary elementwise equation: the
/// partial, or what JAX's rule divides by (log's x itself: nothing staged), scales by (erf's
/// exp(-x^2), exp2's log 2), negates (cos's sin x) or selects on (abs's x >= 0); atanh keeps
/// two, 1 / (1 + x) and 1 - x; tanh keeps 1 - y. Empty where the derivative is zero.
Residuals unary_residual(Emit& E, Prim p, const ir::Params& params, Atom x, Atom y);

/// Hands `add` the terms reverse mode adds, in order, to x's cotangent from y's cotangent ct
/// (each staged just before it is added, as JAX's transpose does): ct * r, ct / r, (-ct) * r,
/// (2/sqrt(pi) * ct) * r, exp2's (log 2 * ct) * y or atanh's (r0 * ct) / r1 as JAX's linear
/// term writes it; tanh's d = ct (1 - y), then d y; abs's two select_n cases, the one taken for
/// x < 0 negated.
void unary_cotangent_terms(Emit& E, Prim p, const Residuals& r, Atom y, Atom ct,
                           const std::function<void(Atom)>& add);

/// What reverse mode computes in the forward pass right after a binary elementwise equation
/// `y = p(x0, x1)` for the operands it differentiates (`wants`): div's x1^-2 (`integer_pow`),
/// max's and min's partial per operand (JAX's _balanced_eq: 1 where the operand is the result,
/// halved where the other is too).
Residuals binary_residual(Emit& E, Prim p, const std::vector<Atom>& in, Atom y,
                          std::array<bool, 2> wants);

/// The tangent of a binary elementwise equation from its operands' tangents, in JAX's terms
/// (each operand's term, summed with add_any but for add's and sub's own rules: add(xdot,
/// ydot), sub(xdot, ydot) or -ydot): mul's second term `x * ydot`, div's `ydot`-term
/// `(-ydot * x) * y^-2`.
MaybeAtom binary_tangent(Emit& E, Prim p, const ir::Params& params, const std::vector<Atom>& in,
                         Atom y, const std::vector<MaybeAtom>& t);

/// The cotangents of a binary elementwise equation's operands (where `wants`), unbroadcast to
/// their shapes. mul is transposed as JAX does it: y's `mul x ct` first, then x's `mul ct y`;
/// div as JAX's linear terms transpose: y's `neg((ct * residual) * x)` first (the residual is
/// binary_residual's y^-2), then x's `ct / y`; sub as JAX's rule: ct to x, then `neg ct` to y;
/// max and min: `ct * partial`, the second operand's first.
std::vector<MaybeAtom> binary_cotangents(Emit& E, Prim p, const ir::Params& params,
                                         const std::vector<Atom>& in, Atom y, Atom ct,
                                         const std::vector<bool>& wants,
                                         const Residuals& residual = {});

/// lax.clamp(min, x, max)'s mask for operand i, JAX's defjvp rule: where its tangent passes
/// through (min: min > x and min < max; x: x > min and x < max; max: max < x).
Atom clamp_mask(Emit& E, const std::vector<Atom>& in, std::size_t i);

bool is_elementwise(ir::PrimKind k);

/// Whether values of this aval carry tangents (floats do; integers and bools never).
inline bool differentiable(const Aval& a) { return is_float(a.dtype); }

/// The kept dims of a reduction over `axes` of a rank-r operand, for broadcasting back.
Dims kept_dims(int r, const Dims& axes);

/// The 0/1 mask of where x equals its reduction y (max or min), and the count per result:
/// JAX's _reduce_chooser_jvp_rule (y reshaped with the reduced axes as 1s, `eq`, converted),
/// which reverse mode computes in the forward pass.
Residuals chooser_mask(Emit& E, Atom x, Atom y, const Dims& axes);

/// d prod(x) / d x_i = the product of the other elements, exact where x has zeros: with none it
/// is prod / x_i; with one, it is the product of the non-zeros at that zero and 0 elsewhere;
/// with two or more, 0 everywhere.
Atom prod_partial(Emit& E, Atom x, Atom y, const Dims& axes);

}  // namespace fj::transforms
