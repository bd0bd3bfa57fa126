// Definitions of jnp.vectorize over lax.linalg.triangular_solve: JAX's nested vmaps written out
// level by level by the nested-vmap interpreter (implementation unit only).
#include "fusejit/expr/lowering_vectorize_solve.hpp"

#include <utility>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/nested_vmaps.hpp"

namespace fj::detail {

Atom vectorized_triangular_solve(GraphBuilder& g, Atom a, Atom b, bool vector,
                                 const TriangularSolveOptions& o, const char* fn) {
  const Shape sa = g.aval(a).shape, sb = g.aval(b).shape;
  const int core_b = vector ? 1 : 2, ra = sa.rank(), rb = sb.rank();
  const std::int64_t n = ra >= 2 ? sa[ra - 1] : -1;
  if (ra < 2 || sa[ra - 2] != n || rb < core_b || sb[rb - core_b] != n)
    throw ShapeError(std::string(fn) + ": arguments a and b must have shapes (..., n, n) and " +
                     (vector ? "(..., n)" : "(..., n, k)") + ", got a of shape " + sa.str() +
                     " and b of shape " + sb.str());
  const Shape ba(VmapDims(sa.begin(), sa.end() - 2)), bb(VmapDims(sb.begin(), sb.end() - core_b));
  Shape batch;
  try {
    batch = broadcast_shapes(ba, bb, fn);
  } catch (const ShapeError&) {
    throw ShapeError(std::string(fn) + ": the batch axes of a (shape " + sa.str() +
                     ") and of b (shape " + sb.str() + ") do not broadcast");
  }
  // One vmap per batch axis, innermost first, in_axes 0 where the operand has that axis with
  // an extent other than 1; an axis neither has is expanded back at the end.
  const VectorizeLevels lv = vectorize_levels(ba, bb, batch);
  NestedVmaps vmaps(g, lv.sizes, fn);
  const Batched x{squeeze_ones(g, a, 2), lv.a_at};
  Batched y{squeeze_ones(g, b, core_b), lv.b_at};
  // lax.linalg.triangular_solve's body: a vector b solved as one column (expand_dims, [..., 0]).
  if (vector) y = vmaps.bind(VmapOp::broadcast_in_dim({n, 1}, NpDims::plain({0})), {y});
  Batched out = vmaps.bind(VmapOp::solve(o), {x, y});
  if (vector) out = vmaps.bind(VmapOp::squeeze_dims({1}), {out});
  while (!out.bdims.empty()) out = vmaps.close_level(std::move(out));
  return lv.expand.empty() ? out.atom : lower_expand_dims(g, out.atom, lv.expand);
}

}  // namespace fj::detail
