// Definitions of api/lu.hpp (implementation unit only).
#include "fusejit/api/lu.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering_solve.hpp"

namespace fj::linalg {

// The staging shared by lu, det and slogdet (no anonymous namespace: lax::linalg::lu uses it).
namespace staging {

std::vector<Array> staged(const char* name, const char* api, std::source_location loc,
                          const Array& a,
                          std::vector<ir::Atom> (*lower)(detail::GraphBuilder&, ir::Atom)) {
  const detail::lax_impl::LaxSite at{api, loc};
  return detail::lax_impl::stage_or_run(name, at, {a}, [lower](std::vector<Array>& args) {
    std::vector<Array> out;
    for (const ir::Atom& r : lower(detail::current_trace()->builder, detail::lower_arg(args[0])))
      out.push_back(detail::atom_array(r));
    return out;
  });
}

std::vector<ir::Atom> det_atoms(detail::GraphBuilder& b, ir::Atom a) {
  return {detail::lower_det(b, a)};
}

std::vector<ir::Atom> lu_atoms(detail::GraphBuilder& b, ir::Atom a) {
  return detail::lower_lu(b, a, "fj::lax::linalg::lu");
}

}  // namespace staging

}  // namespace fj::linalg

namespace fj::lax::linalg {

std::array<Array, 3> lu(const Array& x, std::source_location loc) {
  const auto r = fj::linalg::staging::staged("lu", "fj::lax::linalg::lu", loc, x,
                                             &fj::linalg::staging::lu_atoms);
  return {r[0], r[1], r[2]};
}

}  // namespace fj::lax::linalg

namespace fj::linalg {

Array det(const Array& a, std::source_location loc) {
  return staging::staged("det", "fj::linalg::det", loc, a, &staging::det_atoms)[0];
}

std::array<Array, 2> slogdet(const Array& a, std::source_location loc) {
  const auto r = staging::staged("slogdet", "fj::linalg::slogdet", loc, a, &detail::lower_slogdet);
  return {r[0], r[1]};
}

}  // namespace fj::linalg
