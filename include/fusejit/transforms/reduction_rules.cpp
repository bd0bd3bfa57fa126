// The rules of the reductions: reduce_sum, _prod, _max, _min (differentiable), reduce_and, _or,
// argmax and argmin (integer or bool results) (implementation unit only).
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/ir/shape_rules_structural.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

MaybeAtom sum_jvp(Emit& E, const JvpCall& c, Atom) {
  return E.b.emit1(c.e.prim, {*c.t[0]}, c.e.params);
}

MaybeAtom prod_jvp(Emit& E, const JvpCall& c, Atom y) {
  const auto& axes = c.e.params.get<Dims>("axes");
  return E.reduce_sum(E.mul(*c.t[0], prod_partial(E, c.in[0], y, axes)), axes);
}

MaybeAtom chooser_jvp(Emit& E, const JvpCall& c, Atom y) {  // reduce_max, reduce_min
  const auto& axes = c.e.params.get<Dims>("axes");
  const Residuals m = chooser_mask(E, c.in[0], y, axes);  // location, count
  return E.div(E.reduce_sum(E.mul(*c.t[0], *m[0]), axes), *m[1]);
}

// JAX's _reduce_sum_transpose_rule: ct broadcast back over the reduced axes; the kept axes come
// from np.delete, so JAX prints them as np.int64.
Atom unreduce(Emit& E, Atom ct, const Shape& shape, const Dims& axes) {
  const Dims kept = kept_dims(shape.rank(), axes);
  if (kept.empty()) return E.broadcast_in_dim(ct, shape, kept);
  return detail::broadcast_np(E.b, ct, shape.to_vector(), kept, 0);
}

std::vector<MaybeAtom> sum_vjp(Emit& E, const VjpCall& c, Atom ct) {
  return {unreduce(E, ct, E.shape(c.in[0]), c.e.params.get<Dims>("axes"))};
}

std::vector<MaybeAtom> prod_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const Shape xs = E.shape(c.in[0]);
  const auto& axes = c.e.params.get<Dims>("axes");
  return {E.mul(E.broadcast_in_dim(ct, xs, kept_dims(xs.rank(), axes)),
                prod_partial(E, c.in[0], c.out[0], axes))};
}

/// reduce_max's and reduce_min's mask of where the result was found, and its count.
Forward chooser_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  if (c.carries[0]) f.residual = chooser_mask(E, c.in[0], f.out[0], c.e.params.get<Dims>("axes"));
  return f;
}

std::vector<MaybeAtom> chooser_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const auto& axes = c.e.params.get<Dims>("axes");
  const Residuals m = c.residual[0] ? c.residual : chooser_mask(E, c.in[0], c.out[0], axes);
  const Atom spread = unreduce(E, E.div(ct, *m[1]), E.shape(c.in[0]), axes);
  return {E.mul(spread, *m[0])};
}

/// JAX's reducer batching rule: the axes shifted past the batch axis with NumPy arithmetic.
Atom reduce_batch(Emit& E, BatchCall& c) {
  const ir::Params p = map_dims(c.e.params, {"axes"}, [](const Dims& d) { return shifted(d); });
  return E.b.emit1(c.e.prim, std::move(c.in), numpy_ints(p, "axes"));
}

}  // namespace

void register_reduction_rules(ir::RuleTable& t) {
  constexpr ir::ShapeRule reduce = ir::shape_rules::reduce;
  constexpr ir::ShapeRule arg_reduce = ir::library_rules::arg_reduce;
  constexpr auto batch = one_batched<reduce_batch>;
  t[Prim::reduce_sum] = {reduce, one_tangent<sum_jvp>, one_cotangent<sum_vjp>, batch};
  t[Prim::reduce_prod] = {reduce, one_tangent<prod_jvp>, one_cotangent<prod_vjp>, batch};
  for (Prim p : {Prim::reduce_max, Prim::reduce_min})
    t[p] = {reduce, one_tangent<chooser_jvp>, one_cotangent<chooser_vjp>, batch, chooser_forward};
  for (Prim p : {Prim::reduce_and, Prim::reduce_or}) t[p] = {reduce, nullptr, nullptr, batch};
  for (Prim p : {Prim::argmax, Prim::argmin}) t[p] = {arg_reduce, nullptr, nullptr, batch};
}

}  // namespace fj::transforms
