// lax.linalg.lu and the functions JAX builds on it (defined in lowering_solve.cpp), staged as
// JAX 0.10.2 stages them.
#pragma once
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// lax.linalg.lu: one `lu` equation (results: lu, i32 pivots, i32 permutation). `fn` names the
/// caller in errors: a float32 / float64 array of rank >= 2.
std::vector<Atom> lower_lu(GraphBuilder& b, Atom x, const char* fn);
/// JAX's _lu_solve (trans 0: a x = b, 1: a^T x = b) on lu's factors and permutation for
/// right-hand sides rhs (levels..., n), one vector each: the one-vector body (b[..., None], the
/// row gather x[perm, :], two triangular solves, [..., 0]) inside one vmap per leading axis of
/// rhs, lu (..., n, n) and perm batched at the levels `a_batched` marks, as JAX's batching rules
/// rewrite it (lowering_lu_solve.cpp); rhs's shape.
Atom lu_solve_levels(GraphBuilder& g, Atom lu, Atom perm, Atom rhs,
                     const std::vector<bool>& a_batched, bool trans, const char* fn);

}  // namespace fj::detail

namespace fj::detail {

/// jnp.linalg.det: `jit[name=det]`; 2x2 and 3x3 matrices by JAX's closed forms (differentiated
/// as they are), others through custom_jvp_call[name=_det] (sign * exp(logdet) of slogdet,
/// tangent tr(adj(a) a_dot) by JAX's cofactor solve). Integers become f32 first.
Atom lower_det(GraphBuilder& b, Atom a);
/// jnp.linalg.slogdet: `jit[name=slogdet]` around custom_jvp_call[name=_slogdet_small] (1x1,
/// 2x2: closed forms) or [name=_slogdet_lu] (lu's diagonal and pivots); {sign, log|det|}, sign
/// 0 and log|det| -inf for a singular matrix; tangents 0 and tr(a^-1 a_dot).
std::vector<Atom> lower_slogdet(GraphBuilder& b, Atom a);

}  // namespace fj::detail

namespace fj::detail {

/// jnp.linalg.solve: x with a x = b, `jit[name=solve]`; b a vector (rank 1: (n,), broadcast
/// against a's batch) or (..., n, k), batch axes broadcast. Staged as JAX's _solve: lu of
/// stop_gradient(a), then custom_linear_solve (matvec a x; solve: b's rows permuted, two
/// triangular solves), differentiated by custom_linear_solve's rules as JAX's.
Atom lower_solve(GraphBuilder& b, Atom a, Atom rhs);
/// jnp.linalg.inv: `jit[name=inv]`, solve against the identity broadcast to a's shape.
Atom lower_inv(GraphBuilder& b, Atom a);

}  // namespace fj::detail
