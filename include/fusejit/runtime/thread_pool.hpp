// The persistent thread pool kernels split their iteration space across (Eigen's ThreadPool).
#pragma once
#include <cstdint>
#include <functional>

namespace fj::runtime {

/// Threads a kernel may use, the caller included: FUSEJIT_NUM_THREADS, else the hardware's.
int num_threads();

/// Caps the threads kernels use from now on (1 = the calling thread only); at most num_threads().
/// Results never depend on it: work is split at fixed boundaries.
void set_thread_limit(int n);

/// Caps the threads the calling thread's kernels use, for the scope's lifetime: a pmap device's
/// share of the one pool.
class ThreadShare {
 public:
  explicit ThreadShare(int n);
  ~ThreadShare();
  ThreadShare(const ThreadShare&) = delete;
  ThreadShare& operator=(const ThreadShare&) = delete;

 private:
  int saved_;
};

/// Runs f(begin, end) over [0, n) in contiguous chunks of at least `min_chunk` elements, the
/// calling thread taking one chunk. Chunk boundaries are multiples of `align`.
void parallel_for(std::int64_t n, std::int64_t min_chunk, std::int64_t align,
                  const std::function<void(std::int64_t, std::int64_t)>& f);

}  // namespace fj::runtime
