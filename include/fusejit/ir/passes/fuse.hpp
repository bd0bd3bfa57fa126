// Fusion: partitions a graph into `fused` kernels and library calls. Each reduction is a kernel
// of its own, with the elementwise chain that feeds it, and so is each reshape's operand
// (reshapes are then free views) and each computed operand of a library primitive (dot_general,
// concatenate, ...) or of a control-flow equation (cond, while, scan), which stays an equation
// of its own between kernels; the remaining outputs
// form one kernel per shape. Broadcasts, transposes and slices are index maps inside kernels.
// Nothing else is written to memory between kernels: every other intermediate is recomputed
// inside the kernel that needs it.
#pragma once
#include <algorithm>
#include <map>
#include <vector>

#include "fusejit/ir/passes/inline_jit.hpp"

namespace fj::ir {

/// The graph with `jit` inlined and its equations grouped into `fused[jaxpr=...]` equations.
/// Top-level inputs and outputs keep their var ids' meaning; outputs that are inputs or
/// literals need no kernel.
/// Equations that stay calls of their own between kernels, reading their operands from memory
/// and writing their results there: library primitives, callbacks (whose operands must exist
/// in memory when the C++ function sees them) and lax control flow (cond, while, scan).
/// Boundaries keep their order, so effectful callbacks run in program order.
inline bool is_fusion_boundary(Prim p) {
  const PrimKind k = info(p).kind;
  return k == PrimKind::library || k == PrimKind::callback || is_lax_control(p);
}

inline Graph fuse(const Graph& original) {
  const Graph g = inline_jit(original);
  std::vector<int> producer(g.avals.size(), -1);
  for (std::size_t k = 0; k < g.eqns.size(); ++k)
    for (VarId v : g.eqns[k].out) producer[static_cast<std::size_t>(v)] = static_cast<int>(k);

  // Written to memory by a kernel of their own: reduction results, operands of reshapes (a
  // reshape then reads the same row-major buffer in its new shape, without a copy) and computed
  // operands of library primitives. Library results are in memory too, written by the call.
  std::vector<bool> materialized(g.avals.size(), false);
  std::vector<VarId> materialize_order;
  auto materialize = [&](VarId v) {
    if (v < 0 || materialized[static_cast<std::size_t>(v)]) return;
    materialized[static_cast<std::size_t>(v)] = true;
    materialize_order.push_back(v);
  };
  auto computed = [&](const Atom& a) {
    return !a.is_literal() && producer[static_cast<std::size_t>(a.var)] >= 0;
  };
  for (auto& e : g.eqns) {
    if (info(e.prim).kind == PrimKind::reduce) {
      materialize(e.out[0]);
    } else if (e.prim == Prim::reshape && computed(e.in[0])) {
      materialize(e.in[0].var);
    } else if (is_fusion_boundary(e.prim)) {
      for (auto& a : e.in)
        if (computed(a) &&
            !is_fusion_boundary(
                g.eqns[static_cast<std::size_t>(producer[static_cast<std::size_t>(a.var)])].prim))
          materialize(a.var);
      for (VarId v : e.out) materialized[static_cast<std::size_t>(v)] = true;
    }
  }
  // Kernels and library calls run in the order of the equations that define their results:
  // everything a kernel reads from memory is then written before it runs.
  std::sort(materialize_order.begin(), materialize_order.end(), [&](VarId a, VarId b) {
    return producer[static_cast<std::size_t>(a)] < producer[static_cast<std::size_t>(b)];
  });
  // A kernel's sources: graph inputs, and materialized values (computed by earlier kernels).
  auto is_source = [&](VarId v) {
    return producer[static_cast<std::size_t>(v)] < 0 || materialized[static_cast<std::size_t>(v)];
  };

  Graph out;
  out.avals = g.avals;
  out.constvars = g.constvars;
  out.invars = g.invars;
  out.outvars = g.outvars;
  // Emits one kernel computing `roots`; a reduction root includes its own equation.
  auto add_kernel = [&](const std::vector<VarId>& roots) {
    std::vector<bool> needed(g.eqns.size(), false), live(g.avals.size(), false);
    for (VarId v : roots) live[static_cast<std::size_t>(v)] = true;
    for (int k = static_cast<int>(g.eqns.size()) - 1; k >= 0; --k) {
      const Eqn& e = g.eqns[static_cast<std::size_t>(k)];
      const bool wanted = std::any_of(e.out.begin(), e.out.end(), [&](VarId v) {
        return live[static_cast<std::size_t>(v)] &&
               (!is_source(v) || std::find(roots.begin(), roots.end(), v) != roots.end());
      });
      if (!wanted) continue;
      needed[static_cast<std::size_t>(k)] = true;
      for (auto& a : e.in)
        if (!a.is_literal()) live[static_cast<std::size_t>(a.var)] = true;
    }
    Graph sub;
    std::map<VarId, VarId> remap;
    std::vector<Atom> kernel_in;
    for (std::size_t v = 0; v < g.avals.size(); ++v) {
      const auto id = static_cast<VarId>(v);
      if (live[v] && is_source(id) && std::find(roots.begin(), roots.end(), id) == roots.end()) {
        remap[id] = sub.new_var(g.avals[v]);
        sub.invars.push_back(remap[id]);
        kernel_in.push_back(Atom::of_var(id));
      }
    }
    auto sub_atom = [&](const Atom& a) {
      return a.is_literal() ? a : Atom::of_var(remap.at(a.var));
    };
    for (std::size_t k = 0; k < g.eqns.size(); ++k) {
      if (!needed[k]) continue;
      const Eqn& e = g.eqns[k];
      Eqn n{e.prim, {}, {}, e.params};
      for (auto& a : e.in) n.in.push_back(sub_atom(a));
      for (VarId v : e.out) {
        // A result already read from memory (one of several results, materialized for a later
        // kernel) keeps reading it: the reshape that made it a source expects that buffer.
        const VarId nv = sub.new_var(g.aval(v));
        n.out.push_back(nv);
        if (!remap.count(v)) remap[v] = nv;
      }
      sub.eqns.push_back(std::move(n));
    }
    for (VarId v : roots) sub.outvars.push_back(Atom::of_var(remap.at(v)));
    Params p;
    p.items.push_back({"jaxpr", std::make_shared<const Graph>(std::move(sub)), true});
    out.eqns.push_back(Eqn{Prim::fused, std::move(kernel_in), roots, std::move(p)});
  };

  std::size_t next = 0;
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    if (!is_fusion_boundary(g.eqns[k].prim)) continue;
    for (; next < materialize_order.size() &&
           producer[static_cast<std::size_t>(materialize_order[next])] < static_cast<int>(k);
         ++next)
      add_kernel({materialize_order[next]});
    out.eqns.push_back(g.eqns[k]);
  }
  for (; next < materialize_order.size(); ++next) add_kernel({materialize_order[next]});

  // Remaining outputs computed by elementwise equations, grouped by shape in order of appearance.
  std::vector<std::vector<VarId>> groups;
  std::vector<VarId> seen;
  for (auto& o : g.outvars) {
    if (o.is_literal() || is_source(o.var)) continue;
    if (std::find(seen.begin(), seen.end(), o.var) != seen.end()) continue;
    seen.push_back(o.var);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](auto& grp) { return g.aval(grp[0]).shape == g.aval(o.var).shape; });
    if (it == groups.end())
      groups.push_back({o.var});
    else
      it->push_back(o.var);
  }
  for (auto& grp : groups) add_kernel(grp);
  return out;
}

}  // namespace fj::ir
