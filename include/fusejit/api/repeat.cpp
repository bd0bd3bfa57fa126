// Definitions of api/repeat.hpp (implementation unit only): what JAX's _repeat decides from
// shapes and constants happens here, the staged composition in lowering_pad.cpp.
#include "fusejit/api/repeat.hpp"

#include <numeric>
#include <string>

#include "fusejit/api/factories.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_pad.hpp"
#include "fusejit/expr/node.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {

namespace repeat_detail {

constexpr const char* kFn = "fj::repeat";

// JAX's _repeat after the ravel of x (when no axis was given), with the counts an array: all
// of it staged, from the counts' ravel and broadcast on (lowering_pad.cpp). `axis` is
// nonnegative; a third operand, an empty array of x's dtype, when the total is 0.
struct RepeatArrayOp {
  std::int64_t total;
  int axis;
  void key(std::vector<std::int64_t>& k) const { k.insert(k.end(), {total, axis}); }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x, ir::Atom repeats) const {
    return detail::lower_repeat_array(b, x, repeats, total, axis, std::nullopt);
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x, ir::Atom repeats, ir::Atom empty) const {
    return detail::lower_repeat_array(b, x, repeats, total, axis, empty);
  }
};

// jnp.repeat's `a.ravel()` when no axis is given (a no-op for a 1-d array).
Array flattened(const Array& x, std::optional<int> axis) {
  if (axis || x.ndim() == 1) return x;
  return Array(fj::reshape(x, {x.size()}));
}

// The checks of counts and total that need only their shapes: `k` counts along `axis` of `a`.
void check_counts(const Array& a, int axis, std::int64_t k, std::int64_t total,
                  const std::string& counts) {
  if (total < 0)
    throw ValueError(std::string(kFn) + ": total_repeat_length must be nonnegative, got " +
                     std::to_string(total));
  if (a.ndim() == 0) {
    if (k != 1)
      throw ValueError(std::string(kFn) + ": a scalar x (" + a.aval().str() +
                       ") takes one count only, got repeats " + counts);
    return;
  }
  const std::int64_t n = a.shape()[static_cast<std::size_t>(axis)];
  if (k != 1 && k != n)
    throw ShapeError(std::string(kFn) + ": repeats " + counts + " has " + std::to_string(k) +
                     " counts for the " + std::to_string(n) + " elements along axis " +
                     std::to_string(axis) + " of " + a.aval().str());
}

// An empty array of x's dtype, which JAX reshapes into a total-0 result.
Array empty_like(const Array& a) { return zeros(Shape{0}, a.dtype()); }

int axis_of(const Array& a, std::optional<int> axis) {
  return a.ndim() == 0 ? 0 : detail::canonical_axis(axis.value_or(0), a.aval(), kFn);
}

}  // namespace repeat_detail

Array repeat(const Array& x, const Array& repeats, std::optional<int> axis,
             std::optional<std::int64_t> total_repeat_length) {
  using namespace repeat_detail;
  if (!is_int(repeats.dtype()))
    throw DTypeError(std::string(kFn) + ": repeats must be an integer array, got " +
                     repeats.aval().str());
  if (!total_repeat_length) {  // JAX reads the counts (concrete_or_error)
    if (repeats.is_traced())
      throw ConcretizationError(std::string(kFn) + ": repeats " + repeats.aval().str() +
                                " is traced, so the result's length is not static: pass "
                                "total_repeat_length");
    return repeat(x, Array(fj::astype(repeats, DType::i64)).to_vector<std::int64_t>(), axis);
  }
  const Array a = flattened(x, axis);
  const int ax = axis_of(a, axis);
  const std::int64_t total = *total_repeat_length;
  check_counts(a, ax, repeats.size(), total, repeats.aval().str());
  if (total == 0 && a.ndim() > 0)
    return Array(detail::make_node(RepeatArrayOp{total, ax}, a, repeats, empty_like(a)));
  return Array(detail::make_node(RepeatArrayOp{total, ax}, a, repeats));
}

Array repeat(const Array& x, const std::vector<std::int64_t>& repeats, std::optional<int> axis,
             std::optional<std::int64_t> total_repeat_length) {
  using namespace repeat_detail;
  std::string counts = "(";
  for (std::size_t i = 0; i < repeats.size(); ++i)
    counts += (i ? ", " : "") + std::to_string(repeats[i]);
  counts += ")";
  for (std::int64_t r : repeats)
    if (r < 0)  // as for one count (expr/pad_roll.hpp)
      throw ShapeError(std::string(kFn) + ": repeats must be nonnegative, got " + counts + " for " +
                       x.aval().str());
  std::vector<std::int32_t> per_element(repeats.begin(), repeats.end());
  if (total_repeat_length)  // JAX stages the rest on the counts, a constant
    return repeat(x,
                  detail::array_from(per_element.data(),
                                     Shape{static_cast<std::int64_t>(per_element.size())}),
                  axis, total_repeat_length);
  const Array a = flattened(x, axis);
  const int ax = axis_of(a, axis);
  // np.broadcast_to(repeats, [n]), as JAX does to counts it holds in NumPy; their sum is the
  // default total. What follows depends on nothing traced until the take.
  const std::int64_t n = a.ndim() == 0 ? 1 : a.shape()[static_cast<std::size_t>(ax)];
  if (a.ndim() > 0 && repeats.size() == 1)
    per_element.assign(static_cast<std::size_t>(n), static_cast<std::int32_t>(repeats[0]));
  const std::int64_t total =
      std::accumulate(per_element.begin(), per_element.end(), std::int64_t{0});
  check_counts(a, ax, static_cast<std::int64_t>(repeats.size()), total, counts);
  if (a.ndim() == 0) return Array(fj::broadcast_to(a, Shape{total}));  // full([total], a)
  if (total == 0) {                                                    // reshape(array([]), ...)
    std::vector<std::int64_t> shape = a.shape().to_vector();
    shape[static_cast<std::size_t>(ax)] = 0;
    return Array(
        detail::make_node(detail::IndexMapOp{ir::Prim::reshape, shape, {}, {}}, empty_like(a)));
  }
  if (n == 0) return a;
  const Array constant = detail::array_from(per_element.data(), Shape{n});
  return Array(detail::make_node(RepeatArrayOp{total, ax}, a, constant));
}

}  // namespace fj
