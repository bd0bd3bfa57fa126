// ir::Callback: a host function that compiled code calls with concrete values (debug_print,
// debug_callback, pure_callback), as the IR sees it: an opaque param with a printed form and
// the avals of what it returns. The backends call it through backend::HostCallback.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "fusejit/ir/aval.hpp"

namespace fj::ir {

/// The IR's view of a host callback. The backend's interface (backend/host_callback.hpp)
/// derives from it and adds the call.
class Callback {
 public:
  virtual ~Callback() = default;
  /// How the `callback=` param prints; JAX prints the Python function's repr.
  virtual std::string repr() const = 0;
  /// What the C++ function is called in messages ("the callback <name> raised ...").
  virtual std::string name() const = 0;
  /// The avals of its results (pure_callback's result_shape_dtypes; none for the debug ones):
  /// the shape rule's answer.
  std::vector<Aval> results;
};

using CallbackPtr = std::shared_ptr<const Callback>;

}  // namespace fj::ir
