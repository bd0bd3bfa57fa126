// Issue 19's scan and sort rows: cumsum of 16M f32 and sort of 1M f32 under fj::jit, against the
// same run's std::partial_sum and std::sort (bench/sort_scan_jax.py times JAX jit on the same
// inputs; bench/README.md puts the two side by side as ratios).
//
// Rows (ms per call; FUSEJIT_BENCH_SORT_SCALE divides both sizes, for the smoke test):
//   sort_scan/cumsum_16M/fusejit_jit      jit(cumsum) of f32[16M]
//   sort_scan/cumsum_16M/std_partial_sum  std::partial_sum into a preallocated buffer
//   sort_scan/sort_1M/fusejit_jit         jit(sort) of f32[1M]
//   sort_scan/sort_1M/std_sort            std::sort of a copy (the copy is in the time)
// The inputs are uniform in [-1, 1) from a fixed LCG, the same as the Python script's. Before
// timing, both jitted functions are checked against their std:: counterparts (sort bit for bit,
// cumsum exactly: both add in index order in f32).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <numeric>
#include <vector>

#include "bench_common.hpp"

namespace {

std::int64_t scale() {
  const char* v = std::getenv("FUSEJIT_BENCH_SORT_SCALE");
  return v && *v ? std::max<std::int64_t>(1, std::atoll(v)) : 1;
}
std::int64_t cumsum_n() { return (std::int64_t{1} << 24) / scale(); }
std::int64_t sort_n() { return (std::int64_t{1} << 20) / scale(); }

// x_{k+1} = 6364136223846793005 x_k + 1442695040888963407 (mod 2^64); the top 24 bits give a
// float in [-1, 1). bench/sort_scan_jax.py draws the same numbers.
std::vector<float> inputs(std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::uint64_t s = 12345;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<float>(s >> 40) * 0x1p-23f - 1.0f;
  }
  return v;
}

fj::Array as_array(const std::vector<float>& v) {
  return fj::array(v, fj::Shape{static_cast<std::int64_t>(v.size())});
}

auto cumsum_fn = [](fj::Tracer x) { return fj::Array(fj::cumsum(x)); };
auto sort_fn = [](fj::Tracer x) { return fj::Array(fj::sort(x)); };

template <class F>
void BM_jit(benchmark::State& state, F fn, std::int64_t n) {
  auto f = fj::jit(fn);
  const fj::Array x = as_array(inputs(n));
  if (!fusejit_bench::warm_up(state, [&] { f(x); })) return;
  for (auto _ : state) {
    fj::Array r = f(x);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_partial_sum(benchmark::State& state) {
  const auto x = inputs(cumsum_n());
  std::vector<float> out(x.size());
  for (auto _ : state) {
    std::partial_sum(x.begin(), x.end(), out.begin());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * cumsum_n());
}

void BM_std_sort(benchmark::State& state) {
  const auto x = inputs(sort_n());
  std::vector<float> work(x.size());
  for (auto _ : state) {
    std::copy(x.begin(), x.end(), work.begin());
    std::sort(work.begin(), work.end());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * sort_n());
}

bool self_check() {
  const auto c = inputs(cumsum_n());
  std::vector<float> want(c.size());
  std::partial_sum(c.begin(), c.end(), want.begin());
  const auto got = fj::jit(cumsum_fn)(as_array(c)).to_vector<float>();
  if (std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) != 0) {
    std::fprintf(stderr, "sort_scan: jit(cumsum) differs from std::partial_sum\n");
    return false;
  }
  auto s = inputs(sort_n());
  const auto sorted = fj::jit(sort_fn)(as_array(s)).to_vector<float>();
  std::sort(s.begin(), s.end());
  if (std::memcmp(sorted.data(), s.data(), s.size() * sizeof(float)) != 0) {
    std::fprintf(stderr, "sort_scan: jit(sort) differs from std::sort\n");
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using fusejit_bench::row;
  row("sort_scan/cumsum_16M/fusejit_jit", 0.5, BM_jit<decltype(cumsum_fn)>, cumsum_fn, cumsum_n());
  row("sort_scan/cumsum_16M/std_partial_sum", 0.5, BM_partial_sum);
  row("sort_scan/sort_1M/fusejit_jit", 0.5, BM_jit<decltype(sort_fn)>, sort_fn, sort_n());
  row("sort_scan/sort_1M/std_sort", 0.5, BM_std_sort);
  return fusejit_bench::checked_main(argc, argv, self_check);
}
