// fj::repeat with a count per element (jnp.repeat with an array of `repeats`): counts known in
// C++, or an integer array, traced or not, with the result's length (total_repeat_length).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.repeat(x, repeats, axis, total_repeat_length=total): element i along `axis` (std::nullopt:
/// of the flattened array) `repeats[i]` times, as JAX's _repeat stages it (a roll, a scatter, two
/// cumsums and a take). `repeats` is an integer array: one count, or one per element. A traced
/// one needs `total_repeat_length`, the result's length along the axis (it must be static): the
/// counts are then not checked, and as in JAX, counts past the total are dropped and a total past
/// their sum repeats the last element. A concrete one is read here, as JAX reads a constant: its
/// sum is the default total. A scalar x with an axis is repeated total times (one count only).
Array repeat(const Array& x, const Array& repeats, std::optional<int> axis,
             std::optional<std::int64_t> total_repeat_length = std::nullopt);

/// jnp.repeat(x, counts, axis, total_repeat_length) with counts known in C++ (JAX: a NumPy array
/// of them): staged as JAX stages a constant, an int32 constvar with one count per element.
/// Counts must be nonnegative (fj::ShapeError, as for one count); the total defaults to their sum.
Array repeat(const Array& x, const std::vector<std::int64_t>& repeats,
             std::optional<int> axis = std::nullopt,
             std::optional<std::int64_t> total_repeat_length = std::nullopt);

}  // namespace fj
