// The transformation rules of custom_jvp_call (jax.custom_jvp): forward mode calls the
// equation's tangent rule, reverse mode transposes the rule's (linear) tangents, batching
// batches call_jaxpr and keeps the rule (implementation unit only).
#include <algorithm>
#include <memory>
#include <optional>

#include "fusejit/ir/custom_jvp.hpp"
#include "fusejit/ir/result_jvp_rule.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

using RulePtr = std::shared_ptr<const ir::CustomJvpRule>;

RulePtr cj_rule_of(const ir::Eqn& e) {
  (void)ir::custom_jvp_rule(e.params);  // raises for a malformed param
  return std::dynamic_pointer_cast<const ir::CustomJvpRule>(e.params.get<ir::CallbackPtr>("jvp"));
}

/// The rule's tangents, checked against the results' avals (a scalar tangent is broadcast).
void check_tangents(GraphBuilder& g, const ir::CustomJvpRule& rule, std::vector<Atom>& touts,
                    const std::vector<Aval>& outs) {
  if (touts.size() != outs.size())
    throw ValueError("custom_jvp: the rule " + rule.name() + " gave " +
                     std::to_string(touts.size()) + " tangents for " + std::to_string(outs.size()) +
                     " results");
  Emit E(g);
  for (std::size_t k = 0; k < touts.size(); ++k) {
    const Aval ta = g.aval(touts[k]);
    if (ta.dtype != outs[k].dtype)
      throw DTypeError("custom_jvp: the rule " + rule.name() + " gave a tangent of dtype " +
                       std::string(long_name(ta.dtype)) + " for a result of " + outs[k].str());
    if (!(ta.shape == outs[k].shape)) {
      if (ta.shape.rank() != 0)
        throw ShapeError("custom_jvp: the rule " + rule.name() + " gave a tangent of shape " +
                         ta.shape.str() + " for a result of " + outs[k].str());
      touts[k] = E.broadcast_to(touts[k], outs[k].shape);
    }
  }
}

/// A graph of (primals, results, tangents) -> the rule's tangents of the results, flat (jit
/// inlined, custom_jvp_call kept), each tangent checked against its result's aval.
ir::Graph cj_rule_graph(const ir::CustomJvpRule& rule, const std::vector<Aval>& primals,
                        const std::vector<Aval>& outs) {
  GraphBuilder g;
  std::vector<Atom> p, o, t;
  for (auto& a : primals) p.push_back(Atom::of_var(g.add_invar(a)));
  for (auto& a : outs) o.push_back(Atom::of_var(g.add_invar(a)));
  for (auto& a : primals) t.push_back(Atom::of_var(g.add_invar(a)));
  std::vector<Atom> touts = rule.tangents(g, p, o, t);
  check_tangents(g, rule, touts, outs);
  g.graph.outvars = std::move(touts);
  return ir::inline_jit(g.graph, /*keep_custom_jvp=*/true);
}

std::vector<Aval> cj_avals(Emit& E, const std::vector<Atom>& xs) {
  std::vector<Aval> r;
  for (auto& x : xs) r.push_back(E.aval(x));
  return r;
}

std::vector<Atom> cj_cat(std::vector<Atom> a, const std::vector<Atom>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// A rule for the batched call: traces the original rule on per-example operands and batches
/// that graph, so a rule written for one example never sees the batch axis (as JAX's vmap of a
/// custom_jvp function gives the rule unbatched values).
class BatchedJvpRule final : public ir::CustomJvpRule {
 public:
  BatchedJvpRule(RulePtr inner, std::vector<bool> in_bat, std::vector<bool> out_bat, std::int64_t n)
      : inner_(std::move(inner)), in_bat_(std::move(in_bat)), out_bat_(std::move(out_bat)), n_(n) {
    results = inner_->results;
  }
  std::string repr() const override { return inner_->repr(); }
  std::string name() const override { return inner_->name(); }
  std::vector<Atom> tangents(GraphBuilder& b, const std::vector<Atom>& primals,
                             const std::vector<Atom>& outs,
                             const std::vector<Atom>& tangents) const override {
    auto unbatched = [&](const Atom& a, bool bat) {
      Aval av = b.aval(a);
      if (bat) av.shape = Shape(Dims(av.shape.begin() + 1, av.shape.end()));
      return av;
    };
    std::vector<Aval> pa, oa;
    for (std::size_t i = 0; i < primals.size(); ++i)
      pa.push_back(unbatched(primals[i], in_bat_[i]));
    for (std::size_t k = 0; k < outs.size(); ++k) oa.push_back(unbatched(outs[k], out_bat_[k]));
    std::vector<bool> flags = in_bat_;
    flags.insert(flags.end(), out_bat_.begin(), out_bat_.end());
    flags.insert(flags.end(), in_bat_.begin(), in_bat_.end());
    const Batched bg = batch_graph(cj_rule_graph(*inner_, pa, oa), flags, n_);
    std::vector<Atom> r =
        ir::detail::inline_into(b.graph, bg.graph, cj_cat(cj_cat(primals, outs), tangents), false);
    Emit E(b);
    for (std::size_t k = 0; k < r.size(); ++k)
      if (out_bat_[k] && !bg.out_batched[k]) r[k] = add_batch_axis(E, r[k], n_);
    return r;
  }

 private:
  RulePtr inner_;
  std::vector<bool> in_bat_, out_bat_;
  std::int64_t n_;
};

}  // namespace

std::vector<MaybeAtom> jvp_custom_call(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                       const std::vector<MaybeAtom>& t,
                                       const std::vector<Atom>& out) {
  const ir::Graph g = cj_rule_graph(*cj_rule_of(e), cj_avals(E, in), cj_avals(E, out));
  std::vector<Atom> tans;
  for (std::size_t i = 0; i < in.size(); ++i) tans.push_back(E.or_zeros(t[i], E.aval(in[i])));
  const std::vector<Atom> touts =
      ir::detail::inline_into(E.b.graph, g, cj_cat(cj_cat(in, out), tans), false);
  std::vector<MaybeAtom> r;
  for (std::size_t k = 0; k < out.size(); ++k)
    r.push_back(differentiable(E.aval(out[k])) ? MaybeAtom(touts[k]) : std::nullopt);
  return r;
}

std::optional<ir::Graph> custom_call_jvp_graph(const ir::Eqn& e, const std::vector<Aval>& in,
                                               const std::vector<Aval>& outs) {
  const RulePtr any_rule = cj_rule_of(e);
  const auto* rule = dynamic_cast<const ir::ResultJvpRule*>(any_rule.get());
  if (!rule) return std::nullopt;
  GraphBuilder g;
  std::vector<Atom> p, t;
  for (const Aval& a : in) p.push_back(Atom::of_var(g.add_invar(a)));
  for (const Aval& a : in) t.push_back(Atom::of_var(g.add_invar(a)));
  std::vector<Atom> r = rule->jvp(g, p, t);
  if (r.size() != 2 * outs.size())
    throw ValueError("custom_jvp: the rule " + rule->name() + " gave " + std::to_string(r.size()) +
                     " results and tangents for " + std::to_string(outs.size()) + " results");
  std::vector<Atom> touts(r.begin() + static_cast<std::ptrdiff_t>(outs.size()), r.end());
  for (std::size_t k = 0; k < outs.size(); ++k)
    if (g.aval(r[k]).dtype != outs[k].dtype || !(g.aval(r[k]).shape == outs[k].shape))
      throw TypeError("custom_jvp: the rule " + rule->name() + " gave a result of " +
                      g.aval(r[k]).str() + " where the function gives " + outs[k].str());
  check_tangents(g, *rule, touts, outs);
  std::copy(touts.begin(), touts.end(), r.begin() + static_cast<std::ptrdiff_t>(outs.size()));
  g.graph.outvars = std::move(r);
  return std::move(g.graph);
}

std::vector<MaybeAtom> vjp_custom_call(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                       const std::vector<Atom>& out,
                                       const std::vector<MaybeAtom>& cts,
                                       const std::vector<bool>& needed) {
  // The rule's tangents are linear in the operands' tangents, so the cotangents are the rule's
  // reverse mode with respect to its tangent inputs, at any tangent (zeros: the forward copy of
  // the rule is then dead and DCE drops it).
  ir::Graph g = cj_rule_graph(*cj_rule_of(e), cj_avals(E, in), cj_avals(E, out));
  std::vector<std::size_t> kept;  // the results whose tangents flow back
  std::vector<Atom> kept_outs;
  for (std::size_t k = 0; k < out.size(); ++k)
    if (differentiable(E.aval(out[k]))) {
      kept.push_back(k);
      kept_outs.push_back(g.outvars[k]);
    }
  g.outvars = kept_outs;
  const std::size_t n = in.size(), m = out.size();
  std::vector<bool> wrt(2 * n + m, false);
  for (std::size_t i = 0; i < n; ++i)
    wrt[n + m + i] = needed[i] && !in[i].is_literal() && differentiable(E.aval(in[i]));
  const ir::Graph vg = vjp_graph(g, wrt);
  std::vector<Atom> args = cj_cat(in, out);
  for (auto& x : in) args.push_back(E.zeros(E.aval(x)));
  for (std::size_t k : kept) args.push_back(E.or_zeros(cts[k], E.aval(out[k])));
  const std::vector<Atom> r = ir::detail::inline_into(E.b.graph, vg, args, false);
  std::vector<MaybeAtom> res(n);
  std::size_t pos = kept.size();
  for (std::size_t i = 0; i < n; ++i)
    if (wrt[n + m + i]) res[i] = r[pos++];
  return res;
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_custom_call(Emit& E, const ir::Eqn& e,
                                                                  std::vector<Atom> in,
                                                                  const std::vector<bool>& bat,
                                                                  std::int64_t n) {
  const ir::Graph call = flatten(*e.params.get<ir::GraphPtr>("call_jaxpr"));
  Batched bg = batch_graph(call, bat, n);
  auto rule = std::make_shared<const BatchedJvpRule>(cj_rule_of(e), bat, bg.out_batched, n);
  const auto& name = e.params.get<std::string>("name");
  std::vector<Atom> outs =
      E.b.emit(Prim::custom_jvp_call, std::move(in),
               ir::custom_jvp_params(name, std::make_shared<const ir::Graph>(std::move(bg.graph)),
                                     std::move(rule)));
  return {std::move(outs), std::move(bg.out_batched)};
}

namespace {

/// A rule in JAX's defjvp form computes the results too: its equations replace the call, its
/// jits kept, as JAX's JVP of a custom_jvp function runs only the rule. A rule given the
/// results (the default form) follows a copy of the call.
JvpResult custom_jvp_call_jvp(Emit& E, const JvpCall& c) {
  std::vector<Aval> ia, oa;
  for (const Atom& a : c.in) ia.push_back(E.aval(a));
  for (const Aval& a : ir::infer_avals(c.e.prim, ia, c.e.params)) oa.push_back(a);
  if (const std::optional<ir::Graph> rule = custom_call_jvp_graph(c.e, ia, oa)) {
    std::vector<Atom> args = c.in;
    for (std::size_t i = 0; i < c.in.size(); ++i) args.push_back(E.or_zeros(c.t[i], ia[i]));
    const std::vector<Atom> r = ir::detail::inline_into(E.b.graph, *rule, args, false);
    JvpResult out;
    for (std::size_t k = 0; k < oa.size(); ++k) {
      out.out.push_back(r[k]);
      out.t.push_back(differentiable(oa[k]) ? MaybeAtom(r[oa.size() + k]) : std::nullopt);
    }
    return out;
  }
  return after_primals<jvp_custom_call>(E, c);
}

}  // namespace

void register_custom_jvp_rules(ir::RuleTable& t) {
  t[Prim::custom_jvp_call] = {ir::control_avals, custom_jvp_call_jvp, for_needed<vjp_custom_call>,
                              some_batched<batch_custom_call>};
}

}  // namespace fj::transforms
