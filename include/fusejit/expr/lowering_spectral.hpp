// jnp.linalg / lax.linalg lowerings of the spectral decompositions (eigh, qr, svd;
// defined in lowering_spectral.cpp), staged as JAX 0.10.2 stages them.
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
/// lax.linalg.svd: the primitive; u, s and v^T, or s alone without compute_uv.
std::vector<Atom> lower_lax_svd(GraphBuilder& b, Atom x, bool full_matrices, bool compute_uv,
                                const char* fn);
/// jnp.linalg.svd: `jit[name=svd]` around lax.linalg.svd (integers converted to f32 first).
std::vector<Atom> lower_svd(GraphBuilder& b, Atom x, bool full_matrices, bool compute_uv);
/// lax.linalg.qr: the primitive; q then r.
std::vector<Atom> lower_lax_qr(GraphBuilder& b, Atom x, bool full_matrices, const char* fn);
/// jnp.linalg.qr: `jit[name=qr]` around the primitive (integers converted to f32 first); mode
/// "reduced" and "complete" give q and r, "r" r alone; "raw" raises NotImplementedError, any
/// other ValueError.
std::vector<Atom> lower_qr(GraphBuilder& b, Atom x, const std::string& mode);

}  // namespace fj::detail
