// The GPU's transcendentals, generated from the CPU's: the LLVM backend's math emitters
// (math_ir.hpp) at scalar float and double, translated instruction by instruction into C.
#pragma once
#include <string>
#include <vector>

namespace fj::backend::llvm_kernel {

/// One generated file: its path under include/fusejit/backend/cuda/, and its text.
struct GpuMathFile {
  std::string path;
  std::string text;
};

/// The GPU's math, as checked in under include/fusejit/backend/cuda/: kernel_math.def, the
/// FJM_TABLE that the trigonometric functions read and an #include per function, and
/// kernel_math/<name>_<f32|f64>.def, one FJM_ENTRY(name, type, uses_table, code) each, the
/// helpers the math library shares (Fp::outlined) before the functions that call them. The code
/// does in C exactly what the emitted IR does, operation for operation (every rounding where the
/// IR has one, fused multiply-adds where it has llvm.fma, nowhere else), so a GPU compiling it
/// without contraction computes the CPU's results bit for bit. tests/test_gpu_math.cpp checks
/// the checked-in files against these, and the host-compiled files against the CPU kernels.
std::vector<GpuMathFile> gpu_math_files();

}  // namespace fj::backend::llvm_kernel
