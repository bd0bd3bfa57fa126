// Tracing a function at top level, compiled once in the library: the trace's invars, the call of
// the type-erased body, and the finished graph with its captured constants (impl. unit only).
#include "fusejit/api/trace_function.hpp"

namespace fj::detail {

TraceResult trace_flat(const TraceSite& site, std::span<const ir::Aval> avals, TraceBody body) {
  return run_trace(site, [&](TraceScope& scope) {
    TraceState& ts = scope.state();
    std::vector<Array> tracers;
    tracers.reserve(avals.size());
    for (auto& av : avals)
      tracers.push_back(Array::from_trace(scope.ptr(), ts.builder.add_invar(av)));
    LowerCtx ctx{ts.builder, &ts};
    std::vector<ir::Atom> outs;
    TraceResult r;
    r.out_tree = body(tracers, ctx, outs);
    ts.builder.graph.outvars = std::move(outs);
    for (std::size_t i = 0; i < ts.consts.size(); ++i)  // a top-level trace captures no tracers
      r.consts.push_back({ts.consts[i].buf, ts.builder.graph.aval(ts.const_vars[i])});
    r.graph = std::make_shared<const ir::Graph>(std::move(ts.builder.graph));
    return r;
  });
}

}  // namespace fj::detail
