// atan2 on the LLVM backend (math_inverse_trig.hpp) over a grid of (y, x) pairs: C99 Annex F's
// special cases in every quadrant (+-0, +-inf, NaN), subnormals and the extremes, the diagonal
// |y| = |x| where the reduction switches, and random pairs, against std::atan2 in long double.
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "llvm_backend_scope.hpp"
#include "ulp.hpp"

namespace {

using LD = long double;

// docs/MATH.md, "asin, acos, atan, atan2": measured 1.00 (f32) / 1.02 (f64) ulp on 2e7 random
// pairs.
constexpr double kAtan2Bound = 1.5;

using fusejit_test::LlvmBackend;

// Ulps of T between got and ref; special values must match exactly (NaN for NaN, zeros and
// infinities with their signs).
template <class T>
double ulp_distance(T got, LD ref) {
  constexpr double kMismatch = 1e30;
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : kMismatch;
  if (std::isinf(got) || std::isinf(ref)) return static_cast<LD>(got) == ref ? 0 : kMismatch;
  if (got == 0 && ref == 0) return std::signbit(got) == std::signbit(ref) ? 0 : kMismatch;
  return static_cast<double>(std::fabs(static_cast<LD>(got) - ref) / fusejit_test::ulp_at<T>(ref));
}

// Every (y, x) pair of the special values (both signs), then random pairs: log-uniform
// magnitudes over the whole range, pairs of similar magnitude, and pairs next to the diagonal.
template <class T>
void grid(std::vector<T>& ys, std::vector<T>& xs) {
  using L = std::numeric_limits<T>;
  std::vector<T> sp;
  for (T v : {T(0), L::infinity(), L::quiet_NaN(), L::denorm_min(), L::min(), L::max(), T(1),
              T(0.5), T(2), T(3), L::epsilon(), T(1e-20), T(1e20), std::nextafter(T(1), T(2))}) {
    sp.push_back(v);
    sp.push_back(-v);
  }
  for (T y : sp)
    for (T x : sp) ys.push_back(y), xs.push_back(x);
  std::mt19937_64 rng(20250119);
  std::uniform_real_distribution<double> u(-1, 1);
  const double emin = std::log2(static_cast<double>(L::denorm_min()));
  const double emax = std::log2(static_cast<double>(L::max()));
  std::uniform_real_distribution<double> e(emin, emax);
  auto signed_pow2 = [&](double ex) {
    return static_cast<T>(std::copysign(std::exp2(ex), u(rng)));
  };
  for (int i = 0; i < 40000; ++i) {
    ys.push_back(signed_pow2(e(rng)));
    xs.push_back(signed_pow2(e(rng)));
    const double ey = e(rng) * 0.1;  // |y / x| within 2^+-4
    ys.push_back(signed_pow2(ey));
    xs.push_back(signed_pow2(ey + 4 * u(rng)));
    const T y = signed_pow2(e(rng) * 0.5);  // |x| within a few ulps of |y|
    T x = std::copysign(y, static_cast<T>(u(rng)));
    for (int k = static_cast<int>(8 * u(rng)); k != 0; k += (k > 0 ? -1 : 1))
      x = std::nextafter(x, k > 0 ? L::infinity() : -L::infinity());
    ys.push_back(y);
    xs.push_back(x);
  }
}

template <class T, class F>
void check(F& f) {
  std::vector<T> ys, xs;
  grid(ys, xs);
  if (ys.size() % 2 == 0) ys.push_back(T(0.375)), xs.push_back(T(-1.5));  // a scalar tail too
  const auto n = static_cast<std::int64_t>(ys.size());
  const std::vector<T> got =
      f(fj::array(ys, fj::Shape{n}), fj::array(xs, fj::Shape{n})).template to_vector<T>();
  REQUIRE(got.size() == ys.size());
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const double d =
        ulp_distance<T>(got[i], std::atan2(static_cast<LD>(ys[i]), static_cast<LD>(xs[i])));
    if (d > worst) worst = d, at = i;
  }
  MESSAGE("atan2 ", (sizeof(T) == 4 ? "f32" : "f64"), " over ", ys.size(), " pairs: max ", worst,
          " ulp at y = ", double(ys[at]), ", x = ", double(xs[at]), " (got ", double(got[at]), ")");
  CHECK(worst <= kAtan2Bound);
}

}  // namespace

TEST_CASE("llvm math: atan2 on a grid of (y, x) with every special-value quadrant") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer y, fj::Tracer x) { return fj::atan2(y, x); });
  check<float>(f);
  check<double>(f);
}

TEST_CASE("llvm math: atan2's Annex F special cases, exactly") {
  LlvmBackend llvm;
  if (!llvm.ok()) return;
  auto f = fj::jit([](fj::Tracer y, fj::Tracer x) { return fj::atan2(y, x); });
  const double inf = std::numeric_limits<double>::infinity();
  const double pi = 0x1.921fb54442d18p1, pio2 = 0x1.921fb54442d18p0, pio4 = 0x1.921fb54442d18p-1;
  const double pi34 = 0x1.2d97c7f3321d2p1;  // 3 pi / 4 rounded
  struct Case {
    double y, x, want;
  };
  const std::vector<Case> cases = {
      {0.0, 0.0, 0.0},  {-0.0, 0.0, -0.0},  {0.0, -0.0, pi},    {-0.0, -0.0, -pi},
      {0.0, 1.0, 0.0},  {-0.0, 1.0, -0.0},  {0.0, -1.0, pi},    {-0.0, -1.0, -pi},
      {1.0, 0.0, pio2}, {1.0, -0.0, pio2},  {-1.0, 0.0, -pio2}, {-1.0, -0.0, -pio2},
      {1.0, inf, 0.0},  {-1.0, inf, -0.0},  {1.0, -inf, pi},    {-1.0, -inf, -pi},
      {inf, 1.0, pio2}, {-inf, 1.0, -pio2}, {inf, -1.0, pio2},  {-inf, -1.0, -pio2},
      {inf, inf, pio4}, {-inf, inf, -pio4}, {inf, -inf, pi34},  {-inf, -inf, -pi34},
      {inf, 0.0, pio2}, {0.0, inf, 0.0},    {-0.0, -inf, -pi},  {1.0, 1.0, pio4},
  };
  std::vector<double> ys, xs;
  for (const Case& c : cases) ys.push_back(c.y), xs.push_back(c.x);
  const auto n = static_cast<std::int64_t>(ys.size());
  for (bool f32 : {false, true}) {
    std::vector<double> got;
    if (f32) {
      const std::vector<float> y32(ys.begin(), ys.end()), x32(xs.begin(), xs.end());
      for (float g :
           f(fj::array(y32, fj::Shape{n}), fj::array(x32, fj::Shape{n})).to_vector<float>())
        got.push_back(g);
    } else {
      got = f(fj::array(ys, fj::Shape{n}), fj::array(xs, fj::Shape{n})).to_vector<double>();
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const double want = f32 ? double(float(cases[i].want)) : cases[i].want;
      INFO((f32 ? "f32" : "f64"), " atan2(", ys[i], ", ", xs[i], ") = ", got[i], ", want ", want);
      CHECK(got[i] == want);
      CHECK(std::signbit(got[i]) == std::signbit(want));
    }
  }
  // NaN in either argument gives NaN, whatever the other is.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> ny = {nan, nan, nan, 0.0, inf, 1.0, nan};
  const std::vector<double> nx = {0.0, inf, -1.0, nan, nan, nan, nan};
  const auto m = static_cast<std::int64_t>(ny.size());
  for (double g : f(fj::array(ny, fj::Shape{m}), fj::array(nx, fj::Shape{m})).to_vector<double>())
    CHECK(std::isnan(g));
}
