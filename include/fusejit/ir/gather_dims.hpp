// gather's and scatter's dimension numbers and out-of-range mode: reading them from params and
// writing them as JAX 0.10.2 prints them (GatherDimensionNumbers(...), GatherScatterMode.CLIP).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// What happens to an index whose window would leave the operand: clamped into range (CLIP and
/// PROMISE_IN_BOUNDS, which XLA's CPU gather clamps too), or a gather window of fill values and
/// a dropped scatter update (FILL_OR_DROP; XLA's scatter drops with PROMISE_IN_BOUNDS as well).
enum class GatherMode : std::uint8_t { clip, fill_or_drop, promise_in_bounds };

inline std::string mode_str(GatherMode m) {
  switch (m) {
    case GatherMode::clip:
      return "GatherScatterMode.CLIP";
    case GatherMode::fill_or_drop:
      return "GatherScatterMode.FILL_OR_DROP";
    default:
      return "GatherScatterMode.PROMISE_IN_BOUNDS";
  }
}
inline GatherMode mode_of(const Params& p) {
  const std::string& s = p.get<std::string>("mode");
  if (s == mode_str(GatherMode::clip)) return GatherMode::clip;
  if (s == mode_str(GatherMode::fill_or_drop)) return GatherMode::fill_or_drop;
  return GatherMode::promise_in_bounds;
}

/// The dimension numbers of gather (offset_dims, collapsed_slice_dims, start_index_map,
/// operand_batching_dims, start_indices_batching_dims) or, with the same roles in that order, of
/// scatter (update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims,
/// operand_batching_dims, scatter_indices_batching_dims). The index vector is always the last
/// axis of the indices, as JAX stages it.
struct IndexDims {
  using V = std::vector<std::int64_t>;
  V window, collapsed, start_map, operand_batching, indices_batching;
  /// The batching dims printed as `np.int64(1)`: JAX's sort JVP computes them with NumPy.
  bool numpy_batching = false;

  static constexpr const char* gather_names[5] = {"offset_dims", "collapsed_slice_dims",
                                                  "start_index_map", "operand_batching_dims",
                                                  "start_indices_batching_dims"};
  static constexpr const char* scatter_names[5] = {
      "update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
      "operand_batching_dims", "scatter_indices_batching_dims"};

  static IndexDims from(const Params& p) {
    return {p.get<V>("window_dims"),      p.get<V>("collapsed_dims"),
            p.get<V>("start_map"),        p.get<V>("operand_batching"),
            p.get<V>("indices_batching"), p.find("numpy_batching") != nullptr};
  }
  /// `GatherDimensionNumbers(offset_dims=(1,), ...)` (scatter: ScatterDimensionNumbers).
  std::string str(bool scatter) const {
    auto tuple = [](const V& v, bool numpy) {
      std::string s = "(";
      for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string n = std::to_string(v[i]);
        s += (i ? ", " : "") + (numpy ? "np.int64(" + n + ")" : n);
      }
      return s + (v.size() == 1 ? ",)" : ")");
    };
    const char* const* names = scatter ? scatter_names : gather_names;
    const V* parts[5] = {&window, &collapsed, &start_map, &operand_batching, &indices_batching};
    std::string s = scatter ? "ScatterDimensionNumbers(" : "GatherDimensionNumbers(";
    for (int k = 0; k < 5; ++k)
      s += (k ? ", " : "") + std::string(names[k]) + "=" +
           tuple(*parts[k], numpy_batching && k >= 3);
    return s + ")";
  }
  /// The printed dimension_numbers plus the machine-readable lists (hidden when printing).
  void add_to(Params& p, bool scatter) const {
    p.items.push_back({"dimension_numbers", str(scatter), true});
    p.items.push_back({"window_dims", window, false});
    p.items.push_back({"collapsed_dims", collapsed, false});
    p.items.push_back({"start_map", start_map, false});
    p.items.push_back({"operand_batching", operand_batching, false});
    p.items.push_back({"indices_batching", indices_batching, false});
    if (numpy_batching) p.items.push_back({"numpy_batching", true, false});
  }
  /// Whether operand axis d has no window extent (a collapsed or a batching axis).
  bool is_inserted(std::int64_t d) const {
    for (auto c : collapsed)
      if (c == d) return true;
    for (auto c : operand_batching)
      if (c == d) return true;
    return false;
  }
};

}  // namespace fj::ir
