// JVP, VJP and batching rules of the spectral decompositions (declared in spectral_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/spectral_rules.hpp"

#include "fusejit/expr/lowering.hpp"
#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/transforms/batching.hpp"

namespace fj::transforms {

namespace {

// x y over the last two axes (the leading ones batch), x transposed first when `tx`, y when
// `ty` (lax.batch_matmul with _H where JAX's rules write it).
Atom matmul(Emit& E, Atom x, Atom y, bool tx = false, bool ty = false) {
  auto t = [&E](Atom m, bool flip) {
    return flip ? E.move_axis(m, E.rank(m) - 1, E.rank(m) - 2) : m;
  };
  return detail::lower_matmul(E.b, t(x, tx), t(y, ty));
}

// The identity of x's matrix shape, broadcast over its batch axes.
Atom eye_like(Emit& E, Atom x) {
  const Shape s = E.shape(x);
  const std::int64_t n = s[s.rank() - 1];
  return E.broadcast_to(detail::lower_eye(E.b, n, n, 0, E.dtype(x)), s);
}

// The diagonal of each matrix: (..., n, n) -> (..., n).
Atom diagonal(Emit& E, Atom x) { return E.reduce_sum(E.mul(x, eye_like(E, x)), {E.rank(x) - 1}); }

// Each vector of d (..., n) on the diagonal of an (..., n, n) matrix of zeros.
Atom diag_embed(Emit& E, Atom d, Atom like) {
  const Shape s = E.shape(like);
  Dims dims;
  for (int i = 0; i < s.rank() - 1; ++i) dims.push_back(i);
  return E.mul(E.broadcast_in_dim(d, s, dims), eye_like(E, like));
}

// JAX's Fmat: 1 / (w_j - w_i) off the diagonal, 0 on it (eye + w_j - w_i, inverted, minus eye:
// no division by zero on the diagonal).
Atom eigh_fmat(Emit& E, Atom w, Atom v) {
  const Shape s = E.shape(v);
  const int r = s.rank();
  Dims rows, cols;
  for (int i = 0; i < r - 2; ++i) {
    rows.push_back(i);
    cols.push_back(i);
  }
  rows.push_back(r - 1);  // w[..., newaxis, :]: w_j along the columns
  cols.push_back(r - 2);  // w[..., newaxis]: w_i along the rows
  const Atom eye = eye_like(E, v);
  const Atom diff =
      E.sub(E.add(eye, E.broadcast_in_dim(w, s, rows)), E.broadcast_in_dim(w, s, cols));
  ir::Params p;
  p.items.push_back({"y", std::int64_t{-1}, true});
  return E.sub(E.un(Prim::integer_pow, diff, std::move(p)), eye);
}

Atom transpose_last(Emit& E, Atom x) { return E.move_axis(x, E.rank(x) - 1, E.rank(x) - 2); }

// x r^-1 (or x r^-T with `transpose`), r upper triangular: lax.linalg.triangular_solve(r, x).
Atom solve_upper_right(Emit& E, Atom r, Atom x, bool transpose) {
  return detail::lower_triangular_solve(E.b, r, x, {false, false, transpose, false, false});
}

// JAX's qr_jvp_rule covers m >= n without full_matrices (or square), where q and r are the
// reduced factors; it raises otherwise, and so does this.
void check_qr_differentiable(const ir::Eqn& e, const Shape& s, const char* who) {
  const std::int64_t m = s[s.rank() - 2], n = s[s.rank() - 1];
  if (m < n || (e.params.get<bool>("full_matrices") && m != n))
    throw NotImplementedError(std::string(who) +
                              ": the derivative of qr is defined for (m, n) matrices with "
                              "m >= n (and m == n with full_matrices) only, as JAX's, got " +
                              s.str());
}

// svd's rules: the singular values' only (compute_uv=False, as the matrix norms stage it); u
// and v^T of a thin decomposition of the same input, computed again as JAX's rule does.
struct SvdFactors {
  Atom u, vt;
};
SvdFactors svd_factors(Emit& E, const ir::Eqn& e, Atom a, const char* who) {
  if (e.params.get<bool>("compute_uv"))
    throw NotImplementedError(std::string(who) +
                              ": the derivative of svd with compute_uv=True is not implemented "
                              "yet (that of the singular values alone, compute_uv=False, is)");
  ir::Params p = e.params;
  for (auto& item : p.items) {
    if (item.name == "compute_uv") item.value = true;
    if (item.name == "full_matrices") item.value = false;
  }
  const auto out = E.b.emit(Prim::svd, {a}, std::move(p));
  return {out[1], out[2]};
}

}  // namespace

std::vector<MaybeAtom> jvp_spectral(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  if (!t[0]) return std::vector<MaybeAtom>(out.size());
  if (e.prim == Prim::svd) {
    // s_dot = diag(u^T a_dot v).
    const SvdFactors f = svd_factors(E, e, in[0], "fj::jvp");
    return {diagonal(E, matmul(E, matmul(E, f.u, *t[0], true), f.vt, false, true))};
  }
  if (e.prim == Prim::qr) {
    // x_dot r^-1 = X, C = q^T X, O = tril(C, -1) - tril(C, -1)^T (skew-symmetric):
    // q_dot = q (O - C) + X, r_dot = (C - O) r.
    check_qr_differentiable(e, E.shape(in[0]), "fj::jvp");
    const Atom q = out[0], r = out[1];
    const Atom x = solve_upper_right(E, r, *t[0], false);
    const Atom c = matmul(E, q, x, true);
    const Atom l = detail::lower_tril(E.b, c, -1);
    const Atom o = E.sub(l, transpose_last(E, l));
    return {E.add(matmul(E, q, E.sub(o, c)), x), matmul(E, E.sub(c, o), r)};
  }
  const Atom v = out[0], w = out[1];
  const Atom m = matmul(E, v, matmul(E, *t[0], v), true);
  return {matmul(E, v, E.mul(eigh_fmat(E, w, v), m)), diagonal(E, m)};
}

std::vector<MaybeAtom> vjp_spectral(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                    const std::vector<bool>& wants) {
  std::vector<MaybeAtom> r(in.size());
  bool any = false;
  for (const MaybeAtom& c : ct) any = any || c;
  if (!wants[0] || !any) return r;
  if (e.prim == Prim::svd) {
    // a_bar = u diag(s_bar) v^T.
    const SvdFactors f = svd_factors(E, e, in[0], "fj::grad");
    const Shape us = E.shape(f.u);
    Dims dims;
    for (int i = 0; i < us.rank() - 2; ++i) dims.push_back(i);
    dims.push_back(us.rank() - 1);
    r[0] = matmul(E, E.mul(f.u, E.broadcast_in_dim(*ct[0], us, dims)), f.vt);
    return r;
  }
  if (e.prim == Prim::qr) {
    // The transpose of jvp_spectral's map: G = r_bar r^T flows into C and, negated, into O;
    // q^T q_bar into O and, negated, into C; O_bar - O_bar^T into L, whose strict lower triangle
    // joins C_bar; X_bar = q_bar + q C_bar; x_bar = X_bar r^-T.
    check_qr_differentiable(e, E.shape(in[0]), "fj::grad");
    const Atom q = out[0], rr = out[1];
    MaybeAtom c_bar, o_bar, x_bar = ct[0];
    auto acc = [&E](MaybeAtom& slot, Atom v) { slot = slot ? E.add_any(*slot, v) : v; };
    if (ct[1]) {
      const Atom g = matmul(E, *ct[1], rr, false, true);
      acc(c_bar, g);
      acc(o_bar, E.neg(g));
    }
    if (ct[0]) {
      const Atom h = matmul(E, q, *ct[0], true);
      acc(o_bar, h);
      acc(c_bar, E.neg(h));
    }
    const Atom l_bar = E.sub(*o_bar, transpose_last(E, *o_bar));
    acc(c_bar, detail::lower_tril(E.b, l_bar, -1));
    acc(x_bar, matmul(E, q, *c_bar));
    r[0] = solve_upper_right(E, rr, *x_bar, true);
    return r;
  }
  const Atom v = out[0], w = out[1];
  MaybeAtom m_bar;
  if (ct[0]) m_bar = E.mul(eigh_fmat(E, w, v), matmul(E, v, *ct[0], true));
  if (ct[1]) {
    const Atom d = diag_embed(E, *ct[1], v);
    m_bar = m_bar ? E.add_any(*m_bar, d) : d;
  }
  r[0] = matmul(E, matmul(E, v, *m_bar), v, false, true);
  return r;
}

std::vector<Atom> batch_spectral(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                                 const std::vector<bool>& bat, std::int64_t n) {
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!bat[k]) in[k] = add_batch_axis(E, in[k], n);
  return E.b.emit(e.prim, std::move(in), e.params);
}

}  // namespace fj::transforms
