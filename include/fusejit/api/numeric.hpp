// fj::diff, fj::ptp, fj::isclose, fj::allclose and fj::bincount (jnp's), staged as JAX 0.10.2
// stages them.
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.diff(x, n, axis): the n-th difference along axis, x[1:] - x[:-1] applied n times (bools:
/// x[1:] != x[:-1]); n = 0 returns x. A scalar x or n < 0 is an fj::ValueError, an axis out of
/// range an fj::ShapeError.
Array diff(const Array& x, int n = 1, int axis = -1);
/// jnp.ptp: max - min over `axis` (every axis when none is given).
Array ptp(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false);
/// jnp.diff's keyword arguments: fj::diff(x, {.n = 2, .axis = 0}).
struct DiffOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  int n = 1;                        ///< how many times the difference is taken
  int axis = -1;                    ///< the axis differenced (the last by default)
};
/// jnp.diff(x, n=..., axis=...) with keyword-style options.
inline Array diff(const Array& x, const DiffOptions& o) { return diff(x, o.n, o.axis); }
/// jnp.isclose / jnp.allclose's keyword arguments: fj::isclose(a, b, {.atol = 1e-3}).
struct CloseOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<double> rtol{};     ///< relative tolerance (1e-5 when not given)
  std::optional<double> atol{};     ///< absolute tolerance (1e-8 when not given)
  bool equal_nan = false;           ///< NaNs compare close to NaNs
};
/// jnp.isclose(a, b, rtol, atol, equal_nan): a == b, or b finite and |a - b| <= atol + rtol |b|,
/// elementwise after jnp's promotion (integers compare as floats); NaNs are close only with
/// equal_nan. rtol = 1e-5 and atol = 1e-8 unless given; as in JAX, a given tolerance is an
/// operand of the jit (a Python float), a default one a constant of the computation's type.
Array isclose(const Array& a, const Array& b, std::optional<double> rtol = std::nullopt,
              std::optional<double> atol = std::nullopt, bool equal_nan = false);
/// jnp.allclose: whether isclose holds everywhere (a bool scalar).
Array allclose(const Array& a, const Array& b, std::optional<double> rtol = std::nullopt,
               std::optional<double> atol = std::nullopt, bool equal_nan = false);
/// jnp.isclose / jnp.allclose(a, b, rtol=..., atol=..., equal_nan=...) with keyword-style
/// options.
///@{
inline Array isclose(const Array& a, const Array& b, const CloseOptions& o) {
  return isclose(a, b, o.rtol, o.atol, o.equal_nan);
}
inline Array allclose(const Array& a, const Array& b, const CloseOptions& o) {
  return allclose(a, b, o.rtol, o.atol, o.equal_nan);
}
///@}
/// jnp.bincount(x, length=length, minlength=minlength): how often each value 0, 1, ... occurs
/// in the 1-d integer array x (negative values count as 0 and values past the length are
/// dropped, as JAX's clip and scatter do); int32 counts. Without `length` x must be concrete:
/// the length is max(minlength, max(x) + 1), as JAX reads it (fj::ConcretizationError under a
/// trace).
Array bincount(const Array& x, std::optional<std::int64_t> length = std::nullopt,
               std::int64_t minlength = 0);
/// jnp.bincount with weights (x's shape): the weights summed per value, in their dtype.
Array bincount(const Array& x, const Array& weights,
               std::optional<std::int64_t> length = std::nullopt, std::int64_t minlength = 0);
/// jnp.bincount's keyword arguments: fj::bincount(x, {.length = 8}).
struct BincountOptions {
  detail::KeywordsOnly keywords{};       ///< holds nothing: designated initializers only
  std::optional<std::int64_t> length{};  ///< the static length (needed under jit)
  std::int64_t minlength = 0;            ///< the least length when `length` is not given
  std::optional<Array> weights{};        ///< summed per value instead of counting ones
};
/// jnp.bincount(x, weights=..., minlength=..., length=...) with keyword-style options.
inline Array bincount(const Array& x, const BincountOptions& o) {
  return o.weights ? bincount(x, *o.weights, o.length, o.minlength)
                   : bincount(x, o.length, o.minlength);
}

}  // namespace fj
