// jnp's window functions (hamming, hanning, blackman, bartlett, kaiser) in the default float
// dtype, composed of iota, cosines and i0 as JAX's window_functions.py composes them.
#pragma once
#include <cstdint>
#include <numbers>
#include <string>

#include "fusejit/api/factories.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {
namespace detail::jnp_more {

/// The window's sample numbers 0..M-1 in the default float dtype; M < 0 is an fj::ValueError
/// (JAX's lax.full rejects a negative length too).
inline Array window_iota(std::int64_t M, const char* fn) {
  if (M < 0)
    throw ValueError(std::string(fn) + ": M must be nonnegative, got " + std::to_string(M));
  return Array(iota(default_float_dtype(), M));
}

}  // namespace detail::jnp_more

/// jnp.hamming(M): 0.54 - 0.46 cos(2 pi n / (M - 1)); M ones when M <= 1.
inline Array hamming(std::int64_t M) {
  const Array n = detail::jnp_more::window_iota(M, "fj::hamming");
  if (M <= 1) return full({M}, 1.0, default_float_dtype());
  return Array(0.54 - 0.46 * Array(cos(Array(Array(2 * std::numbers::pi * n) / double(M - 1)))));
}

/// jnp.hanning(M): 0.5 (1 - cos(2 pi n / (M - 1))); M ones when M <= 1.
inline Array hanning(std::int64_t M) {
  const Array n = detail::jnp_more::window_iota(M, "fj::hanning");
  if (M <= 1) return full({M}, 1.0, default_float_dtype());
  return Array(0.5 *
               Array(1.0 - Array(cos(Array(Array(2 * std::numbers::pi * n) / double(M - 1))))));
}

/// jnp.blackman(M): 0.42 - 0.5 cos(2 pi n / (M - 1)) + 0.08 cos(4 pi n / (M - 1)); M ones when
/// M <= 1.
inline Array blackman(std::int64_t M) {
  const Array n = detail::jnp_more::window_iota(M, "fj::blackman");
  if (M <= 1) return full({M}, 1.0, default_float_dtype());
  const Array c2 = Array(cos(Array(Array(2 * std::numbers::pi * n) / double(M - 1))));
  const Array c4 = Array(cos(Array(Array(4 * std::numbers::pi * n) / double(M - 1))));
  return Array(Array(0.42 - Array(0.5 * c2)) + Array(0.08 * c4));
}

/// jnp.bartlett(M): the triangular window 1 - |2 n + 1 - M| / (M - 1); M ones when M <= 1.
inline Array bartlett(std::int64_t M) {
  const Array n = detail::jnp_more::window_iota(M, "fj::bartlett");
  if (M <= 1) return full({M}, 1.0, default_float_dtype());
  return Array(1.0 - Array(abs(Array(Array(2.0 * n) + 1.0 - double(M))) / double(M - 1)));
}

/// jnp.kaiser(M, beta): i0(beta sqrt(1 - ((n - alpha) / alpha)^2)) / i0(beta) with alpha =
/// (M - 1) / 2; M ones when M <= 1.
inline Array kaiser(std::int64_t M, double beta) {
  const Array n = detail::jnp_more::window_iota(M, "fj::kaiser");
  if (M <= 1) return full({M}, 1.0, default_float_dtype());
  const double alpha = 0.5 * double(M - 1);
  const Array r = Array(Array(n - alpha) / alpha);
  return Array(i0(Array(beta * Array(sqrt(Array(1.0 - Array(r * r)))))) / Array(i0(beta)));
}

}  // namespace fj
