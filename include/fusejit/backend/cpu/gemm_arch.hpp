// The GEMM and linear-algebra kernels of one instruction set: include with FUSEJIT_GEMM_ARCH set
// (avx2, avx512) in a translation unit compiled with that instruction set's flags.
//
// Eigen picks its vector code by preprocessor macros, and its templates are instantiated with
// the same names in every unit, so two units built with different flags would otherwise give
// the linker two different bodies for one symbol (it keeps either). Renaming Eigen's namespace
// here gives each unit symbols of its own.
#ifndef FUSEJIT_GEMM_ARCH
#error "define FUSEJIT_GEMM_ARCH before including gemm_arch.hpp"
#endif
#define FUSEJIT_GEMM_CAT2(a, b) a##b
#define FUSEJIT_GEMM_CAT(a, b) FUSEJIT_GEMM_CAT2(a, b)
#define Eigen FUSEJIT_GEMM_CAT(fusejit_eigen_, FUSEJIT_GEMM_ARCH)
#define EIGEN_DONT_PARALLELIZE
#include <Eigen/Core>

#include "fusejit/backend/cpu/arch_kernels.hpp"

namespace fj::backend::cpu {
ArchKernels FUSEJIT_GEMM_CAT(arch_kernels_, FUSEJIT_GEMM_ARCH)() {
  return this_unit_kernels(FUSEJIT_GEMM_ISA_NAME);
}
}  // namespace fj::backend::cpu
