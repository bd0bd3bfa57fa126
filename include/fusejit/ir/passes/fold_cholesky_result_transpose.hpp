// Lets a cholesky whose factor only triangular solves read store it transposed: the Cholesky
// routine factors in Eigen's column-major layout, where the factor L already is L^T in
// row-major, so transposing it back costs a pass over the matrix (a 512x512 f64 in-place
// transpose: 126 us against 1 ms for the factorization) that a solve reading L^T with its
// `lower` and `transpose_a` flags negated does not need.
#pragma once
#include <cstddef>
#include <vector>

#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/passes/dce.hpp"
#include "fusejit/ir/passes/fold_linalg_transpose.hpp"

namespace fj::ir {

/// The graph without dead equations, and with each cholesky whose result is read only as the
/// matrix of triangular_solves (not a graph output, not by anything else) given the hidden
/// param `result_transposed` (reference/library_linalg.hpp: the factor is stored as L^T) and
/// each of those solves its `lower` and `transpose_a` negated (op(L) = op'(L^T); conjugate_a
/// does not matter for real matrices). Run by the LLVM backend after fold_linalg_transpose,
/// whose folds leave the transposes JAX stages around cho_factor dead.
inline Graph fold_cholesky_result_transpose(const Graph& g) {
  Graph out = dce(g);
  // Per variable: read as a solve's matrix (1), read otherwise (2), or not at all (0).
  std::vector<int> reads(out.avals.size(), 0);
  auto mark = [&](const Atom& a, int how) {
    if (a.is_literal()) return;
    int& r = reads[static_cast<std::size_t>(a.var)];
    r = r == 2 || how == 2 ? 2 : 1;
  };
  for (const Eqn& e : out.eqns)
    for (std::size_t k = 0; k < e.in.size(); ++k)
      mark(e.in[k], e.prim == Prim::triangular_solve && k == 0 ? 1 : 2);
  for (const Atom& a : out.outvars) mark(a, 2);
  std::vector<bool> transposed(out.avals.size(), false);
  for (Eqn& e : out.eqns) {
    if (e.prim != Prim::cholesky || reads[static_cast<std::size_t>(e.out[0])] != 1 ||
        e.params.find("result_transposed"))
      continue;
    e.params.items.push_back({"result_transposed", true, false});
    transposed[static_cast<std::size_t>(e.out[0])] = true;
  }
  for (Eqn& e : out.eqns) {
    if (e.prim != Prim::triangular_solve || e.in[0].is_literal() ||
        !transposed[static_cast<std::size_t>(e.in[0].var)])
      continue;
    solve_with_transposed_matrix(e);
  }
  return out;
}

}  // namespace fj::ir
