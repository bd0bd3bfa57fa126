// The run-time half of fj::pmap: each device's share of the mapped arguments, the device
// threads that run the compiled body at once, and the results stacked back.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj::distributed::detail {

/// x's slice `index` along `axis`, that axis dropped (a copy): one device's share.
Array shard(const Array& x, int axis, std::int64_t index);
/// The devices' arrays (one aval) stacked along a new axis `axis`.
Array unshard(const std::vector<Array>& parts, int axis);

/// Runs body(d) for each local device d < n at once, each on its own thread, bound to its
/// device of `axis` (collectives meet there) with its share of the thread pool. Rethrows the
/// exception of the device that failed first; the others stop at their next collective.
void run_on_devices(int n, const std::string& axis, const std::function<void(int)>& body);

}  // namespace fj::distributed::detail
