// The rest of jax.tree_util for fusejit pytrees: reductions, broadcast, transpose, key paths.
#pragma once
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/api/pytree/tree_util.hpp"

namespace fj {

/// A key path entry naming a child of a tuple, list, std::array or std::pair by position
/// (jax.tree_util.SequenceKey); str() is `[idx]`.
struct SequenceKey {
  std::size_t idx = 0;  ///< the child's position
  /// `[idx]`, as JAX's str(SequenceKey(idx)).
  std::string str() const { return "[" + std::to_string(idx) + "]"; }
  /// Same position.
  friend bool operator==(const SequenceKey&, const SequenceKey&) = default;
};

namespace detail::pytree {
/// Python's repr of a str (a dict key), so that DictKey prints as JAX prints it: single quotes
/// unless the text holds a single quote and no double quote; bytes of 0x80 and above are kept
/// as they are (UTF-8 text Python would print as is).
inline std::string py_repr(std::string_view s) {
  const bool dq = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
  const char q = dq ? '"' : '\'';
  std::string r(1, q);
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == q || c == '\\') {
      r += '\\';
      r += c;
    } else if (c == '\n') {
      r += "\\n";
    } else if (c == '\r') {
      r += "\\r";
    } else if (c == '\t') {
      r += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      r += buf;
    } else {
      r += c;
    }
  }
  return r + q;
}
}  // namespace detail::pytree

/// A key path entry naming a child of a dict (std::map) by key (jax.tree_util.DictKey); str()
/// is `['key']`, the key as Python's repr prints it.
struct DictKey {
  std::string key;  ///< the child's key
  /// `['key']`, as JAX's str(DictKey(key)).
  std::string str() const { return "[" + detail::pytree::py_repr(key) + "]"; }
  /// Same key.
  friend bool operator==(const DictKey&, const DictKey&) = default;
};

/// A key path entry naming a field of a FUSEJIT_PYTREE struct (jax.tree_util.GetAttrKey, what a
/// dataclass registered with register_dataclass gives); str() is `.name`.
struct GetAttrKey {
  std::string name;  ///< the field's name
  /// `.name`, as JAX's str(GetAttrKey(name)).
  std::string str() const { return "." + name; }
  /// Same field name.
  friend bool operator==(const GetAttrKey&, const GetAttrKey&) = default;
};

/// A key path entry naming a child by its position among a node's flattened children
/// (jax.tree_util.FlattenedIndexKey, what JAX gives nodes registered without keys); str() is
/// `[<flat index key>]`. fusejit's node kinds all have keys, so its own paths never hold one: it
/// is here so that every JAX key path can be written and printed.
struct FlattenedIndexKey {
  std::size_t key = 0;  ///< the child's position
  /// `[<flat index key>]`, as JAX's str(FlattenedIndexKey(key)).
  std::string str() const { return "[<flat index " + std::to_string(key) + ">]"; }
  /// Same position.
  friend bool operator==(const FlattenedIndexKey&, const FlattenedIndexKey&) = default;
};

/// One step of a key path: which child of a node (JAX's KeyEntry).
using KeyEntry = std::variant<SequenceKey, DictKey, GetAttrKey, FlattenedIndexKey>;
/// The keys from a tree's root to one of its leaves (jax.tree_util.KeyPath); empty for a tree
/// that is a single leaf.
using KeyPath = std::vector<KeyEntry>;

/// One entry as JAX's keystr prints it: str(key), or with `simple` the bare index, key or name.
inline std::string keystr(const KeyEntry& key, bool simple = false) {
  return std::visit(
      [&](const auto& k) -> std::string {
        using K = std::decay_t<decltype(k)>;
        if (!simple) return k.str();
        if constexpr (std::is_same_v<K, SequenceKey>)
          return std::to_string(k.idx);
        else if constexpr (std::is_same_v<K, FlattenedIndexKey>)
          return std::to_string(k.key);
        else if constexpr (std::is_same_v<K, DictKey>)
          return k.key;
        else
          return k.name;
      },
      key);
}

/// A key path as text (jax.tree_util.keystr): `[0]['a'].b`, or with `simple` the bare entries
/// (`0`, `a`, `b`) joined by `separator`, as keystr(path, simple=True, separator='/') does.
inline std::string keystr(const KeyPath& path, bool simple = false,
                          std::string_view separator = "") {
  std::string r;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i) r += separator;
    r += keystr(path[i], simple);
  }
  return r;
}

namespace detail::pytree {

/// The key of child i of a node of kind k whose keys (dict keys or field names) are `keys`.
inline KeyEntry child_key(Kind k, std::size_t i, const std::vector<std::string>& keys) {
  if (k == Kind::dict) return DictKey{keys[i]};
  if (k == Kind::custom) return GetAttrKey{keys[i]};
  return SequenceKey{i};
}

/// The keys (dict keys, field names) of node t; PyTreeDef's meta is where each kind keeps them.
template <class T>
std::vector<std::string> node_keys(const T& t) {
  PyTreeDef d;
  Node<T>::meta(t, d);
  return std::move(d.keys);
}

/// Calls v(path, leaf) on each leaf of t, in for_each_leaf's order; `path` is t's own path.
template <class T, class V>
void for_each_leaf_with_path(const T& t, KeyPath& path, V&& v) {
  if constexpr (Transparent<T>) {
    std::visit([&](const auto& a) { for_each_leaf_with_path(a, path, v); }, t);
  } else if constexpr (is_node_v<T>) {
    const std::vector<std::string> keys = node_keys(t);
    std::size_t i = 0;
    Node<T>::each(t, [&](const auto& c) {
      path.push_back(child_key(Node<T>::kind, i++, keys));
      for_each_leaf_with_path(c, path, v);
      path.pop_back();
    });
  } else {
    v(std::as_const(path), t);
  }
}

// The types of a node's children (none for a leaf); a std::variant's are those of every
// alternative that is a node, since which one it holds is known only at run time.
template <class T, class = void>
struct child_types {
  using type = types<>;
};
template <class... T>
struct child_types<std::tuple<T...>> {
  using type = types<T...>;
};
template <class A, class B>
struct child_types<std::pair<A, B>> {
  using type = types<A, B>;
};
template <class T, std::size_t N>
struct child_types<std::array<T, N>> {
  using type = types<T>;
};
template <class T, class A>
struct child_types<std::vector<T, A>> {
  using type = types<T>;
};
template <class T, class C, class A>
struct child_types<std::map<std::string, T, C, A>> {
  using type = types<T>;
};
template <class S, class... T>
struct child_types<MappedStruct<S, T...>> {
  using type = types<T...>;
};
template <class... T>
struct child_types<std::variant<T...>> {
  using type = typename concat_all<typename child_types<T>::type...>::type;
};
template <class S>
struct child_types<S, std::enable_if_t<RegisteredPytree<S>>> {
  template <class Tup>
  struct of;
  template <class... F>
  struct of<std::tuple<F...>> {
    using type = types<F...>;
  };
  using type = typename of<typename pytree_fields_t<S>::field_types>::type;
};

/// Whether a structure equals another, not counting which std::variant alternative a node came
/// from (the user's treedefs for tree_transpose are made from trees that need not use them).
inline bool same_shape(const PyTreeDef& a, const PyTreeDef& b) {
  if (a.kind != b.kind || a.keys != b.keys || a.name != b.name ||
      a.children.size() != b.children.size())
    return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (!same_shape(a.children[i], b.children[i])) return false;
  return true;
}

/// outer with each leaf replaced by inner (JAX's outer.compose(inner)).
inline PyTreeDef compose(const PyTreeDef& outer, const PyTreeDef& inner) {
  if (outer.kind == Kind::leaf) {
    PyTreeDef r = inner;
    if (r.alt < 0) r.alt = outer.alt;  // a leaf that was a variant alternative stays one
    return r;
  }
  PyTreeDef r = outer;
  for (auto& c : r.children) c = compose(c, inner);
  return r;
}

/// The subtree of `full` at the first leaf of `prefix` (JAX's prefix.flatten_up_to(full)[0]);
/// nullptr when prefix has no leaves.
inline const PyTreeDef* first_subtree(const PyTreeDef& prefix, const PyTreeDef& full) {
  if (prefix.kind == Kind::leaf) return &full;
  for (std::size_t i = 0; i < prefix.children.size(); ++i)
    if (const PyTreeDef* s = first_subtree(prefix.children[i], full.children[i])) return s;
  return nullptr;
}

/// A leaf's truth value, as Python's bool(leaf) for all(): an fj::Array must hold one element.
template <class L>
bool truth(const L& l) {
  if constexpr (std::is_same_v<L, Array>) {
    if (l.size() != 1)
      throw ValueError(
          "fj::tree_all: the truth value of an array with more than one element (shape " +
          l.shape().str() + ") is ambiguous");
    return l.template item<double>() != 0;
  } else {
    static_assert(std::is_constructible_v<bool, const L&>,
                  "fj::tree_all: every leaf must convert to bool");
    return static_cast<bool>(l);
  }
}

/// JAX's _parallel_reduce: halves reduced recursively, then combined, so an associative
/// operation may be evaluated as a balanced tree (and the grouping matches JAX's).
template <class F, class L>
L parallel_reduce(const F& op, const std::vector<L>& xs, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return xs[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  return op(parallel_reduce(op, xs, lo, mid), parallel_reduce(op, xs, mid, hi));
}

}  // namespace detail::pytree

/// The type flatten_one_level gives a node's children as: their common type, or a std::variant
/// of the distinct child types when they have none (as tree_leaf_t does for leaves).
template <class T>
using tree_child_t = typename detail::pytree::common_leaf<
    typename detail::pytree::child_types<std::remove_cvref_t<T>>::type>::type;

/// Whether values of type T are pytree nodes rather than leaves (jax.tree_util.is_tree_node,
/// which takes a type); a std::variant is a node type when every alternative is one.
template <class T>
inline constexpr bool is_tree_node_v = detail::pytree::is_node_v<T>;
/// A std::variant counts as a node type only when all its alternatives are nodes.
template <class... T>
inline constexpr bool is_tree_node_v<std::variant<T...>> = (is_tree_node_v<T> && ...);

/// is_tree_node_v<T>, spelled as JAX's call: fj::is_tree_node<std::vector<double>>().
template <class T>
constexpr bool is_tree_node() {
  return is_tree_node_v<T>;
}
/// Whether value x is a node: is_tree_node_v of its type, or for a std::variant of the
/// alternative it holds (Python decides by the value's type, which a variant hides).
template <class T>
bool is_tree_node(const T& x) {
  if constexpr (detail::pytree::Transparent<T>)
    return std::visit([](const auto& a) { return is_tree_node(a); }, x);
  else
    return is_tree_node_v<T>;
}

/// f folded over the leaves, left to right, from `initializer`: acc = f(acc, leaf)
/// (jax.tree_util.tree_reduce(f, tree, initializer)). Each leaf is passed with its own C++ type
/// (not converted to tree_leaf_t); the result has the initializer's type.
template <class F, class T, class I>
std::decay_t<I> tree_reduce(F&& f, const T& tree, I&& initializer) {
  std::decay_t<I> acc = std::forward<I>(initializer);
  detail::pytree::for_each_leaf(tree, [&](const auto& l) { acc = f(std::move(acc), l); });
  return acc;
}

/// f folded over tree_leaves(tree) from the first leaf (tree_reduce without an initializer).
/// Raises fj::TypeError on a tree without leaves, as Python's functools.reduce does.
template <class F, class T>
tree_leaf_t<T> tree_reduce(F&& f, const T& tree) {
  auto leaves = tree_leaves(tree);
  if (leaves.empty())
    throw TypeError("fj::tree_reduce: reduce() of empty iterable with no initial value (the tree " +
                    tree_structure(tree).str() + " has no leaves)");
  tree_leaf_t<T> acc = std::move(leaves[0]);
  for (std::size_t i = 1; i < leaves.size(); ++i) acc = f(std::move(acc), leaves[i]);
  return acc;
}

/// The leaves combined by an associative `op` as a balanced tree, grouped as JAX groups them:
/// [1..5] gives op(op(1, 2), op(3, op(4, 5))) (jax.tree_util.tree_reduce_associative). Raises
/// fj::TypeError on a tree without leaves; give `identity` for that case.
template <class F, class T>
tree_leaf_t<T> tree_reduce_associative(F&& op, const T& tree) {
  const auto leaves = tree_leaves(tree);
  if (leaves.empty())
    throw TypeError(
        "fj::tree_reduce_associative: Must specify identity for parallel reduction of empty "
        "sequence (the tree " +
        tree_structure(tree).str() + " has no leaves)");
  return detail::pytree::parallel_reduce(op, leaves, 0, leaves.size());
}

/// tree_reduce_associative(op, tree, identity=identity): `identity` is the result when the tree
/// has no leaves (JAX uses it only then).
template <class F, class T, class I>
tree_leaf_t<T> tree_reduce_associative(F&& op, const T& tree, const I& identity) {
  const auto leaves = tree_leaves(tree);
  if (leaves.empty()) return tree_leaf_t<T>(identity);
  return detail::pytree::parallel_reduce(op, leaves, 0, leaves.size());
}

/// Whether every leaf is true (jax.tree_util.tree_all: Python's all() over the leaves, so true
/// for a tree without leaves, and stopping at the first false leaf). An fj::Array leaf must hold
/// one element (an fj::ValueError otherwise, as bool() of a larger jax.Array raises).
template <class T>
bool tree_all(const T& tree) {
  bool all = true;
  detail::pytree::for_each_leaf(tree, [&](const auto& l) {
    if (all) all = detail::pytree::truth(l);
  });
  return all;
}

/// `prefix_tree` broadcast to `full_tree`'s structure: each leaf of the prefix repeated over the
/// whole corresponding subtree of the full tree (jax.tree_util.tree_broadcast). The result has
/// full_tree's structure and the prefix's leaf types. Raises fj::ValueError naming both
/// structures when prefix_tree is not a prefix of full_tree (a node of another C++ kind where
/// the full tree has a node is a compile-time error, as in tree_map).
template <class P, class T>
auto tree_broadcast(const P& prefix_tree, const T& full_tree) {
  const PyTreeDef p = tree_structure(prefix_tree), full = tree_structure(full_tree);
  if (!detail::tree_prefix_of(p, full))
    throw ValueError("fj::tree_broadcast: the prefix tree's structure " + p.str() +
                     " is not a prefix of the full tree's structure " + full.str());
  return detail::pytree::map_tree(
      [](const auto& leaf, const auto& subtree) {
        return detail::pytree::map_tree([&](const auto&) { return leaf; }, subtree);
      },
      prefix_tree, full_tree);
}

/// A tree of structure outer(inner) transposed into one of structure inner(outer), as type R
/// (jax.tree_util.tree_transpose; C++ needs the result's type, which the structures alone do
/// not give): tree_transpose<std::map<std::string, std::vector<int>>>(outer, inner, tree) turns
/// a list of dicts into a dict of lists. Raises fj::TypeError, as JAX does, naming both
/// structures when tree's structure is not outer composed with inner (JAX compares only leaf
/// counts; fusejit compares the structures, ignoring std::variant alternatives), and
/// fj::ValueError when R does not fit inner(outer).
template <class R, class T>
R tree_transpose(const PyTreeDef& outer_treedef, const PyTreeDef& inner_treedef,
                 const T& pytree_to_transpose) {
  const PyTreeDef got = tree_structure(pytree_to_transpose);
  const PyTreeDef expected = detail::pytree::compose(outer_treedef, inner_treedef);
  if (!detail::pytree::same_shape(got, expected))
    throw TypeError("fj::tree_transpose: Mismatch: the tree has structure " + got.str() +
                    " but outer_treedef " + outer_treedef.str() + " composed with inner_treedef " +
                    inner_treedef.str() + " is " + expected.str());
  const auto flat = tree_leaves(pytree_to_transpose);
  const std::size_t n_outer = outer_treedef.num_leaves(), n_inner = inner_treedef.num_leaves();
  std::vector<tree_leaf_t<T>> out;
  out.reserve(flat.size());
  // Leaf (i of outer, j of inner) is flat[i * n_inner + j]; the result lists j major.
  for (std::size_t j = 0; j < n_inner; ++j)
    for (std::size_t i = 0; i < n_outer; ++i) out.push_back(flat[i * n_inner + j]);
  return tree_unflatten<R>(detail::pytree::compose(inner_treedef, outer_treedef), out);
}

/// tree_transpose(outer_treedef, None, tree): the inner structure is that of the subtree at the
/// outer structure's first leaf. Raises fj::TypeError when outer_treedef is not a prefix of the
/// tree's structure, fj::ValueError when it has no leaves.
template <class R, class T>
R tree_transpose(const PyTreeDef& outer_treedef, std::nullopt_t, const T& pytree_to_transpose) {
  const PyTreeDef got = tree_structure(pytree_to_transpose);
  if (!detail::tree_prefix_of(outer_treedef, got))
    throw TypeError("fj::tree_transpose: Mismatch: outer_treedef " + outer_treedef.str() +
                    " is not a prefix of the tree's structure " + got.str());
  const PyTreeDef* inner = detail::pytree::first_subtree(outer_treedef, got);
  if (!inner)
    throw ValueError("fj::tree_transpose: outer_treedef " + outer_treedef.str() +
                     " has no leaves, so no inner structure can be read off the tree " + got.str() +
                     "; give inner_treedef");
  return tree_transpose<R>(outer_treedef, *inner, pytree_to_transpose);
}

/// The leaf type of tree_leaves_with_path: (key path, leaf).
template <class T>
using tree_path_leaf_t = std::pair<KeyPath, tree_leaf_t<T>>;

/// Each leaf with its key path, in tree_leaves' order (jax.tree_util.tree_leaves_with_path):
/// SequenceKey for tuples, lists, std::array and std::pair, DictKey for std::map, GetAttrKey
/// for FUSEJIT_PYTREE fields; a std::variant adds no key (it is transparent).
template <class T>
std::vector<tree_path_leaf_t<T>> tree_leaves_with_path(const T& tree) {
  std::vector<tree_path_leaf_t<T>> r;
  KeyPath path;
  detail::pytree::for_each_leaf_with_path(
      tree, path, [&](const KeyPath& p, const auto& l) { r.emplace_back(p, tree_leaf_t<T>(l)); });
  return r;
}

/// (leaves with their key paths, structure), as jax.tree_util.tree_flatten_with_path.
template <class T>
std::pair<std::vector<tree_path_leaf_t<T>>, PyTreeDef> tree_flatten_with_path(const T& tree) {
  return {tree_leaves_with_path(tree), tree_structure(tree)};
}

/// f(path, leaf, rest_leaves...) on each leaf of `tree` (path from `tree`), in a tree of the same
/// structure (jax.tree_util.tree_map_with_path); the other trees are checked as tree_map checks
/// them, and fj::ValueError names this function and both structures.
template <class F, class T, class... Us>
auto tree_map_with_path(F&& f, const T& tree, const Us&... rest) {
  detail::check_first_structure("fj::tree_map_with_path", tree, rest...);
  std::vector<KeyPath> paths;
  KeyPath path;
  detail::pytree::for_each_leaf_with_path(
      tree, path, [&](const KeyPath& p, const auto&) { paths.push_back(p); });
  // tree_map visits the leaves in tree_leaves' order (its node maps evaluate left to right), so
  // the n-th call is the n-th leaf and takes the n-th path.
  std::size_t next = 0;
  return tree_map([&](const auto& l, const auto&... r) { return f(paths.at(next++), l, r...); },
                  tree, rest...);
}

/// A node's children and its one-level structure (each child a leaf `*`; its `keys` are JAX's
/// metadata for a dict), as jax.tree_util.flatten_one_level gives (children, metadata). Raises
/// fj::ValueError for a leaf, as JAX does.
template <class T>
std::pair<std::vector<tree_child_t<T>>, PyTreeDef> flatten_one_level(const T& tree) {
  using C = tree_child_t<T>;
  std::pair<std::vector<C>, PyTreeDef> r;
  // Node a's children, converted to C (T's child type, for a std::variant the union over its
  // alternatives).
  auto one_level = [&](const auto& a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (detail::pytree::is_node_v<A> && !detail::pytree::Transparent<A>) {
      r.second.kind = detail::pytree::Node<A>::kind;
      detail::pytree::Node<A>::meta(a, r.second);
      detail::pytree::Node<A>::each(a, [&](const auto& c) {
        r.first.emplace_back(c);
        r.second.children.emplace_back();  // a leaf
      });
    } else {
      throw ValueError("fj::flatten_one_level: can't tree-flatten type: a leaf");
    }
  };
  if constexpr (detail::pytree::Transparent<T>) {
    std::visit(one_level, tree);
    r.second.alt = static_cast<int>(tree.index());  // as tree_structure records it
  } else {
    one_level(tree);
  }
  return r;
}

/// flatten_one_level with each child's key: ((key, child)..., structure), as
/// jax.tree_util.flatten_one_level_with_keys.
template <class T>
std::pair<std::vector<std::pair<KeyEntry, tree_child_t<T>>>, PyTreeDef> flatten_one_level_with_keys(
    const T& tree) {
  auto [children, def] = flatten_one_level(tree);
  std::pair<std::vector<std::pair<KeyEntry, tree_child_t<T>>>, PyTreeDef> r;
  for (std::size_t i = 0; i < children.size(); ++i)
    r.first.emplace_back(detail::pytree::child_key(def.kind, i, def.keys), std::move(children[i]));
  r.second = std::move(def);
  return r;
}

/// The structures of a structure's immediate children, in order (jax.tree_util.treedef_children;
/// none for a leaf or None).
inline std::vector<PyTreeDef> treedef_children(const PyTreeDef& treedef) {
  return treedef.children;
}

/// Whether a structure has a single node (jax.tree_util.treedef_is_leaf): true for a leaf, and
/// also, as in JAX, for None and for an empty tuple, list or dict.
inline bool treedef_is_leaf(const PyTreeDef& treedef) { return treedef.num_nodes() == 1; }

/// The structure of a tuple of trees of the given structures (jax.tree_util.treedef_tuple).
inline PyTreeDef treedef_tuple(std::vector<PyTreeDef> treedefs) {
  PyTreeDef d;
  d.kind = PyTreeDef::Kind::tuple;
  d.children = std::move(treedefs);
  return d;
}

/// Whether every element of a range is a leaf, not a node (jax.tree_util.all_leaves, so None,
/// std::monostate here, counts as a node); a std::variant element is judged by what it holds.
template <class R>
bool all_leaves(const R& iterable) {
  for (const auto& x : iterable)
    if (is_tree_node(x)) return false;
  return true;
}

}  // namespace fj
