// Definitions of the integer-array indexing and .at[] lowerings, staged as JAX 0.10.2's
// jnp indexing (_rewriting_take, _scatter_update, take, take_along_axis) stages them
// (implementation unit only).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"

namespace fj::detail {

namespace {

using V = std::vector<std::int64_t>;

V iota_dims(std::int64_t from, std::int64_t to) {
  V v;
  for (std::int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Integer-array indices only: a float (or bool) index array raises, naming the caller.
void check_int(const GraphBuilder& b, Atom idx, const char* fn) {
  const ir::Aval a = b.aval(idx);
  // A mask's result has as many elements as it has true values: a shape no trace can know, so
  // JAX refuses it under jit too (NonConcreteBooleanIndexError).
  if (a.dtype == DType::bool_)
    throw DTypeError(std::string(fn) +
                     ": boolean index arrays (masks) are not supported, the result's shape would "
                     "depend on their values; use fj::where(mask, x, fill), or the integer indices "
                     "fj::nonzero(mask, size) instead, got bool[" +
                     a.shape.csv() + "]");
  if (!is_int(a.dtype))
    throw DTypeError(std::string(fn) + ": indices must be an integer array, got " +
                     std::string(long_name(a.dtype)) + "[" + a.shape.csv() + "]");
}

std::int64_t axis_in(int axis, int rank, const Shape& s, const char* fn) {
  if (axis < -rank || axis >= rank)
    throw ShapeError(std::string(fn) + ": axis " + std::to_string(axis) +
                     " is out of range for an array of shape " + s.str());
  return axis < 0 ? axis + rank : axis;
}

Atom int_literal(GraphBuilder& b, Atom like, std::int64_t v) {
  return Atom::of_literal(ir::Literal::of(v, true).cast(b.aval(like).dtype, false));
}

// jnp's negative-index normalization: i < 0 ? i + n : i (select_n; through jnp.where, a
// `jit[name=_where]`, in take).
Atom normalize(GraphBuilder& b, Atom i, std::int64_t n, bool via_where) {
  const Atom neg = lower_binary(b, Prim::lt, i, int_literal(b, i, 0));
  const Atom wrapped = lower_binary(b, Prim::add, i, int_literal(b, i, n));
  if (via_where) return lower_where(b, neg, wrapped, i);
  return b.emit1(Prim::select_n, {neg, i, wrapped});
}

// An index array with a trailing axis of 1 (broadcast_in_dim), the index-vector axis.
Atom as_index_vector(GraphBuilder& b, Atom i) {
  const Shape s = b.aval(i).shape;
  V to = s.to_vector();
  to.push_back(1);
  ir::Params p;
  p.items.push_back({"shape", to, false});
  p.items.push_back({"broadcast_dimensions", iota_dims(0, s.rank()), s.rank() > 0});
  return b.emit1(Prim::broadcast_in_dim, {i}, std::move(p));
}

// The fill_value take and take_along_axis print: NaN for floats, the lowest value of signed
// integers, the highest of unsigned ones (JAX computes it before staging the gather).
std::string default_fill(DType d) {
  if (is_float(d)) return "nan";
  if (d == DType::bool_) return "True";
  if (d == DType::u32) return std::to_string(std::numeric_limits<std::uint32_t>::max());
  if (d == DType::i64) return std::to_string(std::numeric_limits<std::int64_t>::lowest());
  return std::to_string(std::numeric_limits<std::int32_t>::lowest());
}

// The binary primitive a scatter's update_jaxpr applies.
Prim combine_of(Prim scatter) {
  const Prim combines[][2] = {{Prim::scatter_add, Prim::add},
                              {Prim::scatter_mul, Prim::mul},
                              {Prim::scatter_min, Prim::min},
                              {Prim::scatter_max, Prim::max}};
  for (const auto& [from, to] : combines)
    if (from == scatter) return to;
  throw ValueError(std::string(ir::name(scatter)) + " is not a scatter with an update_jaxpr");
}

// A scatter's update_jaxpr: { lambda ; a:T[] b:T[]. let c:T[] = add a b in (c,) } (mul, min,
// max for the others).
ir::GraphPtr make_combine_jaxpr(Prim combine, DType d) {
  ir::Graph g;
  const ir::VarId x = g.new_var(ir::Aval{d, Shape{}, false});
  const ir::VarId y = g.new_var(ir::Aval{d, Shape{}, false});
  const ir::VarId z = g.new_var(ir::Aval{d, Shape{}, false});
  g.invars = {x, y};
  g.eqns.push_back(ir::Eqn{combine, {Atom::of_var(x), Atom::of_var(y)}, {z}, {}});
  g.outvars = {Atom::of_var(z)};
  return std::make_shared<const ir::Graph>(std::move(g));
}

// One update_jaxpr per combine and dtype, shared by every scatter, as JAX caches its
// _reduction_jaxpr: two scatters in one program print it once, hoisted as `let jaxpr = ...`.
ir::GraphPtr combine_jaxpr(Prim combine, DType d) {
  static const std::map<std::pair<Prim, DType>, ir::GraphPtr> shared = [] {
    std::map<std::pair<Prim, DType>, ir::GraphPtr> m;
    for (Prim c : {Prim::add, Prim::mul, Prim::min, Prim::max})
      for (DType t : {DType::bool_, DType::i32, DType::i64, DType::u32, DType::f32, DType::f64})
        m[{c, t}] = make_combine_jaxpr(c, t);
    return m;
  }();
  return shared.at({combine, d});
}

// A non-weak int32 literal (jnp.array(v, int32), JAX's index dtype), or a weak one
// (jnp.asarray of a Python int).
Atom i32_literal(std::int64_t v, bool weak = false) {
  return Atom::of_literal(ir::Literal::of(v, true).cast(DType::i32, weak));
}

Atom emit_bcast(GraphBuilder& b, Atom a, const V& shape, const V& dims) {
  ir::Params p;
  p.items.push_back({"shape", shape, false});
  p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
  return b.emit1(Prim::broadcast_in_dim, {a}, std::move(p));
}

Atom emit_reverse(GraphBuilder& b, Atom a, const V& dims) {
  if (dims.empty()) return a;
  ir::Params p;
  p.items.push_back({"dimensions", dims, true});
  return b.emit1(Prim::rev, {a}, std::move(p));
}

// core.canonicalize_slice: the first index in the slice's order, the step and the length.
struct SliceCanon {
  std::int64_t start, stop, step, size;
};
SliceCanon canonicalize(const Range& r, std::int64_t n) {
  // A step beyond int32 takes one element as a step of n does; clamping keeps -step defined.
  const std::int64_t big = std::int64_t{1} << 31;
  const std::int64_t step = std::clamp(r.step, -big, big);
  auto clamp = [&](std::int64_t i) {
    if (i >= 0) return step > 0 ? std::min(n, i) : std::min(n - 1, i);
    return step > 0 ? std::max<std::int64_t>(0, n + i) : std::max<std::int64_t>(-1, n + i);
  };
  const std::int64_t start = r.start ? clamp(*r.start) : (step > 0 ? 0 : n - 1);
  const std::int64_t stop = r.stop ? clamp(*r.stop) : (step > 0 ? n : -1);
  const std::int64_t gap = step > 0 ? step : -step;
  const std::int64_t dist = step > 0 ? stop - start : start - stop;
  return {start, stop, step, std::max<std::int64_t>(0, dist + gap - 1) / gap};
}

// NumPy broadcasting of the advanced indices' shapes; shapes that do not broadcast raise.
Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* fn) {
  int rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.rank());
  V out(static_cast<std::size_t>(rank), 1);
  for (const Shape& s : shapes)
    for (int a = 0; a < s.rank(); ++a) {
      std::int64_t& o = out[static_cast<std::size_t>(rank - s.rank() + a)];
      if (s[a] == o || s[a] == 1) continue;
      if (o != 1) {
        std::string all;
        for (const Shape& t : shapes) all += (all.empty() ? "" : " and ") + t.str();
        throw ShapeError(std::string(fn) + ": index arrays of shapes " + all +
                         " do not broadcast together");
      }
      o = s[a];
    }
  return Shape(out);
}

// lax.dynamic_slice's allow_negative_indices: i < 0 ? i + n : i, staged even for a literal
// (jnp's start indices are arrays, not Python ints, so nothing folds).
Atom wrap_start(GraphBuilder& b, Atom i, std::int64_t n) {
  const DType d = b.aval(i).dtype;
  if (is_unsigned(d)) return i;
  const bool weak = b.aval(i).weak;
  const Atom zero = Atom::of_literal(ir::Literal::of(0, true).cast(d, weak));
  const Atom size = Atom::of_literal(ir::Literal::of(n, true).cast(d, weak));
  const Atom neg = b.emit1(Prim::lt, {i, zero});
  const Atom wrapped = b.emit1(Prim::add, {i, size});
  return b.emit1(Prim::select_n, {neg, i, wrapped});
}

// jnp's _dynamic_slice path of x[...]: integers and rank-0 arrays as start indices, slices of
// step 1 or -1 as sizes (-1 reversed after), the integer axes squeezed.
Atom dynamic_get(GraphBuilder& b, Atom x, const std::vector<AtItem>& items,
                 const std::vector<Atom>& arr) {
  const Shape xs = b.aval(x).shape;
  std::vector<Atom> starts{x};
  V sizes, rev, squeeze;
  for (int d = 0; d < xs.rank(); ++d) {
    const AtItem& it = items[static_cast<std::size_t>(d)];
    if (it.kind == AtItem::Kind::range) {
      const SliceCanon c = canonicalize(it.r, xs[d]);
      const std::int64_t first = c.step < 0 ? c.stop + 1 : c.start;
      starts.push_back(i32_literal(first, true));
      sizes.push_back(c.size);
      if (c.step < 0) rev.push_back(d);
      continue;
    }
    starts.push_back(it.kind == AtItem::Kind::array ? arr[static_cast<std::size_t>(d)]
                                                    : i32_literal(it.i, true));
    sizes.push_back(1);
    squeeze.push_back(d);
  }
  // More than one start: all int32 (dynamic_slice wants one index dtype), then each wrapped.
  for (std::size_t k = 1; k < starts.size(); ++k) {
    if (starts.size() > 2) starts[k] = convert(b, starts[k], {DType::i32, false});
    starts[k] = wrap_start(b, starts[k], xs[static_cast<int>(k - 1)]);
  }
  ir::Params p;
  p.items.push_back({"slice_sizes", sizes, true});
  Atom y = emit_reverse(b, b.emit1(Prim::dynamic_slice, std::move(starts), std::move(p)), rev);
  if (squeeze.empty()) return y;
  ir::Params q;
  q.items.push_back({"dimensions", squeeze, true});
  return b.emit1(Prim::squeeze, {y}, std::move(q));
}

// A NumPy index with its ellipsis expanded: one item per axis of x (the axes after the given
// items taken whole) and where the new axes go, `newaxes_before[d]` of them right before x's
// axis d; after the last given item they precede the implicit whole axes (jnp's
// expand_ellipses). `contiguous`: jnp's advanced_axes_are_contiguous, over the index as
// written, where a new axis and `...` hold positions too.
struct ExpandedIndex {
  std::vector<AtItem> axes;
  std::vector<int> newaxes_before;
  int newaxes = 0;
  bool contiguous = true;
};

ExpandedIndex expand_index(const std::vector<AtItem>& items, const Shape& xs, const char* fn) {
  const int r = xs.rank();
  int given = 0, ellipses = 0, newaxes = 0;
  for (const AtItem& it : items)
    if (it.kind == AtItem::Kind::ellipsis)
      ++ellipses;
    else if (it.kind == AtItem::Kind::newaxis)
      ++newaxes;
    else
      ++given;
  if (ellipses > 1)
    throw ShapeError(std::string(fn) + ": an index can only have a single ellipsis, " +
                     std::to_string(ellipses) + " were given for an array of shape " + xs.str());
  if (given > r)
    throw ShapeError(std::string(fn) + ": too many indices for an array of shape " + xs.str() +
                     ": " + std::to_string(given) + " were given");
  if (r + newaxes > kMaxRank)
    throw ShapeError(std::string(fn) + ": " + std::to_string(newaxes) +
                     " new axes for an array of shape " + xs.str() + " exceed rank " +
                     std::to_string(kMaxRank));
  ExpandedIndex e;
  e.newaxes_before.assign(static_cast<std::size_t>(r) + 1, 0);
  e.newaxes = newaxes;
  std::vector<std::size_t> advanced_at;
  for (std::size_t p = 0; p < items.size(); ++p) {
    const AtItem& it = items[p];
    if (it.kind == AtItem::Kind::newaxis) {
      ++e.newaxes_before[e.axes.size()];
    } else if (it.kind == AtItem::Kind::ellipsis) {
      e.axes.resize(e.axes.size() + static_cast<std::size_t>(r - given));
    } else {
      if (it.kind != AtItem::Kind::range) advanced_at.push_back(p);
      e.axes.push_back(it);
    }
  }
  e.axes.resize(static_cast<std::size_t>(r));
  for (std::size_t k = 1; k < advanced_at.size(); ++k)
    e.contiguous = e.contiguous && advanced_at[k] == advanced_at[k - 1] + 1;
  return e;
}

// The new axes after a slice or dynamic-slice read (lax.expand_dims): each lands after the
// axes that survive before it (ranges; integers are squeezed) and the new axes before it.
Atom insert_newaxes(GraphBuilder& b, Atom y, const ExpandedIndex& e) {
  std::vector<int> dims;
  int kept = 0;
  for (std::size_t d = 0; d < e.newaxes_before.size(); ++d) {
    for (int n = 0; n < e.newaxes_before[d]; ++n)
      dims.push_back(kept + static_cast<int>(dims.size()));
    if (d < e.axes.size() && e.axes[d].kind == AtItem::Kind::range) ++kept;
  }
  return lower_expand_dims(b, y, dims);
}

}  // namespace

ir::Params gather_params(const ir::IndexDims& d, const V& slice_sizes, ir::GatherMode mode,
                         const std::string& fill, bool sorted, bool unique) {
  ir::Params p;
  d.add_to(p, false);
  p.items.push_back({"fill_value", fill, true});
  p.items.push_back({"indices_are_sorted", sorted, true});
  p.items.push_back({"mode", ir::mode_str(mode), true});
  p.items.push_back({"slice_sizes", slice_sizes, true});
  p.items.push_back({"unique_indices", unique, true});
  return p;
}

ir::Params scatter_params(Prim scatter, const ir::IndexDims& d, DType dtype, ir::GatherMode mode,
                          bool sorted, bool unique) {
  ir::Params p;
  d.add_to(p, true);
  p.items.push_back({"indices_are_sorted", sorted, true});
  p.items.push_back({"mode", ir::mode_str(mode), true});
  p.items.push_back({"unique_indices", unique, true});
  p.items.push_back({"update_consts", V{}, true});
  if (scatter == Prim::scatter)
    p.items.push_back({"update_jaxpr", std::string("None"), true});
  else
    p.items.push_back({"update_jaxpr", combine_jaxpr(combine_of(scatter), dtype), true});
  return p;
}

Atom lower_gather(GraphBuilder& b, Atom x, Atom indices, const ir::IndexDims& d,
                  const V& slice_sizes, ir::GatherMode mode, const std::string& fill, bool sorted,
                  bool unique) {
  return b.emit1(Prim::gather, {x, indices},
                 gather_params(d, slice_sizes, mode, fill, sorted, unique));
}

Atom lower_scatter(GraphBuilder& b, Prim scatter, Atom x, Atom indices, Atom updates,
                   const ir::IndexDims& d, ir::GatherMode mode, bool sorted, bool unique) {
  return b.emit1(scatter, {x, indices, updates},
                 scatter_params(scatter, d, b.aval(x).dtype, mode, sorted, unique));
}

Atom lower_index_tuple(GraphBuilder& b, Atom x, const std::vector<AtItem>& items_in,
                       const std::vector<Atom>& arrays, std::optional<Atom> updates, Prim update,
                       ir::GatherMode mode, const char* fn) {
  const Shape xs = b.aval(x).shape;
  const int r = xs.rank();
  // One item per axis: `...` and the axes not indexed taken whole; new axes set aside.
  const ExpandedIndex ex = expand_index(items_in, xs, fn);
  std::vector<AtItem> raw = ex.axes, items = raw;
  std::vector<Atom> arr(static_cast<std::size_t>(r));
  std::size_t next = 0;
  bool any_array = false, advanced = false, unit_steps = true;
  V adv_axes;  // the axes of integers and arrays, NumPy's advanced indices
  for (int d = 0; d < r; ++d) {
    AtItem& it = items[static_cast<std::size_t>(d)];
    const std::string where =
        " for axis " + std::to_string(d) + " of an array of shape " + xs.str();
    if (it.kind == AtItem::Kind::range) {
      if (it.r.step == 0) throw ValueError(std::string(fn) + ": slice step cannot be zero" + where);
      unit_steps = unit_steps && (it.r.step == 1 || it.r.step == -1);
      continue;
    }
    adv_axes.push_back(d);
    if (it.kind == AtItem::Kind::array) {
      const Atom a = arrays.at(next++);
      check_int(b, a, fn);
      arr[static_cast<std::size_t>(d)] = a;
      any_array = true;
      advanced = advanced || b.aval(a).shape.rank() > 0;
      continue;
    }
    if (it.i < -xs[d] || it.i >= xs[d])
      throw ShapeError(std::string(fn) + ": index " + std::to_string(it.i) + " is out of range" +
                       where);
    if (it.i < 0) it.i += xs[d];
  }
  if (!updates && !any_array) {
    // Static indices only: jnp's static-slice fast path (slice, rev, squeeze).
    std::vector<Index> ix;
    for (const AtItem& it : items) ix.push_back({it.kind == AtItem::Kind::range, it.i, it.r});
    return insert_newaxes(b, lower_index(b, x, ix), ex);
  }
  if (!updates && !advanced && unit_steps)
    return insert_newaxes(b, dynamic_get(b, x, raw, arr), ex);
  // jnp's _index_to_gather. Array indices are normalized first, in order.
  for (int d = 0; d < r; ++d) {
    Atom& a = arr[static_cast<std::size_t>(d)];
    if (items[static_cast<std::size_t>(d)].kind == AtItem::Kind::array &&
        !is_unsigned(b.aval(a).dtype))
      a = normalize(b, a, xs[d], false);
  }
  // NumPy moves the advanced indices to the front unless they are adjacent.
  const bool adjacent = ex.contiguous;
  std::vector<Atom> adv;
  Shape bshape;
  if (advanced) {
    std::vector<Shape> shapes;
    for (std::int64_t d : adv_axes)
      shapes.push_back(items[static_cast<std::size_t>(d)].kind == AtItem::Kind::array
                           ? b.aval(arr[static_cast<std::size_t>(d)]).shape
                           : Shape{});
    bshape = broadcast_shapes(shapes, fn);
    const bool same =
        std::all_of(shapes.begin(), shapes.end(), [&](auto& s) { return s == bshape; });
    for (std::int64_t d : adv_axes) {
      const auto& it = items[static_cast<std::size_t>(d)];
      Atom a = it.kind == AtItem::Kind::array ? arr[static_cast<std::size_t>(d)]
                                              : i32_literal(it.i, true);
      adv.push_back(same ? a : lower_broadcast_to(b, a, bshape));
    }
    for (Atom& a : adv) a = convert(b, a, {DType::i32, false});
  }
  std::vector<std::pair<Atom, std::int64_t>> gi;  // index arrays and their first axis
  // slice_shape: the result's shape, new axes included (at newaxis_dims); y_axis counts the
  // gather's own axes, which exclude them.
  V gshape, slice_shape, slice_sizes, reversed, newaxis_dims;
  ir::IndexDims dn;
  std::int64_t y_axis = 0;
  auto add_newaxes = [&](int d) {
    for (int n = 0; n < ex.newaxes_before[static_cast<std::size_t>(d)]; ++n) {
      newaxis_dims.push_back(std::ssize(slice_shape));
      slice_shape.push_back(1);
    }
  };
  for (int d = 0; d < r; ++d) {
    const bool block = advanced && d == (adjacent ? adv_axes.front() : 0);
    // Adjacent advanced indices follow the new axes before them; others lead the result.
    if (!block || adjacent) add_newaxes(d);
    if (block) {
      for (const Atom& a : adv) gi.push_back({a, std::ssize(gshape)});
      for (std::int64_t s : bshape) gshape.push_back(s), slice_shape.push_back(s);
      dn.start_map.insert(dn.start_map.end(), adv_axes.begin(), adv_axes.end());
      dn.collapsed.insert(dn.collapsed.end(), adv_axes.begin(), adv_axes.end());
      y_axis += bshape.rank();
      if (!adjacent) add_newaxes(d);
    }
    const AtItem& it = items[static_cast<std::size_t>(d)];
    if (it.kind != AtItem::Kind::range) {
      slice_sizes.push_back(1);
      if (advanced) continue;
      // A scalar index (no array of rank above 0): one more index column.
      gi.push_back({it.kind == AtItem::Kind::integer
                        ? i32_literal(it.i)
                        : convert(b, arr[static_cast<std::size_t>(d)], {DType::i32, false}),
                    std::ssize(gshape)});
      dn.collapsed.push_back(d);
      dn.start_map.push_back(d);
      continue;
    }
    const SliceCanon c = canonicalize(it.r, xs[d]);
    slice_shape.push_back(c.size);
    if (c.step == 1) {
      // A window; its start is an index column unless the slice is the whole axis.
      if (c.size != xs[d]) {
        gi.push_back({i32_literal(c.start), std::ssize(gshape)});
        dn.start_map.push_back(d);
      }
      slice_sizes.push_back(c.size);
      dn.window.push_back(y_axis);
    } else {
      // Any other step: the indices start + step * iota, in increasing order (reversed).
      Atom io = lower_iota(b, DType::i32, Shape{c.size}, 0);
      io = lower_binary(b, Prim::mul, i32_literal(c.step), io);
      io = lower_binary(b, Prim::add, i32_literal(c.start), io);
      if (c.step < 0) {
        reversed.push_back(y_axis);
        io = emit_reverse(b, io, {0});
      }
      slice_sizes.push_back(1);
      gi.push_back({io, std::ssize(gshape)});
      dn.start_map.push_back(d);
      gshape.push_back(c.size);
      dn.collapsed.push_back(d);
    }
    ++y_axis;
  }
  add_newaxes(r);
  std::sort(dn.collapsed.begin(), dn.collapsed.end());
  // The index array: one column per index, each broadcast over gshape.
  Atom indices;
  if (gi.size() == 1) {
    const Shape s = b.aval(gi[0].first).shape;
    V to = s.to_vector();
    to.push_back(1);
    indices = emit_bcast(b, gi[0].first, to, iota_dims(0, s.rank()));
  } else if (gi.size() > 1) {
    gshape.push_back(1);
    std::vector<Atom> cols;
    for (const auto& [g, at] : gi)
      cols.push_back(emit_bcast(b, g, gshape, iota_dims(at, at + b.aval(g).shape.rank())));
    ir::Params p;
    p.items.push_back({"dimension", std::ssize(gshape) - 1, true});
    indices = b.emit1(Prim::concatenate, cols, std::move(p));
  }
  const DType dtype = b.aval(x).dtype;
  if (std::find(slice_shape.begin(), slice_shape.end(), 0) != slice_shape.end()) {
    // Nothing indexed: x unchanged, or lax.full_like(x, 0) of the (empty) indexed shape.
    if (updates) return x;
    return emit_bcast(b, Atom::of_literal(ir::Literal::of(0, true).cast(dtype, false)), slice_shape,
                      {});
  }
  if (!updates) {
    const Atom g = lower_gather(b, x, indices, dn, slice_sizes, mode, "None", !advanced, !advanced);
    const Atom y = emit_reverse(b, g, reversed);
    if (newaxis_dims.empty()) return y;
    V kept;  // lax.expand_dims: y's axes are the result's other axes
    for (std::int64_t a = 0; a < std::ssize(slice_shape); ++a)
      if (std::find(newaxis_dims.begin(), newaxis_dims.end(), a) == newaxis_dims.end())
        kept.push_back(a);
    return emit_bcast(b, y, slice_shape, kept);
  }
  Atom u = convert(b, *updates, {dtype, false});
  const Shape us = b.aval(u).shape;
  bool fits = us.rank() <= std::ssize(slice_shape);
  for (int a = 0; fits && a < us.rank(); ++a)
    fits = us[a] == 1 ||
           us[a] == slice_shape[slice_shape.size() - static_cast<std::size_t>(us.rank() - a)];
  if (!fits)
    throw ShapeError(std::string(fn) + ": updates of shape " + us.str() +
                     " do not broadcast to the indexed shape " + Shape(slice_shape).str() +
                     " of an array of shape " + xs.str());
  // Broadcast to the indexed shape, the new axes squeezed out again (jnp.squeeze), reversed.
  u = lower_broadcast_to(b, u, Shape(slice_shape));
  if (!newaxis_dims.empty()) {
    ir::Params q;
    q.items.push_back({"dimensions", newaxis_dims, true});
    u = b.emit1(Prim::squeeze, {u}, std::move(q));
  }
  u = emit_reverse(b, u, reversed);
  // Every axis whole (x.at[:]): jnp scatters with an empty index array (a constant), the
  // same as combining elementwise.
  if (gi.empty()) return update == Prim::scatter ? u : lower_binary(b, combine_of(update), x, u);
  return lower_scatter(b, update, x, indices, u, dn, mode, !advanced, !advanced);
}

Atom lower_static_index(GraphBuilder& b, Atom x, const std::vector<AtItem>& items) {
  return lower_index_tuple(b, x, items, {}, std::nullopt, Prim::scatter,
                           ir::GatherMode::promise_in_bounds, "fj::Array::operator()");
}

Atom lower_take(GraphBuilder& b, Atom x, Atom idx, std::optional<int> axis, ir::GatherMode mode) {
  check_int(b, idx, "fj::take");
  const Shape xs = b.aval(x).shape;
  if (axis) (void)axis_in(*axis, xs.rank(), xs, "fj::take");
  const std::string variant =
      std::to_string(axis.value_or(-999)) + "m" + std::to_string(static_cast<int>(mode));
  return call_named(
      b, "_take", {x, idx},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom v = axis ? in[0] : lower_reshape(g, in[0], {xs.size()});
        const Shape vs = g.aval(v).shape;
        const std::int64_t ax = axis_in(axis.value_or(0), vs.rank(), vs, "fj::take");
        Atom i = in[1];
        if (mode != ir::GatherMode::clip) i = normalize(g, i, vs[static_cast<int>(ax)], true);
        const int ir_ = g.aval(i).shape.rank();
        i = as_index_vector(g, i);
        ir::IndexDims d;
        for (int a = 0; a < vs.rank(); ++a)
          if (a != ax) d.window.push_back(a < ax ? a : a - 1 + ir_);
        d.collapsed = {ax};
        d.start_map = {ax};
        V sizes = vs.to_vector();
        sizes[static_cast<std::size_t>(ax)] = 1;
        const std::string fill =
            mode == ir::GatherMode::fill_or_drop ? default_fill(g.aval(v).dtype) : "None";
        return lower_gather(g, v, i, d, sizes, mode, fill);
      },
      variant);
}

Atom lower_take_along_axis(GraphBuilder& b, Atom x, Atom idx, int axis) {
  const char* fn = "fj::take_along_axis";
  check_int(b, idx, fn);
  const Shape xs = b.aval(x).shape, is = b.aval(idx).shape;
  const std::int64_t ax = axis_in(axis, xs.rank(), xs, fn);
  bool ok = is.rank() == xs.rank();
  for (int a = 0; ok && a < xs.rank(); ++a) ok = a == ax || is[a] == xs[a];
  if (!ok)
    throw ShapeError(std::string(fn) + ": indices " + is.str() + " must have the shape of " +
                     xs.str() + " off axis " + std::to_string(ax));
  return call_named(
      b, "take_along_axis", {x, idx},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom i = normalize(g, in[1], xs[static_cast<int>(ax)], false);
        V to = is.to_vector();
        to.push_back(1);
        const Atom iv = lower_reshape(g, i, to);
        ir::IndexDims d;
        d.collapsed = {ax};
        d.start_map = {ax};
        for (int a = 0; a < xs.rank(); ++a)
          if (a != ax) {
            d.operand_batching.push_back(a);
            d.indices_batching.push_back(a);
          }
        return lower_gather(g, in[0], iv, d, V(static_cast<std::size_t>(xs.rank()), 1),
                            ir::GatherMode::fill_or_drop, default_fill(g.aval(in[0]).dtype));
      },
      std::to_string(ax));
}

}  // namespace fj::detail
