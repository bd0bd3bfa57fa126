// The transformation rules of the library primitives that reorder or scan along an axis:
// sort, top_k and the cumulative reductions (defined in sort_rules.cpp).
#pragma once
#include <utility>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// A sort's results and, with a unit axis appended, the permutation it applied along its
/// dimension, as JAX's _sort_jvp finds it: by sorting a uint32 iota along with the operands.
/// Tangents are gathered through these indices, cotangents scattered back.
struct SortedWithIndices {
  std::vector<Atom> outs;
  Atom indices;
};
SortedWithIndices sort_with_indices(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in);

/// Such a JVP: the primal results and the tangents. sort's (JAX's _sort_jvp) is the sort with
/// indices, then each tangent gathered (`mode=promise_in_bounds`, the other axes batching dims);
/// cumprod's, cummax's and cummin's (_cumulative_jvp_rule) the JVP of their associative scan.
std::pair<std::vector<Atom>, std::vector<MaybeAtom>> jvp_with_primals(
    Emit& E, const ir::Eqn& e, const std::vector<Atom>& in, const std::vector<MaybeAtom>& t);

/// `g` for reverse mode with respect to the inputs `wrt`: each cumprod, cummax or cummin that
/// depends on one replaced by its associative scan's equations, which reverse mode then
/// linearizes one by one, as JAX's _cumulative_jvp_rule leaves them to its partial evaluation.
ir::Graph expand_differentiated_scans(const ir::Graph& g, const std::vector<bool>& wrt);

/// Tangents of every result. sort gathers the tangents as jvp_sort does; top_k picks them at its
/// indices (a one-hot sum, exact: one term is nonzero). cumsum is linear; cumprod, cummax and
/// cummin take JAX's _cumulative_jvp_rule: the JVP of their associative scan (strided slices,
/// lax.mul/max/min, pad and add), so the product rule and max/min's halves at ties, with the scan's
/// own intermediate products.
std::vector<MaybeAtom> jvp_sorting(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
/// Cotangents of the operands: sort scatter-adds each into zeros at `sort_indices` (the forward
/// pass's sort_with_indices; found again when absent), the gather's transpose; top_k scatters
/// through the same one-hot; cumsum is a cumsum the other way; cumprod, cummax and cummin transpose
/// the tangent equations of their JVP (reverse mode over them in t).
std::vector<MaybeAtom> vjp_sorting(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                   const std::vector<bool>& wants,
                                   const MaybeAtom& sort_indices = std::nullopt);
/// Every operand batched along a new leading axis (unbatched ones broadcast), the axis params
/// shifted by one; every result batched.
std::vector<Atom> batch_sorting(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                                const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
