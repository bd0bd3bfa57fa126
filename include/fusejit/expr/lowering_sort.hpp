// jnp/lax-level lowerings of the cumulative reductions and of sorting (defined in
// lowering_sort.cpp).
#pragma once
#include <optional>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.cumsum / cumprod (`jnp`: a `jit[name=...]` equation; bools and integers accumulate as
/// i32; no axis flattens first) or lax.cumsum / cumprod / cummax / cummin (`jnp` false: the
/// primitive alone, with `reverse`). `fn` names the caller in errors.
Atom lower_cumulative(GraphBuilder& b, Prim p, Atom x, std::optional<int> axis, bool reverse,
                      bool jnp, const char* fn);
/// jnp.sort: `jit[name=sort]` around sort[dimension is_stable num_keys=1], then rev when
/// descending; no axis flattens first.
Atom lower_sort(GraphBuilder& b, Atom x, std::optional<int> axis, bool stable, bool descending);
/// jnp.argsort: `jit[name=argsort]`, an i32 iota sorted along with x (both reversed first and
/// the result reversed after when descending, which keeps equal keys in order).
Atom lower_argsort(GraphBuilder& b, Atom x, std::optional<int> axis, bool stable, bool descending);
/// lax.sort of several operands, the first num_keys of them the keys: one result per operand.
std::vector<Atom> lower_lax_sort(GraphBuilder& b, const std::vector<Atom>& xs, int dimension,
                                 bool is_stable, int num_keys);
/// lax.top_k along the last axis: the values and their i32 indices.
std::vector<Atom> lower_top_k(GraphBuilder& b, Atom x, std::int64_t k);

}  // namespace fj::detail
