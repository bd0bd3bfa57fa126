// The rules of the primitives that move elements without arithmetic: broadcast_in_dim,
// transpose, slice, reshape, rev, squeeze, concatenate, stack, dynamic_slice and
// dynamic_update_slice (all linear), and the generators iota and platform_index, which take no
// operands (implementation unit only).
#include <algorithm>
#include <numeric>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/ir/pad_config.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/ir/shape_rules_structural.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace {

// --- Forward mode: each is linear, so its tangent is the equation on the tangents ---

MaybeAtom same_on_tangent(Emit& E, const JvpCall& c, Atom) {
  return E.b.emit1(c.e.prim, {*c.t[0]}, c.e.params);
}

MaybeAtom join_jvp(Emit& E, const JvpCall& c, Atom) {  // concatenate, stack
  std::vector<Atom> ops;
  for (std::size_t i = 0; i < c.in.size(); ++i) ops.push_back(E.or_zeros(c.t[i], E.aval(c.in[i])));
  return E.b.emit1(c.e.prim, std::move(ops), c.e.params);
}

MaybeAtom dynamic_slice_jvp(Emit& E, const JvpCall& c, Atom) {
  if (!c.t[0]) return std::nullopt;
  std::vector<Atom> ops{*c.t[0]};
  ops.insert(ops.end(), c.in.begin() + 1, c.in.end());
  return E.b.emit1(c.e.prim, std::move(ops), c.e.params);
}

MaybeAtom dynamic_update_slice_jvp(Emit& E, const JvpCall& c, Atom) {
  std::vector<Atom> ops{E.or_zeros(c.t[0], E.aval(c.in[0])), E.or_zeros(c.t[1], E.aval(c.in[1]))};
  ops.insert(ops.end(), c.in.begin() + 2, c.in.end());
  return E.b.emit1(c.e.prim, std::move(ops), c.e.params);
}

// --- Reverse mode ---

/// ct of broadcast_in_dim(x, shape, dims): summed over the new and the stretched dims.
std::vector<MaybeAtom> broadcast_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const Aval x = E.aval(c.in[0]);
  const Dims& dims = c.e.params.get<Dims>("broadcast_dimensions");
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
  return {E.reshape(r, x.shape)};
}

std::vector<MaybeAtom> transpose_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const Dims& perm = c.e.params.get<Dims>("permutation");
  Dims inv(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    inv[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
  return {E.transpose(ct, inv)};
}

/// JAX's _slice_transpose_rule: ct padded with zeros back to x's shape, a stride's gaps as
/// interior padding. The high edges (and a stride's interior) come out of NumPy arithmetic, so
/// JAX prints them as np.int64; the low ones are the slice's own starts.
std::vector<MaybeAtom> slice_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const Aval x = E.aval(c.in[0]);
  const ir::Params& params = c.e.params;
  const auto& start = params.get<Dims>("start_indices");
  const auto& limit = params.get<Dims>("limit_indices");
  const int r = x.shape.rank();
  const Dims steps = ir::slice_strides(params, r);
  const bool unit = std::all_of(steps.begin(), steps.end(), [](auto s) { return s == 1; });
  const ir::ParamValue* start_np = params.find("start_indices@np");
  const auto* start_flags = start_np ? std::get_if<Dims>(start_np) : nullptr;
  const Shape cs = E.shape(ct);
  ir::PadConfig pc;
  for (int d = 0; d < r; ++d) {
    const auto i = static_cast<std::size_t>(d);
    const std::int64_t real_limit =
        unit ? limit[i] : start[i] + (cs[d] == 0 ? 0 : 1 + (cs[d] - 1) * steps[i]);
    pc.lo.push_back(start[i]);
    pc.hi.push_back(x.shape[d] - real_limit);
    pc.interior.push_back(unit ? 0 : steps[i] - 1);
    const bool lo_np = start_flags && start_flags->size() == start.size() && (*start_flags)[i];
    pc.np.insert(pc.np.end(), {lo_np ? 1 : 0, 1, unit ? 0 : 1});
  }
  return {E.b.emit1(Prim::pad, {ct, Emit::lit(0, x.dtype)}, pc.params())};
}

std::vector<MaybeAtom> reshape_vjp(Emit& E, const VjpCall& c, Atom ct) {
  return {E.reshape(ct, E.shape(c.in[0]))};
}

std::vector<MaybeAtom> squeeze_vjp(Emit& E, const VjpCall& c, Atom ct) {
  // JAX's _squeeze_transpose_rule: expand_dims, a broadcast_in_dim.
  const Dims& squeezed = c.e.params.get<Dims>("dimensions");
  return {detail::lower_expand_dims(E.b, ct, std::vector<int>(squeezed.begin(), squeezed.end()))};
}

std::vector<MaybeAtom> rev_vjp(Emit& E, const VjpCall& c, Atom ct) {
  return {E.b.emit1(Prim::rev, {ct}, c.e.params)};
}

/// JAX's transpose: the cotangent split into every operand's piece.
std::vector<MaybeAtom> concatenate_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const auto axis = c.e.params.get<std::int64_t>("dimension");
  Dims sizes;
  for (const Atom& a : c.in) sizes.push_back(E.shape(a)[static_cast<int>(axis)]);
  const std::vector<Atom> pieces = detail::lower_split(E.b, ct, sizes, static_cast<int>(axis));
  std::vector<MaybeAtom> r(c.in.size());
  for (std::size_t i = 0; i < c.in.size(); ++i)
    if (c.wanted[i]) r[i] = pieces[i];
  return r;
}

std::vector<MaybeAtom> stack_vjp(Emit& E, const VjpCall& c, Atom ct) {
  const auto axis = c.e.params.get<std::int64_t>("axis");
  const Shape cs = E.shape(ct);
  std::vector<MaybeAtom> r(c.in.size());
  for (std::size_t i = 0; i < c.in.size(); ++i) {
    const auto k = static_cast<std::int64_t>(i);
    Dims lo(static_cast<std::size_t>(cs.rank()), 0), hi = cs.to_vector();
    lo[static_cast<std::size_t>(axis)] = k;
    hi[static_cast<std::size_t>(axis)] = k + 1;
    if (c.wanted[i]) r[i] = E.reshape(E.slice(ct, lo, hi), E.shape(c.in[i]));
  }
  return r;
}

std::vector<MaybeAtom> dynamic_slice_vjp(Emit& E, const VjpCall& c, Atom ct) {
  std::vector<MaybeAtom> r(c.in.size());
  if (c.wanted[0])
    r[0] = E.dynamic_update_slice(E.zeros(E.aval(c.in[0])), ct,
                                  std::vector<Atom>(c.in.begin() + 1, c.in.end()));
  return r;
}

std::vector<MaybeAtom> dynamic_update_slice_vjp(Emit& E, const VjpCall& c, Atom ct) {
  std::vector<MaybeAtom> r(c.in.size());
  const std::vector<Atom> starts(c.in.begin() + 2, c.in.end());
  if (c.wanted[0]) r[0] = E.dynamic_update_slice(ct, E.zeros(E.aval(c.in[1])), starts);
  if (c.wanted[1]) r[1] = E.dynamic_slice(ct, starts, E.shape(c.in[1]).to_vector());
  return r;
}

// --- Batching ---

Atom broadcast_batch(Emit& E, BatchCall& c) {
  ir::Params p = c.e.params;
  for (auto& item : p.items) {
    auto* v = std::get_if<Dims>(&item.value);
    if (v && item.name == "shape") *v = with_front(c.n, *v);
    if (v && item.name == "broadcast_dimensions") {
      *v = with_front(0, shifted(*v));
      item.printed = true;
    }
  }
  // JAX's rule writes (0,) + tuple(np.add(1, dims)): the shifted dims are NumPy ints.
  if (const ir::ParamValue* d = p.find("broadcast_dimensions")) {
    std::vector<std::int64_t> np_flags(std::get<Dims>(*d).size(), 1);
    np_flags[0] = 0;
    std::erase_if(p.items, [](const ir::Param& q) { return q.name == "broadcast_dimensions@np"; });
    p.items.push_back({"broadcast_dimensions@np", np_flags, false});
  }
  return E.b.emit1(c.e.prim, std::move(c.in), std::move(p));
}

/// transpose, slice, reshape, rev, squeeze: the batch axis in front of their own.
Atom index_map_batch(Emit& E, BatchCall& c) {
  ir::Params p = c.e.params;
  for (auto& item : p.items) {
    auto* v = std::get_if<Dims>(&item.value);
    if (!v) continue;
    if (item.name == "permutation") *v = with_front(0, shifted(*v));
    if (item.name == "start_indices") *v = with_front(0, *v);
    if (item.name == "limit_indices" || item.name == "new_sizes") *v = with_front(c.n, *v);
    if (item.name == "strides") *v = with_front(1, *v);
    if (item.name == "dimensions") *v = shifted(*v);
  }
  return E.b.emit1(c.e.prim, std::move(c.in), std::move(p));
}

Atom join_batch(Emit& E, BatchCall& c) {  // concatenate, stack
  for (std::size_t k = 0; k < c.in.size(); ++k)
    if (!c.bat[k]) c.in[k] = add_batch_axis(E, c.in[k], c.n);
  ir::Params p = c.e.params;
  for (auto& item : p.items)
    if (item.name == "dimension" || item.name == "axis") std::get<std::int64_t>(item.value) += 1;
  return E.b.emit1(c.e.prim, std::move(c.in), std::move(p));
}

/// Element i of a batched value: slice i of the leading axis, without that axis.
Atom batch_element(Emit& E, Atom x, std::int64_t i) {
  const Shape s = E.shape(x);
  Dims lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  lo[0] = i, hi[0] = i + 1;
  Dims rest(hi.begin() + 1, hi.end());
  return E.reshape(E.slice(x, lo, hi), Shape(rest));
}

/// The general rule, O(n) equations: the equation once per batch element, results stacked.
/// Used where no vectorized form exists here (dynamic slices with batched start indices).
Atom unrolled(Emit& E, const BatchCall& c) {
  std::vector<Atom> parts;
  for (std::int64_t i = 0; i < c.n; ++i) {
    std::vector<Atom> ops;
    for (std::size_t k = 0; k < c.in.size(); ++k)
      ops.push_back(c.bat[k] ? batch_element(E, c.in[k], i) : c.in[k]);
    const Atom r = E.b.emit1(c.e.prim, std::move(ops), c.e.params);
    parts.push_back(E.reshape(r, batched_shape(1, E.shape(r))));
  }
  if (parts.size() == 1) return parts[0];
  ir::Params cat;
  cat.items.push_back({"dimension", std::int64_t{0}, true});
  return E.b.emit1(Prim::concatenate, std::move(parts), cat);
}

/// dynamic_slice, dynamic_update_slice: a zero start for the batch axis; unrolled where the
/// start indices themselves are batched.
Atom dynamic_batch(Emit& E, BatchCall& c) {
  const bool slice = c.e.prim == Prim::dynamic_slice;
  const std::size_t first_index = slice ? 1 : 2;
  for (std::size_t k = first_index; k < c.in.size(); ++k)
    if (c.bat[k]) return unrolled(E, c);
  for (std::size_t k = 0; k < first_index; ++k)
    if (!c.bat[k]) c.in[k] = add_batch_axis(E, c.in[k], c.n);
  const DType idx = c.in.size() > first_index ? E.dtype(c.in[first_index]) : DType::i32;
  c.in.insert(c.in.begin() + static_cast<std::ptrdiff_t>(first_index), Emit::lit(0, idx));
  return E.b.emit1(c.e.prim, std::move(c.in),
                   slice ? map_dims(c.e.params, {"slice_sizes"},
                                    [&](const Dims& d) { return with_front(c.n, d); })
                         : c.e.params);
}

}  // namespace

void register_structural_rules(ir::RuleTable& t) {
  namespace shape = ir::shape_rules;
  namespace library = ir::library_rules;
  constexpr auto linear = one_tangent<same_on_tangent>;
  constexpr auto moved = one_batched<index_map_batch>;
  t[Prim::broadcast_in_dim] = {shape::broadcast_in_dim, linear, one_cotangent<broadcast_vjp>,
                               one_batched<broadcast_batch>};
  t[Prim::transpose] = {shape::transpose, linear, one_cotangent<transpose_vjp>, moved};
  t[Prim::slice] = {shape::slice, linear, one_cotangent<slice_vjp>, moved};
  t[Prim::reshape] = {shape::reshape, linear, one_cotangent<reshape_vjp>, moved};
  t[Prim::rev] = {shape::rev, linear, one_cotangent<rev_vjp>, moved};
  t[Prim::squeeze] = {shape::squeeze, linear, one_cotangent<squeeze_vjp>, moved};
  constexpr ir::ShapeRule join_shape = library::join;
  t[Prim::concatenate] = {join_shape, one_tangent<join_jvp>, one_cotangent<concatenate_vjp>,
                          one_batched<join_batch>};
  t[Prim::stack] = {join_shape, one_tangent<join_jvp>, one_cotangent<stack_vjp>,
                    one_batched<join_batch>};
  t[Prim::dynamic_slice] = {shape_rule<library::dynamic_slice>, one_tangent<dynamic_slice_jvp>,
                            one_cotangent<dynamic_slice_vjp>, one_batched<dynamic_batch>};
  t[Prim::dynamic_update_slice] = {
      shape_rule<library::dynamic_update_slice>, one_tangent<dynamic_update_slice_jvp>,
      one_cotangent<dynamic_update_slice_vjp>, one_batched<dynamic_batch>};
  // No operands: never batched, no tangents.
  t[Prim::iota].shape = shape::iota;
  t[Prim::platform_index].shape = shape::platform_index;
}

}  // namespace fj::transforms
