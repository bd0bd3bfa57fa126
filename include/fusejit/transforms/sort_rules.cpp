// JVP, VJP and batching rules of sort, top_k and the cumulative reductions (declared in
// sort_rules.hpp; implementation unit only).
#include "fusejit/transforms/sort_rules.hpp"

#include <algorithm>

#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/ir/pad_config.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

bool is_cumulative(Prim p) {
  return p == Prim::cumsum || p == Prim::cumprod || p == Prim::cummax || p == Prim::cummin;
}

std::int64_t int_param(const ir::Params& p, const char* name) { return p.get<std::int64_t>(name); }

// The positions top_k picked, as a one-hot over the last axis: mask[..., m, j] = (j == idx[...,
// m]), shape (..., k, n) in the tangent's dtype.
Atom top_k_onehot(Emit& E, Atom idx, std::int64_t n, DType d) {
  const Shape s = E.shape(idx);  // (..., k)
  Dims full = s.to_vector();
  full.push_back(n);
  Dims dims(static_cast<std::size_t>(s.rank()));
  for (int i = 0; i < s.rank(); ++i) dims[static_cast<std::size_t>(i)] = i;
  const Atom wide = E.broadcast_in_dim(idx, Shape(full), dims);
  const Atom j = detail::lower_iota(E.b, DType::i32, Shape(full), s.rank());
  return E.convert(E.b.emit1(Prim::eq, {wide, j}), d);
}

// _sort_jvp's gather dimension numbers: one index per element along the sort's dimension, the
// other axes batching axes of both the operand and the indices.
ir::IndexDims sort_index_dims(int rank, int dimension) {
  ir::IndexDims d;
  d.numpy_batching = true;
  d.collapsed = {dimension};
  d.start_map = {dimension};
  for (int a = 0; a < rank; ++a)
    if (a != dimension) {
      d.operand_batching.push_back(a);
      d.indices_batching.push_back(a);
    }
  return d;
}

Atom gather_sorted(Emit& E, Atom t, Atom indices, int dimension) {
  const int rank = E.rank(t);
  return detail::lower_gather(E.b, t, indices, sort_index_dims(rank, dimension),
                              std::vector<std::int64_t>(static_cast<std::size_t>(rank), 1),
                              ir::GatherMode::promise_in_bounds, "None");
}

// lax.slice_in_dim(x, start, limit, stride, axis), as JAX's associative_scan slices.
Atom slice_in_dim(Emit& E, Atom x, int axis, std::int64_t start, std::int64_t limit,
                  std::int64_t stride) {
  // lax.slice_in_dim passes its strides even when they are all 1: printed, not None.
  const Shape s = E.shape(x);
  const auto a = static_cast<std::size_t>(axis);
  Dims lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  Dims steps(static_cast<std::size_t>(s.rank()), 1);
  lo[a] = start;
  hi[a] = std::max(start, limit);
  steps[a] = stride;
  ir::Params p;
  p.items.push_back({"limit_indices", hi, true});
  p.items.push_back({"start_indices", lo, true});
  p.items.push_back({"strides", steps, true});
  return E.b.emit1(Prim::slice, {x}, std::move(p));
}

// JAX's _interleave: a's elements at the even positions of the axis, b's at the odd ones, by
// padding each with zeros in between and adding (or-ing bools).
Atom interleave(Emit& E, Atom a, Atom b, int axis) {
  const auto r = static_cast<std::size_t>(E.rank(a));
  const bool same = E.shape(a)[axis] == E.shape(b)[axis];
  ir::PadConfig pa{Dims(r, 0), Dims(r, 0), Dims(r, 0), Dims(3 * r, 0)}, pb = pa;
  const auto k = static_cast<std::size_t>(axis);
  pa.hi[k] = same ? 1 : 0;
  pa.interior[k] = 1;
  pb.lo[k] = 1;
  pb.hi[k] = same ? 0 : 1;
  pb.interior[k] = 1;
  const Atom zero = Emit::lit(0, E.dtype(a));
  const Atom a_padded = E.b.emit1(Prim::pad, {a, zero}, pa.params());  // a's first, as JAX
  const Atom b_padded = E.b.emit1(Prim::pad, {b, zero}, pb.params());
  return E.b.emit1(E.dtype(a) == DType::bool_ ? Prim::or_ : Prim::add, {a_padded, b_padded});
}

// JAX's associative_scan(combine, x, axis) (no reverse): combine adjacent pairs, scan those
// recursively (the odd positions), combine them with the even elements, interleave. Each
// operand is staged before the next, in the order Python evaluates JAX's arguments.
Atom associative_scan(Emit& E, Prim combine, Atom x, int axis) {
  const std::int64_t n = E.shape(x)[axis];
  if (n < 2) return x;
  const Atom left = slice_in_dim(E, x, axis, 0, n - 1, 2);
  const Atom right = slice_in_dim(E, x, axis, 1, n, 2);
  const Atom odd = associative_scan(E, combine, E.b.emit1(combine, {left, right}), axis);
  const std::int64_t m = E.shape(odd)[axis];
  const Atom head = n % 2 == 0 ? slice_in_dim(E, odd, axis, 0, m - 1, 1) : odd;
  const Atom rest = slice_in_dim(E, x, axis, 2, n, 2);
  const Atom even = E.b.emit1(combine, {head, rest});
  ir::Params cat;
  cat.items.push_back({"dimension", std::int64_t{axis}, true});
  const Atom first = slice_in_dim(E, x, axis, 0, 1, 1);
  const Atom evens = E.b.emit1(Prim::concatenate, {first, even}, std::move(cat));
  return interleave(E, evens, odd, axis);
}

// The graph x -> cumprod/cummax/cummin(x) as JAX differentiates it: its associative scan with
// lax.mul, lax.max or lax.min, between two revs when reverse. Its JVP (the primitives' own
// rules: the product rule, max/min's even split at ties) is JAX's _cumulative_jvp_rule.
ir::Graph cumulative_scan_graph(const ir::Eqn& e, const Aval& x) {
  const auto axis = static_cast<int>(int_param(e.params, "axis"));
  const bool reverse = e.params.get<bool>("reverse");
  const Prim combine = e.prim == Prim::cumprod  ? Prim::mul
                       : e.prim == Prim::cummax ? Prim::max
                                                : Prim::min;
  GraphBuilder g;
  Emit E(g);
  ir::Params rev;
  rev.items.push_back({"dimensions", Dims{axis}, true});
  Atom v = Atom::of_var(g.add_invar(x));
  if (reverse) v = E.un(Prim::rev, v, rev);
  v = associative_scan(E, combine, v, axis);
  if (reverse) v = E.un(Prim::rev, v, rev);
  g.graph.outvars = {v};
  return std::move(g.graph);
}

// The scan graph's JVP with the tangent as the only output: (x, t) -> t's image, linear in t.
ir::Graph cumulative_tangent_graph(const ir::Eqn& e, const Aval& x) {
  ir::Graph jg = jvp_graph(cumulative_scan_graph(e, x), {true});
  jg.outvars = {jg.outvars[1]};
  return jg;
}

}  // namespace

SortedWithIndices sort_with_indices(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in) {
  const auto dim = static_cast<int>(int_param(e.params, "dimension"));
  std::vector<Atom> ops = in;
  ops.push_back(detail::lower_iota(E.b, DType::u32, E.shape(in[0]), dim));
  std::vector<Atom> sorted = E.b.emit(Prim::sort, ops, e.params);
  const Atom permutation = sorted.back();
  sorted.pop_back();
  return {sorted, detail::lower_expand_dims(E.b, permutation, {E.rank(permutation)})};
}

std::pair<std::vector<Atom>, std::vector<MaybeAtom>> jvp_with_primals(
    Emit& E, const ir::Eqn& e, const std::vector<Atom>& in, const std::vector<MaybeAtom>& t) {
  if (e.prim != Prim::sort) {  // the scan's JVP graph: (x, t) -> (scan(x), its tangent)
    const ir::Graph jg = jvp_graph(cumulative_scan_graph(e, E.aval(in[0])), {true});
    const std::vector<Atom> r =
        ir::detail::inline_into(E.b.graph, jg, {in[0], *t[0]}, false, true, true);
    return {{r[0]}, {r[1]}};
  }
  SortedWithIndices s = sort_with_indices(E, e, in);
  const auto dim = static_cast<int>(int_param(e.params, "dimension"));
  std::vector<MaybeAtom> tangents(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    if (t[i] && differentiable(E.aval(s.outs[i])))
      tangents[i] = gather_sorted(E, *t[i], s.indices, dim);
  return {std::move(s.outs), std::move(tangents)};
}

ir::Graph expand_differentiated_scans(const ir::Graph& g, const std::vector<bool>& wrt) {
  auto scan = [](Prim p) { return p == Prim::cumprod || p == Prim::cummax || p == Prim::cummin; };
  std::vector<char> depends(g.avals.size(), 0);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    depends[static_cast<std::size_t>(g.invars[i])] = wrt[i];
  auto dep = [&](const Atom& a) {
    return !a.is_literal() && depends[static_cast<std::size_t>(a.var)];
  };
  std::vector<char> expand(g.eqns.size(), 0);
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const ir::Eqn& e = g.eqns[k];
    const bool d = e.prim != Prim::stop_gradient && std::any_of(e.in.begin(), e.in.end(), dep);
    for (ir::VarId v : e.out) depends[static_cast<std::size_t>(v)] = d;
    expand[k] = d && scan(e.prim) && differentiable(g.aval(Atom::of_var(e.out[0])));
  }
  if (!g.constvars.empty() || std::none_of(expand.begin(), expand.end(), [](char c) { return c; }))
    return g;
  ir::Graph out;
  std::vector<Atom> env(g.avals.size());
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  for (ir::VarId v : g.invars) {
    out.invars.push_back(out.new_var(g.aval(Atom::of_var(v))));
    env[static_cast<std::size_t>(v)] = Atom::of_var(out.invars.back());
  }
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const ir::Eqn& e = g.eqns[k];
    if (expand[k]) {
      const Aval x = g.aval(e.in[0]);
      env[static_cast<std::size_t>(e.out[0])] = ir::detail::inline_into(
          out, cumulative_scan_graph(e, x), {at(e.in[0])}, false, true, true)[0];
      continue;
    }
    ir::Eqn c = e;
    for (Atom& a : c.in) a = at(a);
    for (ir::VarId& v : c.out) {
      const ir::VarId fresh = out.new_var(g.aval(Atom::of_var(v)));
      env[static_cast<std::size_t>(v)] = Atom::of_var(fresh);
      v = fresh;
    }
    out.eqns.push_back(std::move(c));
  }
  for (const Atom& o : g.outvars) out.outvars.push_back(at(o));
  return out;
}

std::vector<MaybeAtom> jvp_sorting(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  if (is_cumulative(e.prim) && !differentiable(E.aval(out[0]))) return {std::nullopt};
  if (e.prim == Prim::cumsum) return {E.b.emit1(Prim::cumsum, {*t[0]}, e.params)};
  if (is_cumulative(e.prim))
    return {ir::detail::inline_into(E.b.graph, cumulative_tangent_graph(e, E.aval(in[0])),
                                    {in[0], *t[0]}, false)[0]};
  if (e.prim == Prim::top_k) {
    if (!differentiable(E.aval(out[0]))) return {std::nullopt, std::nullopt};
    const Shape s = E.shape(in[0]);
    const Atom hot = top_k_onehot(E, out[1], s[s.rank() - 1], E.dtype(*t[0]));
    Dims full = E.shape(out[1]).to_vector();
    full.push_back(s[s.rank() - 1]);
    Dims dims(static_cast<std::size_t>(s.rank()));
    for (int i = 0; i < s.rank() - 1; ++i) dims[static_cast<std::size_t>(i)] = i;
    dims.back() = s.rank();  // t's last axis is the one-hot's n axis
    const Atom tw = E.broadcast_in_dim(*t[0], Shape(full), dims);
    return {E.reduce_sum(E.mul(hot, tw), {static_cast<std::int64_t>(s.rank())}), std::nullopt};
  }
  return jvp_with_primals(E, e, in, t).second;  // sort (its primal results made again)
}

std::vector<MaybeAtom> vjp_sorting(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                   const std::vector<bool>& wants, const MaybeAtom& sort_indices) {
  std::vector<MaybeAtom> r(in.size());
  if (e.prim == Prim::cumsum) {
    if (wants[0] && ct[0]) {
      const bool reverse = e.params.get<bool>("reverse");
      ir::Params p = e.params;
      for (auto& item : p.items)
        if (item.name == "reverse") item.value = !reverse;
      r[0] = E.b.emit1(Prim::cumsum, {*ct[0]}, std::move(p));
    }
    return r;
  }
  if (is_cumulative(e.prim)) {
    // The transpose of the JVP's tangent equations (JAX's linearize-and-transpose): reverse
    // mode over the tangent graph with respect to t, at t = 0 (the tangent's own forward
    // equations are then dead, and DCE drops them).
    if (!wants[0] || !ct[0]) return r;
    const Aval xa = E.aval(in[0]);
    const ir::Graph vg = vjp_graph(cumulative_tangent_graph(e, xa), {false, true});
    r[0] = ir::detail::inline_into(E.b.graph, vg, {in[0], E.zeros(xa), *ct[0]}, false)[1];
    return r;
  }
  if (e.prim == Prim::top_k) {
    if (!wants[0] || !ct[0]) return r;
    const Shape s = E.shape(in[0]);
    const int k_axis = s.rank() - 1;  // in the one-hot (..., k, n)
    const Atom hot = top_k_onehot(E, out[1], s[s.rank() - 1], E.dtype(*ct[0]));
    Dims full = E.shape(out[1]).to_vector();
    full.push_back(s[s.rank() - 1]);
    Dims dims(static_cast<std::size_t>(s.rank()));
    for (int i = 0; i < s.rank(); ++i) dims[static_cast<std::size_t>(i)] = i;
    const Atom cw = E.broadcast_in_dim(*ct[0], Shape(full), dims);
    r[0] = E.reduce_sum(E.mul(hot, cw), {static_cast<std::int64_t>(k_axis)});
    return r;
  }
  // sort: the gather's transpose, each cotangent scatter-added into zeros, the last first (JAX
  // transposes the tangents' gathers in reverse).
  bool any = false;
  for (std::size_t i = 0; i < in.size(); ++i) any = any || (wants[i] && ct[i]);
  if (!any) return r;
  const Atom indices = sort_indices ? *sort_indices : sort_with_indices(E, e, in).indices;
  const ir::IndexDims d =
      sort_index_dims(E.rank(in[0]), static_cast<int>(int_param(e.params, "dimension")));
  for (std::size_t j = in.size(); j-- > 0;)
    if (wants[j] && ct[j])
      r[j] = detail::lower_scatter(E.b, Prim::scatter_add, E.zeros(E.aval(in[j])), indices, *ct[j],
                                   d, ir::GatherMode::promise_in_bounds);
  return r;
}

std::vector<Atom> batch_sorting(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                                const std::vector<bool>& bat, std::int64_t n) {
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!bat[k]) in[k] = add_batch_axis(E, in[k], n);
  const char* axis = e.prim == Prim::sort ? "dimension" : "axis";
  return E.b.emit(e.prim, std::move(in), with_int(e.params, axis, int_param(e.params, axis) + 1));
}

namespace {

/// JAX's rules for sort, cumprod, cummax and cummin compute the primal results themselves.
JvpResult jvp_sorting_with_primals(Emit& E, const JvpCall& c) {
  auto [out, t] = jvp_with_primals(E, c.e, c.in, c.t);
  return {std::move(out), std::move(t)};
}

/// JAX's sort JVP sorts an iota along: the permutation is the backward pass's residual.
Forward sort_forward(Emit& E, const ForwardCall& c) {
  if (std::none_of(c.carries.begin(), c.carries.end(), [](bool b) { return b; }))
    return {E.b.emit(c.e.prim, c.in, c.e.params)};
  SortedWithIndices s = sort_with_indices(E, c.e, c.in);
  Forward f{std::move(s.outs)};
  f.residual[0] = s.indices;
  return f;
}

/// sort's cotangents scatter through the permutation the forward pass saved.
void vjp_sorting_rule(Emit& E, const VjpCall& c) {
  c.add_each(vjp_sorting(E, c.e, c.in, c.out, c.ct, c.wanted, c.residual[0]));
}

}  // namespace

void register_sort_rules(ir::RuleTable& t) {
  namespace library = ir::library_rules;
  constexpr auto batch = all_batched<batch_sorting>;
  t[Prim::cumsum] = {library::cumulative, after_primals<jvp_sorting>, vjp_sorting_rule, batch};
  for (Prim p : {Prim::cumprod, Prim::cummax, Prim::cummin})
    t[p] = {library::cumulative, jvp_sorting_with_primals, vjp_sorting_rule, batch};
  t[Prim::sort] = {shape_rule<library::sort>, jvp_sorting_with_primals, vjp_sorting_rule, batch,
                   sort_forward};
  t[Prim::top_k] = {shape_rule<library::top_k>, after_primals<jvp_sorting>, vjp_sorting_rule,
                    batch};
}

}  // namespace fj::transforms
