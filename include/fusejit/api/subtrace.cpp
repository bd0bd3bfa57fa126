// Calling a traced sub-graph from the active trace (implementation unit only).
#include "fusejit/api/subtrace.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"

namespace fj::detail {

ir::Atom lower_arg(const Array& a) {
  TraceState& ts = *current_trace();
  LowerCtx ctx{ts.builder, &ts};
  return ctx.array_leaf(a);
}

Array atom_array(const ir::Atom& a) {
  if (a.is_literal()) return literal_array(a.lit);
  return Array::from_trace(trace_stack().back(), a.var);
}

std::vector<Array> call_graph(const ir::Graph& g, const std::vector<Array>& consts,
                              const std::vector<Array>& args) {
  TraceState* ts = current_trace();
  if (!ts) throw ValueError("fj: internal: call_graph outside a trace");
  if (consts.size() != g.constvars.size() || args.size() != g.invars.size())
    throw ValueError("fj: internal: call_graph with " + std::to_string(consts.size()) + "+" +
                     std::to_string(args.size()) + " operands for a graph of " +
                     std::to_string(g.constvars.size()) + "+" + std::to_string(g.invars.size()));
  std::vector<ir::Atom> in;
  for (auto& c : consts) in.push_back(lower_arg(c));
  for (auto& a : args) in.push_back(lower_arg(a));
  ir::Graph flat = g;
  flat.invars.insert(flat.invars.begin(), g.constvars.begin(), g.constvars.end());
  flat.constvars.clear();
  std::vector<ir::Atom> outs = ir::detail::inline_into(ts->builder.graph, flat, in, false);
  std::vector<Array> res;
  res.reserve(outs.size());
  for (auto& o : outs) res.push_back(atom_array(o));
  return res;
}

}  // namespace fj::detail
