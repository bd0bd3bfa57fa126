// Cold first-call latency of jit(selu) on 1M f32: trace + compile + one run, in a fresh process.
//
// A fresh process is the only honest measure: a global kernel cache outlives fj::clear_caches()
// and a fresh fj::jit object, so a second measurement in one process would not compile. Run it
// several times and take the median (scripts/bench runs it 11 times). It prints one JSON line:
//   first_call_ms      the first call of a fresh fj::jit(selu): trace, compile (or load), run
//   first_call_cpu_ms  the calling thread's CPU time in that call: on a machine shared with
//                      other work, this moves much less than the wall clock
//   warm_call_ms       the median of 5 later calls: the run alone
//   compile_ms         first_call_ms - warm_call_ms: what the first call costs on top of a run
//   compiles           graphs handed to a backend's compile() by the first call (fj::cache_stats)
//   disk_hits, disk_writes   of the on-disk kernel cache in the first call
//   cache_dir          the on-disk cache's directory (fj::cache_dir(); empty: off)
// The on-disk cache is on by default: FUSEJIT_CACHE_DIR="" measures a compile, a directory that an
// earlier process filled measures a load (scripts/bench runs both).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double thread_cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// `s` as a JSON string body (a directory name may hold quotes or backslashes).
std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
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
    const fj::CacheStats before = fj::cache_stats();
    const double cpu0 = thread_cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    auto f = fj::jit(selu, "selu");
    fj::Array y = f(x);
    y.block_until_ready();
    const double first_ms = ms_since(t0);
    const double first_cpu_ms = thread_cpu_ms() - cpu0;
    const fj::CacheStats after = fj::cache_stats();

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
    using ull = unsigned long long;
    std::printf(
        "{\"backend\": \"%s\", \"first_call_ms\": %.4f, \"first_call_cpu_ms\": %.4f, "
        "\"warm_call_ms\": %.4f, \"compile_ms\": %.4f, \"compiles\": %llu, \"disk_hits\": %llu, "
        "\"disk_writes\": %llu, \"cache_dir\": \"%s\", \"check\": %.6f}\n",
        backend.c_str(), first_ms, first_cpu_ms, warm_ms, first_ms - warm_ms,
        static_cast<ull>(after.compiles - before.compiles),
        static_cast<ull>(after.disk_hits - before.disk_hits),
        static_cast<ull>(after.disk_writes - before.disk_writes),
        json_escape(fj::cache_dir()).c_str(), static_cast<double>(y.data<float>()[0]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cold_start: %s\n", e.what());
    return 1;
  }
  return 0;
}
