// How fusejit's time grows with a program's size (issue 45): one measurement per process, so
// that the first call includes tracing and compiling, as a user's first call does.
//
//   bench_scale chain N       y = sin(y) * 0.5 + y, N steps (3N equations) on f32[65536]
//   bench_scale mlp L         jit(grad) of an MLP: L tanh(h @ w) layers, width 64, batch 32
//
// Prints one JSON object: {"system", "workload", "size", "first_ms", "warm_ms"}; warm_ms is the
// median of the warm calls (at least 5, and at least 0.2 s of them). The inputs are the JAX twin's
// (bench/scale/scale_jax.py): x = 1 for the chain; for the MLP, x and each w from a fixed
// cosine pattern, so both sides compute the same values without sharing a random generator.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <string>
#include <vector>

namespace {

using clk = std::chrono::steady_clock;
double ms_since(clk::time_point t) {
  return std::chrono::duration<double, std::milli>(clk::now() - t).count();
}

// The first call's time, then the median warm call.
template <class F>
std::pair<double, double> first_and_warm(F&& call) {
  const auto t0 = clk::now();
  call();
  const double first = ms_since(t0);
  std::vector<double> warm;
  const auto start = clk::now();
  while (warm.size() < 5 || ms_since(start) < 200) {
    const auto t = clk::now();
    call();
    warm.push_back(ms_since(t));
  }
  std::sort(warm.begin(), warm.end());
  return {first, warm[warm.size() / 2]};
}

// pattern(n, seed)[i] = 0.1 * cos(0.37 * i + seed), the twin's inputs.
fj::Array pattern(std::vector<std::int64_t> shape, double seed) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<float>(0.1 * std::cos(0.37 * i + seed));
  return fj::array(v, fj::Shape(shape));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: bench_scale chain N | mlp L\n";
    return 2;
  }
  const std::string workload = argv[1];
  const int size = std::atoi(argv[2]);
  std::pair<double, double> t;
  if (workload == "chain") {
    auto f = fj::jit([size](fj::Tracer y) {
      for (int i = 0; i < size; ++i) y = fj::sin(y) * 0.5f + y;
      return y;
    });
    const fj::Array x = fj::ones({65536}, fj::f32);
    t = first_and_warm([&] { f(x).block_until_ready(); });
  } else if (workload == "mlp") {
    std::vector<fj::Array> ws;
    for (int l = 0; l < size; ++l) ws.push_back(pattern({64, 64}, l + 1));
    const fj::Array x = pattern({32, 64}, 0);
    auto loss = [](const std::vector<fj::Tracer>& w, fj::Tracer h) {
      for (const fj::Tracer& wl : w) h = fj::tanh(fj::matmul(h, wl));
      return fj::sum(h * h);
    };
    auto g = fj::jit(fj::grad(loss));
    t = first_and_warm([&] { g(ws, x)[0].block_until_ready(); });
  } else {
    std::cerr << "bench_scale: unknown workload " << workload << "\n";
    return 2;
  }
  std::cout << "{\"system\": \"fusejit\", \"workload\": \"" << workload << "\", \"size\": " << size
            << ", \"first_ms\": " << t.first << ", \"warm_ms\": " << t.second << "}\n";
}
