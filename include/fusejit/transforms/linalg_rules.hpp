// The transformation rules of the linear-algebra library primitives, cholesky and
// triangular_solve (defined in linalg_rules.cpp), after JAX's lax/linalg.py.
#pragma once
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// lax.batch_matmul (x's last axis against y's second-to-last, the leading axes as batch), or,
/// with `transpose_x`, x^T y (x's second-to-last against y's second-to-last), and with
/// `transpose_y`, x y^T.
Atom bmm(Emit& E, Atom x, Atom y, bool transpose_x = false, bool transpose_y = false);

/// Tangents: cholesky's L_dot = L phi(L^-1 sigma_dot L^-T) (JAX's _cholesky_jvp_rule, phi the
/// lower triangle with its diagonal halved); triangular_solve is linear in b and has JAX's
/// _triangular_solve_jvp_rule_a in a (the cheaper product order by the shapes).
std::vector<MaybeAtom> jvp_linalg(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                  const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
/// Cotangents: the transposes of those tangent maps (what JAX's linearize-and-transpose
/// computes): cholesky's sigma_bar = L^-T phi(L^T L_bar) L^-1; triangular_solve's b_bar is the
/// solve with transpose_a flipped (JAX's _triangular_solve_transpose_rule) and a_bar =
/// -triangle(op^T(b_bar x^T)) (x^T b_bar on the right side).
std::vector<MaybeAtom> vjp_linalg(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                  const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                  const std::vector<bool>& wants);
/// Batched along a new leading axis, a batch axis of the matrices: cholesky as is;
/// triangular_solve with both operands batched, or, when only b is, b's batch folded into its
/// columns (left_side) or rows, one solve against the one a (JAX's batching rule).
std::vector<Atom> batch_linalg(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                               const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
