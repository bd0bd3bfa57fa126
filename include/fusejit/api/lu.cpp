// Definitions of api/lu.hpp (implementation unit only).
#include "fusejit/api/lu.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering_solve.hpp"

namespace fj::lax::linalg {

std::array<Array, 3> lu(const Array& x, std::source_location loc) {
  const detail::lax_impl::LaxSite at{"fj::lax::linalg::lu", loc};
  auto r = detail::lax_impl::stage_or_run("lu", at, {x}, [](std::vector<Array>& args) {
    std::vector<Array> out;
    for (const ir::Atom& a : detail::lower_lu(detail::current_trace()->builder,
                                              detail::lower_arg(args[0]), "fj::lax::linalg::lu"))
      out.push_back(detail::atom_array(a));
    return out;
  });
  return {r[0], r[1], r[2]};
}

}  // namespace fj::lax::linalg
