// The transformation rules of the collectives (psum, all_gather, ppermute, ...; defined in
// collective_rules.cpp), JAX's from jax/_src/lax/parallel.py.
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/collective_params.hpp"
#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

using ir::collective::is_collective;

/// Binds the axis name of the vmap whose graph is being batched, for the scope's lifetime:
/// collectives over that name become positional operations on the batch axis.
class NamedBatchScope {
 public:
  explicit NamedBatchScope(std::string name);
  ~NamedBatchScope();
  NamedBatchScope(const NamedBatchScope&) = delete;
  NamedBatchScope& operator=(const NamedBatchScope&) = delete;

 private:
  std::string saved_;
};
/// Whether e is a collective over the axis of the vmap being batched (it must be rewritten even
/// when no operand is batched: axis_index, psum of an unbatched value).
bool over_batched_axis(const ir::Eqn& e);

/// Tangents: every collective here is linear (pmax and pmin have no rule, as in JAX).
std::vector<MaybeAtom> jvp_collective(Emit& E, const ir::Eqn& e, const std::vector<MaybeAtom>& t);
/// Cotangents, pmap's transposes: psum's is psum; all_gather's is psum_scatter and back;
/// all_to_all's swaps split and concat; ppermute's inverts the permutation.
std::vector<MaybeAtom> vjp_collective(Emit& E, const ir::Eqn& e, const std::vector<MaybeAtom>& ct);
/// Batching. Under a vmap of another name the collective stays, its dimensions shifted past the
/// batch axis. Under the vmap of its own name it is positional: psum a reduction over the batch
/// axis, all_gather the batch itself, axis_index an iota, ppermute a gather of batch rows.
/// Returns each result and whether it is batched.
std::pair<std::vector<Atom>, std::vector<bool>> batch_collective(Emit& E, const ir::Eqn& e,
                                                                 std::vector<Atom> in,
                                                                 const std::vector<bool>& bat,
                                                                 std::int64_t n);

}  // namespace fj::transforms
