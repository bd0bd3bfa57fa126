// jnp.linalg / lax.linalg / jax.scipy.linalg lowerings of the Cholesky factorization and the
// triangular solves (defined in lowering_linalg.cpp).
#pragma once
#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// Options of lax.linalg.triangular_solve, as its params print.
struct TriangularSolveOptions {
  bool left_side = false, lower = false, transpose_a = false, conjugate_a = false,
       unit_diagonal = false;
};

/// JAX's _T (_H for real dtypes): the last two axes swapped.
Atom matrix_transpose(GraphBuilder& b, Atom x);
/// JAX's lax.linalg._tril / _triu: m with the entries above diagonal k (below diagonal k for
/// triu) replaced by zeros, through a select against lax._tri's mask.
Atom lower_tril(GraphBuilder& b, Atom m, std::int64_t k);
Atom lower_triu(GraphBuilder& b, Atom m, std::int64_t k);
/// lax.linalg.cholesky: symmetrized ((x + x^T) / 2) first when asked, then the primitive and
/// _tril. `fn` names the caller in errors.
Atom lower_lax_cholesky(GraphBuilder& b, Atom x, bool symmetrize_input, const char* fn);
/// jnp.linalg.cholesky: `jit[name=cholesky]` around lax.linalg.cholesky (the upper factor
/// transposed when `upper`); integers become f32 first.
Atom lower_cholesky(GraphBuilder& b, Atom x, bool upper, bool symmetrize_input);
/// lax.linalg.triangular_solve: the primitive; b of rank a's - 1 is one vector, solved as a
/// one-column (left) or one-row matrix.
Atom lower_triangular_solve(GraphBuilder& b, Atom a, Atom rhs, const TriangularSolveOptions& o,
                            const char* fn = "fj::lax::linalg::triangular_solve");
/// jax.scipy.linalg.cho_factor's factor: `jit[name=_cholesky]`, the input's lower (or, when not
/// `lower`, upper) triangle only.
Atom lower_cho_factor(GraphBuilder& b, Atom a, bool lower);
/// jax.scipy.linalg.cho_solve((c, lower), b): `jit[name=_cho_solve]`, two triangular solves.
Atom lower_cho_solve(GraphBuilder& b, Atom c, Atom rhs, bool lower);
/// jax.scipy.linalg.solve_triangular (trans 0 or 1): `jit[name=_solve_triangular]`.
Atom lower_solve_triangular(GraphBuilder& b, Atom a, Atom rhs, int trans, bool lower,
                            bool unit_diagonal);

}  // namespace fj::detail
