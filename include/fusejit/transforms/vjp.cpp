// Reverse mode: the pass that copies a graph's equations (each by its primitive's forward rule,
// which keeps what its transpose reads) and then walks them backwards accumulating cotangents
// (each by its primitive's transpose rule, from the rules table, ir/prim_rules.hpp), and the
// split of a jit into its forward and backward parts.
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/sort_rules.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/transforms/vjp_parts.hpp"

namespace fj::transforms {

using vjp_detail::NotLinear;
using vjp_detail::residual_order;
using vjp_detail::tangent_marks;
using vjp_detail::TangentMarks;
using vjp_detail::vjp_impl;
using vjp_detail::VjpLayout;

namespace vjp_detail {

// Linear mode: which of v's forward equations a tangent (a wanted input) reaches, to be left
// out of the forward part; NotLinear if the backward part reads one of their values.
TangentMarks tangent_marks(const ir::Graph& v, std::size_t forward_eqns,
                           const std::vector<bool>& wrt) {
  TangentMarks t{std::vector<char>(v.eqns.size(), 0), std::vector<char>(v.avals.size(), 0)};
  for (std::size_t i = 0; i < wrt.size(); ++i)
    if (wrt[i]) t.values[static_cast<std::size_t>(v.invars[i])] = 1;
  for (std::size_t j = 0; j < v.eqns.size(); ++j) {
    const ir::Eqn& q = v.eqns[j];
    if (std::none_of(q.in.begin(), q.in.end(), [&](const Atom& a) {
          return !a.is_literal() && t.values[static_cast<std::size_t>(a.var)];
        }))
      continue;
    if (j >= forward_eqns) throw NotLinear{};
    t.eqns[j] = 1;
    for (ir::VarId o : q.out) t.values[static_cast<std::size_t>(o)] = 1;
  }
  return t;
}

// The forward values v's backward part reads (its residuals), in the order JAX's linearized
// program first reads them: by the equation of `sub` they serve, in sub's order; within an
// elementwise one, the reverse of the order its transpose reads them (JAX transposes the last
// linear term first). A literal the linearized program reads (a scalar select's zero) is a
// residual too: the forward part returns it and the backward part takes it, unread, as JAX's
// do.
std::vector<Atom> residual_order(const ir::Graph& sub, const ir::Graph& v, const VjpLayout& lay) {
  const std::size_t m = sub.invars.size(), n = sub.outvars.size();
  std::vector<char> known(v.avals.size(), 0);
  for (std::size_t i = 0; i < m; ++i) known[static_cast<std::size_t>(v.invars[i])] = 1;
  for (std::size_t k = 0; k < lay.forward_eqns; ++k)
    for (ir::VarId o : v.eqns[k].out) known[static_cast<std::size_t>(o)] = 1;
  std::map<std::size_t, std::vector<Atom>> reads;
  auto read = [&](std::size_t k, const Atom& a) {
    auto& r = reads[k];
    if (a.is_literal() ||
        (known[static_cast<std::size_t>(a.var)] &&
         std::none_of(r.begin(), r.end(), [&](const Atom& b) { return b.var == a.var; })))
      r.push_back(a);
  };
  for (std::size_t j = lay.forward_eqns; j < v.eqns.size(); ++j)
    for (const Atom& a : v.eqns[j].in)
      if (!a.is_literal()) read(lay.emitted_for[j - lay.forward_eqns], a);
  for (const auto& [k, r] : lay.ordered_reads) {
    reads[k].clear();
    for (const Atom& a : r) read(k, a);
  }
  for (auto& [k, r] : reads)
    if (!lay.ordered_reads.count(k) && k < sub.eqns.size() &&
        is_elementwise(ir::info(sub.eqns[k].prim).kind))
      std::reverse(r.begin(), r.end());
  for (const auto& [k, a] : lay.linear_reads) read(k, a);
  std::vector<Atom> res;
  std::vector<char> taken(v.avals.size(), 0);
  auto take = [&](const std::vector<Atom>& atoms) {
    for (const Atom& r : atoms)
      if (r.is_literal() || !taken[static_cast<std::size_t>(r.var)]) {
        if (!r.is_literal()) taken[static_cast<std::size_t>(r.var)] = 1;
        res.push_back(r);
      }
  };
  for (const auto& [k, r] : reads) take(r);
  // A cotangent that is a forward value as it is.
  for (std::size_t j = n; j < v.outvars.size(); ++j)
    if (!v.outvars[j].is_literal()) read(sub.eqns.size() + 1, v.outvars[j]);
  take(reads[sub.eqns.size() + 1]);

  return res;
}

}  // namespace vjp_detail

namespace {

// A jit equation in reverse mode, split as JAX's partial evaluation and transpose split it: a
// jit (same name) of the forward part, which returns the outputs and then the residuals, and a
// jit of the backward part, which takes the residuals and the outputs' cotangents and returns
// the cotangents of the wanted inputs. An output or residual that is one of the jit's operands,
// and a residual that is one of its outputs, is not returned again: the caller passes the
// value it already has (JAX's forwarding).
struct JitSplit {
  ir::GraphPtr known, backward;
  struct Source {
    bool operand;  // the jit's operand `index`, or the forward part's result `index`
    std::size_t index;
    bool unknown() const { return !operand && index == SIZE_MAX; }  // linear mode: a tangent's
  };
  std::vector<Source> outputs, residuals;
  std::vector<std::size_t> known_operands;  // the operands the forward part takes, in order
};

JitSplit split_jit_uncached(const ir::Graph& jaxpr, const std::vector<bool>& wrt,
                            const std::vector<bool>& has_ct, bool linear);

// The splits made during one reverse-mode pass (vjp_graph), by sub-graph and flags: the same
// jit split the same way twice shares its two parts, as JAX's cached partial evaluation and
// transpose share them (printed once, as `let _where = ...`). The sub-graphs outlive the pass.
// (Each entry holds its sub-graph, so that no other graph takes its address meanwhile.)
using SplitKey = std::tuple<const ir::Graph*, std::vector<bool>, std::vector<bool>, bool>;
thread_local std::map<SplitKey, std::pair<ir::GraphPtr, JitSplit>>* split_cache = nullptr;

JitSplit split_jit(const ir::GraphPtr& jaxpr, const std::vector<bool>& wrt,
                   const std::vector<bool>& has_ct, bool linear) {
  if (!split_cache) return split_jit_uncached(*jaxpr, wrt, has_ct, linear);
  const SplitKey key{jaxpr.get(), wrt, has_ct, linear};
  if (auto it = split_cache->find(key); it != split_cache->end()) return it->second.second;
  JitSplit s = split_jit_uncached(*jaxpr, wrt, has_ct, linear);
  split_cache->emplace(key, std::pair{jaxpr, s});
  return s;
}

JitSplit split_jit_uncached(const ir::Graph& jaxpr, const std::vector<bool>& wrt,
                            const std::vector<bool>& has_ct, bool linear) {
  const ir::Graph sub = expand_differentiated_scans(jaxpr, wrt);
  VjpLayout lay;
  const ir::Graph v = vjp_impl(sub, wrt, has_ct, &lay, linear);
  const std::size_t m = sub.invars.size(), n = sub.outvars.size();
  const std::vector<Atom> res = residual_order(sub, v, lay);
  // Linear mode: the forward part neither takes the tangents nor computes what they reach.
  const TangentMarks marks = linear ? tangent_marks(v, lay.forward_eqns, wrt)
                                    : TangentMarks{std::vector<char>(v.eqns.size(), 0),
                                                   std::vector<char>(v.avals.size(), 0)};
  const std::vector<char>& skip = marks.eqns;

  JitSplit s;
  ir::Graph known_g, back_g;
  known_g.avals = back_g.avals = v.avals;
  for (std::size_t j = 0; j < lay.forward_eqns; ++j)
    if (!skip[j]) known_g.eqns.push_back(v.eqns[j]);
  auto operand_of = [&](const Atom& a) {  // the jit's operand index; m: none
    return a.is_literal()
               ? m
               : static_cast<std::size_t>(
                     std::find(v.invars.begin(), v.invars.begin() + static_cast<std::ptrdiff_t>(m),
                               a.var) -
                     v.invars.begin());
  };
  auto is_tangent = [&](const Atom& a) {
    return !a.is_literal() && marks.values[static_cast<std::size_t>(a.var)];
  };
  auto returned = [&](const Atom& a) {
    known_g.outvars.push_back(a);
    return JitSplit::Source{false, known_g.outvars.size() - 1};
  };
  for (std::size_t j = 0; j < n; ++j) {
    const Atom& o = v.outvars[j];
    const std::size_t i = operand_of(o);
    s.outputs.push_back(i < m           ? JitSplit::Source{true, i}
                        : is_tangent(o) ? JitSplit::Source{false, SIZE_MAX}
                                        : returned(o));
  }
  for (const Atom& a : res) {
    const std::size_t i = operand_of(a);
    if (is_tangent(a)) throw NotLinear{};
    const auto out_at = std::find_if(
        v.outvars.begin(), v.outvars.begin() + static_cast<std::ptrdiff_t>(n),
        [&](const Atom& o) { return !a.is_literal() && !o.is_literal() && o.var == a.var; });
    s.residuals.push_back(i < m ? JitSplit::Source{true, i}
                          : out_at != v.outvars.begin() + static_cast<std::ptrdiff_t>(n)
                              ? s.outputs[static_cast<std::size_t>(out_at - v.outvars.begin())]
                              : returned(a));
  }
  for (const Atom& a : res)
    back_g.invars.push_back(a.is_literal() ? back_g.new_var(v.aval(a)) : a.var);
  back_g.invars.insert(back_g.invars.end(), v.invars.begin() + static_cast<std::ptrdiff_t>(m),
                       v.invars.end());
  back_g.eqns.assign(v.eqns.begin() + static_cast<std::ptrdiff_t>(lay.forward_eqns), v.eqns.end());
  back_g.outvars.assign(v.outvars.begin() + static_cast<std::ptrdiff_t>(n), v.outvars.end());
  // The forward part's operands: all but the tangents; in linear mode only those it reads, as
  // JAX's partial evaluation prunes them.
  std::vector<char> read(v.avals.size(), 0);
  for (const ir::Eqn& q : known_g.eqns)
    for (const Atom& a : q.in)
      if (!a.is_literal()) read[static_cast<std::size_t>(a.var)] = 1;
  for (const Atom& a : known_g.outvars)
    if (!a.is_literal()) read[static_cast<std::size_t>(a.var)] = 1;
  for (std::size_t i = 0; i < m; ++i)
    if (!linear || (!wrt[i] && read[static_cast<std::size_t>(v.invars[i])])) {
      known_g.invars.push_back(v.invars[i]);
      s.known_operands.push_back(i);
    }
  s.known = std::make_shared<const ir::Graph>(std::move(known_g));
  s.backward = std::make_shared<const ir::Graph>(std::move(back_g));
  return s;
}

// Which of e's results have a tangent, given which operands have one (`in`): JAX's symbolic
// zeros. stop_gradient's result has none; a jit's results, as its graph's; a custom call whose
// rule computes its results, as the rule's tangents (slogdet's sign: zeros_like, so none);
// otherwise every result has one if any operand has.
std::vector<bool> nonzero_outputs(const ir::Graph& g, const ir::Eqn& e,
                                  const std::vector<bool>& in);

// The outputs of g that have a tangent when the inputs `in` have.
std::vector<bool> nonzero_tangents(const ir::Graph& g, const std::vector<bool>& in) {
  std::vector<bool> nz(g.avals.size(), false);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    nz[static_cast<std::size_t>(g.invars[i])] = in[i];
  auto has = [&](const Atom& a) { return !a.is_literal() && nz[static_cast<std::size_t>(a.var)]; };
  for (const ir::Eqn& e : g.eqns) {
    std::vector<bool> flags;
    for (const Atom& a : e.in) flags.push_back(has(a));
    const std::vector<bool> out = nonzero_outputs(g, e, flags);
    for (std::size_t j = 0; j < e.out.size(); ++j) nz[static_cast<std::size_t>(e.out[j])] = out[j];
  }
  std::vector<bool> r;
  for (const Atom& o : g.outvars) r.push_back(has(o));
  return r;
}

std::vector<bool> nonzero_outputs(const ir::Graph& g, const ir::Eqn& e,
                                  const std::vector<bool>& in) {
  const bool any = std::any_of(in.begin(), in.end(), [](bool b) { return b; });
  if (!any || e.prim == Prim::stop_gradient) return std::vector<bool>(e.out.size(), false);
  if (e.prim == Prim::jit) return nonzero_tangents(*e.params.get<ir::GraphPtr>("jaxpr"), in);
  if (e.prim == Prim::custom_jvp_call) {
    std::vector<Aval> in_avals, out_avals;
    for (const Atom& a : e.in) in_avals.push_back(g.aval(a));
    for (ir::VarId o : e.out) out_avals.push_back(g.aval(Atom::of_var(o)));
    if (const std::optional<ir::Graph> rule = custom_call_jvp_graph(e, in_avals, out_avals)) {
      std::vector<bool> flags(in.size(), false);
      flags.insert(flags.end(), in.begin(), in.end());
      const std::vector<bool> both = nonzero_tangents(*rule, flags);
      return std::vector<bool>(both.begin() + static_cast<std::ptrdiff_t>(e.out.size()),
                               both.end());
    }
  }
  return std::vector<bool>(e.out.size(), true);
}

}  // namespace

namespace vjp_detail {

ir::Graph vjp_impl(const ir::Graph& g, const std::vector<bool>& wrt,
                   const std::vector<bool>& has_ct, VjpLayout* layout, bool linear) {
  GraphBuilder b;
  Emit E(b);
  std::vector<Atom> env(g.avals.size());
  std::vector<MaybeAtom> ct(g.avals.size());
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  // A value whose tangent is its operand's own (x + c, x - c: JAX's add and sub JVPs return
  // xdot itself) passes its cotangent straight to that operand, as JAX's transpose sees one
  // variable: so the operand's cotangents are summed in JAX's order.
  std::vector<ir::VarId> alias(g.avals.size(), ir::VarId{-1});
  auto accumulate = [&](ir::VarId v, Atom c) {
    while (alias[static_cast<std::size_t>(v)] >= 0) v = alias[static_cast<std::size_t>(v)];
    auto& slot = ct[static_cast<std::size_t>(v)];
    slot = slot ? E.add_any(*slot, c) : c;
  };
  // Which values depend on a wanted input: cotangents flow only along those.
  std::vector<bool> depends(g.avals.size(), false);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    depends[static_cast<std::size_t>(g.invars[i])] = wrt[i];
  auto dep = [&](const Atom& a) {
    return !a.is_literal() && depends[static_cast<std::size_t>(a.var)];
  };
  // A value a cotangent flows back through: depends on a wanted input, and is a float.
  auto carries = [&](const Atom& a) { return dep(a) && differentiable(g.aval(a)); };
  for (const ir::Eqn& e : g.eqns) {
    std::vector<bool> in_dep;
    for (const Atom& a : e.in) in_dep.push_back(dep(a));
    const std::vector<bool> out_dep = nonzero_outputs(g, e, in_dep);
    for (std::size_t j = 0; j < e.out.size(); ++j)
      depends[static_cast<std::size_t>(e.out[j])] = out_dep[j];
  }
  // Which values a cotangent may reach (more than do: a rule may still give none); a jit's
  // backward part takes a cotangent for each of its outputs that may get one.
  std::vector<bool> reached(g.avals.size(), false);
  for (std::size_t j = 0; j < g.outvars.size(); ++j)
    if (has_ct[j] && dep(g.outvars[j])) reached[static_cast<std::size_t>(g.outvars[j].var)] = true;
  for (std::size_t k = g.eqns.size(); k-- > 0;) {
    const ir::Eqn& e = g.eqns[k];
    if (std::none_of(e.out.begin(), e.out.end(),
                     [&](ir::VarId o) { return reached[static_cast<std::size_t>(o)]; }))
      continue;
    for (const Atom& a : e.in)
      if (dep(a)) reached[static_cast<std::size_t>(a.var)] = true;
  }
  for (const ir::Eqn& e : g.eqns) {
    if (e.prim != Prim::add && e.prim != Prim::sub) continue;
    const bool x = carries(e.in[0]), y = carries(e.in[1]);
    const ir::VarId from =
        x && !y ? e.in[0].var : (y && !x && e.prim == Prim::add ? e.in[1].var : -1);
    if (from >= 0 && g.aval(Atom::of_var(from)).shape == g.aval(Atom::of_var(e.out[0])).shape)
      alias[static_cast<std::size_t>(e.out[0])] = from;
  }
  for (ir::VarId v : g.invars)
    env[static_cast<std::size_t>(v)] = Atom::of_var(b.add_invar(g.aval(v)));
  std::vector<std::vector<Atom>> ins(g.eqns.size()), outs(g.eqns.size());
  // A unary elementwise equation's derivative (tanh: 1 - y) is computed in the forward pass,
  // right after the equation, where JAX's linearization leaves its residuals.
  std::vector<Residuals> residual(g.eqns.size());
  std::vector<std::vector<Atom>> saved(g.eqns.size());
  // A jit whose cotangents may flow: split in two (split_jit), its residuals' atoms.
  std::vector<std::optional<JitSplit>> jits(g.eqns.size());
  std::vector<std::vector<Atom>> jit_residuals(g.eqns.size());
  std::vector<std::vector<bool>> jit_has_ct(g.eqns.size());
  // A custom call whose rule computes its results: linearized from its rule.
  std::vector<std::optional<LinearizedCall>> calls(g.eqns.size());
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const ir::Eqn& e = g.eqns[k];
    for (auto& a : e.in) ins[k].push_back(at(a));
    const bool reaches = std::any_of(e.out.begin(), e.out.end(), [&](ir::VarId o) {
      return reached[static_cast<std::size_t>(o)];
    });
    const bool split = e.prim == Prim::jit && reaches;
    if (e.prim == Prim::custom_jvp_call && reaches && !linear) {
      std::vector<bool> sub_wrt, sub_ct;
      for (const Atom& a : e.in) sub_wrt.push_back(carries(a));
      for (ir::VarId o : e.out)
        sub_ct.push_back(reached[static_cast<std::size_t>(o)] && differentiable(g.aval(o)));
      calls[k] = linearize_call(E, g, e, ins[k], sub_wrt, sub_ct);
    }
    if (calls[k]) {
      outs[k] = calls[k]->results;
      if (layout) layout->ordered_reads[k] = calls[k]->residuals;
    } else if (split) {
      std::vector<bool> sub_wrt, sub_ct;
      for (const Atom& a : e.in) sub_wrt.push_back(carries(a));
      for (ir::VarId o : e.out)
        sub_ct.push_back(reached[static_cast<std::size_t>(o)] && differentiable(g.aval(o)));
      JitSplit sp = split_jit(e.params.get<ir::GraphPtr>("jaxpr"), sub_wrt, sub_ct, linear);
      std::vector<Atom> known_ops;
      for (std::size_t i : sp.known_operands) known_ops.push_back(ins[k][i]);
      // The forward part keeps the closed-over values inside when it keeps them all in front.
      bool consts_lead =
          sp.known_operands.size() >= static_cast<std::size_t>(ir::closed_consts(e.params));
      for (std::int64_t i = 0; consts_lead && i < ir::closed_consts(e.params); ++i)
        consts_lead = sp.known_operands[static_cast<std::size_t>(i)] == static_cast<std::size_t>(i);
      // (A forward part with no results, in linear mode, is left out, as JAX drops it.)
      const std::vector<Atom> r =
          linear && sp.known->outvars.empty()
              ? std::vector<Atom>{}
              : b.emit(Prim::jit, known_ops, with_graph(e.params, sp.known, consts_lead));
      // Linear mode: the outputs a tangent reaches come from the whole call, which the caller
      // leaves out of the forward part (tangent_marks).
      std::vector<Atom> whole;
      auto value = [&](const JitSplit::Source& src) {
        return src.operand ? ins[k][src.index] : r[src.index];
      };
      for (std::size_t j = 0; j < sp.outputs.size(); ++j) {
        if (sp.outputs[j].unknown() && whole.empty()) whole = b.emit(Prim::jit, ins[k], e.params);
        outs[k].push_back(sp.outputs[j].unknown() ? whole[j] : value(sp.outputs[j]));
      }
      for (const JitSplit::Source& src : sp.residuals) jit_residuals[k].push_back(value(src));
      jits[k] = std::move(sp);
      jit_has_ct[k] = std::move(sub_ct);
    } else if (const ir::ForwardRule forward = ir::rules(e.prim).forward) {
      std::vector<bool> carrying;
      for (const Atom& a : e.in) carrying.push_back(carries(a));
      Forward f = forward(E, ForwardCall{e, ins[k], carrying, linear, layout != nullptr});
      outs[k] = std::move(f.out);
      residual[k] = f.residual;
      saved[k] = std::move(f.saved);
      if (layout)
        for (const Atom& r : f.reads) layout->linear_reads.push_back({k, r});
    } else {
      outs[k] = b.emit(e.prim, ins[k], e.params);
    }
    for (std::size_t j = 0; j < e.out.size(); ++j)
      env[static_cast<std::size_t>(e.out[j])] = outs[k][j];
  }
  if (layout) layout->forward_eqns = b.graph.eqns.size();
  auto attribute = [&](std::size_t k) {
    if (layout) layout->emitted_for.resize(b.graph.eqns.size() - layout->forward_eqns, k);
  };
  for (std::size_t j = 0; j < g.outvars.size(); ++j) {
    if (!has_ct[j]) continue;
    const Atom& o = g.outvars[j];
    const Atom c = Atom::of_var(b.add_invar(g.aval(o)));
    if (dep(o) && differentiable(g.aval(o))) accumulate(o.var, c);
  }
  for (std::size_t k = g.eqns.size(); k-- > 0;) {
    const ir::Eqn& e = g.eqns[k];
    std::vector<MaybeAtom> cts;
    bool any = false;
    for (ir::VarId v : e.out) {
      cts.push_back(ct[static_cast<std::size_t>(v)]);
      any = any || cts.back().has_value();
    }
    if (!any) continue;
    if (jits[k]) {
      // The backward part: the residuals, then a cotangent (zeros if none came) per output
      // that may get one; it returns the wanted inputs' cotangents in order.
      std::vector<Atom> ops = jit_residuals[k];
      for (std::size_t j = 0; j < e.out.size(); ++j)
        if (jit_has_ct[k][j]) ops.push_back(E.or_zeros(cts[j], g.aval(e.out[j])));
      const std::vector<Atom> r = b.emit(Prim::jit, ops, with_graph(e.params, jits[k]->backward));
      std::size_t next = 0;
      for (const Atom& a : e.in)
        if (carries(a)) accumulate(a.var, r[next++]);
      attribute(k);
      continue;
    }
    if (calls[k]) {
      std::vector<Aval> avals;
      for (ir::VarId o : e.out) avals.push_back(g.aval(Atom::of_var(o)));
      const std::vector<MaybeAtom> r = transpose_call(E, *calls[k], cts, avals);
      for (std::size_t i = 0; i < e.in.size(); ++i)
        if (r[i] && !e.in[i].is_literal()) accumulate(e.in[i].var, *r[i]);
      attribute(k);
      continue;
    }
    std::vector<bool> needed;
    for (auto& a : e.in) needed.push_back(dep(a));
    std::vector<bool> wanted;
    for (std::size_t i = 0; i < e.in.size(); ++i)
      wanted.push_back(needed[i] && !e.in[i].is_literal() && differentiable(g.aval(e.in[i])));
    const ir::VjpRule rule = ir::rules(e.prim).vjp;
    const ir::PrimInfo& pi = ir::info(e.prim);
    // Without a rule, a primitive not marked differentiable passes no cotangent back.
    if (!rule && ((pi.flags & ir::prim_flags::D) || pi.kind == ir::PrimKind::control))
      throw ValueError("fj::grad: no reverse-mode rule for " + std::string(pi.name));
    auto add = [&](std::size_t i, Atom term) {
      if (!e.in[i].is_literal()) accumulate(e.in[i].var, term);
    };
    if (rule)
      rule(E, VjpCall{e, ins[k], outs[k], cts, needed, wanted, residual[k], add, &saved[k]});
    attribute(k);
  }
  for (auto& o : g.outvars) b.graph.outvars.push_back(at(o));
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    if (wrt[i])
      b.graph.outvars.push_back(
          E.or_zeros(ct[static_cast<std::size_t>(g.invars[i])], g.aval(g.invars[i])));
  attribute(g.eqns.size());
  return std::move(b.graph);
}

}  // namespace vjp_detail

ir::Graph vjp_graph(const ir::Graph& g, const std::vector<bool>& wrt) {
  std::map<SplitKey, std::pair<ir::GraphPtr, JitSplit>> cache;  // the outermost pass's
  const bool outermost = split_cache == nullptr;
  if (outermost) split_cache = &cache;
  struct Reset {
    bool on;
    ~Reset() {
      if (on) split_cache = nullptr;
    }
  } reset{outermost};
  return vjp_impl(expand_differentiated_scans(g, wrt), wrt,
                  std::vector<bool>(g.outvars.size(), true), nullptr);
}

}  // namespace fj::transforms
