// Compiled CUDA kernels: NVRTC's cubins, memoized in the process (per GPU, loaded) and on disk
// (per architecture and NVRTC version, under the same rules as the CPU backend's objects).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "fusejit/backend/cuda/driver.hpp"

namespace fj::backend::cuda {

/// One kernel loaded on one GPU: its entry and, for a reduction, the combine step.
struct LoadedKernel {
  Driver::Handle module = nullptr, main = nullptr, combine = nullptr;
  std::string source;  // the module's CUDA C++, for lower().as_text()
};

/// The entry point every fusejit module names its kernel (kernel_source.hpp appends _combine).
inline constexpr const char* kKernelEntry = "fj_kernel";

/// The kernel whose CUDA C++ module text is `source`, loaded on GPU `ordinal`: from this
/// process's cache, else from the disk cache, else compiled by NVRTC (and written to disk).
std::shared_ptr<const LoadedKernel> load_kernel(const std::string& source, bool reduction,
                                                int ordinal);

/// What the kernel cache did since the process started.
struct GpuKernelStats {
  std::uint64_t memory_hits = 0, disk_hits = 0, nvrtc_compiles = 0;
  std::uint64_t disk_load_ns = 0;    // in loads from the disk cache: read, check, module load
  std::uint64_t module_load_ns = 0;  // of which (and of NVRTC's loads) in cuModuleLoadData
};
GpuKernelStats gpu_kernel_stats();

}  // namespace fj::backend::cuda
