// The transformation rules of remat2 (jax.checkpoint): reverse mode runs the function's
// equations in the forward pass, keeps only what the policy saves, and recomputes the rest in
// the backward pass inside a remat2 with differentiated=True, as JAX's partial evaluation of
// remat does; forward mode and batching transform the sub-graph and keep the remat2
// (implementation unit only).
#include <string>
#include <vector>

#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/passes/dce.hpp"
#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

namespace {

ir::Graph remat_body(const ir::Eqn& e) { return flatten(*e.params.get<ir::GraphPtr>("jaxpr")); }

// Whether the policy (remat2's hidden param `saveable`: nothing, everything, dots,
// dots_no_batch, or names followed by one name per line) saves each equation's results.
std::vector<bool> saved_equations(const ir::Graph& g, const ir::Params& params) {
  const std::string& policy = params.get<std::string>("saveable");
  std::vector<std::string> names;
  if (policy.rfind("names", 0) == 0)
    for (std::size_t at = policy.find('\n'); at != std::string::npos;) {
      const std::size_t next = policy.find('\n', at + 1);
      names.push_back(policy.substr(at + 1, next == std::string::npos ? next : next - at - 1));
      at = next;
    }
  std::vector<bool> r;
  for (const ir::Eqn& e : g.eqns) {
    bool save = policy == "everything";
    if (e.prim == Prim::dot_general)
      save = save || policy == "dots" ||
             (policy == "dots_no_batch" && ir::DotDims::from(e.params).lhs_batch.empty());
    if (e.prim == Prim::checkpoint_name && !names.empty()) {
      const std::string& n = e.params.get<std::string>("name");
      for (const std::string& s : names) save = save || s == n;
    }
    r.push_back(save);
  }
  return r;
}

// The function's equations emitted at `in`; the saved equations' results appended to `saved`.
std::vector<Atom> run_body(Emit& E, const ir::Graph& g, const std::vector<bool>& keep,
                           const std::vector<Atom>& in, std::vector<Atom>& saved) {
  std::vector<Atom> env(g.avals.size());
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    env[static_cast<std::size_t>(g.invars[i])] = in[i];
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const ir::Eqn& e = g.eqns[k];
    std::vector<Atom> ops;
    for (const Atom& a : e.in) ops.push_back(at(a));
    const std::vector<Atom> outs = E.b.emit(e.prim, ops, e.params);
    for (std::size_t j = 0; j < e.out.size(); ++j) {
      env[static_cast<std::size_t>(e.out[j])] = outs[j];
      if (keep[k]) saved.push_back(outs[j]);
    }
  }
  std::vector<Atom> r;
  for (const Atom& o : g.outvars) r.push_back(at(o));
  return r;
}

JvpResult remat_jvp(Emit& E, const JvpCall& c) {
  const ir::Graph body = remat_body(c.e);
  std::vector<bool> has;
  std::vector<Atom> ops = c.in;
  for (const MaybeAtom& t : c.t) {
    has.push_back(t.has_value());
    if (t) ops.push_back(*t);
  }
  const std::vector<Atom> r =
      E.b.emit(Prim::remat2, ops, with_graph(c.e.params, jvp_graph(body, has)));
  JvpResult out;
  const std::size_t n = body.outvars.size();
  for (std::size_t k = 0; k < n; ++k) {
    out.out.push_back(r[k]);
    out.t.push_back(differentiable(E.aval(r[k])) ? MaybeAtom(r[n + k]) : std::nullopt);
  }
  return out;
}

// JAX's forward pass runs the function's own equations (the known part of the remat); only
// the values the policy saves are kept for the backward pass.
Forward remat_forward(Emit& E, const ForwardCall& c) {
  const ir::Graph body = remat_body(c.e);
  Forward f;
  f.out = run_body(E, body, saved_equations(body, c.e.params), c.in, f.saved);
  return f;
}

// What marks a saved value in the body handed to reverse mode (a name no user can give),
// followed by the value's index among the saved ones.
const std::string kSavedMark = std::string("\x01saved ");

// The body with an identity (checkpoint_name[kSavedMark i]) after the i-th saved result, read
// in its place: in the body's VJP the marks' copies are where the forward values
// the policy saves are recomputed, and their transposes pass the cotangent on unchanged.
ir::Graph mark_saved(const ir::Graph& body, const std::vector<bool>& keep) {
  ir::Graph g;
  g.avals = body.avals;
  g.invars = body.invars;
  std::vector<ir::VarId> rename(body.avals.size());
  for (std::size_t v = 0; v < rename.size(); ++v) rename[v] = static_cast<ir::VarId>(v);
  auto at = [&](Atom a) {
    if (!a.is_literal()) a.var = rename[static_cast<std::size_t>(a.var)];
    return a;
  };
  std::size_t index = 0;
  for (std::size_t k = 0; k < body.eqns.size(); ++k) {
    ir::Eqn e = body.eqns[k];
    for (Atom& a : e.in) a = at(a);
    g.eqns.push_back(e);
    if (!keep[k]) continue;
    for (ir::VarId v : e.out) {
      const ir::VarId marked = g.new_var(g.aval(v));
      ir::Params p;
      p.items.push_back({"name", kSavedMark + std::to_string(index++), true});
      g.eqns.push_back({Prim::checkpoint_name, {Atom::of_var(v)}, {marked}, std::move(p)});
      rename[static_cast<std::size_t>(v)] = marked;
    }
  }
  for (const Atom& o : body.outvars) g.outvars.push_back(at(o));
  return g;
}

// The backward pass: one remat2 (differentiated=True) on the operands, the saved values and
// the results' cotangents, whose graph is the body's VJP with the marked (saved) values taken
// as inputs, so only the rest is recomputed where the cotangents arrive.
void remat_vjp(Emit& E, const VjpCall& c) {
  const ir::Graph body = remat_body(c.e);
  const std::vector<bool> keep = saved_equations(body, c.e.params);
  const ir::Graph marked = mark_saved(body, keep);
  std::vector<bool> wrt(marked.invars.size(), false);
  for (std::size_t i = 0; i < c.in.size(); ++i) wrt[i] = c.wanted[i];
  const ir::Graph v = vjp_graph(marked, wrt);
  const std::size_t nin = marked.invars.size(), nout = body.outvars.size();
  ir::Graph back;  // v with the marks' results as inputs, after the operands
  back.avals = v.avals;
  back.invars.assign(v.invars.begin(), v.invars.begin() + static_cast<std::ptrdiff_t>(nin));
  std::vector<std::size_t> used;  // which saved values v reads (the marks it kept)
  // A saved value's other readers (its equation's own residual, tanh's 1 - y, emitted before
  // the mark) read the input too, so the equation itself is not recomputed for them.
  std::vector<ir::VarId> same(v.avals.size(), -1);
  auto is_mark = [&](const ir::Eqn& e) {
    return e.prim == Prim::checkpoint_name &&
           e.params.get<std::string>("name").rfind(kSavedMark, 0) == 0;
  };
  for (const ir::Eqn& e : v.eqns) {
    if (!is_mark(e)) continue;
    back.invars.push_back(e.out[0]);
    used.push_back(std::stoul(e.params.get<std::string>("name").substr(kSavedMark.size())));
    if (!e.in[0].is_literal()) same[static_cast<std::size_t>(e.in[0].var)] = e.out[0];
  }
  for (const ir::Eqn& e : v.eqns) {
    if (is_mark(e)) continue;
    ir::Eqn n = e;
    for (Atom& a : n.in)
      if (!a.is_literal() && same[static_cast<std::size_t>(a.var)] >= 0)
        a.var = same[static_cast<std::size_t>(a.var)];
    back.eqns.push_back(std::move(n));
  }
  back.invars.insert(back.invars.end(), v.invars.begin() + static_cast<std::ptrdiff_t>(nin),
                     v.invars.end());
  back.outvars.assign(v.outvars.begin() + static_cast<std::ptrdiff_t>(nout), v.outvars.end());
  back = ir::dce(std::move(back));
  std::vector<Atom> ops = c.in;
  std::vector<Atom> recomputed;
  if (!c.saved || c.saved->empty()) {  // no forward rule ran (a linear pass): recompute here
    if (!used.empty()) (void)run_body(E, body, keep, c.in, recomputed);
  }
  const std::vector<Atom>& saved = c.saved && !c.saved->empty() ? *c.saved : recomputed;
  for (std::size_t i : used) ops.push_back(saved.at(i));
  for (std::size_t k = 0; k < nout; ++k) ops.push_back(E.or_zeros(c.ct[k], E.aval(c.out[k])));
  ir::Params p = with_graph(c.e.params, std::move(back));
  for (auto& item : p.items)
    if (item.name == "differentiated") item.value = true;
  const std::vector<Atom> r = E.b.emit(Prim::remat2, ops, std::move(p));
  std::size_t next = 0;
  for (std::size_t i = 0; i < c.in.size(); ++i)
    if (wrt[i]) c.add(i, r[next++]);
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_remat(Emit& E, const ir::Eqn& e,
                                                            std::vector<Atom> in,
                                                            const std::vector<bool>& bat,
                                                            std::int64_t n) {
  Batched bg = batch_graph(remat_body(e), bat, n);
  std::vector<Atom> outs =
      E.b.emit(Prim::remat2, std::move(in), with_graph(e.params, std::move(bg.graph)));
  return {std::move(outs), std::move(bg.out_batched)};
}

}  // namespace

void register_checkpoint_rules(ir::RuleTable& t) {
  t[Prim::remat2] = {ir::control_avals, remat_jvp, remat_vjp, some_batched<batch_remat>,
                     remat_forward};
}

}  // namespace fj::transforms
