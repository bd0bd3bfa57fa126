// The rules of dot_general: the product rule, JAX's _dot_general_transpose_lhs/_rhs, and its
// batching rule (the batch axis made a batch dimension, or carried as a free one)
// (implementation unit only).
#include <numeric>

#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

MaybeAtom dot_general_jvp(Emit& E, const JvpCall& c, Atom) {
  MaybeAtom ty;
  if (c.t[0]) ty = E.b.emit1(Prim::dot_general, {*c.t[0], c.in[1]}, c.e.params);
  if (c.t[1]) {
    const Atom term = E.b.emit1(Prim::dot_general, {c.in[0], *c.t[1]}, c.e.params);
    ty = ty ? E.add(*ty, term) : term;
  }
  return ty;
}

/// The cotangents of dot_general's operands: each is dot_general(ct, other operand), transposed
/// into the operand's dim order.
std::pair<Atom, Atom> dot_transpose(Emit& E, Atom ct, Atom lhs, Atom rhs, const ir::Params& params,
                                    bool want_lhs, bool want_rhs) {
  const ir::DotDims dd = ir::DotDims::from(params);
  const int rl = E.rank(lhs), rr = E.rank(rhs);
  const auto nb = static_cast<std::int64_t>(dd.lhs_batch.size());
  const Dims lf = ir::DotDims::free_dims(rl, dd.lhs_batch, dd.lhs_contract);
  const Dims rf = ir::DotDims::free_dims(rr, dd.rhs_batch, dd.rhs_contract);
  const auto nlf = static_cast<std::int64_t>(lf.size()), nrf = static_cast<std::int64_t>(rf.size());
  Dims ct_batch(static_cast<std::size_t>(nb));
  std::iota(ct_batch.begin(), ct_batch.end(), 0);
  // ct and the operand in one dtype: the operand's (a mixed-dtype dot promotes inside).
  auto one = [&](Atom other, Atom self, const Dims& other_free, const Dims& other_batch,
                 std::int64_t ct_from, std::int64_t n_other_free, const Dims& self_batch,
                 const Dims& self_free, const Dims& self_contract, const Dims& other_contract) {
    const DType d = E.dtype(self);
    ir::DotDims q;
    for (std::int64_t j = 0; j < n_other_free; ++j) q.lhs_contract.push_back(ct_from + j);
    q.rhs_contract = other_free;
    q.lhs_batch = ct_batch;
    q.rhs_batch = other_batch;
    ir::Params p;
    q.add_to(p);
    p.items.push_back({"preferred_element_type", d, true});
    const Atom r = E.b.emit1(Prim::dot_general, {E.convert(ct, d), E.convert(other, d)}, p);
    // r's dims: batch, ct's free dims (self's free dims), other's contracting dims in order.
    Dims sorted_oc = other_contract;
    std::sort(sorted_oc.begin(), sorted_oc.end());
    Dims perm(static_cast<std::size_t>(E.rank(self)));
    for (std::int64_t i = 0; i < nb; ++i)
      perm[static_cast<std::size_t>(self_batch[static_cast<std::size_t>(i)])] = i;
    for (std::size_t j = 0; j < self_free.size(); ++j)
      perm[static_cast<std::size_t>(self_free[j])] = nb + static_cast<std::int64_t>(j);
    for (std::size_t k = 0; k < self_contract.size(); ++k)
      perm[static_cast<std::size_t>(self_contract[k])] =
          nb + static_cast<std::int64_t>(self_free.size()) + position(sorted_oc, other_contract[k]);
    return E.transpose(r, perm);
  };
  Atom cl{}, cr{};
  if (want_lhs)
    cl = one(rhs, lhs, rf, dd.rhs_batch, nb + nlf, nrf, dd.lhs_batch, lf, dd.lhs_contract,
             dd.rhs_contract);
  if (want_rhs)
    cr = one(lhs, rhs, lf, dd.lhs_batch, nb, nlf, dd.rhs_batch, rf, dd.rhs_contract,
             dd.lhs_contract);
  return {cl, cr};
}

std::vector<MaybeAtom> dot_general_vjp(Emit& E, const VjpCall& c, Atom ct) {
  std::vector<MaybeAtom> r(2);
  auto [cl, cr] = dot_transpose(E, ct, c.in[0], c.in[1], c.e.params, c.wanted[0], c.wanted[1]);
  if (c.wanted[0]) r[0] = cl;
  if (c.wanted[1]) r[1] = cr;
  return r;
}

Atom dot_general_batch(Emit& E, BatchCall& c) {
  std::vector<Atom>& in = c.in;
  const std::vector<bool>& bat = c.bat;
  const ir::Eqn& e = c.e;
  ir::DotDims dd = ir::DotDims::from(e.params);
  const int rl = E.rank(in[0]) - (bat[0] ? 1 : 0);
  const auto nb = static_cast<std::int64_t>(dd.lhs_batch.size());
  const auto nlf =
      static_cast<std::int64_t>(ir::DotDims::free_dims(rl, dd.lhs_batch, dd.lhs_contract).size());
  auto shift_side = [&](bool b, Dims& batch, Dims& contract) {
    if (!b) return;
    batch = shifted(batch), contract = shifted(contract);
  };
  shift_side(bat[0], dd.lhs_batch, dd.lhs_contract);
  shift_side(bat[1], dd.rhs_batch, dd.rhs_contract);
  std::int64_t at = 0;  // where the batch axis lands in the output
  if (bat[0] && bat[1]) {
    dd.lhs_batch = with_front(0, dd.lhs_batch);
    dd.rhs_batch = with_front(0, dd.rhs_batch);
  } else if (bat[0]) {
    at = nb;  // the first lhs free dim
  } else {
    at = nb + nlf;  // the first rhs free dim
  }
  ir::Params p;
  dd.add_to(p);
  for (auto& item : e.params.items)
    if (item.name == "preferred_element_type") p.items.push_back(item);
  const Atom r = E.b.emit1(Prim::dot_general, std::move(in), std::move(p));
  return E.move_axis(r, static_cast<int>(at), 0);
}

}  // namespace

void register_dot_general_rules(ir::RuleTable& t) {
  t[Prim::dot_general] = {shape_rule<ir::library_rules::dot_general>, one_tangent<dot_general_jvp>,
                          one_cotangent<dot_general_vjp>, one_batched<dot_general_batch>};
}

}  // namespace fj::transforms
