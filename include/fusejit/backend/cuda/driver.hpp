// The CUDA driver API, loaded with dlopen on first use, and the GPUs it reports. Nothing links
// libcuda: its toolkit stub fails at start-up on a machine without a driver.
#pragma once
#include <cstddef>
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
  int multiprocessors = 1;
  std::string arch() const { return "sm_" + std::to_string(major) + std::to_string(minor); }
};

/// The driver entry points fusejit uses, declared here rather than from cuda.h. CUresult is an
/// int enum; 0 is CUDA_SUCCESS. CUdevice is an int; contexts, streams, modules, functions and
/// events are opaque pointers; a CUdeviceptr is a 64-bit integer. The `_v2` names are the
/// symbols cuda.h's macros have pointed to since CUDA 3.2.
struct Driver {
  using Handle = void*;
  using DevicePtr = unsigned long long;
  int (*init)(unsigned) = nullptr;
  int (*driver_get_version)(int*) = nullptr;
  int (*device_get_count)(int*) = nullptr;
  int (*device_get)(int*, int) = nullptr;
  int (*device_get_name)(char*, int, int) = nullptr;
  int (*device_get_attribute)(int*, int, int) = nullptr;
  int (*get_error_string)(int, const char**) = nullptr;
  // Running: contexts, streams, memory, modules, launches, events.
  int (*primary_ctx_retain)(Handle*, int) = nullptr;
  int (*ctx_set_current)(Handle) = nullptr;
  int (*stream_create)(Handle*, unsigned) = nullptr;
  int (*stream_synchronize)(Handle) = nullptr;
  int (*mem_alloc)(DevicePtr*, std::size_t) = nullptr;
  int (*mem_free)(DevicePtr) = nullptr;
  int (*mem_get_info)(std::size_t*, std::size_t*) = nullptr;
  int (*mem_host_alloc)(void**, std::size_t, unsigned) = nullptr;
  int (*mem_free_host)(void*) = nullptr;
  int (*memcpy_htod_async)(DevicePtr, const void*, std::size_t, Handle) = nullptr;
  int (*memcpy_dtoh_async)(void*, DevicePtr, std::size_t, Handle) = nullptr;
  int (*memcpy_dtod_async)(DevicePtr, DevicePtr, std::size_t, Handle) = nullptr;
  int (*module_load_data)(Handle*, const void*) = nullptr;
  int (*module_get_function)(Handle*, Handle, const char*) = nullptr;
  int (*launch_kernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       Handle, void**, void**) = nullptr;
  int (*event_create)(Handle*, unsigned) = nullptr;
  int (*event_record)(Handle, Handle) = nullptr;
  int (*event_synchronize)(Handle) = nullptr;
  int (*event_elapsed_time)(float*, Handle, Handle) = nullptr;
  std::string path;
  std::vector<GpuInfo> gpus;
  std::string missing;  // why there are no GPUs: no driver, cuInit failed, or none present
};

// CUdevice_attribute values from cuda.h (stable across CUDA versions).
inline constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76,
                     kMultiprocessorCount = 16;
// cuda.h's CUDA_ERROR_OUT_OF_MEMORY, CU_STREAM_NON_BLOCKING, CU_EVENT_DEFAULT.
inline constexpr int kErrorOutOfMemory = 2;
inline constexpr unsigned kStreamNonBlocking = 1, kEventDefault = 0;

/// Calls f(entry, "symbol") for every entry point of the table: the loader fills them, and a test
/// checks every name against the toolkit's stub library.
template <class F>
void for_each_entry(Driver& t, F&& f) {
  f(t.init, "cuInit");
  f(t.driver_get_version, "cuDriverGetVersion");
  f(t.device_get_count, "cuDeviceGetCount");
  f(t.device_get, "cuDeviceGet");
  f(t.device_get_name, "cuDeviceGetName");
  f(t.device_get_attribute, "cuDeviceGetAttribute");
  f(t.get_error_string, "cuGetErrorString");
  f(t.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
  f(t.ctx_set_current, "cuCtxSetCurrent");
  f(t.stream_create, "cuStreamCreate");
  f(t.stream_synchronize, "cuStreamSynchronize");
  f(t.mem_alloc, "cuMemAlloc_v2");
  f(t.mem_free, "cuMemFree_v2");
  f(t.mem_get_info, "cuMemGetInfo_v2");
  f(t.mem_host_alloc, "cuMemHostAlloc");
  f(t.mem_free_host, "cuMemFreeHost");
  f(t.memcpy_htod_async, "cuMemcpyHtoDAsync_v2");
  f(t.memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2");
  f(t.memcpy_dtod_async, "cuMemcpyDtoDAsync_v2");
  f(t.module_load_data, "cuModuleLoadData");
  f(t.module_get_function, "cuModuleGetFunction");
  f(t.launch_kernel, "cuLaunchKernel");
  f(t.event_create, "cuEventCreate");
  f(t.event_record, "cuEventRecord");
  f(t.event_synchronize, "cuEventSynchronize");
  f(t.event_elapsed_time, "cuEventElapsedTime");
}

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
      if (!fn) all = false, t.missing += std::string(t.missing.empty() ? "" : ", ") + name;
    };
    for_each_entry(t, get);
    if (!all) {
      t.missing = "the CUDA driver " + t.path + " lacks " + t.missing;
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
      t.device_get_attribute(&g.multiprocessors, kMultiprocessorCount, dev);
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
