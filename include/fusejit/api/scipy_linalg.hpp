// jax.scipy.linalg's remaining real-valued functions: the special matrices (block_diag,
// toeplitz, hankel, circulant, ...), expm, lu / lu_factor / lu_solve and polar, each composed
// from fusejit's operations as JAX 0.10.2 composes it, so that values agree with JAX's.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// The whole API: these compositions use operations from most of its headers.
#include "fusejit/api/lax_control.hpp"
#include "fusejit/api/lax_switch_map.hpp"
#include "fusejit/api/linalg_extras.hpp"
#include "fusejit/api/creation.hpp"
#include "fusejit/api/factories.hpp"
#include "fusejit/api/lu.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/api/statistics.hpp"
#include "fusejit/expr/diagonal.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/pad_roll.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/expr/sort_scan.hpp"
#include "fusejit/api/spectral.hpp"
#include "fusejit/expr/layout.hpp"
#include "fusejit/expr/linalg.hpp"
#include "fusejit/expr/special_functions.hpp"

namespace fj::detail::scipy_linalg {

namespace X = linalg_extras;

/// x as at least a 1-d array (jnp.atleast_1d).
inline Array at_least_1d(const Array& x) { return x.ndim() == 0 ? Array(x.reshape({1})) : x; }
/// The last extent of x.
inline std::int64_t len(const Array& x) { return x.shape()[x.ndim() - 1]; }
/// The i32 index grid g[i, j] = f(i, j) of an (m, n) matrix, from two iotas.
template <class F>
Array grid(std::int64_t m, std::int64_t n, F f) {
  const Array i = iota(DType::i32, Shape({m, n}), 0), j = iota(DType::i32, Shape({m, n}), 1);
  return Array(f(i, j));
}
/// v[..., idx] for an index grid idx: the batch axes of v, then idx's axes.
inline Array gather_last(const Array& v, const Array& idx) {
  return Array(take(v, idx, v.ndim() - 1));
}
/// jnp.vectorize over 1-d core arguments: f applied to each vector of xs (equal batch axes),
/// the results stacked in the batch's shape; f itself when the xs are 1-d.
template <class F>
Array map_vectors(const std::vector<Array>& xs, F f) {
  if (xs[0].ndim() == 1) return f(xs);
  std::vector<std::int64_t> batch = xs[0].shape().to_vector();
  batch.pop_back();
  std::int64_t count = 1;
  for (std::int64_t e : batch) count *= e;
  std::vector<Array> flat;
  for (const Array& x : xs) flat.push_back(reshape_dyn(x, {count, len(x)}));
  std::vector<Array> outs;
  for (std::int64_t i = 0; i < count; ++i) {
    std::vector<Array> row;
    for (const Array& x : flat) row.push_back(Array(x(i)));
    outs.push_back(f(row));
  }
  std::vector<std::int64_t> shape = batch;
  for (std::int64_t e : outs.at(0).shape()) shape.push_back(e);
  return reshape_dyn(Array(stack(outs, 0)), shape);
}
/// c (..., m) and r (..., n) with their batch axes broadcast together, as jnp.vectorize's
/// signature "(m),(n)->(m,n)" broadcasts them; fj::ShapeError naming `fn` if they cannot be.
inline std::pair<Array, Array> broadcast_batch(const char* fn, const Array& c, const Array& r,
                                               const char* cn = "c", const char* rn = "r") {
  const auto batch_of = [](const Array& x) {
    std::vector<std::int64_t> v = x.shape().to_vector();
    v.pop_back();
    return Shape(v);
  };
  Shape b;
  try {
    b = broadcast_shapes(batch_of(c), batch_of(r), fn);
  } catch (const ShapeError&) {
    X::fail<ShapeError>(fn, std::string("the batch axes of arguments ") + cn + " and " + rn +
                                " do not broadcast, got " + cn + " " + c.aval().str() + " and " +
                                rn + " " + r.aval().str());
  }
  const auto with = [&b](const Array& x) {
    std::vector<std::int64_t> v = b.to_vector();
    v.push_back(len(x));
    return Array(broadcast_to(x, Shape(v)));
  };
  return {with(c), with(r)};
}
/// A float scalar of dtype d.
inline Array scalar(double v, DType d) { return full({}, v, d); }

}  // namespace fj::detail::scipy_linalg

namespace fj::scipy::linalg {

/// jax.scipy.linalg.block_diag(arrs): the arrays (each of rank <= 2, scalars and vectors read
/// as one row) on the diagonal of a matrix of zeros, their dtypes promoted; no arrays gives a
/// (1, 0) matrix. fj::ShapeError for an array of rank > 2.
inline Array block_diag(const std::vector<Array>& arrs) {
  namespace S = detail::scipy_linalg;
  if (arrs.empty()) return zeros(Shape({1, 0}));
  std::vector<Array> two;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < arrs.size(); ++i) {
    if (arrs[i].ndim() > 2)
      S::X::fail<ShapeError>("fj::scipy::linalg::block_diag",
                             "the arrays must have at most 2 dimensions, got " +
                                 arrs[i].aval().str() + " at argument " + std::to_string(i));
    two.push_back(atleast_2d(arrs[i]));
    total += two.back().shape()[1];
  }
  std::vector<Array> padded;
  std::int64_t col = 0;
  for (const Array& a : two) {
    const std::int64_t c = a.shape()[1];
    padded.push_back(Array(pad(a, {{0, 0}, {col, total - c - col}})));
    col += c;
  }
  return Array(concatenate(padded, 0));
}

/// jax.scipy.linalg.toeplitz(c, r): the matrix T[i, j] = c[i - j] (i >= j), r[j - i] (j > i),
/// (..., m, n) for c (..., m) and r (..., n), their batch axes broadcast (fj::ShapeError if they
/// cannot be); r defaults to c. Each entry is c's or r's, as JAX's identity-kernel patches make
/// it.
inline Array toeplitz(const Array& c_in, std::optional<Array> r_in = std::nullopt) {
  namespace S = detail::scipy_linalg;
  const auto [c, r] = S::broadcast_batch("fj::scipy::linalg::toeplitz", S::at_least_1d(c_in),
                                         S::at_least_1d(r_in ? *r_in : c_in));
  const std::int64_t m = S::len(c), n = S::len(r);
  if (m == 0 || n == 0) {
    std::vector<std::int64_t> s = c.shape().to_vector();
    s.push_back(n);
    return zeros(Shape(s), Array(concatenate({c, r}, c.ndim() - 1)).dtype());
  }
  // elems = concat(c[::-1], r[1:]); T[i, j] = elems[m - 1 - i + j].
  const Array elems =
      concatenate({Array(flip(c, {c.ndim() - 1})), S::X::last(r, 1, n)}, c.ndim() - 1);
  return S::gather_last(elems, S::grid(m, n, [&](const Array& i, const Array& j) {
                          return Array(Array((m - 1) - i) + j);
                        }));
}

/// jax.scipy.linalg.hankel(c, r): the matrix H[i, j] = c[i + j] (i + j < m), r[i + j - m + 1]
/// beyond, (..., m, n) for c (..., m) and r (..., n), their batch axes broadcast; r defaults to
/// zeros like c. fj::ShapeError for a scalar c or r, or batch axes that do not broadcast.
inline Array hankel(const Array& c_in, std::optional<Array> r_in = std::nullopt) {
  namespace S = detail::scipy_linalg;
  constexpr const char* fn = "fj::scipy::linalg::hankel";
  if (c_in.ndim() == 0)
    S::X::fail<ShapeError>(fn, "argument c must be at least 1-dimensional, got a scalar");
  const Array r0 = r_in ? *r_in : zeros_like(c_in);
  if (r0.ndim() == 0)
    S::X::fail<ShapeError>(fn, "argument r must be at least 1-dimensional, got a scalar");
  const auto [c, r] = S::broadcast_batch(fn, c_in, r0);
  const std::int64_t m = S::len(c), n = S::len(r);
  if (m == 0 || n == 0) {
    std::vector<std::int64_t> s = c.shape().to_vector();
    s.push_back(n);
    return zeros(Shape(s), Array(concatenate({c, r}, c.ndim() - 1)).dtype());
  }
  const Array v = concatenate({c, S::X::last(r, 1, n)}, c.ndim() - 1);
  return S::gather_last(v,
                        S::grid(m, n, [](const Array& i, const Array& j) { return Array(i + j); }));
}

/// jax.scipy.linalg.circulant(c): C[i, j] = c[(i - j) mod n] for c (..., n).
inline Array circulant(const Array& c_in) {
  namespace S = detail::scipy_linalg;
  const Array c = S::at_least_1d(c_in);
  const std::int64_t n = S::len(c);
  return S::gather_last(c, S::grid(n, n, [n](const Array& i, const Array& j) {
                          return Array(Array(i - j) % static_cast<std::int32_t>(n));
                        }));
}

/// jax.scipy.linalg.leslie(f, s): the (n, n) Leslie matrix, the fecundities f (n,) in row 0
/// and the survival rates s (n - 1,) below the diagonal (batch axes broadcast, one matrix per
/// pair). fj::ShapeError for n < 2, s's length not n - 1, or batch axes that do not broadcast.
inline Array leslie(const Array& f_in, const Array& s_in) {
  namespace S = detail::scipy_linalg;
  constexpr const char* fn = "fj::scipy::linalg::leslie";
  const Array f = S::at_least_1d(f_in), s = S::at_least_1d(s_in);
  if (S::len(f) < 2)
    S::X::fail<ShapeError>(fn, "argument f: its length must be at least 2, got " + f.aval().str());
  if (S::len(s) != S::len(f) - 1)
    S::X::fail<ShapeError>(fn, "argument s: its length must be one less than f's, got f " +
                                   f.aval().str() + " and s " + s.aval().str());
  const auto [fb, sb] = S::broadcast_batch(fn, f, s, "f", "s");
  const DType d = Array(concatenate({fb, sb}, fb.ndim() - 1)).dtype();  // promote_dtypes(f, s)
  return S::map_vectors({fb, sb}, [d](const std::vector<Array>& v) {
    return Array(Array(diag(Array(v[1].astype(d)), -1)).at(0).set(Array(v[0].astype(d))));
  });
}

/// jax.scipy.linalg.companion(a): the (n - 1, n - 1) companion matrix of the polynomial with
/// coefficients a (n,): row 0 is -a[1:] / a[0], ones below the diagonal; one per vector of a
/// batch (..., n). Integers become floats. fj::ShapeError for n < 2.
inline Array companion(const Array& a_in) {
  namespace S = detail::scipy_linalg;
  constexpr const char* fn = "fj::scipy::linalg::companion";
  const Array a = S::X::inexact(S::at_least_1d(a_in));
  if (S::len(a) < 2)
    S::X::fail<ShapeError>(fn, "argument a: its length must be at least 2, got " + a.aval().str());
  return S::map_vectors({a}, [](const std::vector<Array>& v) {
    const Array& a1 = v[0];
    const std::int64_t m = S::len(a1) - 1;
    const Array first_row = Array(-S::X::last(a1, 1, m + 1)) / Array(a1(0));
    return Array(eye(m, m, -1, a1.dtype()).at(0).set(first_row));
  });
}

/// jax.scipy.linalg.fiedler(a): F[..., i, j] = |a[..., i] - a[..., j]|.
inline Array fiedler(const Array& a_in) {
  namespace S = detail::scipy_linalg;
  const Array a = S::at_least_1d(a_in);
  return Array(
      abs(Array(Array(expand_dims(a, {a.ndim()})) - Array(expand_dims(a, {a.ndim() - 1})))));
}

/// jax.scipy.linalg.fiedler_companion(a): the (n - 1, n - 1) Fiedler companion matrix of the
/// polynomial with coefficients a (n,) (scaled by 1 / a[0] first), pentadiagonal, by JAX's
/// select over the index conditions; one per vector of a batch (..., n). fj::ShapeError for an
/// empty a.
inline Array fiedler_companion(const Array& a_in) {
  namespace S = detail::scipy_linalg;
  constexpr const char* fn = "fj::scipy::linalg::fiedler_companion";
  const Array a = S::X::inexact(S::at_least_1d(a_in));
  if (S::len(a) == 0)
    S::X::fail<ShapeError>(fn, "argument a must not be empty, got " + a.aval().str());
  return S::map_vectors({a}, [](const std::vector<Array>& v) {
    const Array& a0 = v[0];
    const std::int64_t n = S::len(a0) - 1;
    if (n == 0) return zeros(Shape({0, 0}), a0.dtype());
    const Array a = Array(a0 / Array(a0(0)));
    if (n == 1) return Array(Array(-S::X::last(a, 1, 2)).reshape({1, 1}));
    const Array i = iota(DType::i32, Shape({n, 1}), 0), j = iota(DType::i32, Shape({1, n}), 1);
    const auto nn = static_cast<std::int32_t>(n);
    const Array super_val = -S::gather_last(a, Array(minimum(Array(i + 2), nn)));
    const Array sub_val = -S::gather_last(a, Array(minimum(Array(i + 1), nn)));
    const Array i_even = Array(i % 2) == 0, i_odd = Array(i % 2) == 1;
    const Array one = S::scalar(1, a.dtype());
    const auto and_ = [](const Array& x, const Array& y) { return Array(logical_and(x, y)); };
    const std::vector<Array> conditions{
        and_(Array(i == 0), Array(j == 0)),
        and_(Array(i == 1), Array(j == 0)),
        and_(Array(j == Array(i + 1)), i_even),
        and_(Array(j == Array(i + 2)), i_even),
        and_(and_(Array(j == Array(i - 1)), i_even), Array(i >= 2)),
        and_(and_(Array(j == Array(i - 2)), i_odd), Array(i >= 3)),
    };
    const std::vector<Array> choices{Array(-Array(a(1))), one, super_val, one, sub_val, one};
    return select(conditions, choices, 0.0);
  });
}

/// jax.scipy.linalg.convolution_matrix(a, n, mode): the Toeplitz matrix whose product with a
/// vector v (n,) is the convolution of a (..., m) and v: mode "full" ((m + n - 1, n)),
/// "valid" or "same", as numpy.convolve. fj::ValueError for n <= 0 or another mode,
/// fj::ShapeError for a scalar or empty a.
inline Array convolution_matrix(const Array& a, std::int64_t n, const std::string& mode = "full") {
  namespace S = detail::scipy_linalg;
  constexpr const char* fn = "fj::scipy::linalg::convolution_matrix";
  if (n <= 0) S::X::fail<ValueError>(fn, "n must be a positive integer, got " + std::to_string(n));
  if (a.ndim() == 0)
    S::X::fail<ShapeError>(fn, "argument a must be at least 1-dimensional, got a scalar");
  const std::int64_t m = S::len(a);
  if (m < 1)
    S::X::fail<ShapeError>(fn, "argument a: its length must be at least 1, got " + a.aval().str());
  if (mode != "full" && mode != "valid" && mode != "same")
    S::X::fail<ValueError>(fn, "mode must be one of 'full', 'valid', 'same', got '" + mode + "'");
  std::vector<std::pair<std::int64_t, std::int64_t>> widths(static_cast<std::size_t>(a.ndim()),
                                                            {0, 0});
  widths.back() = {0, n - 1};
  const Array az = pad(a, widths);
  const Array raz = pad(Array(flip(a, {a.ndim() - 1})), widths);
  const std::int64_t L = m + n - 1;
  std::int64_t tb = 0, te = 0;
  if (mode == "same") {
    const std::int64_t trim = std::min(n, m) - 1;
    tb = trim / 2, te = trim - tb;
  } else if (mode == "valid") {
    tb = te = std::min(n, m) - 1;
  }
  return toeplitz(S::X::last(az, tb, L - te), S::X::last(raz, L - n - tb, L - tb));
}

/// jax.scipy.linalg.hilbert(n): H[i, j] = 1 / (i + j + 1), in the default float dtype.
inline Array hilbert(std::int64_t n) {
  const Array a = iota(default_float_dtype(), Shape({n, 1}), 0);
  return Array(1.0 / Array(Array(a + Array(a.T())) + 1.0));
}

/// jax.scipy.linalg.invhilbert(n): the inverse of hilbert(n) by its closed form, each binomial
/// coefficient through fj::scipy::special::comb (gammaln and exp, as JAX's), so the entries are
/// near, not at, the integers they stand for.
inline Array invhilbert(std::int64_t n) {
  const Array a = arange(0.0, static_cast<double>(n), 1.0).astype(default_float_dtype());
  const Array i = expand_dims(a, {1}), j = expand_dims(a, {0});
  const Array s = i + j;
  const double nd = static_cast<double>(n);
  using special::comb;
  const Array sign = pow(-1.0, s);
  return Array(
      Array(Array(Array(sign * Array(s + 1.0)) * comb(Array(nd + i), Array(nd - j - 1.0))) *
            comb(Array(nd + j), Array(nd - i - 1.0))) *
      integer_pow(comb(s, i), 2));
}

}  // namespace fj::scipy::linalg

namespace fj::detail::scipy_linalg {
/// JAX's _binom(n, k): exp(lgamma(n + 1) - lgamma(n - k + 1) - lgamma(k + 1)).
inline Array binom(const Array& n, const Array& k) {
  const Array a = gammaln(Array(n + 1.0)), b = gammaln(Array(Array(n - k) + 1.0)),
              c = gammaln(Array(k + 1.0));
  return Array(exp(Array(Array(a - b) - c)));
}
}  // namespace fj::detail::scipy_linalg

namespace fj::scipy::linalg {

/// jax.scipy.linalg.pascal(n, kind): the Pascal matrix "symmetric" (the default; L L^T),
/// "lower" (L[i, j] = binom(i, j)) or "upper" (L^T); float32 as JAX's, the binomials through
/// lgamma and exp. fj::ValueError for another kind.
inline Array pascal(std::int64_t n, const std::string& kind = "symmetric") {
  if (kind != "symmetric" && kind != "lower" && kind != "upper")
    detail::linalg_extras::fail<ValueError>(
        "fj::scipy::linalg::pascal",
        "kind must be one of 'symmetric', 'lower', 'upper', got '" + kind + "'");
  const Array a = iota(DType::f32, Shape({n}), 0);
  const Array L =
      detail::scipy_linalg::binom(Array(expand_dims(a, {1})), Array(expand_dims(a, {0})));
  if (kind == "lower") return L;
  if (kind == "upper") return Array(L.T());
  return Array(dot(L, Array(L.T())));
}

/// jax.scipy.linalg.invpascal(n, kind): the inverse of pascal(n, kind) in the default float
/// dtype: L^-1[i, j] = (-1)^(i - j) binom(i, j), and L^-T L^-1 for "symmetric".
inline Array invpascal(std::int64_t n, const std::string& kind = "symmetric") {
  if (kind != "symmetric" && kind != "lower" && kind != "upper")
    detail::linalg_extras::fail<ValueError>(
        "fj::scipy::linalg::invpascal",
        "kind must be one of 'symmetric', 'lower', 'upper', got '" + kind + "'");
  const Array a = iota(default_float_dtype(), Shape({n}), 0);
  const Array i = expand_dims(a, {1}), j = expand_dims(a, {0});
  const Array L_inv = Array(pow(-1.0, Array(i - j))) * detail::scipy_linalg::binom(i, j);
  if (kind == "lower") return L_inv;
  if (kind == "upper") return Array(L_inv.T());
  return Array(dot(Array(L_inv.T()), L_inv));
}

/// jax.scipy.linalg.helmert(n, full): the (n - 1, n) Helmert matrix (row i: 1 / sqrt(k (k + 1))
/// in columns 0..i and -k / sqrt(k (k + 1)) in column k = i + 1), with the row 1 / sqrt(n)
/// on top when `full`. fj::ValueError for n < 1.
inline Array helmert(std::int64_t n, bool full_matrix = false) {
  if (n < 1)
    detail::linalg_extras::fail<ValueError>(
        "fj::scipy::linalg::helmert", "n must be a positive integer, got " + std::to_string(n));
  const DType f = default_float_dtype();
  const DType di = default_int_dtype();
  const Array i = iota(di, Shape({n - 1, 1}), 0), j = iota(di, Shape({1, n}), 1);
  const Array k = i + 1;
  const Array k_f = k.astype(f);
  const Array denom = sqrt(Array(k_f * Array(k_f + 1.0)));
  Array H = where(Array(j <= i), Array(1.0 / denom),
                  Array(where(Array(j == k), Array(Array(-k_f) / denom), zeros_like(denom))));
  if (full_matrix) {
    const Array first =
        broadcast_to(Array(1.0 / Array(sqrt(full({}, static_cast<double>(n), f)))), Shape({1, n}));
    H = Array(concatenate({first, H}, 0));
  }
  return H;
}

/// jax.scipy.linalg.hadamard(n, dtype): the (n, n) Sylvester Hadamard matrix of +-1 (n a power
/// of 2), in `dtype` (by default the default int dtype). fj::ValueError for another n.
inline Array hadamard(std::int64_t n, std::optional<DType> dtype = std::nullopt) {
  if (n < 1 || (n & (n - 1)) != 0)
    detail::linalg_extras::fail<ValueError>(
        "fj::scipy::linalg::hadamard", "n must be a positive power of 2, got " + std::to_string(n));
  Array H = ones(Shape({1, 1}), dtype.value_or(default_int_dtype()));
  for (std::int64_t s = 1; s < n; s *= 2)
    H = Array(
        concatenate({Array(concatenate({H, H}, 1)), Array(concatenate({H, Array(-H)}, 1))}, 0));
  return H;
}

/// jax.scipy.linalg.lu_factor(a): {lu, pivots} of lax.linalg.lu (L below the diagonal, its unit
/// diagonal implied, U on and above; LAPACK's 0-based row swaps, int32). Integers become floats.
inline std::pair<Array, Array> lu_factor(const Array& a) {
  const auto r = lax::linalg::lu(detail::linalg_extras::inexact(a));
  return {r[0], r[1]};
}

/// jax.scipy.linalg.lu(a): {p, l, u} with a = p l u for a (m, n): p (m, m) a permutation
/// matrix, l (m, k) unit lower triangular, u (k, n) upper triangular, k = min(m, n).
/// fj::ShapeError for a not 2-d.
inline std::array<Array, 3> lu(const Array& a_in) {
  namespace X = detail::linalg_extras;
  const Array a = X::inexact(a_in);
  if (a.ndim() != 2)
    X::fail<ShapeError>("fj::scipy::linalg::lu",
                        "argument a must be two-dimensional, got " + a.aval().str());
  const auto r = lax::linalg::lu(a);
  const std::int64_t m = a.shape()[0], n = a.shape()[1], k = std::min(m, n);
  const Array p =
      Array(Array(expand_dims(r[2], {0})) == Array(expand_dims(iota(r[2].dtype(), m), {1})))
          .astype(a.dtype());
  const Array l = Array(Array(tril(r[0], -1))(range(), range(0, k))) + eye(m, k, 0, a.dtype());
  const Array u = Array(triu(r[0]))(range(0, k), range());
  return {p, l, u};
}
/// jax.scipy.linalg.lu(a, permute_l=True): {p l, u}.
inline std::array<Array, 2> lu_permute_l(const Array& a) {
  const auto plu = lu(a);
  return {Array(matmul(plu[0], plu[1])), plu[2]};
}

/// jax.scipy.linalg.lu_solve((lu, piv), b, trans): x with a x = b (trans 0) or a^T x = b (1 or
/// 2) from lu_factor's result, lu (n, n), b (n,) or (n, k): the pivots made a permutation
/// (lax.linalg.lu_pivots_to_permutation), then JAX's two triangular solves. fj::ValueError for a
/// bad trans, fj::ShapeError for mismatched shapes, fj::NotImplementedError for a batch of
/// factors.
inline Array lu_solve(const std::pair<Array, Array>& lu_and_piv, const Array& b_in, int trans = 0) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::scipy::linalg::lu_solve";
  Array lu = X::inexact(lu_and_piv.first), b = X::inexact(b_in);
  const Array& piv = lu_and_piv.second;
  if (trans < 0 || trans > 2)
    X::fail<ValueError>(fn, "trans must be 0, 1 or 2, got " + std::to_string(trans));
  if (lu.ndim() != 2)
    X::fail<NotImplementedError>(
        fn,
        "argument lu must be one 2-d matrix (batches are not implemented), "
        "got " +
            lu.aval().str());
  const std::int64_t m = lu.shape()[0];
  if (lu.shape()[1] != m)
    X::fail<ShapeError>(fn, "argument lu must be square, got " + lu.aval().str());
  if (b.ndim() < 1 || b.ndim() > 2 || b.shape()[0] != m)
    X::fail<ShapeError>(fn, "argument b must be (n,) or (n, k) for lu " + lu.aval().str() +
                                ", got b " + b.aval().str());
  if (piv.ndim() != 1 || piv.shape()[0] > m)
    X::fail<ShapeError>(fn,
                        "argument piv must be 1-d with at most n entries, got " + piv.aval().str());
  if (lu.dtype() != b.dtype()) {
    const DType d = lu.dtype() == DType::f64 || b.dtype() == DType::f64 ? DType::f64 : DType::f32;
    lu = Array(lu.astype(d)), b = Array(b.astype(d));
  }
  // lu_pivots_to_permutation: swap perm[i] and perm[piv[i]] for each i in turn.
  const Array rows = iota(DType::i32, m);
  Array perm = rows;
  const Array p32 = piv.astype(DType::i32);
  for (std::int64_t i = 0; i < piv.shape()[0]; ++i) {
    const Array j = p32(i);
    const Array pi = perm(i), pj = take(perm, j);
    perm = Array(where(Array(rows == j), pi, perm)).at(i).set(pj);
  }
  Array x = b.ndim() == 1 ? Array(expand_dims(b, {1})) : b;
  using fj::lax::linalg::triangular_solve;
  if (trans == 0) {
    x = take(x, perm, 0);
    x = triangular_solve(lu, x, {.left_side = true, .lower = true, .unit_diagonal = true});
    x = triangular_solve(lu, x, {.left_side = true, .lower = false});
  } else {
    x = triangular_solve(lu, x, {.left_side = true, .lower = false, .transpose_a = true});
    x = triangular_solve(
        lu, x, {.left_side = true, .lower = true, .transpose_a = true, .unit_diagonal = true});
    x = take(x, Array(argsort(perm)), 0);
  }
  return b.ndim() == 1 ? Array(x(range(), 0)) : x;
}

/// jax.scipy.linalg.polar's keyword arguments: fj::scipy::linalg::polar(a, {.side = "left"}).
struct PolarOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::string side = "right";       ///< "right": a = u p, p (n, n); "left": a = p u, p (m, m)
  /// "svd" (the one fusejit has); JAX's default "qdwh" raises fj::NotImplementedError.
  std::string method = "svd";
};
/// jax.scipy.linalg.polar(a, side, method="svd"): {u, p}, u (m, n) with orthonormal columns
/// (or rows) and p positive semidefinite, from a's reduced svd as JAX's method "svd": u = U Vh,
/// p = Vh^T diag(s) Vh (right) or U diag(s) U^T (left); a batch (..., m, n) one matrix at a
/// time.
inline std::array<Array, 2> polar(const Array& a, const PolarOptions& o = {}) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::scipy::linalg::polar";
  if (a.ndim() < 2)
    X::fail<ShapeError>(fn, "argument a must be at least 2-d, got " + a.aval().str());
  if (o.side != "right" && o.side != "left")
    X::fail<ValueError>(fn, "side must be 'right' or 'left', got '" + o.side + "'");
  if (o.method == "qdwh")
    X::fail<NotImplementedError>(fn, "method 'qdwh' is not implemented; use method 'svd'");
  if (o.method != "svd")
    X::fail<ValueError>(fn, "unknown polar decomposition method '" + o.method + "'");
  if (a.ndim() > 2) {  // jnp.vectorize: each matrix of the batch on its own
    const std::vector<std::int64_t> shape = a.shape().to_vector();
    const std::int64_t m = shape[shape.size() - 2], n = shape[shape.size() - 1];
    const Array flat = detail::reshape_dyn(a, {a.size() / (m * n), m, n});
    std::vector<Array> us, ps;
    for (std::int64_t i = 0; i < flat.shape()[0]; ++i) {
      auto up = polar(Array(flat(i)), o);
      us.push_back(up[0]), ps.push_back(up[1]);
    }
    std::vector<std::int64_t> p_shape(shape.begin(), shape.end() - 2);
    const std::int64_t k = o.side == "right" ? n : m;
    p_shape.push_back(k), p_shape.push_back(k);
    return {detail::reshape_dyn(Array(stack(us, 0)), shape),
            detail::reshape_dyn(Array(stack(ps, 0)), p_shape)};
  }
  const auto usv = lax::linalg::svd(a, false, true);
  const Array &u = usv[0], &vh = usv[2];
  const Array s = usv[1].astype(u.dtype());
  const Array unitary = matmul(u, vh);
  const Array s_row = expand_dims(s, {0});
  const Array posdef = o.side == "right" ? Array(matmul(Array(Array(vh.T()) * s_row), vh))
                                         : Array(matmul(Array(u * s_row), Array(u.T())));
  return {unitary, posdef};
}

}  // namespace fj::scipy::linalg

namespace fj::detail::scipy_linalg {
/// Padé's (U, V) pair.
using PQ = std::pair<Array, Array>;
/// One Padé approximant's (U, V) for A (JAX's _pade3 ... _pade13, the coefficients b).
template <std::size_t N>
PQ pade(const Array& A, const std::array<double, N>& b) {
  const std::int64_t M = A.shape()[0];
  const Array ident = eye(M, M, 0, A.dtype());
  const auto d = [](const Array& x, const Array& y) { return Array(dot(x, y)); };
  const Array A2 = d(A, A);
  if constexpr (N == 4) {
    return {d(A, Array(Array(b[3] * A2) + Array(b[1] * ident))),
            Array(Array(b[2] * A2) + Array(b[0] * ident))};
  } else if constexpr (N == 6) {
    const Array A4 = d(A2, A2);
    return {d(A, Array(Array(Array(b[5] * A4) + Array(b[3] * A2)) + Array(b[1] * ident))),
            Array(Array(Array(b[4] * A4) + Array(b[2] * A2)) + Array(b[0] * ident))};
  } else if constexpr (N == 8) {
    const Array A4 = d(A2, A2), A6 = d(A4, A2);
    return {d(A, Array(Array(Array(Array(b[7] * A6) + Array(b[5] * A4)) + Array(b[3] * A2)) +
                       Array(b[1] * ident))),
            Array(Array(Array(Array(b[6] * A6) + Array(b[4] * A4)) + Array(b[2] * A2)) +
                  Array(b[0] * ident))};
  } else if constexpr (N == 10) {
    const Array A4 = d(A2, A2), A6 = d(A4, A2), A8 = d(A6, A2);
    return {d(A, Array(Array(Array(Array(Array(b[9] * A8) + Array(b[7] * A6)) + Array(b[5] * A4)) +
                             Array(b[3] * A2)) +
                       Array(b[1] * ident))),
            Array(Array(Array(Array(Array(b[8] * A8) + Array(b[6] * A6)) + Array(b[4] * A4)) +
                        Array(b[2] * A2)) +
                  Array(b[0] * ident))};
  } else {
    const Array A4 = d(A2, A2), A6 = d(A4, A2);
    const Array u_in =
        d(A6, Array(Array(Array(b[13] * A6) + Array(b[11] * A4)) + Array(b[9] * A2)));
    const Array v_in =
        d(A6, Array(Array(Array(b[12] * A6) + Array(b[10] * A4)) + Array(b[8] * A2)));
    return {
        d(A,
          Array(Array(Array(Array(u_in + Array(b[7] * A6)) + Array(b[5] * A4)) + Array(b[3] * A2)) +
                Array(b[1] * ident))),
        Array(Array(Array(Array(v_in + Array(b[6] * A6)) + Array(b[4] * A4)) + Array(b[2] * A2)) +
              Array(b[0] * ident))};
  }
}
inline constexpr std::array<double, 4> b3{120., 60., 12., 1.};
inline constexpr std::array<double, 6> b5{30240., 15120., 3360., 420., 30., 1.};
inline constexpr std::array<double, 8> b7{17297280., 8648640., 1995840., 277200.,
                                          25200.,    1512.,    56.,      1.};
inline constexpr std::array<double, 10> b9{17643225600., 8821612800., 2075673600., 302702400.,
                                           30270240.,    2162160.,    110880.,     3960.,
                                           90.,          1.};
inline constexpr std::array<double, 14> b13{64764752532480000.,
                                            32382376266240000.,
                                            7771770303897600.,
                                            1187353796428800.,
                                            129060195264000.,
                                            10559470521600.,
                                            670442572800.,
                                            33522128640.,
                                            1323241920.,
                                            40840800.,
                                            960960.,
                                            16380.,
                                            182.,
                                            1.};

/// expm of one (n, n) float matrix, as JAX's: _calc_P_Q, then lax.cond on too many squarings.
inline Array expm_2d(const Array& A_in, bool upper_triangular, int max_squarings) {
  const DType d = A_in.dtype();
  const Array A_L1 = fj::linalg::norm(A_in, 1);
  const bool f64 = d == DType::f64;
  const double maxnorm = f64 ? 5.371920351148152 : 3.925724783138660;
  const Array n_squarings = maximum(0.0, Array(floor(Array(log2(Array(A_L1 / maxnorm))))));
  const Array A = A_in / Array(pow(2.0, n_squarings.astype(d)));
  // jnp.digitize(A_L1, conds): the number of thresholds at or below the norm.
  const std::vector<double> cv =
      f64 ? std::vector<double>{1.495585217958292e-002, 2.539398330063230e-001,
                                9.504178996162932e-001, 2.097847961257068e+000}
          : std::vector<double>{4.258730016922831e-001, 1.880152677804762e+000};
  const Array conds = array(cv, Shape({static_cast<std::int64_t>(cv.size())})).astype(d);
  const Array idx = sum(Array(Array(conds <= A_L1).astype(DType::i32)));
  const PQ UV = f64 ? fj::lax::switch_(idx,
                                       std::tuple{[](const Array& x) { return pade(x, b3); },
                                                  [](const Array& x) { return pade(x, b5); },
                                                  [](const Array& x) { return pade(x, b7); },
                                                  [](const Array& x) { return pade(x, b9); },
                                                  [](const Array& x) { return pade(x, b13); }},
                                       A)
                    : fj::lax::switch_(idx,
                                       std::tuple{[](const Array& x) { return pade(x, b3); },
                                                  [](const Array& x) { return pade(x, b5); },
                                                  [](const Array& x) { return pade(x, b7); }},
                                       A);
  const Array P = UV.first + UV.second, Q = Array(-UV.first) + UV.second;
  return fj::lax::cond(
      Array(n_squarings > static_cast<double>(max_squarings)),
      [](const Array& a, const Array&, const Array&, const Array&) {
        return full_like(a, std::numeric_limits<double>::quiet_NaN());
      },
      [upper_triangular, max_squarings](const Array&, const Array& p, const Array& q,
                                        const Array& ns) {
        Array R = upper_triangular ? Array(fj::scipy::linalg::solve_triangular(q, p))
                                   : fj::linalg::solve(q, p);
        // _squaring: a scan over i < max_squarings squaring while i < n_squarings.
        const Array is = arange(0.0, static_cast<double>(max_squarings), 1.0).astype(ns.dtype());
        return fj::lax::scan(
                   [&ns](const Array& c, const Array& i) {
                     return std::pair{
                         fj::lax::cond(
                             Array(i < ns), [](const Array& x) { return Array(dot(x, x)); },
                             [](const Array& x) { return x; }, c),
                         Array(i)};
                   },
                   R, is)
            .first;
      },
      A_in, P, Q, n_squarings);
}
}  // namespace fj::detail::scipy_linalg

namespace fj::scipy::linalg {

/// jax.scipy.linalg.expm's keyword arguments: fj::scipy::linalg::expm(a, {.max_squarings = 20}).
struct ExpmOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  bool upper_triangular = false;    ///< A is upper triangular: a triangular solve, not an LU
  int max_squarings = 16;           ///< more squarings than this give NaNs, as JAX's
};
/// jax.scipy.linalg.expm(A): the matrix exponential of each (n, n) matrix in A's last two axes,
/// by JAX's Padé approximation with scaling and squaring: the 1-norm picks the Padé order (3,
/// 5, 7, 9 or 13; 3, 5, 7 for float32) and the number of squarings. Integers become floats.
/// fj::ShapeError for A not a (batch of) square matrix.
inline Array expm(const Array& A_in, const ExpmOptions& o = {}) {
  namespace X = detail::linalg_extras;
  const Array A = X::inexact(A_in);
  if (A.ndim() < 2 || A.shape()[A.ndim() - 1] != A.shape()[A.ndim() - 2])
    X::fail<ShapeError>("fj::scipy::linalg::expm",
                        "argument A must be a (batched) square matrix, got " + A.aval().str());
  if (A.ndim() == 2) return detail::scipy_linalg::expm_2d(A, o.upper_triangular, o.max_squarings);
  // jnp.vectorize: each matrix of the batch on its own.
  const std::int64_t n = A.shape()[A.ndim() - 1];
  const Array flat = detail::reshape_dyn(A, {A.size() / (n * n), n, n});
  std::vector<Array> outs;
  for (std::int64_t i = 0; i < flat.shape()[0]; ++i)
    outs.push_back(
        detail::scipy_linalg::expm_2d(Array(flat(i)), o.upper_triangular, o.max_squarings));
  return detail::reshape_dyn(Array(stack(outs, 0)), A.shape().to_vector());
}

}  // namespace fj::scipy::linalg
