// Definitions of collectives.hpp: JAX's wrappers of the collective primitives (implementation
// unit only).
#include "fusejit/distributed/collectives.hpp"

#include "fusejit/api/subtrace.hpp"
#include "fusejit/distributed/axis_env.hpp"
#include "fusejit/expr/lowering.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/ir/collective_params.hpp"

namespace fj::lax {

namespace col = ir::collective;

namespace {

// The axis's size, checking it is bound (outside every trace nothing is).
std::int64_t bound_size(const std::string& axis, const char* fn) {
  return distributed::detail::axis_size(axis, std::string("fj::lax::") + fn);
}

ir::GraphBuilder& builder() { return detail::current_trace()->builder; }

Array emit(ir::Prim p, const Array& x, ir::Params params) {
  return detail::atom_array(builder().emit1(p, {detail::lower_arg(x)}, std::move(params)));
}

int checked_axis(const char* fn, const char* what, int axis, int bound, const Array& x) {
  const int a = axis < 0 ? axis + bound : axis;
  if (a < 0 || a >= bound)
    throw ShapeError(std::string("fj::lax::") + fn + ": " + what + " " + std::to_string(axis) +
                     " is out of range for an operand of shape " + x.shape().str());
  return a;
}

}  // namespace

Array psum(const Array& x, const std::string& axis_name) {
  bound_size(axis_name, "psum");
  return emit(ir::Prim::psum, x, col::reduction(axis_name));
}

Array pmean(const Array& x, const std::string& axis_name) {
  const std::int64_t n = bound_size(axis_name, "pmean");
  return Array(psum(x, axis_name) / static_cast<double>(n));
}

Array pmax(const Array& x, const std::string& axis_name) {
  bound_size(axis_name, "pmax");
  return emit(ir::Prim::pmax, x, col::reduction(axis_name));
}

Array pmin(const Array& x, const std::string& axis_name) {
  bound_size(axis_name, "pmin");
  return emit(ir::Prim::pmin, x, col::reduction(axis_name));
}

Array all_gather(const Array& x, const std::string& axis_name, int axis, bool tiled) {
  const std::int64_t n = bound_size(axis_name, "all_gather");
  const int a = checked_axis("all_gather", "axis", axis, x.ndim() + (tiled ? 0 : 1), x);
  return emit(ir::Prim::all_gather, x,
              col::gather_or_scatter(ir::Prim::all_gather, axis_name, n, a, tiled));
}

Array psum_scatter(const Array& x, const std::string& axis_name, int scatter_dimension,
                   bool tiled) {
  const std::int64_t n = bound_size(axis_name, "psum_scatter");
  const int a = checked_axis("psum_scatter", "scatter_dimension", scatter_dimension, x.ndim(), x);
  return emit(ir::Prim::reduce_scatter, x,
              col::gather_or_scatter(ir::Prim::reduce_scatter, axis_name, n, a, tiled));
}

Array all_to_all(const Array& x, const std::string& axis_name, int split_axis, int concat_axis,
                 bool tiled) {
  const std::int64_t n = bound_size(axis_name, "all_to_all");
  int split = checked_axis("all_to_all", "split_axis", split_axis, x.ndim(), x);
  int concat = checked_axis("all_to_all", "concat_axis", concat_axis, x.ndim(), x);
  const std::int64_t m = x.shape()[split];
  if (tiled ? m % n != 0 : m != n)
    throw ShapeError("fj::lax::all_to_all: split_axis " + std::to_string(split_axis) +
                     " of shape " + x.shape().str() + " has size " + std::to_string(m) +
                     (tiled ? ", not a multiple of" : ", not equal to") + " the size " +
                     std::to_string(n) + " of axis '" + axis_name + "'");
  ir::Atom v = detail::lower_arg(x);
  // Not tiled, JAX inserts the gathered axis at concat_axis and drops split_axis after.
  if (!tiled && split != concat) {
    if (split < concat) ++concat;
    v = detail::lower_expand_dims(builder(), v, {concat});
    if (concat <= split) ++split;
  }
  v = builder().emit1(ir::Prim::all_to_all, {v},
                      col::all_to_all(axis_name, n, split, concat, tiled));
  if (!tiled && split != concat) v = detail::lower_squeeze(builder(), v, {split}, false);
  return detail::atom_array(v);
}

Array ppermute(const Array& x, const std::string& axis_name,
               const std::vector<std::pair<int, int>>& perm) {
  const std::int64_t n = bound_size(axis_name, "ppermute");
  std::vector<bool> src(static_cast<std::size_t>(n)), dst(src);
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  for (const auto& [s, d] : perm) {
    if (s < 0 || s >= n || d < 0 || d >= n)
      throw ValueError("fj::lax::ppermute: the pair (" + std::to_string(s) + ", " +
                       std::to_string(d) + ") is out of range for axis '" + axis_name +
                       "' of size " + std::to_string(n));
    if (src[static_cast<std::size_t>(s)] || dst[static_cast<std::size_t>(d)])
      throw ValueError("fj::lax::ppermute: perm sends from or to one device twice (pair (" +
                       std::to_string(s) + ", " + std::to_string(d) + ")) on axis '" + axis_name +
                       "'");
    src[static_cast<std::size_t>(s)] = dst[static_cast<std::size_t>(d)] = true;
    pairs.emplace_back(s, d);
  }
  return emit(ir::Prim::ppermute, x, col::ppermute(axis_name, pairs));
}

Array axis_index(const std::string& axis_name) {
  bound_size(axis_name, "axis_index");
  return detail::atom_array(builder().emit1(ir::Prim::axis_index, {}, col::axis_index(axis_name)));
}

}  // namespace fj::lax
