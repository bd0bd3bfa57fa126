// The rules of the callback primitives (debug_print, debug_callback, pure_callback): their
// results are what the C++ function declared; a C++ function has no derivative (JAX: "Pure
// callbacks do not support JVP"; the debug ones have no results); batched as JAX does, a debug
// print or callback once per example, a pure_callback sequentially over the examples in a scan
// (implementation unit only).
#include "fusejit/ir/callback.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

/// Example i of a value batched along axis 0: slice (with explicit unit strides, as JAX's
/// indexing stages it) then squeeze, JAX's unstacking.
Atom example(Emit& E, Atom x, std::int64_t i) {
  const Shape s = E.shape(x);
  Dims lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  lo[0] = i, hi[0] = i + 1;
  ir::Params sp;
  sp.items.push_back({"limit_indices", hi, true});
  sp.items.push_back({"start_indices", lo, true});
  sp.items.push_back({"strides", Dims(lo.size(), 1), true});
  ir::Params qp;
  qp.items.push_back({"dimensions", Dims{0}, true});
  return E.b.emit1(Prim::squeeze, {E.b.emit1(Prim::slice, {x}, std::move(sp))}, std::move(qp));
}

/// pure_callback over a batch: a scan whose body is the call on one example, the unbatched
/// operands its consts (JAX's vmap_method="sequential").
std::vector<Atom> sequential(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                             const std::vector<bool>& bat, std::int64_t n) {
  ir::Graph body;
  std::vector<Atom> consts, xs, call_in(in.size());
  std::vector<ir::VarId> const_vars, x_vars;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k].is_literal()) {
      call_in[k] = in[k];
      continue;
    }
    ir::Aval a = E.aval(in[k]);
    if (bat[k]) {
      const Dims d = a.shape.to_vector();
      a.shape = Shape(Dims(d.begin() + 1, d.end()));
    }
    const ir::VarId v = body.new_var(a);
    call_in[k] = Atom::of_var(v);
    (bat[k] ? x_vars : const_vars).push_back(v);
    (bat[k] ? xs : consts).push_back(in[k]);
  }
  body.invars = const_vars;
  body.invars.insert(body.invars.end(), x_vars.begin(), x_vars.end());
  const auto& results = e.params.get<ir::CallbackPtr>("callback")->results;
  std::vector<ir::VarId> outs;
  for (const ir::Aval& r : results) outs.push_back(body.new_var(r));
  body.eqns.push_back(ir::Eqn{e.prim, call_in, outs, e.params});
  for (ir::VarId v : outs) body.outvars.push_back(Atom::of_var(v));
  ir::Params p;
  p.items.push_back({"jaxpr", std::make_shared<const ir::Graph>(std::move(body))});
  p.items.push_back({"length", n});
  p.items.push_back({"num_carry", std::int64_t{0}});
  p.items.push_back({"num_consts", static_cast<std::int64_t>(consts.size())});
  p.items.push_back({"reverse", false});
  p.items.push_back({"unroll", std::int64_t{1}});
  consts.insert(consts.end(), xs.begin(), xs.end());
  return E.b.emit(Prim::scan, std::move(consts), std::move(p));
}

std::vector<Atom> batch_callback(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                                 const std::vector<bool>& bat, std::int64_t n) {
  if (e.prim == Prim::pure_callback) return sequential(E, e, in, bat, n);
  // An effect per example, in order: each example's operands, then its call.
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<Atom> ops;
    for (std::size_t k = 0; k < in.size(); ++k)
      ops.push_back(bat[k] ? example(E, in[k], i) : in[k]);
    (void)E.b.emit(e.prim, std::move(ops), e.params);
  }
  return {};
}

std::vector<Aval> declared_results(Prim, const std::vector<Aval>&, const ir::Params& params) {
  return params.get<ir::CallbackPtr>("callback")->results;
}

JvpResult no_jvp(Emit&, const JvpCall& c) {
  throw ValueError("fj::jvp: no differentiation rule for " + std::string(ir::name(c.e.prim)) +
                   ": a C++ function has no derivative (use fj::custom_jvp around it)");
}

void no_vjp(Emit&, const VjpCall& c) {
  throw ValueError("fj::grad: no reverse-mode rule for " + std::string(ir::name(c.e.prim)) +
                   ": a C++ function has no derivative (use fj::custom_jvp around it)");
}

}  // namespace

void register_callback_rules(ir::RuleTable& t) {
  for (Prim p : {Prim::debug_print, Prim::debug_callback})
    t[p] = {declared_results, nullptr, nullptr, all_batched<batch_callback>};
  t[Prim::pure_callback] = {declared_results, no_jvp, no_vjp, all_batched<batch_callback>};
}

}  // namespace fj::transforms
