// The host allocator: aligned blocks, with a bounded cache of large released blocks by size
// (implementation unit only).
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "fusejit/runtime/buffer.hpp"
#include "fusejit/runtime/fault_injection.hpp"

namespace fj::runtime {

namespace {

constexpr std::size_t kCacheMinBytes = std::size_t{1} << 16;  // smaller blocks: malloc is fast
constexpr std::size_t kCacheMaxBytes = std::size_t{1} << 30;  // at most 1 GiB held

struct BlockCache {
  std::mutex mu;
  std::multimap<std::size_t, void*> free;  // exact size -> blocks
  std::size_t held = 0;
};
// Never destroyed: arrays in the user's own statics are released after this unit's statics
// are gone, and releasing into a destroyed map hung the process at exit. The blocks it holds
// then are returned with the process.
BlockCache& cache() {
  static BlockCache& c = *new BlockCache;
  return c;
}

}  // namespace

// No host has 256 TiB of memory (x86-64's user address space is 128 TiB with 4-level paging):
// larger requests fail here, the same way on every allocator. ASan's operator new reports and
// stops the process on an impossible size instead of throwing std::bad_alloc.
constexpr std::size_t kMaxHostBytes = std::size_t{1} << 48;

void* host_allocate(std::size_t bytes) {
  if (bytes > kMaxHostBytes)
    throw DeviceError("fj::runtime::allocate: out of host memory allocating " +
                      std::to_string(bytes) + " bytes (more than any host's address space)");
  if (detail::take_injected_fault(detail::Fault::allocation))
    throw DeviceError("fj::runtime::allocate: out of host memory allocating " +
                      std::to_string(bytes) +
                      " bytes (injected by fj::testing::fail_next_allocations)");
  if (bytes >= kCacheMinBytes) {
    auto& c = cache();
    std::lock_guard lock(c.mu);
    if (auto it = c.free.find(bytes); it != c.free.end()) {
      void* p = it->second;
      c.held -= bytes;
      c.free.erase(it);
      return p;
    }
  }
  try {
    return ::operator new (bytes, std::align_val_t{kAlignment});
  } catch (const std::bad_alloc&) {
    host_trim();  // the cache may hold the memory this needs
    try {
      return ::operator new (bytes, std::align_val_t{kAlignment});
    } catch (const std::bad_alloc&) {
      throw DeviceError("fj::runtime::allocate: out of host memory allocating " +
                        std::to_string(bytes) + " bytes");
    }
  }
}

void host_release(void* p, std::size_t bytes) noexcept {
  if (bytes >= kCacheMinBytes) {
    auto& c = cache();
    std::lock_guard lock(c.mu);
    if (c.held + bytes <= kCacheMaxBytes) {
      c.free.emplace(bytes, p);
      c.held += bytes;
      return;
    }
  }
  ::operator delete (p, std::align_val_t{kAlignment});
}

std::size_t host_cached_bytes() {
  auto& c = cache();
  std::lock_guard lock(c.mu);
  return c.held;
}

void host_trim() {
  auto& c = cache();
  std::vector<void*> blocks;
  {
    std::lock_guard lock(c.mu);
    for (auto& [n, p] : c.free) blocks.push_back(p);
    c.free.clear();
    c.held = 0;
  }
  for (void* p : blocks) ::operator delete (p, std::align_val_t{kAlignment});
}

}  // namespace fj::runtime
