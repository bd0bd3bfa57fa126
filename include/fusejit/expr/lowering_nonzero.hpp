// jnp.nonzero, jnp.flatnonzero and jnp.argwhere with a static size, staged as JAX 0.10.2 stages
// them (defined in lowering_nonzero.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.nonzero(x, size=size, fill_value=fill) for x of rank >= 1: one i32 array of `size`
/// indices per axis of x, the nonzero elements' in row-major order, cut at `size` or padded
/// (with zeros, or `fill` where given). As JAX: the mask's cumsum counted into `size` bins by
/// bincount (a scatter-add, out-of-range counts dropped), cumsum'd again into flat positions,
/// each axis's index by floor_divide and remainder; `fill` through a jnp.where against
/// arange(size) >= the count.
std::vector<Atom> lower_nonzero(GraphBuilder& b, Atom x, std::int64_t size,
                                std::optional<std::int64_t> fill, const char* fn);
/// jnp.argwhere(x, size=size, fill_value=fill): the nonzero indices as rows (size, rank of x),
/// jnp.vstack's atleast_2d jits and concatenate, transposed; a scalar x has rank-0 rows.
Atom lower_argwhere(GraphBuilder& b, Atom x, std::int64_t size, std::optional<std::int64_t> fill);

}  // namespace fj::detail
