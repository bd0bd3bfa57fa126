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
  // Concrete non-scalar arrays captured by the traced function become constvars.
  std::vector<runtime::BufferPtr> const_buffers;
  std::vector<ir::VarId> const_vars;
};

/// Traces active on this thread, innermost last.
inline std::vector<std::shared_ptr<TraceState>>& trace_stack() {
  thread_local std::vector<std::shared_ptr<TraceState>> stack;
  return stack;
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
