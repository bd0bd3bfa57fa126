// JAX's type-promotion lattice (jnp.promote_types), weak types included.
#pragma once
#include "fusejit/core/dtype.hpp"
#include "fusejit/core/x64.hpp"

namespace fj {

/// A dtype with JAX's weak-type flag: a C++ scalar literal is weakly typed.
struct TypedDType {
  DType dtype;        ///< the dtype
  bool weak = false;  ///< weakly typed: promotion lets the other operand's dtype win
  /// Same dtype and weak flag.
  friend constexpr bool operator==(TypedDType, TypedDType) = default;
};

namespace detail {
// Lattice nodes restricted to fusejit's dtypes. i* and f* are the weak int and weak float.
enum class LatticeNode : int { b1, weak_int, u32, i32, i64, weak_float, f32, f64 };
// Bit i set when node i is at or above the node (its upper set in JAX's lattice:
// b1 < i* < {u8,i8} < ... ; u32 < i64, u32 < u64 < f*; i64 < f* < f32 < f64).
constexpr unsigned upper_set(LatticeNode n) {
  constexpr unsigned b1 = 1, wi = 2, u32 = 4, i32 = 8, i64 = 16, wf = 32, f32 = 64, f64 = 128;
  switch (n) {
    case LatticeNode::b1:
      return b1 | wi | u32 | i32 | i64 | wf | f32 | f64;
    case LatticeNode::weak_int:
      return wi | u32 | i32 | i64 | wf | f32 | f64;
    case LatticeNode::u32:
      return u32 | i64 | wf | f32 | f64;
    case LatticeNode::i32:
      return i32 | i64 | wf | f32 | f64;
    case LatticeNode::i64:
      return i64 | wf | f32 | f64;
    case LatticeNode::weak_float:
      return wf | f32 | f64;
    case LatticeNode::f32:
      return f32 | f64;
    case LatticeNode::f64:
      return f64;
  }
  return 0;
}
constexpr LatticeNode to_node(TypedDType t) {
  if (t.weak && t.dtype != DType::bool_)
    return is_float(t.dtype) ? LatticeNode::weak_float : LatticeNode::weak_int;
  switch (t.dtype) {
    case DType::bool_:
      return LatticeNode::b1;
    case DType::i32:
      return LatticeNode::i32;
    case DType::i64:
      return LatticeNode::i64;
    case DType::u32:
      return LatticeNode::u32;
    case DType::f32:
      return LatticeNode::f32;
    case DType::f64:
      return LatticeNode::f64;
  }
  return LatticeNode::f64;
}
}  // namespace detail

/// Least upper bound of two dtypes in JAX's lattice. The weak int and weak float nodes become
/// JAX's defaults with the weak flag kept: i32 and f32, or i64 and f64 when `x64`.
constexpr TypedDType promote_types(TypedDType a, TypedDType b, bool x64) {
  using detail::LatticeNode;
  const unsigned common =
      detail::upper_set(detail::to_node(a)) & detail::upper_set(detail::to_node(b));
  // The least element of the common upper set is the one whose own upper set is largest.
  int best = -1;
  unsigned best_size = 0;
  for (int n = 0; n < 8; ++n) {
    if (!(common & (1u << n))) continue;
    const unsigned s =
        static_cast<unsigned>(__builtin_popcount(detail::upper_set(static_cast<LatticeNode>(n))));
    if (s > best_size) best = n, best_size = s;
  }
  switch (static_cast<LatticeNode>(best)) {
    case LatticeNode::b1:
      return {DType::bool_, false};
    case LatticeNode::weak_int:
      return {x64 ? DType::i64 : DType::i32, true};
    case LatticeNode::u32:
      return {DType::u32, false};
    case LatticeNode::i32:
      return {DType::i32, false};
    case LatticeNode::i64:
      return {DType::i64, false};
    case LatticeNode::weak_float:
      return {x64 ? DType::f64 : DType::f32, true};
    case LatticeNode::f32:
      return {DType::f32, false};
    case LatticeNode::f64:
      return {DType::f64, false};
  }
  return {DType::f64, false};
}
/// The same in the current mode (fj::x64_enabled).
inline TypedDType promote_types(TypedDType a, TypedDType b) {
  return promote_types(a, b, x64_enabled());
}
/// The same for two strongly typed dtypes, whose result never depends on the mode.
constexpr DType promote_types(DType a, DType b) {
  return promote_types(TypedDType{a}, TypedDType{b}, false).dtype;
}

}  // namespace fj
