// lax.split: an array cut into consecutive pieces along one axis, one equation (as JAX stages
// it), or run eagerly outside a trace.
#pragma once
#include <cstdint>
#include <source_location>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj::lax {

/// `operand` cut along `axis` into pieces of the given `sizes`, which must sum to its extent
/// there (jax.lax.split): the transpose of lax.concatenate.
std::vector<Array> split(const Array& operand, const std::vector<std::int64_t>& sizes, int axis = 0,
                         std::source_location loc = std::source_location::current());

}  // namespace fj::lax
