// jnp's stacking, splitting and axis-moving functions (hstack, vstack, dstack, column_stack,
// atleast_Nd, split, array_split, moveaxis, swapaxes, ...): compositions of concatenate,
// reshape, transpose and slice, as JAX writes them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {

namespace detail {
/// x with axes permuted by a runtime-length `perm` (lax.transpose).
inline Array transpose_dyn(const Array& x, std::vector<std::int64_t> perm) {
  return Array(make_node(IndexMapOp{ir::Prim::transpose, std::move(perm), {}, {}}, x));
}
/// x in a runtime-rank `shape` (lax.reshape).
inline Array reshape_dyn(const Array& x, std::vector<std::int64_t> shape) {
  return Array(make_node(IndexMapOp{ir::Prim::reshape, std::move(shape), {}, {}}, x));
}
/// x[lo:hi] along `axis`, the other axes whole (lax.slice_in_dim).
inline Array slice_axis(const Array& x, int axis, std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(x.ndim()), 0),
      stop = x.shape().to_vector(), step(static_cast<std::size_t>(x.ndim()), 1);
  start[static_cast<std::size_t>(axis)] = lo;
  stop[static_cast<std::size_t>(axis)] = hi;
  return Array(make_node(IndexMapOp{ir::Prim::slice, start, stop, step}, x));
}
/// `axis` in [-rank, rank) made nonnegative, or an fj::ShapeError naming `who` and x's shape.
inline int axis_of(int axis, const Array& x, const char* who) {
  const int r = x.ndim();
  if (axis < -r || axis >= r)
    throw ShapeError(std::string(who) + ": axis " + std::to_string(axis) + " is out of range for " +
                     x.aval().str());
  return axis < 0 ? axis + r : axis;
}
/// The arrays, each given at least `n` dimensions as jnp.atleast_{1,2,3}d gives them.
std::vector<Array> at_least(const std::vector<Array>& xs, int n);
}  // namespace detail

/// jnp.atleast_1d / atleast_2d / atleast_3d: a scalar becomes (1,), (1, 1) or (1, 1, 1); a
/// vector (n,) becomes (1, n) or (1, n, 1); a matrix (m, n) becomes (m, n, 1) for 3d. Arrays
/// with enough dimensions are returned as they are.
///@{
inline Array atleast_1d(const Array& x) { return detail::at_least({x}, 1)[0]; }
inline Array atleast_2d(const Array& x) { return detail::at_least({x}, 2)[0]; }
inline Array atleast_3d(const Array& x) { return detail::at_least({x}, 3)[0]; }
///@}

/// jnp.hstack: 1-d arrays joined end to end, others along axis 1 (scalars become 1-d).
inline Array hstack(const std::vector<Array>& xs) {
  const std::vector<Array> a = detail::at_least(xs, 1);
  return Array(concatenate(a, !a.empty() && a[0].ndim() == 1 ? 0 : 1));
}
/// jnp.vstack (row_stack): the arrays, at least 2-d, joined along axis 0.
inline Array vstack(const std::vector<Array>& xs) {
  return Array(concatenate(detail::at_least(xs, 2), 0));
}
/// jnp.dstack: the arrays, at least 3-d, joined along axis 2.
inline Array dstack(const std::vector<Array>& xs) {
  return Array(concatenate(detail::at_least(xs, 3), 2));
}
/// jnp.column_stack: 1-d arrays (and scalars) as columns, 2-d ones as they are, joined along
/// axis 1.
Array column_stack(const std::vector<Array>& xs);

/// jnp.moveaxis(x, source, destination): the axes `source` moved to positions `destination`
/// (as many of each), the others keeping their order. Axes out of range raise fj::ShapeError,
/// repeated ones or lists of different lengths fj::ValueError.
///@{
Array moveaxis(const Array& x, const std::vector<int>& source, const std::vector<int>& destination);
inline Array moveaxis(const Array& x, int source, int destination) {
  return moveaxis(x, std::vector<int>{source}, std::vector<int>{destination});
}
///@}
/// jnp.swapaxes(x, axis1, axis2): the two axes exchanged.
Array swapaxes(const Array& x, int axis1, int axis2);
/// jnp.permute_dims(x, axes): jnp.transpose with the Array API's name.
inline Array permute_dims(const Array& x, const std::vector<std::int64_t>& axes) {
  return detail::transpose_dyn(x, axes);
}
/// jnp.matrix_transpose(x): the last two axes exchanged (x must have at least two).
Array matrix_transpose(const Array& x);
/// jnp.fliplr / jnp.flipud: x reversed along axis 1 (x at least 2-d) or axis 0 (at least 1-d).
///@{
Array fliplr(const Array& x);
Array flipud(const Array& x);
///@}

/// jnp.split(x, sections, axis): `sections` equal pieces along `axis`; fj::ValueError when the
/// axis's extent is not a multiple of it.
std::vector<Array> split(const Array& x, std::int64_t sections, int axis = 0);
/// jnp.split(x, indices, axis): the pieces x[:i0], x[i0:i1], ..., x[ik:] along `axis` (indices
/// past the end give empty pieces, as NumPy's).
std::vector<Array> split(const Array& x, const std::vector<std::int64_t>& indices, int axis = 0);
/// jnp.array_split(x, sections, axis): `sections` pieces whose extents differ by at most one,
/// the longer first.
std::vector<Array> array_split(const Array& x, std::int64_t sections, int axis = 0);
/// jnp.hsplit / vsplit / dsplit: split along axis 1 (axis 0 for 1-d x), 0 and 2.
///@{
std::vector<Array> hsplit(const Array& x, std::int64_t sections);
std::vector<Array> vsplit(const Array& x, std::int64_t sections);
std::vector<Array> dsplit(const Array& x, std::int64_t sections);
///@}

}  // namespace fj
