// The transformation rules of lax's control flow (cond, while, scan): each transforms the
// sub-graphs with the same passes and re-emits the equation around them (impl. unit only).
#include <numeric>

#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

using GraphPtr = ir::GraphPtr;

GraphPtr share(ir::Graph g) { return std::make_shared<const ir::Graph>(std::move(g)); }

/// A sub-graph ready for the passes: jit equations inlined (it has no constvars: closed).
ir::Graph flat_sub(const GraphPtr& g) { return flatten(*g); }

std::vector<Aval> invar_avals(const ir::Graph& g) {
  std::vector<Aval> r;
  for (auto v : g.invars) r.push_back(g.aval(v));
  return r;
}
std::vector<Aval> outvar_avals(const ir::Graph& g) {
  std::vector<Aval> r;
  for (auto& o : g.outvars) r.push_back(g.aval(o));
  return r;
}

/// A graph taking `avals` that binds them as `order[i]`-th argument of g (or drops them when
/// order[i] < 0) and returns the outputs of g listed in `keep`.
ir::Graph rewire(const ir::Graph& g, const std::vector<Aval>& avals, const std::vector<int>& order,
                 const std::vector<int>& keep) {
  GraphBuilder b;
  std::vector<Atom> args(g.invars.size());
  for (std::size_t i = 0; i < avals.size(); ++i) {
    const Atom a = Atom::of_var(b.add_invar(avals[i]));
    if (order[i] >= 0) args[static_cast<std::size_t>(order[i])] = a;
  }
  auto outs = ir::detail::inline_into(b.graph, g, args, false);
  for (int k : keep) b.graph.outvars.push_back(outs[static_cast<std::size_t>(k)]);
  return std::move(b.graph);
}

/// Calls graph g on args in the builder (its equations appended) and returns its outputs.
std::vector<Atom> inline_call(Emit& E, const ir::Graph& g, const std::vector<Atom>& args) {
  return ir::detail::inline_into(E.b.graph, g, args, false);
}

ir::Params with(const ir::Params& p, const std::string& name, ir::ParamValue v) {
  ir::Params r = p;
  for (auto& item : r.items)
    if (item.name == name) {
      item.value = std::move(v);
      return r;
    }
  r.items.push_back({name, std::move(v), true});
  return r;
}

std::vector<Atom> slice_atoms(const std::vector<Atom>& v, std::size_t lo, std::size_t n) {
  return {v.begin() + static_cast<std::ptrdiff_t>(lo),
          v.begin() + static_cast<std::ptrdiff_t>(lo + n)};
}

// ---- cond ------------------------------------------------------------------------------------

std::vector<MaybeAtom> jvp_cond(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                const std::vector<MaybeAtom>& t) {
  const std::size_t n = in.size() - 1;
  std::vector<bool> mask(n);
  std::vector<Atom> ops(in.begin(), in.end());
  for (std::size_t i = 0; i < n; ++i) {
    mask[i] = t[i + 1].has_value();
    if (mask[i]) ops.push_back(*t[i + 1]);
  }
  std::vector<GraphPtr> branches;
  std::size_t nout = 0;
  for (auto& br : e.params.get<std::vector<GraphPtr>>("branches")) {
    const ir::Graph f = flat_sub(br);
    nout = f.outvars.size();
    branches.push_back(share(jvp_graph(f, mask)));
  }
  auto outs = E.b.emit(Prim::cond, ops, with(e.params, "branches", branches));
  std::vector<MaybeAtom> r;
  for (std::size_t k = 0; k < nout; ++k) {
    const Atom tk = outs[nout + k];
    if (differentiable(E.aval(tk)))
      r.push_back(tk);
    else
      r.push_back(std::nullopt);
  }
  return r;
}

std::vector<MaybeAtom> vjp_cond(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                const std::vector<Atom>& outs, const std::vector<MaybeAtom>& cts,
                                const std::vector<bool>& needed) {
  const std::size_t n = in.size() - 1;
  std::vector<bool> wrt(n);
  for (std::size_t i = 0; i < n; ++i) wrt[i] = needed[i + 1] && differentiable(E.aval(in[i + 1]));
  std::vector<Atom> ops(in.begin(), in.end());
  for (std::size_t k = 0; k < outs.size(); ++k) ops.push_back(E.or_zeros(cts[k], E.aval(outs[k])));
  std::vector<GraphPtr> branches;
  for (auto& br : e.params.get<std::vector<GraphPtr>>("branches"))
    branches.push_back(share(vjp_graph(flat_sub(br), wrt)));
  auto res = E.b.emit(Prim::cond, ops, with(e.params, "branches", branches));
  std::vector<MaybeAtom> r(in.size());
  std::size_t j = outs.size();
  for (std::size_t i = 0; i < n; ++i)
    if (wrt[i]) r[i + 1] = res[j++];
  return r;
}

// ---- while -----------------------------------------------------------------------------------

struct WhileParts {
  std::size_t nc, nb, nk;  // cond consts, body consts, carries
};
WhileParts while_parts(const ir::Eqn& e, std::size_t n_in) {
  const auto nc = static_cast<std::size_t>(e.params.get<std::int64_t>("cond_nconsts"));
  const auto nb = static_cast<std::size_t>(e.params.get<std::int64_t>("body_nconsts"));
  return {nc, nb, n_in - nc - nb};
}

std::vector<MaybeAtom> jvp_while(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& t) {
  const auto [nc, nb, nk] = while_parts(e, in.size());
  const ir::Graph body = flat_sub(e.params.get<GraphPtr>("body_jaxpr"));
  const ir::Graph cond = flat_sub(e.params.get<GraphPtr>("cond_jaxpr"));
  // Tangents for body consts that have one and for every float carry (a carry's tangent may
  // become non-zero after any iteration, so the set must not depend on the first).
  std::vector<bool> mask(nb + nk);
  std::vector<int> tb, tk;  // which body consts / carries get tangents
  for (std::size_t i = 0; i < nb; ++i)
    if ((mask[i] = t[nc + i].has_value())) tb.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < nk; ++i)
    if ((mask[nb + i] = differentiable(E.aval(in[nc + nb + i])))) tk.push_back(static_cast<int>(i));
  const ir::Graph jb =
      jvp_graph(body, mask);  // (consts, carry, t_consts, t_carry) -> (carry, t_all)
  // New body: (consts, t_consts, carry, t_carry) -> (carry, t_carry).
  std::vector<Aval> avals;
  std::vector<int> order;
  const auto jin = invar_avals(jb);
  for (std::size_t i = 0; i < nb; ++i)
    avals.push_back(jin[i]), order.push_back(static_cast<int>(i));
  for (std::size_t j = 0; j < tb.size(); ++j)
    avals.push_back(jin[nb + nk + j]), order.push_back(static_cast<int>(nb + nk + j));
  for (std::size_t i = 0; i < nk; ++i)
    avals.push_back(jin[nb + i]), order.push_back(static_cast<int>(nb + i));
  for (std::size_t j = 0; j < tk.size(); ++j)
    avals.push_back(jin[nb + nk + tb.size() + j]),
        order.push_back(static_cast<int>(nb + nk + tb.size() + j));
  std::vector<int> keep(nk);
  std::iota(keep.begin(), keep.end(), 0);
  for (int k : tk) keep.push_back(static_cast<int>(nk) + k);
  const ir::Graph new_body = rewire(jb, avals, order, keep);
  // New cond: (cond consts, carry, t_carry) -> pred; the tangents are ignored.
  std::vector<Aval> cavals = invar_avals(cond);
  std::vector<int> corder(cavals.size());
  std::iota(corder.begin(), corder.end(), 0);
  for (int k : tk)
    cavals.push_back(E.aval(in[nc + nb + static_cast<std::size_t>(k)])), corder.push_back(-1);
  const ir::Graph new_cond = rewire(cond, cavals, corder, {0});
  std::vector<Atom> ops = slice_atoms(in, 0, nc + nb);
  for (int j : tb) ops.push_back(*t[nc + static_cast<std::size_t>(j)]);
  // Reorder: cond consts, body consts, body-const tangents, carries, carry tangents.
  for (std::size_t i = 0; i < nk; ++i) ops.push_back(in[nc + nb + i]);
  for (int k : tk) {
    const std::size_t i = nc + nb + static_cast<std::size_t>(k);
    ops.push_back(E.or_zeros(t[i], E.aval(in[i])));
  }
  ir::Params p = with(e.params, "body_jaxpr", share(new_body));
  p = with(p, "cond_jaxpr", share(new_cond));
  p = with(p, "body_nconsts", static_cast<std::int64_t>(nb + tb.size()));
  auto outs = E.b.emit(Prim::while_, ops, p);
  std::vector<MaybeAtom> r(nk);
  for (std::size_t j = 0; j < tk.size(); ++j) r[static_cast<std::size_t>(tk[j])] = outs[nk + j];
  return r;
}

// ---- scan ------------------------------------------------------------------------------------

struct ScanParts {
  std::size_t nc, nk, nx;  // consts, carries, xs
};
ScanParts scan_parts(const ir::Eqn& e, std::size_t n_in) {
  const auto nc = static_cast<std::size_t>(e.params.get<std::int64_t>("num_consts"));
  const auto nk = static_cast<std::size_t>(e.params.get<std::int64_t>("num_carry"));
  return {nc, nk, n_in - nc - nk};
}

std::vector<MaybeAtom> jvp_scan(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                const std::vector<MaybeAtom>& t, std::size_t n_out) {
  const auto [nc, nk, nx] = scan_parts(e, in.size());
  const ir::Graph body = flat_sub(e.params.get<GraphPtr>("jaxpr"));
  const std::size_t ny = n_out - nk;
  std::vector<bool> mask(nc + nk + nx);
  std::vector<int> tc, tk, tx;
  for (std::size_t i = 0; i < nc; ++i)
    if ((mask[i] = t[i].has_value())) tc.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < nk; ++i)
    if ((mask[nc + i] = differentiable(E.aval(in[nc + i])))) tk.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < nx; ++i)
    if ((mask[nc + nk + i] = t[nc + nk + i].has_value())) tx.push_back(static_cast<int>(i));
  const ir::Graph jb = jvp_graph(body, mask);
  // jb: (consts, carry, x, t_consts, t_carry, t_x) -> (carry, y, t_carry_all, t_y_all).
  // New body: (consts, t_consts, carry, t_carry, x, t_x) -> (carry, t_carry, y, t_y float).
  const auto jin = invar_avals(jb);
  const std::size_t base = nc + nk + nx;
  std::vector<Aval> avals;
  std::vector<int> order;
  auto take = [&](std::size_t idx) {
    avals.push_back(jin[idx]), order.push_back(static_cast<int>(idx));
  };
  for (std::size_t i = 0; i < nc; ++i) take(i);
  for (std::size_t j = 0; j < tc.size(); ++j) take(base + j);
  for (std::size_t i = 0; i < nk; ++i) take(nc + i);
  for (std::size_t j = 0; j < tk.size(); ++j) take(base + tc.size() + j);
  for (std::size_t i = 0; i < nx; ++i) take(nc + nk + i);
  for (std::size_t j = 0; j < tx.size(); ++j) take(base + tc.size() + tk.size() + j);
  const auto jout = outvar_avals(jb);
  std::vector<int> keep;
  for (std::size_t i = 0; i < nk; ++i) keep.push_back(static_cast<int>(i));
  for (int k : tk) keep.push_back(static_cast<int>(nk + ny) + k);
  std::vector<int> ty;
  for (std::size_t i = 0; i < ny; ++i) keep.push_back(static_cast<int>(nk + i));
  for (std::size_t i = 0; i < ny; ++i)
    if (differentiable(jout[nk + i]))
      ty.push_back(static_cast<int>(i)), keep.push_back(static_cast<int>(2 * nk + ny + i));
  const ir::Graph new_body = rewire(jb, avals, order, keep);
  std::vector<Atom> ops;
  for (std::size_t i = 0; i < nc; ++i) ops.push_back(in[i]);
  for (int j : tc) ops.push_back(*t[static_cast<std::size_t>(j)]);
  for (std::size_t i = 0; i < nk; ++i) ops.push_back(in[nc + i]);
  for (int k : tk) {
    const std::size_t i = nc + static_cast<std::size_t>(k);
    ops.push_back(E.or_zeros(t[i], E.aval(in[i])));
  }
  for (std::size_t i = 0; i < nx; ++i) ops.push_back(in[nc + nk + i]);
  for (int j : tx) ops.push_back(*t[nc + nk + static_cast<std::size_t>(j)]);
  ir::Params p = with(e.params, "jaxpr", share(new_body));
  p = with(p, "num_consts", static_cast<std::int64_t>(nc + tc.size()));
  p = with(p, "num_carry", static_cast<std::int64_t>(nk + tk.size()));
  auto outs = E.b.emit(Prim::scan, ops, p);
  std::vector<MaybeAtom> r(n_out);
  for (std::size_t j = 0; j < tk.size(); ++j) r[static_cast<std::size_t>(tk[j])] = outs[nk + j];
  const std::size_t y0 = nk + tk.size() + ny;
  for (std::size_t j = 0; j < ty.size(); ++j)
    r[nk + static_cast<std::size_t>(ty[j])] = outs[y0 + j];
  return r;
}

/// Reverse mode through scan: a forward scan that also stacks each iteration's carry, then a
/// scan in the opposite direction whose body is the body's VJP, carrying the carry's cotangent
/// and accumulating the consts' cotangents.
std::vector<MaybeAtom> vjp_scan(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                const std::vector<Atom>& outs, const std::vector<MaybeAtom>& cts,
                                const std::vector<bool>& needed) {
  const auto [nc, nk, nx] = scan_parts(e, in.size());
  const std::size_t ny = outs.size() - nk;
  const bool reverse = e.params.get<bool>("reverse");
  const ir::Graph body = flat_sub(e.params.get<GraphPtr>("jaxpr"));
  const auto bin = invar_avals(body), bout = outvar_avals(body);

  // 1. Forward, with the carry entering each iteration stacked as extra ys.
  GraphBuilder fb;
  {
    std::vector<Atom> args;
    for (auto& a : bin) args.push_back(Atom::of_var(fb.add_invar(a)));
    fb.graph.outvars = ir::detail::inline_into(fb.graph, body, args, false);
    for (std::size_t i = 0; i < nk; ++i) fb.graph.outvars.push_back(args[nc + i]);
  }
  ir::Params fp = with(e.params, "jaxpr", share(std::move(fb.graph)));
  const auto fwd = E.b.emit(Prim::scan, in, fp);
  const std::vector<Atom> carry_stack = slice_atoms(fwd, nk + ny, nk);

  // 2. Which cotangents are wanted: float consts and xs that lead to a wanted input, and every
  //    float carry (its cotangent flows from iteration to iteration).
  std::vector<bool> wrt(nc + nk + nx, false);
  std::vector<int> wc, wk, wx;
  for (std::size_t i = 0; i < nc; ++i)
    if ((wrt[i] = needed[i] && differentiable(bin[i]))) wc.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < nk; ++i)
    if ((wrt[nc + i] = differentiable(bin[nc + i]))) wk.push_back(static_cast<int>(i));
  for (std::size_t i = 0; i < nx; ++i)
    if ((wrt[nc + nk + i] = needed[nc + nk + i] && differentiable(bin[nc + nk + i])))
      wx.push_back(static_cast<int>(i));
  const ir::Graph vb = vjp_graph(body, wrt);
  // vb: (consts, carry, x, ct_carry_out, ct_y) -> (carry_out, y, ct_wc, ct_wk, ct_wx).

  // 3. The backward body: consts; carry (acc_wc, ct_wk); xs (carry_res, x, ct_y float).
  std::vector<int> fy;  // float ys
  for (std::size_t i = 0; i < ny; ++i)
    if (differentiable(bout[nk + i])) fy.push_back(static_cast<int>(i));
  GraphBuilder bb;
  Emit B(bb);
  std::vector<Atom> consts, acc, ctk, res, xs, cty;
  for (std::size_t i = 0; i < nc; ++i) consts.push_back(Atom::of_var(bb.add_invar(bin[i])));
  for (int i : wc) acc.push_back(Atom::of_var(bb.add_invar(bin[static_cast<std::size_t>(i)])));
  for (int i : wk) ctk.push_back(Atom::of_var(bb.add_invar(bin[nc + static_cast<std::size_t>(i)])));
  for (std::size_t i = 0; i < nk; ++i) res.push_back(Atom::of_var(bb.add_invar(bin[nc + i])));
  for (std::size_t i = 0; i < nx; ++i) xs.push_back(Atom::of_var(bb.add_invar(bin[nc + nk + i])));
  for (int i : fy)
    cty.push_back(Atom::of_var(bb.add_invar(bout[nk + static_cast<std::size_t>(i)])));
  {
    std::vector<Atom> args = consts;
    args.insert(args.end(), res.begin(), res.end());
    args.insert(args.end(), xs.begin(), xs.end());
    std::size_t j = 0;
    for (std::size_t i = 0; i < nk; ++i)
      args.push_back(j < wk.size() && wk[j] == static_cast<int>(i) ? ctk[j++] : B.zeros(bout[i]));
    j = 0;
    for (std::size_t i = 0; i < ny; ++i)
      args.push_back(j < fy.size() && fy[j] == static_cast<int>(i) ? cty[j++]
                                                                   : B.zeros(bout[nk + i]));
    const auto r = ir::detail::inline_into(bb.graph, vb, args, false);
    const std::size_t o = nk + ny;
    for (std::size_t j2 = 0; j2 < wc.size(); ++j2)
      bb.graph.outvars.push_back(B.add(acc[j2], r[o + j2]));
    for (std::size_t j2 = 0; j2 < wk.size(); ++j2)
      bb.graph.outvars.push_back(r[o + wc.size() + j2]);
    for (std::size_t j2 = 0; j2 < wx.size(); ++j2)
      bb.graph.outvars.push_back(r[o + wc.size() + wk.size() + j2]);
  }
  // 4. The backward scan, in the other direction.
  std::vector<Atom> ops = slice_atoms(in, 0, nc);
  for (int i : wc) ops.push_back(E.zeros(bin[static_cast<std::size_t>(i)]));
  for (int i : wk)
    ops.push_back(
        E.or_zeros(cts[static_cast<std::size_t>(i)], bin[nc + static_cast<std::size_t>(i)]));
  ops.insert(ops.end(), carry_stack.begin(), carry_stack.end());
  for (std::size_t i = 0; i < nx; ++i) ops.push_back(in[nc + nk + i]);
  for (int i : fy)
    ops.push_back(E.or_zeros(cts[nk + static_cast<std::size_t>(i)],
                             E.aval(outs[nk + static_cast<std::size_t>(i)])));
  ir::Params bp = with(e.params, "jaxpr", share(std::move(bb.graph)));
  bp = with(bp, "num_carry", static_cast<std::int64_t>(wc.size() + wk.size()));
  bp = with(bp, "reverse", !reverse);
  const auto back = E.b.emit(Prim::scan, ops, bp);
  std::vector<MaybeAtom> r(in.size());
  for (std::size_t j = 0; j < wc.size(); ++j) r[static_cast<std::size_t>(wc[j])] = back[j];
  for (std::size_t j = 0; j < wk.size(); ++j)
    r[nc + static_cast<std::size_t>(wk[j])] = back[wc.size() + j];
  for (std::size_t j = 0; j < wx.size(); ++j)
    r[nc + nk + static_cast<std::size_t>(wx[j])] = back[wc.size() + wk.size() + j];
  return r;
}

// ---- batching --------------------------------------------------------------------------------

/// batch_graph with the outputs listed in `force` batched even where they do not depend on a
/// batched input (a loop's carry must keep one type across iterations).
Batched batch_forced(const ir::Graph& g, const std::vector<bool>& in_b, std::int64_t n,
                     const std::vector<bool>& force) {
  Batched r = batch_graph(g, in_b, n);
  // The broadcasts are appended to the batched graph itself.
  GraphBuilder b;
  b.graph = std::move(r.graph);
  Emit E(b);
  auto& outs = b.graph.outvars;
  for (std::size_t k = 0; k < outs.size(); ++k) {
    if (k < force.size() && force[k] && !r.out_batched[k]) {
      outs[k] = add_batch_axis(E, outs[k], n);
      r.out_batched[k] = true;
    }
  }
  r.graph = std::move(b.graph);
  return r;
}

/// Iterates the carry's batched flags to a fixed point: a carry is batched if its initial value
/// is, or if the body makes it so from batched inputs.
std::vector<bool> carry_fixed_point(const ir::Graph& body, std::vector<bool> in_b, std::size_t k0,
                                    std::size_t nk, std::size_t out0, std::int64_t n) {
  for (;;) {
    const Batched t = batch_graph(body, in_b, n);
    bool changed = false;
    for (std::size_t i = 0; i < nk; ++i)
      if (t.out_batched[out0 + i] && !in_b[k0 + i]) in_b[k0 + i] = changed = true;
    if (!changed) return in_b;
  }
}

Atom broadcast_pred(Emit& E, Atom pred, const Aval& like) {
  Dims shape = like.shape.to_vector();
  return E.broadcast_in_dim(pred, Shape(shape), {0});
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_cond(Emit& E, const ir::Eqn& e,
                                                           std::vector<Atom> in,
                                                           const std::vector<bool>& bat,
                                                           std::int64_t n) {
  const auto& branches = e.params.get<std::vector<GraphPtr>>("branches");
  std::vector<bool> ops_b(bat.begin() + 1, bat.end());
  const std::size_t nout = branches[0]->outvars.size();
  // Outputs batched in any branch are batched in all.
  std::vector<bool> force(nout, bat[0]);
  for (auto& br : branches) {
    const Batched t = batch_graph(flat_sub(br), ops_b, n);
    for (std::size_t k = 0; k < nout; ++k) force[k] = force[k] || t.out_batched[k];
  }
  std::vector<ir::Graph> bg;
  for (auto& br : branches) bg.push_back(batch_forced(flat_sub(br), ops_b, n, force).graph);
  if (!bat[0]) {
    std::vector<GraphPtr> nb;
    for (auto& g : bg) nb.push_back(share(std::move(g)));
    return {E.b.emit(Prim::cond, in, with(e.params, "branches", nb)), force};
  }
  // A batched index: every branch runs, and each element picks its branch's result (the index
  // clamped into range, as XLA does).
  const std::vector<Atom> ops(in.begin() + 1, in.end());
  std::vector<Atom> result = inline_call(E, bg[0], ops);
  const Atom idx = in[0];
  for (std::size_t k = 1; k < bg.size(); ++k) {
    const auto outs = inline_call(E, bg[k], ops);
    const Prim cmp = k + 1 == bg.size() ? Prim::ge : Prim::eq;
    const Atom pick = E.bin(cmp, idx, Emit::lit(static_cast<double>(k), E.dtype(idx)));
    for (std::size_t j = 0; j < nout; ++j)
      result[j] = E.select(broadcast_pred(E, pick, E.aval(result[j])), result[j], outs[j]);
  }
  return {result, force};
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_while(Emit& E, const ir::Eqn& e,
                                                            std::vector<Atom> in,
                                                            std::vector<bool> bat, std::int64_t n) {
  const auto [nc, nb, nk] = while_parts(e, in.size());
  const ir::Graph body = flat_sub(e.params.get<GraphPtr>("body_jaxpr"));
  const ir::Graph cond = flat_sub(e.params.get<GraphPtr>("cond_jaxpr"));
  std::vector<bool> body_in(bat.begin() + static_cast<std::ptrdiff_t>(nc), bat.end());
  body_in = carry_fixed_point(body, body_in, nb, nk, 0, n);
  std::vector<bool> cond_in(bat.begin(), bat.begin() + static_cast<std::ptrdiff_t>(nc));
  cond_in.insert(cond_in.end(), body_in.begin() + static_cast<std::ptrdiff_t>(nb), body_in.end());
  bool pred_b = batch_graph(cond, cond_in, n).out_batched[0];
  if (pred_b) {  // every carry batched: each element stops on its own predicate
    for (std::size_t i = 0; i < nk; ++i) body_in[nb + i] = cond_in[nc + i] = true;
  }
  std::vector<bool> carry_b(body_in.begin() + static_cast<std::ptrdiff_t>(nb), body_in.end());
  // Batch the carry operands that must be.
  for (std::size_t i = 0; i < nk; ++i) {
    const std::size_t j = nc + nb + i;
    if (carry_b[i] && !bat[j]) in[j] = add_batch_axis(E, in[j], n);
  }
  std::vector<bool> force_body(nk, false);
  for (std::size_t i = 0; i < nk; ++i) force_body[i] = carry_b[i];
  const ir::Graph bbody = batch_forced(body, body_in, n, force_body).graph;
  const ir::Graph bcond = batch_graph(cond, cond_in, n).graph;
  if (!pred_b) {
    ir::Params p = with(e.params, "body_jaxpr", share(bbody));
    p = with(p, "cond_jaxpr", share(bcond));
    return {E.b.emit(Prim::while_, in, p), carry_b};
  }
  // cond: any element still running. body: (cond consts, body consts, carry) -> carry, where
  // finished elements keep their carry.
  GraphBuilder cb;
  {
    Emit C(cb);
    std::vector<Atom> args;
    for (auto v : bcond.invars) args.push_back(Atom::of_var(cb.add_invar(bcond.aval(v))));
    const Atom p = inline_call(C, bcond, args)[0];
    cb.graph.outvars = {C.reduce(Prim::reduce_or, p, {0})};
  }
  GraphBuilder wb;
  {
    Emit W(wb);
    std::vector<Atom> cc, bc, carry;
    for (std::size_t i = 0; i < nc; ++i) cc.push_back(Atom::of_var(wb.add_invar(E.aval(in[i]))));
    for (std::size_t i = 0; i < nb; ++i)
      bc.push_back(Atom::of_var(wb.add_invar(E.aval(in[nc + i]))));
    for (std::size_t i = 0; i < nk; ++i)
      carry.push_back(Atom::of_var(wb.add_invar(E.aval(in[nc + nb + i]))));
    std::vector<Atom> cargs = cc;
    cargs.insert(cargs.end(), carry.begin(), carry.end());
    const Atom running = inline_call(W, bcond, cargs)[0];
    std::vector<Atom> bargs = bc;
    bargs.insert(bargs.end(), carry.begin(), carry.end());
    const auto next = inline_call(W, bbody, bargs);
    for (std::size_t i = 0; i < nk; ++i)
      wb.graph.outvars.push_back(
          W.select(broadcast_pred(W, running, W.aval(carry[i])), carry[i], next[i]));
  }
  ir::Params p = with(e.params, "body_jaxpr", share(std::move(wb.graph)));
  p = with(p, "cond_jaxpr", share(std::move(cb.graph)));
  p = with(p, "body_nconsts", static_cast<std::int64_t>(nc + nb));
  std::vector<Atom> ops = slice_atoms(in, 0, nc);
  ops.insert(ops.end(), in.begin(), in.end());  // cond consts again, as the body's first consts
  return {E.b.emit(Prim::while_, ops, p), carry_b};
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_scan(Emit& E, const ir::Eqn& e,
                                                           std::vector<Atom> in,
                                                           std::vector<bool> bat, std::int64_t n) {
  const auto [nc, nk, nx] = scan_parts(e, in.size());
  const ir::Graph body = flat_sub(e.params.get<GraphPtr>("jaxpr"));
  std::vector<bool> body_in = carry_fixed_point(body, bat, nc, nk, 0, n);
  for (std::size_t i = 0; i < nk; ++i) {
    const std::size_t j = nc + i;
    if (body_in[j] && !bat[j]) in[j] = add_batch_axis(E, in[j], n);
  }
  // xs are scanned along their leading axis: a batched one has the batch axis second inside.
  for (std::size_t i = 0; i < nx; ++i)
    if (bat[nc + nk + i]) in[nc + nk + i] = E.move_axis(in[nc + nk + i], 0, 1);
  std::vector<bool> force(nk, false);
  for (std::size_t i = 0; i < nk; ++i) force[i] = body_in[nc + i];
  const Batched bb = batch_forced(body, body_in, n, force);
  auto outs = E.b.emit(Prim::scan, in, with(e.params, "jaxpr", share(bb.graph)));
  std::vector<bool> out_b = bb.out_batched;
  for (std::size_t k = nk; k < outs.size(); ++k)
    if (out_b[k]) outs[k] = E.move_axis(outs[k], 1, 0);
  return {outs, out_b};
}

}  // namespace

std::vector<MaybeAtom> jvp_control(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  switch (e.prim) {
    case Prim::cond:
      return jvp_cond(E, e, in, t);
    case Prim::while_:
      return jvp_while(E, e, in, t);
    default:
      return jvp_scan(E, e, in, t, out.size());
  }
}

std::vector<MaybeAtom> vjp_control(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<Atom>& out, const std::vector<MaybeAtom>& cts,
                                   const std::vector<bool>& needed) {
  switch (e.prim) {
    case Prim::cond:
      return vjp_cond(E, e, in, out, cts, needed);
    case Prim::scan:
      return vjp_scan(E, e, in, out, cts, needed);
    default:
      throw ValueError(
          "fj::grad: reverse-mode differentiation does not work for lax.while_loop or "
          "lax.fori_loop with dynamic bounds (the trip count is unknown when the graph is "
          "built); use fj::lax::fori_loop with static bounds or fj::lax::scan, or forward mode "
          "(fj::jvp)");
  }
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_control(Emit& E, const ir::Eqn& e,
                                                              std::vector<Atom> in,
                                                              const std::vector<bool>& bat,
                                                              std::int64_t n) {
  switch (e.prim) {
    case Prim::cond:
      return batch_cond(E, e, std::move(in), bat, n);
    case Prim::while_:
      return batch_while(E, e, std::move(in), bat, n);
    default:
      return batch_scan(E, e, std::move(in), bat, n);
  }
}

void register_control_rules(ir::RuleTable& t) {
  for (Prim p : {Prim::cond, Prim::while_, Prim::scan})
    t[p] = {ir::control_avals, after_primals<jvp_control>, for_needed<vjp_control>,
            some_batched<batch_control>};
}

}  // namespace fj::transforms
