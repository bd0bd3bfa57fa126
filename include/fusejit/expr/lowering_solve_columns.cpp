// JAX's _lu_solve for a matrix b, as jnp.linalg.solve stages it: the one-vector _lu_solve
// vmapped over b's columns, written out equation by equation as JAX 0.10.2's batching rules
// (broadcast_in_dim, gather, triangular_solve, squeeze) emit them (implementation unit only).
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

// broadcast_in_dim of x to `shape` along `dims`, the entries from `first_np` on printed as
// NumPy ints (the hidden `broadcast_dimensions@np` flags): _broadcast_in_dim_batch_rule's
// (0,) + np.add(1, dims).
Atom broadcast_np(GraphBuilder& g, Atom x, const V& shape, const V& dims, std::size_t first_np) {
  V flags(dims.size(), 0);
  for (std::size_t i = first_np; i < dims.size(); ++i) flags[i] = 1;
  ir::Params p;
  p.items.push_back({"shape", shape, false});
  p.items.push_back({"broadcast_dimensions", dims, true});
  p.items.push_back({"broadcast_dimensions@np", flags, false});
  return g.emit1(Prim::broadcast_in_dim, {x}, std::move(p));
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

// x[perm, :] of columns (..., k, n, 1) batched over k (and a's batch axis, at 0):
// _gather_batching_rule's dim numbers, each batching level shifting them by np.add(1, ...),
// the columns a leading offset dim, a's batch an operand / indices batching dim.
Atom gather_rows(GraphBuilder& g, Atom x, Atom idx) {
  const Shape s = g.aval(x).shape;
  const std::int64_t r = s.rank() - 3;
  ir::IndexDims d{{r, r + 2},
                  {r + 1},
                  {r + 1},
                  iota_v(static_cast<std::size_t>(r)),
                  iota_v(static_cast<std::size_t>(r))};
  ir::Params p;
  d.add_to(p, false);
  for (auto& item : p.items)
    if (item.name == "dimension_numbers")
      item.value = "GatherDimensionNumbers(offset_dims=" + np_tuple(d.window, r ? 0 : 1) +
                   ", collapsed_slice_dims=" + np_tuple(d.collapsed, 0) +
                   ", start_index_map=" + np_tuple(d.start_map, 0) +
                   ", operand_batching_dims=" + np_tuple(d.operand_batching, 9) +
                   ", start_indices_batching_dims=" + np_tuple(d.indices_batching, 9) + ")";
  V sizes(static_cast<std::size_t>(r), 1);
  sizes.insert(sizes.end(), {s[r], 1, 1});
  p.items.push_back({"fill_value", std::string("None"), true});
  p.items.push_back({"indices_are_sorted", false, true});
  p.items.push_back({"mode", ir::mode_str(ir::GatherMode::promise_in_bounds), true});
  p.items.push_back({"slice_sizes", sizes, true});
  p.items.push_back({"unique_indices", false, true});
  return g.emit1(Prim::gather, {x, idx}, std::move(p));
}

// _triangular_solve_batching_rule for a (..., n, n) and b (..., n, 1) batched over columns at
// `bdim`: the columns moved last and folded into b's, solved, unfolded; they stay last.
Atom solve_batched(GraphBuilder& g, Atom lu, Atom x, int& bdim, const TriangularSolveOptions& o,
                   const char* fn) {
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

}  // namespace

Atom lu_solve_columns(GraphBuilder& g, Atom lu, Atom perm, Atom rows, bool trans, const char* fn) {
  const Shape s = g.aval(rows).shape;  // (..., k, n); a's batch (at most one axis) first
  const int r = s.rank() - 2;
  // b[..., np.newaxis], the columns' batch at r.
  Atom x = broadcast_np(g, rows, with_extents(s, {1}), iota_v(static_cast<std::size_t>(r + 2)), 1);
  int bdim = r;
  if (!trans) {
    x = gather_rows(g, x, row_indices(g, perm));
    x = solve_batched(g, lu, x, bdim, {true, true, false, false, true}, fn);
    x = solve_batched(g, lu, x, bdim, {true, false, false, false, false}, fn);
  } else {
    x = solve_batched(g, lu, x, bdim, {true, false, true, false, false}, fn);
    x = solve_batched(g, lu, x, bdim, {true, true, true, false, true}, fn);
    // The inverse permutation: a stable sort of (perm, iota), as lax.sort_key_val; under a's
    // batch the unbatched iota is broadcast to perm's shape first (_sort_batch_rule).
    const Shape ps = g.aval(perm).shape;
    Atom iota = lower_iota(g, DType::i32, Shape{ps[ps.rank() - 1]}, 0);
    if (r) iota = broadcast_np(g, iota, ps.to_vector(), {1}, 1);
    const Atom idx = row_indices(g, lower_lax_sort(g, {perm, iota}, r, true, 1)[1]);
    x = gather_rows(g, move_axis(g, x, bdim, r), idx);
    bdim = r;
  }
  // x[..., 0]: _squeeze_batch_rule moves the columns' batch in front of the vector's axes.
  return lower_squeeze(g, move_axis(g, x, bdim, r), {r + 2}, false);
}

}  // namespace fj::detail
