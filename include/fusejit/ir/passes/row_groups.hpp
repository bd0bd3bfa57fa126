// Row groups for the fusion pass: when the equations of one kernel hold reductions over the
// trailing axes of one shape and what those reductions feed back into that shape (softmax's
// `x - max(x)`, `e / sum(e)`, layernorm's mean and variance), the kernel can run row by row with
// the row in cache, as XLA's reduction epilogue and multi-output fusions do. This header decides
// whether a set of equations qualifies; fuse.hpp decides which kernels to merge.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/primitive.hpp"

namespace fj::ir {

/// Whether the LLVM backend fuses row groups: FUSEJIT_ROW_FUSION=0 turns it off (for
/// comparisons; the tests compare fused results with unfused ones), read once; tests set it.
inline std::atomic<bool>& row_fusion_enabled() {
  static std::atomic<bool> on{[] {
    const char* v = std::getenv("FUSEJIT_ROW_FUSION");
    return !(v && std::strcmp(v, "0") == 0);
  }()};
  return on;
}

/// Rows longer than this are not fused: a row's reduction then spans several of the LLVM
/// backend's reduction blocks (kReduceBlock in backend/llvm/executable.hpp), whose partials the
/// unfused kernel combines as a tree; one block per row keeps a fused result bit for bit equal
/// to the unfused one, and 4096 elements of f64 (32 KiB) still fit a core's L1 or L2 cache.
inline constexpr std::int64_t kMaxFusedRow = std::int64_t{1} << 12;

/// The iteration space of a row group: `shape`, whose last `row_rank` dims form a row.
struct RowSpace {
  Shape shape;
  int row_rank = 0;  // number of trailing (reduced) dims
  int outer_rank() const { return shape.rank() - row_rank; }
  std::int64_t row_size() const {
    std::int64_t n = 1;
    for (int d = outer_rank(); d < shape.rank(); ++d) n *= shape[d];
    return n;
  }
};

/// The row space of a reduction over the trailing axes of its operand, if it is one that a row
/// group may hold (rows of at most kMaxFusedRow elements, at least one kept dim or not).
inline std::optional<RowSpace> row_reduction_space(const Graph& g, const Eqn& e) {
  if (info(e.prim).kind != PrimKind::reduce || e.in[0].is_literal()) return std::nullopt;
  const Shape& s = g.aval(e.in[0]).shape;
  auto axes = e.params.get<std::vector<std::int64_t>>("axes");
  std::sort(axes.begin(), axes.end());
  const auto k = static_cast<int>(axes.size());
  if (k == 0) return std::nullopt;
  for (int j = 0; j < k; ++j)
    if (axes[static_cast<std::size_t>(j)] != s.rank() - k + j) return std::nullopt;
  RowSpace r{s, k};
  if (r.row_size() > kMaxFusedRow || r.row_size() == 0) return std::nullopt;
  return r;
}

namespace row_group_detail {

// How a value of the group is indexed by the row space's iteration point: `free` values do not
// depend on a reduction of the group (any index map composes into their loads); `row` values
// have the space's rank, their leading dims the outer dims, each trailing dim either the row's
// or 1 (broadcast); `outer` values have the outer dims only (a reduction's result).
enum class Cls { free, row, outer };

inline bool elementwise_kind(Prim p) {
  switch (info(p).kind) {
    case PrimKind::unary:
    case PrimKind::binary:
    case PrimKind::compare:
    case PrimKind::logical:
    case PrimKind::select:
    case PrimKind::convert:
    case PrimKind::multi:
      return true;
    default:
      return false;
  }
}

// A shape the space's row class may take: the outer dims, then each row dim or 1.
inline bool row_shaped(const RowSpace& sp, const Shape& s) {
  if (s.rank() != sp.shape.rank()) return false;
  for (int d = 0; d < s.rank(); ++d)
    if (s[d] != sp.shape[d] && (d < sp.outer_rank() || s[d] != 1)) return false;
  return true;
}

inline bool outer_shaped(const RowSpace& sp, const Shape& s) {
  if (s.rank() != sp.outer_rank()) return false;
  for (int d = 0; d < s.rank(); ++d)
    if (s[d] != sp.shape[d]) return false;
  return true;
}

// A value with one element per row: the outer shape, or the space's rank with unit row dims.
inline bool per_row_shaped(const RowSpace& sp, const Shape& s) {
  if (outer_shaped(sp, s)) return true;
  if (!row_shaped(sp, s)) return false;
  for (int d = sp.outer_rank(); d < s.rank(); ++d)
    if (s[d] != 1) return false;
  return true;
}

}  // namespace row_group_detail

/// Whether equations `eqns` (indices into g.eqns, in order) computing `roots` can run as one row
/// group, and over which space. Every reduction among them reduces the trailing axes of one
/// shape; every value that depends on one of them is indexed with the outer dims as they are
/// (elementwise ops, and broadcasts of a reduction's result back over the row), so the kernel
/// planner can give each row's values from that row alone; the roots are row-shaped or have one
/// element per row.
inline std::optional<RowSpace> row_group_space(const Graph& g, const std::vector<std::size_t>& eqns,
                                               const std::vector<VarId>& roots) {
  using namespace row_group_detail;
  std::optional<RowSpace> space;
  for (std::size_t k : eqns) {
    const Eqn& e = g.eqns[k];
    if (info(e.prim).kind != PrimKind::reduce) continue;
    const auto r = row_reduction_space(g, e);
    if (!r) return std::nullopt;
    if (space && (!(space->shape == r->shape) || space->row_rank != r->row_rank))
      return std::nullopt;
    space = r;
  }
  if (!space) return std::nullopt;
  const RowSpace& sp = *space;
  std::vector<Cls> cls(g.avals.size(), Cls::free);
  auto of = [&](const Atom& a) { return a.is_literal() ? Cls::free : cls[a.var]; };
  for (std::size_t k : eqns) {
    const Eqn& e = g.eqns[k];
    const bool all_free =
        std::all_of(e.in.begin(), e.in.end(), [&](const Atom& a) { return of(a) == Cls::free; });
    Cls out = Cls::free;
    const Shape& os = g.aval(e.out[0]).shape;
    if (info(e.prim).kind == PrimKind::reduce) {
      // Its operand is the space itself: a row value, or a free one (read through its loads).
      if (!(g.aval(e.in[0]).shape == sp.shape)) return std::nullopt;
      out = Cls::outer;
    } else if (all_free) {
      out = Cls::free;
    } else if (e.prim == Prim::broadcast_in_dim) {
      // A per-row value back over the row: its dims keep their places.
      const auto& bd = e.params.get<std::vector<std::int64_t>>("broadcast_dimensions");
      const Shape& is = g.aval(e.in[0]).shape;
      for (std::size_t d = 0; d < bd.size(); ++d)
        if (bd[d] != static_cast<std::int64_t>(d)) return std::nullopt;
      if (of(e.in[0]) == Cls::outer && !outer_shaped(sp, is)) return std::nullopt;
      if (!row_shaped(sp, os)) return std::nullopt;
      out = Cls::row;
    } else if (elementwise_kind(e.prim)) {
      // Operands of the result's rank are indexed dim by dim (size-1 dims broadcast).
      const bool row = row_shaped(sp, os), outer = outer_shaped(sp, os);
      if (!row && !outer) return std::nullopt;
      for (const Atom& a : e.in) {
        const Cls c = of(a);
        if (c == Cls::free) continue;
        if ((c == Cls::row) != row) return std::nullopt;
      }
      out = row ? Cls::row : Cls::outer;
    } else {
      return std::nullopt;  // an index map (transpose, slice, ...) of a reduction's value
    }
    for (VarId v : e.out) cls[v] = out;
  }
  for (VarId v : roots)
    if (!(g.aval(v).shape == sp.shape) && !per_row_shaped(sp, g.aval(v).shape)) return std::nullopt;
  return space;
}

}  // namespace fj::ir
