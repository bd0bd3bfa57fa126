// Fault injection: a backend compile or a host allocation that fails at any point of a first call
// raises its fj::Error, leaves no half-built cache entry, and the next call compiles and is right.
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>
#include <fusejit/runtime/fault_injection.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"

using fj::Tracer;
namespace lax = fj::lax;

namespace {

struct Disarm {
  ~Disarm() { fj::testing::clear_injected_faults(); }
};

// x * 1.75 + 0.5, then the same minus its mean: two kernels (a reduction and an elementwise
// epilogue), with constants no other test uses so that no kernel comes from another test's cache.
Tracer two_kernels(Tracer x) {
  Tracer y = x * 1.75f + 0.5f;
  return y - fj::sum(y) / 7.0f;
}
std::vector<float> two_kernels_want(const std::vector<float>& x) {
  float s = 0;
  std::vector<float> y;
  for (float v : x) y.push_back(v * 1.75f + 0.5f), s += y.back();
  std::vector<float> out;
  for (float v : y) out.push_back(v - s / 7.0f);
  return out;
}
// A native loop (one driver compiled besides its kernels) with a cond inside.
Tracer looped(Tracer x) {
  return lax::fori_loop(
      0, 9,
      [](Tracer i, Tracer c) {
        return lax::cond(
            i < 4, [](Tracer v) { return v * 0.5f + 1.0f; }, [](Tracer v) { return v - 0.375f; },
            c);
      },
      x);
}
std::vector<float> looped_want(std::vector<float> x) {
  for (int i = 0; i < 9; ++i)
    for (float& v : x) v = i < 4 ? v * 0.5f + 1.0f : v - 0.375f;
  return x;
}

// The inputs are multiples of 1/8 below 2 in magnitude and every constant has a few bits: each
// product, sum and difference in these functions is exact in f32 (FMA contraction or not), and
// the one division rounds once, so both backends must match the f32 reference bit for bit.
bool close(const std::vector<float>& got, const std::vector<float>& want) { return got == want; }

// Arms `arm(skip)` before each first call of a fresh jitted `fn`, for skip = 0, 1, ... until the
// call gets through: each failing point must raise E naming the fault, keep the function's cache
// empty and let the next call succeed. Returns how many distinct points failed.
template <class E, class Fn, class Arm>
int fail_at_every_point(Fn fn, const fj::Array& x, const std::vector<float>& want, Arm arm,
                        const char* what) {
  Disarm disarm;
  int failed_points = 0;
  for (int skip = 0; skip < 64; ++skip) {
    CAPTURE(skip);
    fj::clear_caches();
    auto f = fj::jit(fn);
    arm(skip);
    bool threw = false;
    try {
      (void)f(x);
    } catch (const E& e) {
      threw = true;
      CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
    fj::testing::clear_injected_faults();
    if (!threw) {
      CHECK(close(f(x).template to_vector<float>(), want));
      return failed_points;
    }
    ++failed_points;
    CHECK(f.cache_size() == 0);  // nothing half-built was kept
    const auto before = fj::cache_stats();
    CHECK(close(f(x).template to_vector<float>(), want));
    CHECK(f.cache_size() == 1);
    CHECK(f.trace_count() == 1);  // only the trace that compiled counts
    CHECK(fj::cache_stats().cache_misses ==
          before.cache_misses + 1);                        // the failed one was not kept
    CHECK(close(f(x).template to_vector<float>(), want));  // and now it is a hit
    CHECK(f.trace_count() == 1);
  }
  FAIL("the call never got through: the hook keeps failing");
  return failed_points;
}

std::vector<float> inputs(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<float>(i * 5 % 17 - 8) / 8.0f);
  return v;
}

}  // namespace

TEST_CASE("fault injection: a failed backend compile, at each compile of a first call") {
  const std::vector<float> xs = inputs(7);
  const fj::Array x = fj::array(xs, {7});
  for (const char* backend : {"llvm", "reference"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    CAPTURE(backend);
    fusejit_test::BackendScope scope(backend);
    const int a = fail_at_every_point<fj::CompileError>(
        two_kernels, x, two_kernels_want(xs),
        [](int skip) { fj::testing::fail_next_compiles(1, skip); }, "injected");
    const int b = fail_at_every_point<fj::CompileError>(
        looped, x, looped_want(xs), [](int skip) { fj::testing::fail_next_compiles(1, skip); },
        "injected");
    // LLVM: the reduction's kernel and the epilogue's; the reference backend compiles a graph
    // once. The loop is one compile on LLVM too: its native driver inlines the body's kernels.
    CHECK(a == (std::string(backend) == "llvm" ? 2 : 1));
    CHECK(b >= 1);
  }
}

TEST_CASE("fault injection: kernels compiled before the failure are whole and reused") {
  if (!fusejit_test::has_backend("llvm")) return;
  fusejit_test::BackendScope scope("llvm");
  Disarm disarm;
  const std::vector<float> xs = inputs(7);
  fj::clear_caches();
  auto f = fj::jit(two_kernels);
  fj::testing::fail_next_compiles(1, 1);  // the first kernel compiles, the second fails
  CHECK_THROWS_AS(f(fj::array(xs, {7})), fj::CompileError);
  const auto before = fj::cache_stats();
  CHECK(close(f(fj::array(xs, {7})).to_vector<float>(), two_kernels_want(xs)));
  const auto after = fj::cache_stats();
  CHECK(after.kernel_cache_hits - before.kernel_cache_hits == 1);  // the first kernel, whole
  CHECK(after.compiles - before.compiles == 1);                    // the second, compiled anew
}

TEST_CASE("fault injection: an eager expression whose compile fails") {
  Disarm disarm;
  const std::vector<float> xs = inputs(5);
  const fj::Array x = fj::array(xs, {5});
  fj::clear_caches();
  fj::testing::fail_next_compiles(1);
  const auto eval = [&] { return fj::Array(x * 2.375f - 1.0f).to_vector<float>(); };
  CHECK_THROWS_AS(eval(), fj::CompileError);
  std::vector<float> want;
  for (float v : xs) want.push_back(v * 2.375f - 1.0f);
  CHECK(eval() == want);
}

TEST_CASE("fault injection: a failed host allocation, at each allocation of a first call") {
  const std::vector<float> xs = inputs(7);
  const fj::Array x = fj::array(xs, {7});
  for (const char* backend : {"llvm", "reference"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    CAPTURE(backend);
    fusejit_test::BackendScope scope(backend);
    // An allocation can fail while compiling (no entry may be kept) or while running a compiled
    // executable (the entry is whole and is kept): both must raise DeviceError and recover.
    Disarm disarm;
    int failed = 0;
    for (int skip = 0; skip < 64; ++skip) {
      CAPTURE(skip);
      fj::clear_caches();
      auto f = fj::jit(looped);
      fj::testing::fail_next_allocations(1, skip);
      bool threw = false;
      try {
        (void)f(x);
      } catch (const fj::DeviceError& e) {
        threw = true;
        CHECK(std::string(e.what()).find("out of host memory") != std::string::npos);
      }
      fj::testing::clear_injected_faults();
      CHECK(close(f(x).template to_vector<float>(), looped_want(xs)));
      CHECK(f.cache_size() == 1);
      if (!threw) break;
      ++failed;
    }
    CHECK(failed >= 1);
  }
}
