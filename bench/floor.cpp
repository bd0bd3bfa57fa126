// The bandwidth floor (floor.hpp): a streaming copy with vector loads and non-temporal stores, on
// 1 thread or on a small persistent pool. Compiled -O3 -march=native (the CMake bench section);
// it does not include fusejit.
#include "floor.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <thread>
#include <vector>

namespace fjbench {

namespace {

// The widest vector of the host: load (unaligned) and non-temporal store (aligned).
#if defined(__AVX512F__)
using Vec = __m512;
constexpr std::size_t kLanes = 16;
inline Vec load(const float* p) { return _mm512_loadu_ps(p); }
inline void stream(float* p, Vec v) { _mm512_stream_ps(p, v); }
#elif defined(__AVX2__)
using Vec = __m256;
constexpr std::size_t kLanes = 8;
inline Vec load(const float* p) { return _mm256_loadu_ps(p); }
inline void stream(float* p, Vec v) { _mm256_stream_ps(p, v); }
#endif

// One contiguous part: scalar stores up to y's first 64-byte boundary, then 4 vectors per
// iteration (256 bytes with AVX-512), then single vectors, then a scalar tail.
void copy_nt(const float* x, float* y, std::size_t n) {
  std::size_t i = 0;
  while (i < n && reinterpret_cast<std::uintptr_t>(y + i) % 64 != 0) {
    y[i] = x[i];
    ++i;
  }
#if defined(__AVX512F__) || defined(__AVX2__)
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const Vec a = load(x + i);
    const Vec b = load(x + i + kLanes);
    const Vec c = load(x + i + 2 * kLanes);
    const Vec d = load(x + i + 3 * kLanes);
    stream(y + i, a);
    stream(y + i + kLanes, b);
    stream(y + i + 2 * kLanes, c);
    stream(y + i + 3 * kLanes, d);
  }
  for (; i + kLanes <= n; i += kLanes) stream(y + i, load(x + i));
#endif
  for (; i < n; ++i) y[i] = x[i];
#if defined(__SSE2__)
  _mm_sfence();  // non-temporal stores are weakly ordered: make them visible before returning
#endif
}

// Part `k` of `parts`: boundaries rounded to 16 floats (64 bytes), so every part but the first
// starts on a cache line of y when y does.
void copy_part(const float* x, float* y, std::size_t n, int k, int parts) {
  const std::size_t per = (n / static_cast<std::size_t>(parts) + 15) / 16 * 16;
  const std::size_t lo = std::min(n, per * static_cast<std::size_t>(k));
  const std::size_t hi = k + 1 == parts ? n : std::min(n, lo + per);
  copy_nt(x + lo, y + lo, hi - lo);
}

// workers() persistent threads; run() hands each one part of a copy, copies part 0 itself and
// waits for all of them. A generation counter wakes the workers (C++20 atomic wait: a futex
// after a short spin) and `pending` counts those not done yet.
class Pool {
 public:
  explicit Pool(int workers) {
    for (int w = 1; w <= workers; ++w) threads_.emplace_back([this, w] { work(w); });
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    stop_.store(true, std::memory_order_relaxed);
    gen_.fetch_add(1, std::memory_order_release);
    gen_.notify_all();
    for (auto& t : threads_) t.join();
  }

  void run(const float* x, float* y, std::size_t n) {
    const int parts = static_cast<int>(threads_.size()) + 1;
    x_ = x;
    y_ = y;
    n_ = n;
    pending_.store(parts - 1, std::memory_order_relaxed);
    gen_.fetch_add(1, std::memory_order_release);
    gen_.notify_all();
    copy_part(x, y, n, 0, parts);
    for (int p; (p = pending_.load(std::memory_order_acquire)) != 0;) pending_.wait(p);
  }

 private:
  void work(int w) {
    std::uint64_t seen = 0;
    for (;;) {
      gen_.wait(seen, std::memory_order_acquire);
      seen = gen_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      copy_part(x_, y_, n_, w, static_cast<int>(threads_.size()) + 1);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::atomic<std::uint64_t> gen_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  const float* x_ = nullptr;  // the job, written before gen_ is bumped
  float* y_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace

int floor_all_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void floor_nt(const float* x, float* y, std::size_t n, int threads) {
  if (threads <= 1) {
    copy_nt(x, y, n);
    return;
  }
  // One pool per thread count, kept for the life of the process (the benchmarks are
  // single-threaded callers).
  static std::map<int, std::unique_ptr<Pool>> pools;
  auto& pool = pools[threads];
  if (!pool) pool = std::make_unique<Pool>(threads - 1);
  pool->run(x, y, n);
}

const char* floor_isa() {
#if defined(__AVX512F__)
  return "AVX-512";
#elif defined(__AVX2__)
  return "AVX2";
#else
  return "scalar";
#endif
}

}  // namespace fjbench
