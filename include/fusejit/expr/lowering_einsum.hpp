// jnp.einsum's lowering (defined in lowering_einsum.cpp).
#pragma once
#include <string>
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.einsum(subscripts, *xs): letters, ',' between operands, an optional '->' and '...'.
/// One or two operands are staged exactly as JAX's _einsum stages them (reduce_sum for a letter
/// only one operand has, a diagonal mask for a letter repeated within an operand, dot_general
/// for a pair, a transpose into the output's order); more are contracted pairwise in the order
/// opt_einsum's path search picks for jnp.einsum (einsum_path.hpp). Subscripts that do not fit
/// the operands raise fj::ShapeError (counts, ranks, sizes) or fj::ValueError (the string).
Atom lower_einsum(GraphBuilder& b, const std::string& subscripts, const std::vector<Atom>& xs);

}  // namespace fj::detail
