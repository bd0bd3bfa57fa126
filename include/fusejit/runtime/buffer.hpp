// Reference-counted, 64-byte aligned host buffers, owning or viewing foreign memory.
#pragma once
#include <cstddef>
#include <memory>
#include <new>
#include <string>

#include "fusejit/core/error.hpp"

namespace fj::runtime {

inline constexpr std::size_t kAlignment = 64;

/// Aligned host memory. Large blocks are cached after release and reused: a fresh 64 MB array
/// from the OS costs 16k page faults on first touch, more than the kernel that fills it.
void* host_allocate(std::size_t bytes);
void host_release(void* p, std::size_t bytes) noexcept;
/// Bytes held by the allocator's caches (large blocks by size, the small-block pool), and a way
/// to give them back to the OS.
std::size_t host_cached_bytes();
void host_trim();

/// Raw bytes of one array. Arrays are immutable, so a buffer is shared, never copied on copy.
struct Buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  std::shared_ptr<const void> owner;  // keeps foreign memory (an Eigen object's) alive
  // Whether `data` came from host_allocate and goes back to it; false for views and for small
  // buffers, whose data lives in the pooled block that holds this Buffer.
  bool owned = false;
  // -1: host memory. Otherwise the ordinal of the CUDA GPU whose memory `data` points into
  // (backend/cuda/gpu_runtime.hpp); `owner` returns it to that GPU's allocator.
  int device = -1;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (owned) host_release(data, bytes ? bytes : 1);
  }
};
using BufferPtr = std::shared_ptr<Buffer>;

/// A new uninitialized buffer; running out of memory raises fj::DeviceError, never UB. A small
/// buffer is one block of the size-class pool holding its data, the Buffer and the shared_ptr
/// control block (no heap allocation once the pool holds a released block of that class); a
/// larger one takes its data from host_allocate and the rest from the pool.
BufferPtr allocate(std::size_t bytes);

/// A buffer over memory owned elsewhere; `owner` (may be null) is kept alive with it.
BufferPtr wrap(void* data, std::size_t bytes, std::shared_ptr<const void> owner);

}  // namespace fj::runtime
