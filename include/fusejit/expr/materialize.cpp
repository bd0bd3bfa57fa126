// Leaf lowering, eager caches and running compiled graphs (implementation unit only).
#include "fusejit/expr/materialize.hpp"
#include "fusejit/api/debug_nans.hpp"
#include "fusejit/api/placement.hpp"
#include "fusejit/runtime/cache_stats.hpp"

namespace fj::detail {

void throw_escaped_tracer(const Array& a) {
  throw UnexpectedTracerError(
      "fj: a tracer " + a.tracer_str() + " created while tracing '" + a.trace_state()->fn_name +
      "' was used after that trace ended. A traced value must not escape its "
      "function (e.g. by being stored in a captured variable).");
}

void throw_empty_array(const char* where) {
  throw TypeError(std::string(where) +
                  ": an empty fj::Array (default-constructed, holding no data) was used");
}

ir::Atom LowerCtx::array_leaf(const Array& a) {
  if (!trace) return (*inputs)[next++];
  if (a.is_empty()) throw_empty_array("fj: expression");
  if (a.is_traced()) {
    if (a.trace_state() == trace) return ir::Atom::of_var(a.var_id());
    if (!is_enclosing_trace(a.trace_state())) throw_escaped_tracer(a);
    // A tracer of an enclosing trace: a constvar here, bound to the outer variable when the
    // sub-graph is called from the outer trace.
    for (std::size_t i = 0; i < trace->consts.size(); ++i)
      if (trace->consts[i].outer.get() == a.trace_state() &&
          trace->consts[i].outer_var == a.var_id())
        return ir::Atom::of_var(trace->const_vars[i]);
    const ir::VarId v = trace->builder.add_constvar(a.aval());
    auto& stack = trace_stack();
    for (auto& s : stack)
      if (s.get() == a.trace_state()) trace->consts.push_back({nullptr, s, a.var_id()});
    trace->const_vars.push_back(v);
    return ir::Atom::of_var(v);
  }
  if (a.ndim() == 0) {
    // A concrete scalar is inlined as a literal, as JAX inlines NumPy scalars.
    ir::Literal l;
    l.dtype = a.dtype();
    l.weak = a.weak_type();
    visit_dtype(a.dtype(), [&](auto x) {
      using T = decltype(x);
      const runtime::BufferPtr host =
          a.buffer()->device >= 0 ? host_copy(*a.buffer(), sizeof(T)) : a.buffer();
      const T v = *static_cast<const T*>(host->data);
      if constexpr (std::is_floating_point_v<T>)
        l.f = static_cast<double>(v);
      else
        l.i = static_cast<std::int64_t>(v);
    });
    return ir::Atom::of_literal(l);
  }
  for (std::size_t i = 0; i < trace->consts.size(); ++i)
    if (trace->consts[i].buf == a.buffer()) return ir::Atom::of_var(trace->const_vars[i]);
  const ir::VarId v = trace->builder.add_constvar(ir::Aval{a.dtype(), a.shape(), false});
  trace->consts.push_back({a.buffer(), nullptr, -1});
  trace->const_vars.push_back(v);
  return ir::Atom::of_var(v);
}

backend::Value leaf_value(const Array& a) {
  if (a.is_empty()) throw_empty_array("fj: expression");
  if (a.is_traced()) throw_escaped_tracer(a);
  return {a.buffer(), a.aval()};
}

Array literal_array(const ir::Literal& l) {
  auto buf = runtime::allocate(size_of(l.dtype));
  visit_dtype(l.dtype, [&](auto x) {
    using T = decltype(x);
    *static_cast<T*>(buf->data) = is_float(l.dtype) ? static_cast<T>(l.f) : static_cast<T>(l.i);
  });
  return Array::from_buffer(std::move(buf), ir::Aval{l.dtype, Shape{}, l.weak});
}

ir::Atom lower_output(LowerCtx& ctx, const Array& a) {
  if (a.is_empty())
    throw TypeError(
        "fj::jit: the function '" + ctx.trace->fn_name +
        "' returned an empty fj::Array; it must return arrays, tracers, expressions or scalars");
  return ctx.array_leaf(a);
}

void finish_eager_graph(ir::GraphBuilder& b, ir::Atom out) {
  const ir::Aval av = b.aval(out);
  // Eager scalar leaves are weak 64-bit so that they promote without rounding; a result made of
  // scalars alone takes JAX's default types instead (32-bit unless x64 mode is on).
  if (av.weak && (av.dtype == DType::f64 || av.dtype == DType::i64))
    out = convert(b, out,
                  {av.dtype == DType::f64 ? default_float_dtype() : default_int_dtype(), true});
  b.graph.outvars.push_back(out);
}

Device leaves_device(std::span<const backend::Value> values) {
  return common_device(values, "fj: an expression");
}

std::shared_ptr<const Compiled> ExprCache::get(const std::vector<ir::Aval>& avals,
                                               const std::vector<std::int64_t>& params,
                                               Device device,
                                               const std::function<ir::Graph()>& build) {
  auto& stats = stat_counters();
  std::lock_guard lock(mu_);
  const std::uint64_t gen = stats.generation.load(std::memory_order_relaxed);
  if (gen != generation_) entries_.clear(), generation_ = gen;
  backend::Backend& be = backend::default_backend();
  const bool x64 = x64_enabled();  // lowering reads the mode: a graph is only right in its own
  for (auto& e : entries_)
    if (e.backend == &be && e.device == device && e.x64 == x64 && e.avals == avals &&
        e.params == params) {
      stats.hits.fetch_add(1, std::memory_order_relaxed);
      e.used = next_use_tick();
      return e.compiled;
    }
  stats.misses.fetch_add(1, std::memory_order_relaxed);
  stats.traces.fetch_add(1, std::memory_order_relaxed);
  auto c = std::make_shared<Compiled>();
  c->graph = std::make_shared<const ir::Graph>(build());
  c->exe = compile_on(c->graph, device);
  c->device = device;
  entries_.push_back({&be, device, x64, avals, params, c, next_use_tick()});
  evict_beyond_capacity(entries_, [](const Entry& e) { return e.used; });
  return c;
}

ArrayList run_compiled(const Compiled& c, std::span<const backend::Value> args) {
  check_on_device(args, c.device, c.name.empty() ? "fj: an expression" : c.name.c_str());
  backend::ValueList outs;
  if (c.consts.empty()) {
    c.exe->run_into(args, outs);
  } else {
    SmallVector<backend::Value, 8> all;
    all.append(c.consts.begin(), c.consts.end());
    all.append(args.begin(), args.end());
    c.exe->run_into(all, outs);
  }
  if (debug_nans()) [[unlikely]]
    check_nans(c, args, outs);
  ArrayList res;
  for (auto& o : outs) res.push_back(Array::from_buffer(std::move(o.buf), std::move(o.aval)));
  return res;
}

Array evaluate_with(ExprCache& cache, std::span<const backend::Value> args,
                    const std::vector<std::int64_t>& params,
                    FunctionRef<ir::Atom(LowerCtx&)> lower) {
  std::vector<ir::Aval> avals;
  avals.reserve(args.size());
  for (const backend::Value& v : args) avals.push_back(v.aval);
  const std::shared_ptr<const Compiled> c = cache.get(avals, params, leaves_device(args), [&] {
    ir::GraphBuilder b;
    std::vector<ir::Atom> ins;
    for (auto& av : avals) ins.push_back(ir::Atom::of_var(b.add_invar(av)));
    LowerCtx ctx{b, nullptr, &ins};
    finish_eager_graph(b, lower(ctx));
    return std::move(b.graph);
  });
  return std::move(run_compiled(*c, args)[0]);
}

}  // namespace fj::detail
