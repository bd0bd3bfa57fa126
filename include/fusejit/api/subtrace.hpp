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

/// Traces `body` (a TraceBody: the tracers in, the result's leaves lowered) with arguments of the
/// given avals in a trace nested inside the current one (or at top level), closing over whatever
/// it captures. `site` names the function and the entry point (fj::grad, fj::lax::scan, ...) for
/// errors.
SubGraph trace_subgraph_flat(const TraceSite& site, const std::vector<ir::Aval>& avals,
                             TraceBody body);

/// Traces `f(std::vector<Array>& args)` (returning a pytree of arrays) as trace_subgraph_flat.
template <class F>
SubGraph trace_subgraph(const TraceSite& site, const std::vector<ir::Aval>& avals, F&& f) {
  return trace_subgraph_flat(
      site, avals, [&](std::vector<Array>& args, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
        auto result = f(args);
        return flatten_output(ctx, result, outs);
      });
}

/// The avals of arrays, for tracing a function of them (an empty array raises fj::TypeError).
std::vector<ir::Aval> avals_of(const std::vector<Array>& args);

/// The atom of an argument in the active trace (a tracer, a captured constant or a literal).
ir::Atom lower_arg(const Array& a);
/// The array for an atom of the active trace.
Array atom_array(const ir::Atom& a);

/// Emits one equation of `prim` on `s`'s captured values, then `args`, into the active trace;
/// `params` gets `s`'s graph closed (its constvars turned into leading invars) and returns the
/// equation's params (custom_jvp_call's, custom_vjp_call's, remat2's). Returns its results.
std::vector<Array> emit_closed_call(ir::Prim prim, const SubGraph& s,
                                    const std::vector<Array>& args,
                                    FunctionRef<ir::Params(ir::GraphPtr closed)> params);

/// Appends `g`'s equations to the active trace, its constvars bound to `consts` and its invars
/// to `args`, and returns its outputs. Must be called inside a trace.
std::vector<Array> call_graph(const ir::Graph& g, const std::vector<Array>& consts,
                              const std::vector<Array>& args);

}  // namespace fj::detail
