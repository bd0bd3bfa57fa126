// The one table of every primitive's rules (shape/dtype, JVP, forward-pass residuals, transpose,
// batching), indexed by Prim: each family's rules file fills its rows (transforms/rule_table.cpp
// lists the families), and shape inference and the transformation passes look rules up here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::transforms {
class Emit;
struct JvpCall;
struct JvpResult;
struct VjpCall;
struct ForwardCall;
struct Forward;
struct BatchCall;
struct BatchResult;
}  // namespace fj::transforms

namespace fj::ir {

/// The result avals of an equation of p on operands `in` (arity already checked), or an
/// fj::ShapeError / fj::DTypeError naming the primitive and the operands.
using ShapeRule = std::vector<Aval> (*)(Prim p, const std::vector<Aval>& in, const Params& params);
/// Forward mode: the equation's results and their tangents (transforms/rule_signatures.hpp).
using JvpRule = transforms::JvpResult (*)(transforms::Emit&, const transforms::JvpCall&);
/// Reverse mode, forward pass: the equation copied, and what its transpose will read (JAX's
/// residuals), computed where JAX's linearization leaves them.
using ForwardRule = transforms::Forward (*)(transforms::Emit&, const transforms::ForwardCall&);
/// Reverse mode, backward pass: hands each cotangent term of the equation's operands to the
/// call's sink, in the order JAX's transpose sums them.
using VjpRule = void (*)(transforms::Emit&, const transforms::VjpCall&);
/// Batching: the equation on operands with a leading batch axis; each result and whether it is
/// batched.
using BatchRule = transforms::BatchResult (*)(transforms::Emit&, transforms::BatchCall&);

/// A primitive's rules. A null JVP (or transpose) gives zero tangents (no cotangents) for a
/// primitive without the D flag, and raises fj::ValueError naming it for one with the flag or
/// of kind control; a primitive with operands and no batching rule raises under vmap. Rows
/// whose flags promise a rule they lack are reported by missing_rules().
struct PrimRules {
  ShapeRule shape = nullptr;
  JvpRule jvp = nullptr;
  VjpRule vjp = nullptr;
  BatchRule batch = nullptr;
  /// Null: the forward pass copies the equation and keeps nothing for its transpose.
  ForwardRule forward = nullptr;
  /// No transformation rules of its own: jit (transformed whole by the passes, which recurse
  /// into its graph), shard_map (its `lowered` graph inlined before them) and fused (made by a
  /// backend). Such a row needs only its shape rule.
  bool transformed_whole = false;
};

/// The table the families fill: one row per primitive.
class RuleTable {
 public:
  PrimRules& operator[](Prim p) { return rows_[static_cast<int>(p)]; }
  const PrimRules& operator[](Prim p) const { return rows_[static_cast<int>(p)]; }

 private:
  PrimRules rows_[kNumPrims];
};

/// The rules of p. The table is built on first use; in debug builds a row that lacks a rule
/// its flags promise raises fj::NotImplementedError there, naming the primitive and the rule.
const PrimRules& rules(Prim p);
/// The whole table (for the check below, and tests).
const RuleTable& rule_table();

/// One line per rule a row promises and lacks ("exp: no transpose (vjp) rule"): every
/// primitive needs a shape rule; one with the D flag a JVP and a transpose; one with operands a
/// batching rule; a row `transformed_whole` only its shape rule. Empty when complete.
std::vector<std::string> missing_rules(const RuleTable& table);

/// The shape rule of the call-like and lax control primitives (jit, fused, shard_map, cond,
/// while, scan, custom_jvp_call, custom_linear_solve): their sub-graphs' types checked against
/// the operands (defined in shape_rules_control.hpp).
std::vector<Aval> control_avals(Prim p, const std::vector<Aval>& in, const Params& params);

}  // namespace fj::ir
