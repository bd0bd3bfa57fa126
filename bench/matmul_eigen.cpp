// bench_matmul's Eigen baselines, compiled -O3 -march=native (the CMake bench section sets that on
// this one file): Eigen's own GEMM (A * B on row-major matrices, single-threaded: this Eigen is
// built without OpenMP), the same product followed by relu(. + b), and Eigen's Tensor contraction
// on a ThreadPoolDevice as the multithreaded baseline. bench/matmul.cpp reaches them through
// matmul_eigen.hpp; this file owns every Eigen object and does not include fusejit.
// matmul_eigen_tune_generic.cpp includes it again, for a second build with other flags.
//
// Eigen's namespace is renamed in this unit, as fusejit does for its own per-ISA GEMM units
// (include/fusejit/backend/cpu/gemm_arch.hpp): Eigen's product kernels are templates with the
// same mangled names in every unit, and the library's baseline-ISA copies (fusejit.cpp) would
// otherwise be interchangeable, for the linker, with this unit's AVX-512 ones.
#ifndef FJBENCH_EIGEN_VARIANT
#define FJBENCH_EIGEN_VARIANT native
#define FJBENCH_EIGEN_FLAGS "-O3 -march=native"
#define FJBENCH_EIGEN_TENSOR 1
#endif
#define FJBENCH_CAT2(a, b) a##b
#define FJBENCH_CAT(a, b) FJBENCH_CAT2(a, b)
#define Eigen FJBENCH_CAT(fjbench_eigen_, FJBENCH_EIGEN_VARIANT)
#define EIGEN_USE_THREADS

#include <cstddef>
#include <memory>

#include <Eigen/Core>
#if FJBENCH_EIGEN_TENSOR
#include <unsupported/Eigen/CXX11/Tensor>
#endif

#include "matmul_eigen.hpp"

namespace fjbench {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Data {
  RowMatrix a, b, c;
  Eigen::RowVectorXf bias;
#if FJBENCH_EIGEN_TENSOR
  std::unique_ptr<Eigen::ThreadPool> pool;
  std::unique_ptr<Eigen::ThreadPoolDevice> device;
#endif
};

void* make(const float* a, const float* b, const float* bias, std::size_t n,
           [[maybe_unused]] int threads) {
  const auto en = static_cast<Eigen::Index>(n);
  auto* d = new Data;
  d->a = Eigen::Map<const RowMatrix>(a, en, en);
  d->b = Eigen::Map<const RowMatrix>(b, en, en);
  d->bias = Eigen::Map<const Eigen::RowVectorXf>(bias, en);
  d->c.setZero(en, en);  // touched once, so the timed loops do not fault
#if FJBENCH_EIGEN_TENSOR
  d->pool = std::make_unique<Eigen::ThreadPool>(threads);
  d->device = std::make_unique<Eigen::ThreadPoolDevice>(d->pool.get(), threads);
#endif
  return d;
}
void free_data(void* d) { delete static_cast<Data*>(d); }
const float* out(const void* d) { return static_cast<const Data*>(d)->c.data(); }

// C = A * B through Eigen's GEMM, into the preallocated C.
void gemm(void* p) {
  auto& d = *static_cast<Data*>(p);
  d.c.noalias() = d.a * d.b;
}

// relu(A * B + b): the product, then one more pass for the bias and the max.
void gemm_relu(void* p) {
  auto& d = *static_cast<Data*>(p);
  d.c.noalias() = d.a * d.b;
  d.c = (d.c.rowwise() + d.bias).cwiseMax(0.f);
}

#if FJBENCH_EIGEN_TENSOR
// C = A * B as a tensor contraction on the thread pool (Eigen's multithreaded product).
void tensor(void* p) {
  using RowTensor = Eigen::Tensor<float, 2, Eigen::RowMajor>;
  auto& d = *static_cast<Data*>(p);
  const auto n = d.a.rows();
  const Eigen::TensorMap<const RowTensor> a(d.a.data(), n, n);
  const Eigen::TensorMap<const RowTensor> b(d.b.data(), n, n);
  Eigen::TensorMap<RowTensor> c(d.c.data(), n, n);
  const Eigen::array<Eigen::IndexPair<int>, 1> dims{Eigen::IndexPair<int>(1, 0)};
  c.device(*d.device) = a.contract(b, dims);
}
#endif

}  // namespace

EigenMatmulApi FJBENCH_CAT(eigen_matmul_, FJBENCH_EIGEN_VARIANT)() {
#if FJBENCH_EIGEN_TENSOR
  return {FJBENCH_EIGEN_FLAGS, &make, &free_data, &out, &gemm, &gemm_relu, &tensor};
#else
  return {FJBENCH_EIGEN_FLAGS, &make, &free_data, &out, &gemm, &gemm_relu, nullptr};
#endif
}

}  // namespace fjbench
