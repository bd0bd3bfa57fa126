// Definitions of api/cpu_target.hpp: the LLVM backend's ORC session holds the target; a build
// without LLVM has only the host.
#pragma once
#include "fusejit/api/cpu_target.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/runtime/cache_stats.hpp"

namespace fj {

#ifdef FUSEJIT_WITH_LLVM

CpuTarget cpu_target() { return backend::llvm_kernel::OrcSession::get().target()->info; }

void set_cpu_target(std::string_view name) {
  // Compiled code is per target: every in-memory cache starts again, so that jitted functions
  // compile for the new one (their entries would otherwise keep the old kernels).
  if (backend::llvm_kernel::OrcSession::get().set_target(name)) clear_caches();
}

bool cpu_target_supported(std::string_view name) {
  return backend::llvm_kernel::OrcSession::get().supports(name);
}

#else

CpuTarget cpu_target() { return {"native", "", "", 0}; }

void set_cpu_target(std::string_view name) {
  if (!name.empty() && name != "native")
    throw ValueError("fj::set_cpu_target(\"" + std::string(name) +
                     "\"): this build has no LLVM backend; only \"native\" is accepted");
}

bool cpu_target_supported(std::string_view name) { return name.empty() || name == "native"; }

#endif

}  // namespace fj
