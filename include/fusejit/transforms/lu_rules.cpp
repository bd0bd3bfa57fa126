// JVP and VJP rules of lu (declared in lu_rules.hpp; implementation unit only).
#include "fusejit/transforms/lu_rules.hpp"

#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/transforms/linalg_rules.hpp"

namespace fj::transforms {

namespace {

// triangular_solve with a not conjugated, its params in the printed order.
Atom tri_solve(Emit& E, Atom a, Atom b, bool left, bool lower, bool transpose, bool unit) {
  ir::Params p;
  for (auto [name, v] : {std::pair{"conjugate_a", false},
                         {"left_side", left},
                         {"lower", lower},
                         {"transpose_a", transpose},
                         {"unit_diagonal", unit}})
    p.items.push_back({name, v, true});
  return E.b.emit1(Prim::triangular_solve, {a, b}, std::move(p));
}

// An (..., rows, cols) matrix of the batch shape of `like` whose (i, j) entry is 1 where
// `pick(i, j)` (i32 iotas) is true, else 0, in dtype d.
template <class Pick>
Atom mask_matrix(Emit& E, const Shape& batch_of, std::int64_t rows, std::int64_t cols, DType d,
                 Pick pick) {
  const Shape s2{rows, cols};
  const Atom i = detail::lower_iota(E.b, DType::i32, s2, 0);
  const Atom j = detail::lower_iota(E.b, DType::i32, s2, 1);
  const Atom m = E.convert(pick(i, j), d);
  Dims full(batch_of.begin(), batch_of.end() - 2);
  full.push_back(rows);
  full.push_back(cols);
  return E.broadcast_to(m, Shape(full));
}

// x (..., r, c) grown to (..., rows, cols) with zeros after its last rows and columns.
Atom grow(Emit& E, Atom x, std::int64_t rows, std::int64_t cols) {
  for (int axis : {E.rank(x) - 2, E.rank(x) - 1}) {
    Dims s = E.shape(x).to_vector();
    const std::int64_t want = axis == E.rank(x) - 2 ? rows : cols;
    const std::int64_t have = s[static_cast<std::size_t>(axis)];
    if (have == want) continue;
    s[static_cast<std::size_t>(axis)] = want - have;
    x = detail::lower_join(E.b, Prim::concatenate, {x, E.zeros(Aval{E.dtype(x), Shape(s), false})},
                           axis);
  }
  return x;
}

struct Factors {
  Atom l, u, p;  // L (..., m, m), U (..., n, n), P (..., m, m) with (P a)[i] = a[perm[i]]
};

// JAX's l and u of _lu_jvp_inner, and the permutation as a one-hot matrix (a product with it
// moves each row exactly).
Factors factors(Emit& E, Atom lu, Atom perm) {
  const Shape s = E.shape(lu);
  const int r = s.rank();
  const DType d = E.dtype(lu);
  const std::int64_t m = s[r - 2], n = s[r - 1], k = std::min(m, n);
  Dims start(static_cast<std::size_t>(r), 0), cols_k = s.to_vector(), rows_k = cols_k;
  cols_k.back() = k;
  rows_k[static_cast<std::size_t>(r - 2)] = k;
  const Atom l_strict = detail::lower_tril(E.b, E.slice(lu, start, cols_k), -1);
  const Atom eye_m = mask_matrix(E, s, m, m, d, [&](Atom i, Atom j) {
    return E.b.emit1(Prim::eq, {i, j});
  });
  const Atom l = E.add(grow(E, l_strict, m, m), eye_m);
  const Atom u_k = detail::lower_triu(E.b, E.slice(lu, start, rows_k), 0);
  const Atom eye_tail = mask_matrix(E, s, n, n, d, [&](Atom i, Atom j) {
    const Atom past_k = E.b.emit1(Prim::ge, {i, Emit::lit(static_cast<double>(k), DType::i32)});
    return E.b.emit1(Prim::and_, {E.b.emit1(Prim::eq, {i, j}), past_k});
  });
  const Atom u = E.add(grow(E, u_k, n, n), eye_tail);
  Dims pm = s.to_vector();
  pm.back() = m;
  const Atom rows_pick = E.broadcast_in_dim(perm, Shape(pm), [&] {
    Dims dims;
    for (int i = 0; i < r - 1; ++i) dims.push_back(i);
    return dims;
  }());
  const Atom cols = detail::lower_iota(E.b, DType::i32, Shape(pm), r - 1);
  const Atom p = E.convert(E.b.emit1(Prim::eq, {rows_pick, cols}), d);
  return {l, u, p};
}

}  // namespace

std::vector<MaybeAtom> jvp_lu(Emit& E, const std::vector<MaybeAtom>& t,
                              const std::vector<Atom>& out) {
  if (!t[0]) return {std::nullopt, std::nullopt, std::nullopt};
  const Factors f = factors(E, out[0], out[2]);
  const Atom la = tri_solve(E, f.l, bmm(E, f.p, *t[0]), true, true, false, true);
  const Atom x = tri_solve(E, f.u, la, false, false, false, false);
  const Atom lu_dot = E.add(bmm(E, f.l, detail::lower_tril(E.b, x, -1)),
                            bmm(E, detail::lower_triu(E.b, x, 0), f.u));
  return {lu_dot, std::nullopt, std::nullopt};
}

std::vector<MaybeAtom> vjp_lu(Emit& E, const std::vector<Atom>& out,
                              const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants) {
  if (!ct[0] || !wants[0]) return {std::nullopt};
  const Factors f = factors(E, out[0], out[2]);
  const Atom x_bar = E.add(detail::lower_tril(E.b, bmm(E, f.l, *ct[0], true), -1),
                           detail::lower_triu(E.b, bmm(E, *ct[0], f.u, false, true), 0));
  const Atom la_bar = tri_solve(E, f.u, x_bar, false, false, true, false);
  const Atom pa_bar = tri_solve(E, f.l, la_bar, true, true, true, true);
  return {bmm(E, f.p, pa_bar, true)};
}

}  // namespace fj::transforms
