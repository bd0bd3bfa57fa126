// The CPU that the LLVM backend compiles kernels for: the host by default, or one forced by
// FUSEJIT_CPU / fj::set_cpu_target, so that one machine can run its kernels at every vector width
// it supports.
#pragma once
#include <string>
#include <string_view>

namespace fj {

/// What new LLVM kernels are compiled for.
struct CpuTarget {
  std::string name;      ///< as set: "native", "x86-64-v3", "skylake-avx512", ...
  std::string cpu;       ///< LLVM's CPU name ("znver4" for native on such a host)
  std::string features;  ///< LLVM's feature string ("+avx2,+fma,..."; empty for a named CPU)
  int lanes = 0;         ///< f32 lanes of the kernels' vectors: 4 (SSE), 8 (AVX2), 16 (AVX-512)
};

/// The target new kernels compile for. Without an LLVM backend in the build: {"native", "", "",
/// 0}.
CpuTarget cpu_target();

/// Compiles new kernels for `name`: "native" (the host, the default), "x86-64-v2" (SSE4.2, 4 f32
/// lanes), "x86-64-v3" (AVX2 + FMA, 8 lanes), "x86-64-v4" (AVX-512, 16 lanes), or any x86-64 CPU
/// name LLVM knows ("haswell", "skylake-avx512", "znver3"). A name LLVM does not know raises
/// fj::ValueError; a CPU whose instructions this host lacks raises fj::DeviceError naming them:
/// its code is never run. The in-memory caches are emptied when the target changes (as
/// clear_caches() does), so every jitted function compiles again for the new target; the target
/// is part of every kernel cache key and of the on-disk cache's entry names. The environment
/// variable FUSEJIT_CPU sets it at the first compile of the process.
void set_cpu_target(std::string_view name);

/// Whether set_cpu_target(name) would be accepted on this host (false for unknown names too).
bool cpu_target_supported(std::string_view name);

}  // namespace fj
