// The GPU's caching allocator: blocks rounded to size classes, kept after release and handed out
// again, so that a warm call allocates nothing from the driver. The memory itself comes from a
// RawMemory (cuMemAlloc on a GPU; a host-memory one stands behind it in the unit tests).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"

namespace fj::backend::cuda {

/// Where the allocator's blocks come from. allocate returns 0 when the memory is exhausted
/// (CUDA_ERROR_OUT_OF_MEMORY) and throws fj::DeviceError for any other failure.
class RawMemory {
 public:
  virtual ~RawMemory() = default;
  virtual std::uintptr_t allocate(std::size_t bytes) = 0;
  virtual void release(std::uintptr_t p, std::size_t bytes) noexcept = 0;
};

/// Counters for tests and benchmarks: `raw_allocations` grows only on a cache miss.
struct AllocatorStats {
  std::uint64_t raw_allocations = 0, raw_releases = 0, reuses = 0, oom_retries = 0;
  std::size_t in_use_bytes = 0, cached_bytes = 0;
};

/// Blocks by size class, per stream. fusejit runs one stream per GPU, and every kernel and copy
/// of that GPU is ordered on it, so a block released on the host while a queued kernel still
/// reads it can be handed to the next allocation at once: whatever writes it is queued after that
/// kernel (the rule of stream-ordered allocators, PyTorch's and cudaMallocAsync's).
class CachingAllocator {
 public:
  /// `where` names the device in errors ("CudaDevice(id=0)").
  CachingAllocator(RawMemory& raw, std::string where) : raw_(raw), where_(std::move(where)) {}
  ~CachingAllocator() { trim(); }
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  /// The size class of a request: 512-byte steps below 1 MiB (small arrays and scalars share few
  /// classes), 2 MiB steps above (a 64M-float array is exactly one class, no waste).
  static std::size_t size_class(std::size_t bytes) {
    constexpr std::size_t small = 512, large = std::size_t{2} << 20, limit = std::size_t{1} << 20;
    if (bytes == 0) bytes = 1;
    const std::size_t step = bytes < limit ? small : large;
    return (bytes + step - 1) / step * step;
  }

  /// A block of at least `bytes`, from the cache when one of its class is free. On exhaustion
  /// the cache is given back to the driver and the allocation tried once more; if that fails
  /// too, fj::DeviceError says how much was asked, in use and free.
  std::uintptr_t allocate(std::size_t bytes) {
    const std::size_t cls = size_class(bytes);
    std::lock_guard lock(mu_);
    if (auto it = free_.find(cls); it != free_.end() && !it->second.empty()) {
      const std::uintptr_t p = it->second.back();
      it->second.pop_back();
      stats_.cached_bytes -= cls;
      stats_.in_use_bytes += cls;
      ++stats_.reuses;
      return p;
    }
    std::uintptr_t p = raw_.allocate(cls);
    if (p == 0) {
      ++stats_.oom_retries;
      const std::size_t freed = trim_locked();
      p = raw_.allocate(cls);
      if (p == 0)
        throw DeviceError("fj: out of GPU memory on " + where_ + ": allocating " +
                          std::to_string(bytes) + " bytes (" + std::to_string(cls) +
                          " with rounding) failed after freeing " + std::to_string(freed) +
                          " cached bytes; fusejit holds " + std::to_string(stats_.in_use_bytes) +
                          " bytes in live arrays there");
    }
    ++stats_.raw_allocations;
    stats_.in_use_bytes += cls;
    return p;
  }

  /// Returns a block of `bytes` (as asked of allocate) to its class's free list.
  void release(std::uintptr_t p, std::size_t bytes) noexcept {
    const std::size_t cls = size_class(bytes);
    std::lock_guard lock(mu_);
    try {
      free_[cls].push_back(p);
    } catch (...) {  // no memory for the list: give the block back instead
      raw_.release(p, cls);
      ++stats_.raw_releases;
      stats_.in_use_bytes -= cls;
      return;
    }
    stats_.in_use_bytes -= cls;
    stats_.cached_bytes += cls;
  }

  /// Gives every cached block back; returns the bytes freed.
  std::size_t trim() {
    std::lock_guard lock(mu_);
    return trim_locked();
  }

  AllocatorStats stats() const {
    std::lock_guard lock(mu_);
    return stats_;
  }

 private:
  std::size_t trim_locked() noexcept {
    std::size_t freed = 0;
    for (auto& [cls, blocks] : free_) {
      for (std::uintptr_t p : blocks) raw_.release(p, cls), ++stats_.raw_releases;
      freed += cls * blocks.size();
      blocks.clear();
    }
    stats_.cached_bytes -= freed;
    return freed;
  }

  RawMemory& raw_;
  std::string where_;
  mutable std::mutex mu_;
  std::map<std::size_t, std::vector<std::uintptr_t>> free_;
  AllocatorStats stats_;
};

}  // namespace fj::backend::cuda
