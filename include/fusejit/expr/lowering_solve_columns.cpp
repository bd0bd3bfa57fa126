// JAX's _lu_solve as jnp.linalg.solve stages it under jnp.vectorize: the one-vector _lu_solve
// vmapped over a's batch axes (and over b's columns for a matrix b), written out equation by
// equation as JAX 0.10.2's batching rules (broadcast_in_dim, gather, triangular_solve, squeeze)
// emit them (implementation unit only).
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/expr/lowering_solve.hpp"
#include "fusejit/expr/lowering_sort.hpp"
#include "fusejit/ir/gather_dims.hpp"

namespace fj::detail {

namespace {

using V = std::vector<std::int64_t>;

// A tuple as JAX prints it when its entries past the first few come from np.add: those entries
// as np.int64(...) (the batching rules shift dims with NumPy, the leading new axis is an int).
std::string np_tuple(const V& v, std::size_t first_np) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string n = std::to_string(v[i]);
    s += (i ? ", " : "") + (i >= first_np ? "np.int64(" + n + ")" : n);
  }
  return s + (v.size() == 1 ? ",)" : ")");
}

// x with axis `from` moved to `to`, JAX's batching.moveaxis (nothing when they agree).
Atom move_axis(GraphBuilder& g, Atom x, int from, int to) {
  if (from == to) return x;
  V perm;
  for (int d = 0; d < g.aval(x).shape.rank(); ++d)
    if (d != from) perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  return lower_transpose(g, x, perm);
}

V iota_v(std::size_t n) {
  V v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i);
  return v;
}

V with_extents(const Shape& s, std::initializer_list<std::int64_t> more) {
  V v = s.to_vector();
  v.insert(v.end(), more);
  return v;
}

// jnp's x[perm, :] index (..., n, 1): perm normalized (i < 0 ? i + n : i) and given its
// index-vector axis (batched over a's batch axis as a batched broadcast_in_dim).
Atom row_indices(GraphBuilder& g, Atom perm) {
  const Shape s = g.aval(perm).shape;
  auto lit = [&](std::int64_t v) {
    return Atom::of_literal(ir::Literal::of(v, true).cast(g.aval(perm).dtype, false));
  };
  const Atom neg = lower_binary(g, Prim::lt, perm, lit(0));
  const Atom wrapped = lower_binary(g, Prim::add, perm, lit(s[s.rank() - 1]));
  const Atom i = g.emit1(Prim::select_n, {neg, perm, wrapped});
  return broadcast_np(g, i, with_extents(s, {1}), iota_v(static_cast<std::size_t>(s.rank())), 1);
}

// x[perm, :] of right-hand sides (..., n, 1) vmapped over a's r batch axes, or of columns
// (..., k, n, 1) vmapped over k too (at axis r): _gather_batching_rule's dim numbers, each
// batching level shifting them by np.add(1, ...) (printed as NumPy ints), the columns a leading
// offset dim, a's batch axes operand / indices batching dims.
Atom gather_rows(GraphBuilder& g, Atom x, Atom idx, bool vector) {
  const Shape s = g.aval(x).shape;
  const std::int64_t r = s.rank() - (vector ? 2 : 3);
  ir::IndexDims d{vector ? V{r + 1} : V{r, r + 2},
                  {vector ? r : r + 1},
                  {vector ? r : r + 1},
                  iota_v(static_cast<std::size_t>(r)),
                  iota_v(static_cast<std::size_t>(r))};
  ir::Params p;
  d.add_to(p, false);
  const std::size_t window_np = vector || r ? 0 : 1;  // the columns' own axis is a plain 0
  for (auto& item : p.items)
    if (item.name == "dimension_numbers")
      item.value = "GatherDimensionNumbers(offset_dims=" + np_tuple(d.window, window_np) +
                   ", collapsed_slice_dims=" + np_tuple(d.collapsed, 0) +
                   ", start_index_map=" + np_tuple(d.start_map, 0) +
                   ", operand_batching_dims=" + np_tuple(d.operand_batching, 1) +
                   ", start_indices_batching_dims=" + np_tuple(d.indices_batching, 1) + ")";
  V sizes(static_cast<std::size_t>(r), 1);
  if (!vector) sizes.push_back(s[r]);
  sizes.insert(sizes.end(), {1, 1});
  p.items.push_back({"fill_value", std::string("None"), true});
  p.items.push_back({"indices_are_sorted", false, true});
  p.items.push_back({"mode", ir::mode_str(ir::GatherMode::promise_in_bounds), true});
  p.items.push_back({"slice_sizes", sizes, true});
  p.items.push_back({"unique_indices", false, true});
  return g.emit1(Prim::gather, {x, idx}, std::move(p));
}

// _triangular_solve_batching_rule for a (..., n, n) and b (..., n, 1) batched over columns at
// `bdim` (-1: no columns, a plain batched solve): the columns moved last and folded into b's,
// solved, unfolded; they stay last.
Atom solve_batched(GraphBuilder& g, Atom lu, Atom x, int& bdim, const TriangularSolveOptions& o,
                   const char* fn) {
  if (bdim < 0) return lower_triangular_solve(g, lu, x, o, fn);
  const int last = g.aval(x).shape.rank() - 1;
  x = move_axis(g, x, bdim, last);
  const Shape s = g.aval(x).shape;
  V flat = s.to_vector();
  flat.pop_back();
  flat.back() *= s[last];
  bdim = last;
  return lower_reshape(g, lower_triangular_solve(g, lu, lower_reshape(g, x, flat), o, fn),
                       s.to_vector());
}

// The inverse of the permutation perm (..., n): a stable sort of (perm, iota), as
// lax.sort_key_val; under a's r batch axes the unbatched iota is broadcast to perm's shape one
// axis at a time, innermost first (_sort_batch_rule at each vmap level, plain ints).
Atom inverse_permutation(GraphBuilder& g, Atom perm) {
  const Shape ps = g.aval(perm).shape;
  const int r = ps.rank() - 1;
  Atom iota = lower_iota(g, DType::i32, Shape{ps[r]}, 0);
  for (int level = r - 1; level >= 0; --level) {
    const V shape(ps.begin() + level, ps.end());
    const V dims = iota_v(shape.size());
    iota = broadcast_np(g, iota, shape, V(dims.begin() + 1, dims.end()), shape.size());
  }
  return lower_lax_sort(g, {perm, iota}, r, true, 1)[1];
}

}  // namespace

Atom lu_solve_columns(GraphBuilder& g, Atom lu, Atom perm, Atom rhs, bool trans, bool vector,
                      const char* fn) {
  const Shape s = g.aval(rhs).shape;  // (..., n) or (..., k, n); a's batch first
  const int r = s.rank() - (vector ? 1 : 2);
  // b[..., np.newaxis], the columns' batch (if any) at r.
  Atom x =
      broadcast_np(g, rhs, with_extents(s, {1}), iota_v(static_cast<std::size_t>(s.rank())), 1);
  int bdim = vector ? -1 : r;
  if (!trans) {
    x = gather_rows(g, x, row_indices(g, perm), vector);
    x = solve_batched(g, lu, x, bdim, {true, true, false, false, true}, fn);
    x = solve_batched(g, lu, x, bdim, {true, false, false, false, false}, fn);
  } else {
    x = solve_batched(g, lu, x, bdim, {true, false, true, false, false}, fn);
    x = solve_batched(g, lu, x, bdim, {true, true, true, false, true}, fn);
    const Atom idx = row_indices(g, inverse_permutation(g, perm));
    if (!vector) x = move_axis(g, x, bdim, r), bdim = r;
    x = gather_rows(g, x, idx, vector);
  }
  // x[..., 0]: _squeeze_batch_rule moves the columns' batch in front of the vector's axes.
  if (vector) return lower_squeeze(g, x, {r + 1}, false);
  return lower_squeeze(g, move_axis(g, x, bdim, r), {r + 2}, false);
}

}  // namespace fj::detail
