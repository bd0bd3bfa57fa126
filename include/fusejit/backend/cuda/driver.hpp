// The CUDA driver API, loaded with dlopen on first use, and the GPUs it reports. Nothing links
// libcuda: its toolkit stub fails at start-up on a machine without a driver.
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include "fusejit/backend/cuda/dynamic_library.hpp"

namespace fj::backend::cuda {

/// One GPU as the driver reports it.
struct GpuInfo {
  int ordinal = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability: sm_<major><minor>
  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
};

/// The driver entry points used so far (discovery), declared here rather than from cuda.h.
/// CUresult is an int enum; 0 is CUDA_SUCCESS. CUdevice is an int.
struct Driver {
  int (*init)(unsigned) = nullptr;
  int (*driver_get_version)(int*) = nullptr;
  int (*device_get_count)(int*) = nullptr;
  int (*device_get)(int*, int) = nullptr;
  int (*device_get_name)(char*, int, int) = nullptr;
  int (*device_get_attribute)(int*, int, int) = nullptr;
  int (*get_error_string)(int, const char**) = nullptr;
  std::string path;
  std::vector<GpuInfo> gpus;
  std::string missing;  // why there are no GPUs: no driver, cuInit failed, or none present
};

// CUdevice_attribute values from cuda.h (stable across CUDA versions).
inline constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;

/// The process's driver table and GPU list, found once.
inline const Driver& driver() {
  static const Driver table = [] {
    Driver t;
    std::vector<std::string> dirs = toolkit_library_dirs();
    for (std::string& d : dirs) d += "/../compat";  // the toolkit's forward-compatible driver
    // Only the driver's soname: the toolkit's stubs/libcuda.so answers every call with
    // CUDA_ERROR_STUB_LIBRARY.
    const DynamicLibrary lib({"libcuda.so.1"}, dirs);
    if (!lib.loaded()) {
      t.missing = "no CUDA driver: libcuda.so.1 was not found (" + lib.error() + ")";
      return t;
    }
    t.path = lib.path();
    bool all = true;
    auto get = [&](auto& fn, const char* name) {
      fn = lib.symbol<std::remove_reference_t<decltype(fn)>>(name);
      all = all && fn != nullptr;
    };
    get(t.init, "cuInit");
    get(t.driver_get_version, "cuDriverGetVersion");
    get(t.device_get_count, "cuDeviceGetCount");
    get(t.device_get, "cuDeviceGet");
    get(t.device_get_name, "cuDeviceGetName");
    get(t.device_get_attribute, "cuDeviceGetAttribute");
    get(t.get_error_string, "cuGetErrorString");
    if (!all) {
      t.missing = "the CUDA driver " + t.path + " lacks an entry point fusejit needs";
      return t;
    }
    auto error = [&](int rc) {
      const char* s = nullptr;
      t.get_error_string(rc, &s);
      return std::string(s ? s : "unknown error") + " (" + std::to_string(rc) + ")";
    };
    if (int rc = t.init(0); rc != 0) {
      t.missing = "cuInit failed: " + error(rc);
      return t;
    }
    int count = 0;
    if (int rc = t.device_get_count(&count); rc != 0) {
      t.missing = "cuDeviceGetCount failed: " + error(rc);
      return t;
    }
    for (int i = 0; i < count; ++i) {
      GpuInfo g;
      int dev = 0;
      char name[256] = {};
      if (t.device_get(&dev, i) != 0) continue;
      t.device_get_name(name, sizeof name, dev);
      t.device_get_attribute(&g.major, kComputeCapabilityMajor, dev);
      t.device_get_attribute(&g.minor, kComputeCapabilityMinor, dev);
      g.ordinal = i;
      g.name = name;
      t.gpus.push_back(std::move(g));
    }
    if (t.gpus.empty()) t.missing = "the CUDA driver " + t.path + " reports no GPU";
    return t;
  }();
  return table;
}

}  // namespace fj::backend::cuda
