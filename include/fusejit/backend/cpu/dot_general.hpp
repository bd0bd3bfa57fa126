// dot_general on the CPU: operands brought into a batched row-major layout (transposes of two
// dims are passed to the GEMM as flags, other layouts are copied), then Eigen's GEMM per row
// panel on the thread pool, with an optional epilogue run on each panel while it is in cache.
#pragma once
#include <Eigen/Core>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/cpu/gemm_call.hpp"
#include "fusejit/backend/cpu/kernel_choice.hpp"
#include "fusejit/backend/cpu/gemm_eigen.hpp"
#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/runtime/thread_pool.hpp"

namespace fj::backend::cpu {

namespace detail_gemm {
// Integers wrap: the same bits as unsigned arithmetic, which Eigen may do without UB.
template <class T>
GemmRowsFn unsigned_rows() {
  return &gemm_rows<std::make_unsigned_t<T>>;
}
}  // namespace detail_gemm

/// The f32/f64 GEMM kernels and the instruction set they were compiled for ("avx512", "avx2",
/// "generic"); FUSEJIT_GEMM_ISA picks a lower one.
inline const GemmKernels& gemm_kernels() { return arch_kernels().gemm; }

/// How one dot_general equation runs: operand layouts, sizes, and the kernel.
class DotPlan {
 public:
  DotPlan(const ir::Eqn& e, const ir::Aval& lhs, const ir::Aval& rhs, const ir::Aval& out)
      : out_dtype_(out.dtype), lhs_dtype_(lhs.dtype), rhs_dtype_(rhs.dtype) {
    const ir::DotDims dd = ir::DotDims::from(e.params);
    const auto lf = ir::DotDims::free_dims(lhs.shape.rank(), dd.lhs_batch, dd.lhs_contract);
    const auto rf = ir::DotDims::free_dims(rhs.shape.rank(), dd.rhs_batch, dd.rhs_contract);
    auto prod = [](const Shape& s, const std::vector<std::int64_t>& dims) {
      std::int64_t p = 1;
      for (auto d : dims) p *= s[static_cast<int>(d)];
      return p;
    };
    batch_ = prod(lhs.shape, dd.lhs_batch);
    m_ = prod(lhs.shape, lf);
    n_ = prod(rhs.shape, rf);
    k_ = prod(lhs.shape, dd.lhs_contract);
    lhs_shape_ = lhs.shape;
    rhs_shape_ = rhs.shape;
    // lhs as (batch, m, k), or (batch, k, m) transposed; rhs as (batch, k, n) or (batch, n, k).
    lhs_perm_ = cat(dd.lhs_batch, lf, dd.lhs_contract);
    rhs_perm_ = cat(dd.rhs_batch, dd.rhs_contract, rf);
    if (!is_identity(lhs_perm_) && is_identity(cat(dd.lhs_batch, dd.lhs_contract, lf)))
      trans_a_ = true, lhs_perm_.clear();
    if (!is_identity(rhs_perm_) && is_identity(cat(dd.rhs_batch, rf, dd.rhs_contract)))
      trans_b_ = true, rhs_perm_.clear();
    if (is_identity(lhs_perm_)) lhs_perm_.clear();
    if (is_identity(rhs_perm_)) rhs_perm_.clear();
    switch (out_dtype_) {
      case DType::f32:
        rows_ = gemm_kernels().f32;
        break;
      case DType::f64:
        rows_ = gemm_kernels().f64;
        break;
      case DType::i32:
      case DType::u32:
        rows_ = detail_gemm::unsigned_rows<std::int32_t>();
        break;
      case DType::i64:
        rows_ = detail_gemm::unsigned_rows<std::int64_t>();
        break;
      case DType::bool_:
        throw DTypeError("dot_general: does not take bool operands");
    }
  }

  std::int64_t rows() const { return batch_ * m_; }
  std::int64_t cols() const { return n_; }

  /// out = lhs . rhs; after each panel of output rows [r0, r1) is written, epilogue(r0, r1)
  /// runs on the same thread (rows count over batch and m together).
  void run(const Value& lhs, const Value& rhs, Value& out,
           const std::function<void(std::int64_t, std::int64_t)>& epilogue) const {
    std::vector<char> lhs_tmp, rhs_tmp;
    const void* a = prepare(lhs, lhs_dtype_, lhs_shape_, lhs_perm_, lhs_tmp);
    const void* b = prepare(rhs, rhs_dtype_, rhs_shape_, rhs_perm_, rhs_tmp);
    const std::size_t es = size_of(out_dtype_);
    const std::int64_t total = rows();
    auto panel = [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t r = lo; r < hi;) {
        const std::int64_t bi = r / m_, r0 = r % m_;
        const std::int64_t r1 = std::min(m_, r0 + (hi - r));
        GemmCall g{static_cast<const char*>(a) + bi * m_ * k_ * static_cast<std::int64_t>(es),
                   static_cast<const char*>(b) + bi * k_ * n_ * static_cast<std::int64_t>(es),
                   static_cast<char*>(out.buf->data) + bi * m_ * n_ * static_cast<std::int64_t>(es),
                   m_,
                   n_,
                   k_,
                   trans_a_,
                   trans_b_};
        rows_(g, r0, r1);
        r += r1 - r0;
      }
      if (epilogue) epilogue(lo, hi);
    };
    // Panels of at least ~4 MFLOP each, so that a thread's share pays for packing B again.
    const double flops_per_row = 2.0 * static_cast<double>(n_) * static_cast<double>(k_);
    const auto min_rows =
        static_cast<std::int64_t>(std::max(1.0, (1 << 22) / std::max(flops_per_row, 1.0)));
    runtime::parallel_for(total, min_rows, 1, panel);
  }

 private:
  static std::vector<std::int64_t> cat(std::vector<std::int64_t> a,
                                       const std::vector<std::int64_t>& b,
                                       const std::vector<std::int64_t>& c) {
    a.insert(a.end(), b.begin(), b.end());
    a.insert(a.end(), c.begin(), c.end());
    return a;
  }
  static bool is_identity(const std::vector<std::int64_t>& p) {
    for (std::size_t i = 0; i < p.size(); ++i)
      if (p[i] != static_cast<std::int64_t>(i)) return false;
    return true;
  }

  // The operand in the output dtype and the GEMM's layout: as it is, or a converted and/or
  // permuted copy in `tmp`.
  const void* prepare(const Value& v, DType from, const Shape& shape,
                      const std::vector<std::int64_t>& perm, std::vector<char>& tmp) const {
    if (from == out_dtype_ && perm.empty()) return v.buf->data;
    const std::int64_t n = shape.size();
    const std::size_t es = size_of(out_dtype_);
    tmp.resize(static_cast<std::size_t>(n) * es + 64);
    char* dst = tmp.data();
    const auto st = row_major_strides(shape);
    std::vector<std::int64_t> ext, step;
    if (perm.empty()) {
      ext = {n};
      step = {1};
    } else {
      for (auto d : perm) {
        ext.push_back(shape[static_cast<int>(d)]);
        step.push_back(st[static_cast<std::size_t>(d)]);
      }
    }
    visit_dtype(from, [&](auto f) {
      visit_dtype(out_dtype_, [&](auto t) {
        using F = decltype(f);
        using T = decltype(t);
        const F* src = static_cast<const F*>(v.buf->data);
        T* o = reinterpret_cast<T*>(dst);
        std::vector<std::int64_t> idx(ext.size(), 0);
        std::int64_t off = 0;
        for (std::int64_t i = 0; i < n; ++i) {
          o[i] = static_cast<T>(src[off]);
          for (int d = static_cast<int>(ext.size()) - 1; d >= 0; --d) {
            const auto u = static_cast<std::size_t>(d);
            if (++idx[u] < ext[u]) {
              off += step[u];
              break;
            }
            off -= step[u] * (ext[u] - 1);
            idx[u] = 0;
          }
        }
      });
    });
    return dst;
  }

  DType out_dtype_, lhs_dtype_, rhs_dtype_;
  Shape lhs_shape_, rhs_shape_;
  std::vector<std::int64_t> lhs_perm_, rhs_perm_;
  std::int64_t batch_ = 1, m_ = 1, n_ = 1, k_ = 1;
  bool trans_a_ = false, trans_b_ = false;
  GemmRowsFn rows_ = nullptr;
};

}  // namespace fj::backend::cpu
