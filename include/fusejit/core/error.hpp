// The exception hierarchy: every failure the library reports derives from fj::Error.
#pragma once
#include <exception>
#include <stdexcept>
#include <string>

namespace fj {

/// Base of every error fusejit raises. Nothing in the library aborts the host process.
/// The message can grow after the throw: a trace the error passes through appends where it
/// came from (add_trace_note), then rethrows the same object, so its type is kept.
class Error : public std::runtime_error {
 public:
  /// An error with message `msg`; each subclass takes the same (throw fj::ShapeError("...")).
  ///@{
  explicit Error(const std::string& msg) : std::runtime_error(msg), msg_(msg) {}
  explicit Error(const char* msg) : std::runtime_error(msg), msg_(msg) {}
  ///@}
  /// The message, with every note added since the throw.
  const char* what() const noexcept override { return msg_.c_str(); }
  /// Appends a line to the message.
  void add_note(const std::string& note) { msg_ += "\n" + note; }
  /// Appends `note` unless a trace has already noted itself: the innermost trace is the one
  /// whose function raised, and only it is named.
  void add_trace_note(const std::string& note) {
    if (trace_noted_) return;
    trace_noted_ = true;
    add_note(note);
  }

 private:
  std::string msg_;
  bool trace_noted_ = false;
};

/// Incompatible or invalid shapes (broadcasting, item() on a non-scalar, ...). Raised at trace
/// time.
class ShapeError : public Error {
  using Error::Error;
};
/// A dtype that an operation or accessor cannot take.
class DTypeError : public Error {
  using Error::Error;
};
/// A bad argument value that is neither a shape nor a dtype problem (e.g. static_argnums).
class ValueError : public Error {
  using Error::Error;
};
/// A value of the wrong kind, e.g. a jitted function returning an empty Array.
class TypeError : public Error {
  using Error::Error;
};
/// A backend failed to compile a kernel; the message carries the backend's log.
class CompileError : public Error {
  using Error::Error;
};
/// A missing device or driver, or a failed allocation.
class DeviceError : public Error {
  using Error::Error;
};
/// An operation fusejit does not implement (yet) for these arguments, device or transformation;
/// the message names the operation and what is missing. Never a wrong result instead.
class NotImplementedError : public Error {
  using Error::Error;
};
/// Concrete data was asked of a traced array (data(), item(), to_vector() inside a trace).
class ConcretizationError : public Error {
  using Error::Error;
};
/// A name that is not bound where it is used: a collective's axis name outside every pmap or
/// vmap that binds it (the message lists the names in scope), as Python's NameError in JAX.
class NameError : public Error {
  using Error::Error;
};
/// A traced array was used after the trace that created it had ended, or (inside
/// fj::checking_leaks) outlived it.
class UnexpectedTracerError : public Error {
  using Error::Error;
};
/// A C++ function called from compiled code (fj::debug::callback, fj::pure_callback, a print
/// handler) raised; the message names it. Raised while that exception is being handled, it holds
/// it as its nested exception (std::rethrow_if_nested gives it back).
class CallbackError : public Error, public std::nested_exception {
  using Error::Error;
};
/// With fj::set_debug_nans(true) (FUSEJIT_DEBUG_NANS=1), a compiled call produced a NaN; the
/// message names the first primitive that made one, and its jaxpr line.
class FloatingPointError : public Error {
  using Error::Error;
};

}  // namespace fj
