// Operators and free functions over fj::Array, fj::Tracer, expressions and C++ scalars.
#pragma once
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

// At least one operand must be an array or expression, so `2 + 3` stays C++ arithmetic.
#define FUSEJIT_BINARY_OPERATOR(sym, OpType)                               \
  template <Operand A, Operand B>                                          \
  requires(ArrayLike<A> || ArrayLike<B>) auto operator sym(A&& a, B&& b) { \
    return make_node(OpType{}, std::forward<A>(a), std::forward<B>(b));    \
  }
FUSEJIT_BINARY_OPERATOR(+, BinaryOp<ir::Prim::add>)
FUSEJIT_BINARY_OPERATOR(-, BinaryOp<ir::Prim::sub>)
FUSEJIT_BINARY_OPERATOR(*, BinaryOp<ir::Prim::mul>)
FUSEJIT_BINARY_OPERATOR(/, TrueDivideOp)
FUSEJIT_BINARY_OPERATOR(%, RemainderOp)
FUSEJIT_BINARY_OPERATOR(<, BinaryOp<ir::Prim::lt>)
FUSEJIT_BINARY_OPERATOR(<=, BinaryOp<ir::Prim::le>)
FUSEJIT_BINARY_OPERATOR(>, BinaryOp<ir::Prim::gt>)
FUSEJIT_BINARY_OPERATOR(>=, BinaryOp<ir::Prim::ge>)
FUSEJIT_BINARY_OPERATOR(==, BinaryOp<ir::Prim::eq>)
FUSEJIT_BINARY_OPERATOR(!=, BinaryOp<ir::Prim::ne>)
// Bitwise on integers, logical on bools; floats raise fj::DTypeError.
FUSEJIT_BINARY_OPERATOR(&, BitwiseOp<ir::Prim::and_>)
FUSEJIT_BINARY_OPERATOR(|, BitwiseOp<ir::Prim::or_>)
FUSEJIT_BINARY_OPERATOR(^, BitwiseOp<ir::Prim::xor_>)
FUSEJIT_BINARY_OPERATOR(<<, ShiftOp<true>)
FUSEJIT_BINARY_OPERATOR(>>, ShiftOp<false>)
#undef FUSEJIT_BINARY_OPERATOR

template <ArrayLike A>
auto operator-(A&& a) {
  return make_node(UnaryOp<ir::Prim::neg>{}, std::forward<A>(a));
}
template <ArrayLike A>
auto operator~(A&& a) {
  return make_node(BitwiseNotOp{}, std::forward<A>(a));
}

}  // namespace detail

using detail::operator+;
using detail::operator-;
using detail::operator*;
using detail::operator/;
using detail::operator%;
using detail::operator<;
using detail::operator<=;
using detail::operator>;
using detail::operator>=;
using detail::operator==;
using detail::operator!=;
using detail::operator&;
using detail::operator|;
using detail::operator^;
using detail::operator~;
using detail::operator<<;
using detail::operator>>;

#define FUSEJIT_UNARY_FUNCTION(fn, OpType)                  \
  template <detail::Operand A>                              \
  auto fn(A&& a) {                                          \
    return detail::make_node(OpType{}, std::forward<A>(a)); \
  }
/// jnp.exp: e**x elementwise; an integer operand becomes a float first, as in JAX.
FUSEJIT_UNARY_FUNCTION(exp, detail::UnaryOp<ir::Prim::exp>)
/// jnp.log: the natural logarithm (NaN below 0, -inf at 0).
FUSEJIT_UNARY_FUNCTION(log, detail::UnaryOp<ir::Prim::log>)
/// jnp.log1p: log(1 + x), accurate near 0.
FUSEJIT_UNARY_FUNCTION(log1p, detail::UnaryOp<ir::Prim::log1p>)
/// jnp.expm1: exp(x) - 1, accurate near 0.
FUSEJIT_UNARY_FUNCTION(expm1, detail::UnaryOp<ir::Prim::expm1>)
/// jnp.sin, in radians.
FUSEJIT_UNARY_FUNCTION(sin, detail::UnaryOp<ir::Prim::sin>)
/// jnp.cos, in radians.
FUSEJIT_UNARY_FUNCTION(cos, detail::UnaryOp<ir::Prim::cos>)
/// jnp.tan, in radians.
FUSEJIT_UNARY_FUNCTION(tan, detail::UnaryOp<ir::Prim::tan>)
/// jnp.tanh.
FUSEJIT_UNARY_FUNCTION(tanh, detail::UnaryOp<ir::Prim::tanh>)
/// jnp.sqrt (NaN below 0).
FUSEJIT_UNARY_FUNCTION(sqrt, detail::UnaryOp<ir::Prim::sqrt>)
/// lax.rsqrt: 1 / sqrt(x).
FUSEJIT_UNARY_FUNCTION(rsqrt, detail::UnaryOp<ir::Prim::rsqrt>)
/// jnp.abs: |x| elementwise.
FUSEJIT_UNARY_FUNCTION(abs, detail::UnaryOp<ir::Prim::abs>)
/// jnp.sign: -1, 0 or 1 by the sign of x (NaN stays NaN).
FUSEJIT_UNARY_FUNCTION(sign, detail::UnaryOp<ir::Prim::sign>)
/// jnp.floor: the largest whole number <= x.
FUSEJIT_UNARY_FUNCTION(floor, detail::UnaryOp<ir::Prim::floor>)
/// jnp.ceil: the smallest whole number >= x.
FUSEJIT_UNARY_FUNCTION(ceil, detail::UnaryOp<ir::Prim::ceil>)
/// lax.logistic (jax.nn.sigmoid): 1 / (1 + exp(-x)).
FUSEJIT_UNARY_FUNCTION(logistic, detail::UnaryOp<ir::Prim::logistic>)
/// jax.scipy.special.erf (lax.erf): the error function.
FUSEJIT_UNARY_FUNCTION(erf, detail::UnaryOp<ir::Prim::erf>)
/// lax.erf_inv (jax.scipy.special.erfinv): XLA's ErfInv32 for f32; erf_inv(+-1) = +-FLT_MAX.
FUSEJIT_UNARY_FUNCTION(erf_inv, detail::UnaryOp<ir::Prim::erf_inv>)
/// jnp.round: to the nearest whole number, halves to even; integers are returned as they are.
FUSEJIT_UNARY_FUNCTION(round, detail::RoundOp)
/// jnp.logical_not: x == 0 for numbers, `not` for bools; the result is bool.
FUSEJIT_UNARY_FUNCTION(logical_not, detail::LogicalNotOp)
/// jnp.bitwise_not (~x): the bits flipped on integers, `not` on bools; floats raise fj::DTypeError.
FUSEJIT_UNARY_FUNCTION(bitwise_not, detail::BitwiseNotOp)
#undef FUSEJIT_UNARY_FUNCTION

#define FUSEJIT_BINARY_FUNCTION(fn, OpType)                                     \
  template <detail::Operand A, detail::Operand B>                               \
  auto fn(A&& a, B&& b) {                                                       \
    return detail::make_node(OpType{}, std::forward<A>(a), std::forward<B>(b)); \
  }
/// jnp.maximum: the elementwise maximum, broadcasting; NaN propagates.
FUSEJIT_BINARY_FUNCTION(maximum, detail::BinaryOp<ir::Prim::max>)
/// jnp.minimum: the elementwise minimum, broadcasting; NaN propagates.
FUSEJIT_BINARY_FUNCTION(minimum, detail::BinaryOp<ir::Prim::min>)
/// jnp.logical_and: both nonzero; the result is bool.
FUSEJIT_BINARY_FUNCTION(logical_and, detail::LogicalOp<ir::Prim::and_>)
/// jnp.logical_or: either nonzero; the result is bool.
FUSEJIT_BINARY_FUNCTION(logical_or, detail::LogicalOp<ir::Prim::or_>)
/// jnp.bitwise_and (x & y) on integers and bools; floats raise fj::DTypeError.
FUSEJIT_BINARY_FUNCTION(bitwise_and, detail::BitwiseOp<ir::Prim::and_>)
/// jnp.bitwise_or (x | y) on integers and bools; floats raise fj::DTypeError.
FUSEJIT_BINARY_FUNCTION(bitwise_or, detail::BitwiseOp<ir::Prim::or_>)
/// jnp.bitwise_xor (x ^ y) on integers and bools; floats raise fj::DTypeError.
FUSEJIT_BINARY_FUNCTION(bitwise_xor, detail::BitwiseOp<ir::Prim::xor_>)
/// jnp.left_shift (x << y) on integers.
FUSEJIT_BINARY_FUNCTION(left_shift, detail::ShiftOp<true>)
/// jnp.right_shift (x >> y): arithmetic on signed integers, logical on unsigned.
FUSEJIT_BINARY_FUNCTION(right_shift, detail::ShiftOp<false>)
/// jnp.floor_divide (Python's x // y): the quotient rounded toward -inf.
FUSEJIT_BINARY_FUNCTION(floor_divide, detail::FloorDivideOp)
#undef FUSEJIT_BINARY_FUNCTION

/// x ** n for a C++ integer n: `integer_pow[y=n]` (lax.integer_pow), by repeated squaring;
/// integers wrap, a negative n on floats is 1 / x**|n| and on integers a DTypeError.
template <detail::Operand A>
auto integer_pow(A&& x, std::int64_t n) {
  return detail::make_node(detail::IntegerPowOp{n}, std::forward<A>(x));
}
/// jnp.power: an integral C++ exponent stages `integer_pow[y=n]` as `x ** 2` does in JAX;
/// any other exponent (a float, an array) stages `pow` on the operands promoted to a float.
template <detail::Operand A, detail::Operand B>
auto pow(A&& x, B&& y) {
  if constexpr (std::is_integral_v<std::remove_cvref_t<B>>)
    return integer_pow(std::forward<A>(x), static_cast<std::int64_t>(y));
  else
    return detail::make_node(detail::PowOp{}, std::forward<A>(x), std::forward<B>(y));
}

// Reductions, as jnp's: fn(x) reduces every axis; fn(x, {axes...}, keepdims) the listed ones
// (negative axes count from the end). Over an empty axis they give the identity: 0 for sum,
// 1 for prod, -inf (or the lowest integer) for max, +inf (or the highest) for min.
#define FUSEJIT_REDUCTION(fn, prim, is_mean)                                                       \
  template <detail::Operand A>                                                                     \
  auto fn(A&& x) {                                                                                 \
    return detail::make_node(detail::ReduceOp{prim, {}, true, false, is_mean},                     \
                             std::forward<A>(x));                                                  \
  }                                                                                                \
  template <detail::Operand A>                                                                     \
  auto fn(A&& x, std::initializer_list<int> axes, bool keepdims = false) {                         \
    return detail::make_node(                                                                      \
        detail::ReduceOp{prim, std::vector<int>(axes), false, keepdims, is_mean},                  \
        std::forward<A>(x));                                                                       \
  }                                                                                                \
  template <detail::Operand A>                                                                     \
  auto fn(A&& x, const ReduceOptions& o) {                                                         \
    return detail::make_node(detail::ReduceOp{prim, o.axis.list, o.axis.all, o.keepdims, is_mean}, \
                             std::forward<A>(x));                                                  \
  }
/// jnp.sum: fj::sum(x), or fj::sum(x, {0}, true) over axis 0 keeping it, or with keyword-style
/// options fj::sum(x, {.axis = 0, .keepdims = true}) (every reduction below takes them too).
///@{
FUSEJIT_REDUCTION(sum, ir::Prim::reduce_sum, false)
///@}
/// jnp.prod: the product over every axis, or the listed ones.
///@{
FUSEJIT_REDUCTION(prod, ir::Prim::reduce_prod, false)
///@}
/// jnp.max: the maximum over every axis, or the listed ones; NaN propagates.
///@{
FUSEJIT_REDUCTION(max, ir::Prim::reduce_max, false)
///@}
/// jnp.min: the minimum over every axis, or the listed ones; NaN propagates.
///@{
FUSEJIT_REDUCTION(min, ir::Prim::reduce_min, false)
///@}
/// jnp.all: whether every element is nonzero (a bool array).
///@{
FUSEJIT_REDUCTION(all, ir::Prim::reduce_and, false)
///@}
/// jnp.any: whether any element is nonzero (a bool array).
///@{
FUSEJIT_REDUCTION(any, ir::Prim::reduce_or, false)
///@}
/// jnp.mean: the sum divided by the number of reduced elements; integers average in a float.
///@{
FUSEJIT_REDUCTION(mean, ir::Prim::reduce_sum, true)
///@}
#undef FUSEJIT_REDUCTION

/// Axes reversed (x.T in NumPy), or permuted: the result's axis i is the operand's perm[i].
template <detail::Operand A>
auto transpose(A&& x, std::initializer_list<std::int64_t> perm = {}) {
  return detail::make_node(detail::IndexMapOp{ir::Prim::transpose, perm, {}, {}},
                           std::forward<A>(x));
}
/// The same elements in row-major order with another shape; one size may be -1.
template <detail::Operand A>
auto reshape(A&& x, std::initializer_list<std::int64_t> sizes) {
  return detail::make_node(detail::IndexMapOp{ir::Prim::reshape, sizes, {}, {}},
                           std::forward<A>(x));
}
/// x[start:stop:step] along every axis, with static bounds; negative bounds count from the end.
template <detail::Operand A>
auto slice(A&& x, std::initializer_list<std::int64_t> start,
           std::initializer_list<std::int64_t> stop,
           std::initializer_list<std::int64_t> step = {}) {
  return detail::make_node(detail::IndexMapOp{ir::Prim::slice, start, stop, step},
                           std::forward<A>(x));
}

/// Elementwise `cond ? x : y`, broadcasting all three (jnp.where).
template <detail::Operand C, detail::Operand A, detail::Operand B>
auto where(C&& c, A&& x, B&& y) {
  return detail::make_node(detail::WhereOp{}, std::forward<C>(c), std::forward<A>(x),
                           std::forward<B>(y));
}
/// Elementwise min(max(x, lo), hi) (jnp.clip).
template <detail::Operand A, detail::Operand L, detail::Operand H>
auto clip(A&& x, L&& lo, H&& hi) {
  return detail::make_node(detail::ClipOp{}, std::forward<A>(x), std::forward<L>(lo),
                           std::forward<H>(hi));
}
/// Conversion to another dtype; floats to ints truncate toward zero.
template <detail::Operand A>
auto astype(A&& x, DType to) {
  return detail::make_node(detail::AstypeOp{to}, std::forward<A>(x));
}

}  // namespace fj
