// Definitions of api/quantile.hpp (implementation unit only): the checks JAX makes on q, the
// axes and the dtypes happen here, the staging in expr/lowering_quantile.cpp.
#include "fusejit/api/quantile.hpp"

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {

namespace quantile_detail {

enum class Kind : std::uint8_t { quantile, percentile, median };

struct QuantileOp {
  Kind kind;
  detail::QuantileSpec spec;
  std::optional<double> q;  // a Python float q; else q is the second operand
  void key(std::vector<std::int64_t>& k) const {
    spec.axes.key(k);
    k.insert(k.end(), {static_cast<std::int64_t>(kind), static_cast<std::int64_t>(spec.method),
                       spec.keepdims, spec.squash_nans, q.has_value(),
                       std::bit_cast<std::int64_t>(q.value_or(0.0))});
  }
  ir::Atom lower(detail::GraphBuilder& b, ir::Atom a, ir::Atom qa) const {
    return kind == Kind::percentile ? detail::lower_percentile(b, a, qa, spec)
                                    : detail::lower_quantile(b, a, qa, spec);
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom a) const {
    if (kind == Kind::median) return detail::lower_median(b, a, spec);
    return lower(b, a, detail::quantile_scalar(b, a, *q));
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom a, ir::Atom qa) const {
    return lower(b, a, qa);
  }
};

// JAX's checks, named after the caller: q of rank 0 or 1 (and a float for quantile, whose
// arithmetic runs in q's dtype), the axes in range and not repeated.
void check(const char* fn, const Array& a, const Array* q, const Axes& axis, Kind kind) {
  if (!axis.all) (void)detail::canonical_axes(a.shape(), axis, fn);
  if (!q) return;
  if (q->ndim() > 1)
    throw ValueError(std::string(fn) + ": q must have rank <= 1, got " + q->aval().str());
  if (kind == Kind::quantile && !is_float(q->dtype()))
    throw TypeError(std::string(fn) + ": q must be a float array, got " + q->aval().str());
}

Array make(const char* fn, Kind kind, bool nan, const Array& a, const Quantiles* q, Axes axis,
           QuantileMethod method, bool keepdims) {
  const Array* qa = q && q->array ? &*q->array : nullptr;
  check(fn, a, qa, axis, kind);
  std::optional<double> scalar;
  if (q && !qa) scalar = q->scalar;
  QuantileOp op{kind, {std::move(axis), method, keepdims, nan}, scalar};
  return qa ? Array(detail::make_node(op, a, *qa)) : Array(detail::make_node(op, a));
}

}  // namespace quantile_detail

using quantile_detail::Kind;
using quantile_detail::make;

Array quantile(const Array& a, const Quantiles& q, Axes axis, QuantileMethod method,
               bool keepdims) {
  return make("fj::quantile", Kind::quantile, false, a, &q, axis, method, keepdims);
}
Array nanquantile(const Array& a, const Quantiles& q, Axes axis, QuantileMethod method,
                  bool keepdims) {
  return make("fj::nanquantile", Kind::quantile, true, a, &q, axis, method, keepdims);
}
Array percentile(const Array& a, const Quantiles& q, Axes axis, QuantileMethod method,
                 bool keepdims) {
  return make("fj::percentile", Kind::percentile, false, a, &q, axis, method, keepdims);
}
Array nanpercentile(const Array& a, const Quantiles& q, Axes axis, QuantileMethod method,
                    bool keepdims) {
  return make("fj::nanpercentile", Kind::percentile, true, a, &q, axis, method, keepdims);
}
Array median(const Array& a, Axes axis, bool keepdims) {
  return make("fj::median", Kind::median, false, a, nullptr, axis, QuantileMethod::midpoint,
              keepdims);
}
Array nanmedian(const Array& a, Axes axis, bool keepdims) {
  return make("fj::nanmedian", Kind::median, true, a, nullptr, axis, QuantileMethod::midpoint,
              keepdims);
}

}  // namespace fj
