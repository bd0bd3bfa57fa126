// Inlining: replaces every `jit` equation by its sub-graph's equations, so later passes see one
// flat graph (the named composites where/clip/round/% become plain primitives). custom_jvp_call
// is inlined the same way for backends; transforms keep it (its JVP is a rule, not its body),
// with its call_jaxpr flattened.
#pragma once
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

namespace detail {
inline Atom map_atom(const Atom& a, const std::vector<Atom>& env) {
  return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
}

// Appends `sub`'s equations to `out`, with sub's invars bound to `args`; returns its outputs.
// `flatten_jit` inlines nested jit equations too, rather than copying them, and custom_jvp_call
// equations unless `keep_custom_jvp` (then their call_jaxpr is flattened instead).
inline std::vector<Atom> inline_into(Graph& out, const Graph& sub, const std::vector<Atom>& args,
                                     bool flatten_jit = true, bool keep_custom_jvp = false) {
  std::vector<Atom> env(sub.avals.size());
  for (std::size_t i = 0; i < sub.invars.size(); ++i)
    env[static_cast<std::size_t>(sub.invars[i])] = args[i];
  for (const Eqn& e : sub.eqns) {
    std::vector<Atom> in;
    for (auto& a : e.in) in.push_back(map_atom(a, env));
    const bool custom = e.prim == Prim::custom_jvp_call;
    if (flatten_jit && (e.prim == Prim::jit || (custom && !keep_custom_jvp))) {
      auto outs = inline_into(out, *e.params.get<GraphPtr>(custom ? "call_jaxpr" : "jaxpr"), in,
                              true, keep_custom_jvp);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
      continue;
    }
    Eqn n{e.prim, std::move(in), {}, e.params};
    if (flatten_jit && custom) {
      const Graph& call = *e.params.get<GraphPtr>("call_jaxpr");
      Graph flat;
      std::vector<Atom> call_args;
      for (VarId v : call.invars)
        flat.invars.push_back(flat.new_var(call.aval(v))),
            call_args.push_back(Atom::of_var(flat.invars.back()));
      flat.outvars = inline_into(flat, call, call_args, true, true);
      for (auto& p : n.params.items)
        if (p.name == "call_jaxpr") p.value = std::make_shared<const Graph>(std::move(flat));
    }
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

/// g with its jit equations inlined; custom_jvp_call equations too unless `keep_custom_jvp`.
inline Graph inline_jit(const Graph& g, bool keep_custom_jvp = false) {
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
  out.outvars = detail::inline_into(out, flat, args, true, keep_custom_jvp);
  return out;
}

}  // namespace fj::ir
