// Tracing a sub-function into a closed graph, and calling such a graph from the active trace
// (implementation unit only).
#include "fusejit/api/subtrace.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"

namespace fj::detail {

SubGraph trace_subgraph_flat(const TraceSite& site, const std::vector<ir::Aval>& avals,
                             TraceBody body) {
  return run_trace(site, [&](TraceScope& scope) {
    TraceState& ts = scope.state();
    std::vector<Array> args;
    args.reserve(avals.size());
    for (auto& av : avals) args.push_back(Array::from_trace(scope.ptr(), ts.builder.add_invar(av)));
    LowerCtx ctx{ts.builder, &ts};
    std::vector<ir::Atom> outs;
    SubGraph s;
    s.out_tree = body(args, ctx, outs);
    ts.builder.graph.outvars = std::move(outs);
    for (std::size_t i = 0; i < ts.consts.size(); ++i) {  // captured values: of the outer trace
      const auto& c = ts.consts[i];
      s.consts.push_back(c.buf ? Array::from_buffer(c.buf, ts.builder.graph.aval(ts.const_vars[i]))
                               : Array::from_trace(c.outer, c.outer_var));
    }
    s.graph = std::make_shared<const ir::Graph>(std::move(ts.builder.graph));
    return s;
  });
}

ir::Atom lower_arg(const Array& a) {
  TraceState& ts = *current_trace();
  LowerCtx ctx{ts.builder, &ts};
  return ctx.array_leaf(a);
}

Array atom_array(const ir::Atom& a) {
  if (a.is_literal()) return literal_array(a.lit);
  return Array::from_trace(trace_stack().back(), a.var);
}

std::vector<Array> emit_closed_call(ir::Prim prim, const SubGraph& s,
                                    const std::vector<Array>& args,
                                    FunctionRef<ir::Params(ir::GraphPtr closed)> params) {
  ir::Graph closed = *s.graph;
  closed.invars.insert(closed.invars.begin(), closed.constvars.begin(), closed.constvars.end());
  closed.constvars.clear();
  std::vector<ir::Atom> ops;
  for (const Array& c : s.consts) ops.push_back(lower_arg(c));
  for (const Array& x : args) ops.push_back(lower_arg(x));
  ir::Params p = params(std::make_shared<const ir::Graph>(std::move(closed)));
  const std::vector<ir::Atom> outs =
      current_trace()->builder.emit(prim, std::move(ops), std::move(p));
  std::vector<Array> res;
  for (const ir::Atom& o : outs) res.push_back(atom_array(o));
  return res;
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
