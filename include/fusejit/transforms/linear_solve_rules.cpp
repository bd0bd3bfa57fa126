// The transformation rules of custom_linear_solve (lax.custom_linear_solve), as JAX's solves.py
// writes them: the solution's tangent solves again against b's tangent minus matvec's tangent
// in its consts; reverse mode solves the transposed system (transpose_solve) for b's cotangent;
// batching batches all four sub-graphs alike (implementation unit only).
#include <memory>

#include "fusejit/ir/linear_solve.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

using ir::LinearSolvePart;
using ir::LinearSolveView;

ir::Graph part_graph(const LinearSolveView& v, LinearSolvePart p) { return flatten(v.graph(p)); }

// matvec's consts: whether each may carry a tangent (or take a cotangent).
std::vector<bool> matvec_flags(const LinearSolveView& v, const std::vector<bool>& per_operand,
                               std::size_t n_rhs) {
  const std::size_t lo = v.offset(LinearSolvePart::matvec);
  std::vector<bool> f(per_operand.begin() + static_cast<std::ptrdiff_t>(lo),
                      per_operand.begin() +
                          static_cast<std::ptrdiff_t>(lo + static_cast<std::size_t>(v.lengths[0])));
  f.insert(f.end(), n_rhs, false);
  return f;
}

// A batched sub-graph whose every result is batched (a leading axis added where the batched
// graph left one out), so that the four functions of the batched solve agree.
ir::GraphPtr all_batched(const Batched& bg, std::int64_t n) {
  GraphBuilder g;
  std::vector<Atom> args;
  for (ir::VarId v : bg.graph.invars) args.push_back(Atom::of_var(g.add_invar(bg.graph.aval(v))));
  std::vector<Atom> r = ir::detail::inline_into(g.graph, bg.graph, args, false);
  Emit E(g);
  for (std::size_t k = 0; k < r.size(); ++k)
    if (!bg.out_batched[k]) r[k] = add_batch_axis(E, r[k], n);
  g.graph.outvars = std::move(r);
  return std::make_shared<const ir::Graph>(std::move(g.graph));
}

}  // namespace

std::vector<MaybeAtom> jvp_linear_solve(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                        const std::vector<MaybeAtom>& t,
                                        const std::vector<Atom>& out) {
  // JAX's _custom_linear_solve_jvp: x = A^-1 b, so x_dot = A^-1 (b_dot - A_dot x), where A_dot x
  // is matvec's tangent in its consts at x. The other functions' consts get no tangent: they
  // only compute A^-1 (jnp.linalg.solve stops their gradients).
  const LinearSolveView v(e.params);
  const std::vector<Atom> rhs = v.rhs(in);
  std::vector<bool> has(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) has[i] = t[i].has_value();
  const std::vector<bool> mv = matvec_flags(v, has, rhs.size());
  std::vector<MaybeAtom> dot(rhs.size());
  for (std::size_t k = 0; k < rhs.size(); ++k) dot[k] = t[v.n_consts + k];
  bool any_mv = false;
  for (bool f : mv) any_mv = any_mv || f;
  if (any_mv) {
    const ir::Graph jg = jvp_graph(part_graph(v, LinearSolvePart::matvec), mv);
    std::vector<Atom> args = v.args(LinearSolvePart::matvec, in, out);
    const std::size_t lo = v.offset(LinearSolvePart::matvec);
    for (std::size_t i = 0; i < mv.size(); ++i)
      if (mv[i]) args.push_back(*t[lo + i]);
    const std::vector<Atom> r = ir::detail::inline_into(E.b.graph, jg, args, false);
    for (std::size_t k = 0; k < rhs.size(); ++k) {
      const Atom a_dot_x = r[out.size() + k];
      dot[k] = dot[k] ? E.sub(*dot[k], a_dot_x) : E.neg(a_dot_x);
    }
  }
  bool any = false;
  std::vector<Atom> rhs_dot;
  for (std::size_t k = 0; k < rhs.size(); ++k) {
    any = any || dot[k].has_value();
    rhs_dot.push_back(E.or_zeros(dot[k], E.aval(rhs[k])));
  }
  if (!any) return std::vector<MaybeAtom>(out.size());
  std::vector<Atom> ops(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(v.n_consts));
  ops.insert(ops.end(), rhs_dot.begin(), rhs_dot.end());
  const std::vector<Atom> x_dot = E.b.emit(Prim::custom_linear_solve, std::move(ops), e.params);
  return std::vector<MaybeAtom>(x_dot.begin(), x_dot.end());
}

std::vector<MaybeAtom> vjp_linear_solve(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                        const std::vector<Atom>& out,
                                        const std::vector<MaybeAtom>& cts,
                                        const std::vector<bool>& needed) {
  // b's cotangent: JAX's _linear_solve_transpose_rule, the transposed solve (transpose_solve
  // for solve, vecmat for matvec) of x's cotangent. matvec's consts: the transpose of the
  // tangent rule's -A_dot x, i.e. minus matvec's reverse mode in its consts at x, of b's
  // cotangent.
  const LinearSolveView v(e.params);
  std::vector<Atom> ct;
  for (std::size_t k = 0; k < out.size(); ++k) ct.push_back(E.or_zeros(cts[k], E.aval(out[k])));
  auto [ops, params] = ir::transposed_linear_solve(v, in, ct);
  const std::vector<Atom> ct_b = E.b.emit(Prim::custom_linear_solve, std::move(ops), params);
  std::vector<MaybeAtom> res(in.size());
  for (std::size_t k = 0; k < ct_b.size(); ++k)
    if (needed[v.n_consts + k]) res[v.n_consts + k] = ct_b[k];
  std::vector<bool> wanted(in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    wanted[i] = needed[i] && !in[i].is_literal() && differentiable(E.aval(in[i]));
  const std::vector<bool> mv = matvec_flags(v, wanted, out.size());
  bool any_mv = false;
  for (bool f : mv) any_mv = any_mv || f;
  if (!any_mv) return res;
  const ir::Graph vg = vjp_graph(part_graph(v, LinearSolvePart::matvec), mv);
  std::vector<Atom> args = v.args(LinearSolvePart::matvec, in, out);
  args.insert(args.end(), ct_b.begin(), ct_b.end());
  const std::vector<Atom> r = ir::detail::inline_into(E.b.graph, vg, args, false);
  std::size_t pos = out.size();
  const std::size_t lo = v.offset(LinearSolvePart::matvec);
  for (std::size_t i = 0; i < mv.size(); ++i)
    if (mv[i]) res[lo + i] = E.neg(r[pos++]);
  return res;
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_linear_solve(Emit& E, const ir::Eqn& e,
                                                                   std::vector<Atom> in,
                                                                   const std::vector<bool>& bat,
                                                                   std::int64_t n) {
  // The right-hand sides all batched (JAX's rule reaches the same fixed point whenever any
  // operand is batched: the solution then depends on the batch); every sub-graph batched with
  // its consts' flags, its results all batched.
  const LinearSolveView v(e.params);
  std::vector<bool> flags = bat;
  for (std::size_t i = v.n_consts; i < in.size(); ++i)
    if (!flags[i]) in[i] = add_batch_axis(E, in[i], n), flags[i] = true;
  std::vector<ir::GraphPtr> jaxprs;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto p = static_cast<LinearSolvePart>(k);
    const std::vector<bool> f = v.args(p, flags, v.rhs(flags));
    jaxprs.push_back(all_batched(batch_graph(part_graph(v, p), f, n), n));
  }
  std::vector<Atom> outs = E.b.emit(Prim::custom_linear_solve, std::move(in),
                                    ir::linear_solve_params(v.lengths, std::move(jaxprs)));
  std::vector<bool> out_flags(outs.size(), true);
  return {std::move(outs), std::move(out_flags)};
}

void register_linear_solve_rules(ir::RuleTable& t) {
  t[Prim::custom_linear_solve] = {ir::control_avals, after_primals<jvp_linear_solve>,
                                  for_needed<vjp_linear_solve>, some_batched<batch_linear_solve>};
}

}  // namespace fj::transforms
