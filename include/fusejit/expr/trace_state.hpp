// The state of one trace (the graph being recorded) and the per-thread stack of active traces.
#pragma once
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj::detail {

/// What a trace traces and who asked: the function's name, the entry point (fj::jit, fj::grad,
/// fj::lax::scan, ...) and where that entry point was called, for "while tracing" notes and
/// leak reports. A bare name (an internal trace) converts implicitly.
struct TraceSite {
  std::string name;
  const char* api = nullptr;
  std::source_location loc{};  // line 0: unknown
  TraceSite(std::string n, const char* a = nullptr, std::source_location l = {})
      : name(std::move(n)), api(a), loc(l) {}
  TraceSite(const char* n) : name(n) {}
  /// "the function f for fj::jit at file.cpp:12".
  std::string str() const {
    std::string s = "the function " + name;
    if (api) s += std::string(" for ") + api;
    if (loc.line() > 0)
      s += std::string(" at ") + loc.file_name() + ":" + std::to_string(loc.line());
    return s;
  }
};

struct TraceState {
  ir::GraphBuilder builder;
  std::string fn_name;
  const char* api = nullptr;  // see TraceSite
  std::source_location loc{};
  bool open = true;
  /// A constvar's value: a concrete buffer the traced function captured, or a tracer of an
  /// enclosing trace (a sub-function of grad, vmap or lax closing over an outer value).
  struct Const {
    runtime::BufferPtr buf;
    std::shared_ptr<TraceState> outer;
    ir::VarId outer_var = -1;
  };
  std::vector<Const> consts;
  std::vector<ir::VarId> const_vars;  // parallel to consts
  TraceSite site() const { return {fn_name, api, loc}; }
};

/// Traces active on this thread, innermost last.
inline std::vector<std::shared_ptr<TraceState>>& trace_stack() {
  thread_local std::vector<std::shared_ptr<TraceState>> stack;
  return stack;
}
/// Whether t is an open trace on this thread's stack (so a tracer of t may be captured by a
/// trace nested inside it).
inline bool is_enclosing_trace(const TraceState* t) {
  for (auto& s : trace_stack())
    if (s.get() == t) return t->open;
  return false;
}
inline TraceState* current_trace() {
  auto& s = trace_stack();
  return s.empty() ? nullptr : s.back().get();
}

/// Pushes a trace for the lifetime of the guard, and closes it at the end.
class TraceScope {
 public:
  explicit TraceScope(TraceSite site) : state_(std::make_shared<TraceState>()) {
    state_->fn_name = std::move(site.name);
    state_->api = site.api;
    state_->loc = site.loc;
    trace_stack().push_back(state_);
  }
  ~TraceScope() {
    state_->open = false;
    trace_stack().pop_back();
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;
  TraceState& state() { return *state_; }
  const std::shared_ptr<TraceState>& ptr() const { return state_; }

 private:
  std::shared_ptr<TraceState> state_;
};

}  // namespace fj::detail
