// jax.lax's functions under their lax names (implementation unit only): round with its rounding
// method, select/select_n, the reductions, rev, broadcast_in_dim, collapse, the *_in_dim slices,
// sort_key_val, unstack and batch_matmul, each staged as lax stages it.
#include "fusejit/api/lax_functions.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include "fusejit/api/sorting.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/ir/builder.hpp"

namespace fj::lax {

namespace {

// A node that emits one primitive with its params (lax's own spelling, no jit around it).
struct LaxPrimitiveOp {
  ir::Prim prim;
  std::vector<std::int64_t> ints;  // the params' values, for the cache key
  std::function<ir::Params()> params;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(static_cast<std::int64_t>(prim));
    k.insert(k.end(), ints.begin(), ints.end());
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x) const {
    return b.emit1(prim, {x}, params());
  }
};

// select_n(which, cases...): one equation over all operands.
struct LaxSelectNOp {
  ir::Atom operator()(detail::GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    return b.emit1(ir::Prim::select_n, xs);
  }
};

Array emit_lax(const Array& x, ir::Prim prim, std::vector<std::int64_t> ints,
               std::function<ir::Params()> params) {
  return Array(detail::make_node(LaxPrimitiveOp{prim, std::move(ints), std::move(params)}, x));
}

// The dimensions, each in [0, rank) and distinct, or an fj::ShapeError naming `who`.
std::vector<std::int64_t> lax_dimensions(const std::vector<int>& dims, const Array& x,
                                         const char* who, const char* what) {
  std::vector<std::int64_t> out;
  for (int d : dims) {
    const bool repeated = std::find(out.begin(), out.end(), d) != out.end();
    if (d < 0 || d >= x.ndim() || repeated)
      throw ShapeError(std::string(who) + ": " + what + " " +
                       ir::tuple_str(std::vector<std::int64_t>(dims.begin(), dims.end())) +
                       " must be distinct axes in [0, " + std::to_string(x.ndim()) +
                       ") of an array " + x.aval().str());
    out.push_back(d);
  }
  return out;
}

Array lax_reduce(ir::Prim prim, const Array& x, const std::vector<int>& axes, const char* who) {
  lax_dimensions(axes, x, who, "axes");
  return Array(detail::make_node(detail::ReduceOp{prim, axes, false, false}, x));
}

void same_aval(const Array& a, const Array& b, const char* who) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    throw TypeError(std::string(who) + ": the cases must have one shape and dtype, got " +
                    a.aval().str() + " and " + b.aval().str());
}

}  // namespace

Array round(const Array& x, RoundingMethod method) {
  if (!is_float(x.dtype()))
    throw DTypeError("fj::lax::round: x must be a float array, got " + x.aval().str());
  const auto m = static_cast<std::int64_t>(method);
  return emit_lax(x, ir::Prim::round, {m}, [m] {
    ir::Params p;
    p.items.push_back({"rounding_method", m, true});
    return p;
  });
}

Array select_n(const Array& which, const std::vector<Array>& cases) {
  if (cases.empty()) throw ValueError("fj::lax::select_n: cases must not be empty");
  for (const Array& c : cases) same_aval(cases[0], c, "fj::lax::select_n");
  const bool is_bool = which.dtype() == DType::bool_;
  if (!(is_bool && cases.size() <= 2) && which.dtype() != DType::i32)
    throw DTypeError("fj::lax::select_n: which must be bool (two cases) or int32, got " +
                     which.aval().str());
  if (which.ndim() != 0 && which.shape() != cases[0].shape())
    throw ShapeError("fj::lax::select_n: which " + which.aval().str() +
                     " must be a scalar or of the cases' shape " + cases[0].aval().str());
  std::vector<Array> items{which};
  items.insert(items.end(), cases.begin(), cases.end());
  return Array(detail::ListNode<LaxSelectNOp>{{}, {}, std::move(items)});
}

Array select(const Array& pred, const Array& on_true, const Array& on_false) {
  if (pred.dtype() != DType::bool_)
    throw DTypeError("fj::lax::select: pred must be bool, got " + pred.aval().str());
  return select_n(pred, {on_false, on_true});
}

Array reduce_sum(const Array& x, const std::vector<int>& axes) {
  return lax_reduce(ir::Prim::reduce_sum, x, axes, "fj::lax::reduce_sum");
}
Array reduce_prod(const Array& x, const std::vector<int>& axes) {
  return lax_reduce(ir::Prim::reduce_prod, x, axes, "fj::lax::reduce_prod");
}
Array reduce_max(const Array& x, const std::vector<int>& axes) {
  return lax_reduce(ir::Prim::reduce_max, x, axes, "fj::lax::reduce_max");
}
Array reduce_min(const Array& x, const std::vector<int>& axes) {
  return lax_reduce(ir::Prim::reduce_min, x, axes, "fj::lax::reduce_min");
}
Array reduce_and(const Array& x, const std::vector<int>& axes) {
  if (x.dtype() != DType::bool_)
    throw DTypeError("fj::lax::reduce_and: x must be bool, got " + x.aval().str());
  return lax_reduce(ir::Prim::reduce_and, x, axes, "fj::lax::reduce_and");
}
Array reduce_or(const Array& x, const std::vector<int>& axes) {
  if (x.dtype() != DType::bool_)
    throw DTypeError("fj::lax::reduce_or: x must be bool, got " + x.aval().str());
  return lax_reduce(ir::Prim::reduce_or, x, axes, "fj::lax::reduce_or");
}

Array rev(const Array& x, const std::vector<int>& dimensions) {
  std::vector<std::int64_t> dims = lax_dimensions(dimensions, x, "fj::lax::rev", "dimensions");
  return emit_lax(x, ir::Prim::rev, dims, [dims] {
    ir::Params p;
    p.items.push_back({"dimensions", dims, true});
    return p;
  });
}

Array broadcast_in_dim(const Array& x, const Shape& shape,
                       const std::vector<std::int64_t>& broadcast_dimensions) {
  const auto& dims = broadcast_dimensions;
  bool ok = static_cast<int>(dims.size()) == x.ndim();
  for (std::size_t i = 0; ok && i < dims.size(); ++i) {
    const std::int64_t d = dims[i];
    ok = d >= 0 && d < shape.rank() && (i == 0 || d > dims[i - 1]) &&
         (x.shape()[static_cast<int>(i)] == 1 ||
          x.shape()[static_cast<int>(i)] == shape[static_cast<int>(d)]);
  }
  if (!ok)
    throw ShapeError("fj::lax::broadcast_in_dim: cannot broadcast " + x.aval().str() +
                     " to shape " + shape.str() + " along broadcast_dimensions " +
                     ir::tuple_str(dims));
  std::vector<std::int64_t> ints = shape.to_vector();
  ints.insert(ints.end(), dims.begin(), dims.end());
  return emit_lax(x, ir::Prim::broadcast_in_dim, std::move(ints), [shape, dims] {
    ir::Params p;
    p.items.push_back({"shape", shape.to_vector(), false});
    p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
    return p;
  });
}

Array broadcast(const Array& x, const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> shape = sizes, dims;
  for (int i = 0; i < x.ndim(); ++i) {
    shape.push_back(x.shape()[i]);
    dims.push_back(static_cast<std::int64_t>(sizes.size()) + i);
  }
  return broadcast_in_dim(x, Shape(shape), dims);
}

Array broadcast_to_rank(const Array& x, int rank) {
  if (rank < x.ndim())
    throw ShapeError("fj::lax::broadcast_to_rank: rank " + std::to_string(rank) +
                     " is below the rank of " + x.aval().str());
  if (rank == x.ndim()) return x;
  return broadcast(x, std::vector<std::int64_t>(static_cast<std::size_t>(rank - x.ndim()), 1));
}

Array collapse(const Array& x, int start, std::optional<int> stop) {
  const int r = x.ndim();
  int lo = start < 0 ? start + r : start, hi = stop ? (*stop < 0 ? *stop + r : *stop) : r;
  if (lo < 0 || hi > r || lo > hi)
    throw ShapeError("fj::lax::collapse: axes [" + std::to_string(start) + ", " +
                     (stop ? std::to_string(*stop) : std::string("None")) +
                     ") are not a range of the axes of " + x.aval().str());
  std::vector<std::int64_t> shape;
  for (int i = 0; i < lo; ++i) shape.push_back(x.shape()[i]);
  std::int64_t merged = 1;
  for (int i = lo; i < hi; ++i) merged *= x.shape()[i];
  shape.push_back(merged);
  for (int i = hi; i < r; ++i) shape.push_back(x.shape()[i]);
  return Array(detail::make_node(detail::IndexMapOp{ir::Prim::reshape, shape, {}, {}}, x));
}

Array convert_element_type(const Array& x, DType dtype) { return Array(x.astype(dtype)); }

Array slice_in_dim(const Array& x, std::optional<std::int64_t> start,
                   std::optional<std::int64_t> limit, std::int64_t stride, int axis) {
  const int a = detail::axis_of(axis, x, "fj::lax::slice_in_dim");
  const std::int64_t n = x.shape()[a];
  std::int64_t lo = start.value_or(0), hi = limit.value_or(n);
  if (lo < 0) lo += n;
  if (hi < 0) hi += n;
  if (lo < 0 || hi > n || lo > hi || stride < 1)
    throw ShapeError("fj::lax::slice_in_dim: start " + std::to_string(lo) + ", limit " +
                     std::to_string(hi) + ", stride " + std::to_string(stride) +
                     " do not fit axis " + std::to_string(axis) + " of " + x.aval().str());
  std::vector<std::int64_t> lo_v(static_cast<std::size_t>(x.ndim()), 0),
      hi_v = x.shape().to_vector(), step(static_cast<std::size_t>(x.ndim()), 1);
  lo_v[static_cast<std::size_t>(a)] = lo;
  hi_v[static_cast<std::size_t>(a)] = hi;
  step[static_cast<std::size_t>(a)] = stride;
  // lax.slice_in_dim always passes its strides, so they print as a tuple even when all 1.
  std::vector<std::int64_t> ints = lo_v;
  ints.insert(ints.end(), hi_v.begin(), hi_v.end());
  ints.insert(ints.end(), step.begin(), step.end());
  return emit_lax(x, ir::Prim::slice, std::move(ints), [lo_v, hi_v, step] {
    ir::Params p;
    p.items.push_back({"limit_indices", hi_v, true});
    p.items.push_back({"start_indices", lo_v, true});
    p.items.push_back({"strides", step, true});
    return p;
  });
}

Array index_in_dim(const Array& x, std::int64_t index, int axis, bool keepdims) {
  const int a = detail::axis_of(axis, x, "fj::lax::index_in_dim");
  const std::int64_t n = x.shape()[a], i = index < 0 ? index + n : index;
  if (i < 0 || i >= n)
    throw ShapeError("fj::lax::index_in_dim: index " + std::to_string(index) +
                     " is out of bounds for axis " + std::to_string(axis) + " of " +
                     x.aval().str());
  const Array s = slice_in_dim(x, i, i + 1, 1, a);
  if (keepdims) return s;
  return Array(detail::make_node(detail::SqueezeOp{{a}, false}, s));
}

namespace {
// Starts for lax.dynamic_slice: `start` on axis a, a weak 0 on the others (JAX's _const).
std::vector<DynamicIndex> starts_on(const Array& x, int a, const DynamicIndex& start) {
  std::vector<DynamicIndex> starts;
  for (int i = 0; i < x.ndim(); ++i) starts.push_back(i == a ? start : DynamicIndex(0));
  return starts;
}
}  // namespace

Array dynamic_slice_in_dim(const Array& x, const DynamicIndex& start, std::int64_t size, int axis) {
  const int a = detail::axis_of(axis, x, "fj::lax::dynamic_slice_in_dim");
  std::vector<std::int64_t> sizes = x.shape().to_vector();
  sizes[static_cast<std::size_t>(a)] = size;
  return Array(dynamic_slice(x, starts_on(x, a, start), sizes));
}

Array dynamic_index_in_dim(const Array& x, const DynamicIndex& index, int axis, bool keepdims) {
  const int a = detail::axis_of(axis, x, "fj::lax::dynamic_index_in_dim");
  const Array s = dynamic_slice_in_dim(x, index, 1, a);
  if (keepdims) return s;
  return Array(detail::make_node(detail::SqueezeOp{{a}, false}, s));
}

Array dynamic_update_slice_in_dim(const Array& x, const Array& update, const DynamicIndex& start,
                                  int axis) {
  const int a = detail::axis_of(axis, x, "fj::lax::dynamic_update_slice_in_dim");
  return Array(dynamic_update_slice(x, update, starts_on(x, a, start)));
}

Array dynamic_update_index_in_dim(const Array& x, const Array& update, const DynamicIndex& index,
                                  int axis) {
  const int a = detail::axis_of(axis, x, "fj::lax::dynamic_update_index_in_dim");
  const Array u = update.ndim() == x.ndim()
                      ? update
                      : Array(detail::make_node(detail::ExpandDimsOp{{a}}, update));
  return dynamic_update_slice_in_dim(x, u, index, a);
}

std::array<Array, 2> sort_key_val(const Array& keys, const Array& values, int dimension,
                                  bool is_stable) {
  std::vector<Array> r = sort({keys, values}, dimension, is_stable, 1);
  return {r[0], r[1]};
}

std::vector<Array> unstack(const Array& x, int axis) {
  const int a = detail::axis_of(axis, x, "fj::lax::unstack");
  std::vector<Array> out;
  for (std::int64_t i = 0; i < x.shape()[a]; ++i) out.push_back(index_in_dim(x, i, a, false));
  return out;
}

Array batch_matmul(const Array& lhs, const Array& rhs) {
  const int r = lhs.ndim();
  bool ok = r >= 2 && rhs.ndim() == r;
  for (int i = 0; ok && i < r - 2; ++i) ok = lhs.shape()[i] == rhs.shape()[i];
  if (!ok)
    throw ShapeError("fj::lax::batch_matmul: lhs " + lhs.aval().str() + " and rhs " +
                     rhs.aval().str() + " must have one rank of at least 2 and equal batch axes");
  std::vector<std::int64_t> batch(static_cast<std::size_t>(r - 2));
  std::iota(batch.begin(), batch.end(), 0);
  return Array(dot_general(lhs, rhs, {r - 1}, {r - 2}, batch, batch));
}

}  // namespace fj::lax
