// The Cholesky factorization and the triangular solve through Eigen, for row-major matrices.
// Internal linkage: each instruction set's unit (cpu/gemm_arch.hpp) has its own copy.
#pragma once
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "fusejit/backend/cpu/linalg_call.hpp"

namespace fj::backend::cpu {
namespace {

template <class T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Read column-major, the row-major A is A^T, and A's lower triangle is A^T's upper one: Eigen's
// upper-triangle LLT of that view gives U with A = U^T U, and U written column-major is L = U^T
// row-major. Eigen's blocked LLT runs on this layout at its full speed; a row-major Lower LLT
// took 15.7 ms for n = 512 where this takes 3.1 ms (AVX2 build, bench/index_linalg.cpp).
template <class T>
bool cholesky_lower(const T* a, T* l, std::int64_t n) {
  const auto m = static_cast<Eigen::Index>(n);
  Eigen::LLT<ColMatrix<T>, Eigen::Upper> llt(Eigen::Map<const ColMatrix<T>>(a, m, m));
  if (llt.info() != Eigen::Success) return false;
  Eigen::Map<ColMatrix<T>>(l, m, m) = llt.matrixU();
  return true;
}

template <class T, unsigned Mode>
void solve_with(const T* a, T* x, std::int64_t m, std::int64_t rows, std::int64_t cols, bool left,
                bool transpose) {
  Eigen::Map<const RowMatrix<T>> A(a, m, m);
  Eigen::Map<RowMatrix<T>> X(x, rows, cols);
  const auto tri = A.template triangularView<Mode>();
  if (left && cols == 1) {
    // One right-hand side (cho_solve's b): Eigen's vector solve. As a matrix it goes through
    // the blocked solve, which first packs all of A into panels.
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> v(x, rows);
    if (transpose)
      tri.transpose().solveInPlace(v);
    else
      tri.solveInPlace(v);
    return;
  }
  if (transpose && left)
    tri.transpose().solveInPlace(X);
  else if (transpose)
    tri.transpose().template solveInPlace<Eigen::OnTheRight>(X);
  else if (left)
    tri.solveInPlace(X);
  else
    tri.template solveInPlace<Eigen::OnTheRight>(X);
}

template <class T>
void solve_triangular(const T* a, T* x, std::int64_t m, std::int64_t rows, std::int64_t cols,
                      TriangularSolveMode mode) {
  auto* solve =
      mode.lower
          ? (mode.unit_diagonal ? &solve_with<T, Eigen::UnitLower> : &solve_with<T, Eigen::Lower>)
          : (mode.unit_diagonal ? &solve_with<T, Eigen::UnitUpper> : &solve_with<T, Eigen::Upper>);
  solve(a, x, m, rows, cols, mode.left_side, mode.transpose);
}

/// The kernels of the unit that includes this header.
inline LinalgKernels eigen_linalg_kernels() {
  return {{&cholesky_lower<float>, &solve_triangular<float>},
          {&cholesky_lower<double>, &solve_triangular<double>}};
}

}  // namespace
}  // namespace fj::backend::cpu
