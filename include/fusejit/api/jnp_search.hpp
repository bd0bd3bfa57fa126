// jnp's searching and binning functions: searchsorted, digitize, interp, isin,
// histogram_bin_edges and histogram, composed of comparisons, sums, gathers and a scatter-add
// as JAX's lax_numpy.py / setops.py, all traceable (the bins' count is static).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/jnp_arithmetic.hpp"
#include "fusejit/api/sorting.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {
namespace detail::jnp_more {

/// lax's sort comparators on x and y of one dtype: less than (or, with `or_equal`, at most) in
/// the total order sort uses, where -0 equals 0 and NaN is above everything and equals NaN.
inline Array sort_less(const Array& x, const Array& y, bool or_equal) {
  if (!is_float(x.dtype())) return or_equal ? Array(x <= y) : Array(x < y);
  const Array ny = Array(isnan(y));
  if (or_equal) return Array(logical_or(x <= y, ny));
  return Array(logical_or(x < y, logical_and(logical_not(isnan(x)), ny)));
}
/// A 1-d array of n entries reshaped to (n, 1, ..., 1), to broadcast against an array of rank r
/// (JAX vmaps the comparison over a's entries; the broadcast compares the same pairs).
inline Array column(const Array& a, int r) {
  std::vector<std::int64_t> d{a.shape()[0]};
  d.resize(static_cast<std::size_t>(r) + 1, 1);
  return reshape_dyn(a, d);
}
/// jnp.linspace(start, stop, num) on scalar arrays, as JAX's _linspace computes it:
/// start (1 - t) + stop t with t = iota / (num - 1), the last point stop itself.
inline Array linspace_arrays(const Array& start, const Array& stop, std::int64_t num) {
  const DType dt = start.dtype();
  if (num == 1) return Array(reshape(start, {1}));
  const std::int64_t div = num - 1;
  const Array step = Array(Array(iota(dt, div)) / Array(full({}, double(div), dt)));
  const Array out = Array(Array(start * Array(1.0 - step)) + Array(stop * step));
  return concatenate({out, Array(reshape(stop, {1}))}, 0);
}

}  // namespace detail::jnp_more

/// Which end of a run of equal entries searchsorted reports: before it (left) or after (right).
enum class Side {
  left,   ///< the first index where v would go (a[i-1] < v <= a[i])
  right,  ///< the last index where v would go (a[i-1] <= v < a[i])
};

/// jnp.searchsorted(a, v, side, sorter): for each element of v, the index into the sorted 1-d a
/// where it would be inserted to keep a sorted (int32, v's shape); with a sorter, a[sorter] is
/// the sorted array. Counted as JAX's compare_all method (the count of a's entries below v, in
/// the sort order where NaN is last), which gives the scan method's indices.
inline Array searchsorted(const Array& a_in, const Array& v_in, Side side = Side::left,
                          const std::optional<Array>& sorter = std::nullopt) {
  namespace M = detail::jnp_more;
  if (a_in.ndim() != 1)
    throw ValueError("fj::searchsorted: a must be 1-d, got " + a_in.aval().str() + " (v " +
                     v_in.aval().str() + ")");
  auto [a, v] = M::promote2(a_in, v_in);
  if (sorter) {
    if (!is_int(sorter->dtype()) || sorter->shape() != a.shape())
      throw ValueError("fj::searchsorted: sorter must be integers of a's shape " + a.aval().str() +
                       ", got " + sorter->aval().str());
    a = Array(take(a, *sorter));
  }
  if (a.shape()[0] == 0) return zeros(v.shape(), DType::i32);
  const Array cmp = M::sort_less(M::column(a, v.ndim()), v, side == Side::right);
  return Array(astype(Array(cmp.astype(DType::i32).sum({0})), DType::i32));
}
/// jnp.searchsorted's keyword arguments: fj::searchsorted(a, v, {.side = fj::Side::right}).
struct SearchsortedOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  Side side = Side::left;           ///< which end of a run of equal entries
  std::optional<Array> sorter{};    ///< the permutation that sorts a (a is sorted when none)
};
/// jnp.searchsorted with keyword-style options.
inline Array searchsorted(const Array& a, const Array& v, const SearchsortedOptions& o) {
  return searchsorted(a, v, o.side, o.sorter);
}

/// jnp.digitize(x, bins, right): the index of the bin of each x in the monotonic 1-d bins
/// (increasing or decreasing), through searchsorted (int32, x's shape).
inline Array digitize(const Array& x, const Array& bins, bool right = false) {
  if (bins.ndim() != 1)
    throw ValueError("fj::digitize: bins must be 1-d, got " + bins.aval().str() + " (x " +
                     x.aval().str() + ")");
  const std::int64_t n = bins.shape()[0];
  if (n == 0) return zeros(x.shape(), DType::i32);
  const Side side = right ? Side::left : Side::right;
  const Array up = searchsorted(bins, x, side);
  const Array down =
      Array(Array(full({}, double(n), DType::i32)) - searchsorted(Array(flip(bins)), x, side));
  return Array(where(Array(bins(n - 1)) >= Array(bins(0)), up, down));
}

/// interp's `left` / `right`: the value outside xp's range (none: fp's end value), or
/// extrapolation along the end segment.
struct InterpOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<double> left{};     ///< the value below xp[0] (none: fp[0])
  std::optional<double> right{};    ///< the value above xp[-1] (none: fp[-1])
  bool extrapolate_left = false;    ///< continue the first segment below xp[0]
  bool extrapolate_right = false;   ///< continue the last segment above xp[-1]
  std::optional<double> period{};   ///< x and xp taken modulo this period (left/right unused)
};

/// jnp.interp(x, xp, fp, left, right, period): the piecewise-linear interpolant through the
/// points (xp, fp) (xp increasing) at x, as JAX computes it: the segment found by searchsorted,
/// fp[i-1] + (x - xp[i-1]) / dx * df.
inline Array interp(const Array& x_in, const Array& xp_in, const Array& fp_in,
                    const InterpOptions& o = {}) {
  namespace M = detail::jnp_more;
  if (xp_in.ndim() != 1 || xp_in.shape() != fp_in.shape())
    throw ValueError("fj::interp: xp and fp must be 1-d of one length, got xp " +
                     xp_in.aval().str() + " and fp " + fp_in.aval().str());
  auto [x, xp] = M::promote2_inexact(x_in, xp_in);
  Array fp = inexact(fp_in);
  if (o.period) {
    const double period = std::abs(*o.period);
    x = Array(x % period);
    xp = Array(xp % period);
    const std::vector<Array> kv = lax::sort(std::vector<Array>{xp, fp}, 0, true, 1);
    xp = kv[0], fp = kv[1];
    const std::int64_t n = xp.shape()[0];
    xp = concatenate(
        {Array(Array(xp(range(n - 1, n))) - period), xp, Array(Array(xp(range(0, 1))) + period)});
    fp = concatenate({Array(fp(range(n - 1, n))), fp, Array(fp(range(0, 1)))});
  }
  const std::int64_t n = xp.shape()[0];
  const Array i = Array(clip(searchsorted(xp, x, Side::right), 1, n - 1));
  const Array im1 = Array(i - 1);
  const Array fp_i = Array(take(fp, i)), fp_im1 = Array(take(fp, im1));
  const Array xp_i = Array(take(xp, i)), xp_im1 = Array(take(xp, im1));
  const Array df = Array(fp_i - fp_im1), dx = Array(xp_i - xp_im1);
  const Array delta = Array(x - xp_im1);
  // np.spacing(finfo(dtype).eps): dx this small counts as 0, to keep gradients finite.
  const double tiny = xp.dtype() == DType::f64 ? 0x1p-104 : 0x1p-46;
  const Array dx0 = Array(abs(dx) <= tiny);
  Array f = Array(
      where(dx0, fp_im1, Array(fp_im1 + Array(Array(delta / Array(where(dx0, 1.0, dx))) * df))));
  if (!o.extrapolate_left && !o.period) {
    const Array l = o.left ? Array(full({}, *o.left, f.dtype())) : Array(fp(0));
    f = Array(where(x < Array(xp(0)), l, f));
  }
  if (!o.extrapolate_right && !o.period) {
    const Array r = o.right ? Array(full({}, *o.right, f.dtype())) : Array(fp(n - 1));
    f = Array(where(x > Array(xp(n - 1)), r, f));
  }
  return f;
}

/// jnp.isin(element, test_elements, invert): whether each element equals some test element
/// (bool, element's shape), by JAX's compare_all method; `invert` gives the negation.
inline Array isin(const Array& element, const Array& test_elements, bool invert = false) {
  namespace M = detail::jnp_more;
  auto [e0, t0] = M::promote2(element, test_elements);
  const Array e = Array(reshape(e0, {e0.size()})), t = Array(reshape(t0, {t0.size()}));
  Array r;
  if (e.size() == 0 || t.size() == 0)
    r = invert ? ones(e.shape(), DType::bool_) : zeros(e.shape(), DType::bool_);
  else if (invert)
    r = Array(Array(Array(reshape(e, {e.size(), 1})) != Array(reshape(t, {1, t.size()}))).all({1}));
  else
    r = Array(Array(Array(reshape(e, {e.size(), 1})) == Array(reshape(t, {1, t.size()}))).any({1}));
  return reshape_dyn(r, element.shape().to_vector());
}

/// histogram's bins: a count of equal bins over the range, or the bin edges themselves.
using Bins = std::variant<std::int64_t, Array>;

/// jnp.histogram / histogram_bin_edges' keyword arguments.
struct HistogramOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<std::pair<double, double>>
      range{};                     ///< the span of equal bins (none: a's min, max)
  std::optional<Array> weights{};  ///< each element's weight (a's shape)
  bool density = false;            ///< counts divided by the widths and total
};

/// jnp.histogram_bin_edges(a, bins, range): the given edges (in a's float dtype), or bins + 1
/// equally spaced edges over the range (a's min and max when not given; a half either side when
/// the two are equal). bins < 1 is an fj::ValueError.
inline Array histogram_bin_edges(const Array& a, const Bins& bins, const HistogramOptions& o = {}) {
  const DType dt = inexact_dtype(a);
  if (const Array* edges = std::get_if<Array>(&bins)) {
    if (edges->ndim() != 1)
      throw ValueError("fj::histogram_bin_edges: bins must be a count or 1-d edges, got " +
                       edges->aval().str());
    return Array(astype(*edges, dt));
  }
  const std::int64_t nbins = std::get<std::int64_t>(bins);
  if (nbins < 1)
    throw ValueError("fj::histogram_bin_edges: bins must be positive, got " +
                     std::to_string(nbins) + " for a " + a.aval().str());
  Array lo, hi;
  if (o.range) {
    lo = full({}, o.range->first, dt), hi = full({}, o.range->second, dt);
  } else {
    if (a.size() == 0)
      throw ValueError("fj::histogram_bin_edges: an empty a " + a.aval().str() +
                       " has no range; pass range");
    lo = Array(astype(Array(a.min()), dt)), hi = Array(astype(Array(a.max()), dt));
  }
  const Array same = Array(Array(hi - lo) == 0.0);
  const Array lo2 = Array(where(same, Array(lo - 0.5), lo));
  const Array hi2 = Array(where(same, Array(hi + 0.5), hi));
  return detail::jnp_more::linspace_arrays(lo2, hi2, nbins + 1);
}

/// jnp.histogram(a, bins, range, weights, density): (counts, bin edges). Each element falls in
/// the bin whose edges hold it, the last bin closed on the right; values outside are dropped.
/// The counts are a's float dtype (the weights' sums), divided by the bin widths and the total
/// with density.
inline std::pair<Array, Array> histogram(const Array& a_in, const Bins& bins = std::int64_t{10},
                                         const HistogramOptions& o = {}) {
  namespace M = detail::jnp_more;
  Array a = inexact(a_in);
  Array w = ones_like(a);
  if (o.weights) {
    if (o.weights->shape() != a.shape())
      throw ValueError("fj::histogram: weights " + o.weights->aval().str() +
                       " must have a's shape " + a.aval().str());
    auto [a2, w2] = M::promote2_inexact(a, *o.weights);
    a = a2, w = w2;
  }
  const Array edges = histogram_bin_edges(a, bins, o);
  const std::int64_t ne = edges.shape()[0];
  Array idx = searchsorted(edges, a, Side::right);
  idx = Array(where(a == Array(edges(ne - 1)), Array(full({}, double(ne - 1), DType::i32)), idx));
  const Array flat_idx = Array(reshape(idx, {idx.size()}));
  const Array flat_w = Array(reshape(w, {w.size()}));
  Array counts = Array(Array(zeros({ne}, w.dtype()).at(flat_idx).add(flat_w))(range(1, ne)));
  if (o.density) {
    const Array widths = Array(Array(edges(range(1, ne))) - Array(edges(range(0, ne - 1))));
    counts = Array(Array(counts / widths) / Array(counts.sum()));
  }
  return {counts, edges};
}

}  // namespace fj
