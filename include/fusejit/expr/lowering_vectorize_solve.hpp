// jnp.vectorize of lax.linalg.triangular_solve, as jax.scipy.linalg's cho_solve and
// solve_triangular stage it (defined in lowering_vectorize_solve.cpp).
#pragma once
#include "fusejit/expr/lowering_linalg.hpp"

namespace fj::detail {

/// jnp.vectorize(partial(lax.linalg.triangular_solve, left_side=True, ...), signature)(a, b),
/// signature "(n,n),(n)->(n)" when `vector`, else "(n,n),(n,k)->(n,k)": the batch axes of a
/// (..., n, n) and b broadcast; size-1 ones squeezed and expanded back; one vmap per remaining
/// axis, innermost first, each written out as JAX 0.10.2's batching rules stage it (a batched
/// operand's axis moved to the front, an unbatched a folding b's batch into its columns,
/// np.int64 dims where JAX's come from NumPy). `fn` names the caller in errors.
Atom vectorized_triangular_solve(GraphBuilder& g, Atom a, Atom b, bool vector,
                                 const TriangularSolveOptions& o, const char* fn);

}  // namespace fj::detail
