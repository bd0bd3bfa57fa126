// The GPU's transcendentals, generated from the CPU's: the LLVM backend's math emitters
// (math_ir.hpp) at scalar float and double, translated instruction by instruction into C.
#pragma once
#include <string>

namespace fj::backend::llvm_kernel {

/// The text of include/fusejit/backend/cuda/kernel_math.def: one FJM_ENTRY(name, type, uses_table,
/// code) per function and type, and the FJM_TABLE that the trigonometric ones read. The code
/// does in C exactly what the emitted IR does, operation for operation (every rounding where the
/// IR has one, fused multiply-adds where it has llvm.fma, nowhere else), so a GPU compiling it
/// without contraction computes the CPU's results bit for bit. tests/test_gpu_math.cpp checks
/// the checked-in file against this, and the host-compiled file against the CPU kernels.
std::string gpu_math_source();

}  // namespace fj::backend::llvm_kernel
