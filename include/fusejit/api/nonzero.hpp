// fj::nonzero, fj::flatnonzero and fj::argwhere: the indices of an array's nonzero elements
// (jnp.nonzero, jnp.flatnonzero, jnp.argwhere), with a static size under transformations.
#pragma once
#include <cstdint>
#include <optional>
#include <source_location>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.nonzero(x, size=size, fill_value=fill_value): one int32 array per axis of x (rank >= 1)
/// holding the indices of x's nonzero (true) elements in row-major order. `size` fixes their
/// length, cutting the indices or padding them with 0 (or `fill_value`); without it x must be
/// concrete (its count of nonzeros is the length), as JAX needs a static size under jit
/// (fj::ConcretizationError). A scalar x is an fj::ValueError, as in JAX.
std::vector<Array> nonzero(const Array& x, std::optional<std::int64_t> size = std::nullopt,
                           std::optional<std::int64_t> fill_value = std::nullopt,
                           std::source_location loc = std::source_location::current());
/// jnp.flatnonzero: nonzero of the flattened x (its one index array).
Array flatnonzero(const Array& x, std::optional<std::int64_t> size = std::nullopt,
                  std::optional<std::int64_t> fill_value = std::nullopt,
                  std::source_location loc = std::source_location::current());
/// jnp.argwhere: the nonzero indices as rows, an int32 array (count or size, rank of x).
Array argwhere(const Array& x, std::optional<std::int64_t> size = std::nullopt,
               std::optional<std::int64_t> fill_value = std::nullopt,
               std::source_location loc = std::source_location::current());
/// jnp.nonzero / flatnonzero / argwhere's keyword arguments: fj::nonzero(x, {.size = 4,
/// .fill_value = -1}).
struct NonzeroOptions {
  detail::KeywordsOnly keywords{};           ///< holds nothing: designated initializers only
  std::optional<std::int64_t> size{};        ///< the static length of the indices (jit needs it)
  std::optional<std::int64_t> fill_value{};  ///< what pads them past the count (0 by default)
};
/// The nonzero functions with keyword-style options.
///@{
inline std::vector<Array> nonzero(const Array& x, const NonzeroOptions& o,
                                  std::source_location loc = std::source_location::current()) {
  return nonzero(x, o.size, o.fill_value, loc);
}
inline Array flatnonzero(const Array& x, const NonzeroOptions& o,
                         std::source_location loc = std::source_location::current()) {
  return flatnonzero(x, o.size, o.fill_value, loc);
}
inline Array argwhere(const Array& x, const NonzeroOptions& o,
                      std::source_location loc = std::source_location::current()) {
  return argwhere(x, o.size, o.fill_value, loc);
}
///@}

}  // namespace fj
