// The rules of the elementwise primitives: unary and binary arithmetic, comparisons, logical
// ops, select_n, clamp, the conversions and threefry2x32 (implementation unit only). Their
// partial derivatives are in partials.cpp; comparisons, logical ops, bitcasts and threefry have
// integer or bool results, so no JVP or transpose.
#include <numeric>

#include "fusejit/ir/shape_rules_elementwise.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

// --- Forward mode ---

MaybeAtom unary_jvp(Emit& E, const JvpCall& c, Atom y) {
  MaybeAtom ty = unary_tangent(E, c.e.prim, c.e.params, c.in[0], y, *c.t[0]);
  if (ty) ty = E.broadcast_to(*ty, E.aval(y).shape);
  return ty;
}

MaybeAtom binary_jvp(Emit& E, const JvpCall& c, Atom y) {
  MaybeAtom ty = binary_tangent(E, c.e.prim, c.e.params, c.in, y, c.t);
  if (ty) ty = E.broadcast_to(*ty, E.aval(y).shape);
  return ty;
}

MaybeAtom select_n_jvp(Emit& E, const JvpCall& c, Atom y) {
  const Aval ya = E.aval(y);
  return E.select(c.in[0], E.or_zeros(c.t[1], ya), E.or_zeros(c.t[2], ya));
}

MaybeAtom clamp_jvp(Emit& E, const JvpCall& c, Atom y) {
  // JAX's three defjvp rules, each select(mask, t, zeros), summed with add_any. A scalar bound's
  // tangent is broadcast (JAX's rule raises there, its select's cases differing).
  // Every term first, then their sum, as JAX stages them.
  const Aval ya = E.aval(y);
  std::vector<Atom> terms;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!c.t[i]) continue;
    const Atom mask = clamp_mask(E, c.in, i);
    const Atom zeros = E.zeros(ya);
    terms.push_back(E.select(mask, zeros, E.broadcast_to(*c.t[i], ya.shape)));
  }
  MaybeAtom ty;
  for (const Atom& term : terms) ty = ty ? E.add_any(*ty, term) : term;
  return ty;
}

MaybeAtom convert_jvp(Emit& E, const JvpCall& c, Atom y) {
  if (!differentiable(E.aval(c.in[0]))) return std::nullopt;
  return E.convert(*c.t[0], E.dtype(y));
}

// --- Reverse mode ---

/// The partials of a unary op on a value that carries a tangent (tanh: 1 - y), right after it.
Forward unary_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  if (c.carries[0] && differentiable(E.aval(f.out[0])))
    f.residual = unary_residual(E, c.e.prim, c.e.params, c.in[0], f.out[0]);
  return f;
}

void unary_vjp(Emit& E, const VjpCall& c) {
  const Atom ct = *c.ct[0];
  if (c.residual[0]) {  // JAX's terms, from the forward pass's residual
    unary_cotangent_terms(E, c.e.prim, c.residual, c.out[0], ct,
                          [&](Atom term) { c.add(0, term); });
    return;
  }
  // A caller without a forward pass: the partial, multiplied.
  const MaybeAtom d = elementwise_partials(E, c.e.prim, c.e.params, c.in, c.out[0])[0];
  if (d && c.wanted[0]) c.add(0, E.mul(ct, *d));
}

/// The partials of a binary op for the operands that carry a tangent (div's x1^-2).
Forward binary_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  if (differentiable(E.aval(f.out[0])))
    f.residual = binary_residual(E, c.e.prim, c.in, f.out[0], {c.carries[0], c.carries[1]});
  return f;
}

void binary_vjp(Emit& E, const VjpCall& c) {
  const std::vector<MaybeAtom> r = binary_cotangents(
      E, c.e.prim, c.e.params, c.in, c.out[0], *c.ct[0], {c.wanted[0], c.wanted[1]}, c.residual);
  // JAX transposes a binary op's linearized terms last first, so operand 1's cotangent is
  // summed into a variable both operands read (x * x) before operand 0's: add_any's order.
  if (r[1]) c.add(1, *r[1]);
  if (r[0]) c.add(0, *r[0]);
}

/// JAX's select_n JVP fills the cases without a tangent with zeros it makes here (its transpose
/// makes its own): computed where JAX's linearization leaves them. In linear mode (a rule's
/// tangents) its zeros are zeros_like of those cases' values, which JAX's linearized program
/// reads (and passes on to a jit's backward part).
Forward select_n_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  std::size_t with = 0;
  for (std::size_t i = 1; i < c.in.size(); ++i) with += c.carries[i];
  if (!c.linear && with > 0 && with + 1 < c.in.size() && differentiable(E.aval(f.out[0])))
    f.reads.push_back(E.zeros(E.aval(f.out[0])));
  if (c.linear && with > 0)
    for (std::size_t i = 1; i < c.in.size(); ++i)
      if (!c.carries[i] && !c.e.in[i].is_literal()) f.reads.push_back(c.in[i]);
  return f;
}

/// JAX's clamp rules compute each carrying operand's mask and the zeros they select against
/// here, where its linearization leaves them (the zeros unread, as JAX's).
Forward clamp_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  const Aval ya = E.aval(f.out[0]);
  if (!differentiable(ya)) return f;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!c.carries[i]) continue;
    f.residual[i] = clamp_mask(E, c.in, i);
    const Atom z = E.zeros(ya);
    if (!c.linear) f.reads.push_back(z);
  }
  return f;
}

std::vector<MaybeAtom> select_n_vjp(Emit& E, const VjpCall& c, Atom ct) {
  std::vector<MaybeAtom> r(c.in.size());
  const Atom z = E.zeros(E.aval(ct));
  if (c.wanted[1]) r[1] = E.select(c.in[0], ct, z);
  if (c.wanted[2]) r[2] = E.select(c.in[0], z, ct);
  return r;
}

std::vector<MaybeAtom> clamp_vjp(Emit& E, const VjpCall& c, Atom ct) {
  // JAX's select rules transposed, the last operand's first: ct where the mask holds (the
  // forward pass's residual), zeros elsewhere; summed back to a scalar bound's shape.
  std::vector<MaybeAtom> r(3);
  for (std::size_t i = 3; i-- > 0;) {
    if (!c.wanted[i]) continue;
    const Atom mask = c.residual[i] ? *c.residual[i] : clamp_mask(E, c.in, i);
    const Atom z = E.zeros(E.aval(ct));
    r[i] = E.unbroadcast(E.select(mask, z, ct), E.aval(c.in[i]));
  }
  return r;
}

std::vector<MaybeAtom> convert_vjp(Emit& E, const VjpCall& c, Atom ct) {
  std::vector<MaybeAtom> r(1);
  if (c.wanted[0]) r[0] = E.convert(ct, E.dtype(c.in[0]));
  return r;
}

// --- Batching ---

/// Every operand at the full batched shape, except unbatched scalars, which lax broadcasts
/// itself (select_n's cases always take the full shape: only its predicate may stay scalar).
Atom elementwise_batch(Emit& E, BatchCall& c) {
  const Shape& out = c.out_avals[0].shape;
  const Shape full = batched_shape(c.n, out);
  for (std::size_t k = 0; k < c.in.size(); ++k) {
    const bool keep_scalar = c.e.prim != Prim::select_n || k == 0;
    if (!c.bat[k] && E.rank(c.in[k]) == 0 && !keep_scalar)
      c.in[k] = E.broadcast_in_dim(c.in[k], full, {});
    else if (c.bat[k] && E.rank(c.in[k]) == 1 && full.rank() > 1)
      c.in[k] = E.broadcast_in_dim(c.in[k], full, {0});
    else if (!c.bat[k] && E.rank(c.in[k]) > 0)
      c.in[k] = add_batch_axis(E, E.broadcast_to(c.in[k], out), c.n);
  }
  return E.b.emit1(c.e.prim, std::move(c.in), c.e.params);
}

/// JAX's _clamp_batch_rule with every batch axis at 0: as it is where all three are batched at
/// one shape or both bounds are unbatched scalars; else each unbatched non-scalar gets the batch
/// axis in front, scalar bounds are broadcast to x, a bound of one batched scalar per element is
/// broadcast along x's other axes, and an unbatched scalar x is broadcast to the bounds' shape.
Atom clamp_batch(Emit& E, BatchCall& c) {
  std::vector<Atom>& in = c.in;
  Atom &lo = in[0], &x = in[1], &hi = in[2];
  auto bind = [&] { return E.b.emit1(Prim::clamp, in, c.e.params); };
  if (c.bat[0] && c.bat[1] && c.bat[2]) {
    if (E.shape(lo) == E.shape(x) && E.shape(hi) == E.shape(x)) return bind();
    if (E.rank(lo) == 1 && E.rank(hi) == 1) {
      lo = E.broadcast_in_dim(lo, E.shape(x), {0});
      hi = E.broadcast_in_dim(hi, E.shape(x), {0});
      return bind();
    }
  } else if (E.rank(lo) == 0 && E.rank(hi) == 0 && c.bat[1]) {
    return bind();
  }
  // bdim_at_front of an unbatched value: broadcast(x, (size,)), its dims NumPy ints.
  for (std::size_t k : {0, 2, 1})
    if (!c.bat[k] && E.rank(in[k]) > 0) {
      Dims dims(static_cast<std::size_t>(E.rank(in[k])));
      std::iota(dims.begin(), dims.end(), 1);
      ir::Params p;
      p.items.push_back({"shape", batched_shape(c.n, E.shape(in[k])).to_vector(), false});
      p.items.push_back({"broadcast_dimensions", dims, true});
      in[k] = E.b.emit1(Prim::broadcast_in_dim, {in[k]}, numpy_ints(p, "broadcast_dimensions"));
    }
  for (Atom* b : {&lo, &hi})
    if (E.rank(*b) == 0 && E.rank(x) > 0) *b = E.broadcast_in_dim(*b, E.shape(x), {});
  for (Atom* b : {&lo, &hi})
    if (E.rank(*b) > 0 && E.rank(*b) < E.rank(x)) *b = E.broadcast_in_dim(*b, E.shape(x), {0});
  if (E.rank(lo) > E.rank(x)) x = E.broadcast_in_dim(x, E.shape(lo), {});
  return bind();
}

/// Elementwise with several results (threefry2x32): as unary/binary, every operand at the
/// batched shape except unbatched scalars; every result is batched.
BatchResult multi_batch(Emit& E, BatchCall& c) {
  const Shape& out_shape = c.out_avals[0].shape;
  const Shape full = batched_shape(c.n, out_shape);
  for (std::size_t k = 0; k < c.in.size(); ++k) {
    if (c.bat[k] && E.rank(c.in[k]) == 1 && full.rank() > 1)
      c.in[k] = E.broadcast_in_dim(c.in[k], full, {0});
    else if (!c.bat[k] && E.rank(c.in[k]) > 0)
      c.in[k] = add_batch_axis(E, E.broadcast_to(c.in[k], out_shape), c.n);
  }
  std::vector<Atom> out = E.b.emit(c.e.prim, std::move(c.in), c.e.params);
  std::vector<bool> batched(out.size(), true);
  return {std::move(out), std::move(batched)};
}

}  // namespace

void register_elementwise_rules(ir::RuleTable& t) {
  namespace shape = ir::shape_rules;
  constexpr auto batch = one_batched<elementwise_batch>;
  for (int i = 0; i < ir::kNumPrims; ++i) {
    const auto p = static_cast<Prim>(i);
    switch (ir::info(p).kind) {
      case ir::PrimKind::unary:
        t[p] = {shape::unary, one_tangent<unary_jvp>, unary_vjp, batch, unary_forward};
        break;
      case ir::PrimKind::binary:
        t[p] = {shape::binary, one_tangent<binary_jvp>, binary_vjp, batch, binary_forward};
        break;
      case ir::PrimKind::compare:
        t[p] = {shape::binary, nullptr, nullptr, batch};
        break;
      case ir::PrimKind::logical:
        t[p] = {shape::logical, nullptr, nullptr, batch};
        break;
      default:
        break;
    }
  }
  t[Prim::select_n] = {shape::select_n, one_tangent<select_n_jvp>, one_cotangent<select_n_vjp>,
                       batch, select_n_forward};
  t[Prim::clamp] = {shape::clamp, one_tangent<clamp_jvp>, one_cotangent<clamp_vjp>,
                    one_batched<clamp_batch>, clamp_forward};
  t[Prim::convert_element_type] = {shape::convert_element_type, one_tangent<convert_jvp>,
                                   one_cotangent<convert_vjp>, batch};
  t[Prim::bitcast_convert_type] = {shape::bitcast_convert_type, nullptr, nullptr, batch};
  t[Prim::threefry2x32] = {shape::threefry2x32, nullptr, nullptr, multi_batch};
}

}  // namespace fj::transforms
