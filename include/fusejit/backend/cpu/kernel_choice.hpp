// Which instruction set's library kernels this CPU runs, chosen once: the widest that
// src/gemm_*.cpp were built for and the CPU supports, a lower one FUSEJIT_GEMM_ISA names, or the
// ones built into the including unit for the baseline ISA (header-only builds get only those).
#pragma once
#include <cstdlib>
#include <string>

#include "fusejit/backend/cpu/arch_kernels.hpp"

namespace fj::backend::cpu {

inline ArchKernels best_arch_kernels() {
#if defined(FUSEJIT_GEMM_MULTIARCH) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  const char* want = std::getenv("FUSEJIT_GEMM_ISA");  // for tests and comparisons
  const std::string w = want ? want : "";
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("fma");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (w == "generic") return this_unit_kernels("generic");
  if (avx512 && (w.empty() || w == "avx512")) return arch_kernels_avx512();
  if (avx2 && (w.empty() || w == "avx2" || w == "avx512")) return arch_kernels_avx2();
#endif
  return this_unit_kernels("generic");
}

/// The kernels, chosen at the first call.
inline const ArchKernels& arch_kernels() {
  static const ArchKernels k = best_arch_kernels();
  return k;
}

}  // namespace fj::backend::cpu
