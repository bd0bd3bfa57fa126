// Definitions of the cumulative reductions' and sorting's jnp/lax lowerings, staged as JAX
// stages them (implementation unit only).
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_sort.hpp"

namespace fj::detail {

namespace {

// An axis in [-rank, rank) as a dimension, or ShapeError naming the function and the shape.
std::int64_t axis_of(const GraphBuilder& b, Atom x, int axis, const char* fn) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank();
  if (axis < -r || axis >= r)
    throw ShapeError(std::string(fn) + ": axis " + std::to_string(axis) +
                     " is out of range for an array of shape " + s.str());
  return axis < 0 ? axis + r : axis;
}

Atom flatten(GraphBuilder& b, Atom x) { return lower_reshape(b, x, {b.aval(x).shape.size()}); }

Atom rev(GraphBuilder& b, Atom x, std::int64_t dim) {
  ir::Params p;
  p.items.push_back({"dimensions", std::vector<std::int64_t>{dim}, true});
  return b.emit1(Prim::rev, {x}, std::move(p));
}

ir::Params sort_params(std::int64_t dim, bool stable, std::int64_t num_keys) {
  ir::Params p;
  p.items.push_back({"dimension", dim, true});
  p.items.push_back({"is_stable", stable, true});
  p.items.push_back({"num_keys", num_keys, true});
  return p;
}

}  // namespace

Atom lower_cumulative(GraphBuilder& b, Prim p, Atom x, std::optional<int> axis, bool reverse,
                      bool jnp, const char* fn) {
  auto body = [=](GraphBuilder& g, Atom v) {
    const DType d = g.aval(v).dtype;
    if (!axis) v = flatten(g, v);  // jnp's ravel comes before its promotion of bools
    if (jnp && d == DType::bool_) v = convert(g, v, {default_int_dtype(), false});
    ir::Params params;
    params.items.push_back({"axis", axis_of(g, v, axis.value_or(0), fn), true});
    params.items.push_back({"reverse", reverse, true});
    return g.emit1(p, {v}, std::move(params));
  };
  if (!jnp) return body(b, x);
  // Checked before tracing the jit body, so that the error names the caller's shape.
  if (axis) (void)axis_of(b, x, *axis, fn);
  const std::string variant = std::to_string(axis.value_or(-999)) + (reverse ? "r" : "");
  return call_named(
      b, std::string(ir::name(p)), {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) { return body(g, in[0]); }, variant);
}

Atom lower_sort(GraphBuilder& b, Atom x, std::optional<int> axis, bool stable, bool descending) {
  if (axis) (void)axis_of(b, x, *axis, "fj::sort");
  const std::string variant =
      std::to_string(axis.value_or(-999)) + (stable ? "s" : "") + (descending ? "d" : "");
  return call_named(
      b, "sort", {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom v = axis ? in[0] : flatten(g, in[0]);
        const std::int64_t dim = axis_of(g, v, axis.value_or(0), "fj::sort");
        Atom s = g.emit(Prim::sort, {v}, sort_params(dim, stable, 1))[0];
        return descending ? rev(g, s, dim) : s;
      },
      variant);
}

Atom lower_argsort(GraphBuilder& b, Atom x, std::optional<int> axis, bool stable, bool descending) {
  if (axis) (void)axis_of(b, x, *axis, "fj::argsort");
  const std::string variant =
      std::to_string(axis.value_or(-999)) + (stable ? "s" : "") + (descending ? "d" : "");
  return call_named(
      b, "argsort", {x},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom v = axis ? in[0] : flatten(g, in[0]);
        const std::int64_t dim = axis_of(g, v, axis.value_or(0), "fj::argsort");
        Atom idx = lower_iota(g, default_int_dtype(), g.aval(v).shape, static_cast<int>(dim));
        if (descending) {
          v = rev(g, v, dim);
          idx = rev(g, idx, dim);
        }
        Atom perm = g.emit(Prim::sort, {v, idx}, sort_params(dim, stable, 1))[1];
        return descending ? rev(g, perm, dim) : perm;
      },
      variant);
}

std::vector<Atom> lower_lax_sort(GraphBuilder& b, const std::vector<Atom>& xs, int dimension,
                                 bool is_stable, int num_keys) {
  if (xs.empty()) throw ValueError("fj::lax::sort: needs at least one operand");
  const std::int64_t dim = axis_of(b, xs[0], dimension, "fj::lax::sort");
  return b.emit(Prim::sort, xs, sort_params(dim, is_stable, num_keys));
}

std::vector<Atom> lower_top_k(GraphBuilder& b, Atom x, std::int64_t k) {
  const Shape s = b.aval(x).shape;
  if (s.rank() == 0) throw ShapeError("fj::lax::top_k: needs an array of rank >= 1, got a scalar");
  ir::Params p;
  p.items.push_back({"axis", std::int64_t{s.rank() - 1}, true});
  p.items.push_back({"k", k, true});
  return b.emit(Prim::top_k, {x}, std::move(p));
}

}  // namespace fj::detail
