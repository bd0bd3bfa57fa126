// backend::HostCallback: how a backend calls a callback equation's C++ function (debug_print,
// debug_callback, pure_callback) with concrete values, between kernels or from a loop driver.
#pragma once
#include <span>

#include "fusejit/backend/backend.hpp"
#include "fusejit/ir/callback.hpp"

namespace fj::backend {

/// A callback as the backends call it. The front end (api/debug.hpp) implements it.
class HostCallback : public ir::Callback {
 public:
  /// Called with the operands' values; fills `out`, whose buffers are allocated with the
  /// callback's result avals. It may throw: run_callback wraps the exception.
  virtual void call(std::span<const Value> in, std::span<Value> out) const = 0;
};

/// Runs callback equation `e` (its param `callback`) on `in` (one value per operand) into the
/// preallocated `out`. An exception from the function is raised as fj::CallbackError naming it,
/// with the original nested (std::rethrow_if_nested gives it back). Every backend runs callback
/// equations through this.
void run_callback(const ir::Eqn& e, const Value* in, Value* out);

}  // namespace fj::backend
