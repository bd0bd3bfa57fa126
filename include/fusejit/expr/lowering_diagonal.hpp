// jnp.diagonal, jnp.trace, jnp.count_nonzero and lax.platform_dependent as JAX 0.10.2 stages them
// (defined in lowering_diagonal.cpp): what jnp.linalg's slogdet, det and cofactor solve read lu
// through.
#pragma once
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// lax.platform_dependent(*ops, mosaic=..., default=...): a platform_index equation, then a
/// cond on it whose branches (mosaic's first) both take `ops`, with JAX's branches_platforms.
/// Every fusejit backend runs `fallback` (ir/passes/inline_jit.hpp folds the cond).
std::vector<Atom> lower_platform_dependent(GraphBuilder& b, const std::vector<Atom>& ops,
                                           const SubgraphBody& mosaic,
                                           const SubgraphBody& fallback);
/// jnp.diagonal(x, axis1=-2, axis2=-1): `jit[name=diagonal]`, x[..., i, i] for i = arange(n)
/// (a gather); for one square non-bool matrix, behind platform_dependent, whose mosaic branch
/// is sum(eye * x, axis 0).
Atom lower_diagonal(GraphBuilder& b, Atom x);
/// jnp.count_nonzero(x, axis): `jit[name=count_nonzero]`, the i32 count of x != 0 along axis
/// (negative from the end).
Atom lower_count_nonzero(GraphBuilder& b, Atom x, int axis);
/// jnp.trace(x, offset, axis1, axis2): `jit[name=trace]`, the two axes moved last, then the sum
/// of jnp.where(eye(k=offset), x, 0) over them. Equal or out-of-range axes raise, naming `who`.
Atom lower_trace(GraphBuilder& b, Atom x, int axis1, int axis2, std::int64_t offset = 0,
                 const char* who = "fj::trace");
/// jnp.diagonal(x, offset, axis1, axis2): the two axes moved last, then x[..., i, i + offset]
/// (x[..., i - offset, i] below the main diagonal) for every i in range, as a gather; offset 0
/// on the last two axes is lower_diagonal, JAX's staging.
Atom lower_diagonal_of(GraphBuilder& b, Atom x, std::int64_t offset, int axis1, int axis2);
/// jnp.diag(v, k): a 1-d v on diagonal k of a square matrix of zeros (v padded to the side,
/// then where(eye(k=k), v, 0)), or a 2-d v's diagonal k.
Atom lower_diag(GraphBuilder& b, Atom v, std::int64_t k);

}  // namespace fj::detail
