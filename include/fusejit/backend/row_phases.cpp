// A row kernel's passes over its row: which nodes each pass computes, and which costly values
// are computed once and kept in a row-sized scratch for the passes after (softmax's exp).
#include <algorithm>

#include "fusejit/backend/kernel_plan.hpp"

namespace fj::backend::kernel {

namespace {

// Worth keeping rather than recomputing: a transcendental or other float-only function, or a
// multi-result op (threefry's 20 rounds). Arithmetic costs less than its store and load.
bool costly(const Node& n) {
  return n.kind == Node::op && (ir::is_float_only(n.prim) || ir::num_results(n.prim) > 1);
}

// Whether a node's value changes along the row (so that keeping it needs a row of scratch).
bool varies_along_row(const Plan& plan, const Node& n, const std::vector<bool>& varies) {
  switch (n.kind) {
    case Node::load:
    case Node::iota:
      return std::any_of(n.map.begin(), n.map.end(),
                         [&](const Dim& d) { return d.iter >= plan.outer_rank; });
    case Node::literal:
    case Node::reduced:
      return false;
    default:
      return std::any_of(n.args.begin(), n.args.end(),
                         [&](int a) { return varies[static_cast<std::size_t>(a)]; });
  }
}

}  // namespace

void assign_row_phases(Plan& plan) {
  const std::size_t n_nodes = plan.nodes.size();
  const std::size_t n_reduce = plan.phases.size();
  const std::size_t row_pass = n_reduce, per_row_pass = n_reduce + 1;
  plan.phases.resize(n_reduce + 2);
  // need[k][p]: node k is computed in pass p. Users come after their operands, so walking the
  // nodes backwards sees every user of a node first. A costly node needed by several passes is
  // kept: computed in the first, read from scratch in the others, so that its operands are
  // needed in the first pass only.
  std::vector<std::vector<bool>> need(n_nodes, std::vector<bool>(plan.phases.size(), false));
  for (std::size_t p = 0; p < n_reduce; ++p)
    need[static_cast<std::size_t>(plan.phases[p].root)][p] = true;
  for (std::size_t o = 0; o < plan.outputs.size(); ++o)
    need[static_cast<std::size_t>(plan.outputs[o])]
        [plan.per_row_output[o] ? per_row_pass : row_pass] = true;
  std::vector<bool> varies(n_nodes, false), expensive(n_nodes, false);
  for (std::size_t k = 0; k < n_nodes; ++k) {
    const Node& n = plan.nodes[k];
    varies[k] = varies_along_row(plan, n, varies);
    expensive[k] = costly(n) || std::any_of(n.args.begin(), n.args.end(), [&](int a) {
                     return expensive[static_cast<std::size_t>(a)];
                   });
  }
  plan.scratch.assign(n_nodes, -1);
  std::vector<std::size_t> first(n_nodes, 0);
  for (std::size_t k = n_nodes; k-- > 0;) {
    const auto& nk = need[k];
    const auto uses = std::count(nk.begin(), nk.end(), true);
    if (uses == 0) continue;
    first[k] = static_cast<std::size_t>(std::find(nk.begin(), nk.end(), true) - nk.begin());
    const Node& n = plan.nodes[k];
    const bool one_value = n.kind != Node::op || ir::num_results(n.prim) == 1;
    const bool keep = uses > 1 && varies[k] && expensive[k] && one_value;
    if (keep) plan.scratch[k] = plan.num_scratch++;
    for (int a : n.args) {
      auto& na = need[static_cast<std::size_t>(a)];
      if (keep)
        na[first[k]] = true;
      else
        for (std::size_t p = 0; p < nk.size(); ++p) na[p] = na[p] || nk[p];
    }
  }
  for (std::size_t p = 0; p < plan.phases.size(); ++p)
    for (std::size_t k = 0; k < n_nodes; ++k) {
      if (!need[k][p]) continue;
      plan.phases[p].eval.push_back(static_cast<int>(k));
      if (plan.scratch[k] >= 0 && first[k] == p)
        plan.phases[p].store.push_back(static_cast<int>(k));
    }
}

}  // namespace fj::backend::kernel
