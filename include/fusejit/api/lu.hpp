// lax.linalg.lu, which has several results, and jnp.linalg's functions built on it (det,
// slogdet, solve, inv), staged as JAX stages them, or run eagerly outside a trace.
#pragma once
#include <array>
#include <source_location>

#include "fusejit/expr/array.hpp"

namespace fj::lax::linalg {

/// P x = L U with partial pivoting for each (m, n) matrix of x's last two axes (float32 or
/// float64): {lu, pivots, permutation}; lu holds L strictly below the diagonal (its unit
/// diagonal implied) and U on and above it, pivots (i32, min(m, n)) the row swapped with each
/// row in turn (LAPACK's, 0-based) and permutation (i32, m) the rows of x in the order P x
/// takes them. A singular matrix is factored all the same (zeros on U's diagonal).
std::array<Array, 3> lu(const Array& x, std::source_location loc = std::source_location::current());

}  // namespace fj::lax::linalg

namespace fj::linalg {

/// The determinant of each matrix in a's last two axes (jnp.linalg.det); integers become
/// float32. 2x2 and 3x3 by the closed forms JAX uses, larger through lu (0 for a singular one).
Array det(const Array& a, std::source_location loc = std::source_location::current());
/// {sign, log|det|} of each matrix in a's last two axes (jnp.linalg.slogdet): sign 0 and
/// log|det| -inf for a singular matrix.
std::array<Array, 2> slogdet(const Array& a,
                             std::source_location loc = std::source_location::current());

/// x with a x = b for each matrix of a (jnp.linalg.solve): b one vector (n,) or a batch of
/// (n, k) right-hand sides, batch axes broadcast; integers become float32. A singular a gives
/// infinities or NaNs, as JAX's.
Array solve(const Array& a, const Array& b,
            std::source_location loc = std::source_location::current());
/// The inverse of each matrix in a's last two axes (jnp.linalg.inv).
Array inv(const Array& a, std::source_location loc = std::source_location::current());

}  // namespace fj::linalg
