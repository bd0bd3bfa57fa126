// Forward mode: the pass that pushes tangents through a graph alongside a copy of its primal
// equations, each equation by its primitive's JVP rule (the rules table, ir/prim_rules.hpp)
// (implementation unit only).
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

ir::Graph flatten(const ir::Graph& g, bool keep_jits) {
  ir::Graph f = ir::inline_jit(g, /*keep_custom_jvp=*/true, keep_jits);
  f.invars.insert(f.invars.begin(), f.constvars.begin(), f.constvars.end());
  f.constvars.clear();
  return f;
}

ir::Graph jvp_graph(const ir::Graph& g, const std::vector<bool>& has_tangent) {
  GraphBuilder b;
  Emit E(b);
  std::vector<Atom> env(g.avals.size());
  std::vector<MaybeAtom> tan(g.avals.size());
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  auto tangent = [&](const Atom& a) -> MaybeAtom {
    return a.is_literal() ? std::nullopt : tan[static_cast<std::size_t>(a.var)];
  };
  for (ir::VarId v : g.invars)
    env[static_cast<std::size_t>(v)] = Atom::of_var(b.add_invar(g.aval(v)));
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    if (has_tangent[i] && differentiable(g.aval(g.invars[i])))
      tan[static_cast<std::size_t>(g.invars[i])] = Atom::of_var(b.add_invar(g.aval(g.invars[i])));
    else if (has_tangent[i])
      (void)b.add_invar(g.aval(g.invars[i]));  // an integer input: its tangent is ignored
  for (const ir::Eqn& e : g.eqns) {
    std::vector<Atom> in;
    std::vector<MaybeAtom> t;
    bool any = false;
    for (auto& a : e.in) {
      in.push_back(at(a));
      t.push_back(tangent(a));
      any = any || t.back().has_value();
    }
    if (any && e.prim == Prim::jit) {
      // JAX's JVP of a jit is one jit of the same name: its graph's JVP, on the primals and the
      // tangents that exist.
      std::vector<bool> has;
      std::vector<Atom> ops = in;
      for (const MaybeAtom& ta : t) {
        has.push_back(ta.has_value());
        if (ta) ops.push_back(*ta);
      }
      const std::vector<Atom> r =
          b.emit(Prim::jit, ops,
                 with_graph(e.params, jvp_graph(*e.params.get<ir::GraphPtr>("jaxpr"), has), true));
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = r[k];
        if (differentiable(g.aval(e.out[k])))
          tan[static_cast<std::size_t>(e.out[k])] = r[e.out.size() + k];
      }
      continue;
    }
    if (!any) {
      std::vector<Atom> out = b.emit(e.prim, in, e.params);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = out[k];
      continue;
    }
    const ir::JvpRule rule = ir::rules(e.prim).jvp;
    const ir::PrimInfo& pi = ir::info(e.prim);
    // Without a rule, a primitive not marked differentiable has zero tangents (no float result
    // depends on a float operand: comparisons, argmax, iota, the debug callbacks).
    if (!rule && ((pi.flags & ir::prim_flags::D) || pi.kind == ir::PrimKind::control))
      throw ValueError("fj::jvp: no differentiation rule for " + std::string(pi.name));
    JvpResult r =
        rule ? rule(E, JvpCall{e, in, t})
             : JvpResult{b.emit(e.prim, in, e.params), std::vector<MaybeAtom>(e.out.size())};
    for (std::size_t k = 0; k < e.out.size(); ++k) {
      env[static_cast<std::size_t>(e.out[k])] = r.out[k];
      tan[static_cast<std::size_t>(e.out[k])] = r.t[k];
    }
  }
  for (auto& o : g.outvars) b.graph.outvars.push_back(at(o));
  for (auto& o : g.outvars) b.graph.outvars.push_back(E.or_zeros(tangent(o), g.aval(o)));
  return std::move(b.graph);
}

}  // namespace fj::transforms
