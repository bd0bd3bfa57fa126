// fj::disable_jit: a scope in which fj::jit runs its function eagerly, op by op, for debugging
// (jax.disable_jit).
#pragma once

namespace fj {

/// While one lives, on the thread that made it, every fj::jit call outside a trace runs the
/// function eagerly on its arguments, as jax.disable_jit does: each operation executes as it is
/// reached, so values can be printed or inspected in a debugger, and nothing is traced, compiled
/// or cached. Setting the environment variable FUSEJIT_DISABLE_JIT=1 disables jit for the whole
/// process (JAX_DISABLE_JIT). Scopes nest; `fj::disable_jit off(false)` re-enables jit inside
/// one. Transformations (grad, vmap, jacfwd, ...) and the lax loops still trace their functions,
/// as they must to transform them; only the jit around them is skipped.
/// { fj::disable_jit no_jit; f(x); }
class disable_jit {
 public:
  /// Disables jit on this thread (or, with `disable` false, enables it) until destroyed.
  explicit disable_jit(bool disable = true);
  ~disable_jit();
  disable_jit(const disable_jit&) = delete;
  disable_jit& operator=(const disable_jit&) = delete;

 private:
  int previous_;
};

/// Whether fj::jit runs functions eagerly on this thread now (an fj::disable_jit scope, or
/// FUSEJIT_DISABLE_JIT=1).
bool jit_disabled();

}  // namespace fj
