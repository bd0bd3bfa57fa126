// The Eigen baselines of bench_workloads, compiled -O3 -march=native (the CMake bench section sets
// that for this file only): softmax and layernorm over the last axis of a row-major f32 matrix,
// row by row (each row is contiguous, so every per-row reduction and map is vectorized).
//
// Eigen lives only in this translation unit (see hand_loops.cpp): the main file passes raw
// pointers. It does not include fusejit.
#include <cmath>
#include <cstddef>

#include <Eigen/Core>

namespace fjbench {

namespace {
using Row = Eigen::Map<Eigen::ArrayXf>;
using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
}  // namespace

// y = exp(x - max(x)) / sum(exp(x - max(x))), per row.
void eigen_softmax(const float* x, float* y, std::size_t rows, std::size_t cols) {
  const auto c = static_cast<Eigen::Index>(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    ConstRow xr(x + r * cols, c);
    Row yr(y + r * cols, c);
    yr = (xr - xr.maxCoeff()).exp();
    yr *= 1.0f / yr.sum();
  }
}

// y = (x - mean) * rsqrt(var + eps), per row, var the biased variance (as jnp.var).
void eigen_layernorm(const float* x, float* y, std::size_t rows, std::size_t cols, float eps) {
  const auto c = static_cast<Eigen::Index>(cols);
  for (std::size_t r = 0; r < rows; ++r) {
    ConstRow xr(x + r * cols, c);
    Row yr(y + r * cols, c);
    const float mean = xr.mean();
    yr = xr - mean;
    const float var = yr.square().mean();
    yr *= 1.0f / std::sqrt(var + eps);
  }
}

}  // namespace fjbench
