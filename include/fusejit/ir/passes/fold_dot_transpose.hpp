// Folds a transpose that feeds dot_general into the dot's dimension numbers, as XLA does: x.T @ y
// then reads x where it lies (the GEMM takes a transpose flag) instead of a transposed copy.
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/passes/producers.hpp"

namespace fj::ir {

/// The graph with each foldable transpose operand of a dot_general replaced by the transpose's
/// own operand. A fold is made only when the operand's free dims keep their relative order, so
/// the product's dims (batch, lhs free, rhs free) are the same. Transposes left unused are
/// dead, and nothing computes them.
inline Graph fold_dot_transpose(const Graph& g) {
  Graph out = g;
  const std::vector<int> producer = producers(out);
  for (Eqn& e : out.eqns) {
    if (e.prim != Prim::dot_general) continue;
    DotDims dd = DotDims::from(e.params);
    bool changed = false;
    for (int side = 0; side < 2; ++side) {
      const Eqn* transpose =
          produced_by(out, producer, e.in[static_cast<std::size_t>(side)], Prim::transpose);
      if (!transpose) continue;
      const Eqn& t = *transpose;
      const auto& perm = t.params.get<std::vector<std::int64_t>>("permutation");
      auto& contract = side == 0 ? dd.lhs_contract : dd.rhs_contract;
      auto& batch = side == 0 ? dd.lhs_batch : dd.rhs_batch;
      // Dim d of the transposed operand is dim perm[d] of the transpose's input.
      bool ordered = true;
      std::int64_t last = -1;
      for (auto f : DotDims::free_dims(static_cast<int>(perm.size()), batch, contract)) {
        const auto mapped = perm[static_cast<std::size_t>(f)];
        ordered = ordered && mapped > last;
        last = mapped;
      }
      if (!ordered) continue;
      for (auto& d : contract) d = perm[static_cast<std::size_t>(d)];
      for (auto& d : batch) d = perm[static_cast<std::size_t>(d)];
      e.in[static_cast<std::size_t>(side)] = t.in[0];
      changed = true;
    }
    if (!changed) continue;
    Params p;
    dd.add_to(p);
    for (auto& item : e.params.items)
      if (item.name == "preferred_element_type") p.items.push_back(item);
    e.params = std::move(p);
  }
  return out;
}

}  // namespace fj::ir
