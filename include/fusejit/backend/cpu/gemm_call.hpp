// The interface between the dot_general executor and the GEMM kernels it dispatches to, which
// are compiled once per instruction set (src/gemm_*.cpp) and chosen at run time
// (cpu/arch_kernels.hpp).
#pragma once
#include <cstdint>

namespace fj::backend::cpu {

/// C (m x n, row-major) = op(A) * op(B): A is m x k row-major, or k x m when `trans_a`; B is
/// k x n row-major, or n x k when `trans_b`.
struct GemmCall {
  const void* a;
  const void* b;
  void* c;
  std::int64_t m, n, k;
  bool trans_a, trans_b;
};

/// Computes rows [r0, r1) of C on the calling thread.
using GemmRowsFn = void (*)(const GemmCall&, std::int64_t r0, std::int64_t r1);

struct GemmKernels {
  const char* isa;
  GemmRowsFn f32, f64;
};

}  // namespace fj::backend::cpu
