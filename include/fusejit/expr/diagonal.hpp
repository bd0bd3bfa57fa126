// jnp.diagonal, jnp.trace, jnp.diag and jnp.linalg's diagonal and trace, with jax.Array's
// x.diagonal() and x.trace(): expression nodes over lowering_diagonal's compositions.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/lowering_diagonal.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {

namespace detail {
/// The node of fj::diagonal (trace = false) or fj::trace.
struct DiagonalOp {
  std::int64_t offset;
  int axis1, axis2;
  bool trace;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v : {offset, std::int64_t{axis1}, std::int64_t{axis2}, std::int64_t{trace}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return trace ? lower_trace(b, x, axis1, axis2, offset)
                 : lower_diagonal_of(b, x, offset, axis1, axis2);
  }
};
/// The node of fj::diag.
struct DiagOp {
  std::int64_t k;
  void key(std::vector<std::int64_t>& kk) const { kk.push_back(k); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom v) const { return lower_diag(b, v, k); }
};
}  // namespace detail

/// jnp.diagonal / jnp.trace's keyword arguments: fj::diagonal(x, {.offset = 1, .axis1 = 1,
/// .axis2 = 2}).
struct DiagonalOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::int64_t offset = 0;          ///< the diagonal: 0 main, > 0 above, < 0 below
  int axis1 = 0;                    ///< the axis of the rows
  int axis2 = 1;                    ///< the axis of the columns
};

/// jnp.diagonal(x, offset, axis1, axis2): x[..., i, i + offset] over axes axis1 and axis2
/// (which leave the shape; the diagonal becomes the last axis), empty when the diagonal lies
/// outside. fj::ValueError for x of rank < 2 or axis1 == axis2, fj::ShapeError for an axis out
/// of range. Example: fj::diagonal(fj::arange(9).reshape({3, 3}), 1) is [1, 5].
template <detail::Operand A>
auto diagonal(A&& x, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return detail::make_node(detail::DiagonalOp{offset, axis1, axis2, false}, std::forward<A>(x));
}
/// jnp.trace(x, offset, axis1, axis2): the sum of that diagonal (integers and bools sum in
/// int32, as jnp.sum); the errors of fj::diagonal.
template <detail::Operand A>
auto trace(A&& x, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return detail::make_node(detail::DiagonalOp{offset, axis1, axis2, true}, std::forward<A>(x));
}
/// jnp.diagonal / jnp.trace with keyword-style options.
///@{
template <detail::Operand A>
auto diagonal(A&& x, const DiagonalOptions& o) {
  return diagonal(std::forward<A>(x), o.offset, o.axis1, o.axis2);
}
template <detail::Operand A>
auto trace(A&& x, const DiagonalOptions& o) {
  return trace(std::forward<A>(x), o.offset, o.axis1, o.axis2);
}
///@}
/// jnp.diag(v, k): a 1-d v placed on diagonal k of an n x n matrix of zeros, n = len(v) + |k|;
/// a 2-d v's diagonal k (fj::diagonal). Another rank is an fj::ValueError.
template <detail::Operand A>
auto diag(A&& v, std::int64_t k = 0) {
  return detail::make_node(detail::DiagOp{k}, std::forward<A>(v));
}

namespace linalg {
/// jnp.linalg.diagonal(x, offset): the diagonals of the matrices in x's last two axes.
template <detail::Operand A>
auto diagonal(A&& x, std::int64_t offset = 0) {
  return fj::diagonal(std::forward<A>(x), offset, -2, -1);
}
/// jnp.linalg.trace(x, offset): the traces of the matrices in x's last two axes.
template <detail::Operand A>
auto trace(A&& x, std::int64_t offset = 0) {
  return fj::trace(std::forward<A>(x), offset, -2, -1);
}
}  // namespace linalg

// x.diagonal() and x.trace() (declared with fj::Array's methods), beside the free functions.
template <class S>
auto detail::ArrayMethods<S>::diagonal(std::int64_t offset, int axis1, int axis2) const {
  return fj::diagonal(self(), offset, axis1, axis2);
}
template <class S>
auto detail::ArrayMethods<S>::trace(std::int64_t offset, int axis1, int axis2) const {
  return fj::trace(self(), offset, axis1, axis2);
}

}  // namespace fj
