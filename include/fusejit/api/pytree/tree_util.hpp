// fj::tree_map, tree_leaves, tree_flatten, tree_unflatten and tree_structure (jax.tree_util).
#pragma once
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/api/pytree/node.hpp"
#include "fusejit/expr/array.hpp"

namespace fj::detail::pytree {

template <class T>
concept Transparent = requires {
  Node<std::remove_cvref_t<T>>::transparent;
};

/// Calls v on each leaf of t, in JAX's order (dict keys sorted, fields as registered).
template <class T, class V>
void for_each_leaf(const T& t, V&& v) {
  if constexpr (Transparent<T>) {
    std::visit([&](const auto& a) { for_each_leaf(a, v); }, t);
  } else if constexpr (is_node_v<T>) {
    Node<T>::each(t, [&](const auto& c) { for_each_leaf(c, v); });
  } else {
    v(t);
  }
}

template <class T>
void structure_into(const T& t, PyTreeDef& d) {
  if constexpr (Transparent<T>) {
    std::visit([&](const auto& a) { structure_into(a, d); }, t);
    d.alt = static_cast<int>(t.index());
  } else if constexpr (is_node_v<T>) {
    d.kind = Node<T>::kind;
    Node<T>::meta(t, d);
    Node<T>::each(t, [&](const auto& c) { structure_into(c, d.children.emplace_back()); });
  }
}

/// Whether t has structure d (tree_structure(t) == d), without building a PyTreeDef.
template <class T>
bool matches(const T& t, const PyTreeDef& d) {
  if constexpr (Transparent<T>) {
    if (d.alt != static_cast<int>(t.index())) return false;
    return std::visit([&](const auto& a) { return matches(a, d); }, t);
  } else if constexpr (is_node_v<T>) {
    // (d.alt belongs to an enclosing std::variant, checked there.)
    if (d.kind != Node<T>::kind) return false;
    if constexpr (Node<T>::kind == Kind::dict) {
      if (d.keys.size() != t.size()) return false;
      std::size_t i = 0;
      for (const auto& kv : t)
        if (kv.first != d.keys[i++]) return false;
    }
    std::size_t i = 0;
    bool ok = true;
    Node<T>::each(t, [&](const auto& c) {
      ok = ok && i < d.children.size() && matches(c, d.children[i]);
      ++i;
    });
    return ok && i == d.children.size();
  } else {
    return d.kind == Kind::leaf;
  }
}

/// T rebuilt from a structure; `leaf(std::type_identity<C>, def)` makes each leaf of type C.
template <class T, class L>
T build_tree(const PyTreeDef& d, L&& leaf) {
  auto child = [&](auto tag, const PyTreeDef& cd) {
    return build_tree<typename decltype(tag)::type>(cd, leaf);
  };
  if constexpr (Transparent<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      std::optional<T> r;
      // (void): the fold runs for its side effect (clang warns that its value is unused).
      (void)((d.alt == static_cast<int>(I)
                  ? (r.emplace(std::in_place_index<I>,
                               build_tree<std::variant_alternative_t<I, T>>(d, leaf)),
                     true)
                  : false) ||
             ...);
      if (!r) bad_structure("std::variant alternative", d);
      return std::move(*r);
    }
    (std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (is_node_v<T>) {
    return Node<T>::build(d, child);
  } else {
    if (d.kind != Kind::leaf) bad_structure("leaf", d);
    return leaf(std::type_identity<T>{}, d);
  }
}

template <class T, class... Us>
constexpr void check_same_kinds() {
  if constexpr (is_node_v<T>)
    static_assert((Node<std::remove_cvref_t<T>>::template same_kind<Us> && ...),
                  "fj::tree_map: the trees must have the first tree's structure; here a node of "
                  "the first tree meets a node of another kind (or a leaf) in another tree");
}

template <class F, class T, class... Us>
auto map_tree(const F& f, const T& t, const Us&... us);
template <std::size_t I, class F, class T, class... Us>
auto map_alt(const F& f, const T& t, const Us&... us) {
  return map_tree(f, std::get<I>(t), std::get<I>(us)...);
}

/// f on corresponding leaves of t and us (a leaf of t takes the whole corresponding subtrees of
/// us, as JAX's tree_map does), rebuilt into t's structure.
template <class F, class T, class... Us>
auto map_tree(const F& f, const T& t, const Us&... us) {
  check_same_kinds<T, Us...>();
  auto child = [&](const auto& c, const auto&... cu) { return map_tree(f, c, cu...); };
  if constexpr (Transparent<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using R = std::variant<decltype(map_alt<I>(f, t, us...))...>;
      std::optional<R> r;
      (void)((t.index() == I ? (r.emplace(std::in_place_index<I>, map_alt<I>(f, t, us...)), true)
                             : false) ||
             ...);
      return std::move(*r);
    }
    (std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (is_node_v<T>) {
    return Node<T>::map(child, t, us...);
  } else {
    return f(t, us...);
  }
}

// The list of leaf types of T, with repeats.
template <class... T>
struct types {};
template <class A, class B>
struct concat_types;
template <class... A, class... B>
struct concat_types<types<A...>, types<B...>> {
  using type = types<A..., B...>;
};
template <class... L>
struct concat_all {
  using type = types<>;
};
template <class A, class... L>
struct concat_all<A, L...> {
  using type = typename concat_types<A, typename concat_all<L...>::type>::type;
};

template <class T, class = void>
struct leaf_types {
  using type = types<T>;
};
template <class... T>
struct leaf_types<std::tuple<T...>> {
  using type = typename concat_all<typename leaf_types<std::remove_cvref_t<T>>::type...>::type;
};
template <class A, class B>
struct leaf_types<std::pair<A, B>> : leaf_types<std::tuple<A, B>> {};
template <class T, std::size_t N>
struct leaf_types<std::array<T, N>> : leaf_types<T> {};
template <class T, class A>
struct leaf_types<std::vector<T, A>> : leaf_types<T> {};
template <class T, class C, class A>
struct leaf_types<std::map<std::string, T, C, A>> : leaf_types<T> {};
template <>
struct leaf_types<std::monostate> {
  using type = types<>;
};
template <class... T>
struct leaf_types<std::variant<T...>> : leaf_types<std::tuple<T...>> {};
template <class S, class... T>
struct leaf_types<MappedStruct<S, T...>> : leaf_types<std::tuple<T...>> {};
template <class S>
struct leaf_types<S, std::enable_if_t<RegisteredPytree<S>>>
    : leaf_types<typename pytree_fields_t<S>::field_types> {};

// The first type of a list not among the rest, for the variant fallback.
template <class L, class Seen = types<>>
struct unique_types;
template <class... S>
struct unique_types<types<>, types<S...>> {
  using type = types<S...>;
};
template <class A, class... R, class... S>
struct unique_types<types<A, R...>, types<S...>>
    : std::conditional_t<(std::is_same_v<A, S> || ...), unique_types<types<R...>, types<S...>>,
                         unique_types<types<R...>, types<S..., A>>> {};

template <class L>
struct common_leaf;
template <>
struct common_leaf<types<>> {
  using type = std::monostate;
};
template <class... L>
struct common_leaf<types<L...>> {
  template <class U>
  struct as_variant;
  template <class... U>
  struct as_variant<types<U...>> {
    using type = std::conditional_t<sizeof...(U) == 1, std::tuple_element_t<0, std::tuple<U...>>,
                                    std::variant<U...>>;
  };
  template <class... X>
  static auto pick(int) -> std::common_type_t<X...>;
  template <class... X>
  static auto pick(long) -> typename as_variant<typename unique_types<types<X...>>::type>::type;
  using type = decltype(pick<L...>(0));
};

}  // namespace fj::detail::pytree

namespace fj {

/// The type tree_leaves gives a tree's leaves as: their common type, or a std::variant of the
/// distinct leaf types when they have none.
template <class T>
using tree_leaf_t = typename detail::pytree::common_leaf<
    typename detail::pytree::leaf_types<std::remove_cvref_t<T>>::type>::type;

/// The structure of a pytree (jax.tree_util.tree_structure).
template <class T>
PyTreeDef tree_structure(const T& t) {
  PyTreeDef d;
  detail::pytree::structure_into(t, d);
  return d;
}

/// The leaves of a pytree, in JAX's order (jax.tree_util.tree_leaves).
template <class T>
std::vector<tree_leaf_t<T>> tree_leaves(const T& t) {
  std::vector<tree_leaf_t<T>> r;
  detail::pytree::for_each_leaf(t, [&](const auto& l) { r.emplace_back(l); });
  return r;
}

/// (leaves, structure), as jax.tree_util.tree_flatten.
template <class T>
std::pair<std::vector<tree_leaf_t<T>>, PyTreeDef> tree_flatten(const T& t) {
  return {tree_leaves(t), tree_structure(t)};
}

/// A T of structure `def` holding `leaves` in order (jax.tree_util.tree_unflatten; the C++ type
/// is given, the structure supplies what the type leaves open: lengths, keys). Raises
/// fj::ValueError when the structure does not fit T or the number of leaves differs.
template <class T, class L>
T tree_unflatten(const PyTreeDef& def, const std::vector<L>& leaves) {
  if (def.num_leaves() != leaves.size())
    throw ValueError("fj::tree_unflatten: the structure " + def.str() + " has " +
                     std::to_string(def.num_leaves()) + " leaves but " +
                     std::to_string(leaves.size()) + " were given");
  std::size_t next = 0;
  return detail::pytree::build_tree<T>(def, [&]<class C>(std::type_identity<C>, const PyTreeDef&) {
    if constexpr (std::is_constructible_v<C, const L&>)
      return C(leaves[next++]);
    else if constexpr (requires { std::get<C>(leaves[next]); })
      return std::get<C>(leaves[next++]);
    else
      static_assert(std::is_constructible_v<C, const L&>,
                    "fj::tree_unflatten: the leaves' type does not convert to a leaf type of T");
  });
}

namespace detail {
/// fj::ValueError naming `fn` unless each of `rest` has `tree`'s structure (a leaf of `tree` may
/// stand for a whole subtree), as tree_map and its kin check their extra trees.
template <class T, class... Us>
void check_first_structure(const char* fn, const T& tree, const Us&... rest) {
  if constexpr (sizeof...(Us) > 0) {
    const PyTreeDef d = tree_structure(tree);
    std::size_t k = 0;
    (
        [&](const auto& u) {
          ++k;
          const PyTreeDef du = tree_structure(u);
          if (!tree_prefix_of(d, du))
            throw ValueError(std::string(fn) + ": tree " + std::to_string(k) + " has structure " +
                             du.str() + " but the first tree has " + d.str() +
                             "; every tree must have the first tree's structure");
        }(rest),
        ...);
  }
}
}  // namespace detail

/// f applied to each leaf of `tree` (and the corresponding leaves of `rest`), in a tree of the
/// same structure (jax.tree_util.tree_map). The other trees must have tree's structure (a leaf
/// of `tree` takes their whole corresponding subtree): a different node type is a compile-time
/// error, a different length or key set an fj::ValueError showing both structures.
template <class F, class T, class... Us>
auto tree_map(F&& f, const T& tree, const Us&... rest) {
  detail::check_first_structure("fj::tree_map", tree, rest...);
  // Expressions are evaluated into arrays: they may refer to the leaves they were made of.
  auto leaf = [&](const auto&... l) {
    using R = decltype(f(l...));
    if constexpr (detail::Expr<R>)
      return Array(f(l...));
    else
      return f(l...);
  };
  return detail::pytree::map_tree(leaf, tree, rest...);
}

}  // namespace fj
