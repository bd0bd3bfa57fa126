// Running one traced function on two backends and comparing results within a per-op ulp bound.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fusejit/fusejit.hpp>
#include <random>
#include <string>
#include <vector>

namespace fusejit_test {

/// Selects a backend for the scope; restores the previous default (llvm when built with it).
class BackendScope {
 public:
  explicit BackendScope(const char* name) { fj::set_default_backend(name); }
  ~BackendScope() { fj::set_default_backend(default_name()); }
  static const char* default_name() {
    for (auto& n : fj::backend::backend_names())
      if (n == "llvm") return "llvm";
    return "reference";
  }
};

inline bool has_backend(const std::string& name) {
  for (auto& n : fj::backend::backend_names())
    if (n == name) return true;
  return false;
}

/// "reference", and "llvm" where this build has it: the backends a golden test runs on.
inline std::vector<std::string> backends_to_test() {
  std::vector<std::string> b{"reference"};
  if (has_backend("llvm")) b.push_back("llvm");
  return b;
}

/// Distance in units in the last place between two floats of one type (0 for equal, also for
/// two NaNs; huge for a NaN against a number).
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
  if (a == b) return 0;
  using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  // Map the sign-magnitude encoding onto a monotonic integer line.
  const auto key = [](I i) -> std::int64_t {
    return i < 0 ? static_cast<std::int64_t>(std::numeric_limits<I>::min()) -
                       static_cast<std::int64_t>(i)
                 : static_cast<std::int64_t>(i);
  };
  const std::int64_t d = key(ia) - key(ib);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

/// The largest `distance(got[i], want[i])` over two arrays of one dtype and shape, and where.
template <class Distance>
std::pair<double, std::int64_t> worst_element(const fj::Array& got, const fj::Array& want,
                                              Distance distance) {
  REQUIRE(got.dtype() == want.dtype());
  REQUIRE(got.shape() == want.shape());
  return fj::visit_dtype(got.dtype(), [&](auto x) {
    using T = decltype(x);
    const T* g = got.data<T>();
    const T* w = want.data<T>();
    std::pair<double, std::int64_t> worst{0.0, -1};
    for (std::int64_t i = 0; i < got.size(); ++i)
      if (const double d = distance(g[i], w[i]); d > worst.first) worst = {d, i};
    return worst;
  });
}

inline void report_worst(const fj::Array& got, const fj::Array& want, std::int64_t i) {
  if (i < 0) return;
  fj::visit_dtype(got.dtype(), [&](auto x) {
    using T = decltype(x);
    INFO("worst element " << i << ": got " << static_cast<double>(got.data<T>()[i]) << ", want "
                          << static_cast<double>(want.data<T>()[i]));
  });
}

/// Checks two arrays element by element: same dtype and shape, floats within `ulps`, the rest
/// equal.
inline void check_close(const fj::Array& got, const fj::Array& want, std::uint64_t ulps,
                        const std::string& what) {
  CAPTURE(what);
  const auto [worst, at] = worst_element(got, want, [](auto g, auto w) -> double {
    if constexpr (std::is_floating_point_v<decltype(g)>)
      return static_cast<double>(ulp_distance(g, w));
    else
      return g == w ? 0.0 : INFINITY;
  });
  report_worst(got, want, at);
  CHECK(worst <= static_cast<double>(ulps));
}

/// Checks two arrays element by element within an absolute tolerance.
inline void check_abs(const fj::Array& got, const fj::Array& want, double tol,
                      const std::string& what) {
  CAPTURE(what);
  const auto [worst, at] = worst_element(got, want, [](auto g, auto w) {
    return std::fabs(static_cast<double>(g) - static_cast<double>(w));
  });
  report_worst(got, want, at);
  CHECK(worst <= tol);
}

/// Deterministic inputs: uniform in [lo, hi) for floats, [lo, hi] for ints, a coin for bools.
inline fj::Array random_array(fj::DType d, const fj::Shape& shape, double lo, double hi,
                              unsigned seed) {
  std::mt19937_64 rng(seed);
  const auto n = static_cast<std::size_t>(shape.size());
  return fj::visit_dtype(d, [&](auto x) {
    using T = decltype(x);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) {  // indexed: std::vector<bool> has no references
      if constexpr (std::is_same_v<T, bool>)
        v[i] = rng() & 1;
      else if constexpr (std::is_floating_point_v<T>)
        v[i] = static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(rng));
      else
        v[i] = static_cast<T>(std::uniform_int_distribution<std::int64_t>(
            static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi))(rng));
    }
    return fj::array(v, shape);
  });
}

/// Runs f on the reference backend and on `backend`, each through its own fj::jit.
template <class F, class... Args>
std::pair<fj::Array, fj::Array> run_both(const char* backend, F f, const Args&... args) {
  fj::Array want, got;
  {
    BackendScope s("reference");
    want = fj::jit(f)(args...);
  }
  {
    BackendScope s(backend);
    got = fj::jit(f)(args...);
  }
  return {got, want};
}

}  // namespace fusejit_test
