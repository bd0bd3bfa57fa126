// Definitions of api/lu.hpp (implementation unit only).
#include "fusejit/api/lu.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering_solve.hpp"

#include <functional>

namespace fj::linalg {

// The staging shared by lu and the jnp.linalg functions (not in an anonymous namespace:
// lax::linalg::lu uses it too).
namespace staging {

using Lower =
    std::function<std::vector<ir::Atom>(detail::GraphBuilder&, const std::vector<ir::Atom>&)>;

std::vector<Array> staged(const char* name, const char* api, std::source_location loc,
                          const std::vector<Array>& in, const Lower& lower) {
  const detail::lax_impl::LaxSite at{api, loc};
  return detail::lax_impl::stage_or_run(name, at, in, [&lower](std::vector<Array>& args) {
    std::vector<ir::Atom> atoms;
    for (const Array& a : args) atoms.push_back(detail::lower_arg(a));
    std::vector<Array> out;
    for (const ir::Atom& r : lower(detail::current_trace()->builder, atoms))
      out.push_back(detail::atom_array(r));
    return out;
  });
}

}  // namespace staging

}  // namespace fj::linalg

namespace fj::lax::linalg {

std::array<Array, 3> lu(const Array& x, std::source_location loc) {
  const auto r = fj::linalg::staging::staged(
      "lu", "fj::lax::linalg::lu", loc, {x}, [](detail::GraphBuilder& b, const auto& in) {
        return detail::lower_lu(b, in[0], "fj::lax::linalg::lu");
      });
  return {r[0], r[1], r[2]};
}

}  // namespace fj::lax::linalg

namespace fj::linalg {

Array det(const Array& a, std::source_location loc) {
  return staging::staged("det", "fj::linalg::det", loc, {a},
                         [](detail::GraphBuilder& b, const auto& in) {
                           return std::vector<ir::Atom>{detail::lower_det(b, in[0])};
                         })[0];
}

std::array<Array, 2> slogdet(const Array& a, std::source_location loc) {
  const auto r = staging::staged(
      "slogdet", "fj::linalg::slogdet", loc, {a},
      [](detail::GraphBuilder& b, const auto& in) { return detail::lower_slogdet(b, in[0]); });
  return {r[0], r[1]};
}

Array solve(const Array& a, const Array& b, std::source_location loc) {
  return staging::staged("solve", "fj::linalg::solve", loc, {a, b},
                         [](detail::GraphBuilder& g, const auto& in) {
                           return std::vector<ir::Atom>{detail::lower_solve(g, in[0], in[1])};
                         })[0];
}

Array inv(const Array& a, std::source_location loc) {
  return staging::staged("inv", "fj::linalg::inv", loc, {a},
                         [](detail::GraphBuilder& b, const auto& in) {
                           return std::vector<ir::Atom>{detail::lower_inv(b, in[0])};
                         })[0];
}

}  // namespace fj::linalg
