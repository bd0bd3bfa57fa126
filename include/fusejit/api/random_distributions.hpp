// jax.random's distributions beyond random.hpp's (exponential, gumbel, laplace, ..., choice,
// multivariate_normal, orthogonal) under fj::random::, each composed of fusejit's operations in
// the order JAX 0.10.2 composes it in jax/_src/random.py, so each draws JAX's samples.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/api/random.hpp"
#include "fusejit/api/sorting.hpp"
#include "fusejit/api/spectral.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/diagonal.hpp"
#include "fusejit/expr/einsum.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/linalg.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/sort_scan.hpp"

namespace fj {
namespace random {

/// A distribution's real parameter: a C++ number (as JAX's Python float, rounded once to the
/// samples' dtype) or an array (converted to the samples' dtype, as JAX converts it).
class Param {
 public:
  /// A number, weakly typed as a Python float.
  Param(double v) : value_(v) {}  // NOLINT(google-explicit-constructor): a number is a parameter
  /// An array of parameters (any real dtype), broadcast against the samples' shape.
  Param(const Array& a) : array_(a) {}  // NOLINT(google-explicit-constructor)
  /// An expression of arrays (fj::reshape(b, {2, 1}), say), evaluated to an array.
  template <class E>
  requires(!std::is_arithmetic_v<E> && !std::is_same_v<E, Array> &&
           std::is_constructible_v<Array, const E&>) Param(const E& e)
      : array_(Array(e)) {}  // NOLINT(google-explicit-constructor)
  /// The parameter in `dtype`.
  Array as(DType dtype) const {
    return array_ ? Array(array_->astype(dtype)) : fj::full({}, value_, dtype);
  }
  /// The parameter's shape: () for a number.
  Shape shape() const { return array_ ? array_->shape() : Shape{}; }
  /// The parameter's own float dtype (JAX's promote_dtypes_inexact): an array's f32 or f64,
  /// else (a number, or integers) the default float dtype.
  DType float_dtype() const {
    if (array_ && (array_->dtype() == DType::f32 || array_->dtype() == DType::f64))
      return array_->dtype();
    return default_float_dtype();
  }
  /// The number, where the parameter is one (JAX computes with it in Python's double first).
  std::optional<double> number() const {
    return array_ ? std::nullopt : std::optional<double>(value_);
  }

 private:
  std::optional<Array> array_;
  double value_ = 0;
};

}  // namespace random

namespace detail {

/// fj::DTypeError naming `fn` unless `dtype` is f32 or f64 (JAX requires a float dtype).
inline void rd_check_float(const char* fn, DType dtype) {
  if (dtype != DType::f32 && dtype != DType::f64)
    throw DTypeError(std::string(fn) + ": dtype must be a float dtype (float32 or float64), got " +
                     std::string(long_name(dtype)));
}

/// fj::ShapeError naming `fn` unless every dim of `shape` is >= 0.
inline void rd_check_dims(const char* fn, const std::vector<std::int64_t>& shape) {
  for (auto d : shape)
    if (d < 0)
      throw ShapeError(std::string(fn) + ": shape " + Shape(shape).str() +
                       " has a negative dimension");
}

/// JAX's _check_broadcast_shapes: `shape` when given (it must be what broadcasting it with
/// every parameter's shape gives), else the parameters' broadcast shape.
inline std::vector<std::int64_t> rd_sample_shape(
    const char* fn, const std::optional<std::vector<std::int64_t>>& shape,
    const std::vector<Shape>& params) {
  if (shape) rd_check_dims(fn, *shape);
  Shape b = shape ? Shape(*shape) : Shape{};
  bool ok = true;
  try {
    for (const Shape& p : params) b = broadcast_shapes(b, p, fn);
  } catch (const ShapeError&) {
    ok = false;
  }
  if (!ok || (shape && !(b == Shape(*shape)))) {
    std::string ps;
    for (const Shape& p : params) ps += (ps.empty() ? "" : ", ") + p.str();
    throw ShapeError(std::string(fn) + ": the parameters' shapes (" + ps + ") must broadcast" +
                     (shape ? " to the shape argument " + Shape(*shape).str() : std::string()) +
                     (ok ? ", got " + b.str() : std::string(", and do not")));
  }
  return b.to_vector();
}

/// x reshaped to `dims` (a runtime list: fj::reshape takes a braced one).
inline Array rd_reshape(const Array& x, const std::vector<std::int64_t>& dims) {
  return Array(make_node(IndexMapOp{ir::Prim::reshape, dims, {}, {}}, x));
}

/// `shape` with `tail` appended.
inline std::vector<std::int64_t> rd_concat(std::vector<std::int64_t> shape,
                                           const std::vector<std::int64_t>& tail) {
  shape.insert(shape.end(), tail.begin(), tail.end());
  return shape;
}

/// JAX's _uniform with array bounds (lower and upper of dtype, broadcast to `shape`):
/// max(lo, floats * (hi - lo) + lo). fj::random::uniform with bounds 0 and 1 gives `floats`
/// itself; XLA's CPU code fuses the product and the sum (one rounding), which f32 reproduces
/// through f64, where the product is exact (24 by 24 bits) and so is the sum for bounds within
/// 2^29 of each other. f64 rounds twice (no fused multiply-add in fusejit's ops).
inline Array rd_uniform_between(const Array& key, const std::vector<std::int64_t>& shape,
                                DType dtype, const Array& lo, const Array& hi) {
  const Array floats = random::uniform(key, shape, dtype, 0.0, 1.0);
  Array r;
  if (dtype == DType::f32) {
    const Array wide = floats.astype(DType::f64);
    r = Array((wide * Array((hi - lo).astype(DType::f64)) + lo.astype(DType::f64)).astype(dtype));
  } else {
    r = Array(floats * Array(hi - lo) + lo);
  }
  return Array(fj::maximum(lo, r));
}

}  // namespace detail

namespace random {

/// jax.random.PRNGKey: the legacy u32[2] key, which is what fj::random::key gives.
inline Array PRNGKey(std::uint64_t seed) { return key(seed); }
/// jax.random.PRNGKey from an integer scalar array.
inline Array PRNGKey(const Array& seed) { return key(seed); }
/// jax.random.clone: the key itself (outside key-reuse checking JAX's clone is the identity).
inline Array clone(const Array& key) { return key; }

/// jax.random.exponential: -log1p(-u), u uniform in [0, 1) (1 - u keeps log's operand > 0).
inline Array exponential(const Array& key, std::vector<std::int64_t> shape = {},
                         DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::exponential", dtype);
  const Array u = uniform(key, std::move(shape), dtype);
  return Array(-fj::log1p(-u));
}

/// jax.random.gumbel: -log(-log(u)), u uniform in [tiny, 1) (JAX's mode "low"); mode "high"
/// draws two uniforms per sample and adds the second below the first's last bit where the first
/// is < 1/2, then takes -log(-log1p(-x)). JAX's f32-only mode "highest" is not provided.
inline Array gumbel(const Array& key, std::vector<std::int64_t> shape = {},
                    DType dtype = default_float_dtype(), const std::string& mode = "low") {
  const char* fn = "fj::random::gumbel";
  detail::rd_check_float(fn, dtype);
  const bool f64 = dtype == DType::f64;
  const double tiny = f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  if (mode == "low") {
    const Array u = uniform(key, std::move(shape), dtype, tiny, 1.0);
    return Array(-fj::log(-fj::log(u)));
  }
  if (mode != "high")
    throw ValueError(std::string(fn) + ": mode must be \"low\" or \"high\", got \"" + mode + "\"");
  const Array hl = uniform(key, detail::rd_concat({2}, shape), dtype);
  const Array high = hl(0), low = hl(1);
  const double step = std::ldexp(1.0, f64 ? -52 : -23);
  const Array x = fj::where(high >= 0.5, high, high + step * low + tiny);
  return Array(-fj::log(-fj::log1p(-x)));
}

/// jax.random.laplace: sign(u) * log1p(-|u|), u uniform in [-1 + epsneg, 1).
inline Array laplace(const Array& key, std::vector<std::int64_t> shape = {},
                     DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::laplace", dtype);
  // epsneg: 2^-53 (f64) or 2^-24 (f32), the gap below 1.
  const double lo = -1.0 + std::ldexp(1.0, dtype == DType::f64 ? -53 : -24);
  const Array u = uniform(key, std::move(shape), dtype, lo, 1.0);
  return Array(fj::sign(u) * fj::log1p(-fj::abs(u)));
}

/// jax.random.logistic: log(x) - log1p(-x), x uniform in [tiny, 1).
inline Array logistic(const Array& key, std::vector<std::int64_t> shape = {},
                      DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::logistic", dtype);
  const double tiny =
      dtype == DType::f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  const Array x = uniform(key, std::move(shape), dtype, tiny, 1.0);
  return Array(fj::log(x) - fj::log1p(-x));
}

/// jax.random.cauchy: tan(pi * (u - 1/2)), u uniform in [eps, 1) (pi rounded to dtype).
inline Array cauchy(const Array& key, std::vector<std::int64_t> shape = {},
                    DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::cauchy", dtype);
  const double eps = dtype == DType::f64 ? std::numeric_limits<double>::epsilon()
                                         : std::numeric_limits<float>::epsilon();
  const Array u = uniform(key, std::move(shape), dtype, eps, 1.0);
  return Array(fj::tan(std::numbers::pi * (u - 0.5)));
}

/// jax.random.rademacher: -1 or 1 with equal probability, 2 * bernoulli(key, 0.5) - 1 in
/// `dtype` (JAX's default integer dtype: i32, or i64 in x64 mode).
inline Array rademacher(const Array& key, std::vector<std::int64_t> shape = {},
                        DType dtype = default_int_dtype()) {
  detail::rd_check_dims("fj::random::rademacher", shape);
  // JAX's p = 0.5 is a Python float: its uniforms are f64 in x64 mode (fj::random::bernoulli
  // with a number draws f32 ones), so p is an array of the default float dtype.
  const Array p = fj::full({}, 0.5, default_float_dtype());
  const Array b = bernoulli(key, p, std::move(shape)).astype(dtype);
  return Array((2 * b - 1).astype(dtype));
}

/// jax.random.pareto: exp(e / b), e exponential; the shape defaults to b's.
inline Array pareto(const Array& key, const Param& b,
                    std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                    DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::pareto";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {b.shape()});
  const Array e = exponential(key, s, dtype);
  return Array(fj::exp(e / b.as(dtype)));
}

/// jax.random.rayleigh: scale * sqrt(-2 log u), u uniform in [0, 1); the shape defaults to
/// scale's.
inline Array rayleigh(const Array& key, const Param& scale,
                      std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                      DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::rayleigh";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {scale.shape()});
  const Array u = uniform(key, s, dtype);
  const Array sc = fj::broadcast_to(scale.as(dtype), Shape(s));
  return Array(sc * fj::sqrt(fj::log(u) * -2.0));
}

/// jax.random.lognormal: exp(sigma * z), z standard normal; the shape defaults to sigma's.
inline Array lognormal(const Array& key, const Param& sigma = 1.0,
                       std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                       DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::lognormal";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {sigma.shape()});
  return Array(fj::exp(normal(key, s, dtype) * sigma.as(dtype)));
}

/// jax.random.weibull_min: (-log1p(-u))^(1 / concentration) * scale. A numeric concentration
/// is inverted in double first, as JAX's 1.0 / concentration on a Python float.
inline Array weibull_min(const Array& key, const Param& scale, const Param& concentration,
                         std::vector<std::int64_t> shape = {},
                         DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::weibull_min", dtype);
  const Array u = uniform(key, std::move(shape), dtype);
  const Array inv = concentration.number() ? fj::full({}, 1.0 / *concentration.number(), dtype)
                                           : Array(1.0 / concentration.as(dtype));
  return Array(fj::pow(-fj::log1p(-u), inv) * scale.as(dtype));
}

/// jax.random.maxwell: the 2-norm of 3 standard normals; samples of `shape`.
inline Array maxwell(const Array& key, std::vector<std::int64_t> shape = {},
                     DType dtype = default_float_dtype()) {
  detail::rd_check_float("fj::random::maxwell", dtype);
  const Array z = normal(key, detail::rd_concat(std::move(shape), {3}), dtype);
  // jnp.linalg.norm(z, axis=-1) as JAX writes it: sqrt(sum(z * z)).
  return Array(fj::sqrt(Array(z * z).sum({-1})));
}

/// jax.random.double_sided_maxwell: sign * maxwell * scale + loc, the sign and the maxwell
/// sample from the two halves of split(key). The samples' shape is `shape` (loc's and scale's
/// broadcast shape when empty) followed by that broadcast shape, as JAX's.
inline Array double_sided_maxwell(const Array& key, const Param& loc, const Param& scale,
                                  std::vector<std::int64_t> shape = {},
                                  DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::double_sided_maxwell";
  detail::rd_check_float(fn, dtype);
  const auto params = broadcast_shapes(loc.shape(), scale.shape(), fn).to_vector();
  if (shape.empty()) shape = params;
  shape = detail::rd_concat(shape, params);
  const Array keys = split(key);
  const Array m = maxwell(keys(0), shape, dtype);
  const Array sign = rademacher(keys(1), shape, dtype);
  return Array(sign * m * scale.as(dtype) + loc.as(dtype));
}

/// jax.random.wald: the inverse Gaussian of `mean` (Michael, Schucany and Haas): v standard
/// normal (from split(key)[0]) and z uniform (split(key)[1]); y = v^2, x = mean + mean^2 y / 2 -
/// mean / 2 sqrt(4 mean y + mean^2 y^2), then x where z <= mean / (mean + x), else mean^2 / x.
/// The shape defaults to mean's.
inline Array wald(const Array& key, const Param& mean,
                  std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                  DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::wald";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {mean.shape()});
  const Array keys = split(key);
  const Array mu = fj::broadcast_to(mean.as(dtype), Shape(s));
  const Array v = normal(keys(0), s, dtype);
  const Array z = uniform(keys(1), s, dtype);
  const Array y = fj::integer_pow(v, 2);
  const Array y_sq = fj::integer_pow(y, 2);
  const Array mean_sq = fj::integer_pow(mu, 2);
  const Array sqrt_term = fj::sqrt(4.0 * mu * y + mean_sq * y_sq);
  const Array x = mu + mean_sq * y / 2.0 - mu / 2.0 * sqrt_term;
  return Array(fj::where(z <= mu / (mu + x), x, mean_sq / x));
}

/// jax.random.geometric: the number of trials to the first success, floor(log u / log1p(-p)) +
/// 1 in `dtype` (an integer dtype; the default integer dtype when not given), u uniform in p's
/// float dtype with 0 mapped to 1 (JAX keeps its samples so). The shape defaults to p's.
inline Array geometric(const Array& key, const Param& p,
                       std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                       DType dtype = default_int_dtype()) {
  const char* fn = "fj::random::geometric";
  if (!is_int(dtype))
    throw DTypeError(std::string(fn) + ": dtype must be an integer dtype, got " +
                     std::string(long_name(dtype)));
  const auto s = detail::rd_sample_shape(fn, shape, {p.shape()});
  const DType pt = p.float_dtype();
  Array u = uniform(key, s, pt);
  u = fj::where(u == 0.0, 1.0, u);
  const Array l = fj::broadcast_to(fj::log1p(-p.as(pt)), Shape(s));
  return Array((fj::floor(fj::log(u) / l) + 1.0).astype(dtype));
}

/// jax.random.triangular: left + sqrt(u (right - left)(mode - left)) where u < (mode - left) /
/// (right - left), else right - sqrt((1 - u)(right - left)(right - mode)); the shape defaults
/// to the parameters' broadcast shape.
inline Array triangular(const Array& key, const Param& left, const Param& mode, const Param& right,
                        std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                        DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::triangular";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {left.shape(), mode.shape(), right.shape()});
  const Array l = fj::broadcast_to(left.as(dtype), Shape(s));
  const Array r = fj::broadcast_to(right.as(dtype), Shape(s));
  const Array m = fj::broadcast_to(mode.as(dtype), Shape(s));
  const Array fc = (m - l) / (r - l);
  const Array u = uniform(key, s, dtype);
  const Array out1 = l + fj::sqrt(u * (r - l) * (m - l));
  const Array out2 = r - fj::sqrt((1.0 - u) * (r - l) * (r - m));
  return Array(fj::where(u < fc, out1, out2));
}

/// jax.random.truncated_normal: sqrt(2) erf_inv(u), u uniform between erf(lower / sqrt 2) and
/// erf(upper / sqrt 2), clipped to the open interval (lower, upper); the shape defaults to the
/// bounds' broadcast shape.
inline Array truncated_normal(const Array& key, const Param& lower, const Param& upper,
                              std::optional<std::vector<std::int64_t>> shape = std::nullopt,
                              DType dtype = default_float_dtype()) {
  const char* fn = "fj::random::truncated_normal";
  detail::rd_check_float(fn, dtype);
  const auto s = detail::rd_sample_shape(fn, shape, {lower.shape(), upper.shape()});
  const Array lo = lower.as(dtype), hi = upper.as(dtype);
  const Array a = fj::erf(lo / std::numbers::sqrt2), b = fj::erf(hi / std::numbers::sqrt2);
  const Array u = detail::rd_uniform_between(key, s, dtype, a, b);
  const Array out = std::numbers::sqrt2 * fj::erf_inv(u);
  const double inf = std::numeric_limits<double>::infinity();
  // Rounding (or u landing on a) could reach a bound; JAX clamps inside it.
  return Array(fj::minimum(fj::nextafter(hi, -inf), fj::maximum(fj::nextafter(lo, inf), out)));
}

/// jax.random.choice's keyword arguments: fj::random::choice(key, 5, {.shape = {3}, .replace =
/// false}).
struct ChoiceOptions {
  detail::KeywordsOnly keywords{};    ///< holds nothing: designated initializers only
  std::vector<std::int64_t> shape{};  ///< the samples' shape (a scalar by default)
  bool replace = true;                ///< draw with replacement
  std::optional<Array> p{};           ///< 1-D probabilities of a's entries (uniform if not given)
  int axis = 0;                       ///< the axis of `a` the samples are taken along
};

/// jax.random.choice from the entries of `a` along `o.axis`: with replacement, randint indices
/// (or, with p, the cumulative sums searched at total * (1 - u)); without, the first entries of
/// a permutation (or, with p, the top of gumbel + log p). The result's shape is a's with the
/// axis replaced by o.shape.
inline Array choice(const Array& key, const Array& a, const ChoiceOptions& o = {}) {
  const char* fn = "fj::random::choice";
  detail::rd_check_dims(fn, o.shape);
  const int rank = a.ndim();
  if (rank == 0)
    throw ShapeError(std::string(fn) +
                     ": a must be at least 1-D (pass an integer n to choose "
                     "from 0 .. n-1), got " +
                     a.aval().str());
  if (o.axis < -rank || o.axis >= rank)
    throw ShapeError(std::string(fn) + ": axis " + std::to_string(o.axis) +
                     " is out of range for a of " + a.aval().str());
  const int axis = o.axis < 0 ? o.axis + rank : o.axis;
  const std::int64_t n = a.shape()[axis];
  std::int64_t draws = 1;
  for (auto d : o.shape) draws *= d;
  std::vector<std::int64_t> out;
  for (int d = 0; d < rank; ++d)
    if (d == axis)
      out.insert(out.end(), o.shape.begin(), o.shape.end());
    else
      out.push_back(a.shape()[d]);
  if (draws == 0) return fj::zeros(Shape(out), a.dtype());
  if (n <= 0)
    throw ValueError(std::string(fn) + ": a must have entries along axis " + std::to_string(axis) +
                     " unless no samples are taken, got a of " + a.aval().str());
  if (!o.replace && draws > n)
    throw ValueError(std::string(fn) + ": cannot take a larger sample (shape " +
                     Shape(o.shape).str() + ", " + std::to_string(draws) +
                     ") than the population (" + std::to_string(n) + ", a of " + a.aval().str() +
                     ") with replace=false");
  Array ind;
  if (!o.p) {
    if (o.replace) {
      ind = randint(key, o.shape, 0, n);
    } else {
      const Array perm = permutation(key, a, axis);
      std::vector<std::int64_t> start(static_cast<std::size_t>(rank), 0), stop;
      for (int d = 0; d < rank; ++d) stop.push_back(d == axis ? draws : a.shape()[d]);
      const Array taken =
          Array(detail::make_node(detail::IndexMapOp{ir::Prim::slice, start, stop, {}}, perm));
      return detail::rd_reshape(taken, out);
    }
  } else {
    Array p = *o.p;
    if (p.dtype() != DType::f32 && p.dtype() != DType::f64) p = p.astype(default_float_dtype());
    if (!(p.shape() == Shape{n}))
      throw ShapeError(std::string(fn) +
                       ": p must be 1-D with a.shape[axis] = " + std::to_string(n) +
                       " entries, got p of " + p.aval().str() + " for a of " + a.aval().str());
    if (o.replace) {
      const Array cuml = fj::cumsum(p);
      const Array r = cuml(n - 1) * (1.0 - uniform(key, o.shape, p.dtype()));
      // searchsorted(cuml, r), side left: the number of sums below r (exact, as any method).
      const Array below = fj::expand_dims(r, {-1}) > cuml;
      ind = Array(below.astype(DType::i32).sum({-1}).astype(DType::i32));
    } else {
      const Array g = gumbel(key, {n}, p.dtype()) + fj::log(p);
      ind = lax::top_k(g, draws)[1];
      ind = detail::rd_reshape(ind, o.shape);
    }
  }
  return detail::rd_reshape(Array(fj::take(a, ind, axis)), out);
}

/// jax.random.choice(key, n, ...): samples of 0 .. n-1 (i32).
inline Array choice(const Array& key, std::int64_t n, const ChoiceOptions& o = {}) {
  const char* fn = "fj::random::choice";
  if (n <= 0) {
    std::int64_t draws = 1;
    for (auto d : o.shape) draws *= d;
    if (draws == 0) return fj::zeros(Shape(o.shape), DType::i32);
    throw ValueError(std::string(fn) +
                     ": a must be greater than 0 unless no samples are taken, "
                     "got a = " +
                     std::to_string(n));
  }
  if (o.axis != 0)
    throw ValueError(std::string(fn) + ": axis must be 0 for an integer a, got " +
                     std::to_string(o.axis));
  std::int64_t draws = 1;
  for (auto d : o.shape) draws *= d;
  if (!o.p && !o.replace) {
    detail::rd_check_dims(fn, o.shape);
    if (draws > n)
      throw ValueError(std::string(fn) + ": cannot take a larger sample (shape " +
                       Shape(o.shape).str() + ", " + std::to_string(draws) +
                       ") than the population (a = " + std::to_string(n) + ") with replace=false");
    if (draws == 0) return fj::zeros(Shape(o.shape), DType::i32);
    const Array perm = permutation(key, n);
    return detail::rd_reshape(
        Array(detail::make_node(detail::IndexMapOp{ir::Prim::slice, {0}, {draws}, {}}, perm)),
        o.shape);
  }
  return choice(key, fj::iota(DType::i32, Shape{n}, 0), o);
}

/// jax.random.multivariate_normal's keyword arguments.
struct MultivariateNormalOptions {
  detail::KeywordsOnly keywords{};                   ///< holds nothing: designated initializers
  std::optional<std::vector<std::int64_t>> shape{};  ///< the batch shape (mean's and cov's)
  std::optional<DType> dtype{};                      ///< mean's float dtype when not given
  std::string method = "cholesky";                   ///< "cholesky", "eigh" or "svd"
};

/// jax.random.multivariate_normal: mean + factor z (einsum "...ij,...j->...i"), z standard
/// normal of shape + (n,), factor cov's Cholesky factor, or u sqrt(s) (svd), or v sqrt(w)
/// (eigh). mean (..., n) and cov (..., n, n) are converted to a float dtype.
inline Array multivariate_normal(const Array& key, const Array& mean_in, const Array& cov_in,
                                 const MultivariateNormalOptions& o = {}) {
  const char* fn = "fj::random::multivariate_normal";
  auto inexact = [](const Array& x) {
    return x.dtype() == DType::f32 || x.dtype() == DType::f64
               ? x
               : Array(x.astype(default_float_dtype()));
  };
  Array mean = inexact(mean_in), cov = inexact(cov_in);
  if (mean.dtype() != cov.dtype()) {
    mean = mean.astype(DType::f64);
    cov = cov.astype(DType::f64);
  }
  if (o.method != "cholesky" && o.method != "eigh" && o.method != "svd")
    throw ValueError(std::string(fn) +
                     ": method must be \"cholesky\", \"eigh\" or \"svd\", got \"" + o.method +
                     "\"");
  const DType dtype = o.dtype.value_or(mean.dtype());
  detail::rd_check_float(fn, dtype);
  if (mean.ndim() < 1)
    throw ShapeError(std::string(fn) + ": mean must be at least 1-D, got mean of " +
                     mean.aval().str());
  if (cov.ndim() < 2)
    throw ShapeError(std::string(fn) + ": cov must be at least 2-D, got cov of " +
                     cov.aval().str());
  const Shape ms = mean.shape(), cs = cov.shape();
  const std::int64_t n = ms[ms.rank() - 1];
  if (cs[cs.rank() - 1] != n || cs[cs.rank() - 2] != n)
    throw ShapeError(std::string(fn) +
                     ": cov must be (..., n, n) with mean's n = " + std::to_string(n) +
                     ", got mean of " + mean.aval().str() + " and cov of " + cov.aval().str());
  const Shape mb(std::vector<std::int64_t>(ms.begin(), ms.end() - 1));
  const Shape cb(std::vector<std::int64_t>(cs.begin(), cs.end() - 2));
  const auto shape = detail::rd_sample_shape(fn, o.shape, {mb, cb});
  Array factor;
  if (o.method == "svd") {
    const auto usv = fj::linalg::svd(cov);
    factor = Array(usv[0] * fj::expand_dims(fj::sqrt(usv[1]), {-2}));
  } else if (o.method == "eigh") {
    const auto wv = fj::linalg::eigh(cov);
    factor = Array(wv[1] * fj::expand_dims(fj::sqrt(wv[0]), {-2}));
  } else {
    factor = Array(fj::linalg::cholesky(cov));
  }
  const Array z = normal(key, detail::rd_concat(shape, {n}), dtype);
  return Array(mean + fj::einsum("...ij,...j->...i", factor, z));
}

/// jax.random.orthogonal: Haar-random orthogonal (n, m) matrices of batch `shape`: q of the QR
/// decomposition of a standard normal (max, min) matrix, each column times the sign of r's
/// diagonal entry, transposed when n < m. m defaults to n.
inline Array orthogonal(const Array& key, std::int64_t n, std::vector<std::int64_t> shape = {},
                        DType dtype = default_float_dtype(),
                        std::optional<std::int64_t> m = std::nullopt) {
  const char* fn = "fj::random::orthogonal";
  detail::rd_check_float(fn, dtype);
  detail::rd_check_dims(fn, shape);
  const std::int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0)
    throw ValueError(std::string(fn) + ": n and m must be >= 0, got n = " + std::to_string(n) +
                     ", m = " + std::to_string(cols));
  const Array z = normal(
      key, detail::rd_concat(std::move(shape), {std::max(n, cols), std::min(n, cols)}), dtype);
  const auto qr = fj::linalg::qr(z);
  const Array d = fj::diagonal(qr[1], 0, -2, -1);
  const Array x = qr[0] * fj::expand_dims(fj::sign(d), {-2});
  return n < cols ? fj::matrix_transpose(x) : x;
}

/// The keyword arguments of the samplers whose shape defaults to a scalar (exponential,
/// laplace, logistic, cauchy, maxwell, rademacher, weibull_min, double_sided_maxwell):
/// fj::random::exponential(key, {.shape = {3}, .dtype = fj::f64}).
struct SampleOptions {
  detail::KeywordsOnly keywords{};    ///< holds nothing: designated initializers only
  std::vector<std::int64_t> shape{};  ///< the samples' shape (a scalar by default)
  std::optional<DType> dtype{};       ///< the function's default dtype when not given
};
/// The keyword arguments of the samplers whose shape defaults to their parameters' broadcast
/// shape (pareto, rayleigh, lognormal, triangular, truncated_normal, wald, geometric):
/// fj::random::truncated_normal(key, -1, 1, {.shape = {3}}).
struct ParamSampleOptions {
  detail::KeywordsOnly keywords{};                   ///< holds nothing: designated initializers
  std::optional<std::vector<std::int64_t>> shape{};  ///< the parameters' shape by default
  std::optional<DType> dtype{};                      ///< the default float dtype when not given
};
/// jax.random.truncated_normal's keyword arguments (ParamSampleOptions).
using TruncatedNormalOptions = ParamSampleOptions;
/// jax.random.gumbel's keyword arguments: fj::random::gumbel(key, {.shape = {3}, .mode =
/// "high"}).
struct GumbelOptions {
  detail::KeywordsOnly keywords{};    ///< holds nothing: designated initializers only
  std::vector<std::int64_t> shape{};  ///< the samples' shape (a scalar by default)
  std::optional<DType> dtype{};       ///< the default float dtype when not given
  std::string mode = "low";           ///< "low" or "high" (see gumbel)
};
/// jax.random.orthogonal's keyword arguments: fj::random::orthogonal(key, 3, {.m = 4}).
struct OrthogonalOptions {
  detail::KeywordsOnly keywords{};    ///< holds nothing: designated initializers only
  std::vector<std::int64_t> shape{};  ///< the batch shape (none by default)
  std::optional<DType> dtype{};       ///< the default float dtype when not given
  std::optional<std::int64_t> m{};    ///< the number of columns (n by default)
};

/// jax.random.exponential(key, shape=..., dtype=...) with keyword-style options.
inline Array exponential(const Array& key, const SampleOptions& o) {
  return exponential(key, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.gumbel(key, shape=..., dtype=..., mode=...) with keyword-style options.
inline Array gumbel(const Array& key, const GumbelOptions& o) {
  return gumbel(key, o.shape, o.dtype.value_or(default_float_dtype()), o.mode);
}
/// jax.random.laplace(key, shape=..., dtype=...) with keyword-style options.
inline Array laplace(const Array& key, const SampleOptions& o) {
  return laplace(key, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.logistic(key, shape=..., dtype=...) with keyword-style options.
inline Array logistic(const Array& key, const SampleOptions& o) {
  return logistic(key, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.cauchy(key, shape=..., dtype=...) with keyword-style options.
inline Array cauchy(const Array& key, const SampleOptions& o) {
  return cauchy(key, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.maxwell(key, shape=..., dtype=...) with keyword-style options.
inline Array maxwell(const Array& key, const SampleOptions& o) {
  return maxwell(key, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.rademacher(key, shape=..., dtype=...) with keyword-style options (the default
/// integer dtype when no dtype is given).
inline Array rademacher(const Array& key, const SampleOptions& o) {
  return rademacher(key, o.shape, o.dtype.value_or(default_int_dtype()));
}
/// jax.random.weibull_min(key, scale, concentration, shape=..., dtype=...) with keyword-style
/// options.
inline Array weibull_min(const Array& key, const Param& scale, const Param& concentration,
                         const SampleOptions& o) {
  return weibull_min(key, scale, concentration, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.double_sided_maxwell(key, loc, scale, shape=..., dtype=...) with keyword-style
/// options.
inline Array double_sided_maxwell(const Array& key, const Param& loc, const Param& scale,
                                  const SampleOptions& o) {
  return double_sided_maxwell(key, loc, scale, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.pareto(key, b, shape=..., dtype=...) with keyword-style options.
inline Array pareto(const Array& key, const Param& b, const ParamSampleOptions& o) {
  return pareto(key, b, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.rayleigh(key, scale, shape=..., dtype=...) with keyword-style options.
inline Array rayleigh(const Array& key, const Param& scale, const ParamSampleOptions& o) {
  return rayleigh(key, scale, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.lognormal(key, sigma, shape=..., dtype=...) with keyword-style options.
inline Array lognormal(const Array& key, const Param& sigma, const ParamSampleOptions& o) {
  return lognormal(key, sigma, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.triangular(key, left, mode, right, shape=..., dtype=...) with keyword-style
/// options.
inline Array triangular(const Array& key, const Param& left, const Param& mode, const Param& right,
                        const ParamSampleOptions& o) {
  return triangular(key, left, mode, right, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.truncated_normal(key, lower, upper, shape=..., dtype=...) with keyword-style
/// options.
inline Array truncated_normal(const Array& key, const Param& lower, const Param& upper,
                              const ParamSampleOptions& o) {
  return truncated_normal(key, lower, upper, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.wald(key, mean, shape=..., dtype=...) with keyword-style options.
inline Array wald(const Array& key, const Param& mean, const ParamSampleOptions& o) {
  return wald(key, mean, o.shape, o.dtype.value_or(default_float_dtype()));
}
/// jax.random.geometric(key, p, shape=..., dtype=...) with keyword-style options (the default
/// integer dtype when no dtype is given).
inline Array geometric(const Array& key, const Param& p, const ParamSampleOptions& o) {
  return geometric(key, p, o.shape, o.dtype.value_or(default_int_dtype()));
}
/// jax.random.orthogonal(key, n, shape=..., dtype=..., m=...) with keyword-style options.
inline Array orthogonal(const Array& key, std::int64_t n, const OrthogonalOptions& o) {
  return orthogonal(key, n, o.shape, o.dtype.value_or(default_float_dtype()), o.m);
}

}  // namespace random
}  // namespace fj
