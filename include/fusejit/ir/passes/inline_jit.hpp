// Inlining: replaces every `jit` equation (and shard_map, by its `lowered` graph) by its
// sub-graph's equations, so later passes see one flat graph (the named composites
// where/clip/round/% become plain primitives). custom_jvp_call
// is inlined the same way for backends; transforms keep it (its JVP is a rule, not its body),
// with its call_jaxpr flattened. custom_linear_solve likewise: backends inline its `solve`,
// transforms keep it with its four sub-graphs flattened.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fusejit/ir/custom_jvp.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/linear_solve.hpp"

namespace fj::ir {

namespace detail {
inline Atom map_atom(const Atom& a, const std::vector<Atom>& env) {
  return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
}

inline std::vector<Atom> inline_into(Graph& out, const Graph& sub, const std::vector<Atom>& args,
                                     bool flatten_jit = true, bool keep_custom_jvp = false,
                                     bool keep_jit = false);

// A closed sub-graph with its jit equations inlined (or, with `keep_jit`, kept with their own
// sub-graphs prepared alike) and its custom calls kept (flattened).
inline Graph flatten_closed(const Graph& call, bool keep_jit = false) {
  Graph flat;
  std::vector<Atom> call_args;
  for (VarId v : call.invars)
    flat.invars.push_back(flat.new_var(call.aval(v))),
        call_args.push_back(Atom::of_var(flat.invars.back()));
  flat.outvars = inline_into(flat, call, call_args, true, true, keep_jit);
  return flat;
}

// For a backend, which is none of the platforms lax.platform_dependent names: platform_index
// is its default branch's index (a literal), and a cond on a literal index is that branch,
// inlined (XLA clamps the index; so does this). Transforms keep both, as JAX's jaxprs do.
// True when `e` was folded (its results bound in env).
inline bool fold_platform(Graph& out, const Eqn& e, const std::vector<Atom>& in,
                          std::vector<Atom>& env) {
  if (e.prim == Prim::platform_index) {
    const auto k = static_cast<int>(e.params.get<std::int64_t>("default_index"));
    env[static_cast<std::size_t>(e.out[0])] = Atom::of_literal(Literal::of(k, false));
    return true;
  }
  if (e.prim != Prim::cond || !in[0].is_literal()) return false;
  const auto& branches = e.params.get<std::vector<GraphPtr>>("branches");
  const auto last = static_cast<std::int64_t>(branches.size()) - 1;
  const auto k =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(in[0].lit.as_double()), 0, last);
  const std::vector<Atom> ops(in.begin() + 1, in.end());
  auto outs = inline_into(out, *branches[static_cast<std::size_t>(k)], ops, true, false);
  for (std::size_t i = 0; i < e.out.size(); ++i) env[static_cast<std::size_t>(e.out[i])] = outs[i];
  return true;
}

// Appends `sub`'s equations to `out`, with sub's invars bound to `args`; returns its outputs.
// `flatten_jit` inlines nested jit equations too, rather than copying them (unless `keep_jit`:
// then their sub-graphs are flattened the same way), and custom_jvp_call, custom_vjp_call and
// remat2 equations unless `keep_custom_jvp` (then their sub-graph is flattened instead).
inline std::vector<Atom> inline_into(Graph& out, const Graph& sub, const std::vector<Atom>& args,
                                     bool flatten_jit, bool keep_custom_jvp, bool keep_jit) {
  std::vector<Atom> env(sub.avals.size());
  for (std::size_t i = 0; i < sub.invars.size(); ++i)
    env[static_cast<std::size_t>(sub.invars[i])] = args[i];
  for (const Eqn& e : sub.eqns) {
    std::vector<Atom> in;
    for (auto& a : e.in) in.push_back(map_atom(a, env));
    const bool custom = e.prim == Prim::custom_jvp_call || e.prim == Prim::custom_vjp_call ||
                        e.prim == Prim::remat2;
    // shard_map is its `lowered` graph for backends and transforms alike: its printed body is
    // one device's view, which only make_jaxpr shows.
    if (flatten_jit && ((e.prim == Prim::jit && !keep_jit) || e.prim == Prim::shard_map ||
                        (custom && !keep_custom_jvp))) {
      auto outs = inline_into(out, *e.params.get<GraphPtr>(call_param(e.prim)), in, true,
                              keep_custom_jvp, keep_jit);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
      continue;
    }
    if (flatten_jit && e.prim == Prim::custom_linear_solve && !keep_custom_jvp) {
      // A backend runs the solve: its sub-graph on its consts and the right-hand sides.
      const LinearSolveView v(e.params);
      auto outs = inline_into(out, v.graph(LinearSolvePart::solve),
                              v.args(LinearSolvePart::solve, in, v.rhs(in)), true, false);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
      continue;
    }
    if (flatten_jit && !keep_custom_jvp && fold_platform(out, e, in, env)) continue;
    Eqn n{e.prim, std::move(in), {}, e.params};
    if (flatten_jit && e.prim == Prim::custom_linear_solve) {
      std::vector<GraphPtr> flat;
      for (const GraphPtr& sub : e.params.get<std::vector<GraphPtr>>("jaxprs"))
        flat.push_back(std::make_shared<const Graph>(flatten_closed(*sub)));
      for (auto& p : n.params.items)
        if (p.name == "jaxprs") p.value = std::move(flat);
    }
    if (flatten_jit && custom) {
      const char* key = call_param(e.prim);
      Graph flat = flatten_closed(*e.params.get<GraphPtr>(key));
      for (auto& p : n.params.items)
        if (p.name == key) p.value = std::make_shared<const Graph>(std::move(flat));
    }
    if (flatten_jit && e.prim == Prim::jit) {  // kept (keep_jit): its body prepared alike
      Graph flat = flatten_closed(*e.params.get<GraphPtr>("jaxpr"), true);
      for (auto& p : n.params.items)
        if (p.name == "jaxpr") p.value = std::make_shared<const Graph>(std::move(flat));
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

/// custom_linear_solve e (of graph `outer`) as one graph of all its operands that runs its
/// `solve` on the solve consts and the right-hand sides (the reference backend's call).
inline GraphPtr linear_solve_call(const Graph& outer, const Eqn& e) {
  Graph g;
  std::vector<Atom> args;
  for (const Atom& a : e.in)
    g.invars.push_back(g.new_var(outer.aval(a))), args.push_back(Atom::of_var(g.invars.back()));
  const LinearSolveView v(e.params);
  g.outvars = detail::inline_into(g, v.graph(LinearSolvePart::solve),
                                  v.args(LinearSolvePart::solve, args, v.rhs(args)), false);
  return std::make_shared<const Graph>(std::move(g));
}

/// g with its jit equations inlined (unless `keep_jit`); custom_jvp_call equations too unless
/// `keep_custom_jvp`.
inline Graph inline_jit(const Graph& g, bool keep_custom_jvp = false, bool keep_jit = false) {
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
  out.outvars = detail::inline_into(out, flat, args, true, keep_custom_jvp, keep_jit);
  return out;
}

}  // namespace fj::ir
