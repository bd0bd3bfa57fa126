// The host allocator: aligned blocks, a bounded pool of small blocks by power-of-two size
// class, and a bounded cache of large released blocks by exact size (implementation unit only).
#include <algorithm>
#include <atomic>
#include <bit>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fusejit/runtime/buffer.hpp"
#include "fusejit/runtime/fault_injection.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
// A pooled block is poisoned while it waits in its class (all but its free-list link, its last
// word), so a use after the last reference is gone is still an ASan report, as with malloc.
#define FJ_POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define FJ_POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define FJ_POOL_POISON(p, n) ((void)(p), (void)(n))
#define FJ_POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace fj::runtime {

namespace {

constexpr std::size_t kCacheMinBytes = std::size_t{1} << 16;  // smaller blocks: the pool's
constexpr std::size_t kCacheMaxBytes = std::size_t{1} << 30;  // at most 1 GiB held

// No host has 256 TiB of memory (x86-64's user address space is 128 TiB with 4-level paging):
// larger requests fail here, the same way on every allocator. ASan's operator new reports and
// stops the process on an impossible size instead of throwing std::bad_alloc.
constexpr std::size_t kMaxHostBytes = std::size_t{1} << 48;

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

// The small-block pool: classes of 64 B, 128 B, ..., 64 KiB. Each keeps released blocks in a
// list threaded through the blocks themselves, so neither taking nor giving back a block
// allocates. A warm jitted call releases its previous output and takes a new one of the same
// class: malloc and free of the output, its Buffer and the shared_ptr control block were ~40%
// of a call before (issue 20). A class keeps as many blocks as were ever in use at once (at
// least 1 MiB of them, at most 64 MiB): a program that needs N blocks of a class per call
// (a deep network's gradient keeps every layer's residuals) finds them all there on the next
// call. With a fixed 1 MiB, jit(grad) of a 64-layer MLP (8 KiB activations, about 200 live)
// returned the excess to malloc every call, glibc gave the freed heap back to the system, and
// each call faulted the pages in again: 2.3 ms against 0.97 ms warm.
constexpr int kMinClassLog = 6;
constexpr int kMaxClassLog = 16;
constexpr int kClasses = kMaxClassLog - kMinClassLog + 1;
constexpr std::size_t kMaxPooledBytes = std::size_t{1} << kMaxClassLog;
constexpr std::size_t kPoolMinBytesPerClass = std::size_t{1} << 20;
constexpr std::size_t kPoolMaxBytesPerClass = std::size_t{1} << 26;

// A waiting block's link to the next one is its last word: the data at its start stays
// poisoned under ASan (the link must not be, or LeakSanitizer would not follow the list).
struct FreeBlock {
  void* next;
};
// A spin lock, not a mutex: the critical section is a push or a pop, and an uncontended
// std::mutex costs two more atomic operations per call. A waiter yields, so a holder preempted
// on a busy machine gets its CPU back.
struct alignas(64) SizeClass {
  std::atomic_flag busy;
  void* head = nullptr;
  std::size_t count = 0;   // blocks waiting in the list
  std::size_t in_use = 0;  // blocks of this class taken and not given back
  std::size_t peak = 0;    // the most ever in use at once
};
// Constant-initialized and trivially destructible: usable from any static's constructor or
// destructor, with no guard on the hot path.
constinit SizeClass g_classes[kClasses];

class SpinGuard {
 public:
  explicit SpinGuard(std::atomic_flag& f) : f_(f) {
    while (f_.test_and_set(std::memory_order_acquire))
      while (f_.test(std::memory_order_relaxed)) std::this_thread::yield();
  }
  ~SpinGuard() { f_.clear(std::memory_order_release); }
  SpinGuard(const SpinGuard&) = delete;
  SpinGuard& operator=(const SpinGuard&) = delete;

 private:
  std::atomic_flag& f_;
};

int class_of(std::size_t bytes) {
  return bytes <= (std::size_t{1} << kMinClassLog)
             ? 0
             : static_cast<int>(std::bit_width(bytes - 1)) - kMinClassLog;
}
constexpr std::size_t class_bytes(int c) { return std::size_t{1} << (c + kMinClassLog); }
FreeBlock* link_of(void* block, int c) {
  return reinterpret_cast<FreeBlock*>(static_cast<char*>(block) + class_bytes(c) -
                                      sizeof(FreeBlock));
}

[[noreturn]] void throw_out_of_memory(std::size_t bytes, const char* why) {
  throw DeviceError("fj::runtime::allocate: out of host memory allocating " +
                    std::to_string(bytes) + " bytes" + why);
}

// Refuses what no allocator could give, and the faults a test injects.
void check_request(std::size_t bytes) {
  if (bytes > kMaxHostBytes) throw_out_of_memory(bytes, " (more than any host's address space)");
  if (detail::take_injected_fault(detail::Fault::allocation))
    throw_out_of_memory(bytes, " (injected by fj::testing::fail_next_allocations)");
}

// Blocks of 2 MiB and more are aligned to 2 MiB and advised as transparent huge pages (Linux's
// THP in "madvise" mode, Debian's default, gives them only on request). An output's first
// touch then faults 2 MiB at a time instead of 4 KiB: the cold first call of jit(selu) on 1M
// f32 spent about 1.2 ms of its 3.7 ms (with a warm disk cache) in 1024 page faults of its
// 4 MiB output, and streaming kernels miss the TLB 512 times less.
constexpr std::size_t kHugePage = std::size_t{1} << 21;
std::align_val_t alignment_for(std::size_t bytes) {
  return std::align_val_t{bytes >= kHugePage ? kHugePage : kAlignment};
}
void free_block(void* p, std::size_t bytes) noexcept { ::operator delete(p, alignment_for(bytes)); }
void* advise_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= kHugePage) (void)::madvise(p, bytes & ~(kHugePage - 1), MADV_HUGEPAGE);
#endif
  return p;
}

// A fresh aligned block from the C++ heap; on failure the caches are emptied and it is tried
// once more.
void* fresh_block(std::size_t bytes) {
  try {
    return advise_huge_pages(::operator new(bytes, alignment_for(bytes)), bytes);
  } catch (const std::bad_alloc&) {
    host_trim();  // the caches may hold the memory this needs
    try {
      return advise_huge_pages(::operator new(bytes, alignment_for(bytes)), bytes);
    } catch (const std::bad_alloc&) {
      throw_out_of_memory(bytes, "");
    }
  }
}

void* pool_take(std::size_t bytes) {
  if (bytes > kMaxPooledBytes) return fresh_block(bytes);
  const int c = class_of(bytes);
  SizeClass& sc = g_classes[c];
  {
    SpinGuard lock(sc.busy);
    sc.peak = std::max(sc.peak, ++sc.in_use);
    if (void* b = sc.head) {
      sc.head = link_of(b, c)->next;
      FJ_POOL_UNPOISON(b, class_bytes(c));
      --sc.count;
      return b;
    }
  }
  return fresh_block(class_bytes(c));
}

void pool_give(void* p, std::size_t bytes) noexcept {
  if (bytes <= kMaxPooledBytes) {
    const int c = class_of(bytes);
    SizeClass& sc = g_classes[c];
    SpinGuard lock(sc.busy);
    if (sc.in_use > 0) --sc.in_use;
    const std::size_t keep = std::min(std::max(kPoolMinBytesPerClass / class_bytes(c), sc.peak),
                                      kPoolMaxBytesPerClass / class_bytes(c));
    if (sc.count < keep) {
      FJ_POOL_POISON(p, class_bytes(c) - sizeof(FreeBlock));
      ::new (link_of(p, c)) FreeBlock{sc.head};
      sc.head = p;
      ++sc.count;
      return;
    }
  }
  free_block(p, bytes);
}

// The allocator std::allocate_shared gets: the control block (holding the Buffer) is placed in
// a pooled block after `data_bytes` bytes of array data, so one block serves all three. The
// block's start is 64-byte aligned, and that is where the data goes (`*data`).
template <class T>
struct BlockAllocator {
  using value_type = T;
  std::size_t data_bytes = 0;
  void** data = nullptr;  // receives the block's address; null when the data lives elsewhere

  BlockAllocator(std::size_t bytes, void** out) : data_bytes(bytes), data(out) {}
  template <class U>
  BlockAllocator(const BlockAllocator<U>& o) : data_bytes(o.data_bytes), data(o.data) {}

  std::size_t offset() const {
    return (data_bytes + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
           alignof(std::max_align_t);
  }
  T* allocate(std::size_t n) {
    void* block = pool_take(offset() + n * sizeof(T));
    if (data) *data = block;
    return reinterpret_cast<T*>(static_cast<char*>(block) + offset());
  }
  void deallocate(T* p, std::size_t n) noexcept {
    pool_give(reinterpret_cast<char*>(p) - offset(), offset() + n * sizeof(T));
  }
  template <class U>
  bool operator==(const BlockAllocator<U>& o) const {
    return data_bytes == o.data_bytes;
  }
};

}  // namespace

void* host_allocate(std::size_t bytes) {
  check_request(bytes);
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
  return fresh_block(bytes);
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
  free_block(p, bytes);
}

BufferPtr allocate(std::size_t bytes) {
  // Data that leaves room for the control block in the largest class shares its block.
  if (bytes + 256 <= kMaxPooledBytes) {
    check_request(bytes);
    void* data = nullptr;
    BufferPtr b = std::allocate_shared<Buffer>(BlockAllocator<Buffer>(bytes, &data));
    b->data = data;
    b->bytes = bytes;
    return b;
  }
  BufferPtr b = std::allocate_shared<Buffer>(BlockAllocator<Buffer>(0, nullptr));
  b->data = host_allocate(bytes);
  b->bytes = bytes;
  b->owned = true;
  return b;
}

BufferPtr wrap(void* data, std::size_t bytes, std::shared_ptr<const void> owner) {
  BufferPtr b = std::allocate_shared<Buffer>(BlockAllocator<Buffer>(0, nullptr));
  b->data = data;
  b->bytes = bytes;
  b->owner = std::move(owner);
  return b;
}

std::size_t host_cached_bytes() {
  std::size_t n = 0;
  for (int c = 0; c < kClasses; ++c) {
    SpinGuard lock(g_classes[c].busy);
    n += g_classes[c].count * class_bytes(c);
  }
  auto& c = cache();
  std::lock_guard lock(c.mu);
  return n + c.held;
}

void host_trim() {
  std::vector<std::pair<void*, std::size_t>> blocks;
  for (int c = 0; c < kClasses; ++c) {
    void* b = nullptr;
    {
      SpinGuard lock(g_classes[c].busy);
      b = std::exchange(g_classes[c].head, nullptr);
      g_classes[c].count = 0;
      g_classes[c].peak = g_classes[c].in_use;  // what is in use now is what it keeps again
    }
    while (b) {
      void* next = link_of(b, c)->next;
      FJ_POOL_UNPOISON(b, class_bytes(c));
      ::operator delete (b, std::align_val_t{kAlignment});
      b = next;
    }
  }
  auto& c = cache();
  {
    std::lock_guard lock(c.mu);
    for (auto& [n, p] : c.free) blocks.emplace_back(p, n);
    c.free.clear();
    c.held = 0;
  }
  for (auto [p, n] : blocks) free_block(p, n);
}

}  // namespace fj::runtime
