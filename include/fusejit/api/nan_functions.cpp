// Definitions of api/nan_functions.hpp (implementation unit only), following JAX's
// _nan_reduction, nanmean, nanvar and nanargmax.
#include "fusejit/api/nan_functions.hpp"

#include <cmath>
#include <limits>

#include "fusejit/api/creation.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/sort_scan.hpp"

namespace fj {

namespace {

bool is_inexact(const Array& a) { return is_float(a.dtype()); }

// a with its NaNs replaced by `init` (in a's dtype).
Array nan_as(const Array& a, double init) { return Array(where(isnan(a), full_like(a, init), a)); }

// JAX's _nan_reduction: the reduction of a with NaNs as `init`, NaN where a slice is all NaN
// when `nan_if_all_nan`.
template <class Reduce>
Array nan_reduction(const Array& a, const Axes& axis, bool keepdims, double init,
                    bool nan_if_all_nan, Reduce reduce) {
  if (!is_inexact(a)) return reduce(a);
  const Array out = reduce(nan_as(a, init));
  if (!nan_if_all_nan) return out;
  const Array all_nan = Array(all(isnan(a), detail::reduce_over(axis, keepdims)));
  return Array(where(all_nan, full_like(out, std::nan("")), out));
}

}  // namespace

Array nansum(const Array& a, Axes axis, bool keepdims) {
  return nan_reduction(a, axis, keepdims, 0, false, [&](const Array& x) {
    return Array(sum(x, detail::reduce_over(axis, keepdims)));
  });
}

Array nanprod(const Array& a, Axes axis, bool keepdims) {
  return nan_reduction(a, axis, keepdims, 1, false, [&](const Array& x) {
    return Array(prod(x, detail::reduce_over(axis, keepdims)));
  });
}

Array nanmax(const Array& a, Axes axis, bool keepdims) {
  return nan_reduction(
      a, axis, keepdims, -std::numeric_limits<double>::infinity(), true,
      [&](const Array& x) { return Array(max(x, detail::reduce_over(axis, keepdims))); });
}

Array nanmin(const Array& a, Axes axis, bool keepdims) {
  return nan_reduction(
      a, axis, keepdims, std::numeric_limits<double>::infinity(), true,
      [&](const Array& x) { return Array(min(x, detail::reduce_over(axis, keepdims))); });
}

Array nanmean(const Array& a, Axes axis, bool keepdims) {
  if (!is_inexact(a)) return Array(mean(a, detail::reduce_over(axis, keepdims)));
  // JAX: nansum over the count of non-NaN elements, converted to a's dtype.
  const Array count =
      Array(sum(logical_not(isnan(a)), detail::reduce_over(axis, keepdims))).astype(a.dtype());
  return Array(nansum(a, axis, keepdims) / count);
}

Array nanvar(const Array& a, Axes axis, std::int64_t ddof, bool keepdims) {
  const Array x = is_inexact(a) ? a : a.astype(default_float_dtype());
  const Array mean_kept = nanmean(x, axis, true);
  const Array nan = Array(isnan(x));
  const Array centered = Array(where(nan, full_like(x, 0), x - mean_kept));
  const Array squares = Array(centered * centered);
  const Array count = Array(Array(sum(logical_not(nan), detail::reduce_over(axis, keepdims))) -
                            static_cast<double>(ddof));
  const Array none_left = Array(count <= 0.0);
  const Array total = Array(sum(squares, detail::reduce_over(axis, keepdims)));
  const Array result = Array(where(none_left, full_like(total, std::nan("")), total));
  const Array divisor = Array(where(none_left, full_like(count, 1), count)).astype(x.dtype());
  return Array(result / divisor);
}

Array nanstd(const Array& a, Axes axis, std::int64_t ddof, bool keepdims) {
  return Array(sqrt(nanvar(a, axis, ddof, keepdims)));
}

namespace {

Array nan_arg(const Array& a, std::optional<int> axis, bool keepdims, bool largest) {
  auto arg = [&](const Array& x) {
    if (axis) return Array(largest ? argmax(x, *axis, keepdims) : argmin(x, *axis, keepdims));
    return Array(largest ? argmax(x) : argmin(x));
  };
  if (!is_inexact(a)) return arg(a);
  const double inf = std::numeric_limits<double>::infinity();
  const Array nan = Array(isnan(a));
  const Array res = arg(Array(where(nan, full_like(a, largest ? -inf : inf), a)));
  const Array all_nan =
      axis ? Array(all(nan, detail::reduce_over(Axes(*axis), keepdims))) : Array(all(nan));
  return Array(where(all_nan, full_like(res, -1), res));
}

}  // namespace

Array nanargmax(const Array& a, std::optional<int> axis, bool keepdims) {
  return nan_arg(a, axis, keepdims, true);
}

Array nanargmin(const Array& a, std::optional<int> axis, bool keepdims) {
  return nan_arg(a, axis, keepdims, false);
}

Array nancumsum(const Array& a, std::optional<int> axis) {
  return Array(cumsum(is_inexact(a) ? nan_as(a, 0) : a, axis));
}

Array nancumprod(const Array& a, std::optional<int> axis) {
  return Array(cumprod(is_inexact(a) ? nan_as(a, 1) : a, axis));
}

}  // namespace fj
