// The rules table (ir/prim_rules.hpp): built once, on first use, from every family's
// registration; the check that each row has the rules its flags promise (implementation unit
// only).
#include <string>

#include "fusejit/transforms/rule_signatures.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::ir {

namespace {

RuleTable build_rule_table() {
  RuleTable t;
  // The rows without rules of their own still type their operands.
  for (Prim p : {Prim::jit, Prim::shard_map, Prim::fused})
    t[p] = {.shape = control_avals, .transformed_whole = true};
  transforms::register_elementwise_rules(t);
  transforms::register_structural_rules(t);
  transforms::register_reduction_rules(t);
  transforms::register_dot_general_rules(t);
  transforms::register_sort_rules(t);
  transforms::register_linalg_rules(t);
  transforms::register_spectral_rules(t);
  transforms::register_index_rules(t);
  transforms::register_pad_rules(t);
  transforms::register_collective_rules(t);
  transforms::register_control_rules(t);
  transforms::register_custom_jvp_rules(t);
  transforms::register_custom_vjp_rules(t);
  transforms::register_checkpoint_rules(t);
  transforms::register_linear_solve_rules(t);
  transforms::register_callback_rules(t);
#ifndef NDEBUG
  // A debug build refuses an incomplete table where it is built, naming what is missing.
  if (const std::vector<std::string> missing = missing_rules(t); !missing.empty()) {
    std::string lines;
    for (const std::string& m : missing) lines += "\n  " + m;
    throw NotImplementedError("fusejit's rules table is incomplete:" + lines);
  }
#endif
  return t;
}

}  // namespace

const RuleTable& rule_table() {
  static const RuleTable table = build_rule_table();
  return table;
}

const PrimRules& rules(Prim p) { return rule_table()[p]; }

std::vector<std::string> missing_rules(const RuleTable& table) {
  std::vector<std::string> r;
  for (int i = 0; i < kNumPrims; ++i) {
    const auto p = static_cast<Prim>(i);
    const PrimRules& row = table[p];
    const PrimInfo& pi = info(p);
    const std::string who(pi.name);
    if (!row.shape) r.push_back(who + ": no shape rule");
    if (row.transformed_whole) continue;
    if ((pi.flags & prim_flags::D) && !row.jvp) r.push_back(who + ": no JVP rule");
    if ((pi.flags & prim_flags::D) && !row.vjp) r.push_back(who + ": no transpose (vjp) rule");
    if (pi.arity != 0 && !row.batch) r.push_back(who + ": no batching rule");
  }
  return r;
}

}  // namespace fj::ir

namespace fj::transforms {

bool has_jvp_rule(ir::Prim p) { return ir::rules(p).jvp != nullptr; }
bool has_vjp_rule(ir::Prim p) { return ir::rules(p).vjp != nullptr; }
bool has_batch_rule(ir::Prim p) { return ir::rules(p).batch != nullptr; }

}  // namespace fj::transforms
