// jnp-level shape ops, static indexing and iota, staged as JAX stages them (implementation unit
// only): flip, squeeze, expand_dims, broadcast_to, x[...] with static indices, iota.
#include <algorithm>
#include <string>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

namespace {

std::string axes_str(const std::vector<int>& axes) {
  std::vector<std::int64_t> v(axes.begin(), axes.end());
  return ir::tuple_str(v);
}

// Axis `ax` of a rank-r array, negative counting from the end; out of range raises.
std::int64_t canonical_axis(int ax, int r, const char* what, const Shape& shape) {
  if (ax < -r || ax >= r)
    throw ShapeError(std::string(what) + ": axis " + std::to_string(ax) +
                     " is out of range for an array of shape " + shape.str());
  return ax < 0 ? ax + r : ax;
}

// The axes, canonical, in the given order; a repeated axis raises.
std::vector<std::int64_t> canonical_axes(const std::vector<int>& axes, int r, const char* what,
                                         const Shape& shape) {
  std::vector<std::int64_t> out;
  for (int ax : axes) {
    const std::int64_t d = canonical_axis(ax, r, what, shape);
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw ShapeError(std::string(what) + ": axis " + std::to_string(ax) + " is repeated in " +
                       axes_str(axes) + " for an array of shape " + shape.str());
    out.push_back(d);
  }
  return out;
}

Atom emit_rev(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& dims) {
  ir::Params p;
  p.items.push_back({"dimensions", dims, true});
  return b.emit1(Prim::rev, {x}, std::move(p));
}

// lax.squeeze: nothing to do for no dimensions.
Atom emit_squeeze(GraphBuilder& b, Atom x, std::vector<std::int64_t> dims) {
  if (dims.empty()) return x;
  std::sort(dims.begin(), dims.end());
  ir::Params p;
  p.items.push_back({"dimensions", dims, true});
  return b.emit1(Prim::squeeze, {x}, std::move(p));
}

Atom emit_broadcast_in_dim(GraphBuilder& b, Atom x, const Shape& shape,
                           const std::vector<std::int64_t>& dims) {
  ir::Params p;
  p.items.push_back({"shape", shape.to_vector(), false});
  p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
  return b.emit1(Prim::broadcast_in_dim, {x}, std::move(p));
}

}  // namespace

Atom lower_flip(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes) {
  const Shape s = b.aval(x).shape;
  std::vector<std::int64_t> dims;
  if (all_axes)
    for (int d = 0; d < s.rank(); ++d) dims.push_back(d);
  else
    dims = canonical_axes(axes, s.rank(), "fj::flip", s);
  return call_named(
      b, "_flip", {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) { return emit_rev(g, in[0], dims); },
      ir::tuple_str(dims));
}

Atom lower_squeeze(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes) {
  const Shape s = b.aval(x).shape;
  std::vector<std::int64_t> dims;
  if (all_axes) {
    for (int d = 0; d < s.rank(); ++d)
      if (s[d] == 1) dims.push_back(d);
  } else {
    dims = canonical_axes(axes, s.rank(), "fj::squeeze", s);
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (s[static_cast<int>(dims[i])] != 1)
        throw ShapeError("fj::squeeze: cannot squeeze axis " + std::to_string(axes[i]) +
                         " of an array of shape " + s.str() + ": its size is " +
                         std::to_string(s[static_cast<int>(dims[i])]) + ", not 1");
  }
  return emit_squeeze(b, x, std::move(dims));
}

Atom lower_expand_dims(GraphBuilder& b, Atom x, const std::vector<int>& axes) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank() + static_cast<int>(axes.size());
  if (r > kMaxRank)
    throw ShapeError("fj::expand_dims: " + std::to_string(axes.size()) +
                     " new axes for an array of shape " + s.str() + " exceed rank " +
                     std::to_string(kMaxRank));
  std::vector<std::int64_t> inserted;
  for (int ax : axes) {
    if (ax < -r || ax >= r)
      throw ShapeError("fj::expand_dims: axis " + std::to_string(ax) +
                       " is out of range for the result of rank " + std::to_string(r) +
                       " (an array of shape " + s.str() + " with " + std::to_string(axes.size()) +
                       " new axes)");
    const std::int64_t d = ax < 0 ? ax + r : ax;
    if (std::find(inserted.begin(), inserted.end(), d) != inserted.end())
      throw ShapeError("fj::expand_dims: axis " + std::to_string(ax) + " is repeated in " +
                       axes_str(axes) + " for an array of shape " + s.str());
    inserted.push_back(d);
  }
  if (inserted.empty()) return x;
  Shape out;
  std::vector<std::int64_t> dims;
  for (int d = 0, k = 0; d < r; ++d) {
    if (std::find(inserted.begin(), inserted.end(), d) != inserted.end()) {
      out.push_back(1);
    } else {
      dims.push_back(d);
      out.push_back(s[k++]);
    }
  }
  return emit_broadcast_in_dim(b, x, out, dims);
}

Atom lower_broadcast_to(GraphBuilder& b, Atom x, const Shape& shape) {
  const Shape s = b.aval(x).shape;
  if (s == shape) return x;
  const int lead = shape.rank() - s.rank();
  bool ok = lead >= 0;
  for (int i = 0; ok && i < s.rank(); ++i) ok = s[i] == 1 || s[i] == shape[lead + i];
  if (!ok)
    throw ShapeError("fj::broadcast_to: cannot broadcast an array of shape " + s.str() +
                     " to shape " + shape.str());
  std::vector<std::int64_t> dims;
  for (int i = 0; i < s.rank(); ++i) dims.push_back(lead + i);
  return emit_broadcast_in_dim(b, x, shape, dims);
}

Atom lower_index(GraphBuilder& b, Atom x, const std::vector<Index>& index) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank();
  if (static_cast<int>(index.size()) > r)
    throw ShapeError("fj::Array::operator(): too many indices for an array of shape " + s.str() +
                     ": " + std::to_string(index.size()) + " were given");
  // JAX's NDIndexer.to_static_slice: one (start, limit, stride) per axis, the axes to reverse
  // (negative steps) and the axes to squeeze (integer indices).
  std::vector<std::int64_t> start, limit, strides, rev_axes, squeeze_axes;
  for (int d = 0; d < r; ++d) {
    const std::int64_t n = s[d];
    const Index ix = d < static_cast<int>(index.size()) ? index[static_cast<std::size_t>(d)]
                                                        : Index{true, 0, Range{}};
    if (!ix.is_range) {
      const std::int64_t i = ix.i < 0 ? ix.i + n : ix.i;
      if (i < 0 || i >= n)
        throw ShapeError("fj::Array::operator(): index " + std::to_string(ix.i) +
                         " is out of range for axis " + std::to_string(d) +
                         " of an array of shape " + s.str());
      start.push_back(i), limit.push_back(i + 1), strides.push_back(1);
      squeeze_axes.push_back(d);
      continue;
    }
    // Python's slice.indices(n): defaults by direction, negative bounds from the end, clamped.
    if (ix.r.step == 0) throw ValueError("fj::Array::operator(): slice step cannot be zero");
    // A step of n or more takes one element, as one of n does; clamping huge ones keeps -step
    // and the shape rule's (limit - start + step - 1) from overflowing near INT64_MIN/MAX.
    const std::int64_t step_max = std::max<std::int64_t>(n, std::int64_t{1} << 32);
    const std::int64_t step = std::clamp(ix.r.step, -step_max, step_max);
    auto adjust = [&](std::optional<std::int64_t> v, std::int64_t if_none) {
      if (!v) return if_none;
      std::int64_t a = *v;
      if (a < 0) {
        a += n;
        if (a < 0) a = step < 0 ? -1 : 0;
      } else if (a >= n) {
        a = step < 0 ? n - 1 : n;
      }
      return a;
    };
    const std::int64_t lo = adjust(ix.r.start, step < 0 ? n - 1 : 0);
    const std::int64_t hi = adjust(ix.r.stop, step < 0 ? -1 : n);
    if (step < 0) {
      // The same elements in increasing order, then reversed.
      const std::int64_t gap = lo - hi - 1 < 0 ? hi + 1 - lo : lo - hi - 1;
      const std::int64_t first = std::min(n, hi + 1 + gap % -step);
      start.push_back(first), limit.push_back(std::max(first, lo + 1)), strides.push_back(-step);
      rev_axes.push_back(d);
    } else {
      start.push_back(lo), limit.push_back(std::max(lo, hi)), strides.push_back(step);
    }
  }
  const bool unit = std::all_of(strides.begin(), strides.end(), [](auto v) { return v == 1; });
  bool trivial = unit;
  for (int d = 0; trivial && d < r; ++d)
    trivial = start[static_cast<std::size_t>(d)] == 0 && limit[static_cast<std::size_t>(d)] == s[d];
  if (!trivial) {
    ir::Params p;
    p.items.push_back({"limit_indices", limit, true});
    p.items.push_back({"start_indices", start, true});
    if (unit)
      p.items.push_back({"strides", std::string("None"), true});
    else
      p.items.push_back({"strides", strides, true});
    x = b.emit1(Prim::slice, {x}, std::move(p));
  }
  if (!rev_axes.empty()) x = emit_rev(b, x, rev_axes);
  return emit_squeeze(b, x, squeeze_axes);
}

Atom lower_iota(GraphBuilder& b, DType dtype, const Shape& shape, int dimension) {
  const int r = shape.rank();
  if (dimension < -r || dimension >= r)
    throw ShapeError("fj::iota: dimension " + std::to_string(dimension) +
                     " is out of range for shape " + shape.str());
  if (dtype == DType::bool_) throw DTypeError("fj::iota: the dtype must be numeric, got bool");
  ir::Params p;
  p.items.push_back({"dimension", std::int64_t{dimension < 0 ? dimension + r : dimension}, true});
  p.items.push_back({"dtype", dtype, true});
  p.items.push_back({"shape", shape.to_vector(), true});
  p.items.push_back({"sharding", std::string("None"), true});
  return b.emit1(Prim::iota, {}, std::move(p));
}

}  // namespace fj::detail
