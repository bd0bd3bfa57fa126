// Dead-code elimination: drops equations whose outputs nothing uses, unless they have effects
// (a debug print, or a loop whose body prints).
#pragma once
#include <vector>

#include "fusejit/ir/effects.hpp"

namespace fj::ir {

inline Graph dce(Graph g) {
  std::vector<bool> live(g.avals.size(), false);
  for (auto& o : g.outvars)
    if (!o.is_literal()) live[static_cast<std::size_t>(o.var)] = true;
  std::vector<Eqn> kept;
  for (auto it = g.eqns.rbegin(); it != g.eqns.rend(); ++it) {
    bool used = false;
    for (VarId v : it->out) used = used || live[static_cast<std::size_t>(v)];
    if (!used && !has_effects(*it)) continue;
    for (auto& a : it->in)
      if (!a.is_literal()) live[static_cast<std::size_t>(a.var)] = true;
    kept.push_back(std::move(*it));
  }
  g.eqns.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
  return g;
}

}  // namespace fj::ir
