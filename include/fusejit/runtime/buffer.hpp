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
/// Bytes held by the allocator's cache, and a way to give them back to the OS.
std::size_t host_cached_bytes();
void host_trim();

/// Raw bytes of one array. Arrays are immutable, so a buffer is shared, never copied on copy.
struct Buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  std::shared_ptr<const void>
      owner;  // keeps foreign memory (an Eigen object's) alive; null if owned
  bool owned = false;
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (owned) host_release(data, bytes ? bytes : 1);
  }
};
using BufferPtr = std::shared_ptr<Buffer>;

/// A new uninitialized buffer; running out of memory raises fj::DeviceError, never UB.
inline BufferPtr allocate(std::size_t bytes) {
  auto b = std::make_shared<Buffer>();
  b->data = host_allocate(bytes ? bytes : 1);
  b->bytes = bytes;
  b->owned = true;
  return b;
}

/// A buffer over memory owned elsewhere; `owner` (may be null) is kept alive with it.
inline BufferPtr wrap(void* data, std::size_t bytes, std::shared_ptr<const void> owner) {
  auto b = std::make_shared<Buffer>();
  b->data = data;
  b->bytes = bytes;
  b->owner = std::move(owner);
  return b;
}

}  // namespace fj::runtime
