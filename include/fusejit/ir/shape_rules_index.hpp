// Shape and dtype rules of gather and scatter-add, after JAX's _gather_shape_rule and
// _scatter_shape_rule (implementation unit only; included by shape_rules_library.hpp).
#pragma once
#include <string>

#include "fusejit/ir/gather_dims.hpp"
#include "fusejit/ir/shape_rules_common.hpp"

namespace fj::ir::library_rules {

// The checks gather and scatter share: integer indices whose last axis is the index vector,
// every listed axis in range, and no operand axis both collapsed and batching.
inline void check_index_dims(const char* who, const IndexDims& d, const Aval& operand,
                             const Aval& indices) {
  if (!is_int(indices.dtype))
    throw DTypeError(std::string(who) + ": indices must have an integer dtype, got " +
                     indices.str());
  const int ir = indices.shape.rank();
  if (ir == 0 || indices.shape[ir - 1] != static_cast<std::int64_t>(d.start_map.size()))
    throw ShapeError(std::string(who) + ": the indices' last axis must hold " +
                     std::to_string(d.start_map.size()) + " start indices, got " + indices.str());
  std::vector<bool> used(static_cast<std::size_t>(operand.shape.rank()), false);
  check_axes(who, d.collapsed, operand.shape.rank(), operand, used);
  check_axes(who, d.operand_batching, operand.shape.rank(), operand, used);
  std::vector<bool> mapped(static_cast<std::size_t>(operand.shape.rank()), false);
  check_axes(who, d.start_map, operand.shape.rank(), operand, mapped);
  std::vector<bool> ibatch(static_cast<std::size_t>(ir - 1), false);
  check_axes(who, d.indices_batching, ir - 1, indices, ibatch);
  if (d.operand_batching.size() != d.indices_batching.size())
    throw ShapeError(std::string(who) + ": operand and indices batching dims differ in number");
}

// The shape of a window tensor: `window` axes take `window_sizes` in order, the others the
// indices' batch axes in order.
inline Shape window_tensor_shape(const IndexDims& d, const Shape& indices,
                                 const std::vector<std::int64_t>& window_sizes) {
  const int rank = indices.rank() - 1 + static_cast<int>(d.window.size());
  std::vector<std::int64_t> s;
  std::size_t w = 0, b = 0;
  for (int a = 0; a < rank; ++a) {
    if (w < d.window.size() && d.window[w] == a)
      s.push_back(window_sizes[w++]);
    else
      s.push_back(indices[static_cast<int>(b++)]);
  }
  return Shape(s);
}

inline std::vector<Aval> gather(const std::vector<Aval>& in, const Params& params) {
  const Aval &x = in[0], &idx = in[1];
  const IndexDims d = IndexDims::from(params);
  check_index_dims("gather", d, x, idx);
  const auto& ss = params.get<std::vector<std::int64_t>>("slice_sizes");
  if (static_cast<int>(ss.size()) != x.shape.rank())
    throw ShapeError("gather: slice_sizes must have one entry per operand axis, got " +
                     std::to_string(ss.size()) + " for " + x.str());
  std::vector<std::int64_t> window;
  for (int a = 0; a < x.shape.rank(); ++a) {
    const std::int64_t s = ss[static_cast<std::size_t>(a)];
    if (s < 0 || s > x.shape[a] || (d.is_inserted(a) && s > 1))
      throw ShapeError("gather: slice size " + std::to_string(s) + " does not fit axis " +
                       std::to_string(a) + " of " + x.str());
    if (!d.is_inserted(a)) window.push_back(s);
  }
  if (window.size() != d.window.size())
    throw ShapeError("gather: offset_dims must name one axis per uncollapsed operand axis");
  return {Aval{x.dtype, window_tensor_shape(d, idx.shape, window), false}};
}

inline std::vector<Aval> scatter(Prim p, const std::vector<Aval>& in, const Params& params) {
  const Aval &x = in[0], &idx = in[1], &u = in[2];
  const std::string who(name(p));
  const IndexDims d = IndexDims::from(params);
  check_index_dims(who.c_str(), d, x, idx);
  if (u.dtype != x.dtype)
    throw DTypeError(who + ": updates must have the operand's dtype, got " + list(in));
  // Their update_jaxprs add, multiply, or take max or min, which take no bools here (JAX's
  // x.at[i].add and .mul on bools fail the same; its max and min take bools, fusejit's do
  // not); scatter takes any dtype.
  if (p != Prim::scatter && x.dtype == DType::bool_)
    throw DTypeError(who + ": does not accept dtype bool (numbers only), got " + list(in));
  std::vector<std::int64_t> window;
  for (auto a : d.window)
    window.push_back(a >= 0 && a < u.shape.rank() ? u.shape[static_cast<int>(a)] : -1);
  // Each operand axis with a window takes the next window axis of the updates, no larger.
  std::size_t k = 0;
  bool fits = true;
  for (int a = 0; a < x.shape.rank(); ++a) {
    if (d.is_inserted(a)) continue;
    fits = fits && k < window.size() && window[k] >= 0 && window[k] <= x.shape[a];
    ++k;
  }
  if (!fits || k != window.size() || window_tensor_shape(d, idx.shape, window) != u.shape)
    throw ShapeError(who + ": updates " + u.str() + " do not match operand " + x.str() +
                     " and indices " + idx.str() + " under " + d.str(true));
  return {Aval{x.dtype, x.shape, false}};
}

}  // namespace fj::ir::library_rules
