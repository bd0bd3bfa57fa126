// Matrix products: fusejit's jit (cold and warm) and eager reference backend against Eigen's GEMM.
//
// Square f32 matrices of n = 64, 256, 1024, 2048. Rows are named <workload>/<column>/<n>:
//   matmul/<column>/<n>, column:
//     reference     fj::matmul(a, b) eagerly on the "reference" backend (plain loops); only up to
//                   n = 1024, and at 1024 one iteration per repetition (O(n^3), naive)
//     jit_cold      the first call of a fresh fj::jit(matmul) after fj::clear_caches(): trace,
//                   compile, run (manual time: only the call is timed)
//     jit_warm      later calls of the same jitted function
//     eigen         Eigen's A * B (row-major, noalias, preallocated C), single-threaded,
//                   compiled -O3 -march=native (matmul_eigen.cpp)
//     eigen_tune_generic  the same, compiled -O3 -march=native -mtune=generic
//                   (matmul_eigen_tune_generic.cpp): -march=native's tuning alone can change
//                   Eigen's GEMM by 20% (it did on the project's AMD guest with GCC 12)
//     eigen_tensor  Eigen's tensor contraction on a ThreadPoolDevice of fj::runtime::num_threads()
//                   threads: the multithreaded Eigen baseline at fusejit's thread count
//   relu_matmul/<column>/<n>: relu(x @ W + b), column:
//     jit_cold      as matmul's, for fj::maximum(fj::matmul(x, w) + b, 0): this one also compiles
//                   an LLVM kernel (the epilogue), where a lone matmul only traces and plans
//     jit_warm      the same function jitted, warm (the epilogue runs on each output panel)
//     eigen, eigen_tune_generic  C = A * B, then C = (C.rowwise() + b).cwiseMax(0)
// Every row reports real time per call (ms) and the counter GFLOPS (2 n^3 per call; the bias and
// relu are not counted); the cold rows also report the traces and kernel compiles per call.
// fusejit's thread count is read from FUSEJIT_NUM_THREADS when the process starts: scripts/bench
// runs every row with FUSEJIT_NUM_THREADS=1, then the fusejit jit rows and eigen_tensor with it
// unset; the value is recorded in the JSON context.
//
// Before running, the binary checks every column's product on a few entries against a
// double-precision sum and exits with status 1 if one differs. Eigen lives in matmul_eigen*.cpp.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"

#include "matmul_eigen.hpp"

namespace {

using fj::Tracer;

constexpr std::int64_t kSizes[] = {64, 256, 1024, 2048};
// The reference backend's naive loops take seconds at 1024 and minutes at 2048: 2048 is not run,
// 1024 runs one iteration per repetition.
constexpr std::int64_t kReferenceMax = 1024;
constexpr std::int64_t kReferenceOneIteration = 1024;
constexpr double kMinTime = 0.5;  // seconds per row (and per repetition)

// --- the functions under test ----------------------------------------------------------------

auto mm = [](Tracer x, Tracer w) { return fj::matmul(x, w); };
auto relu_mm = [](Tracer x, Tracer w, Tracer b) { return fj::maximum(fj::matmul(x, w) + b, 0); };

// --- inputs ----------------------------------------------------------------------------------

int eigen_threads() { return fj::runtime::num_threads(); }

struct Input {
  std::int64_t n = 0;
  std::vector<float> va, vb, vbias;  // the values, row-major
  fj::Array a, b, bias;              // fusejit's copies
  // Eigen's own copies and output, one per build of the baselines.
  fjbench::EigenMatmulApi native = fjbench::eigen_matmul_native();
  fjbench::EigenMatmulApi generic = fjbench::eigen_matmul_tune_generic();
  void* eigen = nullptr;
  void* eigen_generic = nullptr;
  Input() = default;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    native.free(eigen);
    generic.free(eigen_generic);
  }
};

// A fixed pseudo-random stream in [-1, 1] (a 64-bit LCG; the same on every machine).
void fill(std::vector<float>& v, std::uint64_t seed) {
  std::uint64_t s = seed;
  for (auto& e : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    e = -1.0f + 2.0f * static_cast<float>(s >> 40) * 0x1p-24f;
  }
}

// Never destroyed: fusejit's block cache (a function-local static, created by the first
// allocation, so after this map) is destroyed first at exit, and releasing the arrays into it
// then is undefined (it hung in std::multimap::emplace).
const Input& input(std::int64_t n) {
  static auto& cache = *new std::map<std::int64_t, std::unique_ptr<Input>>;
  auto& slot = cache[n];
  if (!slot) {
    slot = std::make_unique<Input>();
    Input& in = *slot;
    const auto nn = static_cast<std::size_t>(n * n);
    in.n = n;
    in.va.resize(nn);
    in.vb.resize(nn);
    in.vbias.resize(static_cast<std::size_t>(n));
    fill(in.va, 0x9E3779B97F4A7C15ull);
    fill(in.vb, 0xD1B54A32D192ED03ull);
    fill(in.vbias, 0x8CB92BA72F3D8DD7ull);
    in.a = fj::array(in.va, fj::Shape{n, n});
    in.b = fj::array(in.vb, fj::Shape{n, n});
    in.bias = fj::array(in.vbias, fj::Shape{n});
    const auto un = static_cast<std::size_t>(n);
    in.eigen = in.native.make(in.va.data(), in.vb.data(), in.vbias.data(), un, eigen_threads());
    in.eigen_generic = in.generic.make(in.va.data(), in.vb.data(), in.vbias.data(), un, 1);
  }
  return *slot;
}

// --- reporting -------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

double flops(std::int64_t n) { return 2.0 * static_cast<double>(n) * static_cast<double>(n * n); }

// GFLOPS and ms_per_call from `seconds` spent in the state's iterations.
void report(benchmark::State& state, std::int64_t n, double seconds) {
  const auto iters = static_cast<double>(state.iterations());
  state.counters["GFLOPS"] = flops(n) * iters / seconds * 1e-9;
  state.counters["ms_per_call"] = seconds * 1e3 / iters;
}
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

using fusejit_bench::backend_name;
using fusejit_bench::BackendGuard;
using fusejit_bench::env_or;
using fusejit_bench::warm_up;

// --- matmul ----------------------------------------------------------------------------------

void BM_reference(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  BackendGuard guard("reference");
  fj::Array y;
  const auto start = Clock::now();
  for (auto _ : state) {
    y = fj::matmul(in.a, in.b);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, n, seconds_since(start));
  state.SetLabel("reference");
}

// Each iteration: clear every cache, make a fresh jit object of `fn`, and time its first call.
// Counters: traces and kernel compiles per call (fj::cache_stats).
template <class F, class... Args>
void run_cold(benchmark::State& state, std::int64_t n, F fn, const char* name,
              const Args&... args) {
  // Once outside the loop: the process-wide one-time costs (the LLVM session) are not counted.
  if (!warm_up(state, [&] { fj::jit(fn, name)(args...).block_until_ready(); })) return;
  const fj::CacheStats before = fj::cache_stats();
  double total = 0;
  for (auto _ : state) {
    fj::clear_caches();
    const auto t0 = Clock::now();
    auto f = fj::jit(fn, name);
    fj::Array y = f(args...);
    y.block_until_ready();
    const double s = seconds_since(t0);
    benchmark::DoNotOptimize(y);
    state.SetIterationTime(s);
    total += s;
  }
  report(state, n, total);
  const fj::CacheStats after = fj::cache_stats();
  const auto iters = static_cast<double>(state.iterations());
  state.counters["traces"] = static_cast<double>(after.traces - before.traces) / iters;
  state.counters["compiles"] = static_cast<double>(after.compiles - before.compiles) / iters;
  state.SetLabel(backend_name());
}

void BM_jit_cold(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  run_cold(state, n, mm, "matmul", in.a, in.b);
}

void BM_jit_warm(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  auto f = fj::jit(mm, "matmul");
  fj::Array y;
  if (!warm_up(state, [&] { y = f(in.a, in.b); })) return;  // trace + compile, not timed
  const auto start = Clock::now();
  for (auto _ : state) {
    y = f(in.a, in.b);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, n, seconds_since(start));
  state.SetLabel(backend_name());
}

// `generic`: the -mtune=generic build of the same code.
void BM_eigen(benchmark::State& state, std::int64_t n, bool generic) {
  const Input& in = input(n);
  const auto& api = generic ? in.generic : in.native;
  void* d = generic ? in.eigen_generic : in.eigen;
  const auto start = Clock::now();
  for (auto _ : state) {
    api.gemm(d);
    benchmark::ClobberMemory();
  }
  report(state, n, seconds_since(start));
  state.SetLabel(std::string("1 thread, ") + api.flags);
}

void BM_eigen_tensor(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  in.native.tensor(in.eigen);  // starts the pool's threads
  const auto start = Clock::now();
  for (auto _ : state) {
    in.native.tensor(in.eigen);
    benchmark::ClobberMemory();
  }
  report(state, n, seconds_since(start));
  state.SetLabel(std::to_string(eigen_threads()) + (eigen_threads() == 1 ? " thread" : " threads"));
}

// --- relu(x @ W + b) ---------------------------------------------------------------------------

void BM_relu_jit_warm(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  auto f = fj::jit(relu_mm, "relu_matmul");
  fj::Array y;
  if (!warm_up(state, [&] { y = f(in.a, in.b, in.bias); })) return;
  const auto start = Clock::now();
  for (auto _ : state) {
    y = f(in.a, in.b, in.bias);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, n, seconds_since(start));
  state.SetLabel(backend_name());
}

void BM_relu_jit_cold(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  run_cold(state, n, relu_mm, "relu_matmul", in.a, in.b, in.bias);
}

void BM_relu_eigen(benchmark::State& state, std::int64_t n, bool generic) {
  const Input& in = input(n);
  const auto& api = generic ? in.generic : in.native;
  void* d = generic ? in.eigen_generic : in.eigen;
  const auto start = Clock::now();
  for (auto _ : state) {
    api.gemm_relu(d);
    benchmark::ClobberMemory();
  }
  report(state, n, seconds_since(start));
  state.SetLabel(std::string("1 thread, ") + api.flags);
}

// --- registration ------------------------------------------------------------------------------

// Timed in real (wall) time, since fusejit may use several threads, or by the row itself
// (`manual`); `iterations` > 0 fixes the iterations per repetition instead of a minimum time.
template <class Fn, class... Args>
benchmark::internal::Benchmark* add(const std::string& name, Fn fn, std::int64_t n,
                                    bool manual = false, int iterations = 0, Args... args) {
  auto* b =
      benchmark::RegisterBenchmark(name.c_str(), fn, n, args...)->Unit(benchmark::kMillisecond);
  if (iterations > 0)
    b->Iterations(iterations);
  else
    b->MinTime(fusejit_bench::min_time(kMinTime));
  return manual ? b->UseManualTime() : b->UseRealTime();
}

void register_all() {
  for (const std::int64_t n : kSizes) {
    const std::string s = "/" + std::to_string(n);
    if (n <= kReferenceMax)
      add("matmul/reference" + s, BM_reference, n, false, n >= kReferenceOneIteration ? 1 : 0);
    add("matmul/jit_cold" + s, BM_jit_cold, n, /*manual=*/true);
    add("matmul/jit_warm" + s, BM_jit_warm, n);
    add("matmul/eigen" + s, BM_eigen, n, false, 0, false);
    add("matmul/eigen_tune_generic" + s, BM_eigen, n, false, 0, true);
    add("matmul/eigen_tensor" + s, BM_eigen_tensor, n);
  }
  for (const std::int64_t n : kSizes) {
    const std::string s = "/" + std::to_string(n);
    add("relu_matmul/jit_cold" + s, BM_relu_jit_cold, n, /*manual=*/true);
    add("relu_matmul/jit_warm" + s, BM_relu_jit_warm, n);
    add("relu_matmul/eigen" + s, BM_relu_eigen, n, false, 0, false);
    add("relu_matmul/eigen_tune_generic" + s, BM_relu_eigen, n, false, 0, true);
  }
}

// --- correctness check -------------------------------------------------------------------------

// Entries (i, j) checked per size: the corners and a few pseudo-random ones.
std::vector<std::pair<std::int64_t, std::int64_t>> probe_entries(std::int64_t n) {
  std::vector<std::pair<std::int64_t, std::int64_t>> p = {
      {0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}};
  std::uint64_t s = 12345;
  for (int t = 0; t < 12; ++t) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const auto i = static_cast<std::int64_t>((s >> 33) % static_cast<std::uint64_t>(n));
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const auto j = static_cast<std::int64_t>((s >> 33) % static_cast<std::uint64_t>(n));
    p.emplace_back(i, j);
  }
  return p;
}

// Every column must compute the same product before its time means anything. The error of an
// entry is |got - exact| / sum_k |a_ik b_kj| (plus |b_j| with the bias): the relative error of
// a dot product, which stays meaningful when the exact value is near 0. f32 accumulation over k
// terms is bounded by about k * 2^-24 (1.2e-4 at 2048) and is typically far below that; a wrong
// product is off by O(1).
bool check(std::int64_t n) {
  constexpr double kTol = 1e-4;
  const Input& in = input(n);
  const auto probes = probe_entries(n);
  auto exact = [&](std::int64_t i, std::int64_t j, bool relu, double& scale) {
    double s = 0, mag = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double p = double(in.va[static_cast<std::size_t>(i * n + k)]) *
                       double(in.vb[static_cast<std::size_t>(k * n + j)]);
      s += p;
      mag += std::abs(p);
    }
    if (relu) {
      const double bj = in.vbias[static_cast<std::size_t>(j)];
      s = std::max(s + bj, 0.0);
      mag += std::abs(bj);
    }
    scale = std::max(mag, 1e-30);
    return s;
  };
  bool ok = true;
  auto compare = [&](const char* what, const float* got, bool relu) {
    double worst = 0;
    for (auto [i, j] : probes) {
      double scale = 0;
      const double want = exact(i, j, relu, scale);
      worst = std::max(worst, std::abs(double(got[i * n + j]) - want) / scale);
    }
    const bool good = worst <= kTol;  // also false for NaN
    std::fprintf(stderr, "check n=%-5lld %-32s max rel. error %.2e %s\n", static_cast<long long>(n),
                 what, worst, good ? "ok" : "MISMATCH");
    ok = ok && good;
  };
  try {
    fj::Array y = fj::jit(mm, "matmul")(in.a, in.b);
    compare("matmul/jit", y.data<float>(), false);
    fj::Array r = fj::jit(relu_mm, "relu_matmul")(in.a, in.b, in.bias);
    compare("relu_matmul/jit", r.data<float>(), true);
    if (n <= kReferenceMax) {
      BackendGuard guard("reference");
      fj::Array z = fj::matmul(in.a, in.b);
      compare("matmul/reference", z.data<float>(), false);
    }
  } catch (const fj::Error& e) {
    std::fprintf(stderr, "check n=%lld: fusejit failed: %s\n", static_cast<long long>(n), e.what());
    return false;
  }
  in.native.gemm(in.eigen);
  compare("matmul/eigen", in.native.out(in.eigen), false);
  in.generic.gemm(in.eigen_generic);
  compare("matmul/eigen_tune_generic", in.generic.out(in.eigen_generic), false);
  in.native.tensor(in.eigen);
  compare("matmul/eigen_tensor", in.native.out(in.eigen), false);
  in.native.gemm_relu(in.eigen);
  compare("relu_matmul/eigen", in.native.out(in.eigen), true);
  in.generic.gemm_relu(in.eigen_generic);
  compare("relu_matmul/eigen_tune_generic", in.generic.out(in.eigen_generic), true);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  try {
    benchmark::AddCustomContext("fusejit_backend", backend_name());
    benchmark::AddCustomContext("fusejit_num_threads", env_or("FUSEJIT_NUM_THREADS", "unset"));
    benchmark::AddCustomContext("fusejit_threads_used", std::to_string(fj::runtime::num_threads()));
    benchmark::AddCustomContext("fusejit_gemm_isa", env_or("FUSEJIT_GEMM_ISA", "best"));
    benchmark::AddCustomContext("eigen_tensor_threads", std::to_string(eigen_threads()));
    benchmark::AddCustomContext("baselines_compiled_with",
                                "-O3 -march=native (matmul_eigen.cpp); eigen_tune_generic: "
                                "-O3 -march=native -mtune=generic");
    bool ok = true;
    // FUSEJIT_BENCH_CHECK_MAX_N limits the check to the smaller sizes (the bench_smoke test sets
    // 64: the reference product alone takes seconds at 1024).
    const std::int64_t check_max = std::atoll(env_or("FUSEJIT_BENCH_CHECK_MAX_N", "0"));
    for (const std::int64_t n : kSizes)
      if (check_max <= 0 || n <= check_max) ok = check(n) && ok;
    if (!ok) {
      std::fprintf(stderr, "a column computes another product: not benchmarking\n");
      return 1;
    }
    register_all();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_matmul: %s\n", e.what());
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
