// Row panels of a GEMM through Eigen's product kernels, single-threaded (the executor splits
// the rows across the pool). Internal linkage: each instruction set's unit has its own copy.
#pragma once
#include <Eigen/Core>

#include "fusejit/backend/cpu/gemm_call.hpp"

namespace fj::backend::cpu {
namespace {

template <class T>
void gemm_rows(const GemmCall& g, std::int64_t r0, std::int64_t r1) {
  using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Strided = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
  const auto rows = static_cast<Eigen::Index>(r1 - r0);
  const auto m = static_cast<Eigen::Index>(g.m), n = static_cast<Eigen::Index>(g.n),
             k = static_cast<Eigen::Index>(g.k);
  if (rows <= 0 || n == 0) return;
  Eigen::Map<RowMajor> c(static_cast<T*>(g.c) + r0 * n, rows, n);
  if (k == 0) {
    c.setZero();
    return;
  }
  const T* a = static_cast<const T*>(g.a);
  const T* b = static_cast<const T*>(g.b);
  // Rows r0..r1 of op(A): a block of A's rows, or of A's columns (strided by m) transposed.
  const Strided a_rows(a + r0 * k, rows, k, Eigen::OuterStride<>(k));
  const Strided a_cols(a + r0, k, rows, Eigen::OuterStride<>(m));
  const Eigen::Map<const RowMajor> b_kn(b, g.trans_b ? n : k, g.trans_b ? k : n);
  if (!g.trans_a && !g.trans_b)
    c.noalias() = a_rows * b_kn;
  else if (!g.trans_a)
    c.noalias() = a_rows * b_kn.transpose();
  else if (!g.trans_b)
    c.noalias() = a_cols.transpose() * b_kn;
  else
    c.noalias() = a_cols.transpose() * b_kn.transpose();
}

}  // namespace
}  // namespace fj::backend::cpu
