// Non-temporal stores for large elementwise outputs (kernel::stream_bytes, the LLVM kernel's
// aligned vector loop): the same results as cached stores, at every alignment of a row.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <tuple>

#include <fusejit/backend/kernel_plan.hpp>

#include "backend_compare.hpp"

namespace {

using fj::Tracer;
using fusejit_test::has_backend;
using fusejit_test::random_array;

// Streams every output of at least `bytes` bytes for the scope.
struct StreamAbove {
  std::int64_t saved = fj::backend::kernel::stream_bytes().load();
  explicit StreamAbove(std::int64_t bytes) { fj::backend::kernel::stream_bytes() = bytes; }
  ~StreamAbove() { fj::backend::kernel::stream_bytes() = saved; }
};

bool same_bits(const fj::Array& a, const fj::Array& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  return fj::visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    return std::memcmp(a.data<T>(), b.data<T>(), static_cast<std::size_t>(a.size()) * sizeof(T)) ==
           0;
  });
}

}  // namespace

TEST_CASE("stream stores: large outputs use non-temporal stores and give the same results") {
  if (!has_backend("llvm")) return;
  auto selu = [](Tracer x) { return fj::where(x > 0.0f, x, 1.67f * fj::exp(x) - 1.67f) * 1.05f; };
  const fj::Array x = random_array(fj::f32, fj::Shape{1000, 37}, -3, 3, 1);
  std::string streamed, cached;
  fj::Array with, without;
  {
    StreamAbove on(1);
    streamed = fj::jit(selu).lower(x).as_text();
    with = fj::jit(selu)(x);
  }
  {
    StreamAbove off(std::int64_t{1} << 62);
    cached = fj::jit(selu).lower(x).as_text();
    without = fj::jit(selu)(x);
  }
  CHECK(streamed.find("!nontemporal") != std::string::npos);
  CHECK(cached.find("!nontemporal") == std::string::npos);
  // Rows of 37 floats start at every alignment: the kernel peels points to an aligned start.
  CHECK(same_bits(with, without));
  auto [got, want] = fusejit_test::run_both("llvm", selu, x);
  // For x < 0, 1.67 exp(x) - 1.67 cancels near 0: bounded absolutely, exp's 1 ulp and two
  // roundings at e^x <= 1 give 1.67 * 3 * 2^-24 < 1e-6 (ulps of a result near 0 would be huge).
  fusejit_test::check_abs(got, want, 1e-6, "selu f32[1000,37]");
}

TEST_CASE("stream stores: several outputs of several dtypes, every length near the width") {
  if (!has_backend("llvm")) return;
  auto f = [](Tracer x, Tracer y) {
    return std::make_tuple(x * 2.0f + y, x > y, x.astype(fj::f64) * 3.0, y.astype(fj::i32));
  };
  StreamAbove on(1);
  for (std::int64_t n : {1, 15, 16, 17, 63, 64, 65, 1000, 4099}) {
    CAPTURE(n);
    const fj::Array x = random_array(fj::f32, fj::Shape{n}, -100, 100, 2);
    const fj::Array y = random_array(fj::f32, fj::Shape{n}, -100, 100, 3);
    auto [a, b, c, d] = fj::jit(f)(x, y);
    fusejit_test::BackendScope ref("reference");
    auto [ra, rb, rc, rd] = fj::jit(f)(x, y);
    // Exact ops (an fma-contracted x*2+y rounds once, as the reference's x*2 is exact).
    CHECK(same_bits(a, ra));
    CHECK(same_bits(b, rb));
    CHECK(same_bits(c, rc));
    CHECK(same_bits(d, rd));
  }
}

TEST_CASE("stream stores: a row kernel's row-shaped outputs stream, its per-row ones do not") {
  if (!has_backend("llvm")) return;
  auto logsumexp_and_probs = [](Tracer x) {
    Tracer m = fj::max(x, {1}, true);
    Tracer lse = fj::log(fj::sum(fj::exp(x - m), {1}, true)) + m;
    return std::make_tuple(lse, fj::exp(x - lse));
  };
  for (std::int64_t cols : {37, 1024}) {
    CAPTURE(cols);
    const fj::Array x = random_array(fj::f32, fj::Shape{50, cols}, -5, 5, 4);
    fj::Array lse_s, p_s, lse_c, p_c;
    std::string text;
    {
      StreamAbove on(1);
      text = fj::jit(logsumexp_and_probs).lower(x).as_text();
      std::tie(lse_s, p_s) = fj::jit(logsumexp_and_probs)(x);
    }
    {
      StreamAbove off(std::int64_t{1} << 62);
      std::tie(lse_c, p_c) = fj::jit(logsumexp_and_probs)(x);
    }
    CHECK(text.find("!nontemporal") != std::string::npos);
    CHECK(same_bits(lse_s, lse_c));
    CHECK(same_bits(p_s, p_c));
  }
}
