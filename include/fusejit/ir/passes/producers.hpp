// Which equation computes each variable of a graph: what the rewriting passes look up to match
// a pattern of producers (a transpose feeding a dot, the mask around a cholesky, ...).
#pragma once
#include <cstddef>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// Per variable, the index of the equation whose result it is; -1 for inputs and constants.
inline std::vector<int> producers(const Graph& g) {
  std::vector<int> producer(g.avals.size(), -1);
  for (std::size_t k = 0; k < g.eqns.size(); ++k)
    for (VarId v : g.eqns[k].out) producer[static_cast<std::size_t>(v)] = static_cast<int>(k);
  return producer;
}

/// The equation of `g` that computes `a` if it is a `prim`, else null (also for a literal or an
/// input); `producer` is producers(g).
inline const Eqn* produced_by(const Graph& g, const std::vector<int>& producer, const Atom& a,
                              Prim prim) {
  if (a.is_literal()) return nullptr;
  const int p = producer[static_cast<std::size_t>(a.var)];
  if (p < 0 || g.eqns[static_cast<std::size_t>(p)].prim != prim) return nullptr;
  return &g.eqns[static_cast<std::size_t>(p)];
}

}  // namespace fj::ir
