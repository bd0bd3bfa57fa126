// Copies between an array stacked along one axis and its parts, viewed as (outer, n, inner
// bytes) blocks: pmap's shares and stacked results, all_gather, reduce_scatter and all_to_all use
// them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fusejit/core/dtype.hpp"
#include "fusejit/core/shape.hpp"

namespace fj::distributed::detail {

/// A part of shape `part` stacked at `axis`: `outer` blocks of `inner` bytes each.
struct Blocks {
  std::int64_t outer = 1;
  std::size_t inner = 1;
  static Blocks around(const Shape& part, int axis, DType d) {
    Blocks b;
    for (int i = 0; i < axis; ++i) b.outer *= part[i];
    b.inner = size_of(d);
    for (int i = axis; i < part.rank(); ++i) b.inner *= static_cast<std::size_t>(part[i]);
    return b;
  }
};

/// dst[o][d] = parts[d][o]: the parts stacked (n = parts.size()).
inline void interleave(const std::vector<const std::byte*>& parts, Blocks b, std::byte* dst) {
  const auto n = static_cast<std::int64_t>(parts.size());
  for (std::int64_t o = 0; o < b.outer; ++o)
    for (std::int64_t d = 0; d < n; ++d)
      std::memcpy(dst + static_cast<std::size_t>(o * n + d) * b.inner,
                  parts[static_cast<std::size_t>(d)] + static_cast<std::size_t>(o) * b.inner,
                  b.inner);
}

/// dst[o] = src[o][index] of a stack of n parts: one part taken out.
inline void take_part(const std::byte* src, Blocks b, std::int64_t n, std::int64_t index,
                      std::byte* dst) {
  for (std::int64_t o = 0; o < b.outer; ++o)
    std::memcpy(dst + static_cast<std::size_t>(o) * b.inner,
                src + static_cast<std::size_t>(o * n + index) * b.inner, b.inner);
}

/// dst[o][index] = src[o] in a stack of n parts: take_part's inverse.
inline void put_part(const std::byte* src, Blocks b, std::int64_t n, std::int64_t index,
                     std::byte* dst) {
  for (std::int64_t o = 0; o < b.outer; ++o)
    std::memcpy(dst + static_cast<std::size_t>(o * n + index) * b.inner,
                src + static_cast<std::size_t>(o) * b.inner, b.inner);
}

}  // namespace fj::distributed::detail
