// fj::PyTreeDef, out-of-line: counting, JAX's printed form, prefix matching (impl. unit only).
#include "fusejit/api/pytree/treedef.hpp"

namespace fj {

std::size_t PyTreeDef::num_leaves() const {
  if (kind == Kind::leaf) return 1;
  std::size_t n = 0;
  for (auto& c : children) n += c.num_leaves();
  return n;
}

std::size_t PyTreeDef::num_nodes() const {
  std::size_t n = 1;
  for (auto& c : children) n += c.num_nodes();
  return n;
}

std::string PyTreeDef::body() const {
  auto join = [&](const char* open, const char* close) {
    std::string s = open;
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (i) s += ", ";
      if (kind == Kind::dict) s += "'" + keys[i] + "': ";
      s += children[i].body();
    }
    if (kind == Kind::tuple && children.size() == 1) s += ",";
    return s + close;
  };
  switch (kind) {
    case Kind::leaf:
      return "*";
    case Kind::none:
      return "None";
    case Kind::tuple:
      return join("(", ")");
    case Kind::list:
      return join("[", "]");
    case Kind::dict:
      return join("{", "}");
    case Kind::custom: {
      std::string s = "CustomNode(" + name + "[()], [";
      for (std::size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + children[i].body();
      return s + "])";
    }
  }
  return "?";
}

std::string PyTreeDef::str() const { return "PyTreeDef(" + body() + ")"; }

namespace detail {

bool tree_prefix_of(const PyTreeDef& prefix, const PyTreeDef& full) {
  if (prefix.kind == PyTreeDef::Kind::leaf) return true;
  if (prefix.kind != full.kind || prefix.children.size() != full.children.size() ||
      prefix.keys != full.keys || prefix.name != full.name || prefix.alt != full.alt)
    return false;
  for (std::size_t i = 0; i < prefix.children.size(); ++i)
    if (!tree_prefix_of(prefix.children[i], full.children[i])) return false;
  return true;
}

}  // namespace detail

}  // namespace fj
