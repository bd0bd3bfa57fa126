// Helpers the jnp lowerings share, defined in lowering.cpp and used by lowering_library.cpp too.
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// An operand's dtype with its weak-type flag, for promotion.
TypedDType typed(const GraphBuilder& b, const Atom& a);

/// A reduction's result `r` broadcast back to rank in.rank() with size 1 on the reduced `axes`
/// (keepdims=True).
Atom keep_dims(GraphBuilder& b, Atom r, const Shape& in, const std::vector<std::int64_t>& axes);

}  // namespace fj::detail
