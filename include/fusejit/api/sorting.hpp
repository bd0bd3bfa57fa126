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
/// lax.sort's keyword arguments: fj::lax::sort({keys, values}, {.num_keys = 1, .is_stable =
/// false}).
struct SortOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  int dimension = -1;               ///< the axis sorted along (the last by default)
  bool is_stable = true;            ///< equal keys keep their order (fusejit always sorts stably)
  int num_keys = 1;                 ///< how many leading operands are the lexicographic keys
};
/// lax.sort(operands, dimension=..., is_stable=..., num_keys=...) with keyword-style options.
inline std::vector<Array> sort(const std::vector<Array>& operands, const SortOptions& o,
                               std::source_location loc = std::source_location::current()) {
  return sort(operands, o.dimension, o.is_stable, o.num_keys, loc);
}
/// The k largest values along the last axis, largest first (NaN above everything, -NaN below;
/// equal values: the lower index first), and their i32 indices.
std::array<Array, 2> top_k(const Array& x, std::int64_t k,
                           std::source_location loc = std::source_location::current());

}  // namespace fj::lax
