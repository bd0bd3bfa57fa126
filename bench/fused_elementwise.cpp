// Fused elementwise work: fusejit against Eigen, a hand loop and the memory-bandwidth floor.
//
// Rows are named <workload>/<column>/<size>:
//   selu/<column>/{1M,16M}, column: fusejit_jit fusejit_reference eigen_select eigen_maxmin
//                                   hand memcpy floor_nt floor_nt_1thread
//   sumsq_sin/<column>/{1M,16M}, column: fusejit_jit fusejit_reference (only once fj::sum
//                                exists) eigen hand read
//   dispatch/fusejit_jit/1: a jitted x + 1 on one element, the cost of a warm call
// Every row reports real time (fusejit may run on several threads), items and bytes per second,
// and the counter ns_per_elem. fusejit's thread count is read from FUSEJIT_NUM_THREADS when the
// process starts: scripts/bench runs the fusejit_jit rows once with FUSEJIT_NUM_THREADS=1 and
// once with it unset; the value is recorded in the JSON context.
//
// floor_nt is the bandwidth floor (floor.cpp): the same bytes as memcpy (n floats read, n written)
// with vector loads and non-temporal stores, on all hardware threads (a persistent pool, whatever
// FUSEJIT_NUM_THREADS says) and, floor_nt_1thread, on the calling thread alone; counter threads.
//
// Before running, the binary checks that every column computes the same values and exits with
// status 1 if one does not. The hand loops and Eigen forms live in hand_loops.cpp, compiled
// -O3 -march=native.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "floor.hpp"

namespace fjbench {  // hand_loops.cpp
void hand_selu(const float* x, float* y, std::size_t n);
float hand_sumsq_sin(const float* x, std::size_t n);
float read_floats(const float* x, std::size_t n);
struct EigenData;
EigenData* eigen_make(const float* x, std::size_t n);
void eigen_free(EigenData* d);
const float* eigen_out(const EigenData& d);
void eigen_selu_select(EigenData& d);
void eigen_selu_maxmin(EigenData& d);
float eigen_sumsq_sin(const EigenData& d);
}  // namespace fjbench

namespace {

using fj::Tracer;

constexpr std::int64_t kSizes[] = {std::int64_t{1} << 20, std::int64_t{1} << 24};
constexpr double kMinTime = 0.2;  // seconds per row (and per repetition)

std::string size_label(std::int64_t n) {
  return n % (1 << 20) == 0 ? std::to_string(n >> 20) + "M" : std::to_string(n);
}

// --- the functions under test ----------------------------------------------------------------

auto selu = [](Tracer x) { return 1.05f * fj::where(x > 0, x, 1.67f * fj::exp(x) - 1.67f); };

// fj::sum may not exist yet (reductions come with issue 4): the fusejit sum rows are compiled
// and registered only if it does. The call is unqualified so that it is looked up (by ADL on
// fj::Array) when the template is instantiated, not when this file is parsed.
template <class A>
concept HasSum = requires(const A& a) {
  sum(a);
};

template <class A>
auto sumsq_sin(const A& x) {
  A t = x * x + fj::sin(x);  // staged, not evaluated, inside a trace: the graph is the same
  return sum(t);
}

// --- inputs ----------------------------------------------------------------------------------

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using FloatBuffer = std::unique_ptr<float[], FreeDeleter>;

FloatBuffer aligned_floats(std::int64_t n) {
  const std::size_t bytes = (static_cast<std::size_t>(n) * sizeof(float) + 63) / 64 * 64;
  FloatBuffer p(static_cast<float*>(std::aligned_alloc(64, bytes)));
  if (!p) throw std::bad_alloc();
  std::memset(p.get(), 0, bytes);  // fault the pages in now, not in a timed loop
  return p;
}

struct Input {
  std::int64_t n = 0;
  fj::Array x;                          // fusejit's copy of the data (64-byte aligned)
  FloatBuffer out;                      // destination of the hand loop and of memcpy
  fjbench::EigenData* eigen = nullptr;  // Eigen's own copy (x) and destination (y)
  Input() = default;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() { fjbench::eigen_free(eigen); }
  const float* px() const { return x.data<float>(); }
};

// x: a fixed pseudo-random array in [-3, 3] (a 64-bit LCG; the same on every machine).
const Input& input(std::int64_t n) {
  static std::map<std::int64_t, std::unique_ptr<Input>> cache;
  auto& slot = cache[n];
  if (!slot) {
    std::vector<float> v(static_cast<std::size_t>(n));
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    for (auto& e : v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      e = -3.0f + 6.0f * static_cast<float>(s >> 40) * 0x1p-24f;
    }
    slot = std::make_unique<Input>();
    slot->n = n;
    slot->x = fj::array(v, fj::Shape{n});
    slot->out = aligned_floats(n);
    slot->eigen = fjbench::eigen_make(v.data(), static_cast<std::size_t>(n));
  }
  return *slot;
}

// --- reporting -------------------------------------------------------------------------------

using Clock = std::chrono::steady_clock;

// Items, bytes (bytes_per_elem: what the workload must move at least; selu: 4 read + 4 written,
// a sum: 4 read) and ns_per_elem, from the time since `start`, taken just before the loop.
void report(benchmark::State& state, std::int64_t n, int bytes_per_elem, Clock::time_point start) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  const auto iters = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(iters * n);
  state.SetBytesProcessed(iters * n * bytes_per_elem);
  state.counters["ns_per_elem"] = ns / static_cast<double>(iters * n);
}

using fusejit_bench::backend_name;
using fusejit_bench::BackendGuard;
using fusejit_bench::env_or;
using fusejit_bench::warm_up;

// --- selu ------------------------------------------------------------------------------------

void BM_selu_fusejit_jit(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  auto f = fj::jit(selu, "selu");
  fj::Array y;
  if (!warm_up(state, [&] { y = f(in.x); })) return;  // trace + compile, outside the timed loop
  const auto start = Clock::now();
  for (auto _ : state) {
    y = f(in.x);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, n, 8, start);
  state.SetLabel(backend_name());
}

// The reference interpreter, eagerly: op by op, every intermediate materialized.
void BM_selu_fusejit_reference(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  BackendGuard guard("reference");
  fj::Array y;
  if (!warm_up(state, [&] { y = selu(in.x); })) return;  // fills the expression's cache slot
  const auto start = Clock::now();
  for (auto _ : state) {
    y = selu(in.x);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  report(state, n, 8, start);
  state.SetLabel("reference");
}

void BM_selu_eigen_select(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) {
    fjbench::eigen_selu_select(*in.eigen);
    benchmark::ClobberMemory();
  }
  report(state, n, 8, start);
}

void BM_selu_eigen_maxmin(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) {
    fjbench::eigen_selu_maxmin(*in.eigen);
    benchmark::ClobberMemory();
  }
  report(state, n, 8, start);
}

void BM_selu_hand(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) {
    fjbench::hand_selu(in.px(), in.out.get(), static_cast<std::size_t>(n));
    benchmark::ClobberMemory();
  }
  report(state, n, 8, start);
}

void BM_memcpy(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) {
    std::memcpy(in.out.get(), in.px(), static_cast<std::size_t>(n) * sizeof(float));
    benchmark::ClobberMemory();
  }
  report(state, n, 8, start);
}

void BM_floor_nt(benchmark::State& state, std::int64_t n, int threads) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) {
    fjbench::floor_nt(in.px(), in.out.get(), static_cast<std::size_t>(n), threads);
    benchmark::ClobberMemory();
  }
  report(state, n, 8, start);
  state.counters["threads"] = threads;
}

// --- sum(x**2 + sin(x)) ------------------------------------------------------------------------

// A is fj::Array: being a template parameter keeps these bodies unchecked until fj::sum exists.
template <class A>
void BM_sumsq_sin_fusejit_jit(benchmark::State& state, std::int64_t n) {
  if constexpr (HasSum<A>) {
    const Input& in = input(n);
    auto f = fj::jit([](A x) { return sumsq_sin(x); }, "sumsq_sin");
    fj::Array s;
    if (!warm_up(state, [&] { s = f(in.x); })) return;
    const auto start = Clock::now();
    for (auto _ : state) {
      s = f(in.x);
      s.block_until_ready();
      benchmark::DoNotOptimize(s);
    }
    report(state, n, 4, start);
    state.SetLabel(backend_name());
  }
}

template <class A>
void BM_sumsq_sin_fusejit_reference(benchmark::State& state, std::int64_t n) {
  if constexpr (HasSum<A>) {
    const Input& in = input(n);
    BackendGuard guard("reference");
    const A& x = in.x;
    fj::Array s;
    if (!warm_up(state, [&] { s = sumsq_sin(x); })) return;
    const auto start = Clock::now();
    for (auto _ : state) {
      s = sumsq_sin(x);
      s.block_until_ready();
      benchmark::DoNotOptimize(s);
    }
    report(state, n, 4, start);
    state.SetLabel("reference");
  }
}

void BM_sumsq_sin_eigen(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(fjbench::eigen_sumsq_sin(*in.eigen));
  report(state, n, 4, start);
}

void BM_sumsq_sin_hand(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state)
    benchmark::DoNotOptimize(fjbench::hand_sumsq_sin(in.px(), static_cast<std::size_t>(n)));
  report(state, n, 4, start);
}

void BM_read(benchmark::State& state, std::int64_t n) {
  const Input& in = input(n);
  const auto start = Clock::now();
  for (auto _ : state)
    benchmark::DoNotOptimize(fjbench::read_floats(in.px(), static_cast<std::size_t>(n)));
  report(state, n, 4, start);
}

// --- warm dispatch -----------------------------------------------------------------------------

void BM_dispatch(benchmark::State& state) {
  auto f = fj::jit([](Tracer x) { return x + 1; }, "add_one");
  const fj::Array x = fj::array(std::vector<float>{0.5f}, fj::Shape{1});
  fj::Array y;
  if (!warm_up(state, [&] { y = f(x); })) return;
  for (auto _ : state) {
    y = f(x);
    y.block_until_ready();
    benchmark::DoNotOptimize(y);
  }
  state.SetLabel(backend_name());
}

// --- registration ------------------------------------------------------------------------------

template <class Fn>
void add(const std::string& name, Fn fn, std::int64_t n) {
  benchmark::RegisterBenchmark(name.c_str(), fn, n)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->MinTime(fusejit_bench::min_time(kMinTime));
}

void register_all() {
  for (const std::int64_t n : kSizes) {
    const std::string s = "/" + size_label(n);
    add("selu/fusejit_jit" + s, BM_selu_fusejit_jit, n);
    add("selu/fusejit_reference" + s, BM_selu_fusejit_reference, n);
    add("selu/eigen_select" + s, BM_selu_eigen_select, n);
    add("selu/eigen_maxmin" + s, BM_selu_eigen_maxmin, n);
    add("selu/hand" + s, BM_selu_hand, n);
    add("selu/memcpy" + s, BM_memcpy, n);
    add(
        "selu/floor_nt" + s,
        [](benchmark::State& st, std::int64_t m) {
          BM_floor_nt(st, m, fjbench::floor_all_threads());
        },
        n);
    add(
        "selu/floor_nt_1thread" + s,
        [](benchmark::State& st, std::int64_t m) { BM_floor_nt(st, m, 1); }, n);
  }
  for (const std::int64_t n : kSizes) {
    const std::string s = "/" + size_label(n);
    if constexpr (HasSum<fj::Array>) {
      add("sumsq_sin/fusejit_jit" + s, BM_sumsq_sin_fusejit_jit<fj::Array>, n);
      add("sumsq_sin/fusejit_reference" + s, BM_sumsq_sin_fusejit_reference<fj::Array>, n);
    }
    add("sumsq_sin/eigen" + s, BM_sumsq_sin_eigen, n);
    add("sumsq_sin/hand" + s, BM_sumsq_sin_hand, n);
    add("sumsq_sin/read" + s, BM_read, n);
  }
  benchmark::RegisterBenchmark("dispatch/fusejit_jit/1", BM_dispatch)
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime()
      ->MinTime(fusejit_bench::min_time(kMinTime));
}

// --- correctness check -------------------------------------------------------------------------

template <class A, class Compare>
void check_sum_fusejit(const Input& in, Compare& compare_sum) {
  if constexpr (HasSum<A>) {
    const A& x = in.x;
    // Reductions may reach a backend before its lowering does: report it, do not stop the run
    // (the row itself is then skipped with the same message).
    auto attempt = [&](const char* what, auto&& fn) {
      try {
        compare_sum(what, fj::Array(fn()).template item<double>());
      } catch (const fj::Error& e) {
        std::fprintf(stderr, "check sum  %-18s not run: %s\n", what, e.what());
      }
    };
    attempt("fusejit_jit",
            [&] { return fj::jit([](A v) { return sumsq_sin(v); }, "sumsq_sin")(x); });
    BackendGuard guard("reference");
    attempt("fusejit_reference", [&] { return sumsq_sin(x); });
  }
}

// Every column must compute selu (and the sum) before its time means anything.
bool check(std::int64_t n) {
  const Input& in = input(n);
  const auto un = static_cast<std::size_t>(n);
  std::vector<float> want(un);
  fjbench::hand_selu(in.px(), want.data(), un);

  bool ok = true;
  auto compare = [&](const char* what, const float* got) {
    double worst = 0;
    for (std::size_t i = 0; i < un; ++i)
      worst = std::max(
          worst, std::abs(double(got[i]) - want[i]) / std::max(1.0, std::abs(double(want[i]))));
    const bool good = worst <= 1e-4;
    std::fprintf(stderr, "check selu %-18s max rel. error %.2e %s\n", what, worst,
                 good ? "ok" : "MISMATCH");
    ok = ok && good;
  };
  {
    fj::Array y = fj::jit(selu, "selu")(in.x);
    compare("fusejit_jit", y.data<float>());
  }
  {
    BackendGuard guard("reference");
    fj::Array y = selu(in.x);
    compare("fusejit_reference", y.data<float>());
  }
  fjbench::eigen_selu_select(*in.eigen);
  compare("eigen_select", fjbench::eigen_out(*in.eigen));
  fjbench::eigen_selu_maxmin(*in.eigen);
  compare("eigen_maxmin", fjbench::eigen_out(*in.eigen));
  // The floor copies: its output must be x itself.
  for (const int threads : {1, fjbench::floor_all_threads()}) {
    std::memset(in.out.get(), 0, un * sizeof(float));
    fjbench::floor_nt(in.px(), in.out.get(), un, threads);
    const bool same = std::memcmp(in.out.get(), in.px(), un * sizeof(float)) == 0;
    std::fprintf(stderr, "check copy floor_nt, %d thread(s) %s\n", threads,
                 same ? "ok" : "MISMATCH");
    ok = ok && same;
  }

  // Sums: float accumulation in different orders differs by far more than selu's rounding, so
  // the reference here is a double sum and the tolerance is loose.
  double exact = 0;
  for (std::size_t i = 0; i < un; ++i) {
    const double v = in.px()[i];
    exact += v * v + std::sin(v);
  }
  auto compare_sum = [&](const char* what, double got) {
    const double rel = std::abs(got - exact) / std::max(1.0, std::abs(exact));
    const bool good = rel <= 1e-3;
    std::fprintf(stderr, "check sum  %-18s rel. error %.2e %s\n", what, rel,
                 good ? "ok" : "MISMATCH");
    ok = ok && good;
  };
  check_sum_fusejit<fj::Array>(in, compare_sum);
  compare_sum("eigen", fjbench::eigen_sumsq_sin(*in.eigen));
  compare_sum("hand", fjbench::hand_sumsq_sin(in.px(), un));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  try {
    benchmark::AddCustomContext("fusejit_backend", backend_name());
    benchmark::AddCustomContext("fusejit_num_threads", env_or("FUSEJIT_NUM_THREADS", "unset"));
    benchmark::AddCustomContext("fusejit_has_sum", HasSum<fj::Array> ? "yes" : "no");
    benchmark::AddCustomContext("baselines_compiled_with",
                                "-O3 -march=native (hand_loops.cpp, floor.cpp)");
    benchmark::AddCustomContext("floor_isa", fjbench::floor_isa());
    benchmark::AddCustomContext("floor_threads", std::to_string(fjbench::floor_all_threads()));
    if (!check(kSizes[0])) {
      std::fprintf(stderr, "a column computes something else: not benchmarking\n");
      return 1;
    }
    register_all();
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fused_elementwise: %s\n", e.what());
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
