// Turning an expression into an Array: recorded into the active trace, or evaluated eagerly
// through a per-expression-type cache of compiled graphs.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fusejit/api/device.hpp"
#include "fusejit/backend/backend.hpp"
#include "fusejit/core/function_ref.hpp"
#include "fusejit/expr/node.hpp"

namespace fj::detail {

/// A graph compiled for one cache key, with the concrete constants it captured.
struct Compiled {
  ir::GraphPtr graph;  // as traced (make_jaxpr's graph); the executable runs its DCE
  std::shared_ptr<const backend::Executable> exe;
  std::vector<backend::Value> consts;
  std::string name;  // who runs it, for fj::set_debug_nans: "fj::jit(f)"; empty when eager
  Device device;     // where exe runs: its inputs must be there (host scalars excepted)
};

/// The cache slot of one expression type: leaf avals -> compiled graph. get() hands out shared
/// ownership: another thread's clear_caches() may empty the slot while the caller still runs it.
class ExprCache {
 public:
  std::shared_ptr<const Compiled> get(const std::vector<ir::Aval>& avals,
                                      const std::vector<std::int64_t>& params, Device device,
                                      const std::function<ir::Graph()>& build);

 private:
  struct Entry {
    const backend::Backend* backend;  // set_default_backend changes what later calls run on
    Device device;                    // the arguments' device: the computation runs there
    bool x64;                         // fj::x64_enabled() when it was lowered
    std::vector<ir::Aval> avals;
    std::vector<std::int64_t> params;
    std::shared_ptr<const Compiled> compiled;
    std::uint64_t used = 0;  // last use, for eviction at the caches' capacity
  };
  std::mutex mu_;
  std::uint64_t generation_ = 0;
  std::vector<Entry> entries_;
};

/// The one device of an eager expression's leaves (api/placement.hpp's rule).
Device leaves_device(std::span<const backend::Value> values);
/// A leaf's concrete value, for eager evaluation. Scalars get a 1-element buffer of a weak
/// 64-bit type, so that `f64_array * 0.1` keeps the double.
backend::Value leaf_value(const Array& a);
template <class T>
backend::Value leaf_value(T v) {
  using S =
      std::conditional_t<std::is_same_v<T, bool>, bool,
                         std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>>;
  auto buf = runtime::allocate(sizeof(S));
  *static_cast<S*>(buf->data) = static_cast<S>(v);
  return {std::move(buf), ir::Aval{dtype_of_v<S>, Shape{}, !std::is_same_v<T, bool>}};
}

/// A call's outputs, inline up to four (jit's warm path allocates no list).
using ArrayList = SmallVector<Array, 4>;
/// Runs a compiled graph on its inputs (the constants are prepended) and wraps the outputs.
ArrayList run_compiled(const Compiled& c, std::span<const backend::Value> args);
/// A concrete rank-0 array holding a literal; it lowers back to the same literal when traced.
Array literal_array(const ir::Literal& l);
/// Lowers one output of a traced function into the active trace.
ir::Atom lower_output(LowerCtx& ctx, const Array& a);
/// Finishes an eager graph: weak 64-bit leaf types that reached the output become 32-bit.
void finish_eager_graph(ir::GraphBuilder& b, ir::Atom out);

template <class E>
Array record(const E& e, TraceState& t) {
  LowerCtx ctx{t.builder, &t};
  ir::Atom out = e.lower(ctx);
  if (out.is_literal()) return literal_array(out.lit);
  return Array::from_trace(trace_stack().back(), out.var);
}

/// What evaluating any expression shares (library code): the leaves' values `args` and the
/// expression's params key `cache` (one per expression type); a miss builds the graph with
/// `lower` and compiles it. Runs it and returns its one output.
Array evaluate_with(ExprCache& cache, std::span<const backend::Value> args,
                    const std::vector<std::int64_t>& params,
                    FunctionRef<ir::Atom(LowerCtx&)> lower);

template <class E>
Array evaluate(const E& e) {
  std::vector<backend::Value> args;
  e.for_each_leaf([&](const auto& leaf) { args.push_back(leaf_value(leaf)); });
  std::vector<std::int64_t> params;
  e.key(params);
  static ExprCache cache;  // one slot per expression type, keyed further by leaf avals and params
  return evaluate_with(cache, args, params, [&](LowerCtx& ctx) { return e.lower(ctx); });
}

template <class E>
Array materialize(const E& e) {
  // Omnistaging: inside a trace every expression is recorded, even one of constants only.
  if (TraceState* t = current_trace()) return record(e, *t);
  return evaluate(e);
}

}  // namespace fj::detail
