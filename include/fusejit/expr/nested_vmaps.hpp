// A small interpreter of JAX 0.10.2's batching rules for the compositions jnp.vectorize and
// vmap stage inside jnp.linalg.solve and jax.scipy.linalg (defined in nested_vmaps.cpp).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "fusejit/expr/lowering_linalg.hpp"

namespace fj::detail {

using VmapDims = std::vector<std::int64_t>;

/// A tuple of dims as JAX prints it after its batching rules: the entries from `first_np` on
/// come from np.add and print as np.int64(...). A rule either leaves a tuple alone, makes it
/// all NumPy (np.add), or puts a plain 0 before that, so one index says it all.
struct NpDims {
  VmapDims v;
  std::size_t first_np = 0;
  static NpDims plain(VmapDims v) { return {v, v.size()}; }
};

/// A value inside nested vmaps: the staged atom, holding every batch axis, and per vmap level
/// (outermost first) the position of that level's batch axis in the value as that level sees
/// it (the axes of the levels outside it removed); -1 where the value is not batched there.
struct Batched {
  Atom atom;
  std::vector<int> bdims;
};

/// One primitive application inside the vmaps, in the shape its level sees. Made by the
/// functions below; `bind` rewrites it level by level.
struct VmapOp {
  enum Kind { broadcast, squeeze, reshape, transpose, triangular_solve, gather, elementwise, sort };
  Kind kind = broadcast;
  VmapDims shape;            // broadcast_in_dim's shape, reshape's new sizes
  NpDims dims;               // broadcast_in_dim's dims, squeeze's dims, transpose's permutation
  TriangularSolveOptions o;  // triangular_solve
  NpDims offset, collapsed, start_map, operand_batching, indices_batching;  // gather
  VmapDims slice_sizes;                                                     // gather
  Prim prim = Prim::add;                                                    // elementwise
  int dimension = 0;                                                        // sort's axis
  int result = 0;  // sort: which result bind returns

  static VmapOp broadcast_in_dim(VmapDims shape, NpDims dims) {
    return shaped(broadcast, std::move(shape), std::move(dims));
  }
  static VmapOp squeeze_dims(VmapDims dims) {
    return shaped(squeeze, {}, NpDims::plain(std::move(dims)));
  }
  static VmapOp reshape_to(VmapDims sizes) { return shaped(reshape, std::move(sizes), {}); }
  static VmapOp transpose_by(VmapDims perm) {
    return shaped(transpose, {}, NpDims::plain(std::move(perm)));
  }
  static VmapOp solve(const TriangularSolveOptions& o);
  /// x[idx, :] of rows x (n, 1) with indices (n, 1): jnp's gather, promise_in_bounds.
  static VmapOp gather_rows();
  static VmapOp apply(Prim p);
  /// lax.sort along `dimension`, stable, one key; bind returns result `result`.
  static VmapOp sort_by_key(int dimension, int result);

 private:
  static VmapOp shaped(Kind k, VmapDims shape, NpDims dims);
};

/// The vmaps of jnp.vectorize (and of vmap calls inside it), `sizes` their axes' extents
/// (outermost first). bind(op, args) applies a primitive inside the k outermost vmaps (k: the
/// args' bdims count; unbatched literals carry -1s): level k's batching rule rewrites it into
/// primitives bound inside the k - 1 outer ones, down to the graph itself.
class NestedVmaps {
 public:
  NestedVmaps(GraphBuilder& g, VmapDims sizes, const char* fn)
      : g_(g), sizes_(std::move(sizes)), fn_(fn) {}

  /// x as a value inside the first bdims.size() levels.
  static Batched at(Atom x, std::vector<int> bdims) { return {x, std::move(bdims)}; }
  /// v's shape as seen inside its levels.
  Shape seen(const Batched& v) const;
  Batched bind(const VmapOp& op, std::vector<Batched> args);
  /// v with its innermost level's batch axis moved to the front (vmap's out_axes=0), that
  /// level closed.
  Batched close_level(Batched v);
  /// v, not batched at `level`, broadcast along that level's axis at the front as a batching
  /// rule does (batching.broadcast), bound inside the levels outside it.
  Batched broadcast_at(Batched v, std::size_t level);

 private:
  Batched move(const Batched& v, int from, int to);
  Batched front(const Batched& v, int b, std::int64_t size);
  std::pair<Batched, int> rule(VmapOp op, std::vector<Batched> args, const std::vector<int>& bd,
                               std::int64_t size);
  std::pair<Batched, int> solve_rule(const VmapOp& op, std::vector<Batched> args,
                                     const std::vector<int>& bd, std::int64_t size);
  std::pair<Batched, int> gather_rule(VmapOp op, std::vector<Batched> args,
                                      const std::vector<int>& bd);
  std::pair<Batched, int> sort_rule(VmapOp op, std::vector<Batched> args,
                                    const std::vector<int>& bd);
  Atom emit(const VmapOp& op, const std::vector<Batched>& args);

  GraphBuilder& g_;
  VmapDims sizes_;
  const char* fn_;
};

/// jnp.vectorize's vmaps over two operands whose batch axes (their core axes removed) `ba` and
/// `bb` broadcast to `batch`: one level per axis that either has with an extent other than 1
/// (outermost first; the operand's in_axes there, 0 or -1 for None), and the axes neither has,
/// which it expands back at the end.
struct VectorizeLevels {
  VmapDims sizes;
  std::vector<int> a_at, b_at, expand;
};
VectorizeLevels vectorize_levels(const Shape& ba, const Shape& bb, const Shape& batch);
/// x's batch axes (all but the last `core`) of size 1 squeezed, as jnp.vectorize does before
/// it vmaps.
Atom squeeze_ones(GraphBuilder& g, Atom x, int core);

}  // namespace fj::detail
