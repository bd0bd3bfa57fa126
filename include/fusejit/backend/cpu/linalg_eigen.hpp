// The Cholesky factorization, the triangular solve and the LU panel through Eigen, for
// row-major matrices.
// Internal linkage: each instruction set's unit (cpu/gemm_arch.hpp) has its own copy.
#pragma once
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>

#include "fusejit/backend/cpu/linalg_call.hpp"

namespace fj::backend::cpu {
namespace {

template <class T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Eigen's LLT runs at full speed only on its native layout, the lower triangle of a column-major
// matrix; every other layout (an Upper LLT, which Eigen runs as a Lower one on the transpose, or
// a row-major Lower one) takes its slow paths: 3.1 ms and 15.7 ms for n = 512 against 1.1 ms
// native (AVX-512, bench/index_linalg.cpp). So A is copied to `l`, transposed there in place
// (Eigen's blocked, vectorized transpose: a strided element-by-element copy between the layouts
// took longer than the factorization, its 4 KiB stride missing the cache), factored in place,
// and transposed back, its upper triangle zeroed. A transposed `a` is already A in the
// column-major view: the first transpose is saved; a transposed `l` is L in the column-major
// view: the second is (a 512x512 f64 transposeInPlace takes 126 us, an eighth of the whole).
template <class T>
bool cholesky_lower(const T* a, T* l, std::int64_t n, bool a_transposed, bool l_transposed) {
  const auto m = static_cast<Eigen::Index>(n);
  Eigen::Map<RowMatrix<T>> rows(l, m, m);
  rows = Eigen::Map<const RowMatrix<T>>(a, m, m);
  if (!a_transposed) rows.transposeInPlace();  // now l read column-major is A
  Eigen::Map<ColMatrix<T>> cols(l, m, m);
  Eigen::Ref<ColMatrix<T>> ref(cols);
  Eigen::LLT<Eigen::Ref<ColMatrix<T>>, Eigen::Lower> llt(ref);  // in place, in `l`
  if (llt.info() != Eigen::Success) return false;
  if (l_transposed) {  // L^T row-major above the diagonal, A's lower triangle below it
    for (std::int64_t i = 1; i < n; ++i) std::fill(l + i * n, l + i * n + i, T(0));
    return true;
  }
  rows.transposeInPlace();  // L row-major below the diagonal, A's upper triangle above it
  // Row by row: Eigen's triangular setZero walks a row-major map by columns, at a 4 KiB stride.
  for (std::int64_t i = 0; i + 1 < n; ++i) std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
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
// The blocked LU's GEMM updates run at this unit's vector width (the baseline build's Eigen,
// SSE2, was 27 % of jit(grad(det)) at n = 512 on an AVX-512 host).
template <class T>
void lu_panel(T* a, std::int64_t m, std::int64_t k, std::int64_t lda, int* swaps) {
  int nb_swaps = 0;
  Eigen::internal::partial_lu_impl<T, Eigen::RowMajor, int>::blocked_lu(
      static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(k), a, static_cast<Eigen::Index>(lda),
      swaps, nb_swaps);
}

inline LinalgKernels eigen_linalg_kernels() {
  return {{&cholesky_lower<float>, &solve_triangular<float>, &lu_panel<float>},
          {&cholesky_lower<double>, &solve_triangular<double>, &lu_panel<double>}};
}

}  // namespace
}  // namespace fj::backend::cpu
