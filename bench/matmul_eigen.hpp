// The interface between bench/matmul.cpp and its Eigen baselines (matmul_eigen*.cpp), which are
// compiled with other flags than fusejit and own every Eigen object: raw pointers only.
#pragma once
#include <cstddef>

namespace fjbench {

struct EigenMatmulApi {
  const char* flags;  // how the unit was compiled
  // Copies n x n row-major a and b and n-entry bias; `threads`: the tensor contraction's pool.
  void* (*make)(const float* a, const float* b, const float* bias, std::size_t n, int threads);
  void (*free)(void* d);
  const float* (*out)(const void* d);  // C, n x n row-major
  void (*gemm)(void* d);               // C = A * B, Eigen's GEMM, single-threaded
  void (*gemm_relu)(void* d);          // C = A * B, then C = (C.rowwise() + b).cwiseMax(0)
  void (*tensor)(void* d);             // C = A * B, tensor contraction on the pool; may be null
};

EigenMatmulApi eigen_matmul_native();        // matmul_eigen.cpp: -O3 -march=native
EigenMatmulApi eigen_matmul_tune_generic();  // matmul_eigen_tune_generic.cpp: ... -mtune=generic

}  // namespace fjbench
