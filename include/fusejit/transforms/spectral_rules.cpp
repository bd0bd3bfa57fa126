// JVP, VJP and batching rules of the spectral decompositions (declared in spectral_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/spectral_rules.hpp"

#include "fusejit/expr/lowering.hpp"
#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

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
Atom diag_embed(Emit& E, Atom d) {
  Shape s = E.shape(d);
  s.push_back(s[s.rank() - 1]);
  Dims dims;
  for (int i = 0; i < s.rank() - 1; ++i) dims.push_back(i);
  const Atom x = E.broadcast_in_dim(d, s, dims);
  return E.mul(x, eye_like(E, x));
}

// JAX's Fmat: 1 / (w_j - w_i) off the diagonal, 0 on it (eye + w_j - w_i, inverted, minus eye:
// no division by zero on the diagonal).
// Each vector of w (..., k) broadcast to `s` (..., rows, cols): w[..., newaxis, :] (w_j along
// the columns) or, with `down`, w[..., newaxis] (w_i along the rows).
Atom spread(Emit& E, Atom w, const Shape& s, bool down) {
  const int r = s.rank();
  Dims dims;
  for (int i = 0; i < r - 2; ++i) dims.push_back(i);
  dims.push_back(down ? r - 2 : r - 1);
  return E.broadcast_in_dim(w, s, dims);
}

// 1 / d off the diagonal, 0 on it (eye + d, inverted, minus eye: no division by zero there).
Atom off_diagonal_reciprocal(Emit& E, Atom d) {
  const Atom eye = eye_like(E, d);
  ir::Params p;
  p.items.push_back({"y", std::int64_t{-1}, true});
  return E.sub(E.un(Prim::integer_pow, E.add(eye, d), std::move(p)), eye);
}

Atom eigh_fmat(Emit& E, Atom w, Atom v) {
  const Shape s = E.shape(v);
  return off_diagonal_reciprocal(E, E.sub(spread(E, w, s, false), spread(E, w, s, true)));
}

// svd's F: 1 / (s_j^2 - s_i^2) off the diagonal ((s_j + s_i) (s_j - s_i), as JAX's), 0 on it.
Atom svd_fmat(Emit& E, Atom s, const Shape& kk) {
  const Atom sj = spread(E, s, kk, false), si = spread(E, s, kk, true);
  return off_diagonal_reciprocal(E, E.mul(E.add(sj, si), E.sub(sj, si)));
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
SvdFactors svd_factors(Emit& E, const ir::Eqn& e, Atom a, const std::vector<Atom>& out,
                       const char* who) {
  const Shape sa = E.shape(a);
  const std::int64_t m = sa[sa.rank() - 2], n = sa[sa.rank() - 1];
  if (e.params.get<bool>("compute_uv")) {
    if (e.params.get<bool>("full_matrices") && m != n)
      throw NotImplementedError(std::string(who) +
                                ": the derivative of svd with full_matrices=True is defined for "
                                "square matrices only, as JAX's, got " +
                                sa.str());
    return {out[1], out[2]};  // the thin factors (or a square matrix's)
  }
  ir::Params p = e.params;
  for (auto& item : p.items) {
    if (item.name == "compute_uv") item.value = true;
    if (item.name == "full_matrices") item.value = false;
  }
  const auto thin = E.b.emit(Prim::svd, {a}, std::move(p));
  return {thin[1], thin[2]};
}

}  // namespace

std::vector<MaybeAtom> jvp_spectral(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  if (!t[0]) return std::vector<MaybeAtom>(out.size());
  if (e.prim == Prim::svd) {
    // JAX's _svd_jvp_rule for real matrices: S = u^T a_dot v, s_dot = diag(S); with F above,
    // u_dot = u (F o (S s_j + (S s_j)^T)) and v_dot = v (F o (s_i S + (s_i S)^T)), plus the
    // parts outside the factors' spans: (I - u u^T) a_dot v / s_j when m > n, (I - v v^T)
    // a_dot^T u / s_j when n > m; v^T's tangent is v_dot^T.
    const SvdFactors f = svd_factors(E, e, in[0], out, "fj::jvp");
    const Atom sm = matmul(E, matmul(E, f.u, *t[0], true), f.vt, false, true);
    const Atom s_dot = diagonal(E, sm);
    if (!e.params.get<bool>("compute_uv")) return {s_dot};
    const Shape kk = E.shape(sm), sa = E.shape(in[0]);
    const std::int64_t m = sa[sa.rank() - 2], n = sa[sa.rank() - 1];
    const Atom fm = svd_fmat(E, out[0], kk);
    const Atom dss = E.mul(sm, spread(E, out[0], kk, false));
    const Atom sds = E.mul(sm, spread(E, out[0], kk, true));
    Atom du = matmul(E, f.u, E.mul(fm, E.add(dss, transpose_last(E, dss))));
    Atom dv = matmul(E, f.vt, E.mul(fm, E.add(sds, transpose_last(E, sds))), true);
    if (m > n) {
      const Atom dav = matmul(E, *t[0], f.vt, false, true);
      const Atom rest = E.sub(dav, matmul(E, f.u, matmul(E, f.u, dav, true)));
      du = E.add(du, E.div(rest, spread(E, out[0], E.shape(rest), false)));
    }
    if (n > m) {
      const Atom dau = matmul(E, *t[0], f.u, true);
      const Atom rest = E.sub(dau, matmul(E, f.vt, matmul(E, f.vt, dau), true));
      dv = E.add(dv, E.div(rest, spread(E, out[0], E.shape(rest), false)));
    }
    return {s_dot, du, transpose_last(E, dv)};
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
    // The transpose of the tangent map above: S_bar = diag(s_bar) + s_j (Q + Q^T) +
    // s_i (Q2 + Q2^T) with Q = F o (u^T u_bar), Q2 = F o (v^T v_bar); a_bar = u S_bar v^T plus
    // (I - u u^T) (u_bar / s_j) v^T when m > n, u ((I - v v^T) (v_bar / s_j))^T when n > m.
    const SvdFactors f = svd_factors(E, e, in[0], out, "fj::grad");
    const Shape sa = E.shape(in[0]);
    const std::int64_t m = sa[sa.rank() - 2], n = sa[sa.rank() - 1];
    const Atom s = out[0];
    MaybeAtom s_bar, extra;
    auto acc = [&E](MaybeAtom& slot, Atom v) { slot = slot ? E.add_any(*slot, v) : v; };
    if (ct[0]) acc(s_bar, diag_embed(E, *ct[0]));
    if (ct.size() > 1 && ct[1]) {
      const Atom p = matmul(E, f.u, *ct[1], true);
      const Shape kk = E.shape(p);
      const Atom q = E.mul(svd_fmat(E, s, kk), p);
      acc(s_bar, E.mul(E.add(q, transpose_last(E, q)), spread(E, s, kk, false)));
      if (m > n) {
        const Atom g = E.div(*ct[1], spread(E, s, E.shape(*ct[1]), false));
        acc(extra, matmul(E, E.sub(g, matmul(E, f.u, matmul(E, f.u, g, true))), f.vt));
      }
    }
    if (ct.size() > 2 && ct[2]) {
      const Atom v_bar = transpose_last(E, *ct[2]);
      const Atom p = matmul(E, f.vt, v_bar);
      const Shape kk = E.shape(p);
      const Atom q = E.mul(svd_fmat(E, s, kk), p);
      acc(s_bar, E.mul(E.add(q, transpose_last(E, q)), spread(E, s, kk, true)));
      if (n > m) {
        const Atom g = E.div(v_bar, spread(E, s, E.shape(v_bar), false));
        const Atom g2 = E.sub(g, matmul(E, f.vt, matmul(E, f.vt, g), true));
        acc(extra, matmul(E, f.u, g2, false, true));
      }
    }
    Atom a_bar = matmul(E, matmul(E, f.u, *s_bar), f.vt);
    if (extra) a_bar = E.add_any(a_bar, *extra);
    r[0] = a_bar;
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
    const Atom d = diag_embed(E, *ct[1]);
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

void register_spectral_rules(ir::RuleTable& t) {
  namespace library = ir::library_rules;
  constexpr auto row = library_row<jvp_spectral, vjp_spectral, batch_spectral>;
  t[Prim::eigh] = row(shape_rule<library::eigh>);
  t[Prim::qr] = row(shape_rule<library::qr>);
  t[Prim::svd] = row(shape_rule<library::svd>);
}

}  // namespace fj::transforms
