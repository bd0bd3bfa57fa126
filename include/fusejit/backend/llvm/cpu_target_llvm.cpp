// Definitions of api/cpu_target.hpp with the LLVM backend: its ORC session holds the target.
#include "fusejit/api/cpu_target.hpp"
#include "fusejit/backend/llvm/orc_session.hpp"
#include "fusejit/runtime/cache_stats.hpp"

namespace fj {

CpuTarget cpu_target() { return backend::llvm_kernel::OrcSession::get().target()->info; }

void set_cpu_target(std::string_view name) {
  // Compiled code is per target: every in-memory cache starts again, so that jitted functions
  // compile for the new one (their entries would otherwise keep the old kernels).
  if (backend::llvm_kernel::OrcSession::get().set_target(name)) clear_caches();
}

bool cpu_target_supported(std::string_view name) {
  return backend::llvm_kernel::OrcSession::get().supports(name);
}

}  // namespace fj
