// jax.numpy's and lax's elementwise math beyond the basics (operators.hpp): inverse
// trigonometric and hyperbolic functions, special functions, rounding, float predicates, bit
// counts. jnp spellings under fj::, lax's under fj::lax::.
#pragma once
#include "fusejit/expr/lowering_math.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

/// A node op that lowers through one function of lowering_math.hpp.
template <Atom (*Lower)(GraphBuilder&, Atom)>
struct LowerOp1 {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return Lower(b, x); }
};
template <Atom (*Lower)(GraphBuilder&, Atom, Atom)>
struct LowerOp2 {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const { return Lower(b, x, y); }
};
template <Atom (*Lower)(GraphBuilder&, Atom, Atom, Atom)>
struct LowerOp3 {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y, ir::Atom z) const {
    return Lower(b, x, y, z);
  }
};
template <ir::Prim P>
struct FloatBinaryOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_float_binary(b, P, x, y);
  }
};
template <bool Base2>
struct LogAddExpOp {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    return lower_logaddexp(b, x, y, Base2);
  }
};

}  // namespace detail

#define FUSEJIT_MATH_UNARY(fn, OpType)                      \
  template <detail::Operand A>                              \
  auto fn(A&& a) {                                          \
    return detail::make_node(OpType{}, std::forward<A>(a)); \
  }
#define FUSEJIT_MATH_BINARY(fn, OpType)                                         \
  template <detail::Operand A, detail::Operand B>                               \
  auto fn(A&& a, B&& b) {                                                       \
    return detail::make_node(OpType{}, std::forward<A>(a), std::forward<B>(b)); \
  }

// One primitive each (integers become f32 first).
/// jnp.arcsin: the inverse sine, in radians (NaN outside [-1, 1]).
FUSEJIT_MATH_UNARY(arcsin, detail::UnaryOp<ir::Prim::asin>)
/// jnp.arccos: the inverse cosine, in radians (NaN outside [-1, 1]).
FUSEJIT_MATH_UNARY(arccos, detail::UnaryOp<ir::Prim::acos>)
/// jnp.arctan: the inverse tangent, in radians.
FUSEJIT_MATH_UNARY(arctan, detail::UnaryOp<ir::Prim::atan>)
/// jnp.sinh.
FUSEJIT_MATH_UNARY(sinh, detail::UnaryOp<ir::Prim::sinh>)
/// jnp.cosh.
FUSEJIT_MATH_UNARY(cosh, detail::UnaryOp<ir::Prim::cosh>)
/// jnp.arcsinh: the inverse hyperbolic sine.
FUSEJIT_MATH_UNARY(arcsinh, detail::UnaryOp<ir::Prim::asinh>)
/// jnp.arctanh: the inverse hyperbolic tangent (NaN outside [-1, 1]).
FUSEJIT_MATH_UNARY(arctanh, detail::UnaryOp<ir::Prim::atanh>)
/// jnp.cbrt: the real cube root (negative for negative x).
FUSEJIT_MATH_UNARY(cbrt, detail::UnaryOp<ir::Prim::cbrt>)
/// jnp.exp2: 2**x.
FUSEJIT_MATH_UNARY(exp2, detail::UnaryOp<ir::Prim::exp2>)
/// jax.scipy.special.erfc (lax.erfc): 1 - erf(x), accurate where erf(x) is near 1.
FUSEJIT_MATH_UNARY(erfc, detail::UnaryOp<ir::Prim::erfc>)
/// lax.lgamma: log |Gamma(x)|.
FUSEJIT_MATH_UNARY(lgamma, detail::UnaryOp<ir::Prim::lgamma>)
/// jax.scipy.special.gammaln: log |Gamma(x)|, the same primitive as lgamma.
FUSEJIT_MATH_UNARY(gammaln, detail::UnaryOp<ir::Prim::lgamma>)
/// jax.scipy.special.digamma (lax.digamma): the derivative of lgamma.
FUSEJIT_MATH_UNARY(digamma, detail::UnaryOp<ir::Prim::digamma>)
/// jnp.arctan2(y, x): the angle of the point (x, y), in [-pi, pi].
FUSEJIT_MATH_BINARY(arctan2, detail::FloatBinaryOp<ir::Prim::atan2>)
/// jnp.nextafter(x, y): the next float after x in the direction of y.
FUSEJIT_MATH_BINARY(nextafter, detail::FloatBinaryOp<ir::Prim::nextafter>)
/// jax.scipy.special.polygamma(m, x): the m-th derivative of digamma (NaN unless m is a whole
/// number >= 0); integer operands become floats.
FUSEJIT_MATH_BINARY(polygamma, detail::FloatBinaryOp<ir::Prim::polygamma>)
// Compositions, staged as JAX stages them.
/// jnp.arccosh: the inverse hyperbolic cosine (NaN below 1).
FUSEJIT_MATH_UNARY(arccosh, detail::LowerOp1<detail::lower_arccosh>)
/// jnp.log2: the base-2 logarithm.
FUSEJIT_MATH_UNARY(log2, detail::LowerOp1<detail::lower_log2>)
/// jnp.log10: the base-10 logarithm.
FUSEJIT_MATH_UNARY(log10, detail::LowerOp1<detail::lower_log10>)
/// jnp.trunc: rounded toward zero.
FUSEJIT_MATH_UNARY(trunc, detail::LowerOp1<detail::lower_trunc>)
/// Rounds halves to even (jnp.rint); fj::round is jnp.round, the same for floats.
FUSEJIT_MATH_UNARY(rint, detail::LowerOp1<detail::lower_rint>)
/// jnp.isnan: whether each element is NaN (bool; false for integers).
FUSEJIT_MATH_UNARY(isnan, detail::LowerOp1<detail::lower_isnan>)
/// jnp.isinf: whether each element is +-inf (bool; false for integers).
FUSEJIT_MATH_UNARY(isinf, detail::LowerOp1<detail::lower_isinf>)
/// jnp.i0: the modified Bessel function of the first kind, order 0, exp(|x|) bessel_i0e(|x|);
/// its derivative is 0 at x = 0 (JAX's custom_jvp).
FUSEJIT_MATH_UNARY(i0, detail::LowerOp1<detail::lower_i0>)
/// jnp.isfinite: neither NaN nor +-inf (bool; true for integers).
FUSEJIT_MATH_UNARY(isfinite, detail::LowerOp1<detail::lower_isfinite>)
/// jnp.signbit: whether the sign bit is set (true for -0.0 and negative NaN).
FUSEJIT_MATH_UNARY(signbit, detail::LowerOp1<detail::lower_signbit>)
/// jnp.square: x * x.
FUSEJIT_MATH_UNARY(square, detail::LowerOp1<detail::lower_square>)
/// jnp.reciprocal: 1 / x; an integer operand becomes a float first.
FUSEJIT_MATH_UNARY(reciprocal, detail::LowerOp1<detail::lower_reciprocal>)
/// jnp.copysign(x, y): |x| with the sign of y.
FUSEJIT_MATH_BINARY(copysign, detail::LowerOp2<detail::lower_copysign>)
/// jnp.hypot(x, y): sqrt(x**2 + y**2) without overflow or underflow in between.
FUSEJIT_MATH_BINARY(hypot, detail::LowerOp2<detail::lower_hypot>)
/// jnp.fmod(x, y): C's fmod, the remainder with the sign of x.
FUSEJIT_MATH_BINARY(fmod, detail::LowerOp2<detail::lower_fmod>)
/// jnp.logaddexp(x, y): log(exp(x) + exp(y)) without overflow.
FUSEJIT_MATH_BINARY(logaddexp, detail::LogAddExpOp<false>)
/// jnp.logaddexp2(x, y): log2(2**x + 2**y) without overflow.
FUSEJIT_MATH_BINARY(logaddexp2, detail::LogAddExpOp<true>)

// NumPy 2's short spellings, which jnp has too.
/// jnp.asin, NumPy 2's spelling of fj::arcsin.
FUSEJIT_MATH_UNARY(asin, detail::UnaryOp<ir::Prim::asin>)
/// jnp.acos, NumPy 2's spelling of fj::arccos.
FUSEJIT_MATH_UNARY(acos, detail::UnaryOp<ir::Prim::acos>)
/// jnp.atan, NumPy 2's spelling of fj::arctan.
FUSEJIT_MATH_UNARY(atan, detail::UnaryOp<ir::Prim::atan>)
/// jnp.asinh, NumPy 2's spelling of fj::arcsinh.
FUSEJIT_MATH_UNARY(asinh, detail::UnaryOp<ir::Prim::asinh>)
/// jnp.acosh, NumPy 2's spelling of fj::arccosh.
FUSEJIT_MATH_UNARY(acosh, detail::LowerOp1<detail::lower_arccosh>)
/// jnp.atanh, NumPy 2's spelling of fj::arctanh.
FUSEJIT_MATH_UNARY(atanh, detail::UnaryOp<ir::Prim::atanh>)
/// jnp.atan2, NumPy 2's spelling of fj::arctan2.
FUSEJIT_MATH_BINARY(atan2, detail::FloatBinaryOp<ir::Prim::atan2>)

namespace lax {
// lax's spellings: the primitive itself (an integer operand of a float function becomes f32, as
// for fj::exp; a float operand of population_count or clz raises fj::DTypeError).
/// lax.asin: the asin primitive.
FUSEJIT_MATH_UNARY(asin, detail::UnaryOp<ir::Prim::asin>)
/// lax.acos: the acos primitive.
FUSEJIT_MATH_UNARY(acos, detail::UnaryOp<ir::Prim::acos>)
/// lax.atan: the atan primitive.
FUSEJIT_MATH_UNARY(atan, detail::UnaryOp<ir::Prim::atan>)
/// lax.acosh: the acosh primitive (fj::arccosh stages jnp's composition instead).
FUSEJIT_MATH_UNARY(acosh, detail::UnaryOp<ir::Prim::acosh>)
/// lax.is_finite: whether each element is neither NaN nor +-inf (bool).
FUSEJIT_MATH_UNARY(is_finite, detail::UnaryOp<ir::Prim::is_finite>)
/// lax.square: the square primitive, x * x.
FUSEJIT_MATH_UNARY(square, detail::UnaryOp<ir::Prim::square>)
/// lax.population_count: the number of set bits of each integer.
FUSEJIT_MATH_UNARY(population_count, detail::UnaryOp<ir::Prim::population_count>)
/// lax.clz: the number of leading zero bits of each integer.
FUSEJIT_MATH_UNARY(clz, detail::UnaryOp<ir::Prim::clz>)
/// lax.atan2(y, x): the atan2 primitive.
FUSEJIT_MATH_BINARY(atan2, detail::BinaryOp<ir::Prim::atan2>)
/// lax.nextafter(x, y): the nextafter primitive.
FUSEJIT_MATH_BINARY(nextafter, detail::BinaryOp<ir::Prim::nextafter>)
/// lax.polygamma(m, x): the polygamma primitive.
FUSEJIT_MATH_BINARY(polygamma, detail::BinaryOp<ir::Prim::polygamma>)
/// lax.bessel_i0e: exp(-|x|) I0(x), the exponentially scaled modified Bessel function of order 0.
FUSEJIT_MATH_UNARY(bessel_i0e, detail::UnaryOp<ir::Prim::bessel_i0e>)
/// lax.bessel_i1e: exp(-|x|) I1(x), the exponentially scaled modified Bessel function of order 1.
FUSEJIT_MATH_UNARY(bessel_i1e, detail::UnaryOp<ir::Prim::bessel_i1e>)
/// lax.zeta(x, q): the Hurwitz zeta function, sum over k >= 0 of (q + k)^-x (NaN for x < 1; no
/// derivative, as in JAX).
FUSEJIT_MATH_BINARY(zeta, detail::BinaryOp<ir::Prim::zeta>)
/// lax.igamma(a, x): the regularized lower incomplete gamma function P(a, x).
FUSEJIT_MATH_BINARY(igamma, detail::BinaryOp<ir::Prim::igamma>)
/// lax.igammac(a, x): the regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x).
FUSEJIT_MATH_BINARY(igammac, detail::BinaryOp<ir::Prim::igammac>)
/// lax.igamma_grad_a(a, x): the derivative of P(a, x) in a.
FUSEJIT_MATH_BINARY(igamma_grad_a, detail::BinaryOp<ir::Prim::igamma_grad_a>)
/// lax.random_gamma_grad(a, x): the derivative in a of a Gamma(a) sample x (the implicit
/// reparameterization gradient, -(dP/da) / (dP/dx)).
FUSEJIT_MATH_BINARY(random_gamma_grad, detail::BinaryOp<ir::Prim::random_gamma_grad>)
/// C's remainder (the result has x's sign); fj's % is Python's (the divisor's sign).
FUSEJIT_MATH_BINARY(rem, detail::LowerOp2<detail::lower_rem>)
/// lax.clamp(min, x, max): x limited to [min, max] elementwise, NaNs propagated; min and max are
/// scalars or x's shape, of x's dtype (C++ scalars of its kind take it).
template <detail::Operand L, detail::Operand X, detail::Operand H>
auto clamp(L&& min, X&& x, H&& max) {
  return detail::make_node(detail::LowerOp3<detail::lower_clamp>{}, std::forward<L>(min),
                           std::forward<X>(x), std::forward<H>(max));
}
}  // namespace lax

#undef FUSEJIT_MATH_UNARY
#undef FUSEJIT_MATH_BINARY

}  // namespace fj
