// The state of one trace (the graph being recorded) and the per-thread stack of active traces.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj::detail {

struct TraceState {
  ir::GraphBuilder builder;
  std::string fn_name;
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
  explicit TraceScope(std::string fn_name) : state_(std::make_shared<TraceState>()) {
    state_->fn_name = std::move(fn_name);
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
