// lax-level emitters the transformation rules are written in: each appends plain primitives
// (no jnp promotion) to a builder and folds the trivial cases (x * 1, x + 0, no-op reshapes).
#pragma once
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/expr/lowering.hpp"
#include "fusejit/ir/builder.hpp"

namespace fj::transforms {

using ir::Atom;
using ir::Aval;
using ir::GraphBuilder;
using ir::Prim;
using Dims = std::vector<std::int64_t>;

/// p with its integer param `name` set to v (a batching rule shifting an axis past the batch).
inline ir::Params with_int(const ir::Params& p, const char* name, std::int64_t v) {
  ir::Params q = p;
  for (auto& item : q.items)
    if (item.name == name) item.value = v;
  return q;
}
/// A jit's params (its name) with another graph as its `jaxpr` (a transformed jit).
/// A shared one stays shared (one graph printed once, as JAX's shared jaxprs). The hidden
/// closed_consts count stays only when `consts_lead`: the new jit's operands still begin with
/// the values the function closed over (JAX keeps them in its transformed jaxpr's consts).
inline ir::Params with_graph(const ir::Params& p, ir::GraphPtr g, bool consts_lead = false) {
  ir::Params q = p;
  for (auto& item : q.items)
    if (item.name == "jaxpr") item.value = std::move(g);
  if (!consts_lead)
    std::erase_if(q.items, [](const ir::Param& item) { return item.name == ir::kClosedConsts; });
  return q;
}
inline ir::Params with_graph(const ir::Params& p, ir::Graph g, bool consts_lead = false) {
  return with_graph(p, std::make_shared<const ir::Graph>(std::move(g)), consts_lead);
}
/// A tangent or cotangent; nullopt is a symbolic zero (nothing is emitted for it).
using MaybeAtom = std::optional<Atom>;

class Emit {
 public:
  explicit Emit(GraphBuilder& b) : b(b) {}
  GraphBuilder& b;

  Aval aval(const Atom& a) const { return b.aval(a); }
  Shape shape(const Atom& a) const { return b.aval(a).shape; }
  DType dtype(const Atom& a) const { return b.aval(a).dtype; }

  /// A scalar literal of dtype d (not weak), as lax rules write their constants.
  static Atom lit(double v, DType d) {
    ir::Literal l;
    l.dtype = d;
    if (is_float(d))
      l.f = d == DType::f32 ? static_cast<double>(static_cast<float>(v)) : v;
    else
      l.i = static_cast<std::int64_t>(v);
    return Atom::of_literal(l);
  }
  static bool is_lit(const Atom& a, double v) { return a.is_literal() && a.lit.as_double() == v; }

  Atom un(Prim p, Atom x, ir::Params params = {}) { return b.emit1(p, {x}, std::move(params)); }
  Atom bin(Prim p, Atom x, Atom y) {
    if (auto folded = fold(p, x, y)) return *folded;
    return b.emit1(p, {x, y});
  }
  /// Float arithmetic on two literals, done here (the rules' constants: -1 * 0.5 and such).
  static std::optional<Atom> fold(Prim p, const Atom& x, const Atom& y) {
    if (!x.is_literal() || !y.is_literal() || x.lit.dtype != y.lit.dtype || !is_float(x.lit.dtype))
      return std::nullopt;
    const double a = x.lit.f, c = y.lit.f;
    double r;
    switch (p) {
      case Prim::add:
        r = a + c;
        break;
      case Prim::sub:
        r = a - c;
        break;
      case Prim::mul:
        r = a * c;
        break;
      case Prim::div:
        r = a / c;
        break;
      default:
        return std::nullopt;
    }
    // f32 literals hold f32 values, and one f64 operation on two of them rounds to the same f32
    // as the f32 operation would (f64 has more than twice f32's precision).
    return lit(r, x.lit.dtype);
  }
  // A literal operand is rank 0, so folding it away leaves the other operand's shape.
  Atom add(Atom x, Atom y) {
    if (is_lit(y, 0)) return x;
    if (is_lit(x, 0)) return y;
    return bin(Prim::add, x, y);
  }
  /// The sum of two cotangents, as JAX accumulates them (add_any: add's semantics).
  Atom add_any(Atom x, Atom y) { return b.emit1(Prim::add_any, {x, y}); }
  Atom sub(Atom x, Atom y) { return bin(Prim::sub, x, y); }
  Atom mul(Atom x, Atom y) {
    if (is_lit(y, 1)) return x;
    if (is_lit(x, 1)) return y;
    return bin(Prim::mul, x, y);
  }
  Atom div(Atom x, Atom y) { return bin(Prim::div, x, y); }
  Atom neg(Atom x) { return un(Prim::neg, x); }
  Atom select(Atom pred, Atom on_false, Atom on_true) {
    return b.emit1(Prim::select_n, {pred, on_false, on_true});
  }
  Atom convert(Atom x, DType to) { return detail::convert(b, x, {to, false}); }

  /// zeros of the aval (a literal when rank 0).
  Atom zeros(const Aval& a) { return full(a, 0); }
  Atom full(const Aval& a, double v) {
    const Atom s = lit(v, a.dtype);
    if (a.shape.rank() == 0) return s;
    return broadcast_in_dim(s, a.shape, {});
  }
  Atom zeros_like(const Atom& x) { return zeros(aval(x)); }
  Atom or_zeros(const MaybeAtom& t, const Aval& a) { return t ? *t : zeros(a); }

  Atom broadcast_in_dim(Atom x, const Shape& shape, const Dims& dims) {
    if (aval(x).shape == shape && rank(x) == static_cast<int>(dims.size())) {
      bool id = true;
      for (std::size_t i = 0; i < dims.size(); ++i) id = id && dims[i] == static_cast<int>(i);
      if (id) return x;
    }
    ir::Params p;
    p.items.push_back({"shape", shape.to_vector(), false});
    p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
    return b.emit1(Prim::broadcast_in_dim, {x}, std::move(p));
  }
  /// x (rank 0, or of the same rank with extents 1 where `shape` has others) broadcast to shape.
  Atom broadcast_to(Atom x, const Shape& shape) {
    if (aval(x).shape == shape) return x;
    if (rank(x) == 0) return broadcast_in_dim(x, shape, {});
    Dims dims;
    for (int d = 0; d < rank(x); ++d) dims.push_back(shape.rank() - rank(x) + d);
    return broadcast_in_dim(x, shape, dims);
  }
  Atom reduce_sum(Atom x, const Dims& axes) {
    if (axes.empty()) return x;
    ir::Params p;
    p.items.push_back({"axes", axes, true});
    p.items.push_back({"out_sharding", std::string("None"), true});
    return b.emit1(Prim::reduce_sum, {x}, std::move(p));
  }
  Atom reduce(Prim prim, Atom x, const Dims& axes) {
    if (prim == Prim::reduce_sum) return reduce_sum(x, axes);
    if (axes.empty()) return x;
    ir::Params p;
    p.items.push_back({"axes", axes, true});
    return b.emit1(prim, {x}, std::move(p));
  }
  Atom reshape(Atom x, const Shape& to) { return detail::lower_reshape(b, x, to.to_vector()); }
  Atom transpose(Atom x, const Dims& perm) { return detail::lower_transpose(b, x, perm); }
  Atom slice(Atom x, const Dims& start, const Dims& limit, const Dims& strides = {}) {
    return detail::lower_slice(b, x, start, limit, strides);
  }
  /// The cotangent `ct` of a broadcasting elementwise result summed back to operand aval `to`.
  Atom unbroadcast(Atom ct, const Aval& to);
  Atom dynamic_slice(Atom x, const std::vector<Atom>& starts, const Dims& sizes);
  Atom dynamic_update_slice(Atom x, Atom update, const std::vector<Atom>& starts);
  /// x with axis `from` moved to position `to` (a transpose, or nothing).
  Atom move_axis(Atom x, int from, int to);

  int rank(const Atom& a) const { return b.aval(a).shape.rank(); }
};

std::vector<MaybeAtom> jvp_control(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
std::vector<MaybeAtom> vjp_control(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                   const std::vector<Atom>& out, const std::vector<MaybeAtom>& cts,
                                   const std::vector<bool>& needed);
std::pair<std::vector<Atom>, std::vector<bool>> batch_control(Emit& E, const ir::Eqn& e,
                                                              std::vector<Atom> in,
                                                              const std::vector<bool>& bat,
                                                              std::int64_t n);

// custom_jvp_call's rules (custom_jvp_rules.cpp). Forward mode calls the equation's tangent rule
// (missing tangents as zeros); reverse mode transposes that rule's tangents, which are linear,
// by reverse mode over them; batching batches call_jaxpr and wraps the rule so that it still
// sees per-example operands.
std::vector<MaybeAtom> jvp_custom_call(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                       const std::vector<MaybeAtom>& t,
                                       const std::vector<Atom>& out);
/// For a custom_jvp_call whose rule computes its results (JAX's defjvp form): the graph
/// (operands, tangents) -> (results, tangents), nested jits kept, for operands of avals `in`,
/// checked against the call's result avals `outs`; nullopt for a rule given the results.
std::optional<ir::Graph> custom_call_jvp_graph(const ir::Eqn& e, const std::vector<Aval>& in,
                                               const std::vector<Aval>& outs);
std::vector<MaybeAtom> vjp_custom_call(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                       const std::vector<Atom>& out,
                                       const std::vector<MaybeAtom>& cts,
                                       const std::vector<bool>& needed);
std::pair<std::vector<Atom>, std::vector<bool>> batch_custom_call(Emit& E, const ir::Eqn& e,
                                                                  std::vector<Atom> in,
                                                                  const std::vector<bool>& bat,
                                                                  std::int64_t n);

// custom_linear_solve's rules (linear_solve_rules.cpp): JAX's _custom_linear_solve_jvp,
// _linear_solve_transpose_rule (with matvec's reverse mode for its consts) and
// _linear_solve_batching_rule.
std::vector<MaybeAtom> jvp_linear_solve(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                        const std::vector<MaybeAtom>& t,
                                        const std::vector<Atom>& out);
std::vector<MaybeAtom> vjp_linear_solve(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                        const std::vector<Atom>& out,
                                        const std::vector<MaybeAtom>& cts,
                                        const std::vector<bool>& needed);
std::pair<std::vector<Atom>, std::vector<bool>> batch_linear_solve(Emit& E, const ir::Eqn& e,
                                                                   std::vector<Atom> in,
                                                                   const std::vector<bool>& bat,
                                                                   std::int64_t n);

/// Appends copies of the params with each listed int-vector param mapped by f.
ir::Params map_dims(const ir::Params& p, const std::vector<std::string>& names,
                    const std::function<Dims(const Dims&)>& f);
/// Every entry plus k (a batch axis in front shifts every axis number).
Dims shifted(const Dims& v, std::int64_t k = 1);
/// Where x is in v (v.size() if absent).
inline std::int64_t position(const Dims& v, std::int64_t x) {
  return std::find(v.begin(), v.end(), x) - v.begin();
}

}  // namespace fj::transforms
