// JVP, VJP and batching rules of the spectral decompositions (declared in spectral_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/spectral_rules.hpp"

#include "fusejit/expr/lowering.hpp"
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

}  // namespace

std::vector<MaybeAtom> jvp_spectral(Emit& E, const ir::Eqn&, const std::vector<Atom>&,
                                    const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  if (!t[0]) return {std::nullopt, std::nullopt};
  const Atom v = out[0], w = out[1];
  const Atom m = matmul(E, v, matmul(E, *t[0], v), true);
  return {matmul(E, v, E.mul(eigh_fmat(E, w, v), m)), diagonal(E, m)};
}

std::vector<MaybeAtom> vjp_spectral(Emit& E, const ir::Eqn&, const std::vector<Atom>& in,
                                    const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                    const std::vector<bool>& wants) {
  std::vector<MaybeAtom> r(in.size());
  if (!wants[0] || (!ct[0] && !ct[1])) return r;
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
