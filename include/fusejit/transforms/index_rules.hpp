// The transformation rules of gather and the scatters (defined in index_rules.cpp), after JAX's
// lax/slicing.py.
#pragma once
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// scatter, scatter-add, scatter-mul, scatter-min and scatter-max.
inline bool is_scatter(Prim p) {
  return p == Prim::scatter || p == Prim::scatter_add || p == Prim::scatter_mul ||
         p == Prim::scatter_min || p == Prim::scatter_max;
}
/// Tangents: gather of the tangent; scatter-add of the operand's tangent and the updates'
/// tangent (zeros for a missing one, as JAX's _scatter_add_jvp instantiates them); scatter of
/// the tangents, which picks the tangent of the update that won exactly as the primal picked
/// it (JAX's _scatter_jvp masks by scattered update ids because XLA leaves the winner
/// unspecified; here it is the last, in order, in both); scatter-mul's from JAX's defjvp (in
/// the updates only with unique_indices, else fj::NotImplementedError as JAX); scatter-min and
/// -max's JAX's _scatter_extremal_jvp (tied contenders share the tangent evenly).
std::vector<MaybeAtom> jvp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
/// Cotangents: gather's is a scatter-add of the cotangent into zeros (JAX's
/// _gather_transpose_rule); scatter-add's are the cotangent itself for the operand and its
/// gather at the indices for the updates (_scatter_add_transpose_rule); scatter's the
/// cotangent with the updated elements zeroed and, for each update, its gather where that
/// update won (the transpose of JAX's masked JVP); scatter-mul's _scatter_mul_transpose_rule;
/// scatter-min and -max's the transpose of their tangent map.
std::vector<MaybeAtom> vjp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                 const std::vector<bool>& wants);
/// Batched along a new leading axis (JAX's _gather_batching_rule / _scatter_batching_rule): a
/// batched operand gets a new window (or inserted) axis, batched indices a new batch axis, and
/// both together the new axis as an operand/indices batching dimension.
std::vector<Atom> batch_index(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                              const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
