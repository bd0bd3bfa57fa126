// Cold first-call latency of jit(selu) on 1M f32: trace + compile + one run, in a fresh process.
//
// A fresh process is the only honest measure: a global kernel cache outlives fj::clear_caches()
// and a fresh fj::jit object, so a second measurement in one process would not compile. Run it
// several times and take the median (scripts/bench runs it 11 times). It prints one JSON line:
//   first_call_ms  the first call of a fresh fj::jit(selu): trace, compile, run
//   warm_call_ms   the median of 5 later calls: the run alone
//   compile_ms     first_call_ms - warm_call_ms: what the first call costs on top of a run
//   compiles       graphs handed to a backend's compile() by the first call (fj::cache_stats)
// Leave FUSEJIT_CACHE_DIR unset: an on-disk kernel cache would turn the compile into a load.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main() {
  try {
    constexpr std::int64_t n = std::int64_t{1} << 20;
    std::vector<float> v(static_cast<std::size_t>(n));
    std::uint64_t s = 0x9E3779B97F4A7C15ull;  // the same input as bench_fused_elementwise
    for (auto& e : v) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      e = -3.0f + 6.0f * static_cast<float>(s >> 40) * 0x1p-24f;
    }
    const fj::Array x = fj::array(v, fj::Shape{n});

    auto selu = [](fj::Tracer t) {
      return 1.05f * fj::where(t > 0, t, 1.67f * fj::exp(t) - 1.67f);
    };
    const auto compiles_before = fj::cache_stats().compiles;
    const auto t0 = std::chrono::steady_clock::now();
    auto f = fj::jit(selu, "selu");
    fj::Array y = f(x);
    y.block_until_ready();
    const double first_ms = ms_since(t0);
    const auto compiles = fj::cache_stats().compiles - compiles_before;

    std::vector<double> warm;
    for (int i = 0; i < 5; ++i) {
      const auto t1 = std::chrono::steady_clock::now();
      y = f(x);
      y.block_until_ready();
      warm.push_back(ms_since(t1));
    }
    std::sort(warm.begin(), warm.end());
    const double warm_ms = warm[warm.size() / 2];

    const std::string backend(fj::backend::default_backend().name());
    std::printf(
        "{\"backend\": \"%s\", \"first_call_ms\": %.4f, \"warm_call_ms\": %.4f, "
        "\"compile_ms\": %.4f, \"compiles\": %llu, \"check\": %.6f}\n",
        backend.c_str(), first_ms, warm_ms, first_ms - warm_ms,
        static_cast<unsigned long long>(compiles), static_cast<double>(y.data<float>()[0]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cold_start: %s\n", e.what());
    return 1;
  }
  return 0;
}
