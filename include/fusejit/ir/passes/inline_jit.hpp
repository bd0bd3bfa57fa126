// Inlining: replaces every `jit` equation by its sub-graph's equations, so later passes see one
// flat graph (the named composites where/clip/round/% become plain primitives).
#pragma once
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

namespace detail {
inline Atom map_atom(const Atom& a, const std::vector<Atom>& env) {
  return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
}

// Appends `sub`'s equations to `out`, with sub's invars bound to `args`; returns its outputs.
// `flatten_jit` inlines nested jit equations too, rather than copying them.
inline std::vector<Atom> inline_into(Graph& out, const Graph& sub, const std::vector<Atom>& args,
                                     bool flatten_jit = true) {
  std::vector<Atom> env(sub.avals.size());
  for (std::size_t i = 0; i < sub.invars.size(); ++i)
    env[static_cast<std::size_t>(sub.invars[i])] = args[i];
  for (const Eqn& e : sub.eqns) {
    std::vector<Atom> in;
    for (auto& a : e.in) in.push_back(map_atom(a, env));
    if (flatten_jit && e.prim == Prim::jit) {
      auto outs = inline_into(out, *e.params.get<GraphPtr>("jaxpr"), in);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
      continue;
    }
    Eqn n{e.prim, std::move(in), {}, e.params};
    for (VarId v : e.out) {
      n.out.push_back(out.new_var(sub.aval(v)));
      env[static_cast<std::size_t>(v)] = Atom::of_var(n.out.back());
    }
    out.eqns.push_back(std::move(n));
  }
  std::vector<Atom> res;
  for (auto& o : sub.outvars) res.push_back(map_atom(o, env));
  return res;
}
}  // namespace detail

inline Graph inline_jit(const Graph& g) {
  Graph out;
  std::vector<Atom> args;
  for (VarId v : g.constvars)
    out.constvars.push_back(out.new_var(g.aval(v))),
        args.push_back(Atom::of_var(out.constvars.back()));
  for (VarId v : g.invars)
    out.invars.push_back(out.new_var(g.aval(v))), args.push_back(Atom::of_var(out.invars.back()));
  // Constvars and invars are bound in order, as a sub-graph's invars are.
  Graph flat = g;
  flat.invars.insert(flat.invars.begin(), g.constvars.begin(), g.constvars.end());
  out.outvars = detail::inline_into(out, flat, args);
  return out;
}

}  // namespace fj::ir
