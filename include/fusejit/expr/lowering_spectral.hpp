// jnp.linalg / lax.linalg lowerings of the spectral decompositions (eigh; defined in
// lowering_spectral.cpp), staged as JAX 0.10.2 stages them.
#pragma once
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// lax.linalg.eigh: symmetrized ((x + x^T) / 2) first when asked, then the primitive; the
/// eigenvectors v and the ascending eigenvalues w, in that order. `fn` names the caller in
/// errors.
std::vector<Atom> lower_lax_eigh(GraphBuilder& b, Atom x, bool lower, bool symmetrize_input,
                                 bool sort_eigenvalues, const char* fn);
/// jnp.linalg.eigh: `jit[name=eigh]` around lax.linalg.eigh, integers converted to f32 first;
/// w then v.
std::vector<Atom> lower_eigh(GraphBuilder& b, Atom x, bool lower, bool symmetrize_input);
/// jnp.linalg.eigvalsh: `jit[name=eigvalsh]` around jnp.linalg.eigh's w.
Atom lower_eigvalsh(GraphBuilder& b, Atom x, bool lower);

}  // namespace fj::detail
