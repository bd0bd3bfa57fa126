// jnp's ufunc names for operators and small elementwise compositions: add, subtract, ...,
// less_equal, absolute, deg2rad, fmax, heaviside, sinc, remainder, isposinf, amax, around.
#pragma once
#include <initializer_list>
#include <limits>
#include <numbers>
#include <utility>

#include "fusejit/api/pytree/traced.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/operators.hpp"

namespace fj {

/// jnp.add, subtract, multiply, true_divide: the operators +, -, *, / with jnp's promotion
/// and broadcasting.
///@{
template <detail::Operand A, detail::Operand B>
auto add(A&& a, B&& b) {
  return std::forward<A>(a) + std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto subtract(A&& a, B&& b) {
  return std::forward<A>(a) - std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto multiply(A&& a, B&& b) {
  return std::forward<A>(a) * std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto true_divide(A&& a, B&& b) {
  return std::forward<A>(a) / std::forward<B>(b);
}
///@}
/// jnp.divide: true division, as jnp.true_divide (integers give floats).
template <detail::Operand A, detail::Operand B>
auto divide(A&& a, B&& b) {
  return std::forward<A>(a) / std::forward<B>(b);
}
/// jnp.power: x ** y, as fj::pow.
template <detail::Operand A, detail::Operand B>
auto power(A&& a, B&& b) {
  return pow(std::forward<A>(a), std::forward<B>(b));
}
/// jnp.equal, not_equal, less, less_equal, greater, greater_equal: the comparisons (bool).
///@{
template <detail::Operand A, detail::Operand B>
auto equal(A&& a, B&& b) {
  return std::forward<A>(a) == std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto not_equal(A&& a, B&& b) {
  return std::forward<A>(a) != std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto less(A&& a, B&& b) {
  return std::forward<A>(a) < std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto less_equal(A&& a, B&& b) {
  return std::forward<A>(a) <= std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto greater(A&& a, B&& b) {
  return std::forward<A>(a) > std::forward<B>(b);
}
template <detail::Operand A, detail::Operand B>
auto greater_equal(A&& a, B&& b) {
  return std::forward<A>(a) >= std::forward<B>(b);
}
///@}
/// jnp.negative and jnp.positive: -x and x.
///@{
template <detail::Operand A>
auto negative(A&& a) {
  return -std::forward<A>(a);
}
template <detail::Operand A>
Array positive(const A& a) {
  return detail::as_array(a);
}
///@}
/// jnp.absolute and jnp.fabs: |x| (fj::abs).
///@{
template <detail::Operand A>
auto absolute(A&& a) {
  return abs(std::forward<A>(a));
}
template <detail::Operand A>
auto fabs(A&& a) {
  return abs(std::forward<A>(a));
}
///@}
/// jnp.deg2rad / radians: x * pi / 180; jnp.rad2deg / degrees: x * 180 / pi (JAX multiplies by
/// the constant, as here).
///@{
template <detail::Operand A>
auto deg2rad(A&& a) {
  return std::forward<A>(a) * (std::numbers::pi / 180);
}
template <detail::Operand A>
auto radians(A&& a) {
  return deg2rad(std::forward<A>(a));
}
template <detail::Operand A>
auto rad2deg(A&& a) {
  return std::forward<A>(a) * (180 / std::numbers::pi);
}
template <detail::Operand A>
auto degrees(A&& a) {
  return rad2deg(std::forward<A>(a));
}
///@}
/// jnp.amax / jnp.amin: fj::max / fj::min (the reductions), in each of their forms.
///@{
template <detail::Operand A>
auto amax(A&& a) {
  return max(std::forward<A>(a));
}
template <detail::Operand A>
auto amax(A&& a, std::initializer_list<int> axes, bool keepdims = false) {
  return max(std::forward<A>(a), axes, keepdims);
}
template <detail::Operand A>
auto amax(A&& a, const ReduceOptions& o) {
  return max(std::forward<A>(a), o);
}
template <detail::Operand A>
auto amin(A&& a) {
  return min(std::forward<A>(a));
}
template <detail::Operand A>
auto amin(A&& a, std::initializer_list<int> axes, bool keepdims = false) {
  return min(std::forward<A>(a), axes, keepdims);
}
template <detail::Operand A>
auto amin(A&& a, const ReduceOptions& o) {
  return min(std::forward<A>(a), o);
}
///@}
/// jnp.around: fj::round (halves to even).
template <detail::Operand A>
auto around(A&& a) {
  return round(std::forward<A>(a));
}
/// jnp.fmax / fmin: the larger (smaller) of a and b, the other one where one is NaN.
///@{
template <detail::Operand A, detail::Operand B>
Array fmax(const A& a0, const B& b0) {
  const Array a = detail::as_array(a0), b = detail::as_array(b0);
  return Array(where(logical_or(a > b, isnan(b)), a, b));
}
template <detail::Operand A, detail::Operand B>
Array fmin(const A& a0, const B& b0) {
  const Array a = detail::as_array(a0), b = detail::as_array(b0);
  return Array(where(logical_or(a < b, isnan(b)), a, b));
}
///@}
/// jnp.heaviside(x1, x2): 0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0, NaN where x1 is NaN.
template <detail::Operand A, detail::Operand B>
Array heaviside(const A& x10, const B& x20) {
  const Array x1 = detail::as_array(x10), x2 = detail::as_array(x20);
  // JAX's order of selects; a NaN x1 is neither < 0 nor > 0 and is kept.
  return Array(where(x1 < 0, 0.0, where(x1 > 0, 1.0, where(isnan(x1), x1, x2))));
}
/// jnp.sinc: sin(pi x) / (pi x), 1 at 0.
template <detail::Operand A>
Array sinc(const A& x0) {
  const Array x = detail::as_array(x0);
  const Array px = Array(x * std::numbers::pi);
  const Array safe = Array(where(x == 0, 1.0, px));
  return Array(where(x == 0, 1.0, Array(sin(safe) / safe)));
}
/// jnp.remainder / jnp.mod: x1 - floor(x1 / x2) * x2, with x2's sign (fj's %, Python's).
///@{
template <detail::Operand A, detail::Operand B>
auto remainder(A&& x1, B&& x2) {
  return std::forward<A>(x1) % std::forward<B>(x2);
}
template <detail::Operand A, detail::Operand B>
auto mod(A&& x1, B&& x2) {
  return std::forward<A>(x1) % std::forward<B>(x2);
}
///@}
/// jnp.isposinf / isneginf: whether each element is +inf (-inf).
///@{
template <detail::Operand A>
auto isposinf(A&& x) {
  return std::forward<A>(x) == std::numeric_limits<double>::infinity();
}
template <detail::Operand A>
auto isneginf(A&& x) {
  return std::forward<A>(x) == -std::numeric_limits<double>::infinity();
}
///@}

}  // namespace fj
