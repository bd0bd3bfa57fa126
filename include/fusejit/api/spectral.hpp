// The spectral decompositions, functions with several results: fj::linalg::eigh / eigvalsh /
// qr / svd (jnp.linalg) and fj::lax::linalg::eigh / qr / svd (lax.linalg), staged as JAX stages
// them, or run eagerly outside a trace.
#pragma once
#include <array>
#include <source_location>
#include <string>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj::linalg {

/// jnp.linalg.eigh: the ascending eigenvalues w (..., n) and the eigenvectors v (..., n, n)
/// (column i for w[i], each defined up to its sign) of each symmetric matrix in a's last two
/// axes. The input is symmetrized ((a + a^T) / 2) unless `symmetrize_input` is false; then only
/// its lower (`lower`, UPLO "L") or upper triangle is read. Integers become f32.
std::array<Array, 2> eigh(const Array& a, bool lower = true, bool symmetrize_input = true,
                          std::source_location loc = std::source_location::current());
/// jnp.linalg.eigvalsh: eigh's w alone.
Array eigvalsh(const Array& a, bool lower = true,
               std::source_location loc = std::source_location::current());

/// jnp.linalg.svd: {u, s, vh} with a = u diag(s) vh, s descending (each pair of singular
/// vectors defined up to a common sign), u (..., m, m) and vh (..., n, n) with full_matrices or
/// (..., m, k) and (..., k, n), k = min(m, n); {s} alone without compute_uv. Integers become
/// f32. A matrix with a NaN or an infinity gives NaNs.
std::vector<Array> svd(const Array& a, bool full_matrices = true, bool compute_uv = true,
                       std::source_location loc = std::source_location::current());
/// jnp.linalg.svd's keyword arguments: fj::linalg::svd(a, {.full_matrices = false}).
struct SvdOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  bool full_matrices = true;  ///< u (..., m, m) and vh (..., n, n), not (..., m, k), (..., k, n)
  bool compute_uv = true;     ///< return {u, s, vh}; otherwise {s} alone
};
/// jnp.linalg.svd(a, full_matrices=..., compute_uv=...) with keyword-style options.
inline std::vector<Array> svd(const Array& a, const SvdOptions& o,
                              std::source_location loc = std::source_location::current()) {
  return svd(a, o.full_matrices, o.compute_uv, loc);
}
/// jnp.linalg.eigh's keyword arguments: fj::linalg::eigh(a, {.symmetrize_input = false}).
struct EighOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  bool lower = true;                ///< read the lower triangle (UPLO "L"), else the upper
  bool symmetrize_input = true;     ///< use (a + a^T) / 2 rather than one triangle
};
/// jnp.linalg.eigh(a, UPLO=..., symmetrize_input=...) with keyword-style options.
inline std::array<Array, 2> eigh(const Array& a, const EighOptions& o,
                                 std::source_location loc = std::source_location::current()) {
  return eigh(a, o.lower, o.symmetrize_input, loc);
}

/// jnp.linalg.qr: q (..., m, k) with orthonormal columns and upper-triangular r (..., k, n),
/// k = min(m, n), a = q r, with LAPACK's signs (r's diagonal may be negative), as JAX's; mode
/// "complete" makes q (..., m, m) and r (..., m, n). Integers become f32.
std::array<Array, 2> qr(const Array& a, const std::string& mode = "reduced",
                        std::source_location loc = std::source_location::current());
/// jnp.linalg.qr(a, mode="r"): r alone, (..., k, n).
Array qr_r(const Array& a, std::source_location loc = std::source_location::current());

}  // namespace fj::linalg

namespace fj::lax::linalg {

/// lax.linalg.eigh: (v, w), the eigenvectors first; f32 or f64 only.
std::array<Array, 2> eigh(const Array& x, bool lower = true, bool symmetrize_input = true,
                          bool sort_eigenvalues = true,
                          std::source_location loc = std::source_location::current());

/// lax.linalg.svd: {u, s, vh}, or {s} without compute_uv; f32 or f64 only.
std::vector<Array> svd(const Array& x, bool full_matrices = true, bool compute_uv = true,
                       std::source_location loc = std::source_location::current());
/// lax.linalg.qr: (q, r), full_matrices by default as lax's; f32 or f64 only.
std::array<Array, 2> qr(const Array& x, bool full_matrices = true,
                        std::source_location loc = std::source_location::current());

}  // namespace fj::lax::linalg
