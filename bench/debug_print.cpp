// What fj::debug::print and fj::debug::callback cost a warm jitted call, and that a function
// without them pays nothing (its compiled graph and run path are those of any jitted function).
//
// Rows (warm: compiled before timing, one f32[1] argument):
//   debug/plain           jit(x + 1): the dispatch floor, no debug primitive
//   debug/print_discard   jit(print("x = {}", x); x + 1), lines to a handler that drops them:
//                         the equation's host call and the formatting (operator<<'s repr)
//   debug/callback_noop   jit(debug::callback(noop, x); x + 1): the host call with an array copy
//   debug/print_fori_100  fori_loop(0, 100, print("{}", c); c + 1): ns per iteration, the
//                         native loop driver calling the print through its host trampoline
// Before timing, the binary checks that each row prints (or calls) once per call and returns
// x + 1, and exits with status 1 otherwise.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <string>

namespace {

using fj::Tracer;

long g_lines = 0;

auto plain = [](Tracer x) { return x + 1.0f; };
auto with_print = [](Tracer x) {
  fj::debug::print("x = {}", x);
  return x + 1.0f;
};
auto with_callback = [](Tracer x) {
  fj::debug::callback([](const fj::Array&) { ++g_lines; }, x);
  return x + 1.0f;
};
auto print_loop = [](Tracer x) {
  return fj::lax::fori_loop(
      0, 100,
      [](Tracer, Tracer c) {
        fj::debug::print("{}", c);
        return c + 1.0f;
      },
      x);
};

void install_discarding_handler() {
  static bool once = [] {
    fj::debug::set_print_handler([](std::string_view) { ++g_lines; });
    return true;
  }();
  (void)once;
}

// Each program run once: the expected value and one line (or call) per print.
template <class F>
void check(F f, float want, long lines) {
  install_discarding_handler();
  const long before = g_lines;
  const float got = fj::jit(f)(fj::array({2.0f})).template item<float>();
  if (got != want || g_lines - before != lines) {
    std::fprintf(stderr, "bench_debug_print: got %g and %ld lines, want %g and %ld\n", got,
                 g_lines - before, want, lines);
    std::exit(1);
  }
}

template <class F>
void debug(benchmark::State& state, F f, int per_call = 1) {
  install_discarding_handler();
  auto jf = fj::jit(f);
  const fj::Array x = fj::array({2.0f});
  fj::Array y = jf(x);
  for (auto _ : state) {
    y = jf(x);
    benchmark::DoNotOptimize(y);
  }
  state.counters["ns_per_iteration"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * per_call,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

const bool g_checked = [] {
  check(plain, 3.0f, 0);
  check(with_print, 3.0f, 1);
  check(with_callback, 3.0f, 1);
  check(print_loop, 102.0f, 100);
  return true;
}();

}  // namespace

BENCHMARK_CAPTURE(debug, plain, plain);
BENCHMARK_CAPTURE(debug, print_discard, with_print);
BENCHMARK_CAPTURE(debug, callback_noop, with_callback);
BENCHMARK_CAPTURE(debug, print_fori_100, print_loop, 100);
