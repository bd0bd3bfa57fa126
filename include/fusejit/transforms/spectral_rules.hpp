// The transformation rules of the spectral decompositions (eigh, qr, svd; defined in
// spectral_rules.cpp), after JAX's lax/linalg.py.
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// Tangents: eigh's (JAX's _eigh_jvp_rule, nondegenerate perturbation theory): with
/// M = v^T a_dot v and F_ij = 1 / (w_j - w_i) off the diagonal, 0 on it, v_dot = v (F o M) and
/// w_dot = diag(M). qr's (JAX's qr_jvp_rule, m >= n and reduced factors only): X = x_dot r^-1,
/// C = q^T X, O = tril(C, -1) - tril(C, -1)^T; q_dot = q (O - C) + X, r_dot = (C - O) r.
/// svd's (JAX's _svd_jvp_rule; thin factors, or a square matrix's): s_dot = diag(u^T a_dot v),
/// and u_dot, v_dot from F_ij = 1 / (s_j^2 - s_i^2) (spectral_rules.cpp).
std::vector<MaybeAtom> jvp_spectral(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<MaybeAtom>& t, const std::vector<Atom>& out);
/// Cotangents: the transposes of those tangent maps (what JAX's linearize-and-transpose
/// computes): eigh's a_bar = v (F o (v^T v_bar) + diag(w_bar)) v^T.
std::vector<MaybeAtom> vjp_spectral(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in,
                                    const std::vector<Atom>& out, const std::vector<MaybeAtom>& ct,
                                    const std::vector<bool>& wants);
/// Batched along a new leading axis, a batch axis of the matrices (JAX's rule: the primitives
/// are batched over leading axes already).
std::vector<Atom> batch_spectral(Emit& E, const ir::Eqn& e, std::vector<Atom> in,
                                 const std::vector<bool>& bat, std::int64_t n);

}  // namespace fj::transforms
