// The transformation rules of gather and scatter-add (defined in index_rules.cpp), after JAX's
// lax/slicing.py.
#pragma once
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// The primitives these rules cover.
inline bool is_index_op(Prim p) { return p == Prim::gather || p == Prim::scatter_add; }

/// Tangents: both are linear in their array operands (the indices have none): gather of the
/// tangent; scatter-add of the operand's tangent and the updates' tangent (zeros for a missing
/// one, as JAX's _scatter_add_jvp instantiates them).
std::vector<MaybeAtom> jvp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
/// Cotangents: gather's is a scatter-add of the cotangent into zeros (JAX's
/// _gather_transpose_rule); scatter-add's are the cotangent itself for the operand and its
/// gather at the indices for the updates (_scatter_add_transpose_rule).
std::vector<MaybeAtom> vjp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants);
/// Batched along a new leading axis (JAX's _gather_batching_rule / _scatter_batching_rule): a
/// batched operand gets a new window (or inserted) axis, batched indices a new batch axis, and
/// both together the new axis as an operand/indices batching dimension.
std::vector<Atom> batch_index(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                              const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
