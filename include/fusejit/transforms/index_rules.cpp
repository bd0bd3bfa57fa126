// JVP, VJP and batching rules of gather and scatter-add (declared in index_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/index_rules.hpp"

#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/transforms/batching.hpp"

namespace fj::transforms {

namespace {

using V = std::vector<std::int64_t>;

// gather's fill_value as the equation holds it.
const std::string& fill_of(const ir::Eqn& e) { return e.params.get<std::string>("fill_value"); }

Atom gather_like(Emit& E, const ir::Eqn& e, Atom x, Atom idx, const ir::IndexDims& d,
                 const V& sizes, const std::string& fill) {
  return detail::lower_gather(E.b, x, idx, d, sizes, ir::mode_of(e.params), fill,
                              e.params.get<bool>("indices_are_sorted"),
                              e.params.get<bool>("unique_indices"));
}
Atom scatter_add_like(Emit& E, const ir::Eqn& e, Atom x, Atom idx, Atom u, const ir::IndexDims& d) {
  return detail::lower_scatter_add(E.b, x, idx, u, d, ir::mode_of(e.params),
                                   e.params.get<bool>("indices_are_sorted"),
                                   e.params.get<bool>("unique_indices"));
}

// Axis 0 (the new batch axis) in front of dims already shifted past it.
V axis0_and(const V& v) {
  V r{0};
  r.insert(r.end(), v.begin(), v.end());
  return r;
}

}  // namespace

std::vector<MaybeAtom> jvp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& t, const std::vector<Atom>& out) {
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  if (e.prim == Prim::gather) {
    if (!t[0]) return {std::nullopt};
    return {gather_like(E, e, *t[0], in[1], d, e.params.get<V>("slice_sizes"), fill_of(e))};
  }
  if (!t[0] && !t[2]) return {std::nullopt};
  const Atom tx = E.or_zeros(t[0], E.aval(out[0]));
  const Atom tu = E.or_zeros(t[2], E.aval(in[2]));
  return {scatter_add_like(E, e, tx, in[1], tu, d)};
}

std::vector<MaybeAtom> vjp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants) {
  std::vector<MaybeAtom> r(in.size());
  if (!ct[0]) return r;
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  if (e.prim == Prim::gather) {
    if (wants[0]) r[0] = scatter_add_like(E, e, E.zeros(E.aval(in[0])), in[1], *ct[0], d);
    return r;
  }
  if (wants[0]) r[0] = *ct[0];
  if (wants[2]) {
    // The updates' window sizes: 1 on inserted and batching axes, the updates' window axes
    // elsewhere, in order; an out-of-range window reads zeros (its update was dropped).
    const Shape us = E.shape(in[2]);
    V sizes;
    std::size_t k = 0;
    for (int a = 0; a < E.rank(in[0]); ++a)
      sizes.push_back(d.is_inserted(a) ? 1 : us[static_cast<int>(d.window[k++])]);
    const bool is_float = fj::is_float(E.dtype(in[0]));
    r[2] = gather_like(E, e, *ct[0], in[1], d, sizes, is_float ? "0.0" : "0");
  }
  return r;
}

std::vector<Atom> batch_index(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                              const std::vector<bool>& bat, std::int64_t n) {
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  const bool scatter = e.prim == Prim::scatter_add;
  // A scatter's result is batched whenever anything is: each batch member scatters into its
  // own copy of the operand, so operand and updates both get the axis.
  if (scatter) {
    if (!bat[0]) in[0] = add_batch_axis(E, in[0], n);
    if (!bat[2]) in[2] = add_batch_axis(E, in[2], n);
  }
  const bool operand_batched = scatter || bat[0];
  ir::IndexDims nd = d;
  nd.window = shifted(d.window);
  nd.indices_batching = bat[1] ? shifted(d.indices_batching) : d.indices_batching;
  if (operand_batched) {
    nd.collapsed = shifted(d.collapsed);
    nd.start_map = shifted(d.start_map);
    nd.operand_batching = shifted(d.operand_batching);
    if (bat[1]) {
      // Both: the new axis is a batching dimension of operand and indices alike.
      nd.operand_batching = axis0_and(nd.operand_batching);
      nd.indices_batching = axis0_and(nd.indices_batching);
    } else {
      // Operand alone: the new axis is a window axis, taken whole.
      nd.window = axis0_and(nd.window);
    }
  }
  if (scatter) return {scatter_add_like(E, e, in[0], in[1], in[2], nd)};
  V sizes = e.params.get<V>("slice_sizes");
  if (bat[0]) sizes.insert(sizes.begin(), bat[1] ? 1 : n);
  return {gather_like(E, e, in[0], in[1], nd, sizes, fill_of(e))};
}

}  // namespace fj::transforms
