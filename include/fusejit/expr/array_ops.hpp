// Array operations beyond elementwise math: dot, matmul, dot_general, argmax/argmin,
// concatenate, stack, and lax's dynamic slices, as expressions over arrays and tracers.
#pragma once
#include <initializer_list>
#include <optional>
#include <vector>

#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

/// An operation over a runtime-length list of arrays (concatenate, stack, dynamic slices).
template <class Op>
struct ListNode : ExprNode<ListNode<Op>> {
  Op op;
  std::vector<Array> items;
  template <class F>
  void for_each_leaf(F&& f) const {
    for (const Array& a : items) f(a);
  }
  void key(std::vector<std::int64_t>& k) const {
    if constexpr (requires { op.key(k); }) op.key(k);
    k.push_back(static_cast<std::int64_t>(items.size()));
  }
  ir::Atom lower(LowerCtx& c) const {
    std::vector<ir::Atom> atoms;
    atoms.reserve(items.size());
    for (const Array& a : items) atoms.push_back(c.array_leaf(a));
    return op(c.b, atoms);
  }
  FUSEJIT_NO_BOOL_CONVERSION(Op)
};

enum class DotKind : std::uint8_t { dot, matmul };
template <DotKind K>
struct DotOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return K == DotKind::dot ? lower_dot(b, x, y) : lower_matmul(b, x, y);
  }
};
struct DotGeneralOp {
  ir::DotDims dims;
  void key(std::vector<std::int64_t>& k) const {
    for (auto* v : {&dims.lhs_contract, &dims.rhs_contract, &dims.lhs_batch, &dims.rhs_batch}) {
      k.push_back(static_cast<std::int64_t>(v->size()));
      k.insert(k.end(), v->begin(), v->end());
    }
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_dot_general(b, x, y, dims, std::nullopt, "fj::lax::dot_general");
  }
};
struct ArgReduceOp {
  ir::Prim prim;
  int axis = 0;
  bool all_axes = true;
  bool keepdims = false;
  void key(std::vector<std::int64_t>& k) const {
    // push_back, not insert of a braced list: GCC 12 warns falsely about the latter.
    for (std::int64_t v : {static_cast<std::int64_t>(prim), std::int64_t{axis},
                           std::int64_t{all_axes}, std::int64_t{keepdims}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_arg_reduce(b, prim, x, axis, all_axes, keepdims);
  }
};
struct JoinOp {
  ir::Prim prim;
  int axis = 0;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(static_cast<std::int64_t>(prim));
    k.push_back(axis);
  }
  ir::Atom operator()(GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    return lower_join(b, prim, xs, axis);
  }
};
struct DynamicSliceOp {
  std::vector<std::int64_t> sizes;
  void key(std::vector<std::int64_t>& k) const { k.insert(k.end(), sizes.begin(), sizes.end()); }
  ir::Atom operator()(GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    return lower_dynamic_slice(b, xs[0], {xs.begin() + 1, xs.end()}, sizes);
  }
};
struct DynamicUpdateSliceOp {
  ir::Atom operator()(GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    return lower_dynamic_update_slice(b, xs[0], xs[1], {xs.begin() + 2, xs.end()});
  }
};

struct BitcastOp {
  DType to;
  void key(std::vector<std::int64_t>& k) const { k.push_back(static_cast<std::int64_t>(to)); }
  ir::Atom operator()(GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    ir::Params p;
    p.items.push_back({"new_dtype", to, true});
    return b.emit1(ir::Prim::bitcast_convert_type, {xs[0]}, std::move(p));
  }
};

/// A concrete weakly typed rank-0 int32 array (a Python int), as a start index.
Array index_scalar(std::int64_t v);

}  // namespace detail

/// A start index: a traced or concrete integer scalar array, or a C++ integer.
struct DynamicIndex {
  Array value;  ///< the index as an integer scalar array
  /// From an array or expression (traced or concrete); implicit, as Python takes any index.
  ///@{
  DynamicIndex(const Array& a) : value(a) {}  // NOLINT: implicit, like a Python index
  template <detail::Expr E>
  DynamicIndex(const E& e) : value(e) {}  // NOLINT
  ///@}
  /// From a C++ integer: a weakly typed int32 scalar, as a Python int.
  template <class I>
  requires std::is_integral_v<I> DynamicIndex(I v) : value(detail::index_scalar(v)) {}  // NOLINT
};

/// jnp.dot: a sum product over x's last axis and y's only (1-D) or second-to-last axis.
template <detail::Operand A, detail::Operand B>
auto dot(A&& x, B&& y) {
  return detail::make_node(detail::DotOp<detail::DotKind::dot>{}, std::forward<A>(x),
                           std::forward<B>(y));
}
/// jnp.matmul (x @ y): matrix products batched over leading dims, which broadcast.
template <detail::ArrayLike A, detail::ArrayLike B>
auto matmul(A&& x, B&& y) {
  return detail::make_node(detail::DotOp<detail::DotKind::matmul>{}, std::forward<A>(x),
                           std::forward<B>(y));
}

/// jnp.argmax: the index of the first maximum over all elements (flattened), or along `axis`;
/// NaN counts as the maximum. An empty axis raises fj::ValueError, as in JAX.
///@{
template <detail::Operand A>
auto argmax(A&& x) {
  return detail::make_node(detail::ArgReduceOp{ir::Prim::argmax, 0, true, false},
                           std::forward<A>(x));
}
template <detail::Operand A>
auto argmax(A&& x, int axis, bool keepdims = false) {
  return detail::make_node(detail::ArgReduceOp{ir::Prim::argmax, axis, false, keepdims},
                           std::forward<A>(x));
}
///@}
/// jnp.argmin: the index of the first minimum; see argmax.
///@{
template <detail::Operand A>
auto argmin(A&& x) {
  return detail::make_node(detail::ArgReduceOp{ir::Prim::argmin, 0, true, false},
                           std::forward<A>(x));
}
template <detail::Operand A>
auto argmin(A&& x, int axis, bool keepdims = false) {
  return detail::make_node(detail::ArgReduceOp{ir::Prim::argmin, axis, false, keepdims},
                           std::forward<A>(x));
}
///@}

/// Joins arrays of one rank along an existing axis; dtypes promote as in jnp.concatenate.
inline auto concatenate(std::vector<Array> xs, int axis = 0) {
  return detail::ListNode<detail::JoinOp>{{}, {ir::Prim::concatenate, axis}, std::move(xs)};
}
/// Joins arrays of one shape along a new axis.
inline auto stack(std::vector<Array> xs, int axis = 0) {
  return detail::ListNode<detail::JoinOp>{{}, {ir::Prim::stack, axis}, std::move(xs)};
}

namespace lax {
/// lax.dot_general: contracts lhs_contract with rhs_contract, batched over lhs_batch/rhs_batch;
/// the result's dims are the batch dims, then x's free dims, then y's.
template <detail::ArrayLike A, detail::ArrayLike B>
auto dot_general(A&& x, B&& y, std::vector<std::int64_t> lhs_contract,
                 std::vector<std::int64_t> rhs_contract, std::vector<std::int64_t> lhs_batch = {},
                 std::vector<std::int64_t> rhs_batch = {}) {
  return detail::make_node(detail::DotGeneralOp{{std::move(lhs_contract), std::move(rhs_contract),
                                                 std::move(lhs_batch), std::move(rhs_batch)}},
                           std::forward<A>(x), std::forward<B>(y));
}
/// The box of `sizes` starting at `starts` (traced or not); starts are clamped into range so
/// the box always fits, as XLA does, after a negative start counts once from the end.
inline auto dynamic_slice(const Array& x, std::vector<DynamicIndex> starts,
                          std::vector<std::int64_t> sizes) {
  std::vector<Array> items{x};
  for (auto& s : starts) items.push_back(s.value);
  return detail::ListNode<detail::DynamicSliceOp>{{}, {std::move(sizes)}, std::move(items)};
}
/// lax.bitcast_convert_type: x's bits read as `dtype`, of the same width (f32 <-> i32/u32,
/// f64 <-> i64); another width or bool raises fj::DTypeError.
inline Array bitcast_convert_type(const Array& x, DType dtype) {
  return Array(detail::ListNode<detail::BitcastOp>{{}, {dtype}, {x}});
}
/// x with `update` written at `starts` (clamped as in dynamic_slice).
inline auto dynamic_update_slice(const Array& x, const Array& update,
                                 std::vector<DynamicIndex> starts) {
  std::vector<Array> items{x, update};
  for (auto& s : starts) items.push_back(s.value);
  return detail::ListNode<detail::DynamicUpdateSliceOp>{{}, {}, std::move(items)};
}
}  // namespace lax

/// The spelling of lax.dot_general.
using lax::dot_general;

}  // namespace fj
