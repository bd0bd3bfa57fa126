// Shape ops as expressions: flip, squeeze, expand_dims, broadcast_to, static indexing, iota.
#pragma once
#include <initializer_list>
#include <vector>

#include "fusejit/expr/operators.hpp"

namespace fj {
namespace detail {

inline void key_ints(std::vector<std::int64_t>& k, const std::vector<int>& v) {
  k.push_back(static_cast<std::int64_t>(v.size()));
  k.insert(k.end(), v.begin(), v.end());
}

/// jnp.flip over the listed axes, or all of them.
struct FlipOp {
  std::vector<int> axes;
  bool all_axes = true;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(all_axes);
    key_ints(k, axes);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_flip(b, x, axes, all_axes);
  }
};
/// jnp.squeeze of the listed axes, or of every axis of size 1.
struct SqueezeOp {
  std::vector<int> axes;
  bool all_axes = true;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(all_axes);
    key_ints(k, axes);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_squeeze(b, x, axes, all_axes);
  }
};
struct ExpandDimsOp {
  std::vector<int> axes;
  void key(std::vector<std::int64_t>& k) const { key_ints(k, axes); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_expand_dims(b, x, axes); }
};
struct BroadcastToOp {
  Shape shape;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(shape.rank());
    k.insert(k.end(), shape.begin(), shape.end());
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_broadcast_to(b, x, shape); }
};
/// x(i, fj::range(a, b, c), fj::newaxis, fj::ellipsis, ...): static indices.
struct IndexOp {
  std::vector<AtItem> items;
  void key(std::vector<std::int64_t>& k) const { index_items_key(items, k); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_static_index(b, x, items); }
};
/// An iota has no operands: its expression node has no children.
struct IotaOp {
  DType dtype;
  Shape shape;
  int dimension = 0;
  void key(std::vector<std::int64_t>& k) const {
    k.insert(k.end(), {static_cast<std::int64_t>(dtype), dimension, shape.rank()});
    k.insert(k.end(), shape.begin(), shape.end());
  }
  ir::Atom operator()(GraphBuilder& b) const { return lower_iota(b, dtype, shape, dimension); }
};

/// One argument of x(...) or x.at(...) as an index item (an array is the next operand).
template <class T>
AtItem at_item(const T& v) {
  if constexpr (std::is_same_v<T, Range>)
    return {AtItem::Kind::range, 0, v};
  else if constexpr (std::is_same_v<T, std::nullopt_t>)
    return {AtItem::Kind::newaxis, 0, {}};
  else if constexpr (std::is_same_v<T, Ellipsis>)
    return {AtItem::Kind::ellipsis, 0, {}};
  else if constexpr (IndexArg<T>)
    return {AtItem::Kind::integer, static_cast<std::int64_t>(v), {}};
  else
    return {AtItem::Kind::array, 0, {}};
}

}  // namespace detail

/// Every axis reversed (jnp.flip(x)).
template <detail::Operand A>
auto flip(A&& x) {
  return detail::make_node(detail::FlipOp{}, std::forward<A>(x));
}
/// The listed axes reversed; negative axes count from the end.
template <detail::Operand A>
auto flip(A&& x, std::initializer_list<int> axes) {
  return detail::make_node(detail::FlipOp{axes, false}, std::forward<A>(x));
}
/// Every axis of size 1 removed (jnp.squeeze(x)).
template <detail::Operand A>
auto squeeze(A&& x) {
  return detail::make_node(detail::SqueezeOp{}, std::forward<A>(x));
}
/// The listed axes removed; each must have size 1, or fj::ShapeError is raised.
template <detail::Operand A>
auto squeeze(A&& x, std::initializer_list<int> axes) {
  return detail::make_node(detail::SqueezeOp{axes, false}, std::forward<A>(x));
}
/// Axes of size 1 inserted at the listed positions of the result (jnp.expand_dims).
template <detail::Operand A>
auto expand_dims(A&& x, std::initializer_list<int> axes) {
  return detail::make_node(detail::ExpandDimsOp{axes}, std::forward<A>(x));
}
/// x broadcast to `shape` by NumPy's rules (jnp.broadcast_to); fj::ShapeError if it cannot be.
template <detail::Operand A>
auto broadcast_to(A&& x, const Shape& shape) {
  return detail::make_node(detail::BroadcastToOp{shape}, std::forward<A>(x));
}

/// 0, 1, ..., n - 1 in `dtype` (lax.iota). Fused into kernels: never read from memory.
inline auto iota(DType dtype, std::int64_t n) {
  return detail::make_node(detail::IotaOp{dtype, Shape{n}, 0});
}
/// An array of `shape` whose elements are their index along `dimension` (lax.broadcasted_iota).
inline auto iota(DType dtype, const Shape& shape, int dimension) {
  return detail::make_node(detail::IotaOp{dtype, shape, dimension});
}

}  // namespace fj
