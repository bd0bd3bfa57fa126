// The jnp elementwise functions that JAX stages as compositions (log2, trunc, isinf, signbit,
// copysign, hypot, logaddexp, fmod, ...), defined in lowering_math.cpp.
#pragma once
#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.arccosh: a `jit[name=arccosh]` around acosh.
Atom lower_arccosh(GraphBuilder& b, Atom x);
/// jnp.log2: log(x) / log(2), the second log staged on a literal, as JAX does.
Atom lower_log2(GraphBuilder& b, Atom x);
/// jnp.log10: log(x) * (1 / log 10).
Atom lower_log10(GraphBuilder& b, Atom x);
/// jnp.trunc: `jit[name=trunc]`, where(x < 0, ceil x, floor x); integers unchanged.
Atom lower_trunc(GraphBuilder& b, Atom x);
/// jnp.rint: `jit[name=rint]` around round[rounding_method=1]; integers become f32.
Atom lower_rint(GraphBuilder& b, Atom x);
/// jnp.isnan: x != x.
Atom lower_isnan(GraphBuilder& b, Atom x);
/// jnp.isinf: `jit[name=isinf]`, |x| == inf; false for integers.
Atom lower_isinf(GraphBuilder& b, Atom x);
/// jnp.isfinite: is_finite on floats, true for integers.
Atom lower_isfinite(GraphBuilder& b, Atom x);
/// jnp.signbit: `jit[name=signbit]`, the float's sign bit (set for -0 and negative NaNs).
Atom lower_signbit(GraphBuilder& b, Atom x);
/// jnp.copysign: `jit[name=copysign]`, |x| with y's sign bit.
Atom lower_copysign(GraphBuilder& b, Atom x, Atom y);
/// jnp.hypot: `jit[name=hypot]`, sqrt(x^2 + y^2) without overflow.
Atom lower_hypot(GraphBuilder& b, Atom x, Atom y);
/// jnp.logaddexp (base2: logaddexp2): log(e^x + e^y) without overflow.
Atom lower_logaddexp(GraphBuilder& b, Atom x, Atom y, bool base2);
/// jnp.fmod: `jit[name=fmod]` around rem (the result has x's sign).
Atom lower_fmod(GraphBuilder& b, Atom x, Atom y);
/// lax.rem: C's remainder, no promotion beyond lax's.
Atom lower_rem(GraphBuilder& b, Atom x, Atom y);
/// lax.clamp(lo, x, hi): the primitive; a C++ scalar bound of x's kind (float or integer) takes
/// x's dtype, as a Python scalar does; other dtypes than x's raise fj::DTypeError, bounds that
/// are neither scalars nor x's shape fj::ShapeError.
Atom lower_clamp(GraphBuilder& b, Atom lo, Atom x, Atom hi);
/// jnp.reciprocal: integer_pow[y=-1] of x as a float.
Atom lower_reciprocal(GraphBuilder& b, Atom x);
/// jnp.square: the square primitive; bools become i32.
Atom lower_square(GraphBuilder& b, Atom x);
/// jnp.i0: custom_jvp_call[name=_i0] around exp(|x|) * bessel_i0e(|x|), derivative 0 at 0.
Atom lower_i0(GraphBuilder& b, Atom x);
/// A float-only binary primitive (atan2, nextafter) with jnp's promote_args_inexact.
Atom lower_float_binary(GraphBuilder& b, Prim p, Atom x, Atom y);

}  // namespace fj::detail
