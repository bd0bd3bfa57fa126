// Definitions of jnp.quantile's, percentile's and median's staging, and of their nan-ignoring
// forms (implementation unit only): JAX 0.10.2's `_quantile`, equation for equation.
#include "fusejit/expr/lowering_quantile.hpp"

#include <numeric>
#include <string>
#include <vector>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/expr/lowering_sort.hpp"

namespace fj::detail {

namespace {

using V = std::vector<std::int64_t>;

// A constant of dtype d as lax._const makes it (a strong literal).
Atom constant(DType d, double v) {
  return Atom::of_literal(ir::Literal::of(v, false).cast(d, false));
}

// lax.sub of two atoms, staged even when both are literals (JAX stages `n - 1` on a constant).
Atom sub(GraphBuilder& g, Atom x, Atom y) { return g.emit1(Prim::sub, {x, y}); }

// lax._isnan: x != x.
Atom isnan(GraphBuilder& g, Atom x) { return g.emit1(Prim::ne, {x, x}); }

// a with the reduced axes of a tuple `axes` moved last and merged into one, as _quantile's
// reshape with `dimensions` does (a transpose first where those dimensions are not the
// identity); returns the new a.
Atom merge_axes(GraphBuilder& g, Atom a, const V& axes) {
  const Shape s = g.aval(a).shape;
  const int nd = s.rank();
  std::vector<char> reduced(static_cast<std::size_t>(nd), 0);
  for (auto ax : axes) reduced[static_cast<std::size_t>(ax)] = 1;
  V dims(static_cast<std::size_t>(nd));
  std::iota(dims.begin(), dims.end(), 0);
  std::size_t i = 0;
  V kept_shape;
  std::int64_t merged = 1;
  for (int d = 0; d < nd; ++d) {
    if (reduced[static_cast<std::size_t>(d)]) {
      merged *= s[d];
      continue;
    }
    std::swap(dims[i++], dims[static_cast<std::size_t>(d)]);  // JAX's swap loop over `keep`
    kept_shape.push_back(s[d]);
  }
  kept_shape.push_back(merged);
  V identity(dims.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (dims != identity) a = lower_transpose(g, a, dims);
  return lower_reshape(g, a, kept_shape);
}

Atom quantile_body(GraphBuilder& g, Atom a, Atom q, const QuantileSpec& s) {
  const TypedDType at = typed(g, a);
  a = convert(g, a, to_inexact(TypedDType{at.dtype, false}));  // promote_dtypes_inexact(a)
  const DType a_dtype = g.aval(a).dtype;
  const DType qd = g.aval(q).dtype;
  V keepdim;
  std::int64_t axis;
  if (s.axes.all) {
    if (s.keepdims) keepdim.assign(static_cast<std::size_t>(g.aval(a).shape.rank()), 1);
    a = lower_reshape(g, a, {g.aval(a).shape.size()});
    axis = 0;
  } else {
    const V axes = fj::detail::canonical_axes(g.aval(a).shape, s.axes, "fj::quantile");
    if (s.axes.tuple) {
      keepdim = g.aval(a).shape.to_vector();
      for (auto ax : axes) keepdim[static_cast<std::size_t>(ax)] = 1;
      a = merge_axes(g, a, axes);
      axis = g.aval(a).shape.rank() - 1;
    } else {
      axis = axes.at(0);
    }
  }
  const Shape q_shape = g.aval(q).shape;
  const int q_ndim = q_shape.rank();
  const V a_shape = g.aval(a).shape.to_vector();
  const auto ax = static_cast<std::size_t>(axis);
  const int ax_i = static_cast<int>(axis);
  const Atom one = constant(qd, 1.0), zero = constant(qd, 0.0);
  const TypedDType index_type{default_int_dtype(), false};  // jnp int: int64 in x64 mode
  Atom low_value, high_value, low_weight, high_weight;
  if (s.squash_nans) {
    // NaNs positive, so they sort to the end; each row counts its non-NaNs.
    a = lower_where(g, isnan(g, a), quantile_scalar(g, a, std::nan("")), a);
    a = lower_lax_sort(g, {a}, ax_i, true, 1)[0];
    Atom present = g.emit1(Prim::not_, {isnan(g, a)});
    present = convert(g, convert(g, present, index_type), {qd, false});
    Atom counts = lower_reduce(g, Prim::reduce_sum, present, {ax_i}, false, s.keepdims);
    const int after = g.aval(counts).shape.rank();
    std::vector<int> q_axes, c_axes;
    for (int d = q_ndim; d < after + q_ndim; ++d) q_axes.push_back(d);
    for (int d = 0; d < q_ndim; ++d) c_axes.push_back(d);
    if (!q_axes.empty()) q = lower_expand_dims(g, q, q_axes);
    if (!c_axes.empty()) counts = lower_expand_dims(g, counts, c_axes);
    q = g.emit1(Prim::mul, {q, sub(g, counts, one)});
    Atom low = g.emit1(Prim::floor, {q}), high = g.emit1(Prim::ceil, {q});
    high_weight = sub(g, q, low);
    low_weight = sub(g, one, high_weight);
    auto bound = [&](Atom x) {
      const Atom last = sub(g, counts, one);
      return g.emit1(Prim::max, {zero, g.emit1(Prim::min, {x, last})});
    };
    low = bound(low);
    high = bound(high);
    low = convert(g, low, index_type);
    high = convert(g, high, index_type);
    // a[index]: an iota per axis left after the reduction, the position along `axis`.
    V out_shape = q_shape.to_vector();
    const Shape after_shape = g.aval(counts).shape;
    for (int d = q_ndim; d < after_shape.rank(); ++d) out_shape.push_back(after_shape[d]);
    std::vector<Atom> index;
    const int kept = static_cast<int>(out_shape.size()) - q_ndim;
    for (int d = 0; d < kept; ++d)
      index.push_back(lower_iota(g, DType::i32, Shape(out_shape), d + q_ndim));
    auto read = [&](Atom position) {
      std::vector<Atom> idx = index;
      if (s.keepdims)
        idx[ax] = position;
      else
        idx.insert(idx.begin() + static_cast<std::ptrdiff_t>(ax), position);
      const std::vector<AtItem> items(idx.size(), AtItem{AtItem::Kind::array, 0, {}});
      return lower_index_tuple(g, a, items, idx, std::nullopt, Prim::gather,
                               ir::GatherMode::promise_in_bounds, "fj::nanquantile");
    };
    low_value = read(low);
    high_value = read(high);
  } else {
    // NaNs propagate: a row with one is all NaN.
    const Atom any_nan = lower_reduce(g, Prim::reduce_or, isnan(g, a), {ax_i}, false, true);
    a = lower_where(g, any_nan, quantile_scalar(g, a, std::nan("")), a);
    a = lower_lax_sort(g, {a}, ax_i, true, 1)[0];
    const Atom n = constant(qd, static_cast<double>(a_shape[ax]));
    q = g.emit1(Prim::mul, {q, sub(g, n, one)});
    Atom low = g.emit1(Prim::floor, {q}), high = g.emit1(Prim::ceil, {q});
    high_weight = sub(g, q, low);
    low_weight = sub(g, one, high_weight);
    low = g.emit1(Prim::clamp, {zero, low, sub(g, n, one)});
    high = g.emit1(Prim::clamp, {zero, high, sub(g, n, one)});
    low = convert(g, low, index_type);
    high = convert(g, high, index_type);
    V slice_sizes = a_shape;
    slice_sizes[ax] = 1;
    ir::IndexDims d;
    const auto rank = static_cast<std::int64_t>(a_shape.size());
    for (std::int64_t k = q_ndim; k < rank + q_ndim - (s.keepdims ? 0 : 1); ++k)
      d.window.push_back(k);
    if (!s.keepdims) d.collapsed = {axis};
    d.start_map = {axis};
    auto read = [&](Atom position) {
      const Atom at = lower_expand_dims(g, position, {q_ndim});
      return lower_gather(g, a, at, d, slice_sizes, ir::GatherMode::promise_in_bounds, "None");
    };
    low_value = read(low);
    high_value = read(high);
    if (q_ndim == 1) {
      low_weight = broadcast_np(g, low_weight, g.aval(low_value).shape.to_vector(), {0}, 1);
      high_weight = broadcast_np(g, high_weight, g.aval(high_value).shape.to_vector(), {0}, 1);
    }
  }
  Atom result;
  switch (s.method) {
    case QuantileMethod::linear: {
      const TypedDType qt{qd, false};
      const Atom lo = g.emit1(Prim::mul, {convert(g, low_value, qt), low_weight});
      const Atom hi = g.emit1(Prim::mul, {convert(g, high_value, qt), high_weight});
      result = g.emit1(Prim::add, {lo, hi});
      break;
    }
    case QuantileMethod::lower:
      result = low_value;
      break;
    case QuantileMethod::higher:
      result = high_value;
      break;
    case QuantileMethod::nearest: {
      const Atom pred = g.emit1(Prim::le, {high_weight, constant(qd, 0.5)});
      result = g.emit1(Prim::select_n, {pred, high_value, low_value});
      break;
    }
    case QuantileMethod::midpoint:
      result = g.emit1(Prim::mul, {g.emit1(Prim::add, {low_value, high_value}),
                                   constant(g.aval(low_value).dtype, 0.5)});
      break;
  }
  if (s.keepdims && !keepdim.empty()) {
    if (q_ndim > 0) keepdim.insert(keepdim.begin(), q_shape[0]);
    result = lower_reshape(g, result, keepdim);
  }
  return convert(g, result, {a_dtype, false});
}

std::string variant_of(const QuantileSpec& s) {
  std::vector<std::int64_t> k;
  s.axes.key(k);
  std::string v;
  for (auto x : k) v += std::to_string(x) + ",";
  return v + std::to_string(static_cast<int>(s.method)) + (s.keepdims ? "k" : "");
}

}  // namespace

Atom quantile_scalar(GraphBuilder& b, Atom a, double v) {
  const ir::Literal l = ir::Literal::of(v, true);  // weak f32, its value not yet rounded
  return Atom::of_literal(b.aval(a).dtype == DType::f64 ? l.cast(DType::f64, true) : l);
}

Atom lower_quantile(GraphBuilder& b, Atom a, Atom q, const QuantileSpec& s) {
  return call_named(
      b, s.squash_nans ? "nanquantile" : "quantile", {a, q},
      [s](GraphBuilder& g, const std::vector<Atom>& in) {
        return quantile_body(g, in[0], in[1], s);
      },
      variant_of(s));
}

Atom lower_percentile(GraphBuilder& b, Atom a, Atom q, const QuantileSpec& s) {
  return call_named(
      b, s.squash_nans ? "nanpercentile" : "percentile", {a, q},
      [s](GraphBuilder& g, const std::vector<Atom>& in) {
        const TypedDType qt = typed(g, in[1]);
        const Atom qf = convert(g, in[1], to_inexact(qt));  // promote_dtypes_inexact(q)
        // q / 100 in q's float type (a weak q stays f64 in an f64 program, as under x64).
        const TypedDType ft = typed(g, qf);
        const Atom hundred = Atom::of_literal(ir::Literal::of(100.0, true).cast(ft.dtype, true));
        return lower_quantile(g, in[0], g.emit1(Prim::div, {qf, hundred}), s);
      },
      variant_of(s));
}

Atom lower_median(GraphBuilder& b, Atom a, const QuantileSpec& s) {
  QuantileSpec m = s;
  m.method = QuantileMethod::midpoint;
  return call_named(
      b, s.squash_nans ? "nanmedian" : "median", {a},
      [m](GraphBuilder& g, const std::vector<Atom>& in) {
        return lower_quantile(g, in[0], quantile_scalar(g, in[0], 0.5), m);
      },
      variant_of(m));
}

}  // namespace fj::detail
