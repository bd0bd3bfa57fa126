// fj::PyTreeDef: the structure of a pytree (its nodes, not its leaves), printed as JAX prints it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace fj {

/// The structure of a pytree: what jax.tree_util.tree_structure returns. `str()` gives JAX's text:
/// `PyTreeDef((*, [*, *], {'a': *}))`; a leaf is `*`, std::tuple / std::pair / std::array print
/// as tuples, std::vector as a list, std::map<std::string, T> as a dict, std::monostate as None
/// and a struct registered with FUSEJIT_PYTREE as `CustomNode(Name[()], [children])`, as a
/// dataclass registered with jax.tree_util.register_dataclass prints.
struct PyTreeDef {
  /// What a node is: a leaf (`*`), None, a tuple, a list, a dict or a FUSEJIT_PYTREE struct.
  enum class Kind : std::uint8_t { leaf, none, tuple, list, dict, custom };
  Kind kind = Kind::leaf;           ///< this node's kind
  std::vector<PyTreeDef> children;  ///< the child nodes, in order (none for a leaf or None)
  std::vector<std::string> keys;    ///< a dict's keys (sorted), or a custom node's field names
  std::string name;                 ///< a custom node's type name
  int alt = -1;  ///< which alternative a std::variant holds at this position (not printed)

  /// The number of leaves (treedef.num_leaves).
  std::size_t num_leaves() const;
  /// The number of nodes, leaves included (treedef.num_nodes).
  std::size_t num_nodes() const;
  /// `PyTreeDef(...)`, as JAX prints it.
  std::string str() const;
  /// The text inside `PyTreeDef(...)`.
  std::string body() const;
  /// The same structure (JAX's treedef equality); variant alternatives count.
  friend bool operator==(const PyTreeDef&, const PyTreeDef&) = default;
  /// Prints str().
  friend std::ostream& operator<<(std::ostream& os, const PyTreeDef& d) { return os << d.str(); }
};

namespace detail {
/// Whether `prefix` is a prefix of `full` (equal, except that a leaf of `prefix` may stand for
/// a whole subtree of `full`), as tree_map requires of its extra trees.
bool tree_prefix_of(const PyTreeDef& prefix, const PyTreeDef& full);
}  // namespace detail

}  // namespace fj
