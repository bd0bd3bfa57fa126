// lax.sort of several operands and lax.top_k: the sorting functions with several results, each
// one equation (as JAX stages them), or run eagerly outside a trace.
#pragma once
#include <array>
#include <cstdint>
#include <source_location>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj::lax {

/// The operands (one shape) sorted together along `dimension` by the first `num_keys` of them,
/// lexicographically (NaNs last, -0 == 0); one result per operand.
std::vector<Array> sort(const std::vector<Array>& operands, int dimension = -1,
                        bool is_stable = true, int num_keys = 1,
                        std::source_location loc = std::source_location::current());
/// The k largest values along the last axis, largest first (NaN above everything, -NaN below;
/// equal values: the lower index first), and their i32 indices.
std::array<Array, 2> top_k(const Array& x, std::int64_t k,
                           std::source_location loc = std::source_location::current());

}  // namespace fj::lax
