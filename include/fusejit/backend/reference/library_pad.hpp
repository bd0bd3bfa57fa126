// The host routines of pad and tile, shared by the reference and LLVM backends: plain copies of
// elements of the dtype's size. A pad is not an index map that a kernel could compose into its
// loads (positions outside the operand read the padding value, and negative lo/hi crop), nor is
// a tile (its index wraps), so both are library primitives.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/pad_config.hpp"

namespace fj::detail::reference::library {

/// Fills the output with the padding value, then writes operand element i of each axis to
/// lo + i * (interior + 1) where that lies inside the output (negative lo/hi crop).
inline void run_pad(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const ir::PadConfig c = ir::PadConfig::from(e.params);
  const Shape &xs = in[0].aval.shape, &os = out[0].aval.shape;
  const std::size_t bytes = size_of(out[0].aval.dtype);
  char* y = static_cast<char*>(out[0].buf->data);
  const char* x = static_cast<const char*>(in[0].buf->data);
  const char* v = static_cast<const char*>(in[1].buf->data);
  for (std::int64_t k = 0; k < os.size(); ++k) std::memcpy(y + k * bytes, v, bytes);
  if (xs.size() == 0) return;
  const int r = xs.rank();
  // Per axis, the output index of each operand index (-1: cropped).
  std::vector<std::vector<std::int64_t>> at(static_cast<std::size_t>(r));
  const auto ost = row_major_strides(os);
  for (int a = 0; a < r; ++a) {
    const auto u = static_cast<std::size_t>(a);
    for (std::int64_t i = 0; i < xs[a]; ++i) {
      const std::int64_t p = c.lo[u] + i * (c.interior[u] + 1);
      at[u].push_back(p >= 0 && p < os[a] ? p * ost[u] : -1);
    }
  }
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  for (std::int64_t k = 0; k < xs.size(); ++k) {
    std::int64_t off = 0;
    bool inside = true;
    for (int a = 0; a < r && inside; ++a) {
      const std::int64_t p = at[static_cast<std::size_t>(a)][static_cast<std::size_t>(idx[a])];
      inside = p >= 0;
      off += p;
    }
    if (inside) std::memcpy(y + off * static_cast<std::int64_t>(bytes), x + k * bytes, bytes);
    for (int a = r - 1; a >= 0; --a) {
      if (++idx[static_cast<std::size_t>(a)] < xs[a]) break;
      idx[static_cast<std::size_t>(a)] = 0;
    }
  }
}

/// Each output row (the last axis) is the operand's row repeated reps[-1] times; the outer
/// output indices wrap modulo the operand's extents.
inline void run_tile(const ir::Eqn&, const backend::Value* in, backend::Value* out) {
  const Shape &xs = in[0].aval.shape, &os = out[0].aval.shape;
  const std::size_t bytes = size_of(out[0].aval.dtype);
  char* y = static_cast<char*>(out[0].buf->data);
  const char* x = static_cast<const char*>(in[0].buf->data);
  if (os.size() == 0) return;
  const int r = xs.rank();
  if (r == 0) {
    std::memcpy(y, x, bytes);
    return;
  }
  const auto xst = row_major_strides(xs);
  const std::int64_t row = xs[r - 1], reps = os[r - 1] / row;
  const std::size_t row_bytes = static_cast<std::size_t>(row) * bytes;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);  // outer output indices
  for (std::int64_t k = 0; k < os.size() / os[r - 1]; ++k) {
    std::int64_t src = 0;
    for (int a = 0; a + 1 < r; ++a)
      src += (idx[static_cast<std::size_t>(a)] % xs[a]) * xst[static_cast<std::size_t>(a)];
    for (std::int64_t t = 0; t < reps; ++t)
      std::memcpy(y + (k * reps + t) * static_cast<std::int64_t>(row_bytes),
                  x + src * static_cast<std::int64_t>(bytes), row_bytes);
    for (int a = r - 2; a >= 0; --a) {
      if (++idx[static_cast<std::size_t>(a)] < os[a]) break;
      idx[static_cast<std::size_t>(a)] = 0;
    }
  }
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

struct pad {
  static constexpr bool is_library = true;
  static constexpr int arity = 2;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_pad; }
};
struct tile {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_tile; }
};

}  // namespace fj::detail::reference::ops
