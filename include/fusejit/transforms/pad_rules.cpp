// JVP, VJP and batching rules of pad, tile and split (declared in pad_rules.hpp; implementation
// unit only).
#include "fusejit/transforms/pad_rules.hpp"

#include "fusejit/ir/pad_config.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

using V = std::vector<std::int64_t>;

Atom pad_with(Emit& E, Atom x, Atom v, const ir::PadConfig& c) {
  return E.b.emit1(Prim::pad, {x, v}, c.params());
}
Atom tile_with(Emit& E, Atom x, const V& reps) {
  ir::Params p;
  p.items.push_back({"reps", reps, true});
  return E.b.emit1(Prim::tile, {x}, std::move(p));
}
// All axes of x, for a total.
V all_axes(Emit& E, Atom x) {
  V axes;
  for (int a = 0; a < E.rank(x); ++a) axes.push_back(a);
  return axes;
}

}  // namespace

std::vector<MaybeAtom> jvp_pad(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                               const std::vector<MaybeAtom>& t) {
  if (e.prim == Prim::split) {
    if (!t[0]) return std::vector<MaybeAtom>(e.params.get<V>("sizes").size());
    const std::vector<Atom> pieces = E.b.emit(Prim::split, {*t[0]}, e.params);
    return std::vector<MaybeAtom>(pieces.begin(), pieces.end());
  }
  if (e.prim == Prim::tile) {
    if (!t[0]) return {std::nullopt};
    return {tile_with(E, *t[0], e.params.get<V>("reps"))};
  }
  if (!t[0] && !t[1]) return {std::nullopt};
  return {pad_with(E, E.or_zeros(t[0], E.aval(in[0])), E.or_zeros(t[1], E.aval(in[1])),
                   ir::PadConfig::from(e.params))};
}

std::vector<MaybeAtom> vjp_pad(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                               const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants) {
  std::vector<MaybeAtom> r(in.size());
  if (e.prim == Prim::split) {
    if (!wants[0] || std::none_of(ct.begin(), ct.end(), [](const MaybeAtom& c) { return c; }))
      return r;
    const auto axis = e.params.get<std::int64_t>("axis");
    std::vector<Atom> pieces;
    Shape piece = E.shape(in[0]);
    const V& sizes = e.params.get<V>("sizes");
    for (std::size_t k = 0; k < ct.size(); ++k) {
      piece[static_cast<int>(axis)] = sizes[k];
      pieces.push_back(E.or_zeros(ct[k], Aval{E.dtype(in[0]), piece, false}));
    }
    ir::Params cat;
    cat.items.push_back({"dimension", axis, true});
    r[0] = E.b.emit1(Prim::concatenate, std::move(pieces), std::move(cat));
    return r;
  }
  if (!ct[0]) return r;
  const Atom g = *ct[0];
  const Shape xs = E.shape(in[0]);
  if (e.prim == Prim::tile) {
    if (!wants[0]) return r;
    const V& reps = e.params.get<V>("reps");
    if (2 * xs.rank() <= kMaxRank) {
      V split, axes;
      for (int a = 0; a < xs.rank(); ++a) {
        split.push_back(reps[static_cast<std::size_t>(a)]);
        split.push_back(xs[a]);
        axes.push_back(2 * a);
      }
      r[0] = E.reduce_sum(E.reshape(g, Shape(split)), axes);
      return r;
    }
    // Too many axes to split all at once (Shape holds kMaxRank): one tiled axis at a time.
    Atom acc = g;
    for (int a = 0; a < xs.rank(); ++a) {
      const std::int64_t rep = reps[static_cast<std::size_t>(a)];
      if (rep == 1) continue;
      if (xs.rank() + 1 > kMaxRank)
        throw NotImplementedError("fj::grad: the transpose of tile needs rank " +
                                  std::to_string(xs.rank() + 1) + ", more than " +
                                  std::to_string(kMaxRank) + ", for " + E.aval(in[0]).str());
      V split = E.shape(acc).to_vector();
      split[static_cast<std::size_t>(a)] = xs[a];
      split.insert(split.begin() + a, rep);
      acc = E.reduce_sum(E.reshape(acc, Shape(split)), {a});
    }
    r[0] = acc;
    return r;
  }
  const ir::PadConfig c = ir::PadConfig::from(e.params);
  // The un-padding: lo and hi negated, no interior (JAX prints these as np.int64).
  ir::PadConfig un;
  for (int a = 0; a < c.rank(); ++a) {
    const auto k = static_cast<std::size_t>(a);
    un.lo.push_back(-c.lo[k]);
    un.hi.push_back(-c.hi[k]);
    un.interior.push_back(0);
  }
  un.np.assign(3 * c.lo.size(), 1);
  const Atom unpadded = pad_with(E, g, Emit::lit(0, E.dtype(g)), un);
  const Shape us = E.shape(unpadded);
  V strides;
  for (auto i : c.interior) strides.push_back(i + 1);
  ir::Params sp;
  sp.items.push_back({"limit_indices", us.to_vector(), true});
  sp.items.push_back({"start_indices", V(static_cast<std::size_t>(us.rank()), 0), true});
  sp.items.push_back({"strides", strides, true});
  // JAX's starts (np.zeros_like) and strides (np.add) are NumPy ints.
  sp.items.push_back({"start_indices@np", V(static_cast<std::size_t>(us.rank()), 1), false});
  sp.items.push_back({"strides@np", V(static_cast<std::size_t>(us.rank()), 1), false});
  const Atom t_operand = E.b.emit1(Prim::slice, {unpadded}, std::move(sp));
  if (wants[0]) r[0] = t_operand;
  if (wants[1])
    r[1] = E.sub(E.reduce_sum(g, all_axes(E, g)), E.reduce_sum(t_operand, all_axes(E, t_operand)));
  return r;
}

std::vector<Atom> batch_pad(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                            const std::vector<bool>& bat, std::int64_t n) {
  if (e.prim == Prim::split) {
    ir::Params p = e.params;
    for (auto& item : p.items)
      if (item.name == "axis") std::get<std::int64_t>(item.value) += 1;
    return E.b.emit(Prim::split, {in[0]}, std::move(p));
  }
  if (e.prim == Prim::tile) {
    V reps{1};
    const V& old = e.params.get<V>("reps");
    reps.insert(reps.end(), old.begin(), old.end());
    return {tile_with(E, in[0], reps)};
  }
  if (!bat[0]) in[0] = add_batch_axis(E, in[0], n);
  const ir::PadConfig c = ir::PadConfig::from(e.params).with_front_axis();
  if (!bat[1]) return {pad_with(E, in[0], in[1], c)};
  const Atom x = pad_with(E, in[0], Emit::lit(0, E.dtype(in[0])), c);
  const Atom mask = pad_with(E, E.full(Aval{DType::bool_, E.shape(in[0]), false}, 1),
                             Emit::lit(0, DType::bool_), c);
  const Atom padding = E.broadcast_in_dim(in[1], E.shape(x), {0});
  return {E.select(mask, padding, x)};
}

namespace {

std::vector<MaybeAtom> jvp_pad_rule(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<MaybeAtom>& t, const std::vector<Atom>&) {
  return jvp_pad(E, e, in, t);
}

/// pad's JVP pads with a zero tangent for a padding value without one: made in the forward
/// part, where JAX's linearization leaves it.
Forward pad_forward(Emit& E, const ForwardCall& c) {
  Forward f{E.b.emit(c.e.prim, c.in, c.e.params)};
  if (c.e.prim == Prim::pad && c.carries[0] && !c.carries[1] && c.keeps_reads && !c.linear)
    f.reads.push_back(E.zeros(E.aval(c.in[1])));
  return f;
}

void vjp_pad_rule(Emit& E, const VjpCall& c) { c.add_each(vjp_pad(E, c.e, c.in, c.ct, c.wanted)); }

}  // namespace

void register_pad_rules(ir::RuleTable& t) {
  namespace library = ir::library_rules;
  constexpr auto jvp = after_primals<jvp_pad_rule>;
  constexpr auto batch = all_batched<batch_pad>;
  t[Prim::pad] = {shape_rule<library::pad>, jvp, vjp_pad_rule, batch, pad_forward};
  t[Prim::tile] = {shape_rule<library::tile>, jvp, vjp_pad_rule, batch};
  t[Prim::split] = {shape_rule<library::split>, jvp, vjp_pad_rule, batch};
}

}  // namespace fj::transforms
