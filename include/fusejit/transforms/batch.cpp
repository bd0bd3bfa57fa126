// Batching (vmap): the pass that rewrites a graph on per-example values into one on values with
// a leading batch axis, one equation at a time by its primitive's batching rule (the rules
// table, ir/prim_rules.hpp), and the helpers the families' rules share (impl. unit only).
#include <numeric>

#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

Dims with_front(std::int64_t first, const Dims& rest) {
  Dims r{first};
  r.insert(r.end(), rest.begin(), rest.end());
  return r;
}

Shape batched_shape(std::int64_t n, const Shape& s) { return Shape(with_front(n, s.to_vector())); }

Atom add_batch_axis(Emit& E, Atom x, std::int64_t n) {
  Dims dims(static_cast<std::size_t>(E.rank(x)));
  std::iota(dims.begin(), dims.end(), 1);
  return E.broadcast_in_dim(x, batched_shape(n, E.shape(x)), dims);
}

ir::Params numpy_ints(ir::Params p, const std::string& name) {
  const ir::ParamValue* d = p.find(name);
  if (!d) return p;
  std::vector<std::int64_t> flags(std::get<Dims>(*d).size(), 1);
  const std::string flag_name = name + "@np";
  std::erase_if(p.items, [&](const ir::Param& q) { return q.name == flag_name; });
  p.items.push_back({flag_name, flags, false});
  return p;
}

Batched batch_graph(const ir::Graph& g, const std::vector<bool>& in_batched, std::int64_t size) {
  GraphBuilder b;
  Emit E(b);
  std::vector<Atom> env(g.avals.size());
  std::vector<bool> bat(g.avals.size(), false);
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  auto is_b = [&](const Atom& a) {
    return !a.is_literal() && bat[static_cast<std::size_t>(a.var)];
  };
  for (std::size_t i = 0; i < g.invars.size(); ++i) {
    Aval a = g.aval(g.invars[i]);
    if (in_batched[i]) a.shape = batched_shape(size, a.shape);
    env[static_cast<std::size_t>(g.invars[i])] = Atom::of_var(b.add_invar(a));
    bat[static_cast<std::size_t>(g.invars[i])] = in_batched[i];
  }
  for (const ir::Eqn& e : g.eqns) {
    std::vector<Atom> in;
    std::vector<bool> flags;
    bool any = false;
    for (auto& a : e.in) {
      in.push_back(at(a));
      flags.push_back(is_b(a));
      any = any || flags.back();
    }
    // A collective over the vmapped axis is rewritten even when no operand is batched.
    if (!any && !over_batched_axis(e)) {
      auto out = b.emit(e.prim, std::move(in), e.params);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = out[k];
      continue;
    }
    if (e.prim == Prim::jit) {
      // JAX's batching of a jit is one jit of the same name over its batched graph; results the
      // batch does not reach stay unbatched.
      Batched inner = batch_graph(*e.params.get<ir::GraphPtr>("jaxpr"), flags, size);
      const std::vector<Atom> outs =
          b.emit(Prim::jit, std::move(in), with_graph(e.params, std::move(inner.graph), true));
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
        bat[static_cast<std::size_t>(e.out[k])] = inner.out_batched[k];
      }
      continue;
    }
    const ir::BatchRule rule = ir::rules(e.prim).batch;
    if (!rule) throw ValueError("fj::vmap: no batching rule for " + std::string(ir::name(e.prim)));
    std::vector<Aval> out_avals;
    for (ir::VarId v : e.out) out_avals.push_back(g.aval(v));
    BatchCall call{e, in, flags, size, out_avals};
    const BatchResult r = rule(E, call);
    for (std::size_t k = 0; k < e.out.size(); ++k) {
      env[static_cast<std::size_t>(e.out[k])] = r.out[k];
      bat[static_cast<std::size_t>(e.out[k])] = r.batched[k];
    }
  }
  Batched r;
  for (auto& o : g.outvars) {
    b.graph.outvars.push_back(at(o));
    r.out_batched.push_back(is_b(o));
  }
  r.graph = std::move(b.graph);
  return r;
}

}  // namespace fj::transforms
