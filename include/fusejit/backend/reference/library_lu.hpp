// The host routine of lu (LU factorization with partial pivoting), shared by the reference and
// LLVM backends: Eigen's blocked partial-pivoting LU on each matrix of the batch.
#pragma once
#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "fusejit/backend/reference/library_linalg.hpp"

namespace fj::detail::reference::library {

/// P a = L U for each (m, n) matrix, as LAPACK's getrf (JAX's CPU lowering) computes it: in each
/// column the first entry of largest magnitude is the pivot; a column with no nonzero entry is
/// left unswapped and unscaled (a singular matrix gives zeros on U's diagonal, not an error).
/// Eigen's PartialPivLU kernel (at the host's vector width, cpu/linalg_eigen.hpp) factors the
/// left (m, min(m, n)) panel (it only blocks panels at least as tall as wide); a wide matrix's
/// right columns are then row-swapped alike and solved against the panel's unit lower
/// triangle, getrf's U12 = L11^-1 P A12. Pivots are 0-based;
/// the permutation applies them in order to 0, 1, ..., m - 1 (lax.linalg.lu_pivots_to_permutation).
template <class T>
void run_lu(const ir::Eqn&, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const int r = s.rank();
  const std::int64_t m = s[r - 2], n = s[r - 1], k = std::min(m, n), count = batch_count(s);
  T* lu = static_cast<T*>(out[0].buf->data);
  auto* pivots = static_cast<std::int32_t*>(out[1].buf->data);
  auto* perm = static_cast<std::int32_t*>(out[2].buf->data);
  if (count * m * n > 0)
    std::memcpy(lu, in[0].buf->data, static_cast<std::size_t>(count * m * n) * sizeof(T));
  const auto lu_panel = backend::cpu::arch_kernels().linalg.of<T>().lu_panel;
  std::vector<int> swaps(static_cast<std::size_t>(k));
  for (std::int64_t b = 0; b < count; ++b) {
    std::int32_t* p = perm + b * m;
    std::iota(p, p + m, 0);
    if (k == 0) continue;
    Eigen::Map<RowMatrix<T>> A(lu + b * m * n, m, n);
    lu_panel(A.data(), m, k, n, swaps.data());
    if (n > k) {
      auto right = A.rightCols(n - k);
      for (std::int64_t i = 0; i < k; ++i) right.row(i).swap(right.row(swaps[i]));
      A.leftCols(k).topRows(k).template triangularView<Eigen::UnitLower>().solveInPlace(right);
    }
    for (std::int64_t i = 0; i < k; ++i) {
      pivots[b * k + i] = swaps[static_cast<std::size_t>(i)];
      std::swap(p[i], p[swaps[static_cast<std::size_t>(i)]]);
    }
  }
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

struct lu {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return g.aval(e.in[0]).dtype == DType::f64 ? &library::run_lu<double> : &library::run_lu<float>;
  }
};

}  // namespace fj::detail::reference::ops
