// The host routines of the spectral decompositions (eigh, qr), shared by the reference and
// LLVM backends: Eigen's solvers on each matrix of the batch.
#pragma once
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <cstdint>
#include <limits>

#include "fusejit/backend/reference/library_linalg.hpp"

namespace fj::detail::reference::library {

template <class T>
using ColMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

/// The eigenvectors (columns of v) and ascending eigenvalues w of each symmetric matrix, read
/// from its lower triangle (`lower`) or its upper one, as LAPACK's syevd, which JAX calls. A
/// matrix the solver does not converge on (NaNs or infinities in it) gives NaNs. The
/// eigenvectors' signs are Eigen's (LAPACK's may differ; each column is defined up to sign).
template <class T>
void run_eigh(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const std::int64_t n = s[s.rank() - 1], count = batch_count(s);
  const bool lower = e.params.get<bool>("lower");
  const T* a = static_cast<const T*>(in[0].buf->data);
  T* v = static_cast<T*>(out[0].buf->data);
  T* w = static_cast<T*>(out[1].buf->data);
  Eigen::SelfAdjointEigenSolver<ColMatrix<T>> solver(static_cast<Eigen::Index>(n));
  ColMatrix<T> sym(n, n);
  for (std::int64_t k = 0; k < count; ++k) {
    Eigen::Map<const RowMatrix<T>> A(a + k * n * n, n, n);
    Eigen::Map<RowMatrix<T>> V(v + k * n * n, n, n);
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> W(w + k * n, n);
    // Eigen reads the lower triangle of its argument: the upper one moves there transposed.
    if (lower)
      sym = A;
    else
      sym = A.transpose();
    solver.compute(sym, Eigen::ComputeEigenvectors);
    if (solver.info() == Eigen::Success) {
      V = solver.eigenvectors();
      W = solver.eigenvalues();
    } else {
      V.setConstant(std::numeric_limits<T>::quiet_NaN());
      W.setConstant(std::numeric_limits<T>::quiet_NaN());
    }
  }
}

/// q and r of each (m, n) matrix by Householder reflections, as LAPACK's geqrf and orgqr (which
/// JAX calls): both make each reflection's diagonal entry -sign(a_kk) * norm and skip a column
/// already zero below the diagonal, so r's signs are LAPACK's. q has r's row count of columns
/// (k = min(m, n), or m with full_matrices); r is zero below its diagonal.
template <class T>
void run_qr(const ir::Eqn&, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const int rank = s.rank();
  const std::int64_t m = s[rank - 2], n = s[rank - 1], count = batch_count(s);
  const std::int64_t k = out[1].aval.shape[rank - 2];
  const T* a = static_cast<const T*>(in[0].buf->data);
  T* q = static_cast<T*>(out[0].buf->data);
  T* r = static_cast<T*>(out[1].buf->data);
  Eigen::HouseholderQR<ColMatrix<T>> qr(m, n);
  ColMatrix<T> eye = ColMatrix<T>::Identity(m, k);
  for (std::int64_t b = 0; b < count; ++b) {
    qr.compute(Eigen::Map<const RowMatrix<T>>(a + b * m * n, m, n));
    Eigen::Map<RowMatrix<T>> Q(q + b * m * k, m, k), R(r + b * k * n, k, n);
    Q = qr.householderQ() * eye;
    R = qr.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
  }
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

struct eigh {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? &library::run_eigh<double>
                                               : &library::run_eigh<float>;
  }
};
struct qr {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? &library::run_qr<double> : &library::run_qr<float>;
  }
};

}  // namespace fj::detail::reference::ops
