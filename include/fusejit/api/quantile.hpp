// fj::quantile, fj::percentile, fj::median and their nan-ignoring forms (jnp's), staged as JAX
// 0.10.2 stages them.
#pragma once
#include <optional>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/lowering_quantile.hpp"

namespace fj {

/// The q of the quantile functions: a C++ double (JAX's Python float: a weak scalar) or an
/// array (rank 0 or 1).
struct Quantiles {
  std::optional<Array> array;  ///< q as an array, when given one
  double scalar = 0;           ///< q as a C++ double, when `array` is empty
  /// q from an array or a double; implicit, as JAX takes either.
  ///@{
  Quantiles(const Array& q) : array(q) {}  // NOLINT: implicit, as JAX takes either
  Quantiles(double q) : scalar(q) {}       // NOLINT
  ///@}
};

/// jnp.quantile(a, q, axis, method, keepdims): the q-th quantiles (q in [0, 1], a scalar or a
/// 1-d float array, whose axis comes first in the result) of a over `axis` (one, a tuple
/// `{0, 2}`, or fj::none: all, the default), by sorting; integer a computes in f32. A NaN in a
/// reduced row makes that row's result NaN.
Array quantile(const Array& a, const Quantiles& q, Axes axis = none,
               QuantileMethod method = QuantileMethod::linear, bool keepdims = false);
/// jnp.nanquantile: quantile over each row's non-NaN elements (NaN where a row has none).
Array nanquantile(const Array& a, const Quantiles& q, Axes axis = none,
                  QuantileMethod method = QuantileMethod::linear, bool keepdims = false);
/// jnp.percentile / jnp.nanpercentile: quantile at q / 100 (q in [0, 100], integers too).
///@{
Array percentile(const Array& a, const Quantiles& q, Axes axis = none,
                 QuantileMethod method = QuantileMethod::linear, bool keepdims = false);
Array nanpercentile(const Array& a, const Quantiles& q, Axes axis = none,
                    QuantileMethod method = QuantileMethod::linear, bool keepdims = false);
///@}
/// jnp.median / jnp.nanmedian: the quantile at 0.5 with the midpoint method.
///@{
Array median(const Array& a, Axes axis = none, bool keepdims = false);
Array nanmedian(const Array& a, Axes axis = none, bool keepdims = false);
///@}
/// jnp.quantile / percentile / nanquantile / nanpercentile's keyword arguments:
/// fj::quantile(a, 0.5, {.axis = 0, .method = fj::QuantileMethod::nearest}).
struct QuantileOptions {
  detail::KeywordsOnly keywords{};                 ///< holds nothing: designated initializers only
  Axes axis = none;                                ///< the axes reduced (all by default)
  QuantileMethod method = QuantileMethod::linear;  ///< how a quantile between two elements is read
  bool keepdims = false;                           ///< keep each reduced axis with extent 1
};
/// The quantile functions with keyword-style options.
///@{
inline Array quantile(const Array& a, const Quantiles& q, const QuantileOptions& o) {
  return quantile(a, q, o.axis, o.method, o.keepdims);
}
inline Array nanquantile(const Array& a, const Quantiles& q, const QuantileOptions& o) {
  return nanquantile(a, q, o.axis, o.method, o.keepdims);
}
inline Array percentile(const Array& a, const Quantiles& q, const QuantileOptions& o) {
  return percentile(a, q, o.axis, o.method, o.keepdims);
}
inline Array nanpercentile(const Array& a, const Quantiles& q, const QuantileOptions& o) {
  return nanpercentile(a, q, o.axis, o.method, o.keepdims);
}
///@}
/// jnp.median / jnp.nanmedian with keyword-style options: fj::median(a, {.axis = 0,
/// .keepdims = true}).
///@{
inline Array median(const Array& a, const ReduceOptions& o) {
  return median(a, o.axis, o.keepdims);
}
inline Array nanmedian(const Array& a, const ReduceOptions& o) {
  return nanmedian(a, o.axis, o.keepdims);
}
///@}

}  // namespace fj
