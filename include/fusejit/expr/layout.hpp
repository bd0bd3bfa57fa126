// fj::tril, fj::triu and fj::outer (jnp's), over arrays, tracers and expressions.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "fusejit/expr/lowering_layout.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

struct TriOp {
  std::int64_t k;
  bool upper;
  void key(std::vector<std::int64_t>& out) const {
    out.push_back(k);
    out.push_back(upper);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_tri(b, x, k, upper); }
};
struct OuterOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_outer(b, x, y);
  }
};

}  // namespace detail

/// jnp.tril: x with the entries above the k-th diagonal of its last two axes zeroed.
template <detail::Operand A>
auto tril(A&& x, std::int64_t k = 0) {
  return detail::make_node(detail::TriOp{k, false}, std::forward<A>(x));
}
/// jnp.triu: x with the entries below the k-th diagonal of its last two axes zeroed.
template <detail::Operand A>
auto triu(A&& x, std::int64_t k = 0) {
  return detail::make_node(detail::TriOp{k, true}, std::forward<A>(x));
}
/// jnp.outer: the products of every element of a (flattened) with every element of b.
template <detail::Operand A, detail::Operand B>
auto outer(A&& a, B&& b) {
  return detail::make_node(detail::OuterOp{}, std::forward<A>(a), std::forward<B>(b));
}

}  // namespace fj
