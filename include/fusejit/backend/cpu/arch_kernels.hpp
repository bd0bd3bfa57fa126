// The library kernels (Eigen's GEMM, Cholesky and triangular solve) of one instruction set, as
// one table: each of src/gemm_*.cpp builds one, and cpu/kernel_choice.hpp picks one at run time.
// Included by those per-ISA units, so it defines nothing with external linkage: an inline
// function compiled with -mavx2 there could be the one the linker keeps for every caller.
#pragma once
#include "fusejit/backend/cpu/gemm_call.hpp"
#include "fusejit/backend/cpu/gemm_eigen.hpp"
#include "fusejit/backend/cpu/linalg_call.hpp"
#include "fusejit/backend/cpu/linalg_eigen.hpp"

namespace fj::backend::cpu {

struct ArchKernels {
  GemmKernels gemm;
  LinalgKernels linalg;
};

// One per instruction set, each in its own translation unit with its own Eigen namespace.
ArchKernels arch_kernels_avx512();
ArchKernels arch_kernels_avx2();

namespace {
/// The kernels of the unit that includes this header, under its instruction set's name.
inline ArchKernels this_unit_kernels(const char* isa) {
  return {{isa, &gemm_rows<float>, &gemm_rows<double>}, eigen_linalg_kernels()};
}
}  // namespace

}  // namespace fj::backend::cpu
