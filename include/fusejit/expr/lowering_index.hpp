// jnp-level lowerings of indexing with integer arrays, ints and ranges mixed (x(...), fj::take,
// fj::take_along_axis) and of the functional updates x.at(...).get() / .set(v) / .add(v) /
// .mul(v) / .min(v) / .max(v), staged as JAX 0.10.2 stages them (defined in lowering_index.cpp).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "fusejit/expr/lowering.hpp"
#include "fusejit/ir/gather_dims.hpp"

namespace fj::detail {

/// gather's params as JAX orders them; `fill` is printed as fill_value ("None": JAX's default).
ir::Params gather_params(const ir::IndexDims& d, const std::vector<std::int64_t>& slice_sizes,
                         ir::GatherMode mode, const std::string& fill, bool sorted, bool unique);
/// A scatter's params as JAX orders them; update_jaxpr is None for `scatter`, else the one
/// add, mul, min or max of two `dtype` scalars.
ir::Params scatter_params(Prim scatter, const ir::IndexDims& d, DType dtype, ir::GatherMode mode,
                          bool sorted, bool unique);
/// lax.gather with JAX's params; `fill` is printed as fill_value ("None": JAX's default).
Atom lower_gather(GraphBuilder& b, Atom x, Atom indices, const ir::IndexDims& d,
                  const std::vector<std::int64_t>& slice_sizes, ir::GatherMode mode,
                  const std::string& fill, bool sorted = false, bool unique = false);
/// lax.scatter, scatter_add, scatter_mul, scatter_min or scatter_max (`scatter`) with JAX's
/// params.
Atom lower_scatter(GraphBuilder& b, Prim scatter, Atom x, Atom indices, Atom updates,
                   const ir::IndexDims& d, ir::GatherMode mode, bool sorted = false,
                   bool unique = false);

/// x[items] (`updates` empty) or x.at[items].set/add/mul/min/max(updates, mode) (the scatter
/// `update` says which), staged as jnp's rewriting_take and _scatter_update stage them: static
/// indices read through slice, scalar array ones through dynamic_slice, the rest through
/// gather or the scatter. `arrays` are the array items' atoms in
/// order; `fn` names the caller in errors.
Atom lower_index_tuple(GraphBuilder& b, Atom x, const std::vector<AtItem>& items,
                       const std::vector<Atom>& arrays, std::optional<Atom> updates, Prim update,
                       ir::GatherMode mode, const char* fn);
/// jnp.take(x, idx, axis, mode): `jit[name=_take]`; no axis takes from the flattened x. fill
/// mode (JAX's default) fills out-of-range reads with NaN (integers: their lowest value).
Atom lower_take(GraphBuilder& b, Atom x, Atom idx, std::optional<int> axis, ir::GatherMode mode);
/// jnp.take_along_axis: `jit[name=take_along_axis]`, a gather batched over the other axes.
Atom lower_take_along_axis(GraphBuilder& b, Atom x, Atom idx, int axis);

}  // namespace fj::detail
