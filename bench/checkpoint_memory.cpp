// Peak memory and time of a deep MLP's gradient with and without fj::checkpoint: each
// configuration runs in a child process of its own, which reports the peak of the bytes its
// arrays' buffers held during the first call (fusejit's buffers come from the aligned operator
// new, counted below; LLVM's compile-time memory does not), its peak resident set (getrusage,
// compile included), and the median time of a few warm calls.
//   bench_checkpoint_memory [depth] [width] [batch]   (defaults 64 256 1024)
// FUSEJIT_BENCH_MIN_TIME set (the bench_smoke entry) shrinks it to depth 8, width 32, batch 16.
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <new>
#include <random>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

namespace {

std::atomic<std::size_t> g_live{0}, g_peak{0};

void* counted_alloc(std::size_t bytes, std::align_val_t align) {
  const auto a = static_cast<std::size_t>(align);
  void* p = std::aligned_alloc(a, (bytes + a - 1) / a * a);
  if (!p) throw std::bad_alloc();
  const std::size_t now = g_live += malloc_usable_size(p);
  for (std::size_t peak = g_peak; now > peak && !g_peak.compare_exchange_weak(peak, now);) {
  }
  return p;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  g_live -= malloc_usable_size(p);
  std::free(p);
}

}  // namespace

// fusejit's host buffers are over-aligned, so they come through these.
void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc(n, a); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }

namespace {

using fj::Array;
using fj::Tracer;

struct Config {
  int depth, width, batch;
  int segment;  // layers per checkpoint (0: no checkpoint)
};

// One tanh layer: the function a JAX user writes and wraps with jax.checkpoint.
Array layer(Tracer w, Tracer x) { return fj::tanh(fj::matmul(x, w)); }

Array segment_fn(const std::vector<Array>& ws, Tracer x) {
  Array h = x;
  for (const Array& w : ws) h = layer(w, h);
  return h;
}

double run(const Config& c, double& seconds, double& peak_mib) {
  std::vector<Array> ws;
  // Gaussian weights of standard deviation 1 / sqrt(width) (LeCun's), from a fixed seed.
  std::mt19937 gen(42);
  std::normal_distribution<float> normal(0.0f, 1.0f / std::sqrt(static_cast<float>(c.width)));
  for (int l = 0; l < c.depth; ++l) {
    std::vector<float> v(static_cast<std::size_t>(c.width) * static_cast<std::size_t>(c.width));
    for (float& e : v) e = normal(gen);
    ws.push_back(fj::array(v, fj::Shape{c.width, c.width}));
  }
  std::vector<float> xv(static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(c.width));
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(std::cos(0.11 * i));
  const Array x = fj::array(xv, fj::Shape{c.batch, c.width});
  auto loss = [&](const std::vector<Array>& w, Tracer in) {
    Array h = in;
    if (c.segment == 0) {
      for (const Array& wl : w) h = layer(wl, h);
    } else {
      for (std::size_t s = 0; s < w.size(); s += static_cast<std::size_t>(c.segment)) {
        const std::vector<Array> part(
            w.begin() + static_cast<std::ptrdiff_t>(s),
            w.begin() + static_cast<std::ptrdiff_t>(
                            std::min(w.size(), s + static_cast<std::size_t>(c.segment))));
        h = fj::checkpoint(segment_fn)(part, h);
      }
    }
    return fj::sum(fj::square(h));
  };
  auto g = fj::jit(fj::grad(loss));
  g_peak = g_live.load();
  const std::size_t before = g_live;
  std::vector<Array> out = g(ws, x);  // compile and run once
  peak_mib = static_cast<double>(g_peak - before) / (1 << 20);
  std::vector<double> times;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    out = g(ws, x);
    out.back().block_until_ready();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  seconds = times[times.size() / 2];
  double check = 0;  // the last layer's gradient (the first ones vanish through 64 tanh layers)
  const Array& last = out.back();
  for (std::int64_t i = 0; i < last.size(); ++i)
    check += static_cast<double>(last.data<float>()[i]);
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  const bool smoke = std::getenv("FUSEJIT_BENCH_MIN_TIME") != nullptr;
  const int depth = argc > 1 ? std::atoi(argv[1]) : (smoke ? 8 : 64);
  const int width = argc > 2 ? std::atoi(argv[2]) : (smoke ? 32 : 256);
  const int batch = argc > 3 ? std::atoi(argv[3]) : (smoke ? 16 : 1024);
  std::printf("grad of a %d-layer tanh MLP, width %d, batch %d, f32\n", depth, width, batch);
  std::printf("%-20s %16s %14s %10s %16s\n", "checkpoint", "buffers peak MiB", "peak RSS MiB",
              "warm ms", "sum of last grad");
  const int sqrt_depth = std::max(1, static_cast<int>(std::lround(std::sqrt(depth))));
  for (int segment : {0, 1, sqrt_depth}) {
    int fd[2];
    if (pipe(fd) != 0) return 1;
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      double seconds = 0, peak = 0;
      const double check = run({depth, width, batch, segment}, seconds, peak);
      rusage u{};
      getrusage(RUSAGE_SELF, &u);
      const double row[4] = {peak, static_cast<double>(u.ru_maxrss) / 1024.0, seconds * 1e3, check};
      if (write(fd[1], row, sizeof row) != static_cast<ssize_t>(sizeof row)) _exit(1);
      _exit(0);
    }
    close(fd[1]);
    double row[4] = {0, 0, 0, 0};
    const bool ok = read(fd[0], row, sizeof row) == static_cast<ssize_t>(sizeof row);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!ok || status != 0) return 1;
    const std::string name = segment == 0   ? "none"
                             : segment == 1 ? "every layer"
                                            : "every " + std::to_string(segment) + " layers";
    std::printf("%-20s %16.1f %14.1f %10.3f %16.8g\n", name.c_str(), row[0], row[1], row[2],
                row[3]);
  }
  return 0;
}
