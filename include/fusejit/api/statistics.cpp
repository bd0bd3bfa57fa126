// Definitions of api/statistics.hpp (implementation unit only).
#include "fusejit/api/statistics.hpp"

#include <limits>
#include <string>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/diagonal.hpp"
#include "fusejit/expr/math_functions.hpp"

namespace fj {

Array average(const Array& a, Axes axis, const std::optional<Array>& weights, bool keepdims) {
  if (!weights) return Array(mean(a, detail::reduce_over(axis, keepdims)));
  Array w = *weights;
  if (w.shape() != a.shape()) {
    // JAX: 1-d weights along the single reduced axis, broadcast against a.
    if (axis.all || axis.list.size() != 1 || w.ndim() != 1)
      throw ValueError("fj::average: weights " + w.aval().str() + " differ from a's shape " +
                       a.aval().str() + " and are not 1-d along one given axis");
    const int ax = detail::axis_of(axis.list[0], a, "fj::average");
    if (w.shape()[0] != a.shape()[ax])
      throw ShapeError("fj::average: weights " + w.aval().str() + " differ in length from axis " +
                       std::to_string(ax) + " of " + a.aval().str());
    std::vector<std::int64_t> s(static_cast<std::size_t>(a.ndim()), 1);
    s[static_cast<std::size_t>(ax)] = w.shape()[0];
    w = detail::reshape_dyn(w, s);
  }
  const Array total = Array(sum(Array(a * w), detail::reduce_over(axis, keepdims)));
  const Array norm =
      Array(sum(Array(broadcast_to(w, a.shape())), detail::reduce_over(axis, keepdims)));
  return Array(total / norm);
}

Array cov(const Array& m, bool rowvar, bool bias, std::optional<std::int64_t> ddof) {
  if (m.ndim() > 2)
    throw ValueError("fj::cov: m must have at most two dimensions, got " + m.aval().str());
  Array x = atleast_2d(m);
  if (!is_float(x.dtype())) x = x.astype(default_float_dtype());
  if (!rowvar && x.shape()[0] != 1) x = Array(x.T());
  if (x.shape()[0] == 0) return zeros({0, 0}, x.dtype());
  const std::int64_t d = ddof.value_or(bias ? 0 : 1);
  const double fact = static_cast<double>(x.shape()[1] - d);
  const Array centered = Array(x - Array(mean(x, {1}, true)));
  const Array c = Array(Array(matmul(centered, centered.T())) / fact);
  return Array(squeeze(c));
}

Array corrcoef(const Array& x, bool rowvar) {
  const Array c = cov(x, rowvar);
  if (c.ndim() == 0) return Array(c / c);
  const Array sd = Array(sqrt(diagonal(c)));
  const Array r = Array(Array(c / Array(expand_dims(sd, {1}))) / Array(expand_dims(sd, {0})));
  return Array(clip(r, -1.0, 1.0));
}

Array count_nonzero(const Array& a, Axes axis, bool keepdims) {
  return Array(sum(Array(a != 0), detail::reduce_over(axis, keepdims))).astype(default_int_dtype());
}

namespace {
// 0.5 * sum(d * (y[..., 1:] + y[..., :-1]), -1) with y's `axis` moved last.
Array trapezoid_of(const Array& y, const Array& d) {
  const std::int64_t n = y.shape()[y.ndim() - 1];
  const Array hi = detail::slice_axis(y, y.ndim() - 1, std::min<std::int64_t>(1, n), n);
  const Array lo = detail::slice_axis(y, y.ndim() - 1, 0, std::max<std::int64_t>(0, n - 1));
  return Array(Array(sum(Array(d * Array(hi + lo)), {-1})) * 0.5);
}
}  // namespace

Array trapezoid(const Array& y, double dx, int axis) {
  return trapezoid_of(moveaxis(y, axis, -1), full_like(Array(fj::array(dx)), dx, y.dtype()));
}

Array trapezoid(const Array& y, const Array& x, int axis) {
  const Array ym = moveaxis(y, axis, -1);
  const Array xm = x.ndim() == 1 ? x : moveaxis(x, axis, -1);
  const std::int64_t n = xm.shape()[xm.ndim() - 1];
  const Array dx =
      Array(detail::slice_axis(xm, xm.ndim() - 1, std::min<std::int64_t>(1, n), n) -
            detail::slice_axis(xm, xm.ndim() - 1, 0, std::max<std::int64_t>(0, n - 1)));
  return trapezoid_of(ym, dx);
}

Array polyval(const Array& p, const Array& x) {
  if (p.ndim() != 1) throw ValueError("fj::polyval: p must be 1-d, got " + p.aval().str());
  auto step = [&x](const Array& y, const Array& c) {
    return std::make_pair(Array(y * x + c), std::tuple<>{});
  };
  return lax::scan(step, Array(zeros_like(x)), p).first;
}

Array select(const std::vector<Array>& condlist, const std::vector<Array>& choicelist,
             double default_value) {
  if (condlist.size() != choicelist.size())
    throw ValueError("fj::select: condlist and choicelist must have the same length, got " +
                     std::to_string(condlist.size()) + " and " + std::to_string(choicelist.size()));
  if (condlist.empty()) throw ValueError("fj::select: condlist must not be empty");
  // The last choice first, so that the first true condition wins.
  Array out = Array(where(condlist.back(), choicelist.back(), default_value));
  for (std::size_t i = condlist.size() - 1; i-- > 0;)
    out = Array(where(condlist[i], choicelist[i], out));
  return out;
}

Array nan_to_num(const Array& x, double nan, std::optional<double> posinf,
                 std::optional<double> neginf) {
  if (!is_float(x.dtype())) return x;
  const bool f64 = x.dtype() == DType::f64;
  const double big = f64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
  Array out = Array(where(isnan(x), full_like(x, nan), x));
  out = Array(where(Array(x == std::numeric_limits<double>::infinity()),
                    full_like(x, posinf.value_or(big)), out));
  out = Array(where(Array(x == -std::numeric_limits<double>::infinity()),
                    full_like(x, neginf.value_or(-big)), out));
  return out;
}

}  // namespace fj
