// Tracing a sub-function into a closed graph, and calling such a graph from the active trace:
// the two halves every transformation (grad, vmap) and every lax control-flow op share.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/trace_function.hpp"

namespace fj::detail {

/// A traced sub-function: `graph`'s constvars are bound to `consts` (concrete arrays it closed
/// over, or tracers of the enclosing trace), its invars to the call's operands.
struct SubGraph {
  ir::GraphPtr graph;
  std::vector<Array> consts;
  PyTreeDef out_tree;  // the structure of the sub-function's result
};

/// Traces `f(std::vector<Array>& args)` (returning a pytree of arrays) with arguments of the given
/// avals in a trace nested inside the current one (or at top level), closing over whatever it
/// captures.
/// `site` names the function and the entry point (fj::grad, fj::lax::scan, ...) for errors.
template <class F>
SubGraph trace_subgraph(const TraceSite& site, const std::vector<ir::Aval>& avals, F&& f) {
  return run_trace(site, [&](TraceScope& scope) {
    TraceState& ts = scope.state();
    std::vector<Array> args;
    args.reserve(avals.size());
    for (auto& av : avals) args.push_back(Array::from_trace(scope.ptr(), ts.builder.add_invar(av)));
    auto result = f(args);
    LowerCtx ctx{ts.builder, &ts};
    std::vector<ir::Atom> outs;
    SubGraph s;
    s.out_tree = flatten_output(ctx, result, outs);
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

/// The avals of arrays, for tracing a function of them (an empty array raises fj::TypeError).
std::vector<ir::Aval> avals_of(const std::vector<Array>& args);

/// The atom of an argument in the active trace (a tracer, a captured constant or a literal).
ir::Atom lower_arg(const Array& a);
/// The array for an atom of the active trace.
Array atom_array(const ir::Atom& a);

/// Appends `g`'s equations to the active trace, its constvars bound to `consts` and its invars
/// to `args`, and returns its outputs. Must be called inside a trace.
std::vector<Array> call_graph(const ir::Graph& g, const std::vector<Array>& consts,
                              const std::vector<Array>& args);

}  // namespace fj::detail
