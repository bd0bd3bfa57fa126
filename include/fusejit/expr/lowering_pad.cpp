// lax.pad, jnp.pad (every mode but linear_ramp and median), jnp.roll, jnp.tile and jnp.repeat,
// staged as JAX 0.10.2 stages them.
#include "fusejit/expr/lowering_pad.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/expr/lowering_quantile.hpp"
#include "fusejit/expr/lowering_sort.hpp"
#include "fusejit/ir/pad_config.hpp"

namespace fj::detail {

namespace {

using V = std::vector<std::int64_t>;

std::string pairs_str(const std::vector<PadPair>& w) {
  std::string s = "(";
  for (std::size_t i = 0; i < w.size(); ++i)
    s += (i ? ", (" : "(") + std::to_string(w[i].first) + ", " + std::to_string(w[i].second) + ")";
  return s + (w.size() == 1 ? ",)" : ")");
}

const char* mode_name(PadMode m) {
  static const char* const names[] = {"constant", "edge",    "reflect", "symmetric", "wrap",
                                      "maximum",  "minimum", "mean",    "empty",     "median"};
  return names[static_cast<int>(m)];
}

// lax.slice_in_dim(x, start, stop, axis): negative bounds count from the end; strides of 1
// printed as JAX prints them here (a tuple, not None).
Atom slice_in_dim(GraphBuilder& g, Atom x, std::int64_t start, std::int64_t stop, int axis) {
  const Shape s = g.aval(x).shape;
  const std::int64_t n = s[axis];
  if (start < 0) start += n;
  if (stop < 0) stop += n;
  V lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  lo[static_cast<std::size_t>(axis)] = start;
  hi[static_cast<std::size_t>(axis)] = stop;
  ir::Params p;
  p.items.push_back({"limit_indices", hi, true});
  p.items.push_back({"start_indices", lo, true});
  p.items.push_back({"strides", V(static_cast<std::size_t>(s.rank()), 1), true});
  return g.emit1(Prim::slice, {x}, std::move(p));
}

Atom concat(GraphBuilder& g, std::vector<Atom> xs, int axis) {
  ir::Params p;
  p.items.push_back({"dimension", std::int64_t{axis}, true});
  return g.emit1(Prim::concatenate, std::move(xs), std::move(p));
}

Atom emit_pad(GraphBuilder& b, Atom x, Atom v, const ir::PadConfig& c, const char* who) {
  try {
    return b.emit1(Prim::pad, {x, v}, c.params());
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(who) + ": " + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(std::string(who) + ": " + e.what());
  }
}

// jnp.repeat's scalar fast path: a new axis of `repeats` after `axis`, merged into it.
Atom repeat_scalar(GraphBuilder& g, Atom x, std::int64_t repeats, int axis) {
  const Shape s = g.aval(x).shape;
  V aux = s.to_vector(), dims;
  aux.insert(aux.begin() + axis + 1, repeats);
  for (int d = 0; d < static_cast<int>(aux.size()); ++d)
    if (d != axis + 1) dims.push_back(d);
  ir::Params p;
  p.items.push_back({"shape", aux, false});
  p.items.push_back({"broadcast_dimensions", dims, true});
  const Atom wide = g.emit1(Prim::broadcast_in_dim, {x}, std::move(p));
  V out = s.to_vector();
  out[static_cast<std::size_t>(axis)] *= repeats;
  return lower_reshape(g, wide, out);
}

// jnp.pad's edge mode: each axis gets its first and last slices repeated before and after.
Atom pad_edge(GraphBuilder& g, Atom a, const std::vector<PadPair>& w) {
  for (int i = 0; i < g.aval(a).shape.rank(); ++i) {
    const std::int64_t n = g.aval(a).shape[i];
    const auto [before, after] = w[static_cast<std::size_t>(i)];
    if (n == 0) continue;  // widths checked by lower_pad
    const Atom pb = repeat_scalar(g, slice_in_dim(g, a, 0, 1, i), before, i);
    const Atom pa = repeat_scalar(g, slice_in_dim(g, a, n - 1, n, i), after, i);
    a = concat(g, {pb, a, pa}, i);
  }
  return a;
}

// jnp.pad's reflect and symmetric modes (_pad_symmetric_or_reflect): mirror images without the
// edge (reflect) or with it (symmetric), as many as the width needs, each the current array's
// flipped slice; with reflect_type odd, reflected through the edge too (2 * edge - image, the
// edge then the image's outer end, for an axis longer than 1).
Atom pad_mirror(GraphBuilder& g, Atom a, const std::vector<PadPair>& w, bool symmetric, bool odd) {
  for (int i = 0; i < g.aval(a).shape.rank(); ++i) {
    const std::int64_t size = g.aval(a).shape[i];
    const auto [first, second] = w[static_cast<std::size_t>(i)];
    if (size == 0 || (first == 0 && second == 0)) continue;
    const std::int64_t offset = !symmetric && size > 1 ? 1 : 0;
    for (bool before : {true, false}) {
      const std::int64_t n = g.aval(a).shape[i];
      Atom edge = before ? slice_in_dim(g, a, 0, 1, i) : slice_in_dim(g, a, n - 1, n, i);
      std::int64_t padding = before ? first : second;
      while (padding > 0) {
        const std::int64_t cur = std::min(padding, size - offset);
        padding -= cur;
        const std::int64_t m = g.aval(a).shape[i];
        const std::int64_t stop = symmetric || size == 1 ? m : m - 1;
        Atom x = before ? slice_in_dim(g, a, offset, offset + cur, i)
                        : slice_in_dim(g, a, m - (cur + offset), stop, i);
        x = lower_flip(g, x, {i}, false);
        if (odd) {
          // Python's int 2, weakly typed: the image keeps x's dtype (an int32 array stays
          // int32; a float one prints 2.0:f32[]).
          const Atom two = Atom::of_literal(ir::Literal::of(std::int32_t{2}, true));
          const Atom twice = lower_binary(g, Prim::mul, two, edge);
          x = lower_binary(g, Prim::sub, twice, x);
          const std::int64_t k = g.aval(x).shape[i];
          if (size > 1)
            edge = before ? slice_in_dim(g, x, 0, 1, i) : slice_in_dim(g, x, k - 1, k, i);
        }
        a = before ? concat(g, {x, a}, i) : concat(g, {a, x}, i);
      }
    }
  }
  return a;
}

// jnp.pad's wrap mode: the array repeated, with the remainders' slices on either side; an axis
// left as it is when nothing pads it (a one-operand concatenate is its operand).
Atom pad_wrap(GraphBuilder& g, Atom a, const std::vector<PadPair>& w) {
  for (int i = 0; i < g.aval(a).shape.rank(); ++i) {
    const std::int64_t size = g.aval(a).shape[i];
    if (size == 0) continue;
    const auto [before, after] = w[static_cast<std::size_t>(i)];
    std::vector<Atom> parts;
    if (before % size) parts.push_back(slice_in_dim(g, a, size - before % size, size, i));
    for (std::int64_t k = 0; k < before / size + after / size + 1; ++k) parts.push_back(a);
    if (after % size) parts.push_back(slice_in_dim(g, a, 0, after % size, i));
    if (parts.size() > 1) a = concat(g, std::move(parts), i);
  }
  return a;
}

// jnp.pad's statistic modes (_pad_stats): per axis, the statistic over it kept as a size-1 axis
// (with stat_length, one over each side's leading or trailing slice, the lengths capped at the
// axis), rounded (jnp.round, once per side) and converted back for integers, and repeated to
// each side's width, even a width of 0.
Atom pad_stats(GraphBuilder& g, Atom a, const std::vector<PadPair>& w, PadMode mode,
               const std::vector<PadPair>& stat_length) {
  const ir::Aval av = g.aval(a);
  const bool integer = !is_float(av.dtype);
  auto stat = [&](Atom x, int i) {
    if (mode == PadMode::median) return lower_median(g, x, QuantileSpec{Axes(i), {}, true, false});
    return mode == PadMode::mean
               ? lower_mean(g, x, {i}, false, true)
               : lower_reduce(g, mode == PadMode::maximum ? Prim::reduce_max : Prim::reduce_min, x,
                              {i}, false, true);
  };
  for (int i = 0; i < av.shape.rank(); ++i) {
    std::vector<Atom> sides;
    if (stat_length.empty()) {
      sides.assign(2, stat(a, i));
    } else {
      const std::int64_t n = g.aval(a).shape[i];
      const auto [lb, la] = stat_length[stat_length.size() == 1 ? 0 : static_cast<std::size_t>(i)];
      const Atom before = slice_in_dim(g, a, 0, std::min(lb, n), i);
      const Atom after = slice_in_dim(g, a, n - std::min(la, n), n, i);
      sides = {stat(before, i), stat(after, i)};
    }
    for (Atom& s : sides)
      if (integer) s = lower_round(g, s);
    for (Atom& s : sides) s = convert(g, s, {av.dtype, av.weak});
    const auto [before, after] = w[static_cast<std::size_t>(i)];
    a = concat(g, {repeat_scalar(g, sides[0], before, i), a, repeat_scalar(g, sides[1], after, i)},
               i);
  }
  return a;
}

// _pad_empty: zeros of each side's width concatenated on, axis by axis, even a width of 0.
Atom pad_empty(GraphBuilder& g, Atom a, const std::vector<PadPair>& w) {
  const DType dt = g.aval(a).dtype;
  for (int i = 0; i < g.aval(a).shape.rank(); ++i) {
    auto zeros = [&](std::int64_t width) {
      V shape = g.aval(a).shape.to_vector();
      shape[static_cast<std::size_t>(i)] = width;
      return lower_full(g, Shape(shape), ir::Literal::of(0, false).cast(dt, false));
    };
    const auto [before, after] = w[static_cast<std::size_t>(i)];
    a = concat(g, {zeros(before), a, zeros(after)}, i);
  }
  return a;
}

// _pad_constant with an array of values: `leaves` (the Python floats) gathered into an f32 array
// as jnp.asarray gathers them (per pair: each converted and made [1], concatenated; nested pairs
// each made [1, 2], concatenated), converted to x's dtype and broadcast to (rank, 2); then one
// lax.pad per nonzero side, of its own value (a static index: slice and squeeze).
Atom pad_constant_pairs(GraphBuilder& g, Atom a, const std::vector<Atom>& leaves, bool nested,
                        const std::vector<PadPair>& w) {
  const ir::Aval av = g.aval(a);
  const int r = av.shape.rank();
  std::vector<Atom> pairs;
  for (std::size_t k = 0; k < leaves.size(); k += 2) {
    std::vector<Atom> two;
    for (std::size_t j = k; j < k + 2; ++j)
      two.push_back(lower_broadcast_to(g, convert(g, leaves[j], {DType::f32, false}), Shape{1}));
    const Atom pair = concat(g, two, 0);
    pairs.push_back(nested ? lower_broadcast_to(g, pair, Shape{1, 2}) : pair);
  }
  Atom values = nested ? concat(g, pairs, 0) : pairs[0];
  values = lower_broadcast_to(g, convert(g, values, {av.dtype, av.weak}), Shape{r, 2});
  for (int i = 0; i < r; ++i)
    for (int side = 0; side < 2; ++side) {
      const auto [lo, hi] = w[static_cast<std::size_t>(i)];
      const std::int64_t width = side == 0 ? lo : hi;
      if (width == 0) continue;
      const AtItem row{AtItem::Kind::integer, i, {}}, col{AtItem::Kind::integer, side, {}};
      const Atom v = lower_index_tuple(g, values, {row, col}, {}, std::nullopt, Prim::scatter,
                                       ir::GatherMode::promise_in_bounds, "fj::pad");
      ir::PadConfig c;
      for (int d = 0; d < r; ++d) {
        const bool here = d == i;
        c.lo.push_back(here && side == 0 ? width : 0);
        c.hi.push_back(here && side == 1 ? width : 0);
        c.interior.push_back(0);
        c.np.insert(c.np.end(), {here && side == 0, here && side == 1, 0});
      }
      a = emit_pad(g, a, v, c, "fj::pad");
    }
  return a;
}

}  // namespace

int canonical_axis(int axis, const ir::Aval& a, const char* who) {
  const int r = a.shape.rank();
  if (axis < -r || axis >= r)
    throw ShapeError(std::string(who) + ": axis " + std::to_string(axis) + " is out of range for " +
                     a.str());
  return axis < 0 ? axis + r : axis;
}

Atom lower_lax_pad(GraphBuilder& b, Atom x, Atom value, const std::vector<PadTriple>& config) {
  const ir::Aval xa = b.aval(x);
  if (typed(b, value).weak && b.aval(value).shape.rank() == 0)
    value = convert(b, value, {xa.dtype, false});
  ir::PadConfig c;
  for (const auto& t : config) {
    c.lo.push_back(t[0]);
    c.hi.push_back(t[1]);
    c.interior.push_back(t[2]);
  }
  return emit_pad(b, x, value, c, "fj::lax::pad");
}

Atom lower_pad(GraphBuilder& b, Atom x, Atom value, const std::vector<PadPair>& widths,
               PadMode mode, ReflectType reflect_type, const std::vector<PadPair>& stat_length,
               const std::vector<std::pair<double, double>>& constant_pairs) {
  const ir::Aval xa = b.aval(x);
  const int r = xa.shape.rank();
  if (widths.size() != 1 && static_cast<int>(widths.size()) != r)
    throw ShapeError("fj::pad: pad_width " + pairs_str(widths) +
                     " needs one (before, after) pair per axis of " + xa.str() +
                     ", or one for all");
  std::vector<PadPair> w;
  for (int i = 0; i < r; ++i) w.push_back(widths.size() == 1 ? widths[0] : widths[i]);
  for (int i = 0; i < r; ++i) {
    const auto [lo, hi] = w[static_cast<std::size_t>(i)];
    if (lo < 0 || hi < 0)
      throw ShapeError("fj::pad: pad_width " + pairs_str(widths) + " must be nonnegative, for " +
                       xa.str());
    if (mode != PadMode::constant && mode != PadMode::empty && xa.shape[i] == 0 &&
        (lo > 0 || hi > 0))
      throw ShapeError(std::string("fj::pad: cannot apply '") + mode_name(mode) +
                       "' padding to empty axis " + std::to_string(i) + " of " + xa.str());
  }
  if (!stat_length.empty()) {
    if (mode != PadMode::maximum && mode != PadMode::minimum && mode != PadMode::mean &&
        mode != PadMode::median)
      throw ValueError(std::string("fj::pad: stat_length applies to the maximum, minimum, mean "
                                   "and median modes, not to '") +
                       mode_name(mode) + "'");
    if (stat_length.size() != 1 && static_cast<int>(stat_length.size()) != r)
      throw ShapeError("fj::pad: stat_length " + pairs_str(stat_length) +
                       " needs one (before, after) pair per axis of " + xa.str() +
                       ", or one for all");
    for (const auto& [lo, hi] : stat_length)
      if (lo <= 0 || hi <= 0)
        throw ValueError("fj::pad: stat_length " + pairs_str(stat_length) +
                         " must be positive (a length of 0 yields no value for padding), for " +
                         xa.str());
  }
  if (b.aval(value).shape.rank() != 0)
    throw ShapeError("fj::pad: constant_values must be a scalar, got " + b.aval(value).str() +
                     " for " + xa.str());
  if (constant_pairs.size() > 1 && static_cast<int>(constant_pairs.size()) != r)
    throw ShapeError("fj::pad: constant_values has " + std::to_string(constant_pairs.size()) +
                     " (before, after) pairs for " + xa.str() +
                     ", which needs one per axis, or "
                     "one for all");
  // The jit's operands: x, then the scalar value or the pairs' values (Python floats).
  std::vector<Atom> operands{x};
  if (constant_pairs.empty()) operands.push_back(value);
  for (const auto& [lo, hi] : constant_pairs)
    for (double v : {lo, hi}) operands.push_back(Atom::of_literal(ir::Literal::of(v, true)));
  const bool nested = constant_pairs.size() > 1;
  std::string variant =
      std::to_string(static_cast<int>(mode)) + "/" + std::to_string(static_cast<int>(reflect_type));
  for (const auto& [lo, hi] : w) variant += "," + std::to_string(lo) + ":" + std::to_string(hi);
  for (const auto& [lo, hi] : stat_length)
    variant += ",s" + std::to_string(lo) + ":" + std::to_string(hi);
  variant += ",c" + std::to_string(constant_pairs.size());
  auto body = [w, mode, reflect_type, stat_length, r, nested](GraphBuilder& g,
                                                              const std::vector<Atom>& in) -> Atom {
    if (r == 0) return in[0];
    if (in.size() > 2)
      return pad_constant_pairs(g, in[0], std::vector<Atom>(in.begin() + 1, in.end()), nested, w);
    switch (mode) {
      case PadMode::edge:
        return pad_edge(g, in[0], w);
      case PadMode::reflect:
      case PadMode::symmetric:
        return pad_mirror(g, in[0], w, mode == PadMode::symmetric,
                          reflect_type == ReflectType::odd);
      case PadMode::wrap:
        return pad_wrap(g, in[0], w);
      case PadMode::maximum:
      case PadMode::minimum:
      case PadMode::mean:
      case PadMode::median:
        return pad_stats(g, in[0], w, mode, stat_length);
      case PadMode::empty:
        return pad_empty(g, in[0], w);
      default:
        break;
    }
    const ir::Aval a = g.aval(in[0]);
    const Atom v = convert(g, in[1], {a.dtype, a.weak});
    ir::PadConfig c;
    for (const auto& [lo, hi] : w) {
      c.lo.push_back(lo);
      c.hi.push_back(hi);
      c.interior.push_back(0);
      c.np.insert(c.np.end(), {1, 1, 0});
    }
    return emit_pad(g, in[0], v, c, "fj::pad");
  };
  return call_named(b, "_pad", operands, body, variant);
}

Atom lower_roll(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& shifts,
                const std::vector<int>& axes, bool flatten) {
  const ir::Aval xa = b.aval(x);
  if (flatten) {
    if (shifts.size() != 1)
      throw ShapeError("fj::roll: without an axis, shift must be one integer, got " +
                       ir::tuple_str(shifts) + " for " + xa.str());
    const Atom flat = lower_reshape(b, x, {xa.shape.size()});
    return lower_reshape(b, lower_roll(b, flat, shifts, {0}, false), xa.shape.to_vector());
  }
  if (shifts.size() != axes.size() && shifts.size() != 1 && axes.size() != 1)
    throw ShapeError("fj::roll: " + std::to_string(shifts.size()) + " shifts for " +
                     std::to_string(axes.size()) + " axes of " + xa.str());
  const std::size_t n = std::max(shifts.size(), axes.size());
  std::vector<std::pair<int, std::int64_t>> steps;
  std::string variant;
  for (std::size_t k = 0; k < n; ++k) {
    const int ax = canonical_axis(axes[axes.size() == 1 ? 0 : k], xa, "fj::roll");
    const std::int64_t s = shifts[shifts.size() == 1 ? 0 : k];
    steps.push_back({ax, s});
    variant += std::to_string(ax) + ":" + std::to_string(s) + ",";
  }
  auto body = [steps](GraphBuilder& g, const std::vector<Atom>& in) {
    Atom a = in[0];
    for (const auto& [ax, s] : steps) {
      const std::int64_t size = g.aval(a).shape[ax];
      if (size == 0) continue;
      const std::int64_t i = ((-s) % size + size) % size;  // Python's (-s) % size
      a = concat(g, {slice_in_dim(g, a, i, size, ax), slice_in_dim(g, a, 0, i, ax)}, ax);
    }
    return a;
  };
  return call_named(b, "_roll_static", {x}, body, variant);
}

Atom lower_roll_dynamic(GraphBuilder& b, Atom x, Atom shift, const std::vector<int>& axes,
                        bool flatten) {
  const ir::Aval xa = b.aval(x), sa = b.aval(shift);
  if (!is_int(sa.dtype))
    throw DTypeError("fj::roll: shift must have an integer dtype, got " + sa.str() + " for " +
                     xa.str());
  if (flatten) {
    const Atom flat = lower_reshape(b, x, {xa.shape.size()});
    return lower_reshape(b, lower_roll_dynamic(b, flat, shift, {0}, false), xa.shape.to_vector());
  }
  // JAX's broadcast of shift and axis to one 1-D shape.
  const auto k = static_cast<std::int64_t>(axes.size());
  const std::int64_t m = sa.shape.rank() == 0 ? 1 : sa.shape[0];
  if (sa.shape.rank() > 1 || (m != k && m != 1 && k != 1))
    throw ShapeError("fj::roll: shift " + sa.str() + " and " + std::to_string(k) +
                     " axes must be scalars or 1-D arrays of one length, for " + xa.str());
  const std::int64_t n = std::max(m, k);
  std::vector<int> ax;
  std::string variant;
  for (std::int64_t j = 0; j < n; ++j) {
    ax.push_back(canonical_axis(axes[static_cast<std::size_t>(k == 1 ? 0 : j)], xa, "fj::roll"));
    variant += std::to_string(ax.back()) + ",";
  }
  auto body = [ax, n](GraphBuilder& g, const std::vector<Atom>& in) {
    auto i32 = [](std::int64_t v) {
      return Atom::of_literal(ir::Literal::of(v, false).cast(DType::i32, false));
    };
    const Atom shifts = lower_broadcast_to(g, in[1], Shape{n});
    Atom a = in[0];
    for (std::int64_t j = 0; j < n; ++j) {
      // Iterating over the shifts: each element sliced out and squeezed, then used.
      ir::Params sp;
      sp.items.push_back({"limit_indices", V{j + 1}, true});
      sp.items.push_back({"start_indices", V{j}, true});
      sp.items.push_back({"strides", V{1}, true});
      ir::Params qp;
      qp.items.push_back({"dimensions", V{0}, true});
      const Atom s =
          g.emit1(Prim::squeeze, {g.emit1(Prim::slice, {shifts}, std::move(sp))}, std::move(qp));
      const int axis = ax[static_cast<std::size_t>(j)];
      const Shape as = g.aval(a).shape;
      const Atom size = i32(as[axis]);
      // The shift converted first, then max(size, 1): JAX's order (C++ evaluates function
      // arguments in no fixed order).
      const Atom shift = convert(g, s, {DType::i32, false});
      const Atom r = lower_remainder(g, shift, g.emit1(Prim::max, {size, i32(1)}));
      const Atom doubled = concat(g, {a, a}, axis);
      std::vector<Atom> starts(static_cast<std::size_t>(as.rank()), i32(0));
      starts[static_cast<std::size_t>(axis)] = g.emit1(Prim::sub, {size, r});
      a = lower_dynamic_slice(g, doubled, starts, as.to_vector());
    }
    return a;
  };
  return call_named(b, "_roll_dynamic", {x, shift}, body, variant);
}

Atom lower_tile(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& reps) {
  const ir::Aval xa = b.aval(x);
  for (auto r : reps)
    if (r < 0)
      throw ShapeError("fj::tile: reps " + ir::tuple_str(reps) + " must be nonnegative, for " +
                       xa.str());
  const int rank = xa.shape.rank();
  const int n = static_cast<int>(reps.size());
  V full(static_cast<std::size_t>(std::max(0, rank - n)), 1);
  full.insert(full.end(), reps.begin(), reps.end());
  if (n > rank) {
    std::vector<int> lead;
    for (int d = 0; d < n - rank; ++d) lead.push_back(d);
    x = lower_expand_dims(b, x, lead);
  }
  ir::Params p;
  p.items.push_back({"reps", full, true});
  return b.emit1(Prim::tile, {x}, std::move(p));
}

Atom lower_repeat(GraphBuilder& b, Atom x, std::int64_t repeats, int axis, bool flatten) {
  const ir::Aval xa = b.aval(x);
  if (repeats < 0)
    throw ShapeError("fj::repeat: repeats must be nonnegative, got " + std::to_string(repeats) +
                     " for " + xa.str());
  if (flatten) return repeat_scalar(b, lower_reshape(b, x, {xa.shape.size()}), repeats, 0);
  return repeat_scalar(b, x, repeats, canonical_axis(axis, xa, "fj::repeat"));
}

Atom lower_repeat_array(GraphBuilder& b, Atom x, Atom repeats, std::int64_t total, int axis,
                        std::optional<Atom> empty) {
  const ir::Aval xa = b.aval(x);
  // jnp.ravel(repeats), then jnp.broadcast_to(repeats, [n]) (no equation when that shape).
  if (const ir::Aval ra = b.aval(repeats); ra.shape.rank() != 1)
    repeats = lower_reshape(b, repeats, {ra.shape.size()});
  if (xa.shape.rank() == 0) return lower_broadcast_to(b, x, Shape{total});  // full([total], x)
  const std::int64_t n = xa.shape[axis];
  repeats = lower_broadcast_to(b, repeats, Shape{n});
  if (empty) {  // reshape(array([], dtype), shape)
    V shape = xa.shape.to_vector();
    shape[static_cast<std::size_t>(axis)] = 0;
    return lower_reshape(b, *empty, shape);
  }
  if (n == 0) return x;
  // [1, 2, 0, 5] -> exclusive [0, 1, 2, 0] -> cumsum [0, 1, 3, 3], each element's first output
  // position; ones scattered there onto zeros(total), summed up again minus one, give each
  // output position its element.
  const char* fn = "fj::repeat";
  auto weak = [](int v) { return Atom::of_literal(ir::Literal::of(v, true)); };
  const AtItem first{AtItem::Kind::integer, 0, {}}, array{AtItem::Kind::array, 0, {}};
  const Atom rolled = lower_roll(b, repeats, {1}, {}, true);
  const Atom exclusive = lower_index_tuple(b, rolled, {first}, {}, weak(0), Prim::scatter,
                                           ir::GatherMode::fill_or_drop, fn);
  const Atom starts = lower_cumulative(b, Prim::cumsum, exclusive, std::nullopt, false, true, fn);
  const Atom zeros = lower_full(b, Shape{total}, ir::Literal::of(0, false).cast(DType::i32, false));
  const Atom marks = lower_index_tuple(b, zeros, {array}, {starts}, weak(1), Prim::scatter_add,
                                       ir::GatherMode::fill_or_drop, fn);
  const Atom summed = lower_cumulative(b, Prim::cumsum, marks, std::nullopt, false, true, fn);
  return lower_take(b, x, lower_binary(b, Prim::sub, summed, weak(1)), axis,
                    ir::GatherMode::fill_or_drop);
}

}  // namespace fj::detail
