// jnp.diff, jnp.ptp, jnp.isclose, jnp.allclose and jnp.bincount, staged as JAX 0.10.2 stages
// them (defined in lowering_numeric.cpp).
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.diff(x, n, axis): `jit[name=diff]`, n times x[1:] - x[:-1] along axis (not_equal for
/// bools); x of rank >= 1, n >= 0, axis in range (checked by the caller).
Atom lower_diff(GraphBuilder& b, Atom x, int n, int axis);
/// jnp.ptp(x, axis, keepdims): `jit[name=_ptp]`, amax - amin.
Atom lower_ptp(GraphBuilder& b, Atom x, std::optional<int> axis, bool keepdims);
/// A tolerance of jnp.isclose: a jit operand (a Python float passed to it, a weak literal, or
/// `atom`, the caller's own operand; converted inside), or the default, a constant of the
/// computation's float type.
struct Tolerance {
  double value;
  bool operand;
  std::optional<Atom> atom = std::nullopt;
};
/// jnp.isclose(x, y, rtol, atol, equal_nan): `jit[name=isclose]` on the promoted operands; the
/// operand tolerances follow x and y in the order JAX's call passes them (`rtol_first`: by
/// position, as allclose does; else by keyword, atol before rtol).
Atom lower_isclose(GraphBuilder& b, Atom x, Atom y, Tolerance rtol, Tolerance atol, bool equal_nan,
                   bool rtol_first);
/// jnp.allclose: `jit[name=allclose]` (the operand tolerances after x and y, by keyword), all
/// of isclose (which gets both tolerances by position).
Atom lower_allclose(GraphBuilder& b, Atom x, Atom y, Tolerance rtol, Tolerance atol,
                    bool equal_nan);
/// jnp.bincount(x, weights, length=length): zeros(length, weights' dtype or i32) scattered
/// into at clip(x, 0) with fill_or_drop (indices past the length are dropped).
Atom lower_bincount(GraphBuilder& b, Atom x, std::optional<Atom> weights, std::int64_t length,
                    const char* fn);

}  // namespace fj::detail
