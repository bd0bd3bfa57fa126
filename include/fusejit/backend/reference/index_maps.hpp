// transpose, slice, rev, squeeze and reshape for the reference backend: strided copies
// (reshape and squeeze: a copy, the row-major data does not move).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/ir/builder.hpp"

namespace fj::detail::reference {

namespace ops {
struct IndexMap {
  static constexpr int arity = 1;
  static constexpr bool is_index_map = true;
};
struct transpose : IndexMap {};
struct slice : IndexMap {};
struct reshape : IndexMap {};
struct rev : IndexMap {};
struct squeeze : IndexMap {};
}  // namespace ops

/// out[i] = in[base + sum_k idx_k * stride_k], where the input strides per output dim come
/// from the primitive's params.
template <class T>
void run_index_map(const ir::Eqn& eqn, const backend::Value* in, backend::Value* out) {
  const Shape& from = in[0].aval.shape;
  const Shape& to = out[0].aval.shape;
  const T* x = static_cast<const T*>(in[0].buf->data);
  T* o = static_cast<T*>(out[0].buf->data);
  if (eqn.prim == ir::Prim::reshape || eqn.prim == ir::Prim::squeeze) {
    if (to.size()) std::memcpy(o, x, static_cast<std::size_t>(to.size()) * sizeof(T));
    return;
  }
  const auto st = row_major_strides(from);
  std::vector<std::int64_t> stride(static_cast<std::size_t>(to.rank()));
  std::int64_t base = 0;
  if (eqn.prim == ir::Prim::transpose) {
    const auto& perm = eqn.params.get<std::vector<std::int64_t>>("permutation");
    for (int j = 0; j < to.rank(); ++j)
      stride[static_cast<std::size_t>(j)] =
          st[static_cast<std::size_t>(perm[static_cast<std::size_t>(j)])];
  } else if (eqn.prim == ir::Prim::rev) {
    // A reversed dim starts at its last element and walks backwards.
    for (int d = 0; d < to.rank(); ++d)
      stride[static_cast<std::size_t>(d)] = st[static_cast<std::size_t>(d)];
    for (auto d : eqn.params.get<std::vector<std::int64_t>>("dimensions")) {
      const auto ud = static_cast<std::size_t>(d);
      stride[ud] = -st[ud];
      base += (from[static_cast<int>(d)] - 1) * st[ud];
    }
  } else {
    const auto& start = eqn.params.get<std::vector<std::int64_t>>("start_indices");
    const auto steps = ir::slice_strides(eqn.params, from.rank());
    for (int d = 0; d < to.rank(); ++d) {
      const auto ud = static_cast<std::size_t>(d);
      stride[ud] = st[ud] * steps[ud];
      base += start[ud] * st[ud];
    }
  }
  const std::int64_t n = to.size();
  std::vector<std::int64_t> idx(static_cast<std::size_t>(to.rank()), 0);
  std::int64_t off = base;
  for (std::int64_t i = 0; i < n; ++i) {
    o[i] = x[off];
    for (int d = to.rank() - 1; d >= 0; --d) {
      const auto ud = static_cast<std::size_t>(d);
      if (++idx[ud] < to[d]) {
        off += stride[ud];
        break;
      }
      off -= stride[ud] * (to[d] - 1);
      idx[ud] = 0;
    }
  }
}

}  // namespace fj::detail::reference
