// JVP, VJP and batching rules of cholesky and triangular_solve (declared in linalg_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/linalg_rules.hpp"

#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/lu_rules.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

Atom bmm(Emit& E, Atom x, Atom y, bool transpose_x, bool transpose_y) {
  const int r = E.rank(x);
  ir::DotDims d;
  d.lhs_contract = {transpose_x ? r - 2 : r - 1};
  d.rhs_contract = {transpose_y ? r - 1 : r - 2};
  for (int i = 0; i < r - 2; ++i) {
    d.lhs_batch.push_back(i);
    d.rhs_batch.push_back(i);
  }
  return detail::lower_dot_general(E.b, x, y, d, std::nullopt, "linalg rule");
}

namespace {

Atom swap_last(Emit& E, Atom x) {
  const int r = E.rank(x);
  return E.move_axis(x, r - 1, r - 2);
}

bool flag(const ir::Eqn& e, const char* name) { return e.params.get<bool>(name); }

ir::Params with_flag(const ir::Params& p, const char* name, bool v) {
  ir::Params q = p;
  for (auto& item : q.items)
    if (item.name == name) item.value = v;
  return q;
}

Atom solve(Emit& E, Atom a, Atom b, const ir::Params& p) {
  return E.b.emit1(Prim::triangular_solve, {a, b}, p);
}

ir::Params solve_params(bool left_side, bool lower, bool transpose_a) {
  ir::Params p;
  p.items.push_back({"conjugate_a", false, true});
  p.items.push_back({"left_side", left_side, true});
  p.items.push_back({"lower", lower, true});
  p.items.push_back({"transpose_a", transpose_a, true});
  p.items.push_back({"unit_diagonal", false, true});
  return p;
}

// JAX's phi: the lower triangle with the diagonal divided by 2 (l / (1 + eye)). Self-adjoint,
// so the cotangent rule uses it too.
Atom phi(Emit& E, Atom x) {
  const Shape s = E.shape(x);
  const DType d = E.dtype(x);
  const Atom l = detail::lower_tril(E.b, x, 0);
  const Atom eye = detail::lower_eye(E.b, s[s.rank() - 1], s[s.rank() - 1], 0, d);
  const Atom one = Atom::of_literal(ir::Literal::of(1.0, true).cast(d, false));
  return E.div(l, E.broadcast_to(E.b.emit1(Prim::add, {one, eye}), s));
}

// The triangle of triangular_solve's a that the solve reads: strictly inside it with
// unit_diagonal.
Atom read_triangle(Emit& E, const ir::Eqn& e, Atom x) {
  const std::int64_t k = flag(e, "unit_diagonal") ? 1 : 0;
  return flag(e, "lower") ? detail::lower_tril(E.b, x, -k) : detail::lower_triu(E.b, x, k);
}

}  // namespace

std::vector<MaybeAtom> jvp_linalg(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                  const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  if (e.prim == Prim::lu) return jvp_lu(E, t, out);
  if (e.prim == Prim::cholesky) {
    const Atom L = out[0];  // zeros above the diagonal (the host routine writes them)
    const Atom tmp = solve(E, L, *t[0], solve_params(false, true, true));
    const Atom y = solve(E, L, tmp, solve_params(true, true, false));
    return {bmm(E, L, phi(E, y))};
  }
  const Atom a = in[0], x = out[0];
  MaybeAtom r;
  if (t[1]) r = solve(E, a, *t[1], e.params);
  if (t[0]) {
    Atom g = E.neg(read_triangle(E, e, *t[0]));
    if (flag(e, "transpose_a")) g = swap_last(E, g);
    const Shape sb = E.shape(x);
    const std::int64_t m = sb[sb.rank() - 2], n = sb[sb.rank() - 1];
    Atom ta;
    if (flag(e, "left_side"))
      ta = m > n ? solve(E, a, bmm(E, g, x), e.params) : bmm(E, solve(E, a, g, e.params), x);
    else
      ta = m < n ? solve(E, a, bmm(E, x, g), e.params) : bmm(E, x, solve(E, a, g, e.params));
    r = r ? E.add_any(*r, ta) : ta;
  }
  return {r};
}

std::vector<MaybeAtom> vjp_linalg(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                  const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                  const std::vector<bool>& wants) {
  if (e.prim == Prim::lu) return vjp_lu(E, out, ct, wants);
  std::vector<MaybeAtom> r(in.size());
  if (!ct[0]) return r;
  if (e.prim == Prim::cholesky) {
    if (!wants[0]) return r;
    const Atom L = out[0];
    const Atom y_bar = phi(E, bmm(E, L, *ct[0], true));
    const Atom tmp_bar = solve(E, L, y_bar, solve_params(true, true, true));
    r[0] = solve(E, L, tmp_bar, solve_params(false, true, false));
    return r;
  }
  if (!wants[0] && !wants[1]) return r;
  const Atom a = in[0], x = out[0];
  const Atom b_bar =
      solve(E, a, *ct[0], with_flag(e.params, "transpose_a", !flag(e, "transpose_a")));
  if (wants[1]) r[1] = b_bar;
  if (wants[0]) {
    Atom g = flag(e, "left_side") ? bmm(E, b_bar, x, false, true) : bmm(E, x, b_bar, true);
    if (flag(e, "transpose_a")) g = swap_last(E, g);
    r[0] = E.neg(read_triangle(E, e, g));
  }
  return r;
}

std::vector<Atom> batch_linalg(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                               const std::vector<bool>& bat, std::int64_t n) {
  if (e.prim == Prim::triangular_solve && !bat[0]) {
    // b (n, ..., rows, cols): the batch moved next to the axis a does not touch, folded into
    // it, solved once, and unfolded.
    const bool left = flag(e, "left_side");
    const int r = E.rank(in[1]);
    const int at = left ? r - 1 : r - 2;
    const Atom moved = E.move_axis(in[1], 0, at);
    const Shape ms = E.shape(moved);
    Dims flat = ms.to_vector();
    flat[static_cast<std::size_t>(at - 1)] *= flat[static_cast<std::size_t>(at)];
    flat.erase(flat.begin() + at);
    const Atom x = solve(E, in[0], E.reshape(moved, Shape(flat)), e.params);
    return {E.move_axis(E.reshape(x, ms), at, 0)};
  }
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!bat[k]) in[k] = add_batch_axis(E, in[k], n);
  return E.b.emit(e.prim, std::move(in), e.params);
}

void register_linalg_rules(ir::RuleTable& t) {
  namespace library = ir::library_rules;
  constexpr auto row = library_row<jvp_linalg, vjp_linalg, batch_linalg>;
  t[Prim::cholesky] = row(shape_rule<library::cholesky>);
  t[Prim::triangular_solve] = row(shape_rule<library::triangular_solve>);
  t[Prim::lu] = row(shape_rule<library::lu>);
}

}  // namespace fj::transforms
