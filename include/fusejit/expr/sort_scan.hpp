// Cumulative reductions and sorting of one array: jnp.cumsum / cumprod, lax.cumsum / cumprod /
// cummax / cummin, jnp.sort / argsort. lax.sort of several operands and lax.top_k, which have
// several results, are in api/sorting.hpp.
#pragma once
#include <optional>

#include "fusejit/expr/lowering_sort.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

struct CumulativeOp {
  ir::Prim prim;
  std::optional<int> axis;
  bool reverse = false, jnp = true;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v :
         {static_cast<std::int64_t>(prim), std::int64_t{axis.has_value()},
          std::int64_t{axis.value_or(0)}, std::int64_t{reverse}, std::int64_t{jnp}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    const std::string fn = std::string(jnp ? "fj::" : "fj::lax::") + std::string(ir::name(prim));
    return lower_cumulative(b, prim, x, axis, reverse, jnp, fn.c_str());
  }
};
struct SortOp {
  std::optional<int> axis;
  bool stable = true, descending = false, indices = false;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v : {std::int64_t{axis.has_value()}, std::int64_t{axis.value_or(0)},
                           std::int64_t{stable}, std::int64_t{descending}, std::int64_t{indices}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return indices ? lower_argsort(b, x, axis, stable, descending)
                   : lower_sort(b, x, axis, stable, descending);
  }
};

}  // namespace detail

/// Running sums along `axis` (jnp.cumsum); without an axis, of the flattened array. Bools
/// count as i32.
template <detail::Operand A>
auto cumsum(A&& x, std::optional<int> axis = std::nullopt) {
  return detail::make_node(detail::CumulativeOp{ir::Prim::cumsum, axis}, std::forward<A>(x));
}
/// Running products along `axis` (jnp.cumprod); without an axis, of the flattened array.
template <detail::Operand A>
auto cumprod(A&& x, std::optional<int> axis = std::nullopt) {
  return detail::make_node(detail::CumulativeOp{ir::Prim::cumprod, axis}, std::forward<A>(x));
}
/// x sorted along `axis` (jnp.sort; default the last; std::nullopt: flattened). NaNs sort last,
/// -0 and 0 are equal; `stable` keeps equal elements in order; `descending` reverses the result.
template <detail::Operand A>
auto sort(A&& x, std::optional<int> axis = -1, bool stable = true, bool descending = false) {
  return detail::make_node(detail::SortOp{axis, stable, descending, false}, std::forward<A>(x));
}
/// The i32 indices that sort x along `axis` (jnp.argsort); equal elements keep their order,
/// descending too.
template <detail::Operand A>
auto argsort(A&& x, std::optional<int> axis = -1, bool stable = true, bool descending = false) {
  return detail::make_node(detail::SortOp{axis, stable, descending, true}, std::forward<A>(x));
}
/// jnp.sort / jnp.argsort with keyword-style options: fj::sort(x, {.axis = 0, .descending =
/// true}).
///@{
template <detail::Operand A>
auto sort(A&& x, const SortOptions& o) {
  return sort(std::forward<A>(x), o.axis, o.stable, o.descending);
}
template <detail::Operand A>
auto argsort(A&& x, const SortOptions& o) {
  return argsort(std::forward<A>(x), o.axis, o.stable, o.descending);
}
///@}

namespace lax {
/// lax.cumsum / cumprod / cummax / cummin's keyword arguments:
/// fj::lax::cumsum(x, {.axis = 1, .reverse = true}).
struct CumulativeOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  int axis = 0;                     ///< the axis accumulated along
  bool reverse = false;             ///< accumulate from the end
};
#define FUSEJIT_LAX_CUMULATIVE(fn, P)                                                 \
  template <detail::Operand A>                                                        \
  auto fn(A&& x, int axis = 0, bool reverse = false) {                                \
    return detail::make_node(detail::CumulativeOp{ir::Prim::P, axis, reverse, false}, \
                             std::forward<A>(x));                                     \
  }                                                                                   \
  template <detail::Operand A>                                                        \
  auto fn(A&& x, const CumulativeOptions& o) {                                        \
    return fn(std::forward<A>(x), o.axis, o.reverse);                                 \
  }
/// lax.cumsum / cumprod / cummax / cummin: the primitive along `axis`, from the end when
/// `reverse`; integers wrap, max and min propagate NaN.
///@{
FUSEJIT_LAX_CUMULATIVE(cumsum, cumsum)
FUSEJIT_LAX_CUMULATIVE(cumprod, cumprod)
FUSEJIT_LAX_CUMULATIVE(cummax, cummax)
FUSEJIT_LAX_CUMULATIVE(cummin, cummin)
///@}
#undef FUSEJIT_LAX_CUMULATIVE
}  // namespace lax

}  // namespace fj
