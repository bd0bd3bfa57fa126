// bench_matmul's Eigen GEMM built a second time, -O3 -march=native -mtune=generic: on a CPU newer
// than the compiler (an AMD Zen 4 guest, which GCC 12 tunes as znver3), -march=native's tuning
// alone changes Eigen's GEMM speed by about 20%; fusejit's own GEMM units use generic tuning.
// No tensor contraction here (only matmul_eigen.cpp has one).
#define FJBENCH_EIGEN_VARIANT tune_generic
#define FJBENCH_EIGEN_FLAGS "-O3 -march=native -mtune=generic"
#define FJBENCH_EIGEN_TENSOR 0
#include "matmul_eigen.cpp"
