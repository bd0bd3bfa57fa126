// The host routines of the linear-algebra primitives (cholesky, triangular_solve), shared by the
// reference and LLVM backends: Eigen's decompositions on each matrix of the batch.
#pragma once
#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/cpu/kernel_choice.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::detail::reference::library {

template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// How many matrices a (..., r, c) operand holds.
inline std::int64_t batch_count(const Shape& s) {
  std::int64_t n = 1;
  for (int d = 0; d < s.rank() - 2; ++d) n *= s[d];
  return n;
}

/// The lower Cholesky factor of each matrix, read from its lower triangle only (as LAPACK's
/// potrf, which JAX calls); zeros above the diagonal. A matrix that is not positive definite
/// (Eigen reports a non-positive pivot) becomes all NaN, as JAX's CPU lowering makes it. Eigen
/// runs in the unit built for this CPU's instruction set (cpu/kernel_choice.hpp).
template <class T>
void run_cholesky(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const std::int64_t n = s[s.rank() - 1], count = batch_count(s);
  const T* a = static_cast<const T*>(in[0].buf->data);
  T* l = static_cast<T*>(out[0].buf->data);
  const auto cholesky = backend::cpu::arch_kernels().linalg.of<T>().cholesky;
  // Hidden, set by the LLVM backend's fold_linalg_transpose: the operand is stored transposed.
  const ir::ParamValue* flag = e.params.find("operand_transposed");
  const bool transposed = flag && std::get<bool>(*flag);
  // Hidden, set by fold_cholesky_tril where it dropped JAX's tril mask after this cholesky: a
  // failure must then look as the mask made it, NaN below the diagonal and 0 above.
  const ir::ParamValue* zeroed = e.params.find("upper_zeroed");
  const bool upper_zeroed = zeroed && std::get<bool>(*zeroed);
  // Hidden, set by fold_cholesky_result_transpose where only triangular solves read the factor
  // (their flags flipped to match): the result is stored transposed, L^T.
  const ir::ParamValue* result_flag = e.params.find("result_transposed");
  const bool result_transposed = result_flag && std::get<bool>(*result_flag);
  constexpr T nan = std::numeric_limits<T>::quiet_NaN();
  for (std::int64_t k = 0; k < count; ++k) {
    T* m = l + k * n * n;
    if (cholesky(a + k * n * n, m, n, transposed, result_transposed)) continue;
    std::fill_n(m, n * n, nan);
    if (!upper_zeroed) continue;
    for (std::int64_t i = 0; i < n; ++i)  // L's zeros above the diagonal, or L^T's below it
      if (result_transposed)
        std::fill(m + i * n, m + i * n + i, T(0));
      else
        std::fill(m + i * n + i + 1, m + (i + 1) * n, T(0));
  }
}

/// Each matrix of b solved against the triangle of the matching matrix of a that `lower` names
/// (the other triangle is not read; with unit_diagonal, neither is the diagonal). conjugate_a
/// changes nothing for real dtypes.
template <class T>
void run_triangular_solve(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape &sa = in[0].aval.shape, &sb = in[1].aval.shape;
  const int r = sb.rank();
  const std::int64_t m = sa[r - 1], rows = sb[r - 2], cols = sb[r - 1], count = batch_count(sb);
  const backend::cpu::TriangularSolveMode mode{
      e.params.get<bool>("lower"), e.params.get<bool>("unit_diagonal"),
      e.params.get<bool>("left_side"), e.params.get<bool>("transpose_a")};
  const T* a = static_cast<const T*>(in[0].buf->data);
  T* x = static_cast<T*>(out[0].buf->data);
  if (count * rows * cols > 0)
    std::memcpy(x, in[1].buf->data, static_cast<std::size_t>(count * rows * cols) * sizeof(T));
  const auto solve = backend::cpu::arch_kernels().linalg.of<T>().triangular_solve;
  for (std::int64_t k = 0; k < count; ++k)
    solve(a + k * m * m, x + k * rows * cols, m, rows, cols, mode);
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

struct cholesky {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? &library::run_cholesky<double>
                                               : &library::run_cholesky<float>;
  }
};
struct triangular_solve {
  static constexpr bool is_library = true;
  static constexpr int arity = 2;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? &library::run_triangular_solve<double>
                                               : &library::run_triangular_solve<float>;
  }
};

}  // namespace fj::detail::reference::ops
