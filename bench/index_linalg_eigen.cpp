// Eigen's LLT solve beside bench/index_linalg.cpp's cholesky + solve row, compiled -O3
// -march=native like the other Eigen baselines (CMakeLists.txt), so the row compares fusejit
// with Eigen built for this CPU, as a user of Eigen would build it.
//
// Eigen's namespace is renamed in this unit, as in bench/matmul_eigen.cpp: its templates have the
// same mangled names in every unit, and the linker may otherwise pair this unit's AVX-512 code
// with another unit's baseline-ISA copy of a helper (an allocation aligned to 16 bytes read by
// 64-byte aligned loads: the clang build's smoke run crashed in LLT::compute).
#include <benchmark/benchmark.h>
#define Eigen fjbench_eigen_llt_native

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cstdint>

/// LLT(a).solve(b) for the n x n symmetric a (its layout does not matter) and b.
void BM_eigen_llt_native(benchmark::State& state, const double* a, const double* b,
                         std::int64_t n) {
  const Eigen::Map<const Eigen::MatrixXd> A(a, n, n);
  const Eigen::Map<const Eigen::VectorXd> B(b, n);
  for (auto _ : state) {
    Eigen::VectorXd x = Eigen::LLT<Eigen::MatrixXd>(A).solve(B);
    benchmark::DoNotOptimize(x.data());
  }
}
