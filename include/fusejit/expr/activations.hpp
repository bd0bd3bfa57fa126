// jax.nn's activation functions beyond nn.hpp's (elu, selu, glu, the hard_* family, ...),
// logmeanexp and standardize under fj::nn::, each composed of fusejit's operations as JAX 0.10.2
// writes it in jax/_src/nn/functions.py, so each gives JAX's values (and its edge cases).
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/api/split.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/axes.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/operators.hpp"

namespace fj {
namespace detail {

/// `axis` of `x` counted from the front; fj::ShapeError naming `fn` when x has no such axis.
inline int activation_axis(const char* fn, const Array& x, int axis) {
  const int n = x.ndim();
  if (axis < -n || axis >= n)
    throw ShapeError(std::string(fn) + ": axis " + std::to_string(axis) +
                     " is out of range for x of " + x.aval().str());
  return axis < 0 ? axis + n : axis;
}

/// The number of elements logsumexp(x, axis) reduces over each result (JAX's _count without
/// `where`); `axis` has been checked by logsumexp already.
inline std::int64_t reduced_count(const Array& x, const Axes& axis) {
  const Shape s = x.shape();
  if (axis.all) return x.size();
  std::int64_t n = 1;
  for (int a : axis.list) n *= s[a < 0 ? a + s.rank() : a];
  return n;
}

}  // namespace detail

namespace nn {

/// jax.nn.identity: x itself.
inline Array identity(const Array& x) { return x; }

/// jax.nn.relu6: min(max(x, 0), 6).
inline Array relu6(const Array& x) { return Array(fj::minimum(fj::maximum(x, 0), 6.0)); }

/// jax.nn.elu: x where x > 0, else alpha * (e^x - 1). The expm1 operand is 0 where x > 0, as
/// JAX writes it, so the unused branch never overflows.
inline Array elu(const Array& x, double alpha = 1.0) {
  const Array safe = fj::where(x > 0, 0.0, x);
  return Array(fj::where(x > 0, x, alpha * fj::expm1(safe)));
}

/// jax.nn.celu: max(x, 0) + alpha * (e^(min(x, 0) / alpha) - 1).
inline Array celu(const Array& x, double alpha = 1.0) {
  return Array(fj::maximum(x, 0.0) + alpha * fj::expm1(fj::minimum(x, 0.0) / alpha));
}

/// jax.nn.selu: scale * elu(x, alpha) with JAX's constants (scale ~ 1.0507, alpha ~ 1.6733).
inline Array selu(const Array& x) {
  // The constants of JAX's selu, as Python reads its literals (rounded to double).
  constexpr double alpha = 1.6732632423543772848170429916717;
  constexpr double scale = 1.0507009873554804934193349852946;
  return Array(scale * elu(x, alpha));
}

/// jax.nn.leaky_relu: x where x >= 0, else negative_slope * x.
inline Array leaky_relu(const Array& x, double negative_slope = 1e-2) {
  return Array(fj::where(x >= 0, x, negative_slope * x));
}

/// jax.nn.hard_tanh: x clamped to [-1, 1] (NaN stays NaN).
inline Array hard_tanh(const Array& x) {
  return Array(fj::where(x > 1, 1, fj::where(x < -1, -1, x)));
}

/// jax.nn.hard_sigmoid: relu6(x + 3) / 6.
inline Array hard_sigmoid(const Array& x) {
  // XLA's simplifier turns JAX's division by the constant 6 into a product with its reciprocal,
  // so JAX's values are the product's.
  return Array(relu6(Array(x + 3.0)) * (1.0 / 6.0));
}

/// jax.nn.hard_silu: x * hard_sigmoid(x).
inline Array hard_silu(const Array& x) { return Array(x * hard_sigmoid(x)); }

/// jax.nn.hard_swish: the same function as hard_silu.
inline Array hard_swish(const Array& x) { return hard_silu(x); }

/// jax.nn.log_sigmoid: log(sigmoid(x)), as -softplus(-x).
inline Array log_sigmoid(const Array& x) { return Array(-nn::softplus(-x)); }

/// jax.nn.log1mexp: log(1 - e^-x) for x >= 0 (NaN below), through log(-expm1(-x)) below
/// log 2 and log1p(-e^-x) above, Maechler's split.
inline Array log1mexp(const Array& x) {
  return Array(fj::where(x < std::numbers::ln2, fj::log(-fj::expm1(-x)), fj::log1p(-fj::exp(-x))));
}

/// jax.nn.mish: x * tanh(softplus(x)).
inline Array mish(const Array& x) { return Array(x * fj::tanh(nn::softplus(x))); }

/// jax.nn.soft_sign: x / (|x| + 1).
inline Array soft_sign(const Array& x) { return Array(x / (fj::abs(x) + 1)); }

/// jax.nn.sparse_plus: 0 for x <= -1, x for x >= 1, (x + 1)^2 / 4 between.
inline Array sparse_plus(const Array& x) {
  const Array quadratic = fj::integer_pow(x + 1.0, 2) / 4;
  return Array(fj::where(x <= -1.0, 0.0, fj::where(x >= 1.0, x, quadratic)));
}

/// jax.nn.sparse_sigmoid: clip(x + 1, 0, 2) / 2, written 0.5 * clip as JAX writes it.
inline Array sparse_sigmoid(const Array& x) { return Array(0.5 * fj::clip(x + 1.0, 0.0, 2.0)); }

/// jax.nn.squareplus: (x + sqrt(x^2 + b)) / 2.
inline Array squareplus(const Array& x, double b = 4) {
  return Array((x + fj::sqrt(fj::square(x) + b)) / 2);
}

/// jax.nn.glu: the first half of x along `axis` times the sigmoid of the second half. The
/// extent of `axis` must be even (fj::ValueError otherwise; JAX asserts it).
inline Array glu(const Array& x, int axis = -1) {
  const int a = detail::activation_axis("fj::nn::glu", x, axis);
  const std::int64_t n = x.shape()[a];
  if (n % 2 != 0)
    throw ValueError("fj::nn::glu: the extent of axis " + std::to_string(axis) +
                     " of x must be even, to split it in two halves; x is " + x.aval().str());
  const std::vector<Array> halves = fj::lax::split(x, {n / 2, n / 2}, a);
  return Array(halves[0] * nn::sigmoid(halves[1]));
}

/// jax.nn.logmeanexp: log(mean(e^x)) over `axis` (default: all axes), as logsumexp(x) - log(n)
/// with n the number of elements each result reduces; JAX's `where` is not taken.
inline Array logmeanexp(const Array& x, Axes axis = none, bool keepdims = false) {
  const Array lse = nn::logsumexp(x, axis, keepdims);
  // log(n) of a constant n: XLA folds it on the host with the C library's log in the result's
  // dtype, so JAX's value is std::log's.
  const auto n = detail::reduced_count(x, axis);
  const double log_n = lse.dtype() == DType::f32 ? std::log(static_cast<float>(n))
                                                 : std::log(static_cast<double>(n));
  return Array(lse - log_n);
}
/// jax.nn.logmeanexp with keyword-style options: fj::nn::logmeanexp(x, {.axis = 1}).
inline Array logmeanexp(const Array& x, const ReduceOptions& o) {
  return logmeanexp(x, o.axis, o.keepdims);
}

/// How jax.nn.standardize computes the variance it is not given (JAX's `algorithm`).
enum class StandardizeAlgorithm {
  fast,   ///< mean(x^2) - mean(x)^2, clipped at 0 ("fast", JAX's default)
  stable  ///< mean((x - mean(x))^2), the two-pass formula ("stable")
};

/// jax.nn.standardize's keyword arguments: fj::nn::standardize(x, {.axis = 0, .epsilon = 1e-3}).
struct StandardizeOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  Axes axis = -1;                   ///< the axes standardized over (the last by default)
  std::optional<Array> mean{};      ///< the mean to subtract (by default x's, over `axis`)
  std::optional<Array> variance{};  ///< the variance to divide by (by default x's)
  double epsilon = 1e-5;            ///< added to the variance before its inverse square root
  /// how the variance is computed when not given
  StandardizeAlgorithm algorithm = StandardizeAlgorithm::fast;
};

/// jax.nn.standardize: (x - mean) * rsqrt(variance + epsilon), the mean and the variance over
/// `axis` (keeping it) unless given.
inline Array standardize(const Array& x, Axes axis = -1, std::optional<Array> mean = std::nullopt,
                         std::optional<Array> variance = std::nullopt, double epsilon = 1e-5,
                         StandardizeAlgorithm algorithm = StandardizeAlgorithm::fast) {
  ReduceOptions over;
  over.axis = axis;
  over.keepdims = true;
  const Array m = mean ? *mean : Array(fj::mean(x, over));
  Array v;
  if (variance) {
    v = *variance;
  } else if (algorithm == StandardizeAlgorithm::stable) {
    v = fj::mean(fj::square(x - m), over);
  } else {
    // JAX clips at 0: the difference of the two means may round below it.
    v = fj::maximum(Array(fj::mean(fj::square(x), over)) - fj::square(m), 0);
  }
  return Array((x - m) * fj::rsqrt(v + epsilon));
}
/// jax.nn.standardize with keyword-style options.
inline Array standardize(const Array& x, const StandardizeOptions& o) {
  return standardize(x, o.axis, o.mean, o.variance, o.epsilon, o.algorithm);
}

}  // namespace nn
}  // namespace fj
