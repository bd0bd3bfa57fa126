// Reverse mode: one cotangent rule per differentiable primitive, and the pass that copies a
// graph's equations and then walks them backwards accumulating cotangents.
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/pad_config.hpp"
#include "fusejit/transforms/partials.hpp"
#include "fusejit/transforms/index_rules.hpp"
#include "fusejit/transforms/linalg_rules.hpp"
#include "fusejit/transforms/pad_rules.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/sort_rules.hpp"
#include "fusejit/transforms/spectral_rules.hpp"
#include "fusejit/transforms/transforms.hpp"
#include "fusejit/transforms/vjp_parts.hpp"

namespace fj::transforms {

using vjp_detail::NotLinear;
using vjp_detail::residual_order;
using vjp_detail::tangent_marks;
using vjp_detail::TangentMarks;
using vjp_detail::vjp_impl;
using vjp_detail::VjpLayout;

namespace {

Dims inverse_perm(const Dims& perm) {
  Dims inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    inv[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
  return inv;
}

std::int64_t position(const Dims& v, std::int64_t x) {
  return std::find(v.begin(), v.end(), x) - v.begin();
}

/// ct of broadcast_in_dim(x, shape, dims): summed over the new and the stretched dims.
Atom broadcast_transpose(Emit& E, Atom ct, const Aval& x, const Dims& dims) {
  const Shape out = E.shape(ct);
  Dims sum, kept_in;  // kept_in: x's dims that survive, in the order their out dims appear
  for (int d = 0; d < out.rank(); ++d) {
    const auto i = position(dims, d);
    if (i == static_cast<std::int64_t>(dims.size()) ||
        (x.shape[static_cast<int>(i)] == 1 && out[d] != 1))
      sum.push_back(d);
    else
      kept_in.push_back(i);
  }
  Atom r = E.reduce_sum(ct, sum);
  // Back to x's dim order, then the size-1 dims reinserted.
  Dims sorted = kept_in;
  std::sort(sorted.begin(), sorted.end());
  if (sorted != kept_in) {
    Dims perm;
    for (auto i : sorted) perm.push_back(position(kept_in, i));
    r = E.transpose(r, perm);
  }
  return E.reshape(r, x.shape);
}

/// ct of slice(x, start, limit, strides): ct spread back with zeros between strided elements,
/// then written into zeros of x's shape at `start`.
// JAX's _reduce_sum_transpose_rule: ct broadcast back over the reduced axes; the kept axes come
// from np.delete, so JAX prints them as np.int64.
Atom unreduce(Emit& E, Atom ct, const Shape& shape, const Dims& axes) {
  const Dims kept = kept_dims(shape.rank(), axes);
  if (kept.empty()) return E.broadcast_in_dim(ct, shape, kept);
  return detail::broadcast_np(E.b, ct, shape.to_vector(), kept, 0);
}

Atom slice_transpose(Emit& E, Atom ct, const Aval& x, const ir::Params& params) {
  // JAX's _slice_transpose_rule: ct padded with zeros back to x's shape, a stride's gaps as
  // interior padding. The high edges (and a stride's interior) come out of NumPy arithmetic,
  // so JAX prints them as np.int64; the low ones are the slice's own starts.
  const auto& start = params.get<Dims>("start_indices");
  const auto& limit = params.get<Dims>("limit_indices");
  const int r = x.shape.rank();
  const Dims steps = ir::slice_strides(params, r);
  const bool unit = std::all_of(steps.begin(), steps.end(), [](auto s) { return s == 1; });
  const ir::ParamValue* start_np = params.find("start_indices@np");
  const auto* start_flags = start_np ? std::get_if<Dims>(start_np) : nullptr;
  const Shape cs = E.shape(ct);
  ir::PadConfig c;
  for (int d = 0; d < r; ++d) {
    const auto i = static_cast<std::size_t>(d);
    const std::int64_t real_limit =
        unit ? limit[i] : start[i] + (cs[d] == 0 ? 0 : 1 + (cs[d] - 1) * steps[i]);
    c.lo.push_back(start[i]);
    c.hi.push_back(x.shape[d] - real_limit);
    c.interior.push_back(unit ? 0 : steps[i] - 1);
    const bool lo_np = start_flags && start_flags->size() == start.size() && (*start_flags)[i];
    c.np.insert(c.np.end(), {lo_np ? 1 : 0, 1, unit ? 0 : 1});
  }
  return E.b.emit1(Prim::pad, {ct, Emit::lit(0, x.dtype)}, c.params());
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

/// The cotangents of e's operands (nullopt: none) given its output's cotangent.
/// `needed[i]`: whether operand i leads back to an input whose cotangent is wanted.
std::vector<MaybeAtom> vjp_rule(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in, Atom y,
                                Atom ct, const std::vector<bool>& needed,
                                const Residuals& residual) {
  const ir::PrimInfo& pi = ir::info(e.prim);
  if (!has_vjp_rule(e.prim))
    throw ValueError("fj::grad: no reverse-mode rule for " + std::string(pi.name));
  std::vector<MaybeAtom> r(in.size());
  auto wants = [&](std::size_t i) {
    return needed[i] && !in[i].is_literal() && differentiable(E.aval(in[i]));
  };
  if (pi.kind == ir::PrimKind::binary)
    return binary_cotangents(E, e.prim, e.params, in, y, ct, {wants(0), wants(1)}, residual);
  if (pi.kind == ir::PrimKind::unary) {
    // vjp_graph applies unary rules itself, from the residual it computes in the forward pass
    // (unary_cotangent_terms); this is for callers without one.
    const MaybeAtom d = elementwise_partials(E, e.prim, e.params, in, y)[0];
    if (d && wants(0)) r[0] = E.mul(ct, *d);
    return r;
  }
  const Aval xa = E.aval(in[0]);
  switch (e.prim) {
    case Prim::select_n: {
      const Atom z = E.zeros(E.aval(ct));
      if (wants(1)) r[1] = E.select(in[0], ct, z);
      if (wants(2)) r[2] = E.select(in[0], z, ct);
      break;
    }
    case Prim::clamp:
      // JAX's select rules transposed, the last operand's first: ct where the mask holds (the
      // forward pass's residual), zeros elsewhere; summed back to a scalar bound's shape.
      for (std::size_t i = 3; i-- > 0;) {
        if (!wants(i)) continue;
        const Atom mask = residual[i] ? *residual[i] : clamp_mask(E, in, i);
        const Atom z = E.zeros(E.aval(ct));
        r[i] = E.unbroadcast(E.select(mask, z, ct), E.aval(in[i]));
      }
      break;
    case Prim::convert_element_type:
      if (wants(0)) r[0] = E.convert(ct, xa.dtype);
      break;
    case Prim::broadcast_in_dim:
      r[0] = broadcast_transpose(E, ct, xa, e.params.get<Dims>("broadcast_dimensions"));
      break;
    case Prim::transpose:
      r[0] = E.transpose(ct, inverse_perm(e.params.get<Dims>("permutation")));
      break;
    case Prim::slice:
      r[0] = slice_transpose(E, ct, xa, e.params);
      break;
    case Prim::reshape:
      r[0] = E.reshape(ct, xa.shape);
      break;
    case Prim::squeeze: {  // JAX's _squeeze_transpose_rule: expand_dims, a broadcast_in_dim
      const Dims& squeezed = e.params.get<Dims>("dimensions");
      r[0] = detail::lower_expand_dims(E.b, ct, std::vector<int>(squeezed.begin(), squeezed.end()));
      break;
    }
    case Prim::rev:
      r[0] = E.b.emit1(Prim::rev, {ct}, e.params);
      break;
    case Prim::reduce_sum:
      r[0] = unreduce(E, ct, xa.shape, e.params.get<Dims>("axes"));
      break;
    case Prim::reduce_prod: {
      const auto& axes = e.params.get<Dims>("axes");
      r[0] = E.mul(E.broadcast_in_dim(ct, xa.shape, kept_dims(xa.shape.rank(), axes)),
                   prod_partial(E, in[0], y, axes));
      break;
    }
    case Prim::reduce_max:
    case Prim::reduce_min: {
      const auto& axes = e.params.get<Dims>("axes");
      const Residuals m = residual[0] ? residual : chooser_mask(E, in[0], y, axes);
      const Atom spread = unreduce(E, E.div(ct, *m[1]), xa.shape, axes);
      r[0] = E.mul(spread, *m[0]);
      break;
    }
    case Prim::dot_general: {
      auto [cl, cr] = dot_transpose(E, ct, in[0], in[1], e.params, wants(0), wants(1));
      if (wants(0)) r[0] = cl;
      if (wants(1)) r[1] = cr;
      break;
    }
    case Prim::concatenate: {  // JAX's transpose: the cotangent split into every operand's piece
      const auto axis = e.params.get<std::int64_t>("dimension");
      Dims sizes;
      for (const Atom& a : in) sizes.push_back(E.shape(a)[static_cast<int>(axis)]);
      const std::vector<Atom> pieces = detail::lower_split(E.b, ct, sizes, static_cast<int>(axis));
      for (std::size_t i = 0; i < in.size(); ++i)
        if (wants(i)) r[i] = pieces[i];
      break;
    }
    case Prim::stack: {
      const bool stack = e.prim == Prim::stack;
      const auto axis = e.params.get<std::int64_t>(stack ? "axis" : "dimension");
      const Shape cs = E.shape(ct);
      std::int64_t off = 0;
      for (std::size_t i = 0; i < in.size(); ++i) {
        const auto n = stack ? 1 : E.shape(in[i])[static_cast<int>(axis)];
        Dims lo(static_cast<std::size_t>(cs.rank()), 0), hi = cs.to_vector();
        lo[static_cast<std::size_t>(axis)] = off;
        hi[static_cast<std::size_t>(axis)] = off + n;
        off += n;
        if (wants(i)) r[i] = E.reshape(E.slice(ct, lo, hi), E.shape(in[i]));
      }
      break;
    }
    case Prim::dynamic_slice:
      if (wants(0))
        r[0] = E.dynamic_update_slice(E.zeros(xa), ct, std::vector<Atom>(in.begin() + 1, in.end()));
      break;
    case Prim::dynamic_update_slice: {
      const std::vector<Atom> starts(in.begin() + 2, in.end());
      if (wants(0)) r[0] = E.dynamic_update_slice(ct, E.zeros(E.aval(in[1])), starts);
      if (wants(1)) r[1] = E.dynamic_slice(ct, starts, E.shape(in[1]).to_vector());
      break;
    }
    default:
      break;  // no float operand has a derivative through the rest
  }
  return r;
}

}  // namespace

// while_loop is forward-only, as in JAX: its rule raises, naming the alternatives.
bool has_vjp_rule(ir::Prim p) { return has_jvp_rule(p) && p != Prim::while_; }

namespace vjp_detail {

// Linear mode: which of v's forward equations a tangent (a wanted input) reaches, to be left
// out of the forward part; NotLinear if the backward part reads one of their values.
TangentMarks tangent_marks(const ir::Graph& v, std::size_t forward_eqns,
                           const std::vector<bool>& wrt) {
  TangentMarks t{std::vector<char>(v.eqns.size(), 0), std::vector<char>(v.avals.size(), 0)};
  for (std::size_t i = 0; i < wrt.size(); ++i)
    if (wrt[i]) t.values[static_cast<std::size_t>(v.invars[i])] = 1;
  for (std::size_t j = 0; j < v.eqns.size(); ++j) {
    const ir::Eqn& q = v.eqns[j];
    if (std::none_of(q.in.begin(), q.in.end(), [&](const Atom& a) {
          return !a.is_literal() && t.values[static_cast<std::size_t>(a.var)];
        }))
      continue;
    if (j >= forward_eqns) throw NotLinear{};
    t.eqns[j] = 1;
    for (ir::VarId o : q.out) t.values[static_cast<std::size_t>(o)] = 1;
  }
  return t;
}

// The forward values v's backward part reads (its residuals), in the order JAX's linearized
// program first reads them: by the equation of `sub` they serve, in sub's order; within an
// elementwise one, the reverse of the order its transpose reads them (JAX transposes the last
// linear term first). A literal the linearized program reads (a scalar select's zero) is a
// residual too: the forward part returns it and the backward part takes it, unread, as JAX's
// do.
std::vector<Atom> residual_order(const ir::Graph& sub, const ir::Graph& v, const VjpLayout& lay) {
  const std::size_t m = sub.invars.size(), n = sub.outvars.size();
  std::vector<char> known(v.avals.size(), 0);
  for (std::size_t i = 0; i < m; ++i) known[static_cast<std::size_t>(v.invars[i])] = 1;
  for (std::size_t k = 0; k < lay.forward_eqns; ++k)
    for (ir::VarId o : v.eqns[k].out) known[static_cast<std::size_t>(o)] = 1;
  std::map<std::size_t, std::vector<Atom>> reads;
  auto read = [&](std::size_t k, const Atom& a) {
    auto& r = reads[k];
    if (a.is_literal() ||
        (known[static_cast<std::size_t>(a.var)] &&
         std::none_of(r.begin(), r.end(), [&](const Atom& b) { return b.var == a.var; })))
      r.push_back(a);
  };
  for (std::size_t j = lay.forward_eqns; j < v.eqns.size(); ++j)
    for (const Atom& a : v.eqns[j].in)
      if (!a.is_literal()) read(lay.emitted_for[j - lay.forward_eqns], a);
  for (const auto& [k, r] : lay.ordered_reads) {
    reads[k].clear();
    for (const Atom& a : r) read(k, a);
  }
  for (auto& [k, r] : reads)
    if (!lay.ordered_reads.count(k) && k < sub.eqns.size() &&
        is_elementwise(ir::info(sub.eqns[k].prim).kind))
      std::reverse(r.begin(), r.end());
  for (const auto& [k, a] : lay.linear_reads) read(k, a);
  std::vector<Atom> res;
  std::vector<char> taken(v.avals.size(), 0);
  auto take = [&](const std::vector<Atom>& atoms) {
    for (const Atom& r : atoms)
      if (r.is_literal() || !taken[static_cast<std::size_t>(r.var)]) {
        if (!r.is_literal()) taken[static_cast<std::size_t>(r.var)] = 1;
        res.push_back(r);
      }
  };
  for (const auto& [k, r] : reads) take(r);
  // A cotangent that is a forward value as it is.
  for (std::size_t j = n; j < v.outvars.size(); ++j)
    if (!v.outvars[j].is_literal()) read(sub.eqns.size() + 1, v.outvars[j]);
  take(reads[sub.eqns.size() + 1]);

  return res;
}

}  // namespace vjp_detail

namespace {

// A jit equation in reverse mode, split as JAX's partial evaluation and transpose split it: a
// jit (same name) of the forward part, which returns the outputs and then the residuals, and a
// jit of the backward part, which takes the residuals and the outputs' cotangents and returns
// the cotangents of the wanted inputs. An output or residual that is one of the jit's operands,
// and a residual that is one of its outputs, is not returned again: the caller passes the
// value it already has (JAX's forwarding).
struct JitSplit {
  ir::GraphPtr known, backward;
  struct Source {
    bool operand;  // the jit's operand `index`, or the forward part's result `index`
    std::size_t index;
    bool unknown() const { return !operand && index == SIZE_MAX; }  // linear mode: a tangent's
  };
  std::vector<Source> outputs, residuals;
  std::vector<std::size_t> known_operands;  // the operands the forward part takes, in order
};

JitSplit split_jit_uncached(const ir::Graph& jaxpr, const std::vector<bool>& wrt,
                            const std::vector<bool>& has_ct, bool linear);

// The splits made during one reverse-mode pass (vjp_graph), by sub-graph and flags: the same
// jit split the same way twice shares its two parts, as JAX's cached partial evaluation and
// transpose share them (printed once, as `let _where = ...`). The sub-graphs outlive the pass.
// (Each entry holds its sub-graph, so that no other graph takes its address meanwhile.)
using SplitKey = std::tuple<const ir::Graph*, std::vector<bool>, std::vector<bool>, bool>;
thread_local std::map<SplitKey, std::pair<ir::GraphPtr, JitSplit>>* split_cache = nullptr;

JitSplit split_jit(const ir::GraphPtr& jaxpr, const std::vector<bool>& wrt,
                   const std::vector<bool>& has_ct, bool linear) {
  if (!split_cache) return split_jit_uncached(*jaxpr, wrt, has_ct, linear);
  const SplitKey key{jaxpr.get(), wrt, has_ct, linear};
  if (auto it = split_cache->find(key); it != split_cache->end()) return it->second.second;
  JitSplit s = split_jit_uncached(*jaxpr, wrt, has_ct, linear);
  split_cache->emplace(key, std::pair{jaxpr, s});
  return s;
}

JitSplit split_jit_uncached(const ir::Graph& jaxpr, const std::vector<bool>& wrt,
                            const std::vector<bool>& has_ct, bool linear) {
  const ir::Graph sub = expand_differentiated_scans(jaxpr, wrt);
  VjpLayout lay;
  const ir::Graph v = vjp_impl(sub, wrt, has_ct, &lay, linear);
  const std::size_t m = sub.invars.size(), n = sub.outvars.size();
  const std::vector<Atom> res = residual_order(sub, v, lay);
  // Linear mode: the forward part neither takes the tangents nor computes what they reach.
  const TangentMarks marks = linear ? tangent_marks(v, lay.forward_eqns, wrt)
                                    : TangentMarks{std::vector<char>(v.eqns.size(), 0),
                                                   std::vector<char>(v.avals.size(), 0)};
  const std::vector<char>& skip = marks.eqns;

  JitSplit s;
  ir::Graph known_g, back_g;
  known_g.avals = back_g.avals = v.avals;
  for (std::size_t j = 0; j < lay.forward_eqns; ++j)
    if (!skip[j]) known_g.eqns.push_back(v.eqns[j]);
  auto operand_of = [&](const Atom& a) {  // the jit's operand index; m: none
    return a.is_literal()
               ? m
               : static_cast<std::size_t>(
                     std::find(v.invars.begin(), v.invars.begin() + static_cast<std::ptrdiff_t>(m),
                               a.var) -
                     v.invars.begin());
  };
  auto is_tangent = [&](const Atom& a) {
    return !a.is_literal() && marks.values[static_cast<std::size_t>(a.var)];
  };
  auto returned = [&](const Atom& a) {
    known_g.outvars.push_back(a);
    return JitSplit::Source{false, known_g.outvars.size() - 1};
  };
  for (std::size_t j = 0; j < n; ++j) {
    const Atom& o = v.outvars[j];
    const std::size_t i = operand_of(o);
    s.outputs.push_back(i < m           ? JitSplit::Source{true, i}
                        : is_tangent(o) ? JitSplit::Source{false, SIZE_MAX}
                                        : returned(o));
  }
  for (const Atom& a : res) {
    const std::size_t i = operand_of(a);
    if (is_tangent(a)) throw NotLinear{};
    const auto out_at = std::find_if(
        v.outvars.begin(), v.outvars.begin() + static_cast<std::ptrdiff_t>(n),
        [&](const Atom& o) { return !a.is_literal() && !o.is_literal() && o.var == a.var; });
    s.residuals.push_back(i < m ? JitSplit::Source{true, i}
                          : out_at != v.outvars.begin() + static_cast<std::ptrdiff_t>(n)
                              ? s.outputs[static_cast<std::size_t>(out_at - v.outvars.begin())]
                              : returned(a));
  }
  for (const Atom& a : res)
    back_g.invars.push_back(a.is_literal() ? back_g.new_var(v.aval(a)) : a.var);
  back_g.invars.insert(back_g.invars.end(), v.invars.begin() + static_cast<std::ptrdiff_t>(m),
                       v.invars.end());
  back_g.eqns.assign(v.eqns.begin() + static_cast<std::ptrdiff_t>(lay.forward_eqns), v.eqns.end());
  back_g.outvars.assign(v.outvars.begin() + static_cast<std::ptrdiff_t>(n), v.outvars.end());
  // The forward part's operands: all but the tangents; in linear mode only those it reads, as
  // JAX's partial evaluation prunes them.
  std::vector<char> read(v.avals.size(), 0);
  for (const ir::Eqn& q : known_g.eqns)
    for (const Atom& a : q.in)
      if (!a.is_literal()) read[static_cast<std::size_t>(a.var)] = 1;
  for (const Atom& a : known_g.outvars)
    if (!a.is_literal()) read[static_cast<std::size_t>(a.var)] = 1;
  for (std::size_t i = 0; i < m; ++i)
    if (!linear || (!wrt[i] && read[static_cast<std::size_t>(v.invars[i])])) {
      known_g.invars.push_back(v.invars[i]);
      s.known_operands.push_back(i);
    }
  s.known = std::make_shared<const ir::Graph>(std::move(known_g));
  s.backward = std::make_shared<const ir::Graph>(std::move(back_g));
  return s;
}

// Which of e's results have a tangent, given which operands have one (`in`): JAX's symbolic
// zeros. stop_gradient's result has none; a jit's results, as its graph's; a custom call whose
// rule computes its results, as the rule's tangents (slogdet's sign: zeros_like, so none);
// otherwise every result has one if any operand has.
std::vector<bool> nonzero_outputs(const ir::Graph& g, const ir::Eqn& e,
                                  const std::vector<bool>& in);

// The outputs of g that have a tangent when the inputs `in` have.
std::vector<bool> nonzero_tangents(const ir::Graph& g, const std::vector<bool>& in) {
  std::vector<bool> nz(g.avals.size(), false);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    nz[static_cast<std::size_t>(g.invars[i])] = in[i];
  auto has = [&](const Atom& a) { return !a.is_literal() && nz[static_cast<std::size_t>(a.var)]; };
  for (const ir::Eqn& e : g.eqns) {
    std::vector<bool> flags;
    for (const Atom& a : e.in) flags.push_back(has(a));
    const std::vector<bool> out = nonzero_outputs(g, e, flags);
    for (std::size_t j = 0; j < e.out.size(); ++j) nz[static_cast<std::size_t>(e.out[j])] = out[j];
  }
  std::vector<bool> r;
  for (const Atom& o : g.outvars) r.push_back(has(o));
  return r;
}

std::vector<bool> nonzero_outputs(const ir::Graph& g, const ir::Eqn& e,
                                  const std::vector<bool>& in) {
  const bool any = std::any_of(in.begin(), in.end(), [](bool b) { return b; });
  if (!any || e.prim == Prim::stop_gradient) return std::vector<bool>(e.out.size(), false);
  if (e.prim == Prim::jit) return nonzero_tangents(*e.params.get<ir::GraphPtr>("jaxpr"), in);
  if (e.prim == Prim::custom_jvp_call) {
    std::vector<Aval> in_avals, out_avals;
    for (const Atom& a : e.in) in_avals.push_back(g.aval(a));
    for (ir::VarId o : e.out) out_avals.push_back(g.aval(Atom::of_var(o)));
    if (const std::optional<ir::Graph> rule = custom_call_jvp_graph(e, in_avals, out_avals)) {
      std::vector<bool> flags(in.size(), false);
      flags.insert(flags.end(), in.begin(), in.end());
      const std::vector<bool> both = nonzero_tangents(*rule, flags);
      return std::vector<bool>(both.begin() + static_cast<std::ptrdiff_t>(e.out.size()),
                               both.end());
    }
  }
  return std::vector<bool>(e.out.size(), true);
}

}  // namespace

namespace vjp_detail {

ir::Graph vjp_impl(const ir::Graph& g, const std::vector<bool>& wrt,
                   const std::vector<bool>& has_ct, VjpLayout* layout, bool linear) {
  GraphBuilder b;
  Emit E(b);
  std::vector<Atom> env(g.avals.size());
  std::vector<MaybeAtom> ct(g.avals.size());
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  // A value whose tangent is its operand's own (x + c, x - c: JAX's add and sub JVPs return
  // xdot itself) passes its cotangent straight to that operand, as JAX's transpose sees one
  // variable: so the operand's cotangents are summed in JAX's order.
  std::vector<ir::VarId> alias(g.avals.size(), ir::VarId{-1});
  auto accumulate = [&](ir::VarId v, Atom c) {
    while (alias[static_cast<std::size_t>(v)] >= 0) v = alias[static_cast<std::size_t>(v)];
    auto& slot = ct[static_cast<std::size_t>(v)];
    slot = slot ? E.add_any(*slot, c) : c;
  };
  // Which values depend on a wanted input: cotangents flow only along those.
  std::vector<bool> depends(g.avals.size(), false);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    depends[static_cast<std::size_t>(g.invars[i])] = wrt[i];
  auto dep = [&](const Atom& a) {
    return !a.is_literal() && depends[static_cast<std::size_t>(a.var)];
  };
  // A value a cotangent flows back through: depends on a wanted input, and is a float.
  auto carries = [&](const Atom& a) { return dep(a) && differentiable(g.aval(a)); };
  for (const ir::Eqn& e : g.eqns) {
    std::vector<bool> in_dep;
    for (const Atom& a : e.in) in_dep.push_back(dep(a));
    const std::vector<bool> out_dep = nonzero_outputs(g, e, in_dep);
    for (std::size_t j = 0; j < e.out.size(); ++j)
      depends[static_cast<std::size_t>(e.out[j])] = out_dep[j];
  }
  // Which values a cotangent may reach (more than do: a rule may still give none); a jit's
  // backward part takes a cotangent for each of its outputs that may get one.
  std::vector<bool> reached(g.avals.size(), false);
  for (std::size_t j = 0; j < g.outvars.size(); ++j)
    if (has_ct[j] && dep(g.outvars[j])) reached[static_cast<std::size_t>(g.outvars[j].var)] = true;
  for (std::size_t k = g.eqns.size(); k-- > 0;) {
    const ir::Eqn& e = g.eqns[k];
    if (std::none_of(e.out.begin(), e.out.end(),
                     [&](ir::VarId o) { return reached[static_cast<std::size_t>(o)]; }))
      continue;
    for (const Atom& a : e.in)
      if (dep(a)) reached[static_cast<std::size_t>(a.var)] = true;
  }
  for (const ir::Eqn& e : g.eqns) {
    if (e.prim != Prim::add && e.prim != Prim::sub) continue;
    const bool x = carries(e.in[0]), y = carries(e.in[1]);
    const ir::VarId from =
        x && !y ? e.in[0].var : (y && !x && e.prim == Prim::add ? e.in[1].var : -1);
    if (from >= 0 && g.aval(Atom::of_var(from)).shape == g.aval(Atom::of_var(e.out[0])).shape)
      alias[static_cast<std::size_t>(e.out[0])] = from;
  }
  for (ir::VarId v : g.invars)
    env[static_cast<std::size_t>(v)] = Atom::of_var(b.add_invar(g.aval(v)));
  std::vector<std::vector<Atom>> ins(g.eqns.size()), outs(g.eqns.size());
  // A unary elementwise equation's derivative (tanh: 1 - y) is computed in the forward pass,
  // right after the equation, where JAX's linearization leaves its residuals.
  std::vector<Residuals> residual(g.eqns.size());
  // A jit whose cotangents may flow: split in two (split_jit), its residuals' atoms.
  std::vector<std::optional<JitSplit>> jits(g.eqns.size());
  std::vector<std::vector<Atom>> jit_residuals(g.eqns.size());
  std::vector<std::vector<bool>> jit_has_ct(g.eqns.size());
  // A custom call whose rule computes its results: linearized from its rule.
  std::vector<std::optional<LinearizedCall>> calls(g.eqns.size());
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const ir::Eqn& e = g.eqns[k];
    for (auto& a : e.in) ins[k].push_back(at(a));
    const bool reaches = std::any_of(e.out.begin(), e.out.end(), [&](ir::VarId o) {
      return reached[static_cast<std::size_t>(o)];
    });
    const bool split = e.prim == Prim::jit && reaches;
    if (e.prim == Prim::custom_jvp_call && reaches && !linear) {
      std::vector<bool> sub_wrt, sub_ct;
      for (const Atom& a : e.in) sub_wrt.push_back(carries(a));
      for (ir::VarId o : e.out)
        sub_ct.push_back(reached[static_cast<std::size_t>(o)] && differentiable(g.aval(o)));
      calls[k] = linearize_call(E, g, e, ins[k], sub_wrt, sub_ct);
    }
    if (calls[k]) {
      outs[k] = calls[k]->results;
      if (layout) layout->ordered_reads[k] = calls[k]->residuals;
    } else if (split) {
      std::vector<bool> sub_wrt, sub_ct;
      for (const Atom& a : e.in) sub_wrt.push_back(carries(a));
      for (ir::VarId o : e.out)
        sub_ct.push_back(reached[static_cast<std::size_t>(o)] && differentiable(g.aval(o)));
      JitSplit sp = split_jit(e.params.get<ir::GraphPtr>("jaxpr"), sub_wrt, sub_ct, linear);
      std::vector<Atom> known_ops;
      for (std::size_t i : sp.known_operands) known_ops.push_back(ins[k][i]);
      // (A forward part with no results, in linear mode, is left out, as JAX drops it.)
      const std::vector<Atom> r =
          linear && sp.known->outvars.empty()
              ? std::vector<Atom>{}
              : b.emit(Prim::jit, known_ops, with_graph(e.params, sp.known));
      // Linear mode: the outputs a tangent reaches come from the whole call, which the caller
      // leaves out of the forward part (tangent_marks).
      std::vector<Atom> whole;
      auto value = [&](const JitSplit::Source& src) {
        return src.operand ? ins[k][src.index] : r[src.index];
      };
      for (std::size_t j = 0; j < sp.outputs.size(); ++j) {
        if (sp.outputs[j].unknown() && whole.empty()) whole = b.emit(Prim::jit, ins[k], e.params);
        outs[k].push_back(sp.outputs[j].unknown() ? whole[j] : value(sp.outputs[j]));
      }
      for (const JitSplit::Source& src : sp.residuals) jit_residuals[k].push_back(value(src));
      jits[k] = std::move(sp);
      jit_has_ct[k] = std::move(sub_ct);
    } else if (e.prim == Prim::sort && std::any_of(e.in.begin(), e.in.end(), carries)) {
      // JAX's sort JVP sorts an iota along: the permutation is the backward pass's residual.
      SortedWithIndices s = sort_with_indices(E, e, ins[k]);
      outs[k] = std::move(s.outs);
      residual[k][0] = s.indices;
    } else {
      outs[k] = b.emit(e.prim, ins[k], e.params);
    }
    for (std::size_t j = 0; j < e.out.size(); ++j)
      env[static_cast<std::size_t>(e.out[j])] = outs[k][j];
    if (e.in.size() == 1 && is_elementwise(ir::info(e.prim).kind) && has_vjp_rule(e.prim) &&
        carries(e.in[0]) && differentiable(g.aval(e.out[0])))
      residual[k] = unary_residual(E, e.prim, e.params, ins[k][0], outs[k][0]);
    if ((e.prim == Prim::reduce_max || e.prim == Prim::reduce_min) && carries(e.in[0]))
      residual[k] = chooser_mask(E, ins[k][0], outs[k][0], e.params.get<Dims>("axes"));
    if (ir::info(e.prim).kind == ir::PrimKind::binary && differentiable(g.aval(e.out[0])))
      residual[k] =
          binary_residual(E, e.prim, ins[k], outs[k][0], {carries(e.in[0]), carries(e.in[1])});
    if (e.prim == Prim::clamp && differentiable(g.aval(e.out[0]))) {
      // JAX's rules compute each carrying operand's mask and the zeros they select against
      // here, where its linearization leaves them (the zeros unread, as JAX's).
      for (std::size_t i = 0; i < 3; ++i) {
        if (!carries(e.in[i])) continue;
        residual[k][i] = clamp_mask(E, ins[k], i);
        const Atom z = E.zeros(g.aval(e.out[0]));
        if (layout && !linear) layout->linear_reads.push_back({k, z});
      }
    }
    if (e.prim == Prim::select_n) {
      // JAX's select_n JVP fills the cases without a tangent with zeros it makes here (its
      // transpose makes its own): computed where JAX's linearization leaves them.
      std::size_t with = 0;
      for (std::size_t i = 1; i < e.in.size(); ++i) with += carries(e.in[i]);
      if (!linear && with > 0 && with + 1 < e.in.size() && differentiable(g.aval(e.out[0]))) {
        const Atom z = E.zeros(g.aval(e.out[0]));
        if (layout) layout->linear_reads.push_back({k, z});
      }
      // Linear mode (a rule's tangents): its zeros are zeros_like of those cases' values,
      // which JAX's linearized program reads (and passes on to a jit's backward part).
      if (linear && with > 0 && layout)
        for (std::size_t i = 1; i < e.in.size(); ++i)
          if (!carries(e.in[i]) && !e.in[i].is_literal())
            layout->linear_reads.push_back({k, ins[k][i]});
    }
    // pad's JVP likewise pads with a zero tangent for a padding value without one.
    if (e.prim == Prim::pad && carries(e.in[0]) && !carries(e.in[1]) && layout && !linear)
      layout->linear_reads.push_back({k, E.zeros(g.aval(e.in[1]))});
  }
  if (layout) layout->forward_eqns = b.graph.eqns.size();
  auto attribute = [&](std::size_t k) {
    if (layout) layout->emitted_for.resize(b.graph.eqns.size() - layout->forward_eqns, k);
  };
  for (std::size_t j = 0; j < g.outvars.size(); ++j) {
    if (!has_ct[j]) continue;
    const Atom& o = g.outvars[j];
    const Atom c = Atom::of_var(b.add_invar(g.aval(o)));
    if (dep(o) && differentiable(g.aval(o))) accumulate(o.var, c);
  }
  for (std::size_t k = g.eqns.size(); k-- > 0;) {
    const ir::Eqn& e = g.eqns[k];
    std::vector<MaybeAtom> cts;
    bool any = false;
    for (ir::VarId v : e.out) {
      cts.push_back(ct[static_cast<std::size_t>(v)]);
      any = any || cts.back().has_value();
    }
    if (!any) continue;
    if (residual[k][0] && e.in.size() == 1 && is_elementwise(ir::info(e.prim).kind)) {
      unary_cotangent_terms(E, e.prim, residual[k], outs[k][0], *cts[0],
                            [&](Atom term) { accumulate(e.in[0].var, term); });
      attribute(k);
      continue;
    }
    if (jits[k]) {
      // The backward part: the residuals, then a cotangent (zeros if none came) per output
      // that may get one; it returns the wanted inputs' cotangents in order.
      std::vector<Atom> ops = jit_residuals[k];
      for (std::size_t j = 0; j < e.out.size(); ++j)
        if (jit_has_ct[k][j]) ops.push_back(E.or_zeros(cts[j], g.aval(e.out[j])));
      const std::vector<Atom> r = b.emit(Prim::jit, ops, with_graph(e.params, jits[k]->backward));
      std::size_t next = 0;
      for (const Atom& a : e.in)
        if (carries(a)) accumulate(a.var, r[next++]);
      attribute(k);
      continue;
    }
    if (calls[k]) {
      std::vector<Aval> avals;
      for (ir::VarId o : e.out) avals.push_back(g.aval(Atom::of_var(o)));
      const std::vector<MaybeAtom> r = transpose_call(E, *calls[k], cts, avals);
      for (std::size_t i = 0; i < e.in.size(); ++i)
        if (r[i] && !e.in[i].is_literal()) accumulate(e.in[i].var, *r[i]);
      attribute(k);
      continue;
    }
    std::vector<bool> needed;
    for (auto& a : e.in) needed.push_back(dep(a));
    std::vector<bool> wanted;
    for (std::size_t i = 0; i < e.in.size(); ++i)
      wanted.push_back(needed[i] && !e.in[i].is_literal() && differentiable(g.aval(e.in[i])));
    const auto r =
        ir::is_lax_control(e.prim)            ? vjp_control(E, e, ins[k], outs[k], cts, needed)
        : e.prim == Prim::custom_jvp_call     ? vjp_custom_call(E, e, ins[k], outs[k], cts, needed)
        : e.prim == Prim::custom_linear_solve ? vjp_linear_solve(E, e, ins[k], outs[k], cts, needed)
        : is_collective(e.prim)               ? vjp_collective(E, e, cts)
        : is_sort_or_scan(e.prim) ? vjp_sorting(E, e, ins[k], outs[k], cts, wanted, residual[k][0])
        : is_linalg(e.prim)       ? vjp_linalg(E, e, ins[k], outs[k], cts, wanted)
        : is_spectral(e.prim)     ? vjp_spectral(E, e, ins[k], outs[k], cts, wanted)
        : is_index_op(e.prim)     ? vjp_index(E, e, ins[k], outs[k], cts, wanted)
        : is_pad_op(e.prim)       ? vjp_pad(E, e, ins[k], cts, wanted)
                            : vjp_rule(E, e, ins[k], outs[k][0], *cts[0], needed, residual[k]);
    // JAX transposes a binary op's linearized terms last first, so operand 1's cotangent is
    // summed into a variable both operands read (x * x) before operand 0's: add_any's order.
    const bool last_first = ir::info(e.prim).kind == ir::PrimKind::binary;
    for (std::size_t j = 0; j < e.in.size(); ++j) {
      const std::size_t i = last_first ? e.in.size() - 1 - j : j;
      if (r[i] && !e.in[i].is_literal()) accumulate(e.in[i].var, *r[i]);
    }
    attribute(k);
  }
  for (auto& o : g.outvars) b.graph.outvars.push_back(at(o));
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    if (wrt[i])
      b.graph.outvars.push_back(
          E.or_zeros(ct[static_cast<std::size_t>(g.invars[i])], g.aval(g.invars[i])));
  attribute(g.eqns.size());
  return std::move(b.graph);
}

}  // namespace vjp_detail

ir::Graph vjp_graph(const ir::Graph& g, const std::vector<bool>& wrt) {
  std::map<SplitKey, std::pair<ir::GraphPtr, JitSplit>> cache;  // the outermost pass's
  const bool outermost = split_cache == nullptr;
  if (outermost) split_cache = &cache;
  struct Reset {
    bool on;
    ~Reset() {
      if (on) split_cache = nullptr;
    }
  } reset{outermost};
  return vjp_impl(expand_differentiated_scans(g, wrt), wrt,
                  std::vector<bool>(g.outvars.size(), true), nullptr);
}

}  // namespace fj::transforms
