// fj::einsum(subscripts, operands...): jnp.einsum over arrays, tracers and expressions, staged
// as JAX stages it (lowering_einsum.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/lowering_einsum.hpp"

namespace fj {
namespace detail {

struct EinsumOp {
  std::string subscripts;
  // The subscripts are part of an eager expression's cache key.
  void key(std::vector<std::int64_t>& k) const {
    for (char c : subscripts) k.push_back(c);
    k.push_back(static_cast<std::int64_t>(subscripts.size()));
  }
  ir::Atom operator()(GraphBuilder& b, const std::vector<ir::Atom>& xs) const {
    return lower_einsum(b, subscripts, xs);
  }
};

}  // namespace detail

/// jnp.einsum: `fj::einsum("bqd,bkd->bqk", q, k)`; letters name axes, ',' separates operands,
/// '->' gives the output (without it: the letters used once, in order), '...' the leading axes.
template <class... A>
auto einsum(std::string subscripts, A&&... operands) {
  return detail::ListNode<detail::EinsumOp>{
      {}, {std::move(subscripts)}, std::vector<Array>{Array(std::forward<A>(operands))...}};
}

/// The same over a list of operands, for a count known only at run time (jnp.einsum(s, *xs)).
inline auto einsum(std::string subscripts, std::vector<Array> operands) {
  return detail::ListNode<detail::EinsumOp>{{}, {std::move(subscripts)}, std::move(operands)};
}

}  // namespace fj
