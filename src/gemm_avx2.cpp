// fusejit's GEMM and Cholesky/triangular-solve kernels for AVX2 + FMA CPUs (chosen at run time;
// compiled with -mavx2 -mfma).
#define FUSEJIT_GEMM_ARCH avx2
#define FUSEJIT_GEMM_ISA_NAME "avx2"
#include "fusejit/backend/cpu/gemm_arch.hpp"
