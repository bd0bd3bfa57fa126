// fj::diff, fj::ptp, fj::isclose, fj::allclose and fj::bincount (jnp's), staged as JAX 0.10.2
// stages them.
#pragma once
#include <cstdint>
#include <optional>

#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.diff(x, n, axis): the n-th difference along axis, x[1:] - x[:-1] applied n times (bools:
/// x[1:] != x[:-1]); n = 0 returns x. A scalar x or n < 0 is an fj::ValueError, an axis out of
/// range an fj::ShapeError.
Array diff(const Array& x, int n = 1, int axis = -1);
/// jnp.ptp: max - min over `axis` (every axis when none is given).
Array ptp(const Array& x, std::optional<int> axis = std::nullopt, bool keepdims = false);
/// jnp.isclose(a, b, rtol, atol, equal_nan): a == b, or b finite and |a - b| <= atol + rtol |b|,
/// elementwise after jnp's promotion (integers compare as floats); NaNs are close only with
/// equal_nan. rtol = 1e-5 and atol = 1e-8 unless given; as in JAX, a given tolerance is an
/// operand of the jit (a Python float), a default one a constant of the computation's type.
Array isclose(const Array& a, const Array& b, std::optional<double> rtol = std::nullopt,
              std::optional<double> atol = std::nullopt, bool equal_nan = false);
/// jnp.allclose: whether isclose holds everywhere (a bool scalar).
Array allclose(const Array& a, const Array& b, std::optional<double> rtol = std::nullopt,
               std::optional<double> atol = std::nullopt, bool equal_nan = false);
/// jnp.bincount(x, length=length, minlength=minlength): how often each value 0, 1, ... occurs
/// in the 1-d integer array x (negative values count as 0 and values past the length are
/// dropped, as JAX's clip and scatter do); int32 counts. Without `length` x must be concrete:
/// the length is max(minlength, max(x) + 1), as JAX reads it (fj::ConcretizationError under a
/// trace).
Array bincount(const Array& x, std::optional<std::int64_t> length = std::nullopt,
               std::int64_t minlength = 0);
/// jnp.bincount with weights (x's shape): the weights summed per value, in their dtype.
Array bincount(const Array& x, const Array& weights,
               std::optional<std::int64_t> length = std::nullopt, std::int64_t minlength = 0);

}  // namespace fj
