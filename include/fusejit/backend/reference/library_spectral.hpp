// The host routines of the spectral decompositions (eigh, qr, svd), shared by the reference and
// LLVM backends: Eigen's solvers on each matrix of the batch.
#pragma once
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <algorithm>
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

/// The singular values of each (m, n) matrix, descending, and with compute_uv u and v^T (k =
/// min(m, n) columns / rows, or all of them with full_matrices), by Eigen's two-sided Jacobi
/// SVD (the singular vectors' signs are Eigen's; LAPACK's gesdd, which JAX calls, may pick
/// others for each pair). A matrix with a NaN or an infinity gives NaNs, as JAX's.
template <class T>
void run_svd(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const int rank = s.rank();
  const std::int64_t m = s[rank - 2], n = s[rank - 1], count = batch_count(s);
  const std::int64_t k = std::min(m, n);
  const bool uv = e.params.get<bool>("compute_uv");
  const bool full = e.params.get<bool>("full_matrices");
  const std::int64_t uc = full ? m : k, vr = full ? n : k;
  const T* a = static_cast<const T*>(in[0].buf->data);
  T* sv = static_cast<T*>(out[0].buf->data);
  const unsigned options = !uv    ? 0u
                           : full ? Eigen::ComputeFullU | Eigen::ComputeFullV
                                  : Eigen::ComputeThinU | Eigen::ComputeThinV;
  Eigen::JacobiSVD<ColMatrix<T>> svd(m, n, options);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (std::int64_t b = 0; b < count; ++b) {
    Eigen::Map<const RowMatrix<T>> A(a + b * m * n, m, n);
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>> S(sv + b * k, k);
    const bool finite = A.allFinite();
    if (finite) {
      svd.compute(A, options);
      S = svd.singularValues();
    } else {
      S.setConstant(nan);
    }
    if (!uv) continue;
    Eigen::Map<RowMatrix<T>> U(static_cast<T*>(out[1].buf->data) + b * m * uc, m, uc);
    Eigen::Map<RowMatrix<T>> Vt(static_cast<T*>(out[2].buf->data) + b * vr * n, vr, n);
    if (finite) {
      U = svd.matrixU();
      Vt = svd.matrixV().transpose();
    } else {
      U.setConstant(nan);
      Vt.setConstant(nan);
    }
  }
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

/// A one-operand decomposition's op: its host routine for the operand's dtype, f64 or f32.
template <EqnFn F64, EqnFn F32>
struct Decomposition {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? F64 : F32;
  }
};
struct eigh : Decomposition<&library::run_eigh<double>, &library::run_eigh<float>> {};
struct qr : Decomposition<&library::run_qr<double>, &library::run_qr<float>> {};
struct svd : Decomposition<&library::run_svd<double>, &library::run_svd<float>> {};

}  // namespace fj::detail::reference::ops
