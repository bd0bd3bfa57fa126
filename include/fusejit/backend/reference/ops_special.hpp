// The reference functors of issue 19's elementwise primitives (inverse trigonometric,
// hyperbolic, special functions, bit counts): part of ops.hpp, which includes it.
#pragma once
#include <bit>
#include <cmath>
#include <type_traits>

#include "fusejit/backend/reference/bessel.hpp"
#include "fusejit/backend/reference/digamma.hpp"
#include "fusejit/backend/reference/igamma.hpp"
#include "fusejit/backend/reference/polygamma.hpp"
#include "fusejit/backend/reference/ops.hpp"

namespace fj::detail::reference::ops {

// The C library's long double functions (64-bit significand), rounded once to T: within about
// half an ulp of T plus 2^-11 ulp, the oracle the LLVM backend's polynomials are checked against.
inline long double asin_ld(long double x) { return std::asin(x); }
inline long double acos_ld(long double x) { return std::acos(x); }
inline long double atan_ld(long double x) { return std::atan(x); }
inline long double sinh_ld(long double x) { return std::sinh(x); }
inline long double cosh_ld(long double x) { return std::cosh(x); }
inline long double asinh_ld(long double x) { return std::asinh(x); }
inline long double acosh_ld(long double x) { return std::acosh(x); }
inline long double atanh_ld(long double x) { return std::atanh(x); }
inline long double cbrt_ld(long double x) { return std::cbrt(x); }
inline long double exp2_ld(long double x) { return std::exp2(x); }
inline long double erfc_ld(long double x) { return std::erfc(x); }
// lgammal_r: lgamma's thread-safe form (lgamma writes the global signgam).
inline long double lgamma_ld(long double x) {
  int sign = 0;
  return ::lgammal_r(x, &sign);
}
struct asin : LongDoubleFn<asin_ld> {};
struct acos : LongDoubleFn<acos_ld> {};
struct atan : LongDoubleFn<atan_ld> {};
struct sinh : LongDoubleFn<sinh_ld> {};
struct cosh : LongDoubleFn<cosh_ld> {};
struct asinh : LongDoubleFn<asinh_ld> {};
struct acosh : LongDoubleFn<acosh_ld> {};
struct atanh : LongDoubleFn<atanh_ld> {};
struct cbrt : LongDoubleFn<cbrt_ld> {};
struct exp2 : LongDoubleFn<exp2_ld> {};
struct erfc : LongDoubleFn<erfc_ld> {};
struct lgamma : LongDoubleFn<lgamma_ld> {};
struct digamma : LongDoubleFn<reference::digamma_ld> {};
struct bessel_i0e : LongDoubleFn<reference::bessel_i0e_ld> {};
struct bessel_i1e : LongDoubleFn<reference::bessel_i1e_ld> {};

// x * x; integers wrap.
struct square : NumUnary {
  template <class B>
  B simd(const B& x) const {
    return x * x;
  }
  template <class T>
  T scalar(T x) const {
    return wrap_mul(x, x);
  }
};
struct is_finite : FloatUnary {
  template <class T>
  static constexpr bool vectorized = false;
  template <class T>
  using result = bool;
  template <class T>
  bool scalar(T x) const {
    return std::isfinite(x);
  }
};
// Bit counts of the two's-complement pattern (signed operands through their unsigned type).
struct IntUnary : FloatUnary {
  template <class T>
  static constexpr bool accepts = std::is_integral_v<T> && !std::is_same_v<T, bool>;
  template <class T>
  static constexpr bool vectorized = false;
};
struct population_count : IntUnary {
  template <class T>
  T scalar(T x) const {
    return static_cast<T>(std::popcount(static_cast<unsigned_of<T>>(x)));
  }
};
struct clz : IntUnary {
  template <class T>
  T scalar(T x) const {
    return static_cast<T>(std::countl_zero(static_cast<unsigned_of<T>>(x)));
  }
};

// atan2(x, y) in long double: the angle of (y, x) with C99 Annex F's signed zeros and infinities.
struct atan2 : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T b) const {
    return static_cast<T>(std::atan2(static_cast<long double>(a), static_cast<long double>(b)));
  }
};
// polygamma(m, x) in long double (reference/polygamma.hpp), rounded once to T.
struct polygamma : ScalarFloatBinary {
  template <class T>
  T scalar(T m, T x) const {
    return static_cast<T>(polygamma_ld(static_cast<long double>(m), static_cast<long double>(x)));
  }
};
// lax.zeta(x, q) in long double (reference/polygamma.hpp), rounded once to T.
struct zeta : ScalarFloatBinary {
  template <class T>
  T scalar(T x, T q) const {
    return static_cast<T>(zeta_ld(static_cast<long double>(x), static_cast<long double>(q)));
  }
};
// The incomplete gamma family in long double (reference/igamma.hpp), rounded once to T; the
// underflow threshold is T's, as JAX's.
template <class T>
constexpr long double log_max_of() {
  return std::is_same_v<T, float> ? 88.72283935546875L : 709.782712893383996843L;
}
struct igamma : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T x) const {
    return static_cast<T>(igamma_ld(a, x, log_max_of<T>()));
  }
};
struct igammac : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T x) const {
    return static_cast<T>(igammac_ld(a, x, log_max_of<T>()));
  }
};
struct igamma_grad_a : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T x) const {
    return static_cast<T>(igamma_derivative_ld(a, x, log_max_of<T>(), IgammaMode::derivative));
  }
};
struct random_gamma_grad : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T x) const {
    return static_cast<T>(
        igamma_derivative_ld(a, x, log_max_of<T>(), IgammaMode::sample_derivative));
  }
};
// The next representable T after a toward b, subnormals included (no flush to zero).
struct nextafter : ScalarFloatBinary {
  template <class T>
  T scalar(T a, T b) const {
    return std::nextafter(a, b);
  }
};

}  // namespace fj::detail::reference::ops
