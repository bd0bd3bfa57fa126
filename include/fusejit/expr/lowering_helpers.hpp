// Helpers the jnp lowerings share, defined in lowering.cpp and used by lowering_library.cpp and
// lowering_math.cpp too.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// An operand's dtype with its weak-type flag, for promotion.
TypedDType typed(const GraphBuilder& b, const Atom& a);

/// jnp's to_inexact_dtype: integers and bools become f32, keeping the weak flag.
TypedDType to_inexact(TypedDType t);
/// jnp's promote_shapes: an operand of lower rank (but not rank 0) gets leading 1s.
Atom rank_promote(GraphBuilder& b, Atom a, int rank);
/// jnp's promote_args_numeric: one dtype (bool becomes i32, keeping the weak flag), then leading
/// 1s for the lower rank; `fn` names the caller in a broadcasting error.
std::pair<Atom, Atom> promote_args_numeric(GraphBuilder& b, Atom x, Atom y, const char* fn);
/// Both operands converted to t (each in turn, as jnp does), then leading 1s for the lower rank
/// (a scalar stays a scalar); shapes that do not broadcast raise fj::ShapeError naming fn.
std::pair<Atom, Atom> convert_and_rank_promote(GraphBuilder& b, Atom x, Atom y, TypedDType t,
                                               const char* fn);
/// lax.full_like(a, v): a literal for a scalar, else a broadcast_in_dim of one.
Atom full_like(GraphBuilder& b, Atom a, int v);

/// A reduction's result `r` broadcast back to rank in.rank() with size 1 on the reduced `axes`
/// (keepdims=True).
Atom keep_dims(GraphBuilder& b, Atom r, const Shape& in, const std::vector<std::int64_t>& axes);

/// broadcast_in_dim of x to `shape` along `dims`, the entries from `first_np` on printed as
/// NumPy ints (the hidden `broadcast_dimensions@np` flags), as JAX's batching rules leave
/// dims they shift with np.add (`(0,) + np.add(1, dims)`).
Atom broadcast_np(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& dims, std::size_t first_np);

}  // namespace fj::detail
