// Helpers shared by the benchmark executables: the backend in use, a scoped backend switch, and
// a first call that skips a row (rather than ending the run) when the backend cannot run it.
#pragma once
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <string>
#include <utility>

namespace fusejit_bench {

// Seconds per row (and per repetition): `fallback`, unless FUSEJIT_BENCH_MIN_TIME is set (the
// bench_smoke tests set a tiny one). A row's MinTime() wins over --benchmark_min_time, hence this.
inline double min_time(double fallback) {
  const char* v = std::getenv("FUSEJIT_BENCH_MIN_TIME");
  if (v && *v) {
    char* end = nullptr;
    const double t = std::strtod(v, &end);
    if (end != v && t > 0) return t;
  }
  return fallback;
}

// Registers a row as the fusejit benchmarks time them: real time, in milliseconds, for at least
// min_time(seconds); `args` are passed to `fn` after the state (as BENCHMARK_CAPTURE does).
template <class Fn, class... Args>
benchmark::internal::Benchmark* row(const char* name, double seconds, Fn&& fn, Args&&... args) {
  return benchmark::RegisterBenchmark(name, std::forward<Fn>(fn), std::forward<Args>(args)...)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond)
      ->MinTime(min_time(seconds));
}

/// The environment variable's value, or `fallback` when it is unset or empty.
inline const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

inline std::string backend_name() { return std::string(fj::backend::default_backend().name()); }

// Selects a backend for the lifetime of the guard, then restores the previous default.
class BackendGuard {
 public:
  explicit BackendGuard(const char* name) : prev_(backend_name()) { fj::set_default_backend(name); }
  ~BackendGuard() { fj::set_default_backend(prev_); }
  BackendGuard(const BackendGuard&) = delete;
  BackendGuard& operator=(const BackendGuard&) = delete;

 private:
  std::string prev_;
};

// Runs the first call (trace + compile) before the timed loop. A backend that cannot run the
// function (fj::Error) marks the row as skipped, with its message, instead of ending the run.
template <class F>
bool warm_up(benchmark::State& state, F&& first_call) {
  try {
    std::forward<F>(first_call)();
    return true;
  } catch (const fj::Error& e) {
    state.SkipWithError(e.what());
    return false;
  }
}

// The main() of a benchmark that checks its columns against a reference before timing them:
// exit status 1, and no timings, when the check fails.
inline int checked_main(int argc, char** argv, bool (*self_check)()) {
  if (!self_check()) return 1;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace fusejit_bench
