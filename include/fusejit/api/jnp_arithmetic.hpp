// jnp's integer and float-decomposition ufuncs composed of fusejit's operations as JAX composes
// them: gcd, lcm, ldexp, frexp, modf, divmod, float_power, spacing, logical_xor, invert and the
// bitwise_* names of the array API.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/promotion.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/special_functions.hpp"

namespace fj {
namespace detail::jnp_more {

/// Two operands converted to their common dtype (jnp's promote_dtypes, weak types included).
inline std::pair<Array, Array> promote2(const Array& a, const Array& b) {
  const TypedDType t =
      promote_types(TypedDType{a.dtype(), a.weak_type()}, TypedDType{b.dtype(), b.weak_type()});
  auto conv = [&](const Array& x) { return x.dtype() == t.dtype ? x : Array(astype(x, t.dtype)); };
  return {conv(a), conv(b)};
}
/// Two operands broadcast against each other (jnp.broadcast_arrays); `fn` names the caller.
inline std::pair<Array, Array> broadcast2(const Array& a, const Array& b, const char* fn) {
  for (int i = 1; i <= std::min(a.ndim(), b.ndim()); ++i) {
    const std::int64_t da = a.shape()[a.ndim() - i], db = b.shape()[b.ndim() - i];
    if (da != db && da != 1 && db != 1)
      throw ShapeError(std::string(fn) + ": x1 " + a.aval().str() + " and x2 " + b.aval().str() +
                       " do not broadcast together");
  }
  const Shape s = broadcast_shapes(a.shape(), b.shape(), fn);
  auto to = [&](const Array& x) { return x.shape() == s ? x : Array(broadcast_to(x, s)); };
  return {to(a), to(b)};
}
/// Both operands converted to one float dtype, as promote_args_inexact does.
inline std::pair<Array, Array> promote2_inexact(const Array& a, const Array& b) {
  auto [x, y] = promote2(a, b);
  return {inexact(x), inexact(y)};
}
/// Throws fj::DTypeError unless x holds integers (bool excluded, as JAX's integer check).
inline void require_integer(const Array& x, const char* fn, const char* arg) {
  if (!is_int(x.dtype()))
    throw DTypeError(std::string(fn) + ": " + arg + " must be an integer array, got " +
                     x.aval().str());
}
/// A non-weak scalar of dtype d holding the integer v (exact for every 64-bit pattern).
inline Array int_scalar(std::int64_t v, DType d) {
  if (d == DType::i64) return array(v);
  return array(static_cast<std::int32_t>(v));
}
/// lax.round with rounding_method AWAY_FROM_ZERO (lax.round's default, unlike jnp.round): the
/// truncation moved one away from zero when the dropped fraction is a half or more; exact.
inline Array round_away(const Array& d) {
  const Array t = trunc(d);
  return Array(where(abs(Array(d - t)) >= 0.5, Array(t + sign(d)), t));
}

}  // namespace detail::jnp_more

/// jnp.gcd(x1, x2): the greatest common divisor of |x1| and |x2|, elementwise (integers only,
/// fj::DTypeError otherwise), by JAX's while_loop of Euclid steps over the whole array.
inline Array gcd(const Array& x1_in, const Array& x2_in) {
  namespace M = detail::jnp_more;
  M::require_integer(x1_in, "fj::gcd", "x1");
  M::require_integer(x2_in, "fj::gcd", "x2");
  auto [p1, p2] = M::promote2(x1_in, x2_in);
  auto [x1, x2] = M::broadcast2(p1, p2, "fj::gcd");
  using C = std::tuple<Array, Array>;
  const C out = lax::while_loop([](const C& c) { return Array(Array(std::get<1>(c) != 0).any()); },
                                [](const C& c) {
                                  const Array& a = std::get<0>(c);
                                  const Array& b = std::get<1>(c);
                                  const Array nz = Array(b != 0);
                                  const Array a2 = Array(where(nz, b, a));
                                  const Array b2 =
                                      Array(where(nz, Array(lax::rem(a, b)), Array(zeros_like(b))));
                                  const Array lt = Array(a2 < b2);
                                  return C{Array(where(lt, b2, a2)), Array(where(lt, a2, b2))};
                                },
                                C{Array(abs(x1)), Array(abs(x2))});
  return std::get<0>(out);
}

/// jnp.lcm(x1, x2): the least common multiple of |x1| and |x2| (0 where either is 0).
inline Array lcm(const Array& x1_in, const Array& x2_in) {
  namespace M = detail::jnp_more;
  M::require_integer(x1_in, "fj::lcm", "x1");
  M::require_integer(x2_in, "fj::lcm", "x2");
  auto [p1, p2] = M::promote2(x1_in, x2_in);
  const Array x1 = Array(abs(p1)), x2 = Array(abs(p2));
  const Array d = gcd(x1, x2);
  // JAX divides by d even where it is 0 and selects 0 there; the divisor 1 in those places
  // gives the same selected values without relying on x // 0.
  const Array safe = Array(where(d == 0, Array(ones_like(d)), d));
  return Array(where(d == 0, Array(zeros_like(d)), Array(x1 * Array(floor_divide(x2, safe)))));
}

/// jnp.frexp(x): (mantissa, exponent) with x = mantissa * 2**exponent, |mantissa| in [0.5, 1)
/// and an int32 exponent; 0, inf and NaN are their own mantissa with exponent 0. Composed of
/// bitcasts and integer bit operations as JAX's _frexp, so subnormals are exact too.
inline std::pair<Array, Array> frexp(const Array& x_in) {
  const Array x = inexact(x_in);
  const bool f64 = x.dtype() == DType::f64;
  const DType it = f64 ? DType::i64 : DType::i32;
  const int nmant = f64 ? 52 : 23;
  const std::int64_t mask = f64 ? 0x7ff : 0xff, bias = f64 ? 1023 : 127;
  const double tiny =
      f64 ? std::numeric_limits<double>::min() : double(std::numeric_limits<float>::min());
  auto ic = [&](std::int64_t v) { return detail::jnp_more::int_scalar(v, it); };
  // _normalize_float: subnormals scaled into the normal range first, their exponent remembered.
  const Array small = Array(abs(x) < tiny);
  const Array xs = Array(where(small, Array(x * double(std::int64_t{1} << nmant)), x));
  Array e = Array(where(small, ic(-nmant), ic(0)));
  Array bits = lax::bitcast_convert_type(xs, it);
  e = Array(e + Array(Array(Array(bits >> ic(nmant)) & ic(mask)) - ic(bias) + ic(1)));
  bits = Array(bits & ic(~(mask << nmant)));
  bits = Array(bits | ic((bias - 1) << nmant));
  const Array m = lax::bitcast_convert_type(bits, x.dtype());
  const Array special = Array(logical_or(logical_or(isinf(x), isnan(x)), x == 0));
  e = Array(where(special, Array(zeros_like(e)), e));
  return {Array(where(special, x, m)), e.dtype() == DType::i32 ? e : Array(astype(e, DType::i32))};
}

/// jnp.ldexp(x1, x2): x1 * 2**x2 for an integer x2 (fj::DTypeError for a float x2), through
/// frexp so that a small x1 and a large x2 do not overflow on the way.
inline Array ldexp(const Array& x1_in, const Array& x2_in) {
  if (!is_int(x2_in.dtype()) && x2_in.dtype() != DType::bool_)
    throw DTypeError("fj::ldexp: x2 must be an integer array, got " + x2_in.aval().str() + " (x1 " +
                     x1_in.aval().str() + ")");
  const Array x1 = inexact(x1_in);
  const Array x2 = Array(astype(x2_in, x1.dtype()));
  auto [m0, e0] = frexp(x1);
  // JAX adds the exponents in x2's converted (float) dtype, as here.
  Array e = Array(Array(astype(e0, x2.dtype())) + x2);
  e = e.dtype() == x1.dtype() ? e : Array(astype(e, x1.dtype()));
  // The exponent may overflow by one and still give a finite result.
  const Array pos = Array(e > 0);
  const Array m = Array(where(pos, Array(m0 * 2.0), m0));
  e = Array(where(pos, Array(e - 1.0), e));
  const Array r = Array(m * Array(pow(2.0, e)));
  return Array(where(logical_or(isinf(x1), x1 == 0), x1, r));
}

/// jnp.modf(x): (fractional part, integral part), both with x's sign (floor for x >= 0, ceil
/// below).
inline std::pair<Array, Array> modf(const Array& x_in) {
  const Array x = inexact(x_in);
  const Array whole = Array(where(x >= 0, Array(floor(x)), Array(ceil(x))));
  return {Array(x - whole), whole};
}

/// jnp.divmod(x1, x2): (x1 // x2, x1 % x2) with Python's signs: floor_divide and remainder for
/// integers; for floats CPython's float_divmod (a lax.rem, a corrected quotient rounded away
/// from zero), as JAX composes it.
inline std::pair<Array, Array> divmod(const Array& x1_in, const Array& x2_in) {
  auto [x1, x2] = detail::jnp_more::promote2(x1_in, x2_in);
  (void)broadcast_shapes(x1.shape(), x2.shape(), "fj::divmod");
  if (!is_float(x1.dtype())) return {Array(floor_divide(x1, x2)), Array(x1 % x2)};
  Array mod = Array(lax::rem(x1, x2));
  const Array x1c = Array(where(x2 == 0, x1, Array(x1 - mod)));
  Array div = Array(x1c / x2);
  const Array ind = Array(logical_and(mod != 0, Array(sign(x2)) != Array(sign(mod))));
  mod = Array(where(ind, Array(mod + x2), mod));
  div = Array(where(ind, Array(div - 1.0), div));
  return {detail::jnp_more::round_away(div), mod};
}

/// jnp.float_power(x, y): x ** y with both operands first made floats (promote_args_inexact).
inline Array float_power(const Array& x_in, const Array& y_in) {
  auto [x, y] = detail::jnp_more::promote2_inexact(x_in, y_in);
  return Array(pow(x, y));
}

/// jnp.spacing(x): the distance from x to the next float away from zero (nextafter(x, +-inf)
/// - x), the smallest subnormal with x's sign where that difference is 0.
inline Array spacing(const Array& x_in) {
  const Array x = inexact(x_in);
  const bool f64 = x.dtype() == DType::f64;
  const double inf = std::numeric_limits<double>::infinity();
  const double sub = f64 ? std::numeric_limits<double>::denorm_min()
                         : double(std::numeric_limits<float>::denorm_min());
  const Array toward = Array(copysign(Array(full_like(x, inf)), x));
  const Array r = Array(Array(nextafter(x, toward)) - x);
  return Array(where(r == 0, Array(copysign(Array(full_like(x, sub)), x)), r));
}

/// jnp.logical_xor(x, y): whether exactly one of x and y is nonzero (bool).
template <detail::Operand A, detail::Operand B>
Array logical_xor(const A& x0, const B& y0) {
  auto [x, y] = detail::jnp_more::promote2(detail::as_array(x0), detail::as_array(y0));
  return Array(Array(x != 0) ^ Array(y != 0));
}

/// jnp.invert / jnp.bitwise_invert: ~x, the bits flipped (integers) or `not` (bools).
///@{
template <detail::Operand A>
auto invert(A&& x) {
  return bitwise_not(std::forward<A>(x));
}
template <detail::Operand A>
auto bitwise_invert(A&& x) {
  return bitwise_not(std::forward<A>(x));
}
///@}
/// jnp.bitwise_left_shift / bitwise_right_shift: the array API's names of left_shift and
/// right_shift.
///@{
template <detail::Operand A, detail::Operand B>
auto bitwise_left_shift(A&& x, B&& y) {
  return left_shift(std::forward<A>(x), std::forward<B>(y));
}
template <detail::Operand A, detail::Operand B>
auto bitwise_right_shift(A&& x, B&& y) {
  return right_shift(std::forward<A>(x), std::forward<B>(y));
}
///@}
/// jnp.bitwise_count(x): the number of set bits of |x|. JAX returns uint8, which fusejit lacks:
/// the counts keep x's integer dtype.
inline Array bitwise_count(const Array& x) {
  detail::jnp_more::require_integer(x, "fj::bitwise_count", "x");
  return Array(lax::population_count(Array(abs(x))));
}

}  // namespace fj
