// Folds a transpose of the last two axes that feeds a linear-algebra primitive's matrix into the
// primitive: solving with op(k^T) is solving with op(k) with the other transpose flag and the
// other triangle, and the Cholesky routine can factor a matrix stored transposed (it transposes
// into Eigen's column-major layout anyway). JAX's cho_factor(lower=False) stages one such
// transpose before its cholesky and one after, which the JIT would otherwise write out as
// strided copies of the whole matrix.
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/passes/producers.hpp"

namespace fj::ir {

/// Whether `perm` swaps the last two axes and keeps the others.
inline bool swaps_last_two(const std::vector<std::int64_t>& perm) {
  const auto n = static_cast<std::int64_t>(perm.size());
  if (n < 2 || perm[static_cast<std::size_t>(n - 1)] != n - 2 ||
      perm[static_cast<std::size_t>(n - 2)] != n - 1)
    return false;
  for (std::int64_t d = 0; d + 2 < n; ++d)
    if (perm[static_cast<std::size_t>(d)] != d) return false;
  return true;
}

/// A triangular_solve made to read its matrix's transpose: op(k) is op'(k^T) with the other
/// triangle (`lower` and `transpose_a` negated; conjugate_a does not matter for real matrices).
inline void solve_with_transposed_matrix(Eqn& solve) {
  for (auto& item : solve.params.items)
    if (item.name == "lower" || item.name == "transpose_a")
      item.value = !std::get<bool>(item.value);
}

/// The graph with each triangular_solve or cholesky whose matrix is transpose(k) (the last two
/// axes swapped) reading k instead: triangular_solve with `lower` and `transpose_a` negated
/// (real matrices: conjugate_a does not matter), cholesky with its hidden `operand_transposed`
/// negated (reference/library_linalg.hpp). A transpose left unused is dead, and nothing
/// computes it. Run by the LLVM backend only: the graph keeps JAX's primitives and printed
/// params, and the reference backend interprets the graph as traced.
inline Graph fold_linalg_transpose(const Graph& g) {
  Graph out = g;
  const std::vector<int> producer = producers(out);
  for (Eqn& e : out.eqns) {
    if (e.prim != Prim::triangular_solve && e.prim != Prim::cholesky) continue;
    const Eqn* t = produced_by(out, producer, e.in[0], Prim::transpose);
    if (!t || !swaps_last_two(t->params.get<std::vector<std::int64_t>>("permutation"))) continue;
    e.in[0] = t->in[0];
    if (e.prim == Prim::cholesky) {
      ParamValue* flag = nullptr;
      for (auto& item : e.params.items)
        if (item.name == "operand_transposed") flag = &item.value;
      if (flag)
        *flag = !std::get<bool>(*flag);
      else
        e.params.items.push_back({"operand_transposed", true, false});
      continue;
    }
    solve_with_transposed_matrix(e);
  }
  return out;
}

}  // namespace fj::ir
