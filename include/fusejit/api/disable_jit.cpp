// fj::disable_jit's per-thread state (implementation unit only).
#include "fusejit/api/disable_jit.hpp"

#include <cstdlib>
#include <cstring>

namespace fj {

namespace {

// -1: not set on this thread (the environment decides), 0: enabled, 1: disabled.
thread_local int jit_disabled_here = -1;

bool disabled_by_environment() {
  static const bool v = [] {
    const char* e = std::getenv("FUSEJIT_DISABLE_JIT");
    return e && *e && std::strcmp(e, "0") != 0;
  }();
  return v;
}

}  // namespace

disable_jit::disable_jit(bool disable) : previous_(jit_disabled_here) {
  jit_disabled_here = disable ? 1 : 0;
}

disable_jit::~disable_jit() { jit_disabled_here = previous_; }

bool jit_disabled() {
  if (jit_disabled_here >= 0) return jit_disabled_here == 1;
  return disabled_by_environment();
}

}  // namespace fj
