// One functor per primitive of primitives.def: which dtypes it takes and its lax semantics.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "fusejit/backend/reference/float_math.hpp"
#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/erf_inv.hpp"
#include "fusejit/ir/integer_pow.hpp"
#include "fusejit/ir/threefry.hpp"

// Each elementwise functor states:
//   arity, accepts<T> (operand dtypes it lowers), result<T> (output element type),
//   vectorized<T> (use simd(batch...) for floats, else scalar(T...)),
// and provides simd() for the float batches and/or scalar() for the rest.
namespace fj::detail::reference::ops {

template <class T>
inline constexpr bool is_fp = std::is_floating_point_v<T>;
template <class T>
inline constexpr bool is_num = !std::is_same_v<T, bool>;
template <class T>
using unsigned_of = std::make_unsigned_t<T>;

// Integer arithmetic wraps like XLA's (wrapping.hpp).
using reference::wrap_add;
using reference::wrap_mul;
using reference::wrap_neg;
using reference::wrap_sub;

struct FloatUnary {
  static constexpr int arity = 1;
  template <class T>
  static constexpr bool accepts = is_fp<T>;
  template <class T>
  static constexpr bool vectorized = true;
  template <class T>
  using result = T;
};
struct NumUnary : FloatUnary {
  template <class T>
  static constexpr bool accepts = is_num<T>;
};
struct Arith {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool accepts = is_num<T>;
  template <class T>
  static constexpr bool vectorized = true;
  template <class T>
  using result = T;
};
// A float binary op computed one element at a time with a C library function (more accurate,
// or right in more corner cases, than a vectorized form would be).
struct ScalarFloatBinary : Arith {
  template <class T>
  static constexpr bool accepts = is_fp<T>;
  template <class T>
  static constexpr bool vectorized = false;
};
struct Compare {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool accepts = true;
  template <class T>
  static constexpr bool vectorized = false;
  template <class T>
  using result = bool;
};
struct IntArith : Arith {
  template <class T>
  static constexpr bool accepts = std::is_integral_v<T> && !std::is_same_v<T, bool>;
  template <class T>
  static constexpr bool vectorized = false;
};
struct Logical {
  static constexpr int arity = 2;
  template <class T>
  static constexpr bool accepts = !is_fp<T>;
  template <class T>
  static constexpr bool vectorized = false;
  template <class T>
  using result = T;
};

// ---- unary -------------------------------------------------------------------------------
struct stop_gradient : NumUnary {
  template <class B>
  B simd(const B& x) const {
    return x;
  }
  template <class T>
  T scalar(T x) const {
    return x;
  }
};
// The identity, as stop_gradient (copy only matters to JAX, which may not alias the result).
struct copy : stop_gradient {};
struct checkpoint_name : stop_gradient {};
struct neg : NumUnary {
  template <class B>
  B simd(const B& x) const {
    return math::neg(x);
  }
  template <class T>
  T scalar(T x) const {
    return wrap_neg(x);
  }
};
struct exp : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::exp(x);
  }
};
struct log : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::log(x);
  }
};
struct log1p : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::log1p(x);
  }
};
struct expm1 : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::expm1(x);
  }
};
// sin, cos, tan: the C library's long double (x87, 64-bit significand) functions, one element at
// a time, rounded once to T. xsimd's reduction (a Cody-Waite pi/2 in a few parts below its
// large-argument path) left f64 results 7-11 ulps off next to multiples of pi/2 (sin(fl(pi)) was
// 1.2246467991473515e-16, the exact value 1.2246467991473532e-16), worse than the LLVM backend
// this one checks; and glibc's double cos / tan are 8 / 14 ulps off at the hardest double,
// 6381956970095103 * 2^797. glibc's long double functions reduce exactly (fdlibm's
// __kernel_rem_pio2, which adds terms of 2/pi until no cancellation is left) and are within an
// ulp or two of a long double, 2^-11 of a double: the result is within 0.5 + 2^-10 ulp of T
// (correctly rounded except near halfway cases; tests/test_jax_numerics.cpp measures 0.4989).
template <long double (*F)(long double)>
struct LongDoubleFn : FloatUnary {
  template <class T>
  static constexpr bool vectorized = false;
  template <class T>
  T scalar(T x) const {
    return static_cast<T>(F(static_cast<long double>(x)));
  }
};
inline long double sin_ld(long double x) { return std::sin(x); }
inline long double cos_ld(long double x) { return std::cos(x); }
inline long double tan_ld(long double x) { return std::tan(x); }
struct sin : LongDoubleFn<sin_ld> {};
struct cos : LongDoubleFn<cos_ld> {};
struct tan : LongDoubleFn<tan_ld> {};
struct tanh : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return xsimd::tanh(x);
  }
};
struct sqrt : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return xsimd::sqrt(x);
  }
};
struct rsqrt : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::rsqrt(x);
  }
};
struct logistic : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::logistic(x);
  }
};
// xsimd's f64 erf is up to ~70 ulps off (its polynomials for [0, 0.65) and [2.2, 6) are short),
// so f64 uses the C library's; the f32 one stays within 3 ulps.
struct erf : FloatUnary {
  template <class T>
  static constexpr bool vectorized = std::is_same_v<T, float>;
  template <class B>
  B simd(const B& x) const {
    return xsimd::erf(x);
  }
  template <class T>
  T scalar(T x) const {
    return std::erf(x);
  }
};
// XLA's ErfInv32 for f32, our f64 pieces for f64 (ir/erf_inv.hpp), one element at a time with
// the C library's log1p, log, sqrt and fma.
struct erf_inv : FloatUnary {
  template <class T>
  static constexpr bool vectorized = false;
  struct Scalar {
    template <class T>
    static T log1p(T x) {
      return std::log1p(x);
    }
    template <class T>
    static T log(T x) {
      return std::log(x);
    }
    template <class T>
    static T sqrt(T x) {
      return std::sqrt(x);
    }
    template <class T>
    static T fma(T a, T b, T c) {
      return std::fma(a, b, c);
    }
  };
  template <class T>
  T scalar(T x) const {
    Scalar s;
    return ir::erf_inv<T>(x, s);
  }
};
struct abs : NumUnary {
  template <class B>
  B simd(const B& x) const {
    return xsimd::abs(x);
  }
  // abs(INT_MIN) wraps to INT_MIN, as in JAX.
  template <class T>
  T scalar(T x) const {
    if constexpr (std::is_signed_v<T>)
      return x < 0 ? wrap_neg(x) : x;
    else
      return x;
  }
};
struct sign : NumUnary {
  template <class B>
  B simd(const B& x) const {
    return math::sign(x);
  }
  template <class T>
  T scalar(T x) const {
    if constexpr (std::is_signed_v<T>)
      return static_cast<T>((x > 0) - (x < 0));
    else
      return static_cast<T>(x != 0);
  }
};
struct floor : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::floor(x);
  }
};
struct ceil : FloatUnary {
  template <class B>
  B simd(const B& x) const {
    return math::ceil(x);
  }
};
// rounding_method: 0 rounds halves away from zero (lax's default), 1 to nearest even.
struct round : FloatUnary {
  bool to_even = false;
  round() = default;
  explicit round(const ir::Params& p) {
    const ir::ParamValue* v = p.find("rounding_method");
    if (!v) return;  // absent means lax's default
    const auto* m = std::get_if<std::int64_t>(v);
    if (!m || (*m != 0 && *m != 1))
      throw ValueError("round: rounding_method must be 0 (away from zero) or 1 (to nearest even)");
    to_even = *m == 1;
  }
  template <class B>
  B simd(const B& x) const {
    return to_even ? xsimd::nearbyint(x) : math::round_half_away(x);
  }
};

// x**y for the static param y, multiplied in integer_pow_by_squaring's order (the LLVM
// backend emits the same order, so float results are bit-identical); integers wrap.
struct integer_pow : NumUnary {
  std::int64_t y = 0;
  explicit integer_pow(const ir::Params& p) : y(p.get<std::int64_t>("y")) {}
  template <class V>
  V power(V x) const {
    return ir::integer_pow_by_squaring(
        x, y, [](V a, V b) { return mul_wrap(a, b); }, [](V a, V b) { return div_of(a, b); },
        [] { return V(1); });
  }
  template <class B>
  B simd(const B& x) const {
    return power(x);
  }
  template <class T>
  T scalar(T x) const {
    return power(x);
  }

 private:
  // Only floats reach the division (the shape rule rejects a negative y on integers); the
  // integer branch still never traps, for a hand-built graph that skipped the rule.
  template <class V>
  static V div_of(V a, V b) {
    if constexpr (std::is_integral_v<V>) {
      if (b == 0) return V(-1);
      if constexpr (std::is_signed_v<V>)
        if (b == -1) return wrap_neg(a);
      return static_cast<V>(a / b);
    } else {
      return a / b;
    }
  }
  template <class V>
  static V mul_wrap(V a, V b) {
    return wrap_mul(a, b);
  }
};

// ---- binary ------------------------------------------------------------------------------
struct add : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return a + b;
  }
  template <class T>
  T scalar(T a, T b) const {
    return wrap_add(a, b);
  }
};
struct add_any : add {};  // a cotangent sum: add's semantics
struct sub : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return a - b;
  }
  template <class T>
  T scalar(T a, T b) const {
    return wrap_sub(a, b);
  }
};
struct mul : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return a * b;
  }
  template <class T>
  T scalar(T a, T b) const {
    return wrap_mul(a, b);
  }
};
// Integer division truncates toward zero. The cases C leaves undefined follow XLA's CPU
// lowering: x / 0 == -1 (all bits set, so UINT_MAX for u32) and INT_MIN / -1 == INT_MIN.
struct div : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return a / b;
  }
  template <class T>
  T scalar(T a, T b) const {
    if (b == 0) return static_cast<T>(-1);
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return wrap_neg(a);
    return static_cast<T>(a / b);
  }
};
// C fmod / % semantics: the result has the dividend's sign. Following XLA's CPU lowering,
// x % 0 == x and INT_MIN % -1 == 0. Floats use std::fmod, which is exact; xsimd's fmod
// computes a - trunc(a/b)*b and loses every bit for large quotients.
struct rem : Arith {
  template <class T>
  static constexpr bool vectorized = false;
  template <class T>
  T scalar(T a, T b) const {
    if constexpr (is_fp<T>) {
      return std::fmod(a, b);
    } else {
      if (b == 0) return a;
      if constexpr (std::is_signed_v<T>)
        if (b == -1) return 0;
      return static_cast<T>(a % b);
    }
  }
};
// std::pow: xsimd's is exp(y*log(x)), whose error grows with |y*log(x)| (dozens of ulps for
// large results) and which gets pow(NaN, 0) == 1 and pow(1, NaN) == 1 wrong.
struct pow : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T b) const {
    return std::pow(a, b);
  }
};
struct max : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return math::max(a, b);
  }
  template <class T>
  T scalar(T a, T b) const {
    return math::max_scalar(a, b);
  }
};
struct min : Arith {
  template <class B>
  B simd(const B& a, const B& b) const {
    return math::min(a, b);
  }
  template <class T>
  T scalar(T a, T b) const {
    return math::min_scalar(a, b);
  }
};

// ---- shifts: the amount is read as unsigned, so a negative one is out of range too ---------
template <class T>
inline constexpr unsigned_of<T> kBits = sizeof(T) * 8;

struct shift_left : IntArith {
  template <class T>
  T scalar(T a, T b) const {
    const auto n = static_cast<unsigned_of<T>>(b);
    return n >= kBits<T> ? T(0) : static_cast<T>(static_cast<unsigned_of<T>>(a) << n);
  }
};
// Sign fill: an amount >= the width gives 0 or -1 (all bits set), on u32 too.
struct shift_right_arithmetic : IntArith {
  template <class T>
  T scalar(T a, T b) const {
    using S = std::make_signed_t<T>;
    const auto n = static_cast<unsigned_of<T>>(b);
    return static_cast<T>(static_cast<S>(a) >> (n >= kBits<T> ? kBits<T> - 1 : n));
  }
};
struct shift_right_logical : IntArith {
  template <class T>
  T scalar(T a, T b) const {
    const auto n = static_cast<unsigned_of<T>>(b);
    return n >= kBits<T> ? T(0) : static_cast<T>(static_cast<unsigned_of<T>>(a) >> n);
  }
};

// ---- compare (NaN compares unequal to everything, so only ne is true) --------------------
struct lt : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a < b;
  }
};
struct le : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a <= b;
  }
};
struct gt : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a > b;
  }
};
struct ge : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a >= b;
  }
};
struct eq : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a == b;
  }
};
struct ne : Compare {
  template <class T>
  bool scalar(T a, T b) const {
    return a != b;
  }
};

// ---- logical: bool is logical, integers bitwise -------------------------------------------
struct and_ : Logical {
  template <class T>
  T scalar(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a & b);
  }
};
struct or_ : Logical {
  template <class T>
  T scalar(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return static_cast<T>(a | b);
  }
};
struct xor_ : Logical {
  template <class T>
  T scalar(T a, T b) const {
    if constexpr (std::is_same_v<T, bool>)
      return a != b;
    else
      return static_cast<T>(a ^ b);
  }
};
struct not_ : Logical {
  static constexpr int arity = 1;
  template <class T>
  T scalar(T a) const {
    if constexpr (std::is_same_v<T, bool>)
      return !a;
    else
      return static_cast<T>(~a);
  }
};

// ---- threefry2x32: four u32 operands, two u32 results (its kernel is run_threefry) --------
struct threefry2x32 {
  static constexpr int arity = 4;
  static void apply(std::uint32_t k0, std::uint32_t k1, std::uint32_t x0, std::uint32_t x1,
                    std::uint32_t* y0, std::uint32_t* y1) {
    ir::ThreefryU32 ops;
    const auto [a, b] = ir::threefry2x32(k0, k1, x0, x1, ops);
    *y0 = a;
    *y1 = b;
  }
};

// ---- the structural primitives; their kernels live in kernels.hpp ------------------------
struct select_n {
  static constexpr int arity = 3;
};
struct clamp {
  static constexpr int arity = 3;
};
struct broadcast_in_dim {
  static constexpr int arity = 1;
};
// Calls of a sub-graph (param `jaxpr`). A fusion kernel means "one loop, nothing materialized"
// to a compiling backend; the interpreter materializes everything anyway, so both just run it.
struct jit {
  static constexpr int arity = -1;
  static constexpr bool calls_jaxpr = true;
};
struct fused : jit {};
// custom_jvp_call runs its call_jaxpr (its tangent rule matters to transforms only).
struct custom_jvp_call : jit {};
// custom_vjp_call runs its call_jaxpr (its fwd and bwd matter to reverse mode only).
struct custom_vjp_call : jit {};
// remat2 runs its jaxpr (recomputation is a matter of where reverse mode places it).
struct remat2 : jit {};
// shard_map runs its `lowered` graph, the whole mapped axis at once (ir::call_param).
struct shard_map : jit {};
// custom_linear_solve runs its `solve` sub-graph (ir::linear_solve_call).
struct custom_linear_solve : jit {};
// lax control flow: the interpreter runs the sub-graphs (backend/control_flow.hpp).
struct cond : jit {};
struct while_ : jit {};
struct scan : jit {};
// Float -> integer truncates toward zero, NaN becomes 0 and out-of-range values saturate (XLA's
// CPU conversion); any -> bool is x != 0; everything else is the C++ conversion (integers wrap).
struct convert_element_type {
  static constexpr int arity = 1;
  static constexpr bool is_bitcast = false;
  template <class To, class From>
  static To cast(From x) {
    if constexpr (std::is_same_v<To, bool>) {
      return x != From(0);
    } else if constexpr (is_fp<From> && !is_fp<To>) {
      if (x != x) return To(0);
      // Both bounds are powers of two (or 0), so they are exact in From.
      const From lo = static_cast<From>(std::numeric_limits<To>::min());
      const From hi = std::ldexp(From(1), std::numeric_limits<To>::digits);
      if (x < lo) return std::numeric_limits<To>::min();
      if (x >= hi) return std::numeric_limits<To>::max();
      return static_cast<To>(x);
    } else {
      return static_cast<To>(x);
    }
  }
};

// The same bytes read as another dtype of the same width (the shape rule checks the widths).
struct bitcast_convert_type {
  static constexpr int arity = 1;
  static constexpr bool is_bitcast = true;
};

}  // namespace fj::detail::reference::ops

#include "fusejit/backend/reference/ops_special.hpp"
