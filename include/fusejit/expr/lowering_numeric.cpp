// Definitions of jnp.diff's, ptp's, isclose's, allclose's and bincount's staging
// (implementation unit only).
#include "fusejit/expr/lowering_numeric.hpp"

#include <string>
#include <vector>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"

namespace fj::detail {

Atom lower_diff(GraphBuilder& b, Atom x, int n, int axis) {
  return call_named(
      b, "diff", {x},
      [n, axis](GraphBuilder& g, const std::vector<Atom>& in) {
        const Prim op = g.aval(in[0]).dtype == DType::bool_ ? Prim::ne : Prim::sub;
        Atom a = in[0];
        for (int k = 0; k < n; ++k) {  // arr[..., 1:] - arr[..., :-1]
          const Shape s = g.aval(a).shape;
          std::vector<std::int64_t> zero(static_cast<std::size_t>(s.rank()), 0),
              stop = s.to_vector(), step(static_cast<std::size_t>(s.rank()), 1);
          std::vector<std::int64_t> from = zero, to = stop;
          from[static_cast<std::size_t>(axis)] = std::min<std::int64_t>(1, s[axis]);
          to[static_cast<std::size_t>(axis)] = std::max<std::int64_t>(0, s[axis] - 1);
          const Atom later = lower_slice(g, a, from, stop, step);
          const Atom earlier = lower_slice(g, a, zero, to, step);
          a = g.emit1(op, {later, earlier});
        }
        return a;
      },
      std::to_string(n) + "," + std::to_string(axis));
}

Atom lower_ptp(GraphBuilder& b, Atom x, std::optional<int> axis, bool keepdims) {
  return call_named(
      b, "_ptp", {x},
      [axis, keepdims](GraphBuilder& g, const std::vector<Atom>& in) {
        const std::vector<int> axes = axis ? std::vector<int>{*axis} : std::vector<int>{};
        const Atom hi = lower_reduce(g, Prim::reduce_max, in[0], axes, !axis, keepdims);
        const Atom lo = lower_reduce(g, Prim::reduce_min, in[0], axes, !axis, keepdims);
        return g.emit1(Prim::sub, {hi, lo});
      },
      std::to_string(axis.value_or(-999)) + (keepdims ? "k" : ""));
}

namespace {

// A Python float as JAX passes it to a jit: a weak literal, of the float type the operands
// promote to (f64 where JAX's x64 mode would have them, else f32).
Atom weak_float(GraphBuilder& b, Atom x, Atom y, double v) {
  const DType t = to_inexact(promote_types(typed(b, x), typed(b, y))).dtype;
  const ir::Literal l = ir::Literal::of(v, true);  // weak f32, its value not yet rounded
  return Atom::of_literal(t == DType::f64 ? l.cast(t, true) : l);
}

}  // namespace

Atom lower_isclose(GraphBuilder& b, Atom x, Atom y, Tolerance rtol, Tolerance atol, bool equal_nan,
                   bool rtol_first) {
  std::vector<Atom> ops{x, y};
  const Tolerance* order[2] = {rtol_first ? &rtol : &atol, rtol_first ? &atol : &rtol};
  for (const Tolerance* t : order)
    if (t->operand) ops.push_back(t->atom ? *t->atom : weak_float(b, x, y, t->value));
  const std::string variant = std::to_string(rtol.operand) + std::to_string(atol.operand) +
                              std::to_string(rtol_first) + std::to_string(equal_nan) +
                              (rtol.operand ? "" : std::to_string(rtol.value)) +
                              (atol.operand ? "" : std::to_string(atol.value));
  return call_named(
      b, "isclose", ops,
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        // promote_args, then promote_args_inexact: one dtype and rank, then a float one.
        TypedDType t = promote_types(typed(g, in[0]), typed(g, in[1]));
        auto [a, c] = convert_and_rank_promote(g, in[0], in[1], t, "fj::isclose");
        t = to_inexact(t);
        a = convert(g, a, t);
        c = convert(g, c, t);
        // The tolerances in the computation's type: the operands after x and y, or constants.
        std::size_t next = 2;
        std::optional<Atom> tol[2];  // rtol, atol
        for (int k : {rtol_first ? 0 : 1, rtol_first ? 1 : 0})
          if ((k == 0 ? rtol : atol).operand) tol[k] = in[next++];
        const TypedDType strong{t.dtype, false};
        auto value = [&](int k, const Tolerance& v) {
          return tol[k] ? convert(g, *tol[k], strong)
                        : Atom::of_literal(ir::Literal::of(v.value, false).cast(t.dtype, false));
        };
        const Atom r = value(0, rtol), at = value(1, atol);
        const Atom both_nan =
            g.emit1(Prim::and_, {g.emit1(Prim::ne, {a, a}), g.emit1(Prim::ne, {c, c})});
        const Atom finite = g.emit1(Prim::is_finite, {c});
        const Atom diff = g.emit1(Prim::abs, {g.emit1(Prim::sub, {a, c})});
        const Atom bound =
            g.emit1(Prim::add, {at, g.emit1(Prim::mul, {r, g.emit1(Prim::abs, {c})})});
        const Atom in_range = g.emit1(Prim::le, {diff, bound});
        const Atom equal = g.emit1(Prim::eq, {a, c});
        const Atom out = g.emit1(Prim::or_, {equal, g.emit1(Prim::and_, {finite, in_range})});
        return equal_nan ? g.emit1(Prim::or_, {out, both_nan}) : out;
      },
      variant);
}

Atom lower_allclose(GraphBuilder& b, Atom x, Atom y, Tolerance rtol, Tolerance atol,
                    bool equal_nan) {
  std::vector<Atom> ops{x, y};
  for (const Tolerance* t : {&atol, &rtol})
    if (t->operand) ops.push_back(weak_float(b, x, y, t->value));
  return call_named(
      b, "allclose", ops,
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        // isclose(a, b, rtol, atol, equal_nan): a given tolerance is this jit's operand, a
        // default one the Python float.
        std::size_t next = 2;
        std::optional<Atom> given[2];  // atol, rtol
        for (int k = 0; k < 2; ++k)
          if ((k == 0 ? atol : rtol).operand) given[k] = in[next++];
        const Atom close = lower_isclose(g, in[0], in[1], {rtol.value, true, given[1]},
                                         {atol.value, true, given[0]}, equal_nan, true);
        return lower_reduce(g, Prim::reduce_and, close, {}, true, false);
      },
      std::to_string(rtol.operand) + std::to_string(atol.operand) + std::to_string(rtol.value) +
          "," + std::to_string(atol.value) + std::to_string(equal_nan));
}

Atom lower_bincount(GraphBuilder& b, Atom x, std::optional<Atom> weights, std::int64_t length,
                    const char* fn) {
  const DType dt = weights ? b.aval(*weights).dtype : default_int_dtype();
  const Atom zeros = lower_full(b, Shape{length}, ir::Literal::of(0, false).cast(dt, false));
  const Atom at = lower_clip(b, x, Atom::of_literal(ir::Literal::of(0, true)), std::nullopt);
  // weights default to np.array(1, dtypes.int_): a strong literal.
  const Atom w = weights ? *weights : Atom::of_literal(ir::Literal::of(1, false).cast(dt, false));
  return lower_index_tuple(b, zeros, {AtItem{AtItem::Kind::array, 0, {}}}, {at}, w,
                           Prim::scatter_add, ir::GatherMode::fill_or_drop, fn);
}

}  // namespace fj::detail
