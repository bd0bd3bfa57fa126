// Eigen's LLT solve beside bench/index_linalg.cpp's cholesky + solve row, compiled -O3
// -march=native like the other Eigen baselines (CMakeLists.txt), so the row compares fusejit
// with Eigen built for this CPU, as a user of Eigen would build it.
#include <benchmark/benchmark.h>

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
