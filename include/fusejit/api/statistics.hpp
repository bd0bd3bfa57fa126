// jnp's small statistics and polynomial functions: average, cov, corrcoef, count_nonzero,
// trapezoid, polyval, select and nan_to_num, as JAX composes them.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/axes.hpp"

namespace fj {

/// jnp.average(a, axis, weights): the mean over `axis` (all by default), or sum(a * w) /
/// sum(w) with `weights` of a's shape or (1-d) of the extent of a single axis.
Array average(const Array& a, Axes axis = std::nullopt,
              const std::optional<Array>& weights = std::nullopt, bool keepdims = false);
/// jnp.cov(m, rowvar, bias, ddof): the covariance matrix of the variables in m's rows (columns
/// when rowvar is false), normalized by N - 1 (N with bias, N - ddof when given).
Array cov(const Array& m, bool rowvar = true, bool bias = false,
          std::optional<std::int64_t> ddof = std::nullopt);
/// jnp.cov's keyword arguments: fj::cov(m, {.rowvar = false}).
struct CovOptions {
  detail::KeywordsOnly keywords{};     ///< holds nothing: designated initializers only
  bool rowvar = true;                  ///< variables in rows (else in columns)
  bool bias = false;                   ///< normalize by N, not N - 1
  std::optional<std::int64_t> ddof{};  ///< normalize by N - ddof (overrides bias)
};
/// jnp.cov with keyword-style options.
inline Array cov(const Array& m, const CovOptions& o) { return cov(m, o.rowvar, o.bias, o.ddof); }
/// jnp.corrcoef(x, rowvar): the correlation coefficients cov / (std_i std_j), clipped to
/// [-1, 1].
Array corrcoef(const Array& x, bool rowvar = true);
/// jnp.count_nonzero(a, axis, keepdims): how many elements are nonzero (the default int dtype).
Array count_nonzero(const Array& a, Axes axis = std::nullopt, bool keepdims = false);
/// jnp.trapezoid(y, dx, axis): the trapezoidal rule over `axis` with spacing dx.
Array trapezoid(const Array& y, double dx = 1.0, int axis = -1);
/// jnp.trapezoid(y, x, axis=axis): the trapezoidal rule at the sample points x (1-d, or y's
/// shape).
Array trapezoid(const Array& y, const Array& x, int axis = -1);
/// jnp.polyval(p, x): the polynomial with coefficients p (highest degree first) at x, by
/// Horner's rule (a scan over p, as JAX's).
Array polyval(const Array& p, const Array& x);
/// jnp.select(condlist, choicelist, default): elementwise, the choice of the first true
/// condition, else `default_value`; conditions and choices broadcast together.
Array select(const std::vector<Array>& condlist, const std::vector<Array>& choicelist,
             double default_value = 0);
/// jnp.nan_to_num(x, nan, posinf, neginf): NaN replaced by `nan`, infinities by the given
/// values or the dtype's largest finite ones. Integer and bool x are returned as they are.
Array nan_to_num(const Array& x, double nan = 0.0, std::optional<double> posinf = std::nullopt,
                 std::optional<double> neginf = std::nullopt);

}  // namespace fj
