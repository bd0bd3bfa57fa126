// Per-iteration cost of lax loops under fj::jit (warm: compiled before timing).
//
// Rows are named lax_loops/<program>; each reports ns_per_iteration (real time per call divided
// by the trip count):
//   scalar_fori   fori_loop(0, 100000, c * 0.999f + 1.0f) on an f32 scalar carry
//   vec1024_sin   fori_loop(0, 10000, sin(c) * 0.5f + 1.0f) on an f32[1024] carry
//   rnn64_scan    scan of h = tanh(h @ W + x_t), h f32[1,64], W f32[64,64], 1000 steps (a
//                 dot_general in the body: the native driver calls the GEMM through a host
//                 trampoline)
//   cond_scan     scan over xs f32[10000] of c = cond(x > 0, c * 0.9 + x, c * 0.5 - x): a cond in
//                 the body (the native driver switches between the inlined branches)
//   nested_fori   fori_loop(0, 100, fori_loop(0, 100, c * 0.999 + 1) * 0.5): ns per inner
//                 iteration
// FUSEJIT_NATIVE_LOOPS=0 runs every row on the dispatching path instead.
// Before timing, the binary checks the programs against the reference backend and exits with
// status 1 if they differ.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <fusejit/fusejit.hpp>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_common.hpp"

namespace {

using fj::Tracer;

constexpr int kScalarTrips = 100000;
constexpr int kVectorTrips = 10000;

auto scalar_program = [](Tracer x) {
  return fj::lax::fori_loop(
      0, kScalarTrips, [](Tracer, Tracer c) { return c * 0.999f + 1.0f; }, x);
};
auto vector_program = [](Tracer x) {
  return fj::lax::fori_loop(
      0, kVectorTrips, [](Tracer, Tracer c) { return fj::sin(c) * 0.5f + 1.0f; }, x);
};

constexpr int kCondSteps = 10000;
auto cond_program = [](Tracer xs) {
  return fj::lax::scan(
             [](Tracer c, Tracer x) {
               Tracer next = fj::lax::cond(
                   x > 0.0f, [&] { return Tracer(c * 0.9f + x); },
                   [&] { return Tracer(c * 0.5f - x); });
               return std::make_pair(next, std::tuple<>{});
             },
             0.0f, xs)
      .first;
};
fj::Array cond_input() {
  std::vector<float> v(kCondSteps);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(static_cast<float>(i) * 0.37f);
  return fj::array(v, fj::Shape{kCondSteps});
}

constexpr int kOuterTrips = 100, kInnerTrips = 100;
auto nested_program = [](Tracer x) {
  return fj::lax::fori_loop(
      0, kOuterTrips,
      [](Tracer, Tracer c) {
        Tracer inner = fj::lax::fori_loop(
            0, kInnerTrips, [](Tracer, Tracer v) { return v * 0.999f + 1.0f; }, c);
        return Tracer(inner * 0.5f);
      },
      x);
};

constexpr int kRnnSteps = 1000;
auto rnn_program = [](Tracer h0, Tracer w, Tracer xs) {
  return fj::lax::scan(
             [&](Tracer h, Tracer x) {
               return std::make_pair(Tracer(fj::tanh(fj::matmul(h, w) + x)), std::tuple<>{});
             },
             h0, xs)
      .first;
};

std::vector<fj::Array> rnn_inputs() {
  std::vector<float> h(64), w(64 * 64), xs(kRnnSteps * 64);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = std::sin(static_cast<float>(i));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.15f * std::cos(static_cast<float>(i) * 0.7f);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 0.1f * std::sin(static_cast<float>(i) * 0.3f);
  return {fj::array(h, fj::Shape{1, 64}), fj::array(w, fj::Shape{64, 64}),
          fj::array(xs, fj::Shape{kRnnSteps, 1, 64})};
}

fj::Array vector_input() {
  std::vector<float> v(1024);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) / 512.0f - 1.0f;
  return fj::array(v, fj::Shape{1024});
}

template <class F>
void run_row(benchmark::State& state, F program, const fj::Array& x, int trips) {
  auto f = fj::jit(program);
  if (!fusejit_bench::warm_up(state, [&] { f(x); })) return;
  for (auto _ : state) {
    fj::Array r = f(x);
    benchmark::DoNotOptimize(r);
  }
  state.counters["ns_per_iteration"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * trips / 1e9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_scalar(benchmark::State& state) {
  run_row(state, scalar_program, fj::array(std::vector<float>{0.5f}, fj::Shape{}), kScalarTrips);
}
void BM_vector(benchmark::State& state) {
  run_row(state, vector_program, vector_input(), kVectorTrips);
}
void BM_cond(benchmark::State& state) { run_row(state, cond_program, cond_input(), kCondSteps); }
void BM_nested(benchmark::State& state) {
  run_row(state, nested_program, fj::array(std::vector<float>{0.5f}, fj::Shape{}),
          kOuterTrips * kInnerTrips);
}
void BM_rnn(benchmark::State& state) {
  const auto in = rnn_inputs();
  auto f = fj::jit(rnn_program);
  if (!fusejit_bench::warm_up(state, [&] { f(in[0], in[1], in[2]); })) return;
  for (auto _ : state) {
    fj::Array r = f(in[0], in[1], in[2]);
    benchmark::DoNotOptimize(r);
  }
  state.counters["ns_per_iteration"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kRnnSteps / 1e9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The default backend against the reference interpreter (a few ulps per iteration apart at
// most: fused multiply-adds, polynomial sin; both loops contract to a fixed point).
bool self_check() {
  bool ok = true;
  auto compare = [&](auto program, const fj::Array& x, const char* what) {
    const auto got = fj::jit(program)(x).template to_vector<float>();
    std::vector<float> want;
    {
      fusejit_bench::BackendGuard guard("reference");
      want = fj::jit(program)(x).template to_vector<float>();
    }
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::abs(got[i] - want[i]) <= 1e-3f * (1 + std::abs(want[i])))) {
        std::fprintf(stderr, "lax_loops: %s differs at %zu: %g vs %g\n", what, i, got[i], want[i]);
        ok = false;
        return;
      }
  };
  compare(scalar_program, fj::array(std::vector<float>{0.5f}, fj::Shape{}), "scalar_fori");
  compare(vector_program, vector_input(), "vec1024_sin");
  compare(cond_program, cond_input(), "cond_scan");
  compare(nested_program, fj::array(std::vector<float>{0.5f}, fj::Shape{}), "nested_fori");
  {
    const auto in = rnn_inputs();
    const auto got = fj::jit(rnn_program)(in[0], in[1], in[2]).to_vector<float>();
    std::vector<float> want;
    {
      fusejit_bench::BackendGuard guard("reference");
      want = fj::jit(rnn_program)(in[0], in[1], in[2]).to_vector<float>();
    }
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::abs(got[i] - want[i]) <= 1e-3f * (1 + std::abs(want[i])))) {
        std::fprintf(stderr, "lax_loops: rnn64_scan differs at %zu: %g vs %g\n", i, got[i],
                     want[i]);
        ok = false;
        break;
      }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const std::pair<const char*, void (*)(benchmark::State&)> rows[] = {
      {"lax_loops/scalar_fori", BM_scalar},
      {"lax_loops/vec1024_sin", BM_vector},
      {"lax_loops/rnn64_scan", BM_rnn},
      {"lax_loops/cond_scan", BM_cond},
      {"lax_loops/nested_fori", BM_nested}};
  for (auto [name, fn] : rows) fusejit_bench::row(name, 0.5, fn);
  return fusejit_bench::checked_main(argc, argv, self_check);
}
