// Forward mode: one tangent rule per primitive, and the pass that pushes tangents through a
// graph alongside a copy of its primal equations (implementation unit only).
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/index_rules.hpp"
#include "fusejit/transforms/linalg_rules.hpp"
#include "fusejit/transforms/pad_rules.hpp"
#include "fusejit/transforms/sort_rules.hpp"
#include "fusejit/transforms/spectral_rules.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

namespace {

/// The tangents of e's outputs given its operands' tangents (at least one is set).
std::vector<MaybeAtom> jvp_rule(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  const ir::PrimInfo& pi = ir::info(e.prim);
  if (!has_jvp_rule(e.prim))
    throw ValueError("fj::jvp: no differentiation rule for " + std::string(pi.name));
  if (ir::is_lax_control(e.prim)) return jvp_control(E, e, in, t, out);
  if (e.prim == Prim::custom_jvp_call) return jvp_custom_call(E, e, in, t, out);
  if (e.prim == Prim::custom_linear_solve) return jvp_linear_solve(E, e, in, t, out);
  if (out.empty()) return {};  // an effect (debug_print): copied, nothing to differentiate
  if (is_collective(e.prim)) return jvp_collective(E, e, t);
  if (is_sort_or_scan(e.prim)) return jvp_sorting(E, e, in, t, out);
  if (is_linalg(e.prim)) return jvp_linalg(E, e, in, t, out);
  if (is_spectral(e.prim)) return jvp_spectral(E, e, in, t, out);
  if (is_index_op(e.prim)) return jvp_index(E, e, in, t, out);
  if (is_pad_op(e.prim)) return jvp_pad(E, e, in, t);
  const Atom y = out[0];
  const Aval ya = E.aval(y);
  if (!differentiable(ya)) return {std::nullopt};
  auto linear = [&](std::vector<Atom> ops) -> std::vector<MaybeAtom> {
    return {E.b.emit1(e.prim, std::move(ops), e.params)};
  };
  if (pi.kind == ir::PrimKind::unary) {
    MaybeAtom ty = unary_tangent(E, e.prim, e.params, in[0], y, *t[0]);
    if (ty) ty = E.broadcast_to(*ty, ya.shape);
    return {ty};
  }
  if (is_elementwise(pi.kind)) {
    MaybeAtom ty = binary_tangent(E, e.prim, e.params, in, y, t);
    if (ty) ty = E.broadcast_to(*ty, ya.shape);
    return {ty};
  }
  switch (e.prim) {
    case Prim::select_n:
      return {E.select(in[0], E.or_zeros(t[1], ya), E.or_zeros(t[2], ya))};
    case Prim::clamp: {
      // JAX's three defjvp rules, each select(mask, t, zeros), summed with add_any. A scalar
      // bound's tangent is broadcast (JAX's rule raises there, its select's cases differing).
      std::vector<Atom> terms;
      for (std::size_t i = 0; i < 3; ++i) {
        if (!t[i]) continue;
        const Atom mask = clamp_mask(E, in, i);
        const Atom zeros = E.zeros(ya);
        terms.push_back(E.select(mask, zeros, E.broadcast_to(*t[i], ya.shape)));
      }
      MaybeAtom ty;
      for (const Atom& term : terms) ty = ty ? E.add_any(*ty, term) : term;
      return {ty};
    }
    case Prim::convert_element_type:
      if (!differentiable(E.aval(in[0]))) return {std::nullopt};
      return {E.convert(*t[0], ya.dtype)};
    case Prim::broadcast_in_dim:
    case Prim::transpose:
    case Prim::slice:
    case Prim::reshape:
    case Prim::rev:
    case Prim::squeeze:
    case Prim::reduce_sum:
      return linear({*t[0]});
    case Prim::reduce_prod: {
      const auto& axes = e.params.get<Dims>("axes");
      return {E.reduce_sum(E.mul(*t[0], prod_partial(E, in[0], y, axes)), axes)};
    }
    case Prim::reduce_max:
    case Prim::reduce_min: {
      const auto& axes = e.params.get<Dims>("axes");
      const Residuals m = chooser_mask(E, in[0], y, axes);  // location, count
      return {E.div(E.reduce_sum(E.mul(*t[0], *m[0]), axes), *m[1])};
    }
    case Prim::dot_general: {
      MaybeAtom ty;
      if (t[0]) ty = E.b.emit1(Prim::dot_general, {*t[0], in[1]}, e.params);
      if (t[1]) {
        const Atom term = E.b.emit1(Prim::dot_general, {in[0], *t[1]}, e.params);
        ty = ty ? E.add(*ty, term) : term;
      }
      return {ty};
    }
    case Prim::concatenate:
    case Prim::stack: {
      std::vector<Atom> ops;
      for (std::size_t i = 0; i < in.size(); ++i) ops.push_back(E.or_zeros(t[i], E.aval(in[i])));
      return linear(std::move(ops));
    }
    case Prim::dynamic_slice: {
      if (!t[0]) return {std::nullopt};
      std::vector<Atom> ops{*t[0]};
      ops.insert(ops.end(), in.begin() + 1, in.end());
      return linear(std::move(ops));
    }
    case Prim::dynamic_update_slice: {
      std::vector<Atom> ops{E.or_zeros(t[0], E.aval(in[0])), E.or_zeros(t[1], E.aval(in[1]))};
      ops.insert(ops.end(), in.begin() + 2, in.end());
      return linear(std::move(ops));
    }
    default:
      // compare, logical, shifts, iota, argmax/argmin, reduce_and/or: no float outputs, and
      // the float-valued ones left here (stop_gradient) have zero derivative.
      return std::vector<MaybeAtom>(out.size());
  }
}

}  // namespace

bool has_jvp_rule(ir::Prim p) {
  // The primitives the rules above handle: a new differentiable row of primitives.def is
  // reported missing (by the table-walk test) until it is listed here with its rule.
  switch (p) {
    case Prim::jit:        // jvp_graph and vjp_graph transform its graph (batching inlines it)
    case Prim::shard_map:  // its `lowered` graph inlined before the pass
    case Prim::fused:      // made by a backend only
    // A C++ function has no derivative to take (JAX: "Pure callbacks do not support JVP").
    case Prim::pure_callback:
      return false;
    default:
      break;
  }
  const ir::PrimKind k = ir::info(p).kind;
  // Elementwise ones are covered by elementwise_partials (zero where it has no case: sign,
  // floor, ceil, round, stop_gradient, and the integer-only ones).
  if (is_elementwise(k)) return true;
  switch (p) {
    case Prim::select_n:
    case Prim::clamp:
    case Prim::convert_element_type:
    case Prim::broadcast_in_dim:
    case Prim::transpose:
    case Prim::slice:
    case Prim::reshape:
    case Prim::rev:
    case Prim::squeeze:
    case Prim::reduce_sum:
    case Prim::reduce_prod:
    case Prim::reduce_max:
    case Prim::reduce_min:
    case Prim::dot_general:
    case Prim::psum:
    case Prim::all_gather:
    case Prim::reduce_scatter:
    case Prim::all_to_all:
    case Prim::ppermute:
    case Prim::cumsum:
    case Prim::cumprod:
    case Prim::cummax:
    case Prim::cummin:
    case Prim::sort:
    case Prim::top_k:
    case Prim::cholesky:
    case Prim::triangular_solve:
    case Prim::lu:
    case Prim::eigh:
    case Prim::qr:
    case Prim::svd:
    case Prim::gather:
    case Prim::scatter_add:
    case Prim::scatter:
    case Prim::scatter_mul:
    case Prim::scatter_min:
    case Prim::scatter_max:
    case Prim::pad:
    case Prim::tile:
    case Prim::split:
    case Prim::concatenate:
    case Prim::stack:
    case Prim::dynamic_slice:
    case Prim::dynamic_update_slice:
    case Prim::cond:
    case Prim::while_:
    case Prim::scan:
    case Prim::custom_jvp_call:
    case Prim::custom_linear_solve:
      return true;
    default:
      // Rules give zero for the rest; right only where no float output depends on a float input.
      return !(ir::info(p).flags & ir::prim_flags::D);
  }
}

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
                 with_graph(e.params, jvp_graph(*e.params.get<ir::GraphPtr>("jaxpr"), has)));
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = r[k];
        if (differentiable(g.aval(e.out[k])))
          tan[static_cast<std::size_t>(e.out[k])] = r[e.out.size() + k];
      }
      continue;
    }
    if (any && e.prim == Prim::custom_jvp_call) {
      // A rule in JAX's defjvp form computes the results too: its equations replace the call,
      // its jits kept, as JAX's JVP of a custom_jvp function runs only the rule.
      std::vector<Aval> ia, oa;
      for (const Atom& a : in) ia.push_back(E.aval(a));
      for (ir::VarId v : e.out) oa.push_back(g.aval(v));
      if (const std::optional<ir::Graph> rule = custom_call_jvp_graph(e, ia, oa)) {
        std::vector<Atom> args = in;
        for (std::size_t i = 0; i < in.size(); ++i) args.push_back(E.or_zeros(t[i], ia[i]));
        const std::vector<Atom> r = ir::detail::inline_into(b.graph, *rule, args, false);
        for (std::size_t k = 0; k < e.out.size(); ++k) {
          env[static_cast<std::size_t>(e.out[k])] = r[k];
          if (differentiable(oa[k])) tan[static_cast<std::size_t>(e.out[k])] = r[e.out.size() + k];
        }
        continue;
      }
    }
    if (any && jvp_makes_primals(e.prim)) {  // sort's and the scans' JVPs compute them
      auto [out, to] = jvp_with_primals(E, e, in, t);
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = out[k];
        tan[static_cast<std::size_t>(e.out[k])] = to[k];
      }
      continue;
    }
    std::vector<Atom> out = b.emit(e.prim, in, e.params);
    for (std::size_t k = 0; k < e.out.size(); ++k) env[static_cast<std::size_t>(e.out[k])] = out[k];
    if (!any) continue;
    std::vector<MaybeAtom> to = jvp_rule(E, e, in, t, out);
    for (std::size_t k = 0; k < e.out.size(); ++k) tan[static_cast<std::size_t>(e.out[k])] = to[k];
  }
  for (auto& o : g.outvars) b.graph.outvars.push_back(at(o));
  for (auto& o : g.outvars) b.graph.outvars.push_back(E.or_zeros(tangent(o), g.aval(o)));
  return std::move(b.graph);
}

}  // namespace fj::transforms
