// Pytrees of arrays, as the transformations see them: flattened to fj::Array leaves and rebuilt
// with every leaf an fj::Array (a tracer inside a trace).
#pragma once
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/pytree/tree_util.hpp"
#include "fusejit/expr/materialize.hpp"

namespace fj::detail {

/// Whether L may be a leaf of a pytree passed to jit, grad, vmap or lax: an array, an expression
/// or a C++ scalar.
template <class L>
concept ArrayLeaf = ArrayLike<L> || std::is_arithmetic_v<std::remove_cvref_t<L>>;

template <class L>
struct all_array_leaves;
template <class... L>
struct all_array_leaves<pytree::types<L...>> : std::bool_constant<(ArrayLeaf<L> && ...)> {};
/// Whether every leaf type of T is an ArrayLeaf.
template <class T>
inline constexpr bool array_tree_v =
    all_array_leaves<typename pytree::leaf_types<std::remove_cvref_t<T>>::type>::value;

struct ToArrayType {
  template <class L>
  Array operator()(const L&) const;
};
/// T as a traced function receives it (and as a transformation returns it): the same structure,
/// every leaf an fj::Array.
template <class T>
using traced_t = decltype(pytree::map_tree(std::declval<const ToArrayType&>(),
                                           std::declval<const std::remove_cvref_t<T>&>()));

/// A leaf as an Array: arrays as they are, expressions evaluated (or recorded), C++ scalars as
/// weakly typed rank-0 arrays, as Python scalars are.
template <class T>
Array as_array(const T& v) {
  if constexpr (std::is_same_v<T, Array>)
    return v;
  else if constexpr (Expr<T>)
    return Array(v);
  else
    return literal_array(ir::Literal::of(v, !std::is_same_v<T, bool>));
}

/// Appends t's leaves, as arrays, to `out`.
template <class T>
void flatten_arrays(const T& t, std::vector<Array>& out) {
  static_assert(array_tree_v<T>,
                "fj: a pytree passed to jit, grad, vmap or lax must have fj::Array, expression or "
                "C++ scalar leaves");
  pytree::for_each_leaf(t, [&](const auto& l) { out.push_back(as_array(l)); });
}
template <class T>
std::vector<Array> flatten_arrays(const T& t) {
  std::vector<Array> out;
  flatten_arrays(t, out);
  return out;
}

/// traced_t<T> of structure `def` from the leaves at leaves[pos...]; advances pos. Leaves of a
/// span of const arrays are copied, those of a span of arrays moved out.
template <class T, class Leaf>
traced_t<T> unflatten_arrays(const PyTreeDef& def, std::span<Leaf> leaves, std::size_t& pos) {
  if (pos + def.num_leaves() > leaves.size())
    throw ValueError("fj: internal: " + std::to_string(leaves.size() - pos) +
                     " arrays for the structure " + def.str());
  return pytree::build_tree<traced_t<T>>(def,
                                         [&](std::type_identity<Array>, const PyTreeDef&) -> Array {
                                           if constexpr (std::is_const_v<Leaf>)
                                             return leaves[pos++];
                                           else
                                             return std::move(leaves[pos++]);
                                         });
}
template <class T>
traced_t<T> unflatten_arrays(const PyTreeDef& def, const std::vector<Array>& leaves,
                             std::size_t& pos) {
  return unflatten_arrays<T>(def, std::span<const Array>(leaves), pos);
}
template <class T>
traced_t<T> unflatten_arrays(const PyTreeDef& def, const std::vector<Array>& leaves) {
  std::size_t pos = 0;
  return unflatten_arrays<T>(def, leaves, pos);
}

}  // namespace fj::detail
