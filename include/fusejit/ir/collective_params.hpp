// The params of the collective primitives (psum, all_gather, ppermute, ...): built here once, in
// JAX 0.10.2's printed form, and read back by the shape rules, the transformation rules and the
// run-time combine. Every collective also holds its axis name in the hidden param `axis`.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir::collective {

/// Whether p is one of the collectives (primitives.def's psum ... axis_index).
constexpr bool is_collective(Prim p) {
  return p == Prim::psum || p == Prim::pmax || p == Prim::pmin || p == Prim::all_gather ||
         p == Prim::reduce_scatter || p == Prim::all_to_all || p == Prim::ppermute ||
         p == Prim::axis_index;
}

/// Python's repr of a one-name tuple, ('i',), as JAX prints axes=.
inline std::string name_tuple(const std::string& name) { return "('" + name + "',)"; }

/// The axis name the equation's collective runs over.
inline const std::string& axis_of(const Params& p) { return p.get<std::string>("axis"); }

inline void add_axis(Params& p, const std::string& name) {
  p.items.push_back({"axis", name, false});
}

/// psum, pmax, pmin: axes=('i',) axis_index_groups=None.
inline Params reduction(const std::string& name) {
  Params p;
  p.items.push_back({"axes", name_tuple(name), true});
  p.items.push_back({"axis_index_groups", std::string("None"), true});
  add_axis(p, name);
  return p;
}

/// all_gather (dimension: all_gather_dimension) and reduce_scatter (scatter_dimension).
inline Params gather_or_scatter(Prim prim, const std::string& name, std::int64_t size,
                                std::int64_t dimension, bool tiled) {
  Params p;
  p.items.push_back(
      {prim == Prim::all_gather ? "all_gather_dimension" : "scatter_dimension", dimension, true});
  p.items.push_back({"axis_index_groups", std::string("None"), true});
  p.items.push_back({"axis_name", name_tuple(name), true});
  p.items.push_back({"axis_size", size, true});
  p.items.push_back({"tiled", tiled, true});
  add_axis(p, name);
  return p;
}
inline std::int64_t dimension_of(Prim prim, const Params& p) {
  return p.get<std::int64_t>(prim == Prim::all_gather ? "all_gather_dimension"
                                                      : "scatter_dimension");
}

/// all_to_all: the primitive's shape rule divides split_axis and multiplies concat_axis by the
/// axis size (held hidden: JAX reads it from the axis environment); `tiled` is only printed.
inline Params all_to_all(const std::string& name, std::int64_t size, std::int64_t split_axis,
                         std::int64_t concat_axis, bool tiled) {
  Params p;
  p.items.push_back({"axis_index_groups", std::string("None"), true});
  p.items.push_back({"axis_name", name, true});
  p.items.push_back({"concat_axis", concat_axis, true});
  p.items.push_back({"split_axis", split_axis, true});
  p.items.push_back({"tiled", tiled, true});
  p.items.push_back({"axis_size", size, false});
  add_axis(p, name);
  return p;
}

/// ppermute: perm=((src, dst), ...) printed; the pairs flat in the hidden `perm@pairs`.
inline Params ppermute(const std::string& name,
                       const std::vector<std::pair<std::int64_t, std::int64_t>>& perm) {
  Params p;
  std::string text = "(";
  std::vector<std::int64_t> flat;
  for (std::size_t k = 0; k < perm.size(); ++k) {
    text += (k ? ", (" : "(") + std::to_string(perm[k].first) + ", " +
            std::to_string(perm[k].second) + ")";
    flat.push_back(perm[k].first);
    flat.push_back(perm[k].second);
  }
  text += perm.size() == 1 ? ",)" : ")";
  p.items.push_back({"axis_name", name_tuple(name), true});
  p.items.push_back({"perm", text, true});
  p.items.push_back({"perm@pairs", flat, false});
  add_axis(p, name);
  return p;
}
inline std::vector<std::pair<std::int64_t, std::int64_t>> perm_of(const Params& p) {
  const auto& flat = p.get<std::vector<std::int64_t>>("perm@pairs");
  std::vector<std::pair<std::int64_t, std::int64_t>> r;
  for (std::size_t k = 0; k + 1 < flat.size(); k += 2) r.emplace_back(flat[k], flat[k + 1]);
  return r;
}

/// axis_index: axis_name=i.
inline Params axis_index(const std::string& name) {
  Params p;
  p.items.push_back({"axis_name", name, true});
  add_axis(p, name);
  return p;
}

}  // namespace fj::ir::collective
