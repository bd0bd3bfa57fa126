// What a transformation rule receives and returns (the JvpRule, VjpRule and BatchRule of
// ir/prim_rules.hpp), and adapters that let a family write its rules in the shape that suits it:
// tangents given the primal results, cotangents for the wanted operands, results all batched.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/core/function_ref.hpp"
#include "fusejit/ir/prim_rules.hpp"
#include "fusejit/transforms/emit.hpp"
#include "fusejit/transforms/partials.hpp"

namespace fj::transforms {

/// An equation whose operands (primals `in`, tangents `t`; at least one tangent is set) are
/// those of the JVP being built.
struct JvpCall {
  const ir::Eqn& e;
  const std::vector<Atom>& in;
  const std::vector<MaybeAtom>& t;
};
/// The equation's results and their tangents (nullopt: a symbolic zero).
struct JvpResult {
  std::vector<Atom> out;
  std::vector<MaybeAtom> t;
};

/// An equation of reverse mode's forward pass: its operands there, which carry a tangent (lead
/// to a wanted input and are floats), whether the graph is a rule's tangent map (`linear`), and
/// whether the caller keeps the values JAX's linearization reads (`keeps_reads`: a jit split in
/// two, a custom rule transposed).
struct ForwardCall {
  const ir::Eqn& e;
  const std::vector<Atom>& in;
  const std::vector<bool>& carries;
  bool linear;
  bool keeps_reads;
};
/// The equation's results in the forward pass, its residuals for the transpose (an elementwise
/// op's partials, a sort's permutation, reduce_max's mask, clamp's masks), and the values JAX's
/// linearization leaves in the forward part without the transpose reading them (the zeros a
/// JVP fills a missing tangent with).
struct Forward {
  std::vector<Atom> out;
  Residuals residual{};
  std::vector<Atom> reads{};
  /// Any number of further values its transpose reads (remat2's saved values), in the order it
  /// expects them.
  std::vector<Atom> saved{};
};

/// An equation of the forward pass being transposed: its operands and results there, the
/// cotangents of its results (at least one set), which operands lead back to a wanted input
/// (`needed`) and which of those take a cotangent (`wanted`: also a float variable), what its
/// forward rule kept (`residual`), and the sink that sums each term into an operand's
/// cotangent (a term for a literal operand is dropped).
struct VjpCall {
  const ir::Eqn& e;
  const std::vector<Atom>& in;
  const std::vector<Atom>& out;
  const std::vector<MaybeAtom>& ct;
  const std::vector<bool>& needed;
  const std::vector<bool>& wanted;
  const Residuals& residual;
  detail::FunctionRef<void(std::size_t operand, Atom term)> add;
  /// What its forward rule returned as `saved` (none without a forward rule).
  const std::vector<Atom>* saved = nullptr;

  /// Hands every cotangent that is set to the sink, operand 0 first.
  void add_each(const std::vector<MaybeAtom>& cts) const {
    for (std::size_t i = 0; i < cts.size(); ++i)
      if (cts[i]) add(i, *cts[i]);
  }
};

/// An equation whose operands `in` are batched along a new leading axis of size n where `bat`
/// says (at least one is, or the equation is a collective over the vmapped axis); `out_avals`
/// are its per-example results. A rule may consume `in`.
struct BatchCall {
  const ir::Eqn& e;
  std::vector<Atom>& in;
  const std::vector<bool>& bat;
  std::int64_t n;
  const std::vector<Aval>& out_avals;
};
/// The batched results, and whether each has the batch axis in front.
struct BatchResult {
  std::vector<Atom> out;
  std::vector<bool> batched;
};

/// The tangents of an equation's results given its primal results `out`.
using TangentsFn = std::vector<MaybeAtom> (*)(Emit&, const ir::Eqn&, const std::vector<Atom>& in,
                                              const std::vector<MaybeAtom>& t,
                                              const std::vector<Atom>& out);
/// A JVP rule that copies the equation for its results, then computes their tangents with F.
template <TangentsFn F>
JvpResult after_primals(Emit& E, const JvpCall& c) {
  std::vector<Atom> out = E.b.emit(c.e.prim, c.in, c.e.params);
  std::vector<MaybeAtom> t = F(E, c.e, c.in, c.t, out);
  return {std::move(out), std::move(t)};
}

/// The cotangents of an equation's operands, given which operands take one.
using CotangentsFn = std::vector<MaybeAtom> (*)(Emit&, const ir::Eqn&, const std::vector<Atom>& in,
                                                const std::vector<Atom>& out,
                                                const std::vector<MaybeAtom>& ct,
                                                const std::vector<bool>& take);
/// A transpose rule F told which operands are wanted (float variables leading to an input).
template <CotangentsFn F>
void for_wanted(Emit& E, const VjpCall& c) {
  c.add_each(F(E, c.e, c.in, c.out, c.ct, c.wanted));
}
/// A transpose rule F told which operands lead to an input (it decides which take a cotangent:
/// the control primitives' sub-graphs see integer operands too).
template <CotangentsFn F>
void for_needed(Emit& E, const VjpCall& c) {
  c.add_each(F(E, c.e, c.in, c.out, c.ct, c.needed));
}

/// A batching rule whose every result is batched.
using AllBatchedFn = std::vector<Atom> (*)(Emit&, const ir::Eqn&, std::vector<Atom> in,
                                           const std::vector<bool>& bat, std::int64_t n);
template <AllBatchedFn F>
BatchResult all_batched(Emit& E, BatchCall& c) {
  std::vector<Atom> out = F(E, c.e, std::move(c.in), c.bat, c.n);
  std::vector<bool> batched(out.size(), true);
  return {std::move(out), std::move(batched)};
}
/// A batching rule that says which results are batched.
using SomeBatchedFn = std::pair<std::vector<Atom>, std::vector<bool>> (*)(
    Emit&, const ir::Eqn&, std::vector<Atom> in, const std::vector<bool>& bat, std::int64_t n);
template <SomeBatchedFn F>
BatchResult some_batched(Emit& E, BatchCall& c) {
  auto [out, batched] = F(E, c.e, std::move(c.in), c.bat, c.n);
  return {std::move(out), std::move(batched)};
}

/// The tangent of a one-result equation's result y (the equation already copied).
using OneTangentFn = MaybeAtom (*)(Emit&, const JvpCall&, Atom y);
/// A JVP rule of a one-result equation: copied for its result; no tangent for a result that
/// is not a float (an argmax, a comparison), else F's.
template <OneTangentFn F>
JvpResult one_tangent(Emit& E, const JvpCall& c) {
  std::vector<Atom> out = E.b.emit(c.e.prim, c.in, c.e.params);
  MaybeAtom t = differentiable(E.aval(out[0])) ? F(E, c, out[0]) : std::nullopt;
  return {std::move(out), {t}};
}

/// The cotangents of a one-result equation's operands given its result's cotangent `ct`.
using OneCotangentFn = std::vector<MaybeAtom> (*)(Emit&, const VjpCall&, Atom ct);
template <OneCotangentFn F>
void one_cotangent(Emit& E, const VjpCall& c) {
  c.add_each(F(E, c, *c.ct[0]));
}

/// A batching rule of a one-result equation: its batched result.
using OneBatchedFn = Atom (*)(Emit&, BatchCall&);
template <OneBatchedFn F>
BatchResult one_batched(Emit& E, BatchCall& c) {
  return {{F(E, c)}, {true}};
}

/// A shape rule written for one primitive (without the Prim, and without params where it needs
/// none) as the table's ShapeRule.
template <auto F>
std::vector<Aval> shape_rule(Prim, const std::vector<Aval>& in, const ir::Params& params) {
  if constexpr (std::is_invocable_v<decltype(F), const std::vector<Aval>&, const ir::Params&>)
    return F(in, params);
  else
    return F(in);
}

/// The row of a library primitive whose family writes its rules in the usual forms: tangents
/// after the primal results, cotangents of the wanted operands, every result batched.
template <TangentsFn Jvp, CotangentsFn Vjp, AllBatchedFn Batch>
ir::PrimRules library_row(ir::ShapeRule shape) {
  return {shape, after_primals<Jvp>, for_wanted<Vjp>, all_batched<Batch>};
}

// The families' registrations (transforms/rule_table.cpp calls each once).
void register_elementwise_rules(ir::RuleTable& t);
void register_structural_rules(ir::RuleTable& t);
void register_reduction_rules(ir::RuleTable& t);
void register_dot_general_rules(ir::RuleTable& t);
void register_sort_rules(ir::RuleTable& t);
void register_linalg_rules(ir::RuleTable& t);
void register_spectral_rules(ir::RuleTable& t);
void register_index_rules(ir::RuleTable& t);
void register_pad_rules(ir::RuleTable& t);
void register_collective_rules(ir::RuleTable& t);
void register_control_rules(ir::RuleTable& t);
void register_custom_jvp_rules(ir::RuleTable& t);
void register_custom_vjp_rules(ir::RuleTable& t);
void register_checkpoint_rules(ir::RuleTable& t);
void register_linear_solve_rules(ir::RuleTable& t);
void register_callback_rules(ir::RuleTable& t);

}  // namespace fj::transforms
