// The transformation rules of pad, tile and split (defined in pad_rules.cpp), after JAX's lax.py.
#pragma once
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// Tangents: all are linear (JAX's deflinear2): a pad of the operand's and padding value's
/// tangents (zeros for a missing one), a tile or a split of the operand's.
std::vector<MaybeAtom> jvp_pad(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                               const std::vector<MaybeAtom>& t);
/// Cotangents (JAX's _pad_transpose and _tile_transpose_rule): pad's operand gets the cotangent
/// un-padded (a pad by -lo, -hi) and sliced with strides interior + 1, its padding value the sum
/// of the cotangent less the operand's; tile's operand the cotangent reshaped to
/// (reps[0], d[0], reps[1], d[1], ...) and summed over the reps axes; split's the results'
/// cotangents concatenated (zeros for a missing one; JAX's _split_transpose_rule).
std::vector<MaybeAtom> vjp_pad(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                               const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants);
/// Batched along a new leading axis (JAX's _pad_batch_rule, _tile_batch_rule): a (0, 0, 0)
/// padding (a rep of 1) for the new axis; a batched padding value pads zeros and selects it
/// where a padded boolean mask is false; split along its axis + 1.
std::vector<Atom> batch_pad(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                            const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
