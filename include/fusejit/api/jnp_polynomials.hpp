// jnp's polynomial helpers on 1-d coefficient arrays (highest degree first): poly, polyadd,
// polysub, polymul, polyder, polyint, polydiv and vander, composed as JAX's polynomial.py.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/jnp_arithmetic.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/pad_roll.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {
namespace detail::jnp_more {

/// Throws fj::ValueError unless p is 1-d (the coefficient vectors of jnp's poly functions).
inline void require_1d(const Array& p, const char* fn, const char* arg) {
  if (p.ndim() != 1)
    throw ValueError(std::string(fn) + ": " + arg + " must be a 1-d coefficient array, got " +
                     p.aval().str());
}
/// The integers lo..hi-1 as a 1-d array of dtype d (jnp.arange(lo, hi, dtype=d)).
inline Array arange_in(std::int64_t lo, std::int64_t hi, DType d) {
  const std::int64_t n = std::max<std::int64_t>(hi - lo, 0);
  return Array(Array(iota(d, n)) + Array(full({}, double(lo), d)));
}
/// The full discrete convolution of two 1-d arrays, out[k] = sum_i a[i] b[k - i]: each a[i] b
/// shifted into place and the shifts summed in order of i. JAX lowers jnp.convolve to a
/// conv_general_dilated, whose order of summation is the backend's; with exactly representable
/// partial sums (small integers, halves) both are exact.
inline Array convolve_full(const Array& a, const Array& b) {
  const std::int64_t na = a.shape()[0], nb = b.shape()[0], n = na + nb - 1;
  Array out = Array(zeros({n}, a.dtype()));
  for (std::int64_t i = 0; i < na; ++i)
    out = Array(out + Array(pad(Array(Array(a(i)) * b), {{i, n - nb - i}})));
  return out;
}

}  // namespace detail::jnp_more

/// jnp.polyadd(a1, a2): the coefficients of a1 + a2, the shorter one added to the longer one's
/// tail (its low-degree end).
inline Array polyadd(const Array& a1_in, const Array& a2_in) {
  namespace M = detail::jnp_more;
  M::require_1d(a1_in, "fj::polyadd", "a1");
  M::require_1d(a2_in, "fj::polyadd", "a2");
  auto [a1, a2] = M::promote2(a1_in, a2_in);
  const std::int64_t n1 = a1.shape()[0], n2 = a2.shape()[0];
  if (n2 <= n1) return Array(a1.at(range(n1 - n2, n1)).add(a2));
  return Array(a2.at(range(n2 - n1, n2)).add(a1));
}

/// jnp.polysub(a1, a2): polyadd(a1, -a2).
inline Array polysub(const Array& a1_in, const Array& a2_in) {
  auto [a1, a2] = detail::jnp_more::promote2(a1_in, a2_in);
  return polyadd(a1, Array(-a2));
}

/// jnp.polymul(a1, a2): the coefficients of a1 * a2 (the full convolution, in floats); an empty
/// operand counts as the polynomial 0.
inline Array polymul(const Array& a1_in, const Array& a2_in) {
  namespace M = detail::jnp_more;
  M::require_1d(a1_in, "fj::polymul", "a1");
  M::require_1d(a2_in, "fj::polymul", "a2");
  auto [a1, a2] = M::promote2_inexact(a1_in, a2_in);
  if (a1.shape()[0] == 0) a1 = Array(zeros({1}, a2.dtype()));
  if (a2.shape()[0] == 0) a2 = Array(zeros({1}, a1.dtype()));
  return M::convolve_full(a1, a2);
}

/// jnp.poly(seq_of_zeros): the monic polynomial whose roots are the given 1-d zeros, built as
/// JAX does by convolving [1, -z] in turn. The 2-d (eigenvalue) form needs complex numbers,
/// which fusejit lacks: fj::NotImplementedError.
inline Array poly(const Array& zeros_in) {
  Array z = inexact(zeros_in);
  if (z.ndim() == 0) z = Array(reshape(z, {1}));
  if (z.ndim() == 2 && z.shape()[0] == z.shape()[1] && z.shape()[0] != 0)
    throw NotImplementedError("fj::poly: a square matrix " + z.aval().str() +
                              " needs its complex eigenvalues, which fusejit does not have");
  if (z.ndim() != 1)
    throw ValueError("fj::poly: seq_of_zeros must be 1-d or a non-empty square matrix, got " +
                     z.aval().str());
  const DType dt = z.dtype();
  if (z.shape()[0] == 0) return ones({}, dt);
  Array a = ones({1}, dt);
  for (std::int64_t k = 0; k < z.shape()[0]; ++k) {
    const Array factor =
        concatenate({Array(ones({1}, dt)), Array(reshape(Array(-Array(z(k))), {1}))});
    a = detail::jnp_more::convolve_full(a, factor);
  }
  return a;
}

/// jnp.polyder(p, m): the coefficients of the m-th derivative (p's float dtype); m < 0 is an
/// fj::ValueError.
inline Array polyder(const Array& p_in, std::int64_t m = 1) {
  namespace M = detail::jnp_more;
  M::require_1d(p_in, "fj::polyder", "p");
  if (m < 0)
    throw ValueError("fj::polyder: the order m must be nonnegative, got " + std::to_string(m));
  const Array p = inexact(p_in);
  if (m == 0) return p;
  const std::int64_t L = p.shape()[0];
  const Array hi = M::arange_in(m, L, p.dtype()), lo = M::arange_in(0, m, p.dtype());
  const Array grid = Array(Array(reshape(hi, {1, hi.shape()[0]})) - Array(reshape(lo, {m, 1})));
  const Array coeff = Array(grid.prod({0}));
  return Array(Array(p(range(0, std::max<std::int64_t>(L - m, 0)))) * Array(flip(coeff)));
}

/// jnp.polyint(p, m, k): the coefficients of the m-th antiderivative, with the integration
/// constants k (a scalar, or m values, highest order first; 0 when not given).
inline Array polyint(const Array& p_in, std::int64_t m = 1,
                     const std::optional<Array>& k_in = std::nullopt) {
  namespace M = detail::jnp_more;
  M::require_1d(p_in, "fj::polyint", "p");
  if (m < 0)
    throw ValueError("fj::polyint: the order m must be nonnegative, got " + std::to_string(m));
  // JAX's default k is the weak 0, which takes p's dtype.
  Array p = inexact(p_in), k = zeros({}, p.dtype());
  if (k_in) std::tie(p, k) = M::promote2_inexact(p_in, *k_in);
  if (k.ndim() == 0) k = Array(reshape(k, {1}));
  if (k.ndim() == 1 && k.shape()[0] == 1) k = Array(broadcast_to(k, Shape{m}));
  if (k.shape() != Shape{m})
    throw ValueError("fj::polyint: k must be a scalar or 1-d of length 1 or m = " +
                     std::to_string(m) + ", got " + k_in->aval().str());
  if (m == 0) return p;
  const std::int64_t L = p.shape()[0];
  const Array hi = M::arange_in(0, L + m, p.dtype()), lo = M::arange_in(0, m, p.dtype());
  const Array grid = Array(Array(reshape(hi, {1, L + m})) - Array(reshape(lo, {m, 1})));
  const Array coeff = Array(flip(Array(Array(maximum(1.0, grid)).prod({0}))));
  return Array(concatenate({p, k}) / coeff);
}
/// jnp.polyint's keyword arguments: fj::polyint(p, {.m = 2, .k = ks}).
struct PolyintOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::int64_t m = 1;               ///< the order of the antiderivative
  std::optional<Array> k{};         ///< the integration constants (0 when not given)
};
/// jnp.polyint with keyword-style options.
inline Array polyint(const Array& p, const PolyintOptions& o) { return polyint(p, o.m, o.k); }

/// jnp.polydiv(u, v): (quotient, remainder) of the polynomial division u / v by JAX's long
/// division (the remainder keeps u's length; its leading entries are the cancelled ones).
inline std::pair<Array, Array> polydiv(const Array& u_in, const Array& v_in) {
  namespace M = detail::jnp_more;
  M::require_1d(u_in, "fj::polydiv", "u");
  M::require_1d(v_in, "fj::polydiv", "v");
  if (v_in.shape()[0] == 0)
    throw ValueError("fj::polydiv: the divisor v must have a coefficient, got " +
                     v_in.aval().str());
  auto [u, v] = M::promote2_inexact(u_in, v_in);
  const std::int64_t m = u.shape()[0] - 1, n = v.shape()[0] - 1;
  const Array scale = Array(1.0 / Array(v(0)));
  Array q = zeros({std::max<std::int64_t>(m - n + 1, 1)}, u.dtype());
  for (std::int64_t k = 0; k < m - n + 1; ++k) {
    const Array d = Array(scale * Array(u(k)));
    q = Array(q.at(k).set(d));
    u = Array(u.at(range(k, k + n + 1)).add(Array(Array(-d) * v)));
  }
  return {q, u};
}

/// jnp.vander(x, N, increasing): the Vandermonde matrix of a 1-d x, column j holding
/// x ** (N - 1 - j) (x ** j when increasing); N defaults to len(x).
inline Array vander(const Array& x, std::optional<std::int64_t> N = std::nullopt,
                    bool increasing = false) {
  if (x.ndim() != 1) throw ValueError("fj::vander: x must be 1-d, got " + x.aval().str());
  const std::int64_t n = N.value_or(x.shape()[0]);
  if (n < 0) throw ValueError("fj::vander: N must be nonnegative, got " + std::to_string(n));
  Array e = Array(iota(x.dtype(), n));
  if (!increasing) e = Array(Array(full({}, double(n - 1), x.dtype())) - e);
  return Array(pow(Array(reshape(x, {x.shape()[0], 1})), Array(reshape(e, {1, n}))));
}
/// jnp.vander's keyword arguments: fj::vander(x, {.N = 4, .increasing = true}).
struct VanderOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<std::int64_t> N{};  ///< the number of columns (len(x) when not given)
  bool increasing = false;          ///< powers rising from the first column
};
/// jnp.vander with keyword-style options.
inline Array vander(const Array& x, const VanderOptions& o) { return vander(x, o.N, o.increasing); }

}  // namespace fj
