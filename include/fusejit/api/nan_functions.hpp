// jnp's NaN-ignoring reductions (nansum, nanprod, nanmax, nanmin, nanmean, nanvar, nanstd,
// nanargmax, nanargmin, nancumsum, nancumprod): the NaNs replaced by the reduction's identity
// first, as JAX's _nan_reduction does. Integer and bool arrays reduce as the plain functions.
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/axes.hpp"

namespace fj {

/// jnp.nansum / nanprod: the sum (product) over `axis` (all by default) with NaNs counted as 0
/// (1).
///@{
Array nansum(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
Array nanprod(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
///@}
/// jnp.nanmax / nanmin: the maximum (minimum) over `axis` ignoring NaNs; NaN where every
/// element of a reduced slice is NaN.
///@{
Array nanmax(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
Array nanmin(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
///@}
/// jnp.nanmean: the mean of the non-NaN elements (NaN where there are none).
Array nanmean(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
/// jnp.nanvar / nanstd: the variance (standard deviation) of the non-NaN elements, divided by
/// their count - ddof (NaN where that is not positive).
///@{
Array nanvar(const Array& a, Axes axis = std::nullopt, std::int64_t ddof = 0,
             bool keepdims = false);
Array nanstd(const Array& a, Axes axis = std::nullopt, std::int64_t ddof = 0,
             bool keepdims = false);
///@}
/// jnp.nanargmax / nanargmin: the index of the largest (smallest) non-NaN element, flat or
/// along `axis`; -1 where a slice holds only NaNs.
///@{
Array nanargmax(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
Array nanargmin(const Array& a, std::optional<int> axis = std::nullopt, bool keepdims = false);
///@}
/// jnp.nancumsum / nancumprod: running sums (products) with NaNs counted as 0 (1), flattened
/// without an axis.
///@{
Array nancumsum(const Array& a, std::optional<int> axis = std::nullopt);
Array nancumprod(const Array& a, std::optional<int> axis = std::nullopt);
///@}
/// The NaN reductions with keyword-style options: fj::nansum(a, fj::ReduceOptions{.axis = 0}).
///@{
inline Array nansum(const Array& a, const ReduceOptions& o) {
  return nansum(a, o.axis, o.keepdims);
}
inline Array nanprod(const Array& a, const ReduceOptions& o) {
  return nanprod(a, o.axis, o.keepdims);
}
inline Array nanmax(const Array& a, const ReduceOptions& o) {
  return nanmax(a, o.axis, o.keepdims);
}
inline Array nanmin(const Array& a, const ReduceOptions& o) {
  return nanmin(a, o.axis, o.keepdims);
}
inline Array nanmean(const Array& a, const ReduceOptions& o) {
  return nanmean(a, o.axis, o.keepdims);
}
inline Array nanvar(const Array& a, const VarOptions& o) {
  return nanvar(a, o.axis, o.ddof, o.keepdims);
}
inline Array nanstd(const Array& a, const VarOptions& o) {
  return nanstd(a, o.axis, o.ddof, o.keepdims);
}
///@}

}  // namespace fj
