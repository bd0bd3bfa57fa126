// Host callbacks in a graph: which equations have side effects (debug_print, debug_callback, or
// a control equation whose sub-graphs hold one), which passes keep even when nothing reads their
// results, and every callback a graph calls.
#pragma once
#include <functional>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

bool has_effects(const Graph& g);

/// Whether running e does something besides computing its results.
inline bool has_effects(const Eqn& e) {
  if (is_effectful(e.prim)) return true;
  bool any = false;
  for_each_subgraph(e.params, [&](const Graph& sub) { any = any || has_effects(sub); });
  return any;
}

inline bool has_effects(const Graph& g) {
  for (const Eqn& e : g.eqns)
    if (has_effects(e)) return true;
  return false;
}

/// Calls f on every callback param of g's equations, sub-graphs included.
inline void for_each_callback(const Graph& g, const std::function<void(const Callback&)>& f) {
  for (const Eqn& e : g.eqns) {
    for (const Param& p : e.params.items)
      if (auto* cb = std::get_if<CallbackPtr>(&p.value); cb && *cb) f(**cb);
    for_each_subgraph(e.params, [&](const Graph& sub) { for_each_callback(sub, f); });
  }
}

}  // namespace fj::ir
