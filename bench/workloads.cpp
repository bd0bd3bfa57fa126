// Workloads of the side-by-side comparison with JAX, NumPy and Dr.Jit (bench/peers.py runs the
// same ones there): fusejit's jit against an Eigen baseline.
//
// Rows are named <workload>/<column>/<size>:
//   softmax/<column>/4096x1024    exp(x - max(x, {1}, keepdims)) / sum(..., {1}, keepdims), over
//                                 the last axis of a (4096, 1024) f32 array
//   layernorm/<column>/4096x1024  (x - mean) * rsqrt(var + 1e-5), mean and var over the last
//                                 axis (keepdims), no affine parameters
//     column: fusejit_jit (fj::jit, warm: compiled before timing), eigen (row by row, compiled
//     -O3 -march=native in workloads_eigen.cpp, single-threaded), floor_nt and floor_nt_1thread
//     (the bandwidth floor, floor.cpp: the same bytes, 16 MiB read and 16 MiB written, copied
//     with vector loads and non-temporal stores on all hardware threads, whatever
//     FUSEJIT_NUM_THREADS says, or on one; counter threads)
//   jit_in_loop/fusejit_jit/{partial,lambda,normal}: JAX's "jit in a loop" example,
//     g_inner_jitted_<variant>(x, n) with (x, n) = (10, 20): n calls of a freshly made
//     jit(loop body) (through a partial-like wrapper, a fresh lambda, or the named function), then
//     x + i. Time per call of g; counters compiles_per_call and traces_per_call are the
//     fj::cache_stats() deltas per call of g after the first: compiles must be 0 (the global
//     kernel cache serves every fresh function), where JAX recompiles the partial and lambda
//     forms on every iteration.
// x is the LCG stream of bench_fused_elementwise (uniform in [-3, 3]). Every row reports real time
// (fusejit may run on several threads); the array rows add items (elements) and bytes per second
// (8 per element: the input read once and the output written once) and ns_per_elem.
// fusejit's thread count is read from FUSEJIT_NUM_THREADS when the process starts: scripts/bench
// runs every row with FUSEJIT_NUM_THREADS=1, then the fusejit_jit rows with it unset.
//
// Before running, the binary checks every column on a few rows against a double-precision
// computation (and g's result and compile count) and exits with status 1 if one differs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "floor.hpp"
#include "row_workloads.hpp"

namespace fjbench {  // workloads_eigen.cpp
void eigen_softmax(const float* x, float* y, std::size_t rows, std::size_t cols);
void eigen_layernorm(const float* x, float* y, std::size_t rows, std::size_t cols, float eps);
}  // namespace fjbench

namespace {

using fj::Tracer;

constexpr std::int64_t kRows = 4096;
constexpr std::int64_t kCols = 1024;
constexpr float kEps = fjbench::kLayernormEps;
constexpr double kMinTime = 0.2;  // seconds per row (and per repetition)

// --- the functions under test ----------------------------------------------------------------

using fjbench::layernorm;
using fjbench::softmax;

// JAX's "jit in a loop" example (the JIT compilation page of its docs):
//   def unjitted_loop_body(prev_i): return prev_i + 1
//   def g_inner_jitted_partial(x, n):          # jax.jit(partial(unjitted_loop_body))(i)
//   def g_inner_jitted_lambda(x, n):           # jax.jit(lambda x: unjitted_loop_body(x))(i)
//   def g_inner_jitted_normal(x, n):           # jax.jit(unjitted_loop_body)(i)
//       i = 0
//       while i < n: i = jax.jit(...)(i)
//       return x + i
// JAX caches on the function object's identity, so it compiles the partial and lambda bodies on
// every iteration. fusejit traces each fresh jit object once, but its global kernel cache keys on
// the kernel's structure: no compile after the first call.
Tracer unjitted_loop_body(Tracer prev_i) { return prev_i + 1; }

// functools.partial with nothing bound: a new callable object wrapping the function each time.
struct Partial {
  Tracer (*fn)(Tracer);
  Tracer operator()(Tracer v) const { return fn(v); }
};

fj::Array g_inner_jitted_partial(const fj::Array& x, int n) {
  fj::Array i = fj::array(0);
  for (int k = 0; k < n; ++k) i = fj::jit(Partial{unjitted_loop_body})(i);
  return x + i;
}
fj::Array g_inner_jitted_lambda(const fj::Array& x, int n) {
  fj::Array i = fj::array(0);
  for (int k = 0; k < n; ++k) i = fj::jit([](Tracer v) { return unjitted_loop_body(v); })(i);
  return x + i;
}
fj::Array g_inner_jitted_normal(const fj::Array& x, int n) {
  fj::Array i = fj::array(0);
  for (int k = 0; k < n; ++k) i = fj::jit(unjitted_loop_body)(i);
  return x + i;
}

using LoopFn = fj::Array (*)(const fj::Array&, int);
constexpr int kLoopX = 10;
constexpr int kLoopN = 20;

// --- inputs ----------------------------------------------------------------------------------

struct Input {
  std::vector<float> v;  // row-major (kRows, kCols)
  fj::Array x;
  std::vector<float> out;  // Eigen's destination
};

// x: a fixed pseudo-random array in [-3, 3] (a 64-bit LCG; the same as bench_fused_elementwise).
// Never destroyed (see bench_matmul: the block cache may be gone at exit).
const Input& input() {
  static Input* in = [] {
    auto* p = new Input;
    p->v.resize(static_cast<std::size_t>(kRows * kCols));
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    for (auto& e : p->v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      e = -3.0f + 6.0f * static_cast<float>(s >> 40) * 0x1p-24f;
    }
    p->x = fj::array(p->v, fj::Shape{kRows, kCols});
    p->out.assign(p->v.size(), 0.0f);  // touched once, so the timed loops do not fault
    return p;
  }();
  return *in;
}

// --- reporting -------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

void report(benchmark::State& state, Clock::time_point start) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  const auto iters = static_cast<std::int64_t>(state.iterations());
  const std::int64_t n = kRows * kCols;
  state.SetItemsProcessed(iters * n);
  state.SetBytesProcessed(iters * n * 8);
  state.counters["ns_per_elem"] = ns / static_cast<double>(iters * n);
}

using fusejit_bench::backend_name;
using fusejit_bench::env_or;
using fusejit_bench::warm_up;

template <class F>
void BM_fusejit_jit(benchmark::State& state, F fn, const char* name) {
  const Input& in = input();
  auto f = fj::jit(fn, name);
  fj::Array y;
  if (!warm_up(state, [&] { y = f(in.x); })) return;  // trace + compile, outside the timed loop
  const auto start = Clock::now();
  for (auto _ : state) {
    y = f(in.x);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, start);
  state.SetLabel(backend_name());
}

void BM_eigen(benchmark::State& state, bool is_softmax) {
  const Input& in = input();
  float* out = const_cast<float*>(in.out.data());
  const auto start = Clock::now();
  for (auto _ : state) {
    if (is_softmax)
      fjbench::eigen_softmax(in.v.data(), out, kRows, kCols);
    else
      fjbench::eigen_layernorm(in.v.data(), out, kRows, kCols, kEps);
    benchmark::ClobberMemory();
  }
  report(state, start);
}

void BM_floor_nt(benchmark::State& state, int threads) {
  const Input& in = input();
  float* out = const_cast<float*>(in.out.data());
  const auto start = Clock::now();
  for (auto _ : state) {
    fjbench::floor_nt(in.v.data(), out, in.v.size(), threads);
    benchmark::ClobberMemory();
  }
  report(state, start);
  state.counters["threads"] = threads;
}

void BM_jit_in_loop(benchmark::State& state, LoopFn g) {
  const fj::Array x = fj::array(kLoopX);
  fj::Array y;
  if (!warm_up(state, [&] { y = g(x, kLoopN); })) return;  // the first call compiles
  const auto before = fj::cache_stats();
  for (auto _ : state) {
    y = g(x, kLoopN);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  const auto after = fj::cache_stats();
  const auto iters = static_cast<double>(state.iterations());
  state.counters["compiles_per_call"] =
      static_cast<double>(after.compiles - before.compiles) / iters;
  state.counters["traces_per_call"] = static_cast<double>(after.traces - before.traces) / iters;
  state.SetLabel(backend_name());
}

// --- registration ------------------------------------------------------------------------------

void register_all() {
  const std::string size = "/" + std::to_string(kRows) + "x" + std::to_string(kCols);
  auto add = [](const std::string& name, auto fn, auto arg) {
    benchmark::RegisterBenchmark(name.c_str(), fn, arg)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(fusejit_bench::min_time(kMinTime));
  };
  add(
      "softmax/fusejit_jit" + size,
      [](benchmark::State& s, int) { BM_fusejit_jit(s, softmax, "softmax"); }, 0);
  add("softmax/eigen" + size, BM_eigen, true);
  add(
      "layernorm/fusejit_jit" + size,
      [](benchmark::State& s, int) { BM_fusejit_jit(s, layernorm, "layernorm"); }, 0);
  add("layernorm/eigen" + size, BM_eigen, false);
  // The same floor under each workload's name, so that each table divides by a row of its own.
  for (const char* workload : {"softmax", "layernorm"}) {
    add(workload + std::string("/floor_nt") + size, BM_floor_nt, fjbench::floor_all_threads());
    add(workload + std::string("/floor_nt_1thread") + size, BM_floor_nt, 1);
  }
  const std::pair<const char*, LoopFn> loops[] = {{"partial", g_inner_jitted_partial},
                                                  {"lambda", g_inner_jitted_lambda},
                                                  {"normal", g_inner_jitted_normal}};
  for (const auto& [variant, g] : loops)
    benchmark::RegisterBenchmark((std::string("jit_in_loop/fusejit_jit/") + variant).c_str(),
                                 BM_jit_in_loop, g)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime()
        ->MinTime(fusejit_bench::min_time(kMinTime));
}

// --- correctness check -------------------------------------------------------------------------

constexpr std::int64_t kCheckRows[] = {0, 1, 2047, kRows - 1};

// The exact (double) result of one row.
std::vector<double> exact_row(const float* x, bool is_softmax) {
  std::vector<double> r(x, x + kCols);
  if (is_softmax) {
    const double m = *std::max_element(r.begin(), r.end());
    double s = 0;
    for (double& v : r) s += (v = std::exp(v - m));
    for (double& v : r) v /= s;
  } else {
    double mean = 0, var = 0;
    for (double v : r) mean += v;
    mean /= kCols;
    for (double v : r) var += (v - mean) * (v - mean);
    var /= kCols;
    for (double& v : r) v = (v - mean) / std::sqrt(var + kEps);
  }
  return r;
}

bool check() {
  const Input& in = input();
  bool ok = true;
  // Relative error, with the row's largest value as the floor of the scale (softmax's entries
  // are ~1e-3 and layernorm's cross 0).
  auto compare = [&](const char* workload, const char* what, const float* got, bool is_softmax) {
    double worst = 0;
    for (const std::int64_t r : kCheckRows) {
      const auto want = exact_row(in.v.data() + r * kCols, is_softmax);
      double scale = 0;
      for (double v : want) scale = std::max(scale, std::abs(v));
      for (std::int64_t c = 0; c < kCols; ++c) {
        const double w = want[static_cast<std::size_t>(c)];
        worst = std::max(
            worst, std::abs(double(got[r * kCols + c]) - w) / std::max(std::abs(w), 1e-2 * scale));
      }
    }
    const bool good = worst <= 1e-4;
    std::fprintf(stderr, "check %-9s %-12s max rel. error %.2e %s\n", workload, what, worst,
                 good ? "ok" : "MISMATCH");
    ok = ok && good;
  };
  float* out = const_cast<float*>(in.out.data());
  {
    fj::Array y = fj::jit(softmax, "softmax")(in.x);
    compare("softmax", "fusejit_jit", y.data<float>(), true);
    fjbench::eigen_softmax(in.v.data(), out, kRows, kCols);
    compare("softmax", "eigen", out, true);
  }
  {
    fj::Array y = fj::jit(layernorm, "layernorm")(in.x);
    compare("layernorm", "fusejit_jit", y.data<float>(), false);
    fjbench::eigen_layernorm(in.v.data(), out, kRows, kCols, kEps);
    compare("layernorm", "eigen", out, false);
  }
  const std::pair<const char*, LoopFn> loops[] = {{"partial", g_inner_jitted_partial},
                                                  {"lambda", g_inner_jitted_lambda},
                                                  {"normal", g_inner_jitted_normal}};
  const fj::Array x = fj::array(kLoopX);
  for (const auto& [variant, g] : loops) {
    const long first = fj::Array(g(x, kLoopN)).item<long>();
    const auto before = fj::cache_stats().compiles;
    const long second = fj::Array(g(x, kLoopN)).item<long>();
    const auto compiles = fj::cache_stats().compiles - before;
    // Only a compiling backend promises no recompiles (the reference one "compiles" each graph).
    const bool good =
        first == kLoopX + kLoopN && second == first && (compiles == 0 || backend_name() != "llvm");
    std::fprintf(stderr, "check jit_in_loop %-8s g(10, 20) = %ld, %llu compiles on a 2nd call %s\n",
                 variant, second, static_cast<unsigned long long>(compiles),
                 good ? "ok" : "MISMATCH");
    ok = ok && good;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    benchmark::AddCustomContext("fusejit_backend", backend_name());
    benchmark::AddCustomContext("fusejit_num_threads", env_or("FUSEJIT_NUM_THREADS", "unset"));
    benchmark::AddCustomContext("baselines_compiled_with",
                                "-O3 -march=native (workloads_eigen.cpp, floor.cpp)");
    benchmark::AddCustomContext("floor_isa", fjbench::floor_isa());
    benchmark::AddCustomContext("floor_threads", std::to_string(fjbench::floor_all_threads()));
    if (!check()) {
      std::fprintf(stderr, "a column computes something else: not benchmarking\n");
      return 1;
    }
    register_all();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_workloads: %s\n", e.what());
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
