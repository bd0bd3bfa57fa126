// JVP, VJP and batching rules of gather and the scatters (declared in index_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/index_rules.hpp"

#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

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
// The scatter `p` with the equation's mode and promises.
Atom scatter_like(Emit& E, const ir::Eqn& e, Prim p, Atom x, Atom idx, Atom u,
                  const ir::IndexDims& d) {
  return detail::lower_scatter(E.b, p, x, idx, u, d, ir::mode_of(e.params),
                               e.params.get<bool>("indices_are_sorted"),
                               e.params.get<bool>("unique_indices"));
}

// The scatter's inverse: `src` (of the operand's shape) read at every update's position, in the
// updates' shape; the window of an update the scatter dropped reads zeros. The window sizes are
// 1 on inserted and batching axes, the updates' window axes elsewhere, in order.
Atom gather_updates(Emit& E, const ir::Eqn& e, Atom src, Atom idx, const Shape& updates) {
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  V sizes;
  std::size_t k = 0;
  for (int a = 0; a < E.rank(src); ++a)
    sizes.push_back(d.is_inserted(a) ? 1 : updates[static_cast<int>(d.window[k++])]);
  return gather_like(E, e, src, idx, d, sizes, is_float(E.dtype(src)) ? "0.0" : "0");
}

// 1 + the position of each update (its window axes collapsed), broadcast over its window: the
// ids JAX's _scatter_jvp scatters to find which of several updates of one element won.
Atom update_ids(Emit& E, const ir::Eqn& e, const Shape& updates) {
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  Shape ids = updates;
  for (auto a : d.window) ids[static_cast<int>(a)] = 1;
  const Atom flat = detail::lower_iota(E.b, DType::i32, Shape{ids.size()}, 0);
  const Atom one_based = E.bin(Prim::add, E.reshape(flat, ids), Emit::lit(1, DType::i32));
  return E.broadcast_to(one_based, updates);
}

// The coefficients of scatter-min/-max's tangent map (JAX's _scatter_extremal_jvp): an update
// that reached its element shares the element's tangent evenly with the other winners and
// with the operand if the operand held out too; the operand's tangent, gathered at each
// update, is scaled so that summing over the num_refs updates of one element leaves its
// share.
struct ExtremalCoefficients {
  Atom operand, updates;
};
ExtremalCoefficients extremal_coefficients(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                           Atom out) {
  const Atom x = in[0], idx = in[1], u = in[2];
  const Shape us = E.shape(u);
  const DType t = E.dtype(x);
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  const Atom initial = gather_updates(E, e, x, idx, us);
  const Atom target = gather_updates(E, e, out, idx, us);
  const Atom won = E.bin(Prim::eq, u, target);
  const Atom kept = E.bin(Prim::eq, initial, target);
  const Atom zeros_u = E.zeros(E.aval(u)), ones_u = E.full(E.aval(u), 1);
  auto count_at_updates = [&](Atom per_update) {
    const Atom counts =
        scatter_like(E, e, Prim::scatter_add, E.zeros(E.aval(x)), idx, per_update, d);
    return gather_updates(E, e, counts, idx, us);
  };
  const Atom num_updates = count_at_updates(E.select(won, zeros_u, ones_u));
  const Atom num_refs = count_at_updates(ones_u);
  const Atom one = Emit::lit(1, t);
  const Atom share_with_operand = E.div(one, E.bin(Prim::add, num_updates, one));
  const Atom share = E.div(one, num_updates);
  const Atom updates_coef = E.select(won, zeros_u, E.select(kept, share, share_with_operand));
  const Atom operand_share = E.select(kept, zeros_u, share_with_operand);
  const Atom operand_coef = E.div(E.bin(Prim::add, Emit::lit(-1, t), operand_share), num_refs);
  return {operand_coef, updates_coef};
}

// Axis 0 (the new batch axis) in front of dims already shifted past it.
V axis0_and(const V& v) {
  V r{0};
  r.insert(r.end(), v.begin(), v.end());
  return r;
}

// JAX raises the same for scatter-mul's derivative in its updates without unique indices.
void require_unique(const ir::Eqn& e, const char* where) {
  if (!e.params.get<bool>("unique_indices"))
    throw NotImplementedError(std::string(where) +
                              ": scatter-mul's derivative in its updates is only implemented "
                              "with unique_indices=True (as in JAX)");
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
  switch (e.prim) {
    case Prim::scatter_add:
    case Prim::scatter:
      return {scatter_like(E, e, e.prim, tx, in[1], tu, d)};
    case Prim::scatter_mul: {
      MaybeAtom r;
      if (t[0]) r = scatter_like(E, e, Prim::scatter_mul, *t[0], in[1], in[2], d);
      if (t[2]) {
        require_unique(e, "fj::jvp");
        const Atom spread =
            scatter_like(E, e, Prim::scatter_add, E.zeros(E.aval(in[0])), in[1], *t[2], d);
        const Atom du = E.mul(in[0], spread);
        r = r ? E.add(*r, du) : du;
      }
      return {r};
    }
    default: {  // scatter-min, scatter-max
      const auto c = extremal_coefficients(E, e, in, out[0]);
      const Atom at_updates = gather_updates(E, e, tx, in[1], E.shape(in[2]));
      const Atom tangent_updates = E.add(E.mul(at_updates, c.operand), E.mul(tu, c.updates));
      return {scatter_like(E, e, Prim::scatter_add, tx, in[1], tangent_updates, d)};
    }
  }
}

std::vector<MaybeAtom> vjp_index(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                 const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                 const std::vector<bool>& wants) {
  std::vector<MaybeAtom> r(in.size());
  if (!ct[0]) return r;
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  const Atom c = *ct[0];
  if (e.prim == Prim::gather) {
    if (wants[0]) r[0] = scatter_like(E, e, Prim::scatter_add, E.zeros(E.aval(in[0])), in[1], c, d);
    return r;
  }
  const Shape us = E.shape(in[2]);
  switch (e.prim) {
    case Prim::scatter_add:
      if (wants[0]) r[0] = c;
      if (wants[2]) r[2] = gather_updates(E, e, c, in[1], us);
      break;
    case Prim::scatter:
      if (wants[0]) r[0] = scatter_like(E, e, Prim::scatter, c, in[1], E.zeros(E.aval(in[2])), d);
      if (wants[2]) {
        Atom at_updates = gather_updates(E, e, c, in[1], us);
        if (!e.params.get<bool>("unique_indices")) {
          // Only the update that won its element receives the element's cotangent.
          const Atom ids = update_ids(E, e, us);
          const Atom scattered = scatter_like(
              E, e, Prim::scatter, E.zeros(Aval{DType::i32, E.shape(in[0]), false}), in[1], ids, d);
          const Atom won = E.bin(Prim::eq, ids, gather_updates(E, e, scattered, in[1], us));
          at_updates = E.select(won, E.zeros(E.aval(in[2])), at_updates);
        }
        r[2] = at_updates;
      }
      break;
    case Prim::scatter_mul:
      if (wants[0]) r[0] = scatter_like(E, e, Prim::scatter_mul, c, in[1], in[2], d);
      if (wants[2]) {
        require_unique(e, "fj::grad");
        r[2] = gather_updates(E, e, E.mul(c, in[0]), in[1], us);
      }
      break;
    default: {  // scatter-min, scatter-max: the transpose of jvp_index's tangent map
      const auto k = extremal_coefficients(E, e, in, out[0]);
      const Atom at_updates = gather_updates(E, e, c, in[1], us);
      if (wants[0])
        r[0] = E.add(c, scatter_like(E, e, Prim::scatter_add, E.zeros(E.aval(in[0])), in[1],
                                     E.mul(at_updates, k.operand), d));
      if (wants[2]) r[2] = E.mul(at_updates, k.updates);
    }
  }
  return r;
}

std::vector<Atom> batch_index(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                              const std::vector<bool>& bat, std::int64_t n) {
  const ir::IndexDims d = ir::IndexDims::from(e.params);
  const bool scatter = is_scatter(e.prim);
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
  if (scatter) return {scatter_like(E, e, e.prim, in[0], in[1], in[2], nd)};
  V sizes = e.params.get<V>("slice_sizes");
  if (bat[0]) sizes.insert(sizes.begin(), bat[1] ? 1 : n);
  return {gather_like(E, e, in[0], in[1], nd, sizes, fill_of(e))};
}

void register_index_rules(ir::RuleTable& t) {
  namespace library = ir::library_rules;
  constexpr auto row = library_row<jvp_index, vjp_index, batch_index>;
  t[Prim::gather] = row(shape_rule<library::gather>);
  for (Prim p :
       {Prim::scatter, Prim::scatter_add, Prim::scatter_mul, Prim::scatter_min, Prim::scatter_max})
    t[p] = row(library::scatter);
}

}  // namespace fj::transforms
