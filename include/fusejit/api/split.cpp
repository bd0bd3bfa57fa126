// Definitions of api/split.hpp (implementation unit only).
#include "fusejit/api/split.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering.hpp"

namespace fj::lax {

std::vector<Array> split(const Array& operand, const std::vector<std::int64_t>& sizes, int axis,
                         std::source_location loc) {
  const detail::lax_impl::LaxSite at{"fj::lax::split", loc};
  return detail::lax_impl::stage_or_run("split", at, {operand}, [&](std::vector<Array>& args) {
    const std::vector<ir::Atom> pieces = detail::lower_split(
        detail::current_trace()->builder, detail::lower_arg(args[0]), sizes, axis);
    std::vector<Array> r;
    for (const ir::Atom& a : pieces) r.push_back(detail::atom_array(a));
    return r;
  });
}

}  // namespace fj::lax
