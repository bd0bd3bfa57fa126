// Peak memory and time of a deep MLP's gradient with and without fj::checkpoint: each
// configuration runs in a child process of its own, which reports its peak resident set
// (getrusage) after one compiled call, and the median time of a few warm calls.
//   bench_checkpoint_memory [depth] [width] [batch]   (defaults 64 256 1024)
// FUSEJIT_BENCH_MIN_TIME set (the bench_smoke entry) shrinks it to depth 8, width 32, batch 16.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

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

double run(const Config& c, double& seconds) {
  std::vector<Array> ws;
  const float scale = 1.0f / std::sqrt(static_cast<float>(c.width));
  for (int l = 0; l < c.depth; ++l) {
    std::vector<float> v(static_cast<std::size_t>(c.width) * static_cast<std::size_t>(c.width));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = scale * static_cast<float>(std::sin(0.37 * static_cast<double>(i + 7 * l)));
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
  std::vector<Array> out = g(ws, x);  // compile and run once
  std::vector<double> times;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    out = g(ws, x);
    out.back().block_until_ready();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  seconds = times[times.size() / 2];
  double check = 0;
  for (const Array& a : out) check += static_cast<double>(a.data<float>()[0]);
  return check;
}

}  // namespace

int main(int argc, char** argv) {
  const bool smoke = std::getenv("FUSEJIT_BENCH_MIN_TIME") != nullptr;
  const int depth = argc > 1 ? std::atoi(argv[1]) : (smoke ? 8 : 64);
  const int width = argc > 2 ? std::atoi(argv[2]) : (smoke ? 32 : 256);
  const int batch = argc > 3 ? std::atoi(argv[3]) : (smoke ? 16 : 1024);
  std::printf("grad of a %d-layer tanh MLP, width %d, batch %d, f32\n", depth, width, batch);
  std::printf("%-28s %14s %12s %14s\n", "checkpoint", "peak RSS MiB", "warm ms", "grad[0][0]");
  const int sqrt_depth = std::max(1, static_cast<int>(std::lround(std::sqrt(depth))));
  for (int segment : {0, 1, sqrt_depth}) {
    int fd[2];
    if (pipe(fd) != 0) return 1;
    const pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      double seconds = 0;
      const double check = run({depth, width, batch, segment}, seconds);
      rusage u{};
      getrusage(RUSAGE_SELF, &u);
      const double row[3] = {static_cast<double>(u.ru_maxrss) / 1024.0, seconds * 1e3, check};
      if (write(fd[1], row, sizeof row) != static_cast<ssize_t>(sizeof row)) _exit(1);
      _exit(0);
    }
    close(fd[1]);
    double row[3] = {0, 0, 0};
    const bool ok = read(fd[0], row, sizeof row) == static_cast<ssize_t>(sizeof row);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!ok || status != 0) return 1;
    const std::string name = segment == 0   ? "none"
                             : segment == 1 ? "every layer"
                                            : "every " + std::to_string(segment) + " layers";
    std::printf("%-28s %14.1f %12.3f %14.6g\n", name.c_str(), row[0], row[1], row[2]);
  }
  return 0;
}
