// Out-of-line parts of jit: argument avals, compile-cache misses and their log (impl. unit only).
#include <cstdlib>
#include <iostream>

#include "fusejit/api/jit.hpp"
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

std::string miss_reason(const JitState& st, const std::vector<ir::Aval>& avals,
                        const std::vector<std::size_t>& dyn_index,
                        const std::vector<std::string>& static_strs,
                        const std::vector<std::size_t>& static_index) {
  if (!st.last) return "new function";
  const JitEntry& prev = *st.last;
  for (std::size_t k = 0; k < avals.size() && k < prev.avals.size(); ++k) {
    const ir::Aval &a = prev.avals[k], &b = avals[k];
    const std::string arg = "arg " + std::to_string(dyn_index[k]);
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

Compiled compile_traced(TraceResult&& r) {
  auto& stats = stat_counters();
  stats.traces.fetch_add(1, std::memory_order_relaxed);
  Compiled c;
  c.graph = std::make_shared<const ir::Graph>(ir::dce(*r.graph));
  c.exe = backend::default_backend().compile(c.graph);
  c.consts = std::move(r.consts);
  return c;
}

}  // namespace fj::detail
