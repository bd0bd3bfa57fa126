// Results that hold at every vector width the host can run: fj::set_cpu_target / FUSEJIT_CPU,
// lanes that never depend on their neighbours, and the seeds' programs at each width.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "cpu_widths.hpp"

using fusejit_test::BackendScope;
using fusejit_test::CpuTargetScope;
using fusejit_test::widths_here;
using Fn1 = std::function<fj::Array(const fj::Array&)>;

namespace {

// Every float unary function of the LLVM backend's math, and a fused expression around one.
struct Unary {
  const char* name;
  Fn1 f;
};
std::vector<Unary> unary_functions() {
  return {
      {"exp", [](const fj::Array& x) -> fj::Array { return fj::exp(x); }},
      {"expm1", [](const fj::Array& x) -> fj::Array { return fj::expm1(x); }},
      {"log", [](const fj::Array& x) -> fj::Array { return fj::log(x); }},
      {"log1p", [](const fj::Array& x) -> fj::Array { return fj::log1p(x); }},
      {"sin", [](const fj::Array& x) -> fj::Array { return fj::sin(x); }},
      {"cos", [](const fj::Array& x) -> fj::Array { return fj::cos(x); }},
      {"tan", [](const fj::Array& x) -> fj::Array { return fj::tan(x); }},
      {"tanh", [](const fj::Array& x) -> fj::Array { return fj::tanh(x); }},
      {"sqrt", [](const fj::Array& x) -> fj::Array { return fj::sqrt(x); }},
      {"rsqrt", [](const fj::Array& x) -> fj::Array { return fj::rsqrt(x); }},
      {"logistic", [](const fj::Array& x) -> fj::Array { return fj::logistic(x); }},
      {"erf", [](const fj::Array& x) -> fj::Array { return fj::erf(x); }},
      {"erf_inv", [](const fj::Array& x) -> fj::Array { return fj::erf_inv(x); }},
      {"x*x + sin(x)", [](const fj::Array& x) -> fj::Array { return x * x + fj::sin(x); }},
      {"sin(x) * cos(x) + tan(x)",
       [](const fj::Array& x) -> fj::Array { return fj::sin(x) * fj::cos(x) + fj::tan(x); }},
      {"exp(x) - 1 + x", [](const fj::Array& x) -> fj::Array { return fj::exp(x) - 1.0f + x; }},
  };
}

// Values that take every branch of the polynomials' argument handling: small, moderate, past
// the trig functions' Payne-Hanek threshold (5e5 in f32, 5e12 in f64), the format's extremes,
// subnormals, signed zeros, infinities and NaN.
template <class T>
std::vector<T> lane_values() {
  const T inf = std::numeric_limits<T>::infinity();
  return {T(0.5),
          T(-0.5),
          T(1e6),
          T(-1e6),
          T(5e12),
          T(1e15),
          T(3.0),
          T(-0.0),
          T(0.0),
          inf,
          -inf,
          std::numeric_limits<T>::quiet_NaN(),
          T(1e-3),
          T(-0.99),
          T(0.999),
          T(100.0),
          std::numeric_limits<T>::max(),
          -std::numeric_limits<T>::max(),
          std::numeric_limits<T>::denorm_min(),
          T(88.0),
          T(-200.0)};
}

bool same_bits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// f over `x` in one call against f over each element alone, repeated to fill whole vectors (so
// that its neighbours are copies of itself): bit for bit, at the current target.
template <class T>
void check_lanes_independent(const Unary& u, const std::vector<T>& x, const std::string& where) {
  const auto n = static_cast<std::int64_t>(x.size());
  const std::vector<T> together = fj::jit(u.f)(fj::array(x, fj::Shape{n})).template to_vector<T>();
  for (std::int64_t i = 0; i < n; ++i) {
    const std::vector<T> alone_in(32, x[static_cast<std::size_t>(i)]);
    const T alone = fj::jit(u.f)(fj::array(alone_in, fj::Shape{32})).template to_vector<T>()[0];
    const T got = together[static_cast<std::size_t>(i)];
    if (!same_bits(static_cast<double>(got), static_cast<double>(alone))) {
      CAPTURE(where);
      const std::string name = u.name;
      CAPTURE(name);
      CAPTURE(i);
      CAPTURE(static_cast<double>(x[static_cast<std::size_t>(i)]));
      CAPTURE(static_cast<double>(got));
      CAPTURE(static_cast<double>(alone));
      FAIL_CHECK("a lane's result depends on its neighbours");
    }
  }
}

template <class T>
void lanes_case(const std::string& width) {
  const std::vector<T> values = lane_values<T>();
  std::mt19937 rng(7);
  for (const Unary& u : unary_functions()) {
    // Each special value once in every lane position of a 16-lane vector among benign ones, and
    // random mixtures with lengths that leave tails at 4, 8 and 16 lanes.
    for (std::size_t v = 0; v < values.size(); ++v) {
      std::vector<T> x(16 + 3, T(0.25));
      for (std::size_t pos = 0; pos < 16; pos += 5) x[pos] = values[v];
      check_lanes_independent(u, x, width);
    }
    for (int len : {4, 8, 16, 37}) {
      std::vector<T> x(static_cast<std::size_t>(len));
      for (T& e : x) e = values[rng() % values.size()];
      check_lanes_independent(u, x, width);
    }
  }
}

}  // namespace

TEST_CASE(
    "cpu widths: set_cpu_target changes the kernels' vector width, jitted functions recompile") {
  if (!fusejit_test::has_backend("llvm")) return;
  BackendScope llvm("llvm");
  const auto ir_of = [](fj::DType d) {
    return fj::jit([](fj::Tracer x) { return fj::exp(x) * 2.0f; })
        .lower(fj::zeros({1000}, d))
        .as_text();
  };
  const std::vector<std::pair<std::string, int>> widths = widths_here();
  REQUIRE(!widths.empty());
  for (const auto& [name, lanes] : widths) {
    CAPTURE(name);
    CpuTargetScope scope(name);
    CHECK(fj::cpu_target().name == name);
    CHECK(fj::cpu_target().lanes == lanes);
    const std::string f32 = "<" + std::to_string(lanes) + " x float>";
    // f64 kernels use as many lanes, in two registers' worth of doubles.
    const std::string f64 = "<" + std::to_string(lanes) + " x double>";
    CHECK(ir_of(fj::f32).find(f32) != std::string::npos);
    CHECK(ir_of(fj::f64).find(f64) != std::string::npos);
    CHECK(ir_of(fj::f32).find("target-cpu\"=\"" + name + "\"") != std::string::npos);
  }
  // A jitted function's entries hold kernels of the target they were compiled for: switching
  // targets empties the caches, so the same function traces and compiles again for the new one.
  auto g = fj::jit([](fj::Tracer x) { return fj::log1p(x) * 3.0f; });
  const fj::Array x = fj::ones({64});
  int expected_traces = 0;
  for (const auto& [name, lanes] : widths) {
    CpuTargetScope scope(name);
    (void)g(x);
    (void)g(x);  // a hit at the same target
    CHECK(g.trace_count() == ++expected_traces);
  }
}

TEST_CASE("cpu widths: unknown targets and targets the host cannot run are refused") {
  if (!fusejit_test::has_backend("llvm")) return;
  const std::string before = fj::cpu_target().name;
  CHECK_THROWS_WITH_AS(fj::set_cpu_target("pentium-9000"),
                       doctest::Contains("fj::set_cpu_target(\"pentium-9000\")"), fj::ValueError);
  CHECK_FALSE(fj::cpu_target_supported("pentium-9000"));
  // The host's own answer decides what must be refused: AVX-512 code on a host without it.
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512cd");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi2");
  CHECK(fj::cpu_target_supported("x86-64-v4") == avx512);
  CHECK(fj::cpu_target_supported("x86-64-v3") == avx2);
  CHECK(fj::cpu_target_supported("x86-64-v2"));
  CHECK(fj::cpu_target_supported("native"));
  // A CPU with instructions no AMD host has (AMX), or, on such an Intel host, one with AMD's.
  const char* foreign = __builtin_cpu_is("amd") ? "sapphirerapids" : "znver4";
  CHECK_THROWS_WITH_AS(fj::set_cpu_target(foreign), doctest::Contains("cannot run code for"),
                       fj::DeviceError);
  if (!avx512)
    CHECK_THROWS_WITH_AS(fj::set_cpu_target("x86-64-v4"), doctest::Contains("avx512"),
                         fj::DeviceError);
  CHECK(fj::cpu_target().name == before);  // a refused target changes nothing
}

TEST_CASE("cpu widths: no lane's result depends on its neighbours, f32 and f64, every width") {
  if (!fusejit_test::has_backend("llvm")) return;
  BackendScope llvm("llvm");
  for (const auto& [name, lanes] : widths_here()) {
    CpuTargetScope scope(name);
    lanes_case<float>(name);
    lanes_case<double>(name);
  }
}

TEST_CASE("cpu widths: the seeds' programs on both backends at every width") {
  const fj::Array x = fj::arange(1'000'000.0f);
  // JAX 0.10.2, jit(lambda x: sum(x**2 + sin(x)))(arange(1_000_000.)) in float32: 3.3333282e17.
  // The float64 sum of the same float32 terms is 3.33332833e17; the float32 result may differ
  // from both by its accumulation's rounding, far below the 44% that the AVX2 lane bug lost.
  double exact = 0;
  for (int i = 0; i < 1'000'000; ++i) exact += static_cast<double>(i) * i + std::sin(double(i));
  // selu over arange(1_000_000.) in float32, as the README's example writes it.
  const auto selu = [](fj::Tracer v) {
    return 1.0507009873554805f *
           fj::where(v > 0, v, 1.6732632423543772f * fj::exp(v) - 1.6732632423543772f);
  };
  std::vector<std::pair<std::string, int>> widths = widths_here();
  for (const char* backend : {"reference", "llvm"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    BackendScope scope(backend);
    for (const auto& [name, lanes] : widths) {
      const std::string backend_name = backend;
      CAPTURE(backend_name);
      CAPTURE(name);
      CpuTargetScope target(name);
      const double got =
          fj::jit([](fj::Tracer v) { return fj::sum(v * v + fj::sin(v)); })(x).item<double>();
      CHECK(std::fabs(got - 3.3333282e17) <= 1e-6 * 3.3333282e17);
      CHECK(std::fabs(got - exact) <= 1e-6 * exact);
      const std::vector<float> s = fj::jit(selu)(x).to_vector<float>();
      REQUIRE(s.size() == 1'000'000);
      bool all_right = true;
      for (int i = 0; i < 1'000'000 && all_right; ++i) {
        // Positive inputs: one float32 product, correctly rounded; selu(0) = 1.05 * (1.67 - 1.67).
        const float want = static_cast<float>(1.0507009873554805f * static_cast<float>(i));
        if (s[static_cast<std::size_t>(i)] != want) {
          CAPTURE(i);
          CAPTURE(s[static_cast<std::size_t>(i)]);
          CAPTURE(want);
          all_right = false;
        }
      }
      CHECK(all_right);
    }
  }
}
