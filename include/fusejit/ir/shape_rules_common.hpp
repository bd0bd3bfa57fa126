// Helpers the library primitives' shape rules share (shape_rules_library.hpp and
// shape_rules_index.hpp): the avals in a message, and a check that listed axes are in range.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::ir::library_rules {

inline std::string list(const std::vector<Aval>& in, std::size_t from = 0) {
  std::string s;
  for (std::size_t i = from; i < in.size(); ++i) s += (i > from ? ", " : "") + in[i].str();
  return s;
}

inline void check_axes(const char* who, const std::vector<std::int64_t>& dims, int rank,
                       const Aval& a, std::vector<bool>& used) {
  for (auto d : dims) {
    if (d < 0 || d >= rank || used[static_cast<std::size_t>(d)])
      throw ShapeError(std::string(who) + ": dimension " + std::to_string(d) +
                       " is out of range or repeated for " + a.str());
    used[static_cast<std::size_t>(d)] = true;
  }
}

}  // namespace fj::ir::library_rules
