// The transformation rules of custom_vjp_call (jax.custom_vjp): reverse mode runs the user's
// fwd for the residuals and bwd for the cotangents, forward mode raises as JAX's does, and
// batching batches call_jaxpr and wraps fwd and bwd in their batched graphs (implementation
// unit only).
#include <memory>

#include "fusejit/ir/custom_vjp.hpp"
#include "fusejit/ir/passes/dce.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

namespace {

using VjpRulePtr = std::shared_ptr<const ir::CustomVjpRule>;

std::vector<Aval> without_batch_axis(const std::vector<Aval>& avals, const std::vector<bool>& bat) {
  std::vector<Aval> r = avals;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (bat[i]) r[i].shape = Shape(Dims(r[i].shape.begin() + 1, r[i].shape.end()));
  return r;
}

// A graph of `avals` -> what `emit` returns, flattened for batching (no jit equations).
template <class F>
ir::Graph graph_of(const std::vector<Aval>& avals, F&& emit) {
  GraphBuilder g;
  std::vector<Atom> in;
  for (const Aval& a : avals) in.push_back(Atom::of_var(g.add_invar(a)));
  g.graph.outvars = emit(g, in);
  return flatten(g.graph);
}

/// fwd and bwd of a batched call: each traced per example and batched, so functions written
/// for one example never see the batch axis (as JAX batches a custom_vjp's fwd and bwd). The
/// residuals all carry the batch axis, so bwd's batching is known without re-running fwd's.
class BatchedVjpRule final : public ir::CustomVjpRule {
 public:
  BatchedVjpRule(VjpRulePtr inner, std::vector<bool> in_bat, std::vector<bool> out_bat,
                 std::int64_t n, std::vector<Aval> in_avals, std::vector<Aval> out_avals)
      : inner_(std::move(inner)),
        in_bat_(std::move(in_bat)),
        out_bat_(std::move(out_bat)),
        n_(n),
        in_avals_(std::move(in_avals)),
        out_avals_(std::move(out_avals)) {
    const ir::Graph f = graph_of(in_avals_, [&](GraphBuilder& g, const std::vector<Atom>& x) {
      return inner_->forward(g, x);
    });
    for (std::size_t k = out_avals_.size(); k < f.outvars.size(); ++k)
      res_avals_.push_back(f.aval(f.outvars[k]));
  }
  std::string repr() const override { return inner_->repr(); }
  std::string name() const override { return inner_->name(); }
  std::string bwd_repr() const override { return inner_->bwd_repr(); }

  std::vector<Atom> forward(GraphBuilder& b, const std::vector<Atom>& operands) const override {
    const ir::Graph f = graph_of(in_avals_, [&](GraphBuilder& g, const std::vector<Atom>& x) {
      return inner_->forward(g, x);
    });
    const Batched bg = batch_graph(f, in_bat_, n_);
    std::vector<Atom> r = ir::detail::inline_into(b.graph, bg.graph, operands, false);
    Emit E(b);
    for (std::size_t k = 0; k < r.size(); ++k) {
      const bool want = k < out_bat_.size() ? out_bat_[k] : true;
      if (want && !bg.out_batched[k]) r[k] = add_batch_axis(E, r[k], n_);
    }
    return r;
  }

  std::vector<Atom> backward(GraphBuilder& b, const std::vector<Atom>& residuals,
                             const std::vector<Atom>& cts) const override {
    std::vector<Aval> avals = res_avals_;
    avals.insert(avals.end(), out_avals_.begin(), out_avals_.end());
    const ir::Graph g = graph_of(avals, [&](GraphBuilder& gb, const std::vector<Atom>& x) {
      const auto split = x.begin() + static_cast<std::ptrdiff_t>(res_avals_.size());
      return inner_->backward(gb, {x.begin(), split}, {split, x.end()});
    });
    std::vector<bool> flags(res_avals_.size(), true);
    flags.insert(flags.end(), out_bat_.begin(), out_bat_.end());
    const Batched bg = batch_graph(g, flags, n_);
    std::vector<Atom> args = residuals;
    args.insert(args.end(), cts.begin(), cts.end());
    std::vector<Atom> r = ir::detail::inline_into(b.graph, bg.graph, args, false);
    Emit E(b);
    // An unbatched operand (a weight shared by the examples) sums its per-example cotangents.
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (in_bat_[i] && !bg.out_batched[i]) r[i] = add_batch_axis(E, r[i], n_);
      if (!in_bat_[i] && bg.out_batched[i]) r[i] = E.reduce_sum(r[i], {0});
    }
    return r;
  }

 private:
  VjpRulePtr inner_;
  std::vector<bool> in_bat_, out_bat_;
  std::int64_t n_;
  std::vector<Aval> in_avals_, out_avals_, res_avals_;  // per example
};

// JAX: "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
JvpResult custom_vjp_call_jvp(Emit&, const JvpCall& c) {
  throw TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function (" +
                  c.e.params.get<std::string>("name") +
                  "); fj::custom_vjp defines reverse mode only, use fj::custom_jvp for both");
}

// The forward pass keeps the call for its results and runs fwd after it for the residuals (its
// own copy of the results is dead: DCE drops it), where JAX's linearization leaves fwd.
Forward custom_vjp_call_forward(Emit& E, const ForwardCall& c) {
  Forward f;
  f.out = E.b.emit(c.e.prim, c.in, c.e.params);
  std::vector<Aval> avals;
  for (const Atom& a : c.in) avals.push_back(E.aval(a));
  ir::Graph fwd = graph_of(avals, [&](GraphBuilder& g, const std::vector<Atom>& x) {
    const std::vector<Atom> r = ir::custom_vjp_rule(c.e.params)->forward(g, x);
    return std::vector<Atom>(r.begin() + static_cast<std::ptrdiff_t>(f.out.size()), r.end());
  });
  f.saved = ir::detail::inline_into(E.b.graph, ir::dce(std::move(fwd)), c.in, false);
  return f;
}

// bwd on the residuals and the results' cotangents (zeros where none flows back); the residuals
// come from the forward pass, or from fwd run here where no forward rule ran (a linear pass).
void custom_vjp_call_vjp(Emit& E, const VjpCall& c) {
  const VjpRulePtr rule = ir::custom_vjp_rule(c.e.params);
  std::vector<Atom> res;
  if (c.saved && !c.saved->empty()) {
    res = *c.saved;
  } else {
    const std::vector<Atom> f = rule->forward(E.b, c.in);
    res.assign(f.begin() + static_cast<std::ptrdiff_t>(c.out.size()), f.end());
  }
  std::vector<Atom> cts;
  for (std::size_t k = 0; k < c.out.size(); ++k)
    cts.push_back(E.or_zeros(c.ct[k], E.aval(c.out[k])));
  const std::vector<Atom> g = rule->backward(E.b, res, cts);
  for (std::size_t i = 0; i < c.in.size(); ++i)
    if (c.wanted[i]) c.add(i, g[i]);
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_custom_vjp_call(Emit& E, const ir::Eqn& e,
                                                                      std::vector<Atom> in,
                                                                      const std::vector<bool>& bat,
                                                                      std::int64_t n) {
  const ir::Graph call = flatten(*e.params.get<ir::GraphPtr>("call_jaxpr"));
  std::vector<Aval> in_avals, out_avals;
  for (const Atom& a : in) in_avals.push_back(E.aval(a));
  for (const Atom& o : call.outvars) out_avals.push_back(call.aval(o));
  Batched bg = batch_graph(call, bat, n);
  auto rule =
      std::make_shared<const BatchedVjpRule>(ir::custom_vjp_rule(e.params), bat, bg.out_batched, n,
                                             without_batch_axis(in_avals, bat), out_avals);
  const auto& name = e.params.get<std::string>("name");
  std::vector<Atom> outs =
      E.b.emit(Prim::custom_vjp_call, std::move(in),
               ir::custom_vjp_params(name, std::make_shared<const ir::Graph>(std::move(bg.graph)),
                                     std::move(rule)));
  return {std::move(outs), std::move(bg.out_batched)};
}

}  // namespace

void register_custom_vjp_rules(ir::RuleTable& t) {
  t[Prim::custom_vjp_call] = {ir::control_avals, custom_vjp_call_jvp, custom_vjp_call_vjp,
                              some_batched<batch_custom_vjp_call>, custom_vjp_call_forward};
}

}  // namespace fj::transforms
