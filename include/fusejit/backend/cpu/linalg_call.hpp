// The interface between the linear-algebra host routines (reference/library_linalg.hpp) and the
// Eigen kernels they call, which are compiled once per instruction set with the GEMM's
// (src/gemm_*.cpp) and chosen at run time with them (cpu/arch_kernels.hpp).
#pragma once
#include <cstdint>
#include <type_traits>

namespace fj::backend::cpu {

/// Writes the lower Cholesky factor of the n x n row-major `a`, read from its lower triangle
/// only, to `l` (zeros above the diagonal); false if a pivot is not positive. With
/// `a_transposed`, the matrix factored is a's transpose (read from a's upper triangle): a
/// transpose feeding the cholesky, folded into it (ir/passes/fold_linalg_transpose.hpp). With
/// `l_transposed`, `l` gets the factor's transpose (zeros below the diagonal), for triangular
/// solves that read it so (ir/passes/fold_cholesky_result_transpose.hpp).
template <class T>
using CholeskyFn = bool (*)(const T* a, T* l, std::int64_t n, bool a_transposed, bool l_transposed);

/// Which triangle of the m x m row-major A is read, whether its diagonal is taken as ones, on
/// which side of X it stands, and whether it is transposed.
struct TriangularSolveMode {
  bool lower, unit_diagonal, left_side, transpose;
};
/// Solves op(A) X = B (left side) or X op(A) = B in place of the rows x cols row-major x.
template <class T>
using TriangularSolveFn = void (*)(const T* a, T* x, std::int64_t m, std::int64_t rows,
                                   std::int64_t cols, TriangularSolveMode mode);

/// Factors the left (m, k) panel of the row-major `a` (leading dimension lda) in place with
/// partial pivoting (Eigen's blocked PartialPivLU kernel: LAPACK's getrf pivots); swaps[i] is
/// the row swapped with row i.
template <class T>
using LuPanelFn = void (*)(T* a, std::int64_t m, std::int64_t k, std::int64_t lda, int* swaps);

/// The kernels of one dtype.
template <class T>
struct LinalgFns {
  CholeskyFn<T> cholesky;
  TriangularSolveFn<T> triangular_solve;
  LuPanelFn<T> lu_panel;
};
struct LinalgKernels {
  LinalgFns<float> f32;
  LinalgFns<double> f64;
  template <class T>
  const LinalgFns<T>& of() const {
    if constexpr (std::is_same_v<T, double>)
      return f64;
    else
      return f32;
  }
};

}  // namespace fj::backend::cpu
