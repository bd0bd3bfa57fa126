// fusejit's GEMM and Cholesky/triangular-solve kernels for AVX-512 CPUs (chosen at run time;
// compiled with -mavx512f and co).
#define FUSEJIT_GEMM_ARCH avx512
#define FUSEJIT_GEMM_ISA_NAME "avx512"
#include "fusejit/backend/cpu/gemm_arch.hpp"
