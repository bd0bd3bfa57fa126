// jax.scipy.stats' continuous univariate distributions (norm, expon, uniform, logistic, laplace,
// cauchy, t, chi2, gamma, beta, pareto, gennorm, gumbel_l, gumbel_r, truncnorm, wrapcauchy) under
// fj::scipy::stats::<distribution>::, each composed of the same operations in the same order as
// JAX 0.10.2's jax/_src/scipy/stats/<distribution>.py, so each gives JAX's values.
#pragma once
#include <limits>
#include <numbers>
#include <vector>

#include "fusejit/api/statistics.hpp"
#include "fusejit/api/stats/common.hpp"
#include "fusejit/expr/activations.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/nn.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/special_functions.hpp"

namespace fj::detail::stats {
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kPi = std::numbers::pi;
}  // namespace fj::detail::stats

/// \namespace fj::scipy::stats
/// jax.scipy.stats: probability distributions as compositions of fusejit's operations, each
/// function taking its arguments (arrays or C++ numbers) in JAX's order with JAX's defaults,
/// broadcasting them together, and computing in their promoted float dtype.
namespace fj::scipy::stats {

/// jax.scipy.stats.norm: the normal distribution with mean loc and standard deviation scale.
namespace norm {
/// norm.logpdf: -(log(2 pi scale^2) + ((x - loc) / scale)^2) / 2, as (log normalizer +
/// quadratic) / -2.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "norm.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array scale_sqrd = fj::square(scale);
  const Array log_normalizer = fj::log(2 * detail::stats::kPi * scale_sqrd);
  const Array quadratic = fj::square(x - loc) / scale_sqrd;
  return Array((log_normalizer + quadratic) / -2.0);
}
/// norm.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// norm.cdf: ndtr((x - loc) / scale).
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "norm.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return special::ndtr(Array((v[0] - v[1]) / v[2]));
}
/// norm.logcdf: log_ndtr((x - loc) / scale), accurate far into the lower tail.
inline Array logcdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "norm.logcdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return special::log_ndtr(Array((v[0] - v[1]) / v[2]));
}
/// norm.sf: cdf(-x, -loc, scale), so the upper tail keeps its relative accuracy.
inline Array sf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "norm.sf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return cdf(Array(-v[0]), Array(-v[1]), v[2]);
}
/// norm.logsf: logcdf(-x, -loc, scale).
inline Array logsf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "norm.logsf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return logcdf(Array(-v[0]), Array(-v[1]), v[2]);
}
/// norm.ppf: ndtri(q) * scale + loc, in the default float dtype (JAX converts it to `float`:
/// f64 in x64 mode, f32 otherwise).
inline Array ppf(const Arg& q, const Arg& loc = 0, const Arg& scale = 1) {
  const Array r = special::ndtri(detail::inexact(q.value)) * scale.value + loc.value;
  return r.dtype() == default_float_dtype() ? r : Array(fj::astype(r, default_float_dtype()));
}
/// norm.isf: ppf(1 - q, loc, scale).
inline Array isf(const Arg& q, const Arg& loc = 0, const Arg& scale = 1) {
  const Array& p = q.value;
  return ppf(Array(detail::stats::cst(p, 1) - p), loc, scale);
}
}  // namespace norm

/// jax.scipy.stats.expon: the exponential distribution on [loc, inf) with mean loc + scale.
namespace expon {
/// expon.logpdf: -((x - loc) / scale + log scale), -inf below loc.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "expon.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array log_scale = fj::log(scale);
  const Array linear_term = (x - loc) / scale;
  const Array log_probs = -(linear_term + log_scale);
  return Array(fj::where(x < loc, -detail::stats::kInf, log_probs));
}
/// expon.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// expon.cdf: -expm1((loc - x) / scale), 0 below loc.
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "expon.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array neg_scaled_x = (loc - x) / scale;
  return Array(fj::where(x < loc, fj::zeros_like(neg_scaled_x), -fj::expm1(neg_scaled_x)));
}
/// expon.logsf: (loc - x) / scale, 0 below loc.
inline Array logsf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  // JAX names this promotion "expon.sf"; the message here names the function called.
  const auto v = detail::stats::promote_args_inexact(
      "expon.logsf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array neg_scaled_x = (loc - x) / scale;
  return Array(fj::where(x < loc, fj::zeros_like(neg_scaled_x), neg_scaled_x));
}
/// expon.sf: exp(logsf).
inline Array sf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logsf(x, loc, scale)));
}
/// expon.logcdf: log1p(-sf).
inline Array logcdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log1p(-sf(x, loc, scale)));
}
/// expon.ppf: loc - scale log1p(-q), NaN for q outside [0, 1] or NaN.
inline Array ppf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "expon.ppf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &q = v[0], &loc = v[1], &scale = v[2];
  const Array bad = fj::logical_or(fj::logical_or(fj::isnan(q), q < 0), q > 1);
  return Array(fj::where(bad, detail::stats::kNaN, loc - scale * fj::log1p(-q)));
}
}  // namespace expon

/// jax.scipy.stats.uniform: the uniform distribution on [loc, loc + scale].
namespace uniform {
/// uniform.logpdf: -log scale inside [loc, loc + scale], -inf outside.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "uniform.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array log_probs = -fj::log(scale);
  return Array(
      fj::where(fj::logical_or(x > loc + scale, x < loc), -detail::stats::kInf, log_probs));
}
/// uniform.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// uniform.cdf: 0 below loc, 1 above loc + scale, (x - loc) / scale between (jnp.select, so
/// NaN gives the default 0 as in JAX).
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "uniform.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array hi = loc + scale;
  const Array zero = detail::stats::cst(x, 0), one = detail::stats::cst(x, 1);
  return fj::select({Array(x < loc), Array(x > hi), Array(fj::logical_and(x >= loc, x <= hi))},
                    {zero, one, Array((x - loc) / scale)});
}
/// uniform.ppf: loc + scale q, NaN for q outside [0, 1] or NaN.
inline Array ppf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "uniform.ppf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &q = v[0], &loc = v[1], &scale = v[2];
  const Array bad = fj::logical_or(fj::logical_or(fj::isnan(q), q < 0), q > 1);
  return Array(fj::where(bad, detail::stats::kNaN, loc + scale * q));
}
}  // namespace uniform

/// jax.scipy.stats.logistic: the logistic distribution.
namespace logistic {
/// logistic.logpdf: -2 logaddexp(z / 2, -z / 2) - log scale with z = (x - loc) / scale, which
/// neither overflows nor cancels in the tails.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "logistic.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &loc = v[1], &scale = v[2];
  const Array x = (v[0] - loc) / scale;
  const Array half_x = x / 2.0;
  return Array(-2.0 * fj::logaddexp(half_x, -half_x) - fj::log(scale));
}
/// logistic.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// logistic.cdf: expit((x - loc) / scale).
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "logistic.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return special::expit(Array((v[0] - v[1]) / v[2]));
}
/// logistic.sf: expit(-(x - loc) / scale).
inline Array sf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "logistic.sf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return special::expit(Array(-((v[0] - v[1]) / v[2])));
}
/// logistic.ppf: logit(q) scale + loc.
inline Array ppf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "logistic.ppf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return Array(special::logit(v[0]) * v[2] + v[1]);
}
/// logistic.isf: -logit(q) scale + loc.
inline Array isf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "logistic.isf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return Array(-special::logit(v[0]) * v[2] + v[1]);
}
}  // namespace logistic

/// jax.scipy.stats.laplace: the Laplace (double exponential) distribution.
namespace laplace {
/// laplace.logpdf: -(|x - loc| / scale + log(2 scale)).
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "laplace.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array linear_term = fj::abs(x - loc) / scale;
  return Array(-(linear_term + fj::log(2.0 * scale)));
}
/// laplace.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// laplace.cdf: exp(d) / 2 for d = (x - loc) / scale <= 0, else 1 - exp(-d) / 2.
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "laplace.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array diff = (v[0] - v[1]) / v[2];
  return Array(fj::where(diff <= 0.0, 0.5 * fj::exp(diff), 1.0 - 0.5 * fj::exp(-diff)));
}
}  // namespace laplace

/// jax.scipy.stats.cauchy: the Cauchy (Lorentz) distribution.
namespace cauchy {
/// cauchy.logpdf: -(log(pi scale) + log1p(z^2)) with z = (x - loc) / scale.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array scaled_x = (x - loc) / scale;
  const Array normalize_term = fj::log(detail::stats::kPi * scale);
  return Array(-(normalize_term + fj::log1p(scaled_x * scaled_x)));
}
/// cauchy.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// cauchy.cdf: 1/2 + (1 / pi) arctan((x - loc) / scale), 1 / pi divided in x's dtype as JAX's
/// constants are.
inline Array cdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.cdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array& x = v[0];
  const double inv_pi = x.dtype() == DType::f32
                            ? static_cast<double>(1.0f / static_cast<float>(detail::stats::kPi))
                            : 1.0 / detail::stats::kPi;
  const Array scaled_x = (x - v[1]) / v[2];
  return Array(0.5 + inv_pi * fj::arctan(scaled_x));
}
/// cauchy.logcdf: log(cdf).
inline Array logcdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log(cdf(x, loc, scale)));
}
/// cauchy.sf: cdf(-x, -loc, scale).
inline Array sf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.sf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return cdf(Array(-v[0]), Array(-v[1]), v[2]);
}
/// cauchy.logsf: logcdf(-x, -loc, scale).
inline Array logsf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.logsf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  return logcdf(Array(-v[0]), Array(-v[1]), v[2]);
}
/// cauchy.ppf: tan(pi q - pi / 2) scale + loc.
inline Array ppf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.ppf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array& q = v[0];
  const Array unscaled = fj::tan(detail::stats::kPi * q - detail::stats::kPi / 2);
  return Array(unscaled * v[2] + v[1]);
}
/// cauchy.isf: tan(pi / 2 - pi q) scale + loc.
inline Array isf(const Arg& q_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "cauchy.isf", {{"q", q_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array& q = v[0];
  const Array unscaled = fj::tan(detail::stats::kPi / 2 - detail::stats::kPi * q);
  return Array(unscaled * v[2] + v[1]);
}
}  // namespace cauchy

/// jax.scipy.stats.t: Student's t distribution with df degrees of freedom.
namespace t {
/// t.logpdf: -(lgamma(df / 2) + log(scale^2 pi df) / 2 - lgamma(df / 2 + 1/2) + (df / 2 + 1/2)
/// log1p(z^2 / df)) with z = (x - loc) / scale.
inline Array logpdf(const Arg& x_in, const Arg& df_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "t.logpdf",
      {{"x", x_in.value}, {"df", df_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &df = v[1], &loc = v[2], &scale = v[3];
  const Array scaled_x = (x - loc) / scale;
  const Array df_over_two = df / 2.0;
  const Array df_plus_one_over_two = df_over_two + 0.5;
  const Array normalize_term_const = (scale * scale) * detail::stats::kPi;
  const Array normalize_term_tmp = fj::log(normalize_term_const * df) / 2.0;
  const Array normalize_term =
      (fj::gammaln(df_over_two) + normalize_term_tmp) - fj::gammaln(df_plus_one_over_two);
  const Array quadratic = (scaled_x * scaled_x) / df;
  return Array(-(normalize_term + df_plus_one_over_two * fj::log1p(quadratic)));
}
/// t.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& df, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, df, loc, scale)));
}
}  // namespace t

/// jax.scipy.stats.chi2: the chi-squared distribution with df degrees of freedom.
namespace chi2 {
/// chi2.logpdf: (df / 2 - 1) log y - y / 2 - lgamma(df / 2) - df log(2) / 2 - log scale with
/// y = (x - loc) / scale, -inf below loc.
inline Array logpdf(const Arg& x_in, const Arg& df_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "chi2.logpdf",
      {{"x", x_in.value}, {"df", df_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &df = v[1], &loc = v[2], &scale = v[3];
  const Array y = (x - loc) / scale;
  const Array df_on_two = df / 2.0;
  const Array kernel = (df_on_two - 1.0) * fj::log(y) - y / 2.0;
  // lax.log(two): JAX takes the log of the constant 2 at run time, in x's dtype.
  const Array log_two = fj::log(detail::stats::cst(x, 2));
  const Array nrml_cnst = -(fj::gammaln(df_on_two) + (log_two * df) / 2.0);
  const Array log_probs = (nrml_cnst - fj::log(scale)) + kernel;
  return Array(fj::where(x < loc, -detail::stats::kInf, log_probs));
}
/// chi2.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& df, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, df, loc, scale)));
}
/// chi2.cdf: gammainc(df / 2, clamp(0, (x - loc) / (2 scale), inf)).
inline Array cdf(const Arg& x_in, const Arg& df_in, const Arg& loc_in = 0,
                 const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "chi2.cdf",
      {{"x", x_in.value}, {"df", df_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &df = v[1], &loc = v[2], &scale = v[3];
  const Array y = lax::clamp(0.0, (x - loc) / (scale * 2.0), detail::stats::kInf);
  return special::gammainc(Array(df / 2.0), y);
}
/// chi2.logcdf: log(cdf).
inline Array logcdf(const Arg& x, const Arg& df, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log(cdf(x, df, loc, scale)));
}
/// chi2.sf: gammaincc(df / 2, clamp(0, (x - loc) / (2 scale), inf)).
inline Array sf(const Arg& x_in, const Arg& df_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "chi2.sf",
      {{"x", x_in.value}, {"df", df_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &df = v[1], &loc = v[2], &scale = v[3];
  const Array y = lax::clamp(0.0, (x - loc) / (scale * 2.0), detail::stats::kInf);
  return special::gammaincc(Array(df / 2.0), y);
}
/// chi2.logsf: log(sf).
inline Array logsf(const Arg& x, const Arg& df, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log(sf(x, df, loc, scale)));
}
}  // namespace chi2

/// jax.scipy.stats.gamma: the gamma distribution with shape a (the cdfs need the incomplete
/// gamma function, which fusejit does not have yet).
namespace gamma {
/// gamma.logpdf: xlogy(a - 1, y) - y - lgamma(a) - log scale with y = (x - loc) / scale, -inf
/// below loc (where y is replaced by 1 first, so no NaN leaks through).
inline Array logpdf(const Arg& x_in, const Arg& a_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gamma.logpdf",
      {{"x", x_in.value}, {"a", a_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &a = v[1], &loc = v[2], &scale = v[3];
  const Array ok = x >= loc;
  const Array y = fj::where(ok, (x - loc) / scale, detail::stats::cst(x, 1));
  const Array log_linear_term = special::xlogy(Array(a - 1.0), y) - y;
  const Array shape_terms = fj::gammaln(a) + fj::log(scale);
  return Array(fj::where(ok, log_linear_term - shape_terms, -detail::stats::kInf));
}
/// gamma.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& a, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, a, loc, scale)));
}
/// gamma.cdf: gammainc(a, clamp(0, (x - loc) / scale, inf)).
inline Array cdf(const Arg& x_in, const Arg& a_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gamma.cdf",
      {{"x", x_in.value}, {"a", a_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &a = v[1], &loc = v[2], &scale = v[3];
  return special::gammainc(a, lax::clamp(0.0, (x - loc) / scale, detail::stats::kInf));
}
/// gamma.logcdf: log(cdf).
inline Array logcdf(const Arg& x, const Arg& a, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log(cdf(x, a, loc, scale)));
}
/// gamma.sf: gammaincc(a, (x - loc) / scale), 1 below loc.
inline Array sf(const Arg& x_in, const Arg& a_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gamma.sf",
      {{"x", x_in.value}, {"a", a_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &a = v[1], &loc = v[2], &scale = v[3];
  const Array y = (x - loc) / scale;
  return Array(fj::where(y < 0.0, 1.0, special::gammaincc(a, y)));
}
/// gamma.logsf: log(sf).
inline Array logsf(const Arg& x, const Arg& a, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::log(sf(x, a, loc, scale)));
}
}  // namespace gamma

/// jax.scipy.stats.beta: the beta distribution on [loc, loc + scale] (the cdfs need the
/// incomplete beta function, which fusejit does not have yet).
namespace beta {
/// beta.logpdf: xlogy(a - 1, y) + xlog1py(b - 1, -y) - betaln(a, b) - log scale with
/// y = (x - loc) / scale; -inf outside [loc, loc + scale], NaN unless a, b and scale are > 0.
inline Array logpdf(const Arg& x_in, const Arg& a_in, const Arg& b_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact("beta.logpdf", {{"x", x_in.value},
                                                                     {"a", a_in.value},
                                                                     {"b", b_in.value},
                                                                     {"loc", loc_in.value},
                                                                     {"scale", scale_in.value}});
  const Array &x = v[0], &a = v[1], &b = v[2], &loc = v[3], &scale = v[4];
  const Array shape_term = -special::betaln(a, b);
  const Array y = (x - loc) / scale;
  const Array log_linear_term =
      special::xlogy(Array(a - 1.0), y) + special::xlog1py(Array(b - 1.0), Array(-y));
  const Array log_probs = (shape_term + log_linear_term) - fj::log(scale);
  const Array result =
      fj::where(fj::logical_or(x > loc + scale, x < loc), -detail::stats::kInf, log_probs);
  return Array(fj::where(fj::logical_or(fj::logical_or(a <= 0.0, b <= 0.0), scale <= 0.0),
                         detail::stats::kNaN, result));
}
/// beta.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& a, const Arg& b, const Arg& loc = 0,
                 const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, a, b, loc, scale)));
}
}  // namespace beta

/// jax.scipy.stats.pareto: the Pareto distribution with shape b on [loc + scale, inf).
namespace pareto {
/// pareto.logpdf: -(log(scale / b) + (b + 1) log((x - loc) / scale)), -inf below loc + scale.
inline Array logpdf(const Arg& x_in, const Arg& b_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "pareto.logpdf",
      {{"x", x_in.value}, {"b", b_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  const Array scaled_x = (x - loc) / scale;
  const Array normalize_term = fj::log(scale / b);
  const Array log_probs = -(normalize_term + (b + 1.0) * fj::log(scaled_x));
  return Array(fj::where(x < loc + scale, -detail::stats::kInf, log_probs));
}
/// pareto.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& b, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, b, loc, scale)));
}
/// pareto.cdf: 1 - ((x - loc) / scale)^-b, 0 below loc + scale.
inline Array cdf(const Arg& x_in, const Arg& b_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "pareto.cdf",
      {{"x", x_in.value}, {"b", b_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  const Array scaled_x = (x - loc) / scale;
  const Array cdf = 1.0 - fj::pow(scaled_x, Array(-b));
  return Array(fj::where(x < loc + scale, detail::stats::cst(x, 0), cdf));
}
/// pareto.logcdf: log1p(-((x - loc) / scale)^-b), -inf below loc + scale.
inline Array logcdf(const Arg& x_in, const Arg& b_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "pareto.logcdf",
      {{"x", x_in.value}, {"b", b_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  const Array scaled_x = (x - loc) / scale;
  const Array logcdf_val = fj::log1p(-fj::pow(scaled_x, Array(-b)));
  return Array(fj::where(x < loc + scale, -detail::stats::kInf, logcdf_val));
}
/// pareto.logsf: -b log((x - loc) / scale), 0 below loc + scale.
inline Array logsf(const Arg& x_in, const Arg& b_in, const Arg& loc_in = 0,
                   const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "pareto.logsf",
      {{"x", x_in.value}, {"b", b_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  const Array scaled_x = (x - loc) / scale;
  const Array logsf_val = -(b * fj::log(scaled_x));
  return Array(fj::where(x < loc + scale, detail::stats::cst(x, 0), logsf_val));
}
/// pareto.sf: exp(logsf).
inline Array sf(const Arg& x, const Arg& b, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logsf(x, b, loc, scale)));
}
/// pareto.ppf: loc + scale (1 - q)^(-1 / b), NaN for q outside [0, 1] or NaN.
inline Array ppf(const Arg& q_in, const Arg& b_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "pareto.ppf",
      {{"q", q_in.value}, {"b", b_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &q = v[0], &b = v[1], &loc = v[2], &scale = v[3];
  const Array one = detail::stats::cst(q, 1);
  const Array ppf_val = loc + scale * fj::pow(Array(one - q), Array(-(one / b)));
  const Array bad = fj::logical_or(fj::logical_or(fj::isnan(q), q < 0), q > 1);
  return Array(fj::where(bad, detail::stats::kNaN, ppf_val));
}
}  // namespace pareto

/// jax.scipy.stats.gennorm: the generalized normal distribution with shape beta (the cdf needs
/// the incomplete gamma function, which fusejit does not have yet).
namespace gennorm {
/// gennorm.logpdf: log(beta / 2) - lgamma(1 / beta) - |x|^beta.
inline Array logpdf(const Arg& x_in, const Arg& beta_in) {
  const auto v = detail::stats::promote_args_inexact("gennorm.logpdf",
                                                     {{"x", x_in.value}, {"beta", beta_in.value}});
  const Array &x = v[0], &beta = v[1];
  return Array(fj::log(0.5 * beta) - fj::gammaln(Array(1.0 / beta)) -
               fj::pow(Array(fj::abs(x)), beta));
}
/// gennorm.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& beta) { return Array(fj::exp(logpdf(x, beta))); }
/// gennorm.cdf: (1 + sign(x) igamma(1 / beta, |x|^beta)) / 2.
inline Array cdf(const Arg& x_in, const Arg& beta_in) {
  const auto v = detail::stats::promote_args_inexact("gennorm.cdf",
                                                     {{"x", x_in.value}, {"beta", beta_in.value}});
  const Array &x = v[0], &beta = v[1];
  const Array p = lax::igamma(Array(1.0 / beta), Array(fj::pow(Array(fj::abs(x)), beta)));
  return Array(0.5 * (1.0 + fj::sign(x) * p));
}
}  // namespace gennorm

}  // namespace fj::scipy::stats
