// Elementwise loop drivers: operand access (contiguous / broadcast scalar / strided) and SIMD maps.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>

#include <xsimd/xsimd.hpp>

#include "fusejit/core/shape.hpp"

namespace fj::detail::reference {

using Strides = std::array<std::int64_t, kMaxRank>;

enum class Access : std::uint8_t { contiguous, scalar, strided };

/// How one operand is read while walking the output in row-major order.
template <class T>
struct Operand {
  const T* data = nullptr;
  Access access = Access::contiguous;
  Strides strides{};  // elements per step of each output dimension; 0 where broadcast
};

/// Classifies an operand given its element strides over the output's dimensions.
template <class T>
Operand<T> make_operand(const T* data, std::int64_t operand_size, const Shape& out,
                        const Strides& strides) {
  Operand<T> op{data, Access::strided, strides};
  if (operand_size == 1) {
    op.access = Access::scalar;
    return op;
  }
  const Strides dense = row_major_strides(out);
  bool contiguous = operand_size == out.size();
  for (int d = 0; d < out.rank() && contiguous; ++d)
    if (out[d] != 1 && strides[static_cast<std::size_t>(d)] != dense[static_cast<std::size_t>(d)])
      contiguous = false;
  if (contiguous) op.access = Access::contiguous;
  return op;
}

/// An elementwise operand: rank 0, or the output's rank with extents equal or 1 (lax's rule).
template <class T>
Operand<T> broadcast_operand(const T* data, const Shape& shape, const Shape& out,
                             std::string_view prim) {
  if (shape.size() == 1 || shape == out)
    return make_operand(data, shape.size(), out, row_major_strides(out));
  if (shape.rank() != out.rank())
    throw ShapeError(std::string(prim) + ": operand shape " + shape.str() +
                     " does not broadcast to " + out.str());
  Strides st = row_major_strides(shape);
  for (int d = 0; d < out.rank(); ++d) {
    auto& s = st[static_cast<std::size_t>(d)];
    if (shape[d] == 1)
      s = 0;
    else if (shape[d] != out[d])
      throw ShapeError(std::string(prim) + ": operand shape " + shape.str() +
                       " does not broadcast to " + out.str());
  }
  return make_operand(data, shape.size(), out, st);
}

/// Copies output elements [start, start+n) of a strided operand into dst. Walks the innermost
/// dimension in runs so the index arithmetic is paid once per row, not per element.
template <class T>
void gather(const Operand<T>& op, const Shape& out, std::int64_t start, std::int64_t n, T* dst) {
  const int r = out.rank();
  Strides idx{};
  std::int64_t off = 0;
  for (int d = r - 1; d >= 0; --d) {
    const auto u = static_cast<std::size_t>(d);
    idx[u] = start % out[d];
    start /= out[d];
    off += idx[u] * op.strides[u];
  }
  const auto inner = static_cast<std::size_t>(r - 1);
  const std::int64_t step = op.strides[inner], extent = out[r - 1];
  while (n > 0) {
    const std::int64_t run = std::min(n, extent - idx[inner]);
    for (std::int64_t k = 0; k < run; ++k) *dst++ = op.data[off + k * step];
    n -= run;
    off += run * step;
    idx[inner] += run;
    for (std::size_t d = inner; d > 0 && idx[d] == out[static_cast<int>(d)]; --d) {
      off -= idx[d] * op.strides[d];
      idx[d] = 0;
      ++idx[d - 1];
      off += op.strides[d - 1];
    }
  }
}

inline constexpr std::int64_t kChunk = 256;

/// Hands a kernel contiguous pointers for one chunk: in place, a pre-filled broadcast copy
/// of a scalar, or a gathered copy of a strided operand. Kernels then only ever see dense
/// arrays, so each one has a single (vectorized) loop for every broadcasting case.
template <class T>
struct Stream {
  Operand<T> op;
  std::array<T, kChunk> buf;
  explicit Stream(const Operand<T>& o) : op(o) {
    if (op.access == Access::scalar) buf.fill(op.data[0]);
  }
  const T* at(const Shape& out, std::int64_t start, std::int64_t n) {
    switch (op.access) {
      case Access::contiguous:
        return op.data + start;
      case Access::scalar:
        return buf.data();
      case Access::strided:
        break;
    }
    gather(op, out, start, n, buf.data());
    return buf.data();
  }
};

/// Runs kernel(n, out, in...) over the whole output, chunked when any operand is not dense.
template <class Out, class Kernel, class... Ins>
void for_each_chunk(const Shape& out_shape, Out* out, const Kernel& kernel,
                    const Operand<Ins>&... ins) {
  const std::int64_t n = out_shape.size();
  if (n == 0) return;
  if (((ins.access == Access::contiguous) && ...)) {
    kernel(n, out, ins.data...);
    return;
  }
  std::tuple<Stream<Ins>...> streams{Stream<Ins>(ins)...};
  for (std::int64_t s = 0; s < n; s += kChunk) {
    const std::int64_t m = std::min(kChunk, n - s);
    std::apply([&](auto&... st) { kernel(m, out + s, st.at(out_shape, s, m)...); }, streams);
  }
}

/// out[i] = op.simd(in[i]...) over dense arrays. The tail runs through the same batch code on
/// a padded copy, so an element's result never depends on its position in the array.
template <class T, class Op, class... In>
void simd_map(const Op& op, std::int64_t n, T* out, const In*... in) {
  using B = xsimd::batch<T>;
  constexpr auto w = static_cast<std::int64_t>(B::size);
  std::int64_t i = 0;
  for (; i + w <= n; i += w) op.simd(B::load_unaligned(in + i)...).store_unaligned(out + i);
  if (i == n) return;
  const auto rest = static_cast<std::size_t>(n - i);
  auto padded = [&](const T* p) {
    alignas(64) std::array<T, static_cast<std::size_t>(w)> a;
    a.fill(T(1));  // a benign operand for every op (no log(0), no division by zero)
    std::copy_n(p + i, rest, a.begin());
    return B::load_aligned(a.data());
  };
  alignas(64) std::array<T, static_cast<std::size_t>(w)> r;
  op.simd(padded(in)...).store_aligned(r.data());
  std::copy_n(r.begin(), rest, out + i);
}

}  // namespace fj::detail::reference
