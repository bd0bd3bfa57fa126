// Eigen's ThreadPool behind parallel_for (implementation unit only).
#include <unsupported/Eigen/CXX11/ThreadPool>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

#include "fusejit/runtime/thread_pool.hpp"

namespace fj::runtime {

int num_threads() {
  static const int n = [] {
    int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (const char* env = std::getenv("FUSEJIT_NUM_THREADS"); env && *env) {
      const int cap = std::atoi(env);
      if (cap >= 1) hw = std::min(hw, cap);
    }
    return hw;
  }();
  return n;
}

namespace {
std::atomic<int> g_thread_limit{1 << 30};

Eigen::ThreadPool& pool() {
  // The caller runs one chunk itself, so the pool holds one thread fewer.
  static Eigen::ThreadPool p(std::max(1, num_threads() - 1));
  return p;
}
}  // namespace

void set_thread_limit(int n) { g_thread_limit.store(std::max(1, n)); }

namespace {
thread_local int t_share = 1 << 30;
}  // namespace

ThreadShare::ThreadShare(int n) : saved_(t_share) { t_share = std::max(1, n); }
ThreadShare::~ThreadShare() { t_share = saved_; }

void parallel_for(std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                  const std::function<void(std::int64_t, std::int64_t)>& f) {
  const std::int64_t threads =
      std::min({num_threads(), g_thread_limit.load(std::memory_order_relaxed), t_share});
  const std::int64_t chunks =
      std::min<std::int64_t>(threads, n / std::max<std::int64_t>(min_chunk, 1));
  if (chunks <= 1) {
    if (n > 0) f(0, n);
    return;
  }
  std::int64_t step = (n + chunks - 1) / chunks;
  step = (step + align - 1) / align * align;
  Eigen::Barrier done(static_cast<unsigned>(chunks - 1));
  for (std::int64_t c = 1; c < chunks; ++c) {
    const std::int64_t b = std::min(n, c * step), e = std::min(n, (c + 1) * step);
    pool().Schedule([&, b, e] {
      if (b < e) f(b, e);
      done.Notify();
    });
  }
  f(0, std::min(n, step));
  done.Wait();
}

}  // namespace fj::runtime
