// pmap inside a trace, staged as JAX 0.10.2 stages it: a jit named _fun around one shard_map
// equation, whose printed body is one device's view of the function and whose hidden `lowered`
// graph runs the whole axis at once.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/api/subtrace.hpp"

namespace fj::detail {

/// One device's function: the results' leaves of f on one device's argument leaves; sets
/// `out_tree` to the result's structure.
using DeviceFunction =
    std::function<std::vector<Array>(std::vector<Array>& leaves, PyTreeDef& out_tree)>;

/// Stages `f` over the mapped axis `axis` of `leaves` (in_axes: one per leaf, normalized by
/// pmap_in_axes, none: whole on every device; out_axes: one for all results or one per result
/// leaf) in the active trace, and returns the results' leaves. `site` names the caller in errors.
std::vector<Array> stage_shard_map(const TraceSite& site, const std::string& axis,
                                   const std::vector<Array>& leaves,
                                   const std::vector<std::optional<int>>& in_axes,
                                   const std::vector<std::optional<int>>& out_axes,
                                   const DeviceFunction& f, PyTreeDef& out_tree);

}  // namespace fj::detail
