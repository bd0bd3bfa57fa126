// Out-of-line parts of jit: argument avals, compile-cache misses and their log (impl. unit only).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/placement.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/ir/printer.hpp"
#include "fusejit/ir/effects.hpp"
#include "fusejit/ir/passes/dce.hpp"

namespace fj::detail {

ir::Aval arg_aval(const Array& a, std::size_t index) {
  if (a.is_empty()) throw_empty_array(("fj::jit: argument " + std::to_string(index)).c_str());
  if (a.is_traced()) throw_escaped_tracer(a);
  return a.aval();
}

backend::Value arg_value(const Array& a, const ir::Aval& aval) { return {a.buffer(), aval}; }

// Read on every miss (a miss costs a trace anyway), so a program may switch logging on later.
bool log_compiles_enabled() {
  const char* v = std::getenv("FUSEJIT_LOG_COMPILES");
  return v && *v && std::string(v) != "0";
}

void log_trace(const std::string& name, const std::string& reason) {
  std::cerr << "fusejit: tracing '" << name << "': " << reason << "\n";
}

std::string miss_reason(const JitState& st, std::span<const ir::Aval> avals,
                        const std::vector<PyTreeDef>& trees,
                        const std::vector<std::size_t>& dyn_index,
                        const std::vector<std::string>& static_strs,
                        const std::vector<std::size_t>& static_index, Device device) {
  if (!st.last) return "new function";
  const JitEntry& prev = *st.last;
  if (!(prev.device == device))
    return "device changed " + prev.device.str() + " -> " + device.str();
  if (prev.x64 != x64_enabled())
    return std::string("x64 mode changed ") + (prev.x64 ? "on -> off" : "off -> on");
  for (std::size_t j = 0; j < trees.size() && j < prev.trees.size(); ++j)
    if (!(trees[j] == prev.trees[j]))
      return "arg " + std::to_string(dyn_index[j]) + " structure changed " + prev.trees[j].str() +
             " -> " + trees[j].str();
  // Leaf k belongs to the dynamic argument whose leaves cover it.
  std::vector<std::string> leaf_arg;
  for (std::size_t j = 0; j < trees.size(); ++j) {
    const std::size_t n = trees[j].num_leaves();
    for (std::size_t m = 0; m < n; ++m)
      leaf_arg.push_back(
          "arg " + std::to_string(dyn_index[j]) +
          (trees[j].kind == PyTreeDef::Kind::leaf ? "" : " leaf " + std::to_string(m)));
  }
  for (std::size_t k = 0; k < avals.size() && k < prev.avals.size(); ++k) {
    const ir::Aval &a = prev.avals[k], &b = avals[k];
    const std::string arg = k < leaf_arg.size() ? leaf_arg[k] : "arg";
    if (a.dtype != b.dtype)
      return arg + " dtype changed " + std::string(long_name(a.dtype)) + " -> " +
             std::string(long_name(b.dtype));
    if (!(a.shape == b.shape))
      return arg + " shape changed " + a.shape.str() + " -> " + b.shape.str();
    if (a.weak != b.weak)
      return arg + " weak type changed " + (a.weak ? "True -> False" : "False -> True");
  }
  for (std::size_t k = 0; k < static_strs.size() && k < prev.static_strs.size(); ++k)
    if (static_strs[k] != prev.static_strs[k])
      return "static arg " + std::to_string(static_index[k]) + " changed " + prev.static_strs[k] +
             " -> " + static_strs[k];
  return "argument types changed";
}

std::string describe_compiled(const Compiled& c) {
  const std::string d = c.exe->describe();
  return d.empty() ? "# (the " + std::string(backend::default_backend().name()) +
                         " backend keeps no code)\n"
                   : d;
}

Compiled compile_traced(TraceResult&& r, Device where) {
  auto& stats = stat_counters();
  stats.traces.fetch_add(1, std::memory_order_relaxed);
  Compiled c;
  // The traced graph is kept for fj::set_debug_nans, which re-runs it and cites its jaxpr lines;
  // the backend compiles its DCE (the same graph, shared, when nothing is dead).
  c.graph = std::move(r.graph);
  ir::Graph live = ir::dce(*c.graph);
  c.exe = compile_on(live.eqns.size() == c.graph->eqns.size()
                         ? c.graph
                         : std::make_shared<const ir::Graph>(std::move(live)),
                     where);
  c.device = where;
  c.consts = std::move(r.consts);
  for (backend::Value& v : c.consts) v = put_value(v, where);
  return c;
}

}  // namespace fj::detail

namespace fj::detail {

ir::GraphPtr share_equal_graph(std::vector<std::pair<std::string, ir::GraphPtr>>& cache,
                               ir::GraphPtr g) {
  if (!g->constvars.empty()) {  // closed first: captured values lead the invars
    ir::Graph closed = *g;
    closed.invars.insert(closed.invars.begin(), closed.constvars.begin(), closed.constvars.end());
    closed.constvars.clear();
    g = std::make_shared<const ir::Graph>(std::move(closed));
  }
  std::string text = ir::print_jaxpr(*g);
  for (auto v : g->invars) text += g->aval(v).weak ? 'w' : 's';  // weak types do not print
  for (auto& o : g->outvars) text += g->aval(o).weak ? 'w' : 's';
  // Callbacks print alike (JAX masks the function's address); which ones a graph calls is part
  // of what it is.
  ir::for_each_callback(*g, [&](const ir::Callback& cb) {
    text += ' ' + std::to_string(reinterpret_cast<std::uintptr_t>(&cb));
  });
  for (auto& [t, prev] : cache)
    if (t == text) return prev;
  if (cache.size() >= 16) cache.erase(cache.begin());
  cache.emplace_back(std::move(text), g);
  return g;
}

JitOutcome jit_call(JitState& st, const JitCall& call) {
  const Device device = common_device(call.values, st.api, st.name);
  auto& stats = stat_counters();
  std::unique_lock lock(st.mu);
  if (const auto gen = stats.generation.load(); gen != st.generation)
    st.entries.clear(), st.last = nullptr, st.generation = gen;
  std::shared_ptr<const JitEntry> hit;
  const bool x64 = x64_enabled();
  for (auto& slot : st.entries) {
    const JitEntry& e = *slot.entry;
    if (e.static_hash != call.static_hash || !(e.device == device) || e.x64 != x64 ||
        !std::ranges::equal(e.avals, call.avals) || e.arg_types != call.arg_types ||
        !call.matches(e))
      continue;
    hit = slot.entry;
    slot.used = next_use_tick();
    break;
  }
  if (hit) {
    stats.hits.fetch_add(1, std::memory_order_relaxed);
  } else {
    stats.misses.fetch_add(1, std::memory_order_relaxed);
    auto e = std::make_shared<JitEntry>();
    e->avals.assign(call.avals.begin(), call.avals.end());
    e->arg_types = call.arg_types;
    e->static_hash = call.static_hash;
    e->x64 = x64;
    call.fill_key(*e);
    if (log_compiles_enabled())
      log_trace(st.name, miss_reason(st, call.avals, e->trees,
                                     {call.dyn_index.begin(), call.dyn_index.end()}, e->static_strs,
                                     {call.static_index.begin(), call.static_index.end()}, device));
    TraceResult tr = call.trace(*e);
    e->out_tree = tr.out_tree;
    e->compiled = compile_traced(std::move(tr), device);
    e->device = device;
    e->compiled.name = "fj::jit(" + st.name + ")";
    ++st.traces;
    hit = e;
    st.entries.push_back({std::move(e), next_use_tick()});
    evict_beyond_capacity(st.entries, [](const JitState::Slot& s) { return s.used; });
  }
  st.last = hit.get();
  lock.unlock();  // `hit` keeps the entry alive even if clear_caches() runs meanwhile
  ArrayList outs = run_compiled(hit->compiled, call.values);
  return {std::move(hit), std::move(outs)};
}

std::vector<Array> jit_inline_call(JitState& st, const std::vector<Array>& dyn, TraceBody body,
                                   PyTreeDef& out_tree) {
  std::vector<ir::Aval> avals;
  avals.reserve(dyn.size());
  for (auto& a : dyn) avals.push_back(a.aval());
  SubGraph sub = trace_subgraph_flat(st.site(), avals, body);
  {
    std::lock_guard lock(st.mu);
    sub.graph = share_equal_graph(st.inline_graphs, sub.graph);
  }
  out_tree = sub.out_tree;
  return call_jit(st.name, sub, dyn);
}

std::vector<Array> call_jit(const std::string& name, const SubGraph& sub,
                            const std::vector<Array>& args) {
  TraceState* ts = current_trace();
  if (!ts) throw ValueError("fj: internal: call_jit outside a trace");
  std::vector<ir::Atom> in;
  for (auto& c : sub.consts) in.push_back(lower_arg(c));
  for (auto& a : args) in.push_back(lower_arg(a));
  ir::GraphPtr g = sub.graph;
  if (!g->constvars.empty()) {
    ir::Graph closed = *g;
    closed.invars.insert(closed.invars.begin(), closed.constvars.begin(), closed.constvars.end());
    closed.constvars.clear();
    g = std::make_shared<const ir::Graph>(std::move(closed));
  }
  ir::Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back({"jaxpr", g, true});
  // Values the function closed over lead the operands. When all are concrete arrays, JAX keeps
  // them as constvars of the inner jaxpr (the outer one never names them); the hidden param
  // `closed_consts` tells the printer so. A traced capture makes JAX pass them all as operands.
  const bool all_concrete = std::none_of(sub.consts.begin(), sub.consts.end(),
                                         [](const Array& c) { return c.is_traced(); });
  if (!sub.consts.empty() && all_concrete)
    p.items.push_back(
        {std::string(ir::kClosedConsts), static_cast<std::int64_t>(sub.consts.size()), false});
  std::vector<ir::Atom> outs = ts->builder.emit(ir::Prim::jit, std::move(in), std::move(p));
  std::vector<Array> res;
  for (auto& o : outs) res.push_back(atom_array(o));
  return res;
}

}  // namespace fj::detail
