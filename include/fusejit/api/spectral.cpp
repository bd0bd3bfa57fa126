// Definitions of api/spectral.hpp (implementation unit only).
#include "fusejit/api/spectral.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering_spectral.hpp"

namespace fj::detail::spectral_api {

using Lowering = std::function<std::vector<ir::Atom>(GraphBuilder&, ir::Atom)>;

// One operand in, the lowering's results out: staged in the active trace, or run eagerly.
std::vector<Array> stage(const char* name, const char* api, std::source_location loc,
                         const Array& a, const Lowering& lower) {
  const lax_impl::LaxSite at{api, loc};
  return lax_impl::stage_or_run(name, at, {a}, [&](std::vector<Array>& args) {
    std::vector<Array> r;
    for (const ir::Atom& x : lower(current_trace()->builder, lower_arg(args[0])))
      r.push_back(atom_array(x));
    return r;
  });
}

}  // namespace fj::detail::spectral_api

namespace fj::linalg {

std::array<Array, 2> eigh(const Array& a, bool lower, bool symmetrize_input,
                          std::source_location loc) {
  const auto r = detail::spectral_api::stage(
      "eigh", "fj::linalg::eigh", loc, a, [&](detail::GraphBuilder& b, ir::Atom x) {
        return detail::lower_eigh(b, x, lower, symmetrize_input);
      });
  return {r[0], r[1]};
}

Array eigvalsh(const Array& a, bool lower, std::source_location loc) {
  return detail::spectral_api::stage(
      "eigvalsh", "fj::linalg::eigvalsh", loc, a, [&](detail::GraphBuilder& b, ir::Atom x) {
        return std::vector<ir::Atom>{detail::lower_eigvalsh(b, x, lower)};
      })[0];
}

std::vector<Array> svd(const Array& a, bool full_matrices, bool compute_uv,
                       std::source_location loc) {
  return detail::spectral_api::stage("svd", "fj::linalg::svd", loc, a,
                                     [&](detail::GraphBuilder& b, ir::Atom x) {
                                       return detail::lower_svd(b, x, full_matrices, compute_uv);
                                     });
}

std::array<Array, 2> qr(const Array& a, const std::string& mode, std::source_location loc) {
  if (mode == "r")
    throw ValueError("fj::linalg::qr: mode \"r\" has one result; call fj::linalg::qr_r");
  const auto r = detail::spectral_api::stage(
      "qr", "fj::linalg::qr", loc, a,
      [&](detail::GraphBuilder& b, ir::Atom x) { return detail::lower_qr(b, x, mode); });
  return {r[0], r[1]};
}

Array qr_r(const Array& a, std::source_location loc) {
  return detail::spectral_api::stage(
      "qr", "fj::linalg::qr", loc, a,
      [&](detail::GraphBuilder& b, ir::Atom x) { return detail::lower_qr(b, x, "r"); })[0];
}

}  // namespace fj::linalg

namespace fj::lax::linalg {

std::array<Array, 2> eigh(const Array& x, bool lower, bool symmetrize_input, bool sort_eigenvalues,
                          std::source_location loc) {
  const auto r = detail::spectral_api::stage(
      "eigh", "fj::lax::linalg::eigh", loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
        return detail::lower_lax_eigh(b, a, lower, symmetrize_input, sort_eigenvalues,
                                      "fj::lax::linalg::eigh");
      });
  return {r[0], r[1]};
}

std::vector<Array> svd(const Array& x, bool full_matrices, bool compute_uv,
                       std::source_location loc) {
  return detail::spectral_api::stage(
      "svd", "fj::lax::linalg::svd", loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
        return detail::lower_lax_svd(b, a, full_matrices, compute_uv, "fj::lax::linalg::svd");
      });
}

std::array<Array, 2> qr(const Array& x, bool full_matrices, std::source_location loc) {
  const auto r = detail::spectral_api::stage(
      "qr", "fj::lax::linalg::qr", loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
        return detail::lower_lax_qr(b, a, full_matrices, "fj::lax::linalg::qr");
      });
  return {r[0], r[1]};
}

}  // namespace fj::lax::linalg
