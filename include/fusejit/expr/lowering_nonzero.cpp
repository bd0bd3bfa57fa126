// Definitions of jnp.nonzero's and jnp.argwhere's staging (implementation unit only).
#include "fusejit/expr/lowering_nonzero.hpp"

#include <string>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_numeric.hpp"
#include "fusejit/expr/lowering_sort.hpp"

namespace fj::detail {

namespace {

// A literal of the default int dtype (int32, or int64 in x64 mode): a Python int (weak) or a
// NumPy int (not).
Atom int_literal(std::int64_t v, bool weak) {
  return Atom::of_literal(ir::Literal::of(v, weak).cast(default_int_dtype(), weak));
}

}  // namespace

std::vector<Atom> lower_nonzero(GraphBuilder& b, Atom x, std::int64_t size,
                                std::optional<std::int64_t> fill, const char* fn) {
  const Shape s = b.aval(x).shape;
  const Atom mask =
      b.aval(x).dtype == DType::bool_ ? x : lower_binary(b, Prim::ne, x, int_literal(0, true));
  std::vector<Atom> out;
  if (s.size() == 0 || size == 0) {  // zeros(size, int) per axis
    for (int d = 0; d < s.rank(); ++d)
      out.push_back(
          lower_full(b, Shape{size}, ir::Literal::of(0, false).cast(default_int_dtype(), false)));
    return out;
  }
  // bincount(cumsum(mask), length=size), summed up again: each index's flat position.
  const Atom counts = lower_cumulative(b, Prim::cumsum, mask, std::nullopt, false, true, fn);
  const Atom bins = lower_bincount(b, counts, std::nullopt, size, fn);
  const Atom flat = lower_cumulative(b, Prim::cumsum, bins, std::nullopt, false, true, fn);
  // (flat // stride) % extent per axis, the strides NumPy ints, the extents Python ints.
  std::int64_t stride = s.size();
  for (int d = 0; d < s.rank(); ++d) {
    stride /= s[d];
    out.push_back(lower_remainder(b, lower_floor_divide(b, flat, int_literal(stride, false)),
                                  int_literal(s[d], true)));
  }
  if (fill) {  // where(arange(size) >= mask.sum(), fill, index)
    const Atom positions = lower_iota(b, default_int_dtype(), Shape{size}, 0);
    const Atom count = lower_reduce(b, Prim::reduce_sum, mask, {}, true, false);
    const Atom past = lower_binary(b, Prim::ge, positions, count);
    for (Atom& o : out) o = lower_where(b, past, int_literal(*fill, true), o);
  }
  return out;
}

Atom lower_argwhere(GraphBuilder& b, Atom x, std::int64_t size, std::optional<std::int64_t> fill) {
  const char* fn = "fj::argwhere";
  const int rank = b.aval(x).shape.rank();
  const Atom x1 =
      call_named(b, "atleast_1d", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
        return g.aval(in[0]).shape.rank() == 0 ? lower_broadcast_to(g, in[0], Shape{1}) : in[0];
      });
  std::vector<Atom> rows;
  for (const Atom& i : lower_nonzero(b, x1, size, fill, fn))  // jnp.vstack: atleast_2d each
    rows.push_back(
        call_named(b, "atleast_2d", {i}, [](GraphBuilder& g, const std::vector<Atom>& in) {
          const std::int64_t n = g.aval(in[0]).shape[0];
          return broadcast_np(g, in[0], {1, n}, {1}, 1);
        }));
  const Atom stacked = rows.size() == 1 ? rows[0] : lower_join(b, Prim::concatenate, rows, 0);
  const Atom t = lower_transpose(b, stacked, {1, 0});
  if (rank > 0) return t;
  // A scalar's rows have no entries: result[:0].reshape(size, 0).
  return lower_reshape(b, lower_slice(b, t, {0, 0}, {0, 1}, {1, 1}), {size, 0});
}

}  // namespace fj::detail
