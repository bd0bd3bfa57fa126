// Definitions of api/nonzero.hpp (implementation unit only): the static size is decided here
// (given, or counted from a concrete x, as JAX's concrete_dim_or_error), the staging in
// expr/lowering_nonzero.cpp.
#include "fusejit/api/nonzero.hpp"

#include <string>

#include "fusejit/api/lax_control.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_nonzero.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {

namespace {

// The indices' length: `size`, or the number of nonzeros of a concrete x.
std::int64_t static_size(const Array& x, std::optional<std::int64_t> size, const char* fn) {
  if (size) {
    if (*size < 0)
      throw ValueError(std::string(fn) + ": size must be nonnegative, got " +
                       std::to_string(*size));
    return *size;
  }
  if (x.is_traced())
    throw ConcretizationError(std::string(fn) + ": x " + x.aval().str() +
                              " is traced, so the number of its nonzero elements is not static: "
                              "pass size (as jnp.nonzero needs within JAX transformations)");
  std::int64_t n = 0;
  for (double v : Array(fj::astype(x, DType::f64)).to_vector<double>()) n += v != 0;
  return n;
}

// `lower` staged in the active trace, or run on its own outside one.
std::vector<Array> staged(
    const char* name, const char* fn, std::source_location loc, const Array& x,
    const std::function<std::vector<ir::Atom>(detail::GraphBuilder&, ir::Atom)>& lower) {
  const detail::lax_impl::LaxSite at{fn, loc};
  return detail::lax_impl::stage_or_run(name, at, {x}, [&](std::vector<Array>& args) {
    std::vector<Array> out;
    for (const ir::Atom& r : lower(detail::current_trace()->builder, detail::lower_arg(args[0])))
      out.push_back(detail::atom_array(r));
    return out;
  });
}

}  // namespace

std::vector<Array> nonzero(const Array& x, std::optional<std::int64_t> size,
                           std::optional<std::int64_t> fill_value, std::source_location loc) {
  const char* fn = "fj::nonzero";
  if (x.ndim() == 0)
    throw ValueError(std::string(fn) + ": x must have at least one axis, got " + x.aval().str() +
                     " (JAX: use atleast_1d first)");
  const std::int64_t n = static_size(x, size, fn);
  return staged("nonzero", fn, loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
    return detail::lower_nonzero(b, a, n, fill_value, fn);
  });
}

Array flatnonzero(const Array& x, std::optional<std::int64_t> size,
                  std::optional<std::int64_t> fill_value, std::source_location loc) {
  const char* fn = "fj::flatnonzero";
  const std::int64_t n = static_size(x, size, fn);
  return staged("flatnonzero", fn, loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
    const std::int64_t total = b.aval(a).shape.size();
    if (b.aval(a).shape.rank() != 1) a = detail::lower_reshape(b, a, {total});  // jnp.ravel
    return std::vector<ir::Atom>{detail::lower_nonzero(b, a, n, fill_value, fn)[0]};
  })[0];
}

Array argwhere(const Array& x, std::optional<std::int64_t> size,
               std::optional<std::int64_t> fill_value, std::source_location loc) {
  const std::int64_t n = static_size(x, size, "fj::argwhere");
  return staged("argwhere", "fj::argwhere", loc, x, [&](detail::GraphBuilder& b, ir::Atom a) {
    return std::vector<ir::Atom>{detail::lower_argwhere(b, a, n, fill_value)};
  })[0];
}

}  // namespace fj
