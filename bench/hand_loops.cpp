// The baselines of bench_fused_elementwise that are compiled -O3 -march=native (the CMake bench
// section sets that for this file only): hand-written loops with <cmath>, and the Eigen forms.
//
// Eigen lives only in this translation unit: an Eigen::ArrayXf allocated under one -march may
// not be evaluated under another (EIGEN_MAX_ALIGN_BYTES differs), so the main file passes raw
// pointers and this file owns every Eigen array. It does not include fusejit.
#include <cmath>
#include <cstddef>
#include <cstring>

#include <Eigen/Core>

namespace fjbench {

// --- hand loops ------------------------------------------------------------------------------

// selu as one would write it by hand. Without -ffast-math GCC keeps std::exp a scalar libm call.
void hand_selu(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 1.05f * (v > 0.f ? v : 1.67f * std::exp(v) - 1.67f);
  }
}

// sum(x**2 + sin(x)) by hand: one float accumulator, in order (no reassociation without
// -ffast-math, so the reduction is not vectorized).
float hand_sumsq_sin(const float* x, std::size_t n) {
  float s = 0.f;
  for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i] + std::sin(x[i]);
  return s;
}

// The read floor of a reduction: touch every float once, as fast as the memory allows. 64
// independent lanes, so the loop is vectorized and not bound by the latency of one add chain.
float read_floats(const float* x, std::size_t n) {
  constexpr std::size_t kLanes = 64;
  float acc[kLanes] = {};
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j) acc[j] += x[i + j];
  float s = 0.f;
  for (; i < n; ++i) s += x[i];
  for (std::size_t j = 0; j < kLanes; ++j) s += acc[j];
  return s;
}

// --- Eigen -----------------------------------------------------------------------------------

struct EigenData {
  Eigen::ArrayXf x, y;
};

EigenData* eigen_make(const float* x, std::size_t n) {
  auto* d = new EigenData;
  d->x = Eigen::Map<const Eigen::ArrayXf>(x, static_cast<Eigen::Index>(n));
  d->y.setZero(static_cast<Eigen::Index>(n));  // touched once, so the timed loops do not fault
  return d;
}
void eigen_free(EigenData* d) { delete d; }
const float* eigen_out(const EigenData& d) { return d.y.data(); }

// The natural form: select() is not vectorized in Eigen 3.4, so this runs a scalar exp.
void eigen_selu_select(EigenData& d) {
  const auto& x = d.x;
  d.y = (x > 0.f).select(x, 1.67f * x.exp() - 1.67f) * 1.05f;
}

// The fastest form: max/min instead of select, all vectorized. For x > 0, min(x, 0) = 0 and
// 1.67 * exp(0) - 1.67 = 0, leaving 1.05 * x; for x <= 0, max(x, 0) = 0: the same as selu.
void eigen_selu_maxmin(EigenData& d) {
  const auto& x = d.x;
  d.y = 1.05f * (x.max(0.f) + (1.67f * x.min(0.f).exp() - 1.67f));
}

float eigen_sumsq_sin(const EigenData& d) {
  const auto& x = d.x;
  return (x * x + x.sin()).sum();
}

}  // namespace fjbench
