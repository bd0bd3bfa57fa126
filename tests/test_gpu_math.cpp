// The GPU's transcendentals are the CPU's: the checked-in CUDA math (backend/cuda/kernel_math*)
// is what gpu_math_files() translates from the LLVM emitters today, and that C, compiled here
// for the host, gives the LLVM CPU kernels' results bit for bit. A GPU test then only has to show
// the GPU agrees with the same C (tests/test_cuda_runtime.cpp).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_math_host.hpp"
#include "llvm_backend_scope.hpp"
#include "tests_dir.hpp"

#ifdef FUSEJIT_WITH_LLVM
#include <fusejit/backend/llvm/gpu_math_source.hpp>
#endif

namespace {

using fj::Tracer;

#ifdef FUSEJIT_WITH_LLVM
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
#endif

// Inputs that reach every branch the functions have: signed zeros, infinities, NaN, subnormals,
// the extremes, values around 1 and the functions' cut-over points, then random magnitudes over
// the whole exponent range and random values in [-8, 8] (where most polynomials live).
template <class T>
std::vector<T> inputs(unsigned seed) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),           -T(0),           L::infinity(),    -L::infinity(),
                      L::quiet_NaN(), L::denorm_min(), -L::denorm_min(), L::min(),
                      -L::min(),      L::max(),        -L::max(),        L::lowest(),
                      T(1),           T(-1),           T(0.5),           T(-0.5),
                      T(2),           T(0.9999),       T(-0.9999),       T(1e-4),
                      T(1e5),         T(5e5),          T(6e5),           T(1e13),
                      T(88.7),        T(-103.9),       T(709.8),         T(-745.2),
                      T(3.14159265),  T(1.5707963)};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-8, 8), expo(-1, 1);
  const int emax = L::max_exponent;
  for (int k = 0; k < 3000; ++k) v.push_back(static_cast<T>(unit(rng)));
  for (int k = 0; k < 3000; ++k)
    v.push_back(static_cast<T>(std::ldexp(unit(rng) / 8, static_cast<int>(expo(rng) * emax))));
  return v;
}

template <class T>
bool same(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) ||
         std::bit_cast<std::uint64_t>(static_cast<double>(a)) ==
             std::bit_cast<std::uint64_t>(static_cast<double>(b));
}

// One function on `device` (the CPU: the LLVM backend at this host's vector width; a GPU: the
// CUDA backend) against the host-compiled generated C, every input, bit for bit (any NaN for a
// NaN).
template <class T, int arity, class Fn, class Host>
void check_function(const char* name, Fn fn, Host host, const fj::Device& device) {
  CAPTURE(name);
  const fj::DType d = std::is_same_v<T, float> ? fj::f32 : fj::f64;
  CAPTURE(d);
  const std::vector<T> x = inputs<T>(1), y = inputs<T>(2);
  const auto n = static_cast<std::int64_t>(x.size());
  const fj::Array xa = fj::device_put(fj::array(x, fj::Shape{n}), device),
                  ya = fj::device_put(fj::array(y, fj::Shape{n}), device);
  std::vector<T> got;
  if constexpr (arity == 1) {
    const auto jaxpr = fj::make_jaxpr(fn)(fj::array(x, fj::Shape{n}));
    REQUIRE(jaxpr.graph().eqns.size() == 1);  // the primitive itself, not a composite
    CHECK(std::string(fj::ir::name(jaxpr.graph().eqns[0].prim)) == name);
    got = fj::jit(fn)(xa).template to_vector<T>();
  } else {
    got = fj::jit(fn)(xa, ya).template to_vector<T>();
  }
  int mismatches = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T want = arity == 1 ? host(x[i], x[i]) : host(x[i], y[i]);
    if (!same(got[i], want) && ++mismatches <= 3) {
      std::ostringstream at;
      at.precision(17);
      at << "x = " << x[i];
      if (arity == 2) at << ", y = " << y[i];
      at << ": " << device << " " << got[i] << ", generated C " << want;
      FAIL_CHECK(at.str());
    }
  }
  CHECK(mismatches == 0);
}

// Every generated function, f32 and f64, on `device`.
void check_every_function(const fj::Device& device) {
  namespace h = fusejit_test::gpu_math_host;
#define FJ_CHECK_UNARY(name, fn)                                                               \
  check_function<float, 1>(                                                                    \
      #name, [](Tracer t) { return fn(t); }, [](float a, float) { return h::fj_##name(a); },   \
      device);                                                                                 \
  check_function<double, 1>(                                                                   \
      #name, [](Tracer t) { return fn(t); }, [](double a, double) { return h::fj_##name(a); }, \
      device)
  FJ_CHECK_UNARY(exp, fj::exp);
  FJ_CHECK_UNARY(log, fj::log);
  FJ_CHECK_UNARY(log1p, fj::log1p);
  FJ_CHECK_UNARY(expm1, fj::expm1);
  FJ_CHECK_UNARY(sin, fj::sin);
  FJ_CHECK_UNARY(cos, fj::cos);
  FJ_CHECK_UNARY(tan, fj::tan);
  FJ_CHECK_UNARY(tanh, fj::tanh);
  FJ_CHECK_UNARY(erf, fj::erf);
  FJ_CHECK_UNARY(erf_inv, fj::erf_inv);
  FJ_CHECK_UNARY(logistic, fj::logistic);
  FJ_CHECK_UNARY(rsqrt, fj::rsqrt);
  FJ_CHECK_UNARY(asin, fj::lax::asin);
  FJ_CHECK_UNARY(acos, fj::lax::acos);
  FJ_CHECK_UNARY(atan, fj::lax::atan);
  FJ_CHECK_UNARY(sinh, fj::sinh);
  FJ_CHECK_UNARY(cosh, fj::cosh);
  FJ_CHECK_UNARY(asinh, fj::asinh);
  FJ_CHECK_UNARY(acosh, fj::lax::acosh);
  FJ_CHECK_UNARY(atanh, fj::atanh);
  FJ_CHECK_UNARY(cbrt, fj::cbrt);
  FJ_CHECK_UNARY(exp2, fj::exp2);
  FJ_CHECK_UNARY(erfc, fj::erfc);
  FJ_CHECK_UNARY(lgamma, fj::lgamma);
  FJ_CHECK_UNARY(digamma, fj::digamma);
#undef FJ_CHECK_UNARY
  check_function<float, 2>(
      "pow", [](Tracer a, Tracer b) { return fj::pow(a, b); },
      [](float a, float b) { return h::fj_pow(a, b); }, device);
  check_function<double, 2>(
      "pow", [](Tracer a, Tracer b) { return fj::pow(a, b); },
      [](double a, double b) { return h::fj_pow(a, b); }, device);
  check_function<float, 2>(
      "atan2", [](Tracer a, Tracer b) { return fj::atan2(a, b); },
      [](float a, float b) { return h::fj_atan2(a, b); }, device);
  check_function<double, 2>(
      "atan2", [](Tracer a, Tracer b) { return fj::atan2(a, b); },
      [](double a, double b) { return h::fj_atan2(a, b); }, device);
  // polygamma at whole orders 0..5 made from the first input (a float order is NaN on both
  // sides): floor, fabs and fmod are exact, so both sides see the same m.
  auto polygamma = [&]<class T>(T) {
    check_function<T, 2>(
        "polygamma",
        [](Tracer a, Tracer b) {
          return fj::lax::polygamma(fj::fmod(fj::floor(fj::abs(a)), T(6)), b);
        },
        [](T a, T b) { return h::fj_polygamma(std::fmod(std::floor(std::fabs(a)), T(6)), b); },
        device);
  };
  polygamma(0.0f);
  polygamma(0.0);
}

}  // namespace

TEST_CASE("gpu math: the checked-in CUDA math is the translation of today's CPU emitters") {
#ifdef FUSEJIT_WITH_LLVM
  namespace fs = std::filesystem;
  const fs::path dir = fusejit_test::tests_dir() + "/../include/fusejit/backend/cuda";
  std::set<fs::path> generated;
  // On a mismatch: scripts/generate-gpu-math rewrites the files from the emitters.
  for (const auto& [path, text] : fj::backend::llvm_kernel::gpu_math_files()) {
    CAPTURE(path);
    CHECK(read_text((dir / path).string()) == text);
    generated.insert(fs::path(path).filename());
  }
  // and a function's file that nothing generates any more is gone.
  for (const fs::directory_entry& e : fs::directory_iterator(dir / "kernel_math")) {
    CAPTURE(e.path());
    CHECK(generated.count(e.path().filename()) == 1);
  }
#else
  MESSAGE("skipped: this build has no LLVM backend to translate");
#endif
}

TEST_CASE("gpu math: the generated C gives the CPU kernels' results bit for bit") {
  fusejit_test::LlvmBackend llvm;
  if (!llvm.ok()) return;
  check_every_function(fj::cpu());
}

TEST_CASE("cuda math: the GPU's transcendentals are the generated C's bits, so the CPU's") {
  if (std::ranges::none_of(fj::devices(), [](const fj::Device& d) { return d.is_gpu(); })) {
    MESSAGE("skipped: no CUDA GPU (" << fj::devices().size() << " CPU devices)");
    return;
  }
  check_every_function(fj::gpu(0));
}
