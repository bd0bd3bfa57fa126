// Definitions of api/sorting.hpp (implementation unit only).
#include "fusejit/api/sorting.hpp"

#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering_sort.hpp"

namespace fj::lax {

namespace {

std::vector<Array> arrays_of(const std::vector<ir::Atom>& atoms) {
  std::vector<Array> r;
  for (const ir::Atom& a : atoms) r.push_back(detail::atom_array(a));
  return r;
}

}  // namespace

std::vector<Array> sort(const std::vector<Array>& operands, int dimension, bool is_stable,
                        int num_keys, std::source_location loc) {
  const detail::lax_impl::LaxSite at{"fj::lax::sort", loc};
  return detail::lax_impl::stage_or_run("sort", at, operands, [&](std::vector<Array>& args) {
    std::vector<ir::Atom> in;
    for (const Array& a : args) in.push_back(detail::lower_arg(a));
    return arrays_of(detail::lower_lax_sort(detail::current_trace()->builder, in, dimension,
                                            is_stable, num_keys));
  });
}

std::array<Array, 2> top_k(const Array& x, std::int64_t k, std::source_location loc) {
  const detail::lax_impl::LaxSite at{"fj::lax::top_k", loc};
  auto r = detail::lax_impl::stage_or_run("top_k", at, {x}, [&](std::vector<Array>& args) {
    return arrays_of(
        detail::lower_top_k(detail::current_trace()->builder, detail::lower_arg(args[0]), k));
  });
  return {r[0], r[1]};
}

}  // namespace fj::lax
