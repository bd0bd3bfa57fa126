// jax.scipy.special's functions that compose fusejit's elementwise operations (expit, xlogy,
// entr, ndtr, ndtri, log_ndtr, the gamma family, boxcox, ...) under fj::scipy::special::, each
// written as JAX 0.10.2 writes it in jax/_src/scipy/special.py, so each gives JAX's values.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/axes.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {
namespace detail {

/// fj::DTypeError unless `x` is f32 or f64: ndtr, ndtri and log_ndtr pick their constants by
/// the float type, and JAX raises TypeError for any other.
inline void require_f32_or_f64(const char* fn, const char* arg, const Array& x) {
  if (!is_float(x.dtype()))
    throw DTypeError(std::string(fn) + ": " + arg + " must be f32 or f64, got " + x.aval().str());
}

/// The float dtype jax.scipy.special computes `x` in (promote_args_inexact): x's own if a float,
/// f64 for i64, else f32 (JAX's to_inexact_dtype keeps the width).
inline DType inexact_dtype(const Array& x) {
  if (is_float(x.dtype())) return x.dtype();
  return x.dtype() == DType::i64 ? DType::f64 : DType::f32;
}
/// `x` converted to inexact_dtype(x), as promote_args_inexact leaves one operand.
inline Array inexact(const Array& x) {
  return is_float(x.dtype()) ? x : Array(fj::astype(x, inexact_dtype(x)));
}
/// Two operands as promote_args_inexact leaves them: both converted when neither is a float;
/// otherwise the float one promotes the other in the arithmetic that follows.
inline std::pair<Array, Array> inexact(const Array& a, const Array& b) {
  if (is_float(a.dtype()) || is_float(b.dtype())) return {a, b};
  return {inexact(a), inexact(b)};
}

/// jnp.polyval(coefficients, x) as JAX stages it: y = 0, then y = y * x + c for each c, highest
/// degree first.
inline Array polyval(const std::vector<double>& coefficients, const Array& x) {
  Array y = x * 0.0 + coefficients[0];  // 0 * x + c0, JAX's first step (x is finite here)
  for (std::size_t i = 1; i < coefficients.size(); ++i) y = y * x + coefficients[i];
  return y;
}

/// JAX's _ndtr: the standard normal CDF through erf near 0 and erfc in the tails.
inline Array ndtr_core(const Array& x) {
  // dtype(0.5) * sqrt(2) in x's float type, as JAX builds it: exact (a power of two times a
  // correctly rounded square root).
  const double half_sqrt_2 =
      x.dtype() == DType::f32 ? static_cast<double>(0.5f * std::sqrt(2.0f)) : 0.5 * std::sqrt(2.0);
  const Array w = x * half_sqrt_2;
  const Array z = fj::abs(w);
  const Array y = fj::where(z < half_sqrt_2, 1.0 + fj::erf(w),
                            fj::where(w > 0.0, 2.0 - fj::erfc(z), fj::erfc(z)));
  return Array(0.5 * y);
}

/// JAX's _log_ndtr_lower: log ndtr(x) for x far below 0, by the asymptotic series of erfc.
inline Array log_ndtr_lower(const Array& x, int series_order) {
  const Array x_2 = fj::square(x);
  const double log_sqrt_2pi = 0.5 * std::log(2.0 * std::numbers::pi);
  const Array log_scale = -0.5 * x_2 - fj::log(-x) - log_sqrt_2pi;
  if (series_order <= 0) return Array(log_scale + fj::log(fj::full({}, 1.0, x.dtype())));
  std::optional<Array> even_sum, odd_sum;  // JAX starts both at zeros; 0 + y is y exactly
  Array x_2n = x_2;
  std::uint64_t double_factorial = 1;  // (2n - 1)!!
  for (int n = 1; n <= series_order; ++n) {
    // JAX takes (2n - 1)!! as np.prod of int64s, which wraps from n = 18; so does this.
    if (n > 1) double_factorial *= static_cast<std::uint64_t>(2 * n - 1);
    const Array y = static_cast<double>(static_cast<std::int64_t>(double_factorial)) / x_2n;
    std::optional<Array>& sum = n % 2 ? odd_sum : even_sum;
    sum = sum ? Array(*sum + y) : y;
    x_2n = x_2n * x_2;
  }
  Array series = even_sum ? Array(1.0 + *even_sum) : fj::full({}, 1.0, x.dtype());
  series = series - *odd_sum;
  return Array(log_scale + fj::log(series));
}

/// JAX's algdiv (from SciPy's cdflib): lgamma(b) - lgamma(a + b) for b >= 8, a <= b.
inline Array algdiv(const Array& a, const Array& b) {
  constexpr double c0 = 0.833333333333333e-01, c1 = -0.277777777760991e-02,
                   c2 = 0.793650666825390e-03, c3 = -0.595202931351870e-03,
                   c4 = 0.837308034031215e-03, c5 = -0.165322962780713e-02;
  const Array h = a / b;
  const Array c = h / (1 + h);
  const Array x = h / (1 + h);
  const Array d = b + (a - 0.5);
  // sN = (1 - x^n) / (1 - x), by the same recurrence as JAX's.
  const Array x2 = x * x;
  const Array s3 = 1.0 + (x + x2);
  const Array s5 = 1.0 + (x + x2 * s3);
  const Array s7 = 1.0 + (x + x2 * s5);
  const Array s9 = 1.0 + (x + x2 * s7);
  const Array s11 = 1.0 + (x + x2 * s9);
  const Array t = fj::integer_pow(1.0 / b, 2);
  Array w = ((((c5 * s11 * t + c4 * s9) * t + c3 * s7) * t + c2 * s5) * t + c1 * s3) * t + c0;
  w = w * (c / b);
  const Array u = d * fj::log1p(a / b);
  const Array v = a * (fj::log(b) - 1.0);
  return Array(fj::where(u <= v, (w - v) - u, (w - u) - v));
}

}  // namespace detail

/// \namespace fj::scipy::special
/// jax.scipy.special: the logistic and entropy functions, the normal distribution (ndtr, ndtri,
/// log_ndtr), the gamma family and Box-Cox, each composed as JAX composes it; erf, erfc, gammaln,
/// digamma, polygamma and logsumexp are fj::erf, ... and fj::nn::logsumexp, brought in by name.
namespace scipy::special {

/// jax.scipy.special.erf: the error function (fj::erf).
using fj::erf;
/// jax.scipy.special.erfc: 1 - erf(x) (fj::erfc).
using fj::erfc;
/// jax.scipy.special.gammaln: log |Gamma(x)| (fj::gammaln, lax.lgamma).
using fj::gammaln;
/// jax.scipy.special.digamma: the derivative of gammaln (fj::digamma).
using fj::digamma;
/// jax.scipy.special.polygamma(m, x): the m-th derivative of digamma (fj::polygamma).
using fj::polygamma;
/// jax.scipy.special.logsumexp: fj::nn::logsumexp, with the same overloads (axis, weights b,
/// keepdims).
using nn::logsumexp;

/// jax.scipy.special.i0e: exp(-|x|) I0(x) (lax.bessel_i0e).
inline Array i0e(const Array& x) { return Array(lax::bessel_i0e(detail::inexact(x))); }
/// jax.scipy.special.i0: I0(x), the modified Bessel function of order 0, exp(|x|) i0e(x).
inline Array i0(const Array& x) {
  const Array v = detail::inexact(x);
  return Array(fj::exp(fj::abs(v)) * lax::bessel_i0e(v));
}
/// jax.scipy.special.i1e: exp(-|x|) I1(x) (lax.bessel_i1e).
inline Array i1e(const Array& x) { return Array(lax::bessel_i1e(detail::inexact(x))); }
/// jax.scipy.special.i1: I1(x), the modified Bessel function of order 1, exp(|x|) i1e(x).
inline Array i1(const Array& x) {
  const Array v = detail::inexact(x);
  return Array(fj::exp(fj::abs(v)) * lax::bessel_i1e(v));
}
/// jax.scipy.special.zeta(x, q): the Hurwitz zeta function (lax.zeta), both operands promoted to
/// one float dtype. JAX's Riemann form (q omitted) raises there too; JAX differentiates it by a
/// series (custom_jvp), fusejit does not yet (fj::grad raises, naming zeta).
inline Array zeta(const Array& x, const Array& q) {
  return Array(detail::make_node(detail::FloatBinaryOp<ir::Prim::zeta>{}, x, q));
}

/// jax.scipy.special.gammainc(a, x): the regularized lower incomplete gamma function P(a, x)
/// (lax.igamma), both operands promoted to one float dtype.
inline Array gammainc(const Array& a, const Array& x) {
  return Array(detail::make_node(detail::FloatBinaryOp<ir::Prim::igamma>{}, a, x));
}
/// jax.scipy.special.gammaincc(a, x): the regularized upper incomplete gamma function Q(a, x) =
/// 1 - P(a, x) (lax.igammac).
inline Array gammaincc(const Array& a, const Array& x) {
  return Array(detail::make_node(detail::FloatBinaryOp<ir::Prim::igammac>{}, a, x));
}

/// jax.scipy.special.erfinv: the inverse of erf (lax.erf_inv, fj::erf_inv).
inline Array erfinv(const Array& x) { return Array(fj::erf_inv(detail::inexact(x))); }

/// jax.scipy.special.softmax: fj::nn::softmax, but over all axes by default (SciPy's axis=None).
inline Array softmax(const Array& x, Axes axis = none) { return Array(nn::softmax(x, axis)); }

/// jax.scipy.special.log_softmax: fj::nn::log_softmax, over all axes by default.
inline Array log_softmax(const Array& x, Axes axis = none) {
  return Array(nn::log_softmax(x, axis));
}

/// jax.scipy.special.expit: the logistic sigmoid 1 / (1 + e^-x) (lax.logistic).
inline Array expit(const Array& x) { return Array(fj::logistic(detail::inexact(x))); }

/// jax.scipy.special.logit: log(x / (1 - x)), the inverse of expit.
inline Array logit(const Array& x) {
  const Array p = detail::inexact(x);
  return Array(fj::log(p / (1 - p)));
}

/// jax.scipy.special.xlogy: x * log(y), 0 where x is 0 unless y is NaN (so xlogy(0, 0) = 0).
inline Array xlogy(const Array& x_in, const Array& y_in) {
  const auto [x, y] = detail::inexact(x_in, y_in);
  return Array(fj::where(fj::logical_or(x != 0.0, fj::isnan(y)), x * fj::log(y), 0.0));
}

/// jax.scipy.special.xlog1py: x * log1p(y), 0 where x is 0 unless y is NaN.
inline Array xlog1py(const Array& x_in, const Array& y_in) {
  const auto [x, y] = detail::inexact(x_in, y_in);
  return Array(fj::where(fj::logical_or(x != 0.0, fj::isnan(y)), x * fj::log1p(y), 0.0));
}

/// jax.scipy.special.entr: -x log x for x > 0, 0 at 0, -inf below 0.
inline Array entr(const Array& x_in) {
  const Array x = detail::inexact(x_in);
  return Array(fj::where(x < 0, -std::numeric_limits<double>::infinity(), -xlogy(x, x)));
}

/// jax.scipy.special.rel_entr: p log(p / q) where p, q > 0, 0 where p = 0 and q >= 0, else
/// +inf; computed as xlogy(p, p) - xlogy(p, q), as JAX does.
inline Array rel_entr(const Array& p_in, const Array& q_in) {
  const auto [p, q] = detail::inexact(p_in, q_in);
  const Array both_positive = fj::logical_and(p > 0.0, q > 0.0);
  const Array p_zero = fj::logical_and(p == 0.0, q >= 0.0);
  const Array safe_p = fj::where(both_positive, p, 1);
  const Array safe_q = fj::where(both_positive, q, 1);
  const Array log_val = xlogy(safe_p, safe_p) - xlogy(safe_p, safe_q);
  return Array(fj::where(both_positive, log_val,
                         fj::where(p_zero, 0.0, std::numeric_limits<double>::infinity())));
}

/// jax.scipy.special.kl_div: rel_entr(p, q) - p + q.
inline Array kl_div(const Array& p_in, const Array& q_in) {
  const auto [p, q] = detail::inexact(p_in, q_in);
  return Array(rel_entr(p, q) - p + q);
}

/// jax.scipy.special.ndtr: the standard normal CDF; x must be f32 or f64 (fj::DTypeError).
inline Array ndtr(const Array& x) {
  detail::require_f32_or_f64("fj::scipy::special::ndtr", "x", x);
  return detail::ndtr_core(x);
}

/// jax.scipy.special.ndtri: the inverse of ndtr (-inf at 0, inf at 1, NaN outside [0, 1]), by
/// the Cephes rational approximations JAX uses; p must be f32 or f64 (fj::DTypeError).
inline Array ndtri(const Array& p) {
  detail::require_f32_or_f64("fj::scipy::special::ndtri", "p", p);
  // Cephes' coefficients, highest degree first, as JAX lists them.
  static const std::vector<double> p0 = {-5.99633501014107895267E1, 9.80010754185999661536E1,
                                         -5.66762857469070293439E1, 1.39312609387279679503E1,
                                         -1.23916583867381258016E0};
  static const std::vector<double> q0 = {1.0,
                                         1.95448858338141759834E0,
                                         4.67627912898881538453E0,
                                         8.63602421390890590575E1,
                                         -2.25462687854119370527E2,
                                         2.00260212380060660359E2,
                                         -8.20372256168333339912E1,
                                         1.59056225126211695515E1,
                                         -1.18331621121330003142E0};
  static const std::vector<double> p1 = {
      4.05544892305962419923E0,   3.15251094599893866154E1,   5.71628192246421288162E1,
      4.40805073893200834700E1,   1.46849561928858024014E1,   2.18663306850790267539E0,
      -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4};
  static const std::vector<double> q1 = {1.0,
                                         1.57799883256466749731E1,
                                         4.53907635128879210584E1,
                                         4.13172038254672030440E1,
                                         1.50425385692907503408E1,
                                         2.50464946208309415979E0,
                                         -1.42182922854787788574E-1,
                                         -3.80806407691578277194E-2,
                                         -9.33259480895457427372E-4};
  static const std::vector<double> p2 = {
      3.23774891776946035970E0,  6.91522889068984211695E0,  3.93881025292474443415E0,
      1.33303460815807542389E0,  2.01485389549179081538E-1, 1.23716634817820021358E-2,
      3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9};
  static const std::vector<double> q2 = {1.0,
                                         6.02427039364742014255E0,
                                         3.67983563856160859403E0,
                                         1.37702099489081330271E0,
                                         2.16236993594496635890E-1,
                                         1.34204006088543189037E-2,
                                         3.28014464682127739104E-4,
                                         2.89247864745380683936E-6,
                                         6.79019408009981274425E-9};
  const double inf = std::numeric_limits<double>::infinity();
  const Array maybe_complement_p = fj::where(p > -std::expm1(-2.0), 1.0 - p, p);
  // 0 would make NaNs below; its result is replaced at the end, so any harmless value does.
  const Array mcp = fj::where(maybe_complement_p == 0.0, 0.5, maybe_complement_p);
  // p > exp(-2): x / sqrt(2 pi) = w + w^3 P0(w^2) / Q0(w^2).
  const Array w = mcp - 0.5;
  const Array ww = fj::square(w);
  Array x_for_big_p = w + w * ww * (detail::polyval(p0, ww) / detail::polyval(q0, ww));
  x_for_big_p = x_for_big_p * -std::sqrt(2.0 * std::numbers::pi);
  // p <= exp(-2): x = z - log(z) / z - P(1/z) / Q(1/z) / z with z = sqrt(-2 log p), P/Q by
  // whether z >= 8 (p < exp(-32)).
  const Array z = fj::sqrt(-2.0 * fj::log(mcp));
  const Array first_term = z - fj::log(z) / z;
  const Array inv_z = 1 / z;
  const Array second_term_small_p = detail::polyval(p2, inv_z) / detail::polyval(q2, inv_z) / z;
  const Array second_term_otherwise = detail::polyval(p1, inv_z) / detail::polyval(q1, inv_z) / z;
  const Array x_for_small_p = first_term - second_term_small_p;
  const Array x_otherwise = first_term - second_term_otherwise;
  Array x =
      fj::where(mcp > std::exp(-2.0), x_for_big_p, fj::where(z >= 8.0, x_for_small_p, x_otherwise));
  x = fj::where(p > 1.0 - std::exp(-2.0), x, -x);
  return Array(fj::where(p == 0.0, -inf, fj::where(p == 1.0, inf, x)));
}

/// jax.scipy.special.log_ndtr: log(ndtr(x)), accurate in both tails: -ndtr(-x) above 8 (5 for
/// f32), log(ndtr(x)) down to -20 (-10), below that an asymptotic series of `series_order`
/// terms (0 to 30, fj::ValueError otherwise); x must be f32 or f64 (fj::DTypeError).
inline Array log_ndtr(const Array& x, int series_order = 3) {
  detail::require_f32_or_f64("fj::scipy::special::log_ndtr", "x", x);
  if (series_order < 0 || series_order > 30)
    throw ValueError("fj::scipy::special::log_ndtr: series_order must be in [0, 30], got " +
                     std::to_string(series_order) + " (x is " + x.aval().str() + ")");
  const bool f64 = x.dtype() == DType::f64;
  const Array lower = fj::full({}, f64 ? -20.0 : -10.0, x.dtype());
  const double upper = f64 ? 8.0 : 5.0;
  const Array above = x > upper;
  // Both ndtr calls share one evaluation, as in JAX.
  const Array ndtr_res = detail::ndtr_core(fj::where(above, -x, fj::maximum(x, lower)));
  return Array(fj::where(above, -ndtr_res,
                         fj::where(x > lower, fj::log(ndtr_res),
                                   detail::log_ndtr_lower(fj::minimum(x, lower), series_order))));
}

/// jax.scipy.special.loggamma for real x: log Gamma(x) for x > 0, NaN elsewhere.
inline Array loggamma(const Array& x_in) {
  const Array x = detail::inexact(x_in);
  return Array(fj::where(x > 0, fj::gammaln(x), std::numeric_limits<double>::quiet_NaN()));
}

/// jax.scipy.special.gammasgn: the sign of Gamma(x): NaN at the poles (0 > x whole) and for NaN,
/// -1 where Gamma is negative and at -0, else 1.
inline Array gammasgn(const Array& x_in) {
  const Array x = detail::inexact(x_in);
  const Array floor_x = fj::floor(x);
  const Array negative = x < 0;
  const Array is_nan = fj::logical_or(fj::logical_and(negative, x == floor_x), fj::isnan(x));
  const Array is_minus = fj::logical_or(fj::logical_and(negative, floor_x % 2 != 0),
                                        fj::logical_and(x == 0, fj::signbit(x)));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return Array(fj::astype(fj::where(is_nan, nan, fj::where(is_minus, -1.0, 1.0)), x.dtype()));
}

/// jax.scipy.special.gamma for real x: gammasgn(x) * exp(gammaln(x)).
inline Array gamma(const Array& x_in) {
  const Array x = detail::inexact(x_in);
  return Array(gammasgn(x) * fj::exp(fj::gammaln(x)));
}

/// jax.scipy.special.betaln: log |B(a, b)|, by SciPy's algdiv once max(a, b) >= 8 (accurate
/// for large arguments), as JAX computes it.
inline Array betaln(const Array& a_in, const Array& b_in) {
  const auto [a, b] = detail::inexact(a_in, b_in);
  const Array lo = fj::minimum(a, b);
  const Array hi = fj::maximum(a, b);
  const Array small_b = fj::gammaln(lo) + (fj::gammaln(hi) - fj::gammaln(lo + hi));
  const Array large_b = fj::gammaln(lo) + detail::algdiv(lo, hi);
  return Array(fj::where(hi < 8, small_b, large_b));
}

/// jax.scipy.special.beta: B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b), as its sign times
/// exp(betaln(a, b)).
inline Array beta(const Array& a_in, const Array& b_in) {
  const auto [a, b] = detail::inexact(a_in, b_in);
  const Array sign = gammasgn(a) * gammasgn(b) * gammasgn(Array(a + b));
  return Array(sign * fj::exp(betaln(a, b)));
}

/// jax.scipy.special.factorial: n! as exp(gammaln(n + 1)), 0 for n < 0. Only `exact` false is
/// taken, as in JAX (fj::NotImplementedError otherwise).
inline Array factorial(const Array& n_in, bool exact = false) {
  if (exact)
    throw NotImplementedError(
        "fj::scipy::special::factorial: exact=true is not supported (as in "
        "JAX), for n of " +
        n_in.aval().str());
  const Array n = detail::inexact(n_in);
  return Array(fj::where(n < 0, 0, fj::exp(fj::gammaln(n + 1))));
}

/// jax.scipy.special.comb: N choose k as a float, through gammaln; 0 unless 0 <= k <= N. With
/// `repetition`, the number of multisets: comb(N + k - 1, k), and 1 where k = 0 and N >= 0.
inline Array comb(const Array& N_in, const Array& k_in, bool repetition = false) {
  const auto [N, k] = detail::inexact(N_in, k_in);
  if (repetition)
    return Array(fj::where(fj::logical_and(k == 0, N >= 0), 1.0, comb(Array(N + k - 1), k)));
  const Array ok = fj::logical_and(fj::logical_and(k <= N, N >= 0), k >= 0);
  const Array safe_N = fj::where(ok, N, 0.0);
  const Array safe_k = fj::where(ok, k, 0.0);
  const Array result =
      fj::exp(fj::gammaln(safe_N + 1) - fj::gammaln(safe_k + 1) - fj::gammaln(safe_N + 1 - safe_k));
  return Array(fj::where(ok, result, 0.0));
}

/// jax.scipy.special.poch: the Pochhammer symbol Gamma(z + m) / Gamma(z), 1 where m = 0.
inline Array poch(const Array& z_in, const Array& m_in) {
  const auto [z, m] = detail::inexact(z_in, m_in);
  return Array(fj::where(m == 0.0, 1.0, gamma(Array(z + m)) / gamma(z)));
}

/// jax.scipy.special.multigammaln: log of the multivariate gamma function of dimension d,
/// sum over i < d of gammaln(a - i/2) plus d (d - 1) / 4 log(pi).
inline Array multigammaln(const Array& a_in, std::int64_t d) {
  const Array a = detail::inexact(a_in);
  const DType dt = a.dtype();
  const Array dd = fj::full({}, static_cast<double>(d), dt);
  // ((1/4 d) (d - 1)) log(pi), each step in a's float type as JAX's lax calls.
  const Array constant = 0.25 * dd * (dd - 1.0) * fj::log(fj::full({}, std::numbers::pi, dt));
  if (d <= 0) return Array(fj::zeros(a.shape(), dt) + constant);  // JAX's sum over no terms
  const Array b = fj::iota(dt, d) / 2;
  const Array terms = fj::gammaln(fj::expand_dims(a, {a.ndim()}) - b);
  return Array(fj::sum(terms, {-1}) + constant);
}

/// jax.scipy.special.boxcox: (x^lmbda - 1) / lmbda as expm1(lmbda log x) / lmbda, log x where
/// lmbda = 0; NaN for x < 0.
inline Array boxcox(const Array& x_in, const Array& lmbda_in) {
  const auto [x, lmbda] = detail::inexact(x_in, lmbda_in);
  const Array lmbda_zero = lmbda == 0;
  const Array safe_lmbda = fj::where(lmbda_zero, 1.0, lmbda);
  const Array log_x = fj::log(x);
  return Array(fj::where(lmbda_zero, log_x, fj::expm1(safe_lmbda * log_x) / safe_lmbda));
}

/// jax.scipy.special.boxcox1p: boxcox of 1 + x, through log1p(x); NaN for x < -1.
inline Array boxcox1p(const Array& x_in, const Array& lmbda_in) {
  const auto [x, lmbda] = detail::inexact(x_in, lmbda_in);
  const Array lmbda_zero = lmbda == 0;
  const Array safe_lmbda = fj::where(lmbda_zero, 1.0, lmbda);
  const Array log1p_x = fj::log1p(x);
  return Array(fj::where(lmbda_zero, log1p_x, fj::expm1(safe_lmbda * log1p_x) / safe_lmbda));
}

}  // namespace scipy::special
}  // namespace fj
