// The shape rules of the primitives that move or reduce elements without arithmetic of their
// own (broadcast_in_dim, transpose, slice, rev, squeeze, reshape, the reductions) and of the
// generators (iota, platform_index), as lax states them.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/shape_rules_common.hpp"

namespace fj::ir::shape_rules {

inline std::vector<Aval> broadcast_in_dim(Prim, const std::vector<Aval>& in, const Params& params) {
  const auto& shape = params.get<std::vector<std::int64_t>>("shape");
  const auto& dims = params.get<std::vector<std::int64_t>>("broadcast_dimensions");
  Shape out(shape);
  if (static_cast<int>(dims.size()) != in[0].shape.rank())
    throw ShapeError("broadcast_in_dim: operand " + in[0].str() +
                     " needs one broadcast dimension per axis");
  for (int i = 0; i < in[0].shape.rank(); ++i) {
    const auto d = dims[static_cast<std::size_t>(i)];
    if (d < 0 || d >= out.rank() ||
        (in[0].shape[i] != 1 && in[0].shape[i] != out[static_cast<int>(d)]))
      throw ShapeError("broadcast_in_dim: cannot broadcast " + in[0].str() + " to " + out.str());
  }
  return {Aval{in[0].dtype, out, in[0].weak}};
}

inline std::vector<Aval> transpose(Prim, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto& perm = params.get<std::vector<std::int64_t>>("permutation");
  std::vector<bool> seen(static_cast<std::size_t>(a.shape.rank()), false);
  if (static_cast<int>(perm.size()) != a.shape.rank())
    throw ShapeError("transpose: permutation " + tuple_str(perm) + " has " +
                     std::to_string(perm.size()) + " axes but " + a.str() + " has " +
                     std::to_string(a.shape.rank()));
  Shape out;
  for (auto d : perm) {
    if (d < 0 || d >= a.shape.rank() || seen[static_cast<std::size_t>(d)])
      throw ShapeError("transpose: " + tuple_str(perm) + " is not a permutation of the axes of " +
                       a.str());
    seen[static_cast<std::size_t>(d)] = true;
    out.push_back(a.shape[static_cast<int>(d)]);
  }
  return {Aval{a.dtype, out, a.weak}};
}

inline std::vector<Aval> slice(Prim, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto& start = params.get<std::vector<std::int64_t>>("start_indices");
  const auto& limit = params.get<std::vector<std::int64_t>>("limit_indices");
  const auto steps = slice_strides(params, a.shape.rank());
  if (static_cast<int>(start.size()) != a.shape.rank() ||
      static_cast<int>(limit.size()) != a.shape.rank())
    throw ShapeError("slice: bounds " + tuple_str(start) + " to " + tuple_str(limit) + " for " +
                     a.str());
  Shape out;
  for (int d = 0; d < a.shape.rank(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    const auto b = start[i], e = limit[i], st = steps[i];
    if (b < 0 || e < b || e > a.shape[d] || st < 1)
      throw ShapeError("slice: bounds " + tuple_str(start) + " to " + tuple_str(limit) +
                       " are out of range for " + a.str());
    out.push_back((e - b + st - 1) / st);
  }
  return {Aval{a.dtype, out, a.weak}};
}

inline std::vector<Aval> rev(Prim, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto& dims = params.get<std::vector<std::int64_t>>("dimensions");
  std::vector<bool> seen(static_cast<std::size_t>(a.shape.rank()), false);
  for (auto d : dims) {
    if (d < 0 || d >= a.shape.rank() || seen[static_cast<std::size_t>(d)])
      throw ShapeError("rev: dimensions " + tuple_str(dims) + " are out of range or repeated for " +
                       a.str());
    seen[static_cast<std::size_t>(d)] = true;
  }
  return {a};
}

inline std::vector<Aval> squeeze(Prim, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto& dims = params.get<std::vector<std::int64_t>>("dimensions");
  for (auto d : dims)
    if (d < 0 || d >= a.shape.rank() || a.shape[static_cast<int>(d)] != 1)
      throw ShapeError("squeeze: cannot squeeze dimensions " + tuple_str(dims) + " of " + a.str() +
                       ": each must exist and have size 1");
  Shape out;
  for (int d = 0; d < a.shape.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) out.push_back(a.shape[d]);
  if (out.rank() + static_cast<int>(dims.size()) != a.shape.rank())
    throw ShapeError("squeeze: dimensions " + tuple_str(dims) + " are repeated for " + a.str());
  return {Aval{a.dtype, out, a.weak}};
}

inline std::vector<Aval> reshape(Prim, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  Shape out(params.get<std::vector<std::int64_t>>("new_sizes"));
  if (out.size() != a.shape.size())
    throw ShapeError("reshape: cannot reshape " + a.str() + " to " + out.str() + ": sizes differ");
  return {Aval{a.dtype, out, a.weak}};
}

/// reduce_sum, _prod, _max, _min, _and, _or over `axes`.
inline std::vector<Aval> reduce(Prim p, const std::vector<Aval>& in, const Params& params) {
  const auto& axes = params.get<std::vector<std::int64_t>>("axes");
  const Aval& a = in[0];
  const std::string who(name(p));
  if ((p == Prim::reduce_and || p == Prim::reduce_or) && is_float(a.dtype))
    throw DTypeError(who + ": needs bool or integer operands, got " + a.str());
  if ((p == Prim::reduce_sum || p == Prim::reduce_prod) && a.dtype == DType::bool_)
    throw DTypeError(who + ": does not take bool operands, got " + a.str());
  Shape out;
  for (int d = 0; d < a.shape.rank(); ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) out.push_back(a.shape[d]);
  for (auto ax : axes)
    if (ax < 0 || ax >= a.shape.rank())
      throw ShapeError(who + ": axis " + std::to_string(ax) + " is out of range for " + a.str());
  return {Aval{a.dtype, out, a.weak}};
}

/// iota: the index along `dimension` of an array of `shape`, in `dtype`.
inline std::vector<Aval> iota(Prim, const std::vector<Aval>&, const Params& params) {
  const DType d = params.get<DType>("dtype");
  const Shape shape(params.get<std::vector<std::int64_t>>("shape"));
  const auto dim = params.get<std::int64_t>("dimension");
  if (d == DType::bool_) throw DTypeError("iota: dtype must be numeric, got bool");
  if (dim < 0 || dim >= shape.rank())
    throw ShapeError("iota: dimension " + std::to_string(dim) + " is out of range for shape " +
                     shape.str());
  return {Aval{d, shape, false}};
}

/// platform_index: a branch index.
inline std::vector<Aval> platform_index(Prim, const std::vector<Aval>&, const Params&) {
  return {Aval{DType::i32, Shape{}, false}};
}

}  // namespace fj::ir::shape_rules
