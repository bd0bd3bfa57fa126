// jax.scipy.stats' functions of a sample (sem, mode, rankdata) under fj::scipy::stats::, giving
// JAX 0.10.2's values: sem as JAX composes it; mode's counts and rankdata's ranks (whole
// numbers, so exact) counted by comparing every pair of elements where JAX sorts.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/api/stacking.hpp"
#include "fusejit/api/stats/common.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj::scipy::stats {

/// jax.scipy.stats.sem: the standard error of the mean along `axis` (all axes when fj::none),
/// std(a, ddof) / sqrt(N), with nan_policy 'propagate'. fj::ValueError for an axis out of range.
inline Array sem(const Arg& a_in, std::optional<int> axis = 0, std::int64_t ddof = 1,
                 bool keepdims = false) {
  const Array b = detail::inexact(a_in.value);
  std::int64_t size = b.size();
  if (axis) {
    const int r = b.ndim();
    if (*axis < -r || *axis >= r)
      throw ValueError("scipy.stats.sem: axis " + std::to_string(*axis) +
                       " is out of range for a " + b.aval().str());
    size = b.shape()[*axis < 0 ? *axis + r : *axis];
  }
  // jnp.sqrt(size) of a Python int: in the default float dtype, then cast to b's dtype.
  const double root = x64_enabled() ? std::sqrt(static_cast<double>(size))
                                    : static_cast<double>(std::sqrt(static_cast<float>(size)));
  const Array sd =
      axis ? Array(b.std(Axes(*axis), ddof, keepdims)) : Array(b.std(Axes(none), ddof, keepdims));
  return Array(sd / detail::stats::cst(b, root));
}

/// jax.scipy.stats.mode's result: the most frequent value and how often it occurs.
struct ModeResult {
  Array mode;   ///< the most frequent value (the smallest among equally frequent ones)
  Array count;  ///< its number of occurrences, in the default integer dtype
};

/// jax.scipy.stats.mode: the most frequent value along `axis` (of all of a, flattened, when
/// fj::none) and its count, the axis removed (kept with length 1 when `keepdims`). Ties go to
/// the smallest value; NaNs count as one value, sorted after every number (as jnp.unique
/// groups them). Counted by comparing every pair in a slice (n^2 work) where JAX sorts with
/// jnp.unique; -0.0 and 0.0 count as one value, either may be returned. fj::ValueError for an
/// axis out of range or an empty slice.
inline ModeResult mode(const Arg& a_in, std::optional<int> axis = 0, bool keepdims = false) {
  Array a = a_in.value.ndim() == 0 ? Array(fj::expand_dims(a_in.value, {0})) : a_in.value;
  std::vector<std::int64_t> out_shape;
  int ax = 0;
  if (axis) {
    const int r = a.ndim();
    if (*axis < -r || *axis >= r)
      throw ValueError("scipy.stats.mode: axis " + std::to_string(*axis) +
                       " is out of range for a " + a_in.value.aval().str());
    ax = *axis < 0 ? *axis + r : *axis;
    for (int i = 0; i < r; ++i)
      if (i != ax || keepdims) out_shape.push_back(i == ax ? 1 : a.shape()[i]);
    a = fj::moveaxis(a, ax, -1);
  } else {
    if (keepdims) out_shape.assign(static_cast<std::size_t>(a.ndim()), 1);
    a = a.ravel();
  }
  const std::int64_t n = a.shape()[a.ndim() - 1];
  if (n == 0)
    throw ValueError("scipy.stats.mode: the slices along the axis are empty (a " +
                     a_in.value.aval().str() + ")");
  const Array ai = fj::expand_dims(a, {a.ndim()});
  const Array aj = fj::expand_dims(a, {a.ndim() - 1});
  // jnp.unique's groups: equal values, and all NaNs together.
  const Array same = fj::logical_or(ai == aj, fj::logical_and(fj::isnan(ai), fj::isnan(aj)));
  const Array counts = fj::sum(fj::astype(same, default_int_dtype()), {-1});
  const Array top = fj::max(counts, {-1}, true);
  const Array candidate = counts == top;
  const Array numeric = fj::logical_and(candidate, fj::logical_not(fj::isnan(a)));
  // The smallest number among the most frequent values; NaN when only the NaNs are.
  Array m;
  if (is_float(a.dtype())) {
    m = fj::min(fj::where(numeric, a, std::numeric_limits<double>::infinity()), {-1});
    m = fj::where(fj::any(numeric, {-1}), m, std::numeric_limits<double>::quiet_NaN());
  } else {  // the slice's maximum as the filler, which no smaller candidate loses to
    m = fj::min(fj::where(numeric, a, fj::max(a, {-1}, true)), {-1});
  }
  const Array c = fj::max(counts, {-1});
  return {fj::detail::reshape_dyn(m, out_shape), fj::detail::reshape_dyn(c, out_shape)};
}

/// rankdata's methods: how tied elements are ranked.
enum class RankMethod {
  average,  ///< the mean of the ranks the ties span
  min,      ///< the lowest rank the ties span
  max,      ///< the highest rank the ties span
  dense,    ///< the rank among the distinct values
  ordinal,  ///< ties ranked by position (a stable sort's order)
};

/// jax.scipy.stats.rankdata: the ranks (from 1) of a's elements, over all of a (flattened, when
/// `axis` is fj::none) or along `axis` (a's shape, each slice ranked alone); ties by `method`.
/// NaN anywhere in a ranked slice makes its ranks all NaN. The result has the default float
/// dtype. -0.0 and 0.0 tie, as JAX's sort canonicalizes them. Ranks are counted by comparing every
/// pair in a slice (n^2 work and memory for n elements), where JAX sorts; the counts are the
/// positions JAX's sort gives. fj::ValueError for an axis out of range.
inline Array rankdata(const Arg& a_in, RankMethod method = RankMethod::average,
                      std::optional<int> axis = std::nullopt) {
  Array a = a_in.value;
  int ax = -1;
  if (axis) {
    const int r = a.ndim();
    if (*axis < -r || *axis >= r)
      throw ValueError("scipy.stats.rankdata: axis " + std::to_string(*axis) +
                       " is out of range for a " + a.aval().str());
    ax = *axis < 0 ? *axis + r : *axis;
    a = fj::moveaxis(a, ax, -1);
  } else {
    a = a.ravel();
  }
  const DType out = default_float_dtype();
  const std::int64_t n = a.shape()[a.ndim() - 1];
  // ai[..., i, j] = a_i, aj[..., i, j] = a_j; before[i, j] = j < i.
  const Array ai = fj::expand_dims(a, {a.ndim()});
  const Array aj = fj::expand_dims(a, {a.ndim() - 1});
  const Array idx = fj::iota(DType::i32, n);
  const Array before = fj::expand_dims(idx, {1}) > fj::expand_dims(idx, {0});
  const Array eq = ai == aj;
  const auto count = [&](const Array& m) { return Array(fj::sum(fj::astype(m, out), {-1})); };
  const Array lt =
      count(Array(aj < ai));  // elements sorted before a_i's ties: JAX's count[dense - 1]
  Array r;
  switch (method) {
    case RankMethod::ordinal:  // a stable sort puts a_i after its earlier ties
      r = lt + count(Array(fj::logical_and(eq, before))) + 1.0;
      break;
    case RankMethod::min:
      r = lt + 1.0;
      break;
    case RankMethod::max:  // JAX's count[dense]: the end of a_i's ties
      r = lt + count(eq);
      break;
    case RankMethod::average:  // 0.5 * (count[dense] + count[dense - 1] + 1), as JAX
      r = 0.5 * ((lt + count(eq)) + lt + 1.0);
      break;
    case RankMethod::dense: {  // the distinct values below a_i: each tie group's first element
      const Array first_j = fj::expand_dims(
          fj::logical_not(fj::any(fj::logical_and(eq, before), {-1})), {a.ndim() - 1});
      r = count(Array(fj::logical_and(aj < ai, first_j))) + 1.0;
      break;
    }
  }
  const Array has_nan = fj::any(fj::isnan(a), {-1}, true);
  r = fj::where(has_nan, std::numeric_limits<double>::quiet_NaN(), r);
  return axis ? fj::moveaxis(r, -1, ax) : r;
}

}  // namespace fj::scipy::stats
