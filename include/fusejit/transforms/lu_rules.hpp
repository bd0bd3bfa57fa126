// The transformation rules of lu (defined in lu_rules.cpp), after JAX's _lu_jvp_rule; batching
// is batch_linalg's (lu factors every matrix of its leading axes already).
#pragma once
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms {

/// lu's tangent (De Hoog, Anderssen and Lukas, as JAX's _lu_jvp_inner): with P the permutation
/// matrix, L (m, m) unit lower and U (n, n) upper from the packed factors (padded with the
/// identity when m != n) and X = L^-1 P a_dot U^-1, lu_dot = L tril(X, -1) + triu(X) U. The
/// integer results (pivots, permutation) have no tangent.
std::vector<MaybeAtom> jvp_lu(Emit& E, const std::vector<MaybeAtom>& t,
                              const std::vector<Atom>& out);
/// lu's cotangent, the transpose of that linear map: X_bar = tril(L^T lu_bar, -1) +
/// triu(lu_bar U^T), a_bar = P^T L^-T X_bar U^-T.
std::vector<MaybeAtom> vjp_lu(Emit& E, const std::vector<Atom>& out,
                              const std::vector<MaybeAtom>& ct, const std::vector<bool>& wants);

}  // namespace fj::transforms
