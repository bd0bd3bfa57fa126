// jax.lax's functions under their lax names: the elementwise primitives fusejit had only as
// operators or jnp names (sub, mul, div, neg, the comparisons, max/min, round, select, the
// shifts), the reductions (reduce_sum, ...), and lax's structural helpers (rev,
// broadcast_in_dim, collapse, the *_in_dim slices, full, sort_key_val, unstack, batch_matmul).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/node.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj::lax {

// Each elementwise function stages its one primitive, as lax does. Operands promote as jnp's
// do (lax itself requires one dtype, so a program that is valid lax stages the same equation;
// a C++ scalar is weakly typed, as a Python scalar).
#define FUSEJIT_LAX_BINARY(name, prim)                                               \
  template <detail::Operand A, detail::Operand B>                                    \
  auto name(A&& x, B&& y) {                                                          \
    return detail::make_node(detail::BinaryOp<ir::Prim::prim>{}, std::forward<A>(x), \
                             std::forward<B>(y));                                    \
  }

/// lax.sub: x - y.
FUSEJIT_LAX_BINARY(sub, sub)
/// lax.mul: x * y.
FUSEJIT_LAX_BINARY(mul, mul)
/// lax.div: x / y; integers divide toward zero (C's division), unlike fj's / (true division).
FUSEJIT_LAX_BINARY(div, div)
/// lax.max: the elementwise maximum, NaN if either is NaN (fj::max is jnp's reduction).
FUSEJIT_LAX_BINARY(max, max)
/// lax.min: the elementwise minimum, NaN if either is NaN (fj::min is jnp's reduction).
FUSEJIT_LAX_BINARY(min, min)
/// lax.eq: x == y, a bool array.
FUSEJIT_LAX_BINARY(eq, eq)
/// lax.ne: x != y, a bool array.
FUSEJIT_LAX_BINARY(ne, ne)
/// lax.lt: x < y, a bool array.
FUSEJIT_LAX_BINARY(lt, lt)
/// lax.le: x <= y, a bool array.
FUSEJIT_LAX_BINARY(le, le)
/// lax.gt: x > y, a bool array.
FUSEJIT_LAX_BINARY(gt, gt)
/// lax.ge: x >= y, a bool array.
FUSEJIT_LAX_BINARY(ge, ge)
/// lax.shift_left: x << y on integers; a shift by the width or more gives 0.
FUSEJIT_LAX_BINARY(shift_left, shift_left)
/// lax.shift_right_arithmetic: x >> y filling with the sign bit.
FUSEJIT_LAX_BINARY(shift_right_arithmetic, shift_right_arithmetic)
/// lax.shift_right_logical: x >> y filling with zeros.
FUSEJIT_LAX_BINARY(shift_right_logical, shift_right_logical)

#undef FUSEJIT_LAX_BINARY

/// lax.neg: -x.
template <detail::Operand A>
auto neg(A&& x) {
  return detail::make_node(detail::UnaryOp<ir::Prim::neg>{}, std::forward<A>(x));
}

/// lax.RoundingMethod: how lax.round rounds halves.
enum class RoundingMethod {
  away_from_zero = 0,   ///< 0.5 -> 1, -2.5 -> -3 (lax.round's default)
  to_nearest_even = 1,  ///< 0.5 -> 0, 2.5 -> 2 (jnp.round's)
};
/// lax.round: x rounded to an integral value of its float dtype; halves as `method` says. An
/// integer or bool x raises fj::DTypeError, as lax requires a float.
Array round(const Array& x, RoundingMethod method = RoundingMethod::away_from_zero);

/// lax.select(pred, on_true, on_false): on_true where pred, else on_false (the select_n
/// primitive). on_true and on_false have one shape and dtype; pred is bool, a scalar or of
/// their shape; otherwise fj::ShapeError or fj::DTypeError.
Array select(const Array& pred, const Array& on_true, const Array& on_false);
/// lax.select_n(which, cases...): cases[which] elementwise; `which` is bool (two cases) or
/// int32, a scalar or of the cases' shape, and the cases have one shape and dtype.
Array select_n(const Array& which, const std::vector<Array>& cases);

/// lax.reduce_sum(x, axes): the sum over `axes` (each in [0, rank)), which are removed.
Array reduce_sum(const Array& x, const std::vector<int>& axes);
/// lax.reduce_prod(x, axes): the product over `axes`.
Array reduce_prod(const Array& x, const std::vector<int>& axes);
/// lax.reduce_max(x, axes): the maximum over `axes`.
Array reduce_max(const Array& x, const std::vector<int>& axes);
/// lax.reduce_min(x, axes): the minimum over `axes`.
Array reduce_min(const Array& x, const std::vector<int>& axes);
/// lax.reduce_and(x, axes): logical and over `axes` of a bool array.
Array reduce_and(const Array& x, const std::vector<int>& axes);
/// lax.reduce_or(x, axes): logical or over `axes` of a bool array.
Array reduce_or(const Array& x, const std::vector<int>& axes);

/// lax.rev(x, dimensions): x reversed along each of `dimensions` (in [0, rank), distinct).
Array rev(const Array& x, const std::vector<int>& dimensions);
/// lax.broadcast_in_dim(x, shape, broadcast_dimensions): x's axis i becomes the result's axis
/// broadcast_dimensions[i] (increasing), of the same extent or broadcast from 1.
Array broadcast_in_dim(const Array& x, const Shape& shape,
                       const std::vector<std::int64_t>& broadcast_dimensions);
/// lax.broadcast(x, sizes): x broadcast to sizes + x.shape (new leading axes).
Array broadcast(const Array& x, const std::vector<std::int64_t>& sizes);
/// lax.broadcast_to_rank(x, rank): leading axes of extent 1 up to `rank` (x unchanged if its
/// rank is already that).
Array broadcast_to_rank(const Array& x, int rank);
/// lax.broadcasted_iota(dtype, shape, dimension): each element's index along `dimension`.
inline Array broadcasted_iota(DType dtype, const Shape& shape, int dimension) {
  return Array(iota(dtype, shape, dimension));
}
/// lax.collapse(x, start, stop): axes [start, stop) merged into one (stop defaults to the
/// rank; negative values count from the end).
Array collapse(const Array& x, int start, std::optional<int> stop = std::nullopt);
/// lax.convert_element_type(x, dtype): x's values in `dtype` (floats to integers truncate
/// toward zero, as C++ casts; nothing staged when x already has that dtype).
Array convert_element_type(const Array& x, DType dtype);

/// lax.slice_in_dim(x, start, limit, stride, axis): x[start:limit:stride] along `axis`, the
/// other axes whole; a missing start is 0, a missing limit the extent, negatives count once from
/// the end.
Array slice_in_dim(const Array& x, std::optional<std::int64_t> start,
                   std::optional<std::int64_t> limit, std::int64_t stride = 1, int axis = 0);
/// lax.index_in_dim(x, index, axis, keepdims): the slice at `index` along `axis` (negative
/// counts from the end); without keepdims the axis is removed. Out of range: fj::ShapeError.
Array index_in_dim(const Array& x, std::int64_t index, int axis = 0, bool keepdims = true);
/// lax.dynamic_slice_in_dim(x, start, size, axis): `size` entries from a traced or static
/// `start` along `axis`, clamped into range as lax.dynamic_slice is.
Array dynamic_slice_in_dim(const Array& x, const DynamicIndex& start, std::int64_t size,
                           int axis = 0);
/// lax.dynamic_index_in_dim(x, index, axis, keepdims): dynamic_slice_in_dim of one entry, the
/// axis removed without keepdims.
Array dynamic_index_in_dim(const Array& x, const DynamicIndex& index, int axis = 0,
                           bool keepdims = true);
/// lax.dynamic_update_slice_in_dim(x, update, start, axis): x with `update` written from
/// `start` along `axis` (0 on the other axes).
Array dynamic_update_slice_in_dim(const Array& x, const Array& update, const DynamicIndex& start,
                                  int axis);
/// lax.dynamic_update_index_in_dim(x, update, index, axis): x with `update` written at `index`
/// along `axis`; an update of rank one less gets that axis first.
Array dynamic_update_index_in_dim(const Array& x, const Array& update, const DynamicIndex& index,
                                  int axis);

/// lax.full(shape, fill_value, dtype): an array of `shape` filled with `fill_value`; without a
/// dtype, the value's own (a C++ integer gives int32, or int64 with x64 on; a bool gives bool;
/// a floating value the default float dtype), as lax takes a Python scalar's dtype. Unlike
/// lax's, the result is strongly typed.
template <class T>
requires std::is_arithmetic_v<T> Array full(const Shape& shape, T fill_value,
                                            std::optional<DType> dtype = std::nullopt) {
  return fj::full(shape, static_cast<double>(fill_value), dtype ? *dtype : default_dtype_of<T>());
}
/// lax.full_like(x, fill_value, dtype, shape): an array like x (its dtype and shape unless
/// given) filled with `fill_value`.
template <class T>
requires std::is_arithmetic_v<T> Array full_like(const Array& x, T fill_value,
                                                 std::optional<DType> dtype = std::nullopt,
                                                 std::optional<Shape> shape = std::nullopt) {
  return fj::full(shape ? *shape : x.shape(), static_cast<double>(fill_value),
                  dtype ? *dtype : x.dtype());
}

/// lax.sort_key_val(keys, values, dimension, is_stable): keys sorted along `dimension`, and
/// values permuted alike; returns {sorted keys, values}.
std::array<Array, 2> sort_key_val(const Array& keys, const Array& values, int dimension = -1,
                                  bool is_stable = true);
/// lax.unstack(x, axis): the slices of x along `axis`, each with that axis removed.
std::vector<Array> unstack(const Array& x, int axis = 0);
/// lax.batch_matmul(lhs, rhs): matrix products batched over every leading axis; lhs and rhs
/// have one rank (at least 2) and equal leading extents.
Array batch_matmul(const Array& lhs, const Array& rhs);

}  // namespace fj::lax
