// jnp.tril, jnp.triu and jnp.outer's lowerings (defined in lowering_layout.cpp).
#pragma once
#include <cstdint>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.tril (upper false: keep k on and below the k-th diagonal) or jnp.triu (upper: on and
/// above), over the last two axes: `jit[name=tril]` around iotas, ge and select_n, as JAX.
Atom lower_tri(GraphBuilder& b, Atom x, std::int64_t k, bool upper);
/// jnp.outer: both promoted to one dtype, flattened, then a[:, None] * b[None, :].
Atom lower_outer(GraphBuilder& b, Atom x, Atom y);

}  // namespace fj::detail
