// fj::checking_leaks: reporting tracers that outlive their trace, as jax.checking_leaks does.
#pragma once
#include <memory>

#include "fusejit/expr/trace_state.hpp"

namespace fj {

/// Turns tracer-leak checking on or off for every thread, as JAX_CHECK_TRACER_LEAKS does; the
/// environment variable FUSEJIT_CHECK_TRACER_LEAKS=1 turns it on at start.
void set_check_tracer_leaks(bool on);
/// Whether tracer-leak checking is on for every thread (fj::checking_leaks guards aside).
bool check_tracer_leaks();

namespace detail {
/// How many fj::checking_leaks guards this thread holds.
inline int& leak_guards() {
  thread_local int n = 0;
  return n;
}
/// Whether a trace ending on this thread now checks for leaks.
inline bool leak_checking() { return leak_guards() > 0 || check_tracer_leaks(); }
/// Called once a trace has ended, `ended` being the only reference the tracing machinery still
/// holds: any other is a leaked tracer (an fj::Array of the trace, or a nested trace that
/// captured one), reported as fj::UnexpectedTracerError.
void check_no_leaks(std::shared_ptr<TraceState> ended);
}  // namespace detail

/// While alive, every trace this thread ends (fj::jit, grad, vmap, a lax loop's function,
/// make_jaxpr) checks that none of its tracers outlives it: one stored in a global, captured by
/// a lambda that escapes, or returned through a side channel makes the traced call raise
/// fj::UnexpectedTracerError naming the function. Without it such a tracer raises only when it
/// is used. Checking costs a reference count read per trace, and nothing per compiled call.
///
///   { fj::checking_leaks guard; f(x); }  // as JAX's `with jax.checking_leaks(): f(x)`
class checking_leaks {
 public:
  checking_leaks() { ++detail::leak_guards(); }
  ~checking_leaks() { --detail::leak_guards(); }
  checking_leaks(const checking_leaks&) = delete;
  checking_leaks& operator=(const checking_leaks&) = delete;
};

}  // namespace fj
