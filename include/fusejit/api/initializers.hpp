// jax.nn.initializers under fj::nn::initializers:: (zeros, constant, normal, variance_scaling
// and its glorot / he / lecun specializations, orthogonal, delta_orthogonal), each composed of
// fj::random's samplers as JAX 0.10.2 writes it in jax/_src/nn/initializers.py.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/api/random.hpp"
#include "fusejit/api/random_distributions.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array.hpp"

namespace fj::nn::initializers {

/// What JAX's initializer factories return: init(key, shape, dtype) -> array. No dtype means
/// the factory's dtype, and without that the default float dtype (f32, or f64 in x64 mode).
class Initializer {
 public:
  /// The function an initializer runs: (key, shape, dtype or none).
  using Fn =
      std::function<Array(const Array&, const std::vector<std::int64_t>&, std::optional<DType>)>;
  /// An initializer from any callable of Fn's signature (fj::nn::initializers::zeros, say).
  template <class F>
  requires(!std::is_same_v<std::decay_t<F>, Initializer> && std::is_constructible_v<Fn, F>)
      Initializer(F f)
      : fn_(std::move(f)) {}  // NOLINT(google-explicit-constructor)
  /// The initial array of `shape` from `key`, in `dtype` (or the initializer's default dtype).
  Array operator()(const Array& key, const std::vector<std::int64_t>& shape,
                   std::optional<DType> dtype = std::nullopt) const {
    return fn_(key, shape, dtype);
  }

 private:
  Fn fn_;
};

/// One axis or a list of axes of a weights' shape (JAX's int | Sequence[int]).
struct FanAxes {
  /// One axis, which may count from the end.
  FanAxes(int axis) : axes{axis}, single(true) {}  // NOLINT(google-explicit-constructor)
  /// Several axes (their extents multiply); {} for none.
  FanAxes(std::initializer_list<int> list) : axes(list) {}
  /// Several axes from a vector.
  FanAxes(std::vector<int> list) : axes(std::move(list)) {}  // NOLINT
  std::vector<int> axes;                                     ///< the axes
  bool single = false;  ///< given as one int (JAX's default in_axis check applies to it)
};

/// jax.nn.initializers.zeros: an array of zeros (the key is not used).
inline Array zeros(const Array&, const std::vector<std::int64_t>& shape,
                   std::optional<DType> dtype = std::nullopt) {
  return fj::zeros(Shape(shape), dtype.value_or(default_float_dtype()));
}
/// jax.nn.initializers.ones: an array of ones (the key is not used).
inline Array ones(const Array&, const std::vector<std::int64_t>& shape,
                  std::optional<DType> dtype = std::nullopt) {
  return fj::ones(Shape(shape), dtype.value_or(default_float_dtype()));
}
/// jax.nn.initializers.constant: an initializer filling with `value` (jnp.full).
inline Initializer constant(double value, std::optional<DType> dtype = std::nullopt) {
  return [=](const Array&, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    return fj::full(Shape(shape), value, d.value_or(dtype.value_or(default_float_dtype())));
  };
}
/// jax.nn.initializers.uniform: uniform in [0, scale): uniform(key) * scale (in dtype).
inline Initializer uniform(double scale = 0.01, std::optional<DType> dtype = std::nullopt) {
  return [=](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const DType t = d.value_or(dtype.value_or(default_float_dtype()));
    return Array(random::uniform(key, shape, t) * fj::full({}, scale, t));
  };
}
/// jax.nn.initializers.normal: normal(key) * stddev (in dtype).
inline Initializer normal(double stddev = 0.01, std::optional<DType> dtype = std::nullopt) {
  return [=](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const DType t = d.value_or(dtype.value_or(default_float_dtype()));
    return Array(random::normal(key, shape, t) * fj::full({}, stddev, t));
  };
}
/// jax.nn.initializers.truncated_normal: truncated_normal(key, lower, upper) * stddev; the
/// bounds apply before the scaling (no variance correction, as JAX's).
inline Initializer truncated_normal(double stddev = 0.01, std::optional<DType> dtype = std::nullopt,
                                    double lower = -2.0, double upper = 2.0) {
  return [=](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const DType t = d.value_or(dtype.value_or(default_float_dtype()));
    return Array(random::truncated_normal(key, lower, upper, shape, t) * fj::full({}, stddev, t));
  };
}

/// jax.nn.initializers.uniform's keyword arguments: uniform({.scale = 3.0}).
struct UniformOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  double scale = 0.01;                    ///< the upper bound (excluded)
  std::optional<DType> dtype{};           ///< the default float dtype when not given
};
/// jax.nn.initializers.uniform(scale=..., dtype=...) with keyword-style options.
inline Initializer uniform(const UniformOptions& o) { return uniform(o.scale, o.dtype); }
/// jax.nn.initializers.normal's keyword arguments: normal({.stddev = 0.3}).
struct NormalOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  double stddev = 0.01;                   ///< the standard deviation
  std::optional<DType> dtype{};           ///< the default float dtype when not given
};
/// jax.nn.initializers.normal(stddev=..., dtype=...) with keyword-style options.
inline Initializer normal(const NormalOptions& o) { return normal(o.stddev, o.dtype); }
/// jax.nn.initializers.truncated_normal's keyword arguments: truncated_normal({.lower = -1}).
struct TruncatedNormalOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  double stddev = 0.01;                   ///< the untruncated standard deviation
  std::optional<DType> dtype{};           ///< the default float dtype when not given
  double lower = -2.0;                    ///< the lower bound, before the scaling
  double upper = 2.0;                     ///< the upper bound, before the scaling
};
/// jax.nn.initializers.truncated_normal(stddev=..., dtype=..., lower=..., upper=...) with
/// keyword-style options.
inline Initializer truncated_normal(const TruncatedNormalOptions& o) {
  return truncated_normal(o.stddev, o.dtype, o.lower, o.upper);
}

namespace detail {

/// The product of shape's extents at `a`'s axes; fj::ShapeError naming `what` for an axis out of
/// range.
inline double fan_size(const std::vector<std::int64_t>& shape, const FanAxes& a, const char* what) {
  double n = 1;
  const int rank = static_cast<int>(shape.size());
  for (int axis : a.axes) {
    if (axis < -rank || axis >= rank)
      throw ShapeError(std::string("fj::nn::initializers::variance_scaling: ") + what + " " +
                       std::to_string(axis) + " is out of range for shape " + Shape(shape).str());
    n *= static_cast<double>(shape[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)]);
  }
  return n;
}

}  // namespace detail

/// jax.nn.initializers.variance_scaling's arguments (scale, mode and distribution required in
/// JAX; here with the glorot_uniform defaults scale 1, "fan_avg", "uniform").
struct VarianceScalingOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  double scale = 1.0;                     ///< the variance's scale
  std::string mode = "fan_avg";           ///< "fan_in", "fan_out", "fan_avg" or "fan_geo_avg"
  std::string distribution = "uniform";   ///< "truncated_normal", "normal" or "uniform"
  FanAxes in_axis = -2;                   ///< the input axis (or axes)
  FanAxes out_axis = -1;                  ///< the output axis (or axes)
  FanAxes batch_axis = {};                ///< axes left out of the fans
  std::optional<DType> dtype{};           ///< the default float dtype when not given
};

/// jax.nn.initializers.variance_scaling: samples of variance scale / n, n the fan the mode
/// names (in_size or out_size times the receptive field, the other axes' extents). Truncated
/// normals are cut at 2 and divided by their standard deviation 0.8796..., uniforms are in
/// [-1, 1) times sqrt(3 variance).
inline Initializer variance_scaling(const VarianceScalingOptions& o) {
  const char* fn = "fj::nn::initializers::variance_scaling";
  if (o.mode != "fan_in" && o.mode != "fan_out" && o.mode != "fan_avg" && o.mode != "fan_geo_avg")
    throw ValueError(std::string(fn) + ": invalid mode \"" + o.mode +
                     "\" (fan_in, fan_out, fan_avg or fan_geo_avg)");
  if (o.distribution != "truncated_normal" && o.distribution != "normal" &&
      o.distribution != "uniform")
    throw ValueError(std::string(fn) + ": invalid distribution \"" + o.distribution +
                     "\" (truncated_normal, normal or uniform)");
  return [o, fn](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const DType t = d.value_or(o.dtype.value_or(default_float_dtype()));
    ::fj::detail::rd_check_float(fn, t);
    if (o.in_axis.single && o.in_axis.axes[0] == -2 && shape.size() <= 1)
      throw ShapeError(std::string(fn) + ": cannot compute the fans of a " +
                       std::to_string(shape.size()) + "-dimensional shape " + Shape(shape).str() +
                       " with the default in_axis -2");
    const double in_size = detail::fan_size(shape, o.in_axis, "in_axis");
    const double out_size = detail::fan_size(shape, o.out_axis, "out_axis");
    const double batch = detail::fan_size(shape, o.batch_axis, "batch_axis");
    double total = 1;
    for (auto s : shape) total *= static_cast<double>(s);
    // Python's math.prod(shape) / in_size / out_size / batch_size: three float divisions.
    const double receptive = total / in_size / out_size / batch;
    const double fan_in = in_size * receptive, fan_out = out_size * receptive;
    const double den = o.mode == "fan_in"    ? fan_in
                       : o.mode == "fan_out" ? fan_out
                       : o.mode == "fan_avg" ? (fan_in + fan_out) / 2
                                             : std::pow(fan_in * fan_out, 0.5);
    const Array variance = fj::full({}, o.scale / den, t);
    if (o.distribution == "truncated_normal") {
      const Array stddev = fj::sqrt(variance) / fj::full({}, 0.8796256610342398, t);
      return Array(random::truncated_normal(key, -2.0, 2.0, shape, t) * stddev);
    }
    if (o.distribution == "normal")
      return Array(random::normal(key, shape, t) * fj::sqrt(variance));
    return Array(random::uniform(key, shape, t, -1.0, 1.0) * fj::sqrt(3.0 * variance));
  };
}
/// jax.nn.initializers.variance_scaling(scale, mode, distribution, in_axis, out_axis,
/// batch_axis, dtype) with positional arguments.
inline Initializer variance_scaling(double scale, const std::string& mode,
                                    const std::string& distribution, FanAxes in_axis = -2,
                                    FanAxes out_axis = -1, FanAxes batch_axis = {},
                                    std::optional<DType> dtype = std::nullopt) {
  VarianceScalingOptions o;
  o.scale = scale;
  o.mode = mode;
  o.distribution = distribution;
  o.in_axis = std::move(in_axis);
  o.out_axis = std::move(out_axis);
  o.batch_axis = std::move(batch_axis);
  o.dtype = dtype;
  return variance_scaling(o);
}

/// The axes and dtype of glorot_*, he_*, lecun_* (JAX's keyword arguments).
struct FanOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  FanAxes in_axis = -2;                   ///< the input axis (or axes)
  FanAxes out_axis = -1;                  ///< the output axis (or axes)
  FanAxes batch_axis = {};                ///< axes left out of the fans
  std::optional<DType> dtype{};           ///< the default float dtype when not given
};

/// jax.nn.initializers.glorot_uniform: variance_scaling(1, "fan_avg", "uniform").
inline Initializer glorot_uniform(const FanOptions& o = {}) {
  return variance_scaling(1.0, "fan_avg", "uniform", o.in_axis, o.out_axis, o.batch_axis, o.dtype);
}
/// jax.nn.initializers.glorot_normal: variance_scaling(1, "fan_avg", "truncated_normal").
inline Initializer glorot_normal(const FanOptions& o = {}) {
  return variance_scaling(1.0, "fan_avg", "truncated_normal", o.in_axis, o.out_axis, o.batch_axis,
                          o.dtype);
}
/// jax.nn.initializers.lecun_uniform: variance_scaling(1, "fan_in", "uniform").
inline Initializer lecun_uniform(const FanOptions& o = {}) {
  return variance_scaling(1.0, "fan_in", "uniform", o.in_axis, o.out_axis, o.batch_axis, o.dtype);
}
/// jax.nn.initializers.lecun_normal: variance_scaling(1, "fan_in", "truncated_normal").
inline Initializer lecun_normal(const FanOptions& o = {}) {
  return variance_scaling(1.0, "fan_in", "truncated_normal", o.in_axis, o.out_axis, o.batch_axis,
                          o.dtype);
}
/// jax.nn.initializers.he_uniform: variance_scaling(2, "fan_in", "uniform").
inline Initializer he_uniform(const FanOptions& o = {}) {
  return variance_scaling(2.0, "fan_in", "uniform", o.in_axis, o.out_axis, o.batch_axis, o.dtype);
}
/// jax.nn.initializers.he_normal: variance_scaling(2, "fan_in", "truncated_normal").
inline Initializer he_normal(const FanOptions& o = {}) {
  return variance_scaling(2.0, "fan_in", "truncated_normal", o.in_axis, o.out_axis, o.batch_axis,
                          o.dtype);
}
/// jax.nn.initializers.xavier_uniform: glorot_uniform.
inline Initializer xavier_uniform(const FanOptions& o = {}) { return glorot_uniform(o); }
/// jax.nn.initializers.xavier_normal: glorot_normal.
inline Initializer xavier_normal(const FanOptions& o = {}) { return glorot_normal(o); }
/// jax.nn.initializers.kaiming_uniform: he_uniform.
inline Initializer kaiming_uniform(const FanOptions& o = {}) { return he_uniform(o); }
/// jax.nn.initializers.kaiming_normal: he_normal.
inline Initializer kaiming_normal(const FanOptions& o = {}) { return he_normal(o); }

/// jax.nn.initializers.orthogonal: scale times random::orthogonal(key, rows, {}, dtype, cols),
/// cols the extent of column_axis and rows the product of the others, reshaped to the shape
/// without column_axis, that axis then moved back. A shape with a zero extent gives zeros.
inline Initializer orthogonal(double scale = 1.0, int column_axis = -1,
                              std::optional<DType> dtype = std::nullopt) {
  return [=](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const char* fn = "fj::nn::initializers::orthogonal";
    const DType t = d.value_or(dtype.value_or(default_float_dtype()));
    const int rank = static_cast<int>(shape.size());
    if (rank < 2)
      throw ShapeError(std::string(fn) + ": shape must be at least 2-D, got " + Shape(shape).str());
    if (column_axis < -rank || column_axis >= rank)
      throw ShapeError(std::string(fn) + ": column_axis " + std::to_string(column_axis) +
                       " is out of range for shape " + Shape(shape).str());
    const int c = column_axis < 0 ? column_axis + rank : column_axis;
    std::int64_t total = 1;
    for (auto s : shape) total *= s;
    if (total == 0) return fj::zeros(Shape(shape), t);
    const std::int64_t cols = shape[static_cast<std::size_t>(c)], rows = total / cols;
    const Array q = random::orthogonal(key, rows, {}, t, cols);
    std::vector<std::int64_t> dims;
    for (int i = 0; i < rank; ++i)
      if (i != c) dims.push_back(shape[static_cast<std::size_t>(i)]);
    dims.push_back(cols);
    const Array moved = fj::moveaxis(::fj::detail::rd_reshape(q, dims), -1, c);
    return Array(fj::full({}, scale, t) * moved);
  };
}

/// The keyword arguments of orthogonal and delta_orthogonal: orthogonal({.column_axis = 0}).
struct OrthogonalOptions {
  ::fj::detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  double scale = 1.0;                     ///< the factor on the orthogonal matrix
  int column_axis = -1;                   ///< the axis of the orthonormal columns
  std::optional<DType> dtype{};           ///< the default float dtype when not given
};
/// jax.nn.initializers.orthogonal(scale=..., column_axis=..., dtype=...) with keyword options.
inline Initializer orthogonal(const OrthogonalOptions& o) {
  return orthogonal(o.scale, o.column_axis, o.dtype);
}

/// jax.nn.initializers.delta_orthogonal: zeros of a 3-, 4- or 5-D shape (..., in, out), in <=
/// out, with orthogonal(scale, column_axis)'s (in, out) matrix at the spatial center
/// ((k - 1) / 2 on each leading axis).
inline Initializer delta_orthogonal(double scale = 1.0, int column_axis = -1,
                                    std::optional<DType> dtype = std::nullopt) {
  return [=](const Array& key, const std::vector<std::int64_t>& shape, std::optional<DType> d) {
    const char* fn = "fj::nn::initializers::delta_orthogonal";
    const DType t = d.value_or(dtype.value_or(default_float_dtype()));
    const std::size_t rank = shape.size();
    if (rank < 3 || rank > 5)
      throw ShapeError(std::string(fn) + ": shape must be 3-D, 4-D or 5-D, got " +
                       Shape(shape).str());
    if (shape[rank - 1] < shape[rank - 2])
      throw ShapeError(std::string(fn) + ": fan_in (shape[-2]) must not exceed fan_out " +
                       "(shape[-1]), got shape " + Shape(shape).str());
    // JAX calls the orthogonal initializer without a dtype: the factory's dtype, ours too.
    const Array m = orthogonal(scale, column_axis, t)(key, {shape[rank - 2], shape[rank - 1]});
    const Array w = fj::zeros(Shape(shape), t);
    const auto mid = [&](std::size_t i) { return (shape[i] - 1) / 2; };
    if (rank == 3) return Array(w.at(mid(0)).set(m));
    if (rank == 4) return Array(w.at(mid(0), mid(1)).set(m));
    return Array(w.at(mid(0), mid(1), mid(2)).set(m));
  };
}

/// jax.nn.initializers.delta_orthogonal(scale=..., column_axis=..., dtype=...) with keyword
/// options.
inline Initializer delta_orthogonal(const OrthogonalOptions& o) {
  return delta_orthogonal(o.scale, o.column_axis, o.dtype);
}

}  // namespace fj::nn::initializers
