// Throughput of fj::random::normal(key, (n,)) under fj::jit against memcpy of the same bytes.
//
// Rows (n = 16M by default, FUSEJIT_BENCH_RANDOM_N overrides it), each reporting ns_per_elem:
//   random_normal/fusejit_jit/1thread    jit(normal) with fj::runtime::set_thread_limit(1)
//   random_normal/fusejit_jit/allthreads jit(normal) on every thread (FUSEJIT_NUM_THREADS caps it)
//   random_normal/memcpy                 std::memcpy of n floats (4n bytes) between two buffers
//   random_normal/bits_u32/1thread       jit(bits) (threefry alone), for the breakdown
//   random_normal/uniform_f32/1thread    jit(uniform) (threefry and the mantissa fill)
// The target: normal at most 1.5x memcpy's time (the bandwidth of writing the output);
// the kernel reads nothing but the key, so the gap is threefry's and erf_inv's arithmetic.
// Before timing, the binary checks the jitted kernel against the reference backend (bit for bit:
// both reproduce JAX's bits) and exits with status 1 if they differ.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <memory>
#include <vector>

#include "bench_common.hpp"

namespace {

std::int64_t elements() {
  const char* v = std::getenv("FUSEJIT_BENCH_RANDOM_N");
  if (v && *v) return std::atoll(v);
  return std::int64_t{1} << 24;
}

auto normal_program = [](fj::Tracer key) { return fj::random::normal(key, {elements()}); };

void report(benchmark::State& state, std::int64_t n) {
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * static_cast<std::int64_t>(sizeof(float)));
  state.counters["ns_per_elem"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n) / 1e9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

auto bits_program = [](fj::Tracer key) { return fj::random::bits(key, {elements()}); };
auto uniform_program = [](fj::Tracer key) { return fj::random::uniform(key, {elements()}); };

template <class P>
void BM_random(benchmark::State& state, P program, int threads) {
  const std::int64_t n = elements();
  fj::runtime::set_thread_limit(threads > 0 ? threads : fj::runtime::num_threads());
  auto f = fj::jit(program);
  const fj::Array key = fj::random::key(0);
  if (!fusejit_bench::warm_up(state, [&] { f(key); })) return;
  for (auto _ : state) {
    fj::Array r = f(key);
    benchmark::DoNotOptimize(r);
  }
  fj::runtime::set_thread_limit(fj::runtime::num_threads());
  report(state, n);
}

void BM_memcpy(benchmark::State& state) {
  const std::int64_t n = elements();
  const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
  std::unique_ptr<float[]> src(new float[static_cast<std::size_t>(n)]);
  std::unique_ptr<float[]> dst(new float[static_cast<std::size_t>(n)]);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);  // touch every page before timing
  for (auto _ : state) {
    std::memcpy(dst.get(), src.get(), bytes);
    benchmark::ClobberMemory();
  }
  report(state, n);
}

// The LLVM kernel against the reference interpreter, bit for bit, on a prefix-sized problem.
bool self_check() {
  auto f = [](fj::Tracer key) { return fj::random::normal(key, {1 << 16}); };
  const fj::Array key = fj::random::key(0);
  const auto got = fj::jit(f)(key).to_vector<float>();
  std::vector<float> want;
  {
    fusejit_bench::BackendGuard guard("reference");
    want = fj::jit(f)(key).to_vector<float>();
  }
  if (std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) != 0) {
    std::fprintf(stderr, "random_normal: the %s backend differs from the reference\n",
                 fusejit_bench::backend_name().c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using fusejit_bench::row;
  row("random_normal/fusejit_jit/1thread", 1.0, BM_random<decltype(normal_program)>, normal_program,
      1);
  row("random_normal/fusejit_jit/allthreads", 1.0, BM_random<decltype(normal_program)>,
      normal_program, 0);
  row("random_normal/memcpy", 1.0, BM_memcpy);
  row("random_normal/bits_u32/1thread", 1.0, BM_random<decltype(bits_program)>, bits_program, 1);
  row("random_normal/uniform_f32/1thread", 1.0, BM_random<decltype(uniform_program)>,
      uniform_program, 1);
  return fusejit_bench::checked_main(argc, argv, self_check);
}
