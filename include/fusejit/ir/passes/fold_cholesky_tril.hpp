// Drops the lower-triangle mask JAX stages after every cholesky (lax.linalg.cholesky's tril:
// select_n(row >= col, 0, L)) where the Cholesky routine can zero the upper triangle itself: the
// mask costs a pass over the whole matrix (a 512x512 f64 select: about a tenth of cho_solve's
// time there), and the routine writes those zeros anyway.
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/passes/producers.hpp"

namespace fj::ir {

namespace tril_detail {

// The graph and its producers(), for the matchers below.
struct Producers {
  const Graph& g;
  std::vector<int> of;
  const Eqn* eqn(const Atom& a, Prim prim) const { return produced_by(g, of, a, prim); }
};

// `a` is iota along `dimension` of an (n, n) shape, possibly plus the literal 0 (JAX's tril
// adds its diagonal offset k).
inline bool is_index(const Producers& p, const Atom& a, std::int64_t dimension, std::int64_t n) {
  if (const Eqn* add = p.eqn(a, Prim::add)) {
    const Atom& offset = add->in[1];
    if (!offset.is_literal() || offset.lit.as_double() != 0) return false;
    return is_index(p, add->in[0], dimension, n);
  }
  const Eqn* iota = p.eqn(a, Prim::iota);
  return iota && iota->params.get<std::int64_t>("dimension") == dimension &&
         p.g.aval(a).shape == Shape{n, n};
}

// `pred` is row >= col over the last two axes of an (..., n, n) shape: JAX's tril mask, k = 0.
inline bool is_tril_mask(const Producers& p, const Atom& pred, std::int64_t n) {
  Atom mask = pred;
  if (const Eqn* b = p.eqn(pred, Prim::broadcast_in_dim)) {
    const int r = p.g.aval(pred).shape.rank();
    if (b->params.get<std::vector<std::int64_t>>("broadcast_dimensions") !=
        std::vector<std::int64_t>{r - 2, r - 1})
      return false;
    mask = b->in[0];
  }
  const Eqn* ge = p.eqn(mask, Prim::ge);
  return ge && is_index(p, ge->in[0], 0, n) && is_index(p, ge->in[1], 1, n);
}

// `a` is zero everywhere: the literal 0 or its broadcast.
inline bool is_zero(const Producers& p, const Atom& a) {
  if (a.is_literal()) return a.lit.as_double() == 0;
  const Eqn* b = p.eqn(a, Prim::broadcast_in_dim);
  return b && b->in[0].is_literal() && b->in[0].lit.as_double() == 0;
}

}  // namespace tril_detail

/// The graph with each select_n(tril mask, 0, cholesky(x)) replaced by the cholesky's result,
/// where the mask is its only use; that cholesky gets the hidden param `upper_zeroed`, which
/// makes a failed factorization NaN below the diagonal and 0 above it (reference/
/// library_linalg.hpp), as the mask made it. The mask's kernels are left dead. Run by the LLVM
/// backend only, like fold_linalg_transpose: the graph keeps JAX's primitives as traced.
inline Graph fold_cholesky_tril(const Graph& g) {
  Graph out = g;
  std::vector<int> uses(out.avals.size(), 0);
  for (const Eqn& e : out.eqns)
    for (const Atom& a : e.in)
      if (!a.is_literal()) ++uses[static_cast<std::size_t>(a.var)];
  for (const Atom& a : out.outvars)
    if (!a.is_literal()) ++uses[static_cast<std::size_t>(a.var)];
  std::vector<VarId> rename(out.avals.size());
  for (std::size_t v = 0; v < rename.size(); ++v) rename[v] = static_cast<VarId>(v);
  std::vector<std::size_t> factored;
  {
    const tril_detail::Producers p{out, producers(out)};
    for (const Eqn& e : out.eqns) {
      if (e.prim != Prim::select_n || e.in.size() != 3) continue;
      const Eqn* chol = p.eqn(e.in[2], Prim::cholesky);
      if (!chol || uses[static_cast<std::size_t>(e.in[2].var)] != 1) continue;
      const Shape& s = out.aval(e.in[2]).shape;
      if (!tril_detail::is_zero(p, e.in[1]) ||
          !tril_detail::is_tril_mask(p, e.in[0], s[s.rank() - 1]))
        continue;
      rename[static_cast<std::size_t>(e.out[0])] = e.in[2].var;
      factored.push_back(static_cast<std::size_t>(chol - out.eqns.data()));
    }
  }
  for (std::size_t k : factored) out.eqns[k].params.items.push_back({"upper_zeroed", true, false});
  for (Eqn& e : out.eqns)
    for (Atom& a : e.in)
      if (!a.is_literal()) a.var = rename[static_cast<std::size_t>(a.var)];
  for (Atom& a : out.outvars)
    if (!a.is_literal()) a.var = rename[static_cast<std::size_t>(a.var)];
  return out;
}

}  // namespace fj::ir
