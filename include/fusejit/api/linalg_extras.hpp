// jax.numpy.linalg's remaining real-valued functions (matrix_power, multi_dot, pinv,
// matrix_rank, cond, lstsq, svdvals, vector_norm, matrix_norm, tensorinv, tensorsolve), each
// composed from fusejit's operations as JAX 0.10.2 composes it, so that values agree with JAX's.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

// The whole API: these compositions use operations from most of its headers.
#include "fusejit/api/creation.hpp"
#include "fusejit/api/factories.hpp"
#include "fusejit/api/lu.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/expr/sort_scan.hpp"
#include "fusejit/api/spectral.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/einsum.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/operators.hpp"

namespace fj::detail::linalg_extras {

/// Throws E with "fn: what" and, where given, the operand's shape (as "f64[3,4]").
template <class E>
[[noreturn]] inline void fail(const char* fn, const std::string& what) {
  throw E(std::string(fn) + ": " + what);
}
/// Integers and bools become the default float, as promote_dtypes_inexact makes them.
inline Array inexact(const Array& a) {
  return is_float(a.dtype()) ? a : Array(a.astype(default_float_dtype()));
}
/// The machine epsilon of a float dtype (jnp.finfo(dtype).eps).
inline double eps_of(DType d) {
  return d == DType::f32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                         : std::numeric_limits<double>::epsilon();
}
/// Throws fj::ShapeError unless a has rank >= 2 and (if `square`) square last two axes.
inline void need_matrix(const char* fn, const char* arg, const Array& a, bool square) {
  if (a.ndim() < 2)
    fail<ShapeError>(fn, "argument " + std::string(arg) +
                             " must be at least two-dimensional, got " + a.aval().str());
  if (square && a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    fail<ShapeError>(fn, "argument " + std::string(arg) +
                             " must be a square matrix (or a batch of them), got " +
                             a.aval().str());
}
/// x[..., lo:hi] along the last axis.
inline Array last(const Array& x, std::int64_t lo, std::int64_t hi) {
  return detail::slice_axis(x, x.ndim() - 1, lo, hi);
}
/// The matrix transpose of the last two axes (x.mT).
inline Array mT(const Array& x) { return matrix_transpose(x); }
/// The product of a range of extents.
inline std::int64_t prod(const std::vector<std::int64_t>& v, std::size_t lo, std::size_t hi) {
  std::int64_t p = 1;
  for (std::size_t i = lo; i < hi; ++i) p *= v[i];
  return p;
}
/// Shape text "(3, 4)" of a list of arrays, for multi_dot's messages.
inline std::string shapes_of(const std::vector<Array>& xs) {
  std::string s;
  for (const Array& x : xs) s += (s.empty() ? "" : ", ") + x.aval().str();
  return "[" + s + "]";
}

/// jnp.linalg.svd(a, hermitian=True)'s {u, s, vh} (reduced) or {s}: lax.linalg.eigh, the
/// singular values |w| sorted descending (a stable sort reversed, as JAX's lax.sort then rev),
/// u the eigenvectors in that order and vh = (u * sign(w))^T.
inline std::vector<Array> hermitian_svd(const Array& a, bool compute_uv) {
  const auto vw = fj::lax::linalg::eigh(a);
  const Array s = abs(vw[1]);
  const int last_axis = s.ndim() - 1;
  if (!compute_uv) return {Array(fj::flip(Array(fj::sort(s, last_axis)), {last_axis}))};
  const Array order = fj::flip(Array(fj::argsort(s, last_axis)), {last_axis});
  const Array s_sorted = take_along_axis(s, order, last_axis);
  const Array sgn = take_along_axis(Array(fj::sign(vw[1])), order, last_axis);
  // Broadcast by hand: fj::take_along_axis wants indices of the operand's full shape.
  const Array u = take_along_axis(
      vw[0], Array(broadcast_to(Array(expand_dims(order, {last_axis})), vw[0].shape())),
      last_axis + 1);
  return {u, s_sorted, mT(Array(u * Array(expand_dims(sgn, {last_axis}))))};
}

}  // namespace fj::detail::linalg_extras

namespace fj::linalg {

/// jnp.linalg.matrix_power(a, n): a (..., m, m) multiplied by itself n times, by JAX's
/// repeated squaring (n = 2 is a @ a, n = 3 (a @ a) @ a, larger n the binary powers of a
/// multiplied in from the lowest bit); n = 0 gives the identity broadcast to a's shape, n < 0
/// the power of inv(a). fj::ShapeError for a of rank < 2 or not square.
inline Array matrix_power(const Array& a, std::int64_t n) {
  namespace X = detail::linalg_extras;
  X::need_matrix("fj::linalg::matrix_power", "a", a, true);
  if (n == 0) return Array(broadcast_to(eye(a.shape()[a.ndim() - 1], -1, 0, a.dtype()), a.shape()));
  Array arr = a;
  if (n < 0) {
    arr = inv(arr);
    n = -n;
  }
  if (n == 1) return arr;
  if (n == 2) return Array(matmul(arr, arr));
  if (n == 3) return Array(matmul(Array(matmul(arr, arr)), arr));
  std::optional<Array> z, result;
  while (n > 0) {
    z = z ? Array(matmul(*z, *z)) : arr;
    const bool bit = n % 2 != 0;
    n /= 2;
    if (bit) result = result ? Array(matmul(*result, *z)) : *z;
  }
  return *result;
}

/// jnp.linalg.multi_dot(arrays): the chained product of two or more arrays, all 2-d but the
/// first and last (which may be 1-d), staged as JAX's one einsum over the chain (the
/// contraction order chosen by the einsum path). fj::ValueError for fewer than two arrays,
/// fj::ShapeError for a wrong rank or adjacent extents that differ.
inline Array multi_dot(const std::vector<Array>& arrays) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::linalg::multi_dot";
  const std::size_t k = arrays.size();
  if (k < 2)
    X::fail<ValueError>(fn, "arrays must hold at least two arrays, got " + std::to_string(k));
  if (k > 25) X::fail<ValueError>(fn, "at most 25 arrays are supported, got " + std::to_string(k));
  for (std::size_t i = 0; i < k; ++i) {
    const int r = arrays[i].ndim();
    const bool end = i == 0 || i + 1 == k;
    if (!(r == 2 || (end && r == 1)))
      X::fail<ShapeError>(fn,
                          "the arrays must be two-dimensional, except the first and last "
                          "which may be one-dimensional; got shapes " +
                              X::shapes_of(arrays));
  }
  for (std::size_t i = 0; i + 1 < k; ++i)
    if (arrays[i].shape()[arrays[i].ndim() - 1] != arrays[i + 1].shape()[0])
      X::fail<ShapeError>(fn,
                          "the last extent of each array must match the first of the next; "
                          "got shapes " +
                              X::shapes_of(arrays));
  // Axis ids (i, i + 1) per operand as JAX's, spelled as letters.
  std::string sub;
  for (std::size_t i = 0; i < k; ++i) {
    if (i) sub += ',';
    const char lo = static_cast<char>('a' + i), hi = static_cast<char>('a' + i + 1);
    if (i == 0 && arrays[i].ndim() == 1)
      sub += hi;
    else if (i + 1 == k && arrays[i].ndim() == 1)
      sub += lo;
    else
      sub += std::string{lo, hi};
  }
  return Array(einsum(sub, arrays));
}

/// jnp.linalg.svdvals(x): the singular values of each matrix in x's last two axes, descending.
inline Array svdvals(const Array& x) { return svd(x, true, false).at(0); }

/// jnp.linalg.pinv's keyword arguments: fj::linalg::pinv(a, {.rtol = 1e-10}).
struct PinvOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  /// Singular values below rtol times the largest are dropped; by default 10 max(m, n) eps.
  std::optional<double> rtol = std::nullopt;
  bool hermitian = false;  ///< a is symmetric: its svd from eigh, as JAX's hermitian=True
};
/// jnp.linalg.pinv(a, rtol, hermitian): the Moore-Penrose pseudo-inverse (..., n, m) of each matrix
/// in a's last two axes, from its reduced svd: vh^T (u^T / s) with the singular values at or below
/// rtol * s[0] taken as infinite (their terms dropped). fj::ShapeError for a of rank < 2.
inline Array pinv(const Array& a, const PinvOptions& o = {}) {
  namespace X = detail::linalg_extras;
  X::need_matrix("fj::linalg::pinv", "a", a, false);
  const Array arr = X::inexact(a);
  const std::int64_t m = arr.shape()[arr.ndim() - 2], n = arr.shape()[arr.ndim() - 1];
  if (m == 0 || n == 0) {
    std::vector<std::int64_t> s = arr.shape().to_vector();
    s[s.size() - 2] = n, s[s.size() - 1] = m;
    return zeros(Shape(s), arr.dtype());
  }
  // JAX's 10. * max(m, n) * eps: a Python float times an array of the dtype.
  const Array rtol = o.rtol ? Array(full({}, *o.rtol, arr.dtype()))
                            : Array(full({}, X::eps_of(arr.dtype()), arr.dtype()) *
                                    (10.0 * static_cast<double>(std::max(m, n))));
  const auto usv = o.hermitian ? X::hermitian_svd(arr, true) : svd(arr, false, true);
  const Array &u = usv[0], &s = usv[1], &vh = usv[2];
  const Array cutoff = rtol * X::last(s, 0, 1);
  const Array s_inf = where(s > cutoff, s, std::numeric_limits<double>::infinity());
  return Array(matmul(X::mT(vh), Array(X::mT(u) / Array(expand_dims(s_inf, {-1})))));
}

/// jnp.linalg.matrix_rank's keyword arguments: fj::linalg::matrix_rank(m, {.rtol = 1e-6}).
struct MatrixRankOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  /// The threshold the singular values are compared with, as JAX uses it (an absolute value);
  /// by default the largest singular value times max(m, n) eps.
  std::optional<double> rtol = std::nullopt;
  /// JAX's older name for rtol; giving both raises fj::ValueError.
  std::optional<double> tol = std::nullopt;
  bool hermitian = false;  ///< M is symmetric: singular values from eigh, as JAX's hermitian=True
};
/// jnp.linalg.matrix_rank(M): the number of singular values of each matrix in M's last two axes
/// above the threshold (the default int dtype); a vector or scalar gives 1 if any element is
/// nonzero, else 0 (int32), as JAX's.
inline Array matrix_rank(const Array& M, const MatrixRankOptions& o = {}) {
  namespace X = detail::linalg_extras;
  if (o.rtol && o.tol)
    X::fail<ValueError>("fj::linalg::matrix_rank", "only one of tol or rtol may be given");
  const std::optional<double> given = o.rtol ? o.rtol : o.tol;
  const Array m = X::inexact(M);
  if (m.ndim() < 2) return Array(Array(m != 0.0).any().astype(DType::i32));
  const Array S = o.hermitian ? X::hermitian_svd(m, false)[0] : svdvals(m);
  const double mx = static_cast<double>(std::max(m.shape()[m.ndim() - 2], m.shape()[m.ndim() - 1]));
  const Array rtol = given ? Array(full({}, *given, S.dtype()))
                           : Array(Array(S.max({-1}) * full({}, mx, S.dtype())) *
                                   full({}, X::eps_of(S.dtype()), S.dtype()));
  const Array above = S > Array(expand_dims(rtol, {rtol.ndim()}));
  return Array(sum(above, detail::reduce_over(-1, false)));
}

/// jnp.linalg.cond(x, p): the condition number of each matrix in x's last two axes: with p
/// none or 2 the ratio of its largest to smallest singular value, with -2 the inverse ratio,
/// else (a square matrix) norm(x, p) norm(inv(x), p); a NaN result for an input without NaNs
/// becomes inf. fj::ShapeError for x of rank < 2, empty, or (other p) not square.
inline Array cond(const Array& x, NormOrder p = none) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::linalg::cond";
  X::need_matrix(fn, "x", x, false);
  const std::int64_t m = x.shape()[x.ndim() - 2], n = x.shape()[x.ndim() - 1];
  if (m == 0 || n == 0)
    X::fail<ShapeError>(fn, "argument x must not be empty, got " + x.aval().str());
  const bool is_num = !p.ord.is_default && p.ord.name.empty();
  const auto pick = [](const Array& s, std::int64_t i) { return Array(s(fj::ellipsis, i)); };
  Array r;
  if (p.ord.is_default || (is_num && p.ord.p == 2)) {
    const Array s = svdvals(x);
    return Array(pick(s, 0) / pick(s, -1));
  } else if (is_num && p.ord.p == -2) {
    const Array s = svdvals(x);
    r = pick(s, -1) / pick(s, 0);
  } else {
    if (m != n) X::fail<ShapeError>(fn, "for this p, x must be square, got " + x.aval().str());
    r = norm(x, p, {-2, -1}) * norm(inv(x), p, {-2, -1});
  }
  const Array nan_in = isnan(x).any({-2, -1});
  return Array(where(logical_and(isnan(r), logical_not(nan_in)),
                     std::numeric_limits<double>::infinity(), r));
}

/// jnp.linalg.lstsq(a, b, rcond): {x, residuals, rank, s}, the least-squares solution x of
/// a x = b for a (m, n) and b (m,) or (m, k) from a's reduced svd (singular values below rcond
/// times the largest, or zero, dropped), the squared 2-norms of b - a x's columns ((k,), (1,)
/// for a vector b), the number of singular values kept (the default int dtype) and the singular
/// values s. rcond: by default eps max(m, n); a negative one means eps. fj::ShapeError for a
/// not 2-d, b not 1- or 2-d, or a and b with different first extents.
inline std::array<Array, 4> lstsq(const Array& a_in, const Array& b_in,
                                  std::optional<double> rcond = std::nullopt) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::linalg::lstsq";
  Array a = X::inexact(a_in), b = X::inexact(b_in);
  if (a.dtype() != b.dtype()) {  // promote_dtypes_inexact: the wider float
    const DType d = a.dtype() == DType::f64 || b.dtype() == DType::f64 ? DType::f64 : DType::f32;
    a = Array(a.astype(d)), b = Array(b.astype(d));
  }
  if (a.ndim() != 2)
    X::fail<ShapeError>(fn, "argument a must be two-dimensional, got " + a.aval().str());
  if (b.ndim() != 1 && b.ndim() != 2)
    X::fail<ShapeError>(fn, "argument b must be one- or two-dimensional, got " + b.aval().str());
  if (a.shape()[0] != b.shape()[0])
    X::fail<ShapeError>(fn, "arguments a and b must have the same leading extent, got a " +
                                a.aval().str() + " and b " + b.aval().str());
  const bool vec = b.ndim() == 1;
  if (vec) b = Array(expand_dims(b, {1}));
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  const DType d = a.dtype();
  const double eps = X::eps_of(d);
  Array x, rank, s;
  if (a.size() == 0) {
    s = zeros(Shape({0}), d);
    rank = full({}, 0, default_int_dtype());
    x = zeros(Shape({n, b.shape()[1]}), d);
  } else {
    const double rc = !rcond       ? eps * static_cast<double>(std::max(n, m))
                      : *rcond < 0 ? eps
                                   : *rcond;
    const auto usv = svd(a, false, true);
    const Array& u = usv[0];
    s = usv[1];
    const Array& vt = usv[2];
    const Array mask = logical_and(s > 0.0, s >= Array(full({}, rc, d) * Array(s(0))));
    rank = Array(sum(mask));
    const Array safe_s = where(mask, s, 1.0);
    const Array s_inv = expand_dims(Array(where(mask, Array(1.0 / safe_s), 0.0)), {1});
    const Array uTb = matmul(Array(u.T()), b);
    x = Array(matmul(Array(vt.T()), Array(s_inv * uTb)));
  }
  const Array b_est = matmul(a, x);
  const Array resid = integer_pow(Array(norm(Array(b - b_est), none, 0)), 2);
  if (vec) x = Array(x.ravel());
  return {x, resid, rank, s};
}

/// jnp.linalg.vector_norm's keyword arguments: fj::linalg::vector_norm(x, {.axis = 0, .ord =
/// 1}).
struct VectorNormOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  Axes axis = none;                 ///< the axes reduced (all by default)
  bool keepdims = false;            ///< keep each reduced axis with extent 1
  double ord = 2;  ///< 2, INFINITY, -INFINITY, 0 (a count), 1, or any other p (sum |x|^p)^(1/p)
};
/// jnp.linalg.vector_norm(x, axis, keepdims, ord): the vector norm over `axis` (all axes by
/// default) by JAX's formula for each order.
inline Array vector_norm(const Array& x, const VectorNormOptions& o = {}) {
  const ReduceOptions r = detail::reduce_over(o.axis, o.keepdims);
  const double inf = std::numeric_limits<double>::infinity();
  if (o.ord == 2) return Array(sqrt(Array(sum(Array(x * x), r))));
  const Array ax = abs(x);
  if (o.ord == inf) return Array(max(ax, r));
  if (o.ord == -inf) return Array(min(ax, r));
  if (o.ord == 0) {
    const DType f = is_float(x.dtype()) ? x.dtype() : default_float_dtype();
    return Array(sum(Array(Array(x != 0).astype(f)), r));
  }
  if (o.ord == 1) return Array(sum(ax, r));
  // _const(abs_x, ord) and _const(abs_x, 1. / ord): both in x's dtype.
  const Array ord_arr = full({}, o.ord, ax.dtype());
  const Array ord_inv = Array(1.0 / ord_arr).astype(ax.dtype());
  return Array(pow(Array(sum(Array(pow(ax, ord_arr)), r)), ord_inv));
}

/// jnp.linalg.matrix_norm's keyword arguments: fj::linalg::matrix_norm(x, {.ord = 1}).
struct MatrixNormOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  bool keepdims = false;            ///< keep the two reduced axes with extent 1
  NormOrder ord = "fro";            ///< "fro" (the default), "nuc", 1, -1, 2, -2, inf or -inf
};
/// jnp.linalg.matrix_norm(x, keepdims, ord): fj::linalg::norm over the last two axes.
inline Array matrix_norm(const Array& x, const MatrixNormOptions& o = {}) {
  return Array(norm(x, o.ord, {-2, -1}, o.keepdims));
}

/// jnp.linalg.tensorinv(a, ind): the inverse of a read as a matrix with the first `ind` axes
/// as rows and the rest as columns; the result has a's last axes, then its first `ind`.
/// fj::ValueError for ind <= 0, fj::ShapeError for the two products of extents unequal.
inline Array tensorinv(const Array& a, int ind = 2) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::linalg::tensorinv";
  if (ind <= 0)
    X::fail<ValueError>(fn, "ind must be a positive integer, got " + std::to_string(ind));
  if (ind > a.ndim())
    X::fail<ShapeError>(fn,
                        "ind " + std::to_string(ind) + " exceeds the rank of a " + a.aval().str());
  const std::vector<std::int64_t> s = a.shape().to_vector();
  const auto k = static_cast<std::size_t>(ind);
  const std::int64_t rows = X::prod(s, 0, k), cols = X::prod(s, k, s.size());
  if (rows != cols)
    X::fail<ShapeError>(fn,
                        "the product of the first ind extents must equal that of the rest, "
                        "got a " +
                            a.aval().str() + " with ind " + std::to_string(ind));
  std::vector<std::int64_t> out(s.begin() + ind, s.end());
  out.insert(out.end(), s.begin(), s.begin() + ind);
  return detail::reshape_dyn(inv(detail::reshape_dyn(a, {rows, cols})), out);
}

/// jnp.linalg.tensorsolve(a, b, axes): x with tensordot(a, x, x.ndim) = b, a's leading axes
/// matching b's shape; `axes` (if given) are moved to the end of a first. fj::ShapeError for
/// a's leading extents not b's shape, or its trailing ones not holding b.size elements.
inline Array tensorsolve(const Array& a, const Array& b,
                         const std::optional<std::vector<int>>& axes = std::nullopt) {
  namespace X = detail::linalg_extras;
  constexpr const char* fn = "fj::linalg::tensorsolve";
  Array arr = a;
  if (axes) arr = moveaxis(arr, *axes, std::vector<int>(axes->size(), arr.ndim() - 1));
  const std::vector<std::int64_t> s = arr.shape().to_vector();
  const auto bn = static_cast<std::size_t>(b.ndim());
  if (bn > s.size() ||
      std::vector<std::int64_t>(s.begin(), s.begin() + b.ndim()) != b.shape().to_vector())
    X::fail<ShapeError>(fn,
                        "after moving axes to the end, a's leading extents must be b's "
                        "shape; got a " +
                            arr.aval().str() + " and b " + b.aval().str());
  const std::vector<std::int64_t> out(s.begin() + b.ndim(), s.end());
  if (b.size() != X::prod(out, 0, out.size()))
    X::fail<ShapeError>(fn, "a's trailing extents must hold b.size elements; got a " +
                                arr.aval().str() + " and b " + b.aval().str());
  return detail::reshape_dyn(
      solve(detail::reshape_dyn(arr, {b.size(), X::prod(out, 0, out.size())}), Array(b.ravel())),
      out);
}

}  // namespace fj::linalg
