// Definitions of the integer-array indexing and .at[] lowerings, staged as JAX 0.10.2's
// jnp indexing (_rewriting_take, _scatter_update, take, take_along_axis) stages them
// (implementation unit only).
#include <cmath>
#include <limits>

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
ir::GraphPtr combine_jaxpr(Prim combine, DType d) {
  ir::Graph g;
  const ir::VarId x = g.new_var(ir::Aval{d, Shape{}, false});
  const ir::VarId y = g.new_var(ir::Aval{d, Shape{}, false});
  const ir::VarId z = g.new_var(ir::Aval{d, Shape{}, false});
  g.invars = {x, y};
  g.eqns.push_back(ir::Eqn{combine, {Atom::of_var(x), Atom::of_var(y)}, {z}, {}});
  g.outvars = {Atom::of_var(z)};
  return std::make_shared<const ir::Graph>(std::move(g));
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

Atom lower_advanced_index(GraphBuilder& b, Atom x, const std::vector<Atom>& ints,
                          std::optional<std::int64_t> scalar, std::optional<Atom> updates,
                          Prim update, ir::GatherMode mode, const char* fn) {
  const Shape xs = b.aval(x).shape;
  const auto k = static_cast<std::int64_t>(scalar ? 1 : ints.size());
  if (k == 0 || k > xs.rank())
    throw ShapeError(std::string(fn) + ": too many indices for an array of shape " + xs.str());
  Atom indices;
  Shape batch;
  if (scalar) {
    // A static integer: normalized here, one index vector of shape (1,).
    std::int64_t n = *scalar;
    if (n < -xs[0] || n >= xs[0])
      throw ShapeError(std::string(fn) + ": index " + std::to_string(n) +
                       " is out of bounds for axis 0 with size " + std::to_string(xs[0]));
    if (n < 0) n += xs[0];
    const Atom lit = Atom::of_literal(ir::Literal::of(n, true).cast(DType::i32, false));
    ir::Params p;
    p.items.push_back({"shape", V{1}, false});
    p.items.push_back({"broadcast_dimensions", V{}, false});
    indices = b.emit1(Prim::broadcast_in_dim, {lit}, std::move(p));
  } else {
    batch = b.aval(ints[0]).shape;
    std::vector<Atom> norm;
    for (std::size_t a = 0; a < ints.size(); ++a) {
      check_int(b, ints[a], fn);
      if (b.aval(ints[a]).shape != batch)
        throw ShapeError(std::string(fn) + ": index arrays must have one shape, got " +
                         batch.str() + " and " + b.aval(ints[a]).shape.str());
      norm.push_back(normalize(b, ints[a], xs[static_cast<int>(a)], false));
    }
    for (auto& i : norm) i = as_index_vector(b, i);
    if (norm.size() == 1) {
      indices = norm[0];
    } else {
      ir::Params p;
      p.items.push_back({"dimension", std::int64_t{batch.rank()}, true});
      indices = b.emit1(Prim::concatenate, norm, std::move(p));
    }
  }
  // The window: the axes after the k indexed ones, whole, after the batch axes.
  const std::int64_t br = batch.rank();
  ir::IndexDims d;
  d.window = iota_dims(br, br + xs.rank() - k);
  d.collapsed = iota_dims(0, k);
  d.start_map = iota_dims(0, k);
  if (!updates) {
    V sizes(static_cast<std::size_t>(k), 1);
    for (int a = static_cast<int>(k); a < xs.rank(); ++a) sizes.push_back(xs[a]);
    return lower_gather(b, x, indices, d, sizes, mode, "None");
  }
  V ushape = batch.to_vector();
  for (int a = static_cast<int>(k); a < xs.rank(); ++a) ushape.push_back(xs[a]);
  Atom u = convert(b, *updates, {b.aval(x).dtype, false});
  u = lower_broadcast_to(b, u, Shape(ushape));
  return lower_scatter(b, update, x, indices, u, d, mode, scalar.has_value(), scalar.has_value());
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
