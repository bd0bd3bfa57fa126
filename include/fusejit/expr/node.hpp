// Expression-template nodes: immutable data whose C++ type is the fused graph's structure.
#pragma once
#include <array>
#include <vector>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// Where leaves go when an expression is lowered: into a trace, or into an eager graph whose
/// inputs are the leaves in visiting order.
struct LowerCtx {
  ir::GraphBuilder& b;
  TraceState* trace = nullptr;                    // recording into a trace when set
  const std::vector<ir::Atom>* inputs = nullptr;  // eager: the graph's invars, one per leaf
  std::size_t next = 0;

  ir::Atom array_leaf(const Array& a);
  template <class T>
  ir::Atom scalar_leaf(T v) {
    if (!trace) return (*inputs)[next++];
    return ir::Atom::of_literal(ir::Literal::of(v, !std::is_same_v<T, bool>));
  }
};

/// Defined in the implementation unit: turns a traced-array misuse into the right fj::Error.
[[noreturn]] void throw_escaped_tracer(const Array& a);
[[noreturn]] void throw_empty_array(const char* where);

struct ArrayValLeaf : ExprBase {
  Array a;
  void key(std::vector<std::int64_t>&) const {}
  template <class F>
  void for_each_leaf(F&& f) const {
    f(a);
  }
  ir::Atom lower(LowerCtx& c) const { return c.array_leaf(a); }
};
template <class T>
struct ScalarLeaf : ExprBase {
  T v;
  void key(std::vector<std::int64_t>&) const {}
  template <class F>
  void for_each_leaf(F&& f) const {
    f(v);
  }
  ir::Atom lower(LowerCtx& c) const { return c.scalar_leaf(v); }
};

/// An operation applied to child expressions; Op lowers the children's atoms.
template <class Op, class... Kids>
struct Node : ExprNode<Node<Op, Kids...>> {
  Op op;
  std::tuple<Kids...> kids;
  template <class F>
  void for_each_leaf(F&& f) const {
    std::apply([&](const auto&... k) { (k.for_each_leaf(f), ...); }, kids);
  }
  /// Appends the operations' runtime parameters (an astype's dtype, a reduction's axes): the
  /// eager cache keys on them, since the C++ type of the expression does not hold them.
  void key(std::vector<std::int64_t>& k) const {
    if constexpr (requires { op.key(k); }) op.key(k);
    std::apply([&](const auto&... c) { (c.key(k), ...); }, kids);
  }
  ir::Atom lower(LowerCtx& c) const {
    // Children lower left to right, the order for_each_leaf visits them in.
    return std::apply([&](const auto&... k) { return lower_in_order(c, k...); }, kids);
  }
  FUSEJIT_NO_BOOL_CONVERSION(Op)

 private:
  template <class... K>
  ir::Atom lower_in_order(LowerCtx& c, const K&... k) const {
    const std::array<ir::Atom, sizeof...(K)> atoms{k.lower(c)...};  // braced: evaluated in order
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return op(c.b, atoms[I]...); }
    (std::index_sequence_for<K...>{});
  }
};

template <class T>
concept ArrayLike = Expr<T> || std::same_as<std::remove_cvref_t<T>, Array>;
template <class T>
concept Operand = ArrayLike<T> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

/// The node that holds an operand. Arrays are held by value (a shared buffer, no copy of data),
/// so an expression returned from a function never dangles on the function's locals.
template <class T>
auto as_node(T&& x) {
  using D = std::remove_cvref_t<T>;
  if constexpr (Expr<D>)
    return D(std::forward<T>(x));
  else if constexpr (std::is_same_v<D, Array>)
    return ArrayValLeaf{{}, std::forward<T>(x)};
  else
    return ScalarLeaf<D>{{}, x};
}
template <class T>
using node_t = decltype(as_node(std::declval<T>()));

template <class Op, class... T>
auto make_node(Op op, T&&... xs) {
  return Node<Op, node_t<T>...>{{}, op, {as_node(std::forward<T>(xs))...}};
}

// The operations. Each is a tag (with any runtime parameter) that lowers atoms.
template <ir::Prim P>
struct UnaryOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom a) const { return lower_unary(b, P, a); }
};
template <ir::Prim P>
struct BinaryOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_binary(b, P, x, y);
  }
};
template <ir::Prim P>
struct LogicalOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_logical(b, P, x, y);
  }
};
struct TrueDivideOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_true_divide(b, x, y);
  }
};
struct PowOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const { return lower_pow(b, x, y); }
};
struct RemainderOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_remainder(b, x, y);
  }
};
/// &, |, ^ (fj::bitwise_and / or / xor): `and`, `or`, `xor` on integers or bools.
template <ir::Prim P>
struct BitwiseOp {
  static constexpr const char* fn = P == ir::Prim::and_  ? "fj::bitwise_and"
                                    : P == ir::Prim::or_ ? "fj::bitwise_or"
                                                         : "fj::bitwise_xor";
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_bitwise(b, P, x, y, fn);
  }
};
struct BitwiseNotOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_bitwise_not(b, x); }
};
/// << and >> (fj::left_shift / right_shift); >> is arithmetic or logical by signedness.
template <bool Left>
struct ShiftOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_shift(b, Left, x, y);
  }
};
/// x ** y for a static integer y: the exponent is a param, so the eager cache keys on it.
struct IntegerPowOp {
  std::int64_t y;
  void key(std::vector<std::int64_t>& k) const { k.push_back(y); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_integer_pow(b, x, y); }
};
struct FloorDivideOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_floor_divide(b, x, y);
  }
};
struct LogicalNotOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_logical_not(b, x); }
};
struct RoundOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_round(b, x); }
};
struct AstypeOp {
  DType to;
  void key(std::vector<std::int64_t>& k) const { k.push_back(static_cast<std::int64_t>(to)); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_astype(b, x, to); }
};
struct WhereOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom c, ir::Atom x, ir::Atom y) const {
    return lower_where(b, c, x, y);
  }
};
/// A reduction with its axes (all of them when `all_axes`) and keepdims; `mean` divides a sum.
struct ReduceOp {
  ir::Prim prim;
  std::vector<int> axes;
  bool all_axes = true;
  bool keepdims = false;
  bool mean = false;
  void key(std::vector<std::int64_t>& k) const {
    // push_back, not insert of a braced list: GCC 12 warns falsely about the latter in user code.
    for (std::int64_t v :
         {static_cast<std::int64_t>(prim), std::int64_t{all_axes}, std::int64_t{keepdims},
          std::int64_t{mean}, static_cast<std::int64_t>(axes.size())})
      k.push_back(v);
    for (int a : axes) k.push_back(a);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return mean ? lower_mean(b, x, axes, all_axes, keepdims)
                : lower_reduce(b, prim, x, axes, all_axes, keepdims);
  }
};
/// An index map: transpose (perm), reshape (sizes) or slice (start, stop, step).
struct IndexMapOp {
  ir::Prim prim;
  std::vector<std::int64_t> a, b, c;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(static_cast<std::int64_t>(prim));
    for (auto* v : {&a, &b, &c}) {
      k.push_back(static_cast<std::int64_t>(v->size()));
      k.insert(k.end(), v->begin(), v->end());
    }
  }
  ir::Atom operator()(GraphBuilder& g, ir::Atom x) const {
    if (prim == ir::Prim::transpose) return lower_transpose(g, x, a);
    if (prim == ir::Prim::reshape) return lower_reshape(g, x, a);
    return lower_slice(g, x, a, b, c);
  }
};
struct ClipOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom lo, ir::Atom hi) const {
    return lower_clip(b, x, lo, hi);
  }
};

}  // namespace fj::detail
