// Definitions of api/cpu_target.hpp for a build without LLVM: it has only the host. With LLVM,
// the ORC session holds the target (backend/llvm/cpu_target_llvm.cpp).
#include "fusejit/api/cpu_target.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/runtime/cache_stats.hpp"

namespace fj {

#ifndef FUSEJIT_WITH_LLVM

CpuTarget cpu_target() { return {"native", "", "", 0}; }

void set_cpu_target(std::string_view name) {
  if (!name.empty() && name != "native")
    throw ValueError("fj::set_cpu_target(\"" + std::string(name) +
                     "\"): this build has no LLVM backend; only \"native\" is accepted");
}

bool cpu_target_supported(std::string_view name) { return name.empty() || name == "native"; }

#endif

}  // namespace fj
