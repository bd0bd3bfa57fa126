// Definitions of pmap.hpp's checks (implementation unit only).
#include "fusejit/distributed/pmap.hpp"

#include "fusejit/distributed/initialize.hpp"
#include "fusejit/distributed/process_group.hpp"

namespace fj::detail {

std::vector<std::optional<int>> pmap_in_axes(const std::vector<Array>& leaves,
                                             const std::vector<std::optional<int>>& axes) {
  std::vector<std::optional<int>> r;
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    if (!axes[k]) {
      r.push_back(std::nullopt);
      continue;
    }
    const int rank = leaves[k].ndim(), ax = *axes[k] < 0 ? *axes[k] + rank : *axes[k];
    if (ax < 0 || ax >= rank)
      throw ValueError("fj::pmap: in_axes " + std::to_string(*axes[k]) +
                       " is out of range for argument leaf " + std::to_string(k) + " of shape " +
                       leaves[k].shape().str());
    r.push_back(ax);
  }
  return r;
}

std::int64_t pmap_mapped_size(const std::vector<Array>& leaves,
                              const std::vector<std::optional<int>>& axes) {
  std::int64_t size = -1;
  std::size_t first = 0;
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    if (!axes[k]) continue;
    const std::int64_t n = leaves[k].shape()[*axes[k]];
    if (size >= 0 && n != size)
      throw ValueError("fj::pmap: inconsistent sizes for the mapped axes: leaf " +
                       std::to_string(first) + " has size " + std::to_string(size) + ", leaf " +
                       std::to_string(k) + " has size " + std::to_string(n));
    if (size < 0) size = n, first = k;
  }
  if (size < 0)
    throw ValueError("fj::pmap: at least one argument must be mapped (in_axes are all none)");
  return size;
}

std::vector<std::optional<int>> pmap_out_axes(const std::vector<int>& ranks,
                                              const std::vector<std::optional<int>>& out,
                                              const char* who) {
  if (out.size() != 1 && out.size() != ranks.size())
    throw ValueError(std::string(who) + ": out_axes has " + std::to_string(out.size()) +
                     " entries for " + std::to_string(ranks.size()) + " outputs");
  std::vector<std::optional<int>> r;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    const auto a = out.size() == 1 ? out[0] : out[k];
    if (!a) {
      r.push_back(std::nullopt);
      continue;
    }
    const int rank = ranks[k] + 1, ax = *a < 0 ? *a + rank : *a;
    if (ax < 0 || ax >= rank)
      throw ValueError(std::string(who) + ": out_axes " + std::to_string(*a) +
                       " is out of range for output " + std::to_string(k) + " of rank " +
                       std::to_string(rank));
    r.push_back(ax);
  }
  return r;
}

int pmap_device_count(const PmapOptions& o, std::int64_t mapped) {
  if (distributed::detail::started_by_mpirun() && !distributed::is_initialized())
    throw Error(
        "fj::pmap: this process is one of several that mpirun started; call "
        "fj::distributed::initialize() before pmap so that its axis spans them");
  const int local = local_device_count();
  std::int64_t n = local;
  std::string what = "fj::local_device_count() = " + std::to_string(local) + " devices";
  if (o.devices) {
    for (const Device& d : *o.devices)
      if (d.is_gpu() || d.process_index() != process_index())
        throw DeviceError("fj::pmap: devices_arg lists " + d.str() +
                          "; pmap runs on this process's CPU devices (fj::local_devices())");
    n = static_cast<std::int64_t>(o.devices->size());
    what = std::to_string(n) + " devices (devices_arg)";
  } else if (o.size) {
    n = *o.size;
    what = "axis_size " + std::to_string(n);
  }
  if (mapped != n)
    throw ValueError("fj::pmap: the mapped axis has size " + std::to_string(mapped) +
                     " but pmap runs on " + what +
                     "; give fj::axis_size or fj::devices_arg to use "
                     "fewer devices");
  if (n > local || n < 1)
    throw ValueError("fj::pmap: the mapped axis of size " + std::to_string(n) + " needs " +
                     std::to_string(n) + " devices but this process has " + std::to_string(local) +
                     " (fj::set_cpu_device_count or FUSEJIT_CPU_DEVICES)");
  return static_cast<int>(n);
}

}  // namespace fj::detail
