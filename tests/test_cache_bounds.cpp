// Bounded caches: with fj::set_cache_capacity(100), compiling thousands of distinct kernels keeps
// at most 100 in the global kernel cache, frees the JIT memory of evicted ones (resident memory
// stops growing), and an evicted kernel compiles again, correctly, when it is needed again.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <fusejit/fusejit.hpp>

#include "backend_compare.hpp"

namespace {

// Resident set size in KiB (Linux), or -1 where /proc is missing.
long resident_kib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  if (!(f >> pages >> resident)) return -1;
  return resident * 4;  // 4 KiB pages on the platforms this runs on
}

// x ** n by a jitted integer_pow: one kernel per n (the exponent is part of its structure).
double pow_once(std::int64_t n, double x) {
  auto f = fj::jit([n](fj::Tracer t) { return fj::Tracer(fj::integer_pow(t, n)); });
  return f(fj::array(x)).item<double>();
}

struct CapacityScope {
  std::size_t saved = fj::cache_capacity();
  explicit CapacityScope(std::size_t n) { fj::set_cache_capacity(n); }
  ~CapacityScope() { fj::set_cache_capacity(saved); }
};
// The on-disk kernel cache off for the scope.
struct NoDiskCache {
  std::string saved = fj::cache_dir();
  NoDiskCache() { fj::set_cache_dir(""); }
  ~NoDiskCache() { fj::set_cache_dir(saved); }
};

// Compiles `kernels` distinct kernels (x ** n for n = 1 ... kernels) with the global kernel cache
// bounded to 100: each result is right, every compile beyond the 100 kept evicted one kernel,
// and resident memory stops growing. Each compile is about 5 ms (2-vCPU AMD EPYC, AVX-512), and
// about 20 ms under the sanitizers.
void check_bounded_compiles(std::int64_t kernels) {
  if (!fusejit_test::has_backend("llvm")) return;
  fusejit_test::BackendScope llvm("llvm");
  fj::clear_caches();
  CapacityScope cap(100);
  NoDiskCache no_disk;  // the bounds of memory: the entries on disk would only cost time
  const auto before = fj::cache_stats();
  // x = 1 + 2^-30: x ** n = 1 + n 2^-30 (+ a tiny square term), distinct for every n.
  const double x = 1 + std::ldexp(1.0, -30);
  // Resident memory is compared between the first fifth of the kernels and the last: by then the
  // cache has been full and evicting for a while.
  const std::int64_t warm = kernels / 5;
  long rss_warm = 0;
  for (std::int64_t n = 1; n <= kernels; ++n) {
    const double got = pow_once(n, x);
    const double want = std::pow(x, static_cast<double>(n));
    if (std::abs(got - want) > 1e-13 * want) {
      CAPTURE(n);
      CHECK(got == doctest::Approx(want).epsilon(1e-13));
    }
    if (n == warm) rss_warm = resident_kib();
  }
  const long rss_end = resident_kib();
  const auto after = fj::cache_stats();
  CHECK(after.compiles - before.compiles >= kernels);
  // Every compile beyond the 100 kept evicted one kernel (and the per-function caches of the
  // short-lived jitted functions evicted nothing: one entry each).
  CHECK(after.evictions - before.evictions >= kernels - 100);
  // Resident memory stops growing: with no bound each kernel keeps about 11 KiB (its code, its
  // IR text and its cache entry: 8 000 kernels grew it by 85 MiB); bounded, the last 8 000 of
  // 10 000 cost 1.1 MiB together. The limit is a fifth of the unbounded growth, at least 2 MiB
  // (an allocator's arena may grow once on its own).
  const long unbounded_kib = 11 * (kernels - warm);
  const long limit_kib = std::max(2L * 1024, unbounded_kib / 5);
  MESSAGE("resident KiB after " << warm << " kernels: " << rss_warm << ", after " << kernels << ": "
                                << rss_end << " (limit of growth: " << limit_kib << ")");
  // Not under the sanitizers: ASan's quarantine keeps up to 256 MiB of freed blocks resident on
  // purpose (to catch uses after free), so resident memory would measure ASan, not the caches;
  // its leak checker at exit covers that run instead.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  if (rss_warm > 0) CHECK(rss_end - rss_warm < limit_kib);
#endif

  // Kernel 1 was evicted long ago: it compiles again and is right.
  const auto c0 = fj::cache_stats().compiles;
  CHECK(pow_once(7, 2.0) == 128.0);
  CHECK(fj::cache_stats().compiles > c0);
}

}  // namespace

// The default tier compiles 2 000 kernels (1 900 evicted); ./scripts/test --full adds the long
// run of 10 000 (tests/ctest_properties.cmake labels it "full").
TEST_CASE("cache bounds: 2 000 distinct kernels with capacity 100") {
  check_bounded_compiles(2000);
}

TEST_CASE("cache bounds: 10 000 distinct kernels with capacity 100") {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  MESSAGE("under the sanitizers the 2 000-kernel case covers the same paths (20 ms a compile)");
#else
  check_bounded_compiles(10000);
#endif
}

TEST_CASE("cache bounds: an evicted kernel keeps working in the function that holds it") {
  if (!fusejit_test::has_backend("llvm")) return;
  fusejit_test::BackendScope llvm("llvm");
  fj::clear_caches();
  CapacityScope cap(4);
  auto cube = fj::jit([](fj::Tracer t) { return fj::Tracer(fj::integer_pow(t, 3)); });
  CHECK(cube(fj::array(2.0)).item<double>() == 8.0);
  for (std::int64_t n = 10; n < 30; ++n) pow_once(n, 1.5);  // evicts cube's kernel
  CHECK(cube(fj::array(3.0)).item<double>() == 27.0);       // its executable still holds it
  CHECK(fj::cache_capacity() == 4);
}

TEST_CASE("cache bounds: a jitted function keeps its most recently used entries") {
  CapacityScope cap(3);
  auto f = fj::jit([](fj::Tracer x) { return fj::Tracer(x * 2.0f + 1.0f); });
  for (std::int64_t n = 1; n <= 5; ++n) CHECK(f(fj::ones({n})).to_vector<float>().back() == 3.0f);
  CHECK(f.trace_count() == 5);
  CHECK(f.cache_size() == 3);
  f(fj::ones({5}));  // the newest: a hit
  CHECK(f.trace_count() == 5);
  CHECK(f(fj::ones({1})).to_vector<float>() == std::vector<float>{3.0f});  // evicted: traced again
  CHECK(f.trace_count() == 6);
  CHECK(f.cache_size() == 3);
}
