// dot_general as one strided-batched GEMM in cuBLAS's column-major terms: which dimension
// numbers qualify, and the call's arguments (pure arithmetic, tested without a GPU).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::backend::cuda {

/// The arguments of cublas<t>gemmStridedBatched(op_first, op_second, m, n, k, alpha, first,
/// ld_first, stride_first, second, ld_second, stride_second, beta, C, ldc, stride_c, batch):
/// C = op(first) * op(second), column-major, per batch. ops: 0 is N, 1 is T.
struct GemmCall {
  int op_first = 0, op_second = 0;
  int m = 1, n = 1, k = 1;
  int ld_first = 1, ld_second = 1, ldc = 1;
  long long stride_first = 0, stride_second = 0, stride_c = 0;
  int batch = 1;
};

/// dot_general of row-major operands as one GEMM: batch dims leading on both operands, one
/// contracting dim, at most one free dim each, f32 or f64 throughout. Either operand may be
/// stored transposed (x.T @ y reaches here with the transpose folded into its dimensions).
struct GemmPlan {
  DType dtype = DType::f32;
  long long batch = 1, m = 1, n = 1, k = 1;
  bool lhs_k_first = false;  // lhs stored (K, M) rather than (M, K)
  bool rhs_k_last = false;   // rhs stored (N, K) rather than (K, N)

  /// The plan, or nothing with `why` saying which condition failed.
  static std::optional<GemmPlan> from(const ir::Eqn& e, const ir::Aval& lhs, const ir::Aval& rhs,
                                      const ir::Aval& out, std::string& why) {
    const ir::DotDims d = ir::DotDims::from(e.params);
    GemmPlan g;
    g.dtype = out.dtype;
    if (!is_float(out.dtype) || lhs.dtype != out.dtype || rhs.dtype != out.dtype)
      return why = "cuBLAS path: f32 or f64 operands and result of one dtype", std::nullopt;
    const auto nb = static_cast<std::int64_t>(d.lhs_batch.size());
    for (std::int64_t i = 0; i < nb; ++i)
      if (d.lhs_batch[static_cast<std::size_t>(i)] != i ||
          d.rhs_batch[static_cast<std::size_t>(i)] != i)
        return why = "cuBLAS path: batch dims must lead both operands", std::nullopt;
    if (d.lhs_contract.size() != 1)
      return why = "cuBLAS path: exactly one contracting dim", std::nullopt;
    const int lr = lhs.shape.rank(), rr = rhs.shape.rank();
    if (lr - nb > 2 || rr - nb > 2 || lr - nb < 1 || rr - nb < 1)
      return why = "cuBLAS path: at most one free dim per operand", std::nullopt;
    for (std::int64_t i = 0; i < nb; ++i) g.batch *= lhs.shape[static_cast<int>(i)];
    const auto lc = static_cast<int>(d.lhs_contract[0]), rc = static_cast<int>(d.rhs_contract[0]);
    g.k = lhs.shape[lc];
    g.lhs_k_first = lr - nb == 2 && lc == nb;
    if (lr - nb == 2) g.m = lhs.shape[g.lhs_k_first ? lr - 1 : static_cast<int>(nb)];
    g.rhs_k_last = rr - nb == 2 && rc == rr - 1;
    if (rr - nb == 2) g.n = rhs.shape[g.rhs_k_last ? static_cast<int>(nb) : rr - 1];
    constexpr long long int_max = 0x7fffffff;
    if (g.m > int_max || g.n > int_max || g.k > int_max || g.batch > int_max)
      return why = "cuBLAS path: a dim beyond 2^31 - 1", std::nullopt;
    return g;
  }

  /// Row-major C (M x N) is column-major C^T (N x M) = B' A' with B' = B^T and A' = A^T, which
  /// are the column-major views of row-major (K, N) and (M, K) storage as they lie: `first` is
  /// the rhs, `second` the lhs, each transposed when stored the other way.
  GemmCall call() const {
    GemmCall c;
    c.op_first = rhs_k_last ? 1 : 0;
    c.op_second = lhs_k_first ? 1 : 0;
    c.m = static_cast<int>(n), c.n = static_cast<int>(m), c.k = static_cast<int>(k);
    c.ld_first = static_cast<int>(rhs_k_last ? k : n);
    c.ld_second = static_cast<int>(lhs_k_first ? m : k);
    c.ldc = static_cast<int>(n);
    c.stride_first = k * n, c.stride_second = m * k, c.stride_c = m * n;
    c.batch = static_cast<int>(batch);
    return c;
  }
};

}  // namespace fj::backend::cuda
