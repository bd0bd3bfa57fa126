// jax.scipy.stats' discrete distributions (bernoulli, geom, poisson, binom, betabinom, nbinom,
// multinomial) under fj::scipy::stats::<distribution>::, each composed of the same operations in
// the same order as JAX 0.10.2's, so each gives JAX's values.
#pragma once
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "fusejit/api/stacking.hpp"
#include "fusejit/api/stats/continuous.hpp"

namespace fj::scipy::stats {

/// jax.scipy.stats.bernoulli: one trial that succeeds (k = 1) with probability p.
namespace bernoulli {
/// bernoulli.logpmf: xlogy(k, p) + xlog1py(1 - k, -p) for k - loc in [0, 1], -inf outside.
inline Array logpmf(const Arg& k_in, const Arg& p_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "bernoulli.logpmf", {{"k", k_in.value}, {"p", p_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &p = v[1], &loc = v[2];
  const Array one = detail::stats::cst(k, 1);
  const Array x = k - loc;
  const Array log_probs = special::xlogy(x, p) + special::xlog1py(Array(one - x), Array(-p));
  return Array(fj::where(fj::logical_or(x<0.0, x> 1.0), -detail::stats::kInf, log_probs));
}
/// bernoulli.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& p, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, p, loc)));
}
/// bernoulli.cdf: 0 below 0, 1 - p on [0, 1), 1 from 1 on; NaN for NaN or p outside [0, 1].
inline Array cdf(const Arg& k_in, const Arg& p_in) {
  const auto v =
      detail::stats::promote_args_inexact("bernoulli.cdf", {{"k", k_in.value}, {"p", p_in.value}});
  const Array &k = v[0], &p = v[1];
  const Array zero = detail::stats::cst(k, 0), one = detail::stats::cst(k, 1);
  const Array bad =
      fj::logical_or(fj::logical_or(fj::logical_or(fj::isnan(k), fj::isnan(p)), p < zero), p > one);
  return fj::select(
      {bad, Array(k < zero), Array(fj::logical_and(k >= zero, k < one)), Array(k >= one)},
      {detail::stats::cst(k, detail::stats::kNaN), zero, Array(one - p), one});
}
/// bernoulli.ppf: 0 for q <= 1 - p, else 1; NaN for NaN, or p or q outside [0, 1].
inline Array ppf(const Arg& q_in, const Arg& p_in) {
  const auto v =
      detail::stats::promote_args_inexact("bernoulli.ppf", {{"q", q_in.value}, {"p", p_in.value}});
  const Array &q = v[0], &p = v[1];
  const Array zero = detail::stats::cst(q, 0), one = detail::stats::cst(q, 1);
  Array bad = fj::logical_or(fj::logical_or(fj::isnan(q), fj::isnan(p)), p < zero);
  bad = fj::logical_or(fj::logical_or(fj::logical_or(bad, p > one), q < zero), q > one);
  return Array(fj::where(bad, detail::stats::kNaN, fj::where(q <= one - p, zero, one)));
}
}  // namespace bernoulli

/// jax.scipy.stats.geom: the number of trials up to the first success, each with probability p.
namespace geom {
/// geom.logpmf: xlog1py(k - loc - 1, -p) + log p, -inf for k - loc <= 0.
inline Array logpmf(const Arg& k_in, const Arg& p_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "geom.logpmf", {{"k", k_in.value}, {"p", p_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &p = v[1], &loc = v[2];
  const Array x = k - loc;
  const Array log_probs = special::xlog1py(Array(x - 1.0), Array(-p)) + fj::log(p);
  return Array(fj::where(x <= 0.0, -detail::stats::kInf, log_probs));
}
/// geom.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& p, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, p, loc)));
}
}  // namespace geom

/// jax.scipy.stats.poisson: the Poisson distribution with mean mu (the cdf needs the incomplete
/// gamma function, which fusejit does not have yet).
namespace poisson {
/// poisson.logpmf: xlogy(k, mu) - lgamma(k + 1) - mu, -inf for k - loc < 0 or k not whole.
inline Array logpmf(const Arg& k_in, const Arg& mu_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "poisson.logpmf", {{"k", k_in.value}, {"mu", mu_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &mu = v[1], &loc = v[2];
  const Array x = k - loc;
  const Array log_probs = special::xlogy(x, mu) - fj::gammaln(Array(x + 1.0)) - mu;
  return Array(
      fj::where(fj::logical_or(x < 0.0, fj::round(k) != k), -detail::stats::kInf, log_probs));
}
/// poisson.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& mu, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, mu, loc)));
}
/// poisson.cdf: gammaincc(floor(1 + k - loc), mu), 0 below loc.
inline Array cdf(const Arg& k_in, const Arg& mu_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "poisson.cdf", {{"k", k_in.value}, {"mu", mu_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &mu = v[1], &loc = v[2];
  const Array x = k - loc;
  const Array p = special::gammaincc(Array(fj::floor(1.0 + x)), mu);
  return Array(fj::where(x < 0.0, 0.0, p));
}
/// poisson.entropy: the entropy of Poisson(mu) (loc only broadcasts the result), as JAX
/// computes it: 0 at mu = 0; below 10 and below 100, the sum of entr(pmf(k)) over k < 35 and
/// k < 250 (cut at ceil(mu + 20) and ceil(mu + 10 sqrt(mu) + 20)); from 100 on, the asymptotic
/// log(2 pi e mu) / 2 - 1 / (12 mu).
inline Array entropy(const Arg& mu_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact("poisson.entropy",
                                                     {{"mu", mu_in.value}, {"loc", loc_in.value}});
  const Array &mu = v[0], &loc = v[1];
  const Shape result_shape =
      detail::stats::broadcast_all("poisson.entropy", {{"mu", mu}, {"loc", loc}});
  const Array mu_flat = mu.ravel();
  // JAX's _entropy_small_mu and _entropy_medium_mu: pmf at k = 0 .. max_k - 1 (a column), cut.
  const auto partial = [&](std::int64_t max_k, const Array& upper) {
    const Array k = fj::expand_dims(fj::iota(mu_flat.dtype(), max_k), {1});
    const Array probs = pmf(k, mu_flat, 0);
    const Array mask = k < fj::expand_dims(upper, {0});
    return Array(fj::sum(special::entr(Array(fj::where(mask, probs, 0.0))), {0}));
  };
  const Array small = partial(35, Array(fj::ceil(mu_flat + 20.0)));
  const Array medium = partial(250, Array(fj::ceil(mu_flat + 10.0 * fj::sqrt(mu_flat) + 20.0)));
  // 2 * np.pi * np.e folds in Python (double) before meeting mu.
  const Array large =
      0.5 * fj::log(2 * std::numbers::pi * std::numbers::e * mu_flat) - 1.0 / (12.0 * mu_flat);
  const Array result =
      fj::where(mu_flat == 0.0, fj::zeros_like(mu_flat),
                fj::where(mu_flat < 10.0, small, fj::where(mu_flat < 100.0, medium, large)));
  const Array shaped = fj::detail::reshape_dyn(result, mu.shape().to_vector());
  return shaped.shape() == result_shape ? shaped : Array(fj::broadcast_to(shaped, result_shape));
}
}  // namespace poisson

/// jax.scipy.stats.binom: the number of successes in n trials, each with probability p.
namespace binom {
/// binom.logpmf: lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + xlogy(k, p) +
/// xlog1py(n - k, -p) (k taken from loc); 0 where k = n = 0 or the log-linear term is 0, -inf
/// outside [loc, loc + n].
inline Array logpmf(const Arg& k_in, const Arg& n_in, const Arg& p_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "binom.logpmf",
      {{"k", k_in.value}, {"n", n_in.value}, {"p", p_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &n = v[1], &p = v[2], &loc = v[3];
  const Array y = k - loc;
  const Array comb_term =
      fj::gammaln(Array(n + 1.0)) - (fj::gammaln(Array(y + 1.0)) + fj::gammaln(Array(n - y + 1.0)));
  const Array log_linear_term = special::xlogy(y, p) + special::xlog1py(Array(n - y), Array(-p));
  Array log_probs = comb_term + log_linear_term;
  const Array y_n_cond =
      fj::logical_or(fj::logical_and(y == 0.0, n == 0.0), log_linear_term == 0.0);
  log_probs = fj::where(y_n_cond, 0.0, log_probs);
  return Array(
      fj::where(fj::logical_and(k >= loc, k < loc + n + 1.0), log_probs, -detail::stats::kInf));
}
/// binom.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& n, const Arg& p, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, n, p, loc)));
}
}  // namespace binom

/// jax.scipy.stats.betabinom: the binomial distribution with a Beta(a, b) success probability.
namespace betabinom {
/// betabinom.logpmf: -log1p(n) - betaln(n - y + 1, y + 1) + betaln(y + a, n - y + b) -
/// betaln(a, b) with y = floor(k) - loc; 0 where y = n = 0, -inf for y outside [-loc, n] or
/// y + a <= 0, NaN for n < 0, a <= 0 or b <= 0.
inline Array logpmf(const Arg& k_in, const Arg& n_in, const Arg& a_in, const Arg& b_in,
                    const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact("betabinom.logpmf", {{"k", k_in.value},
                                                                          {"n", n_in.value},
                                                                          {"a", a_in.value},
                                                                          {"b", b_in.value},
                                                                          {"loc", loc_in.value}});
  const Array &k = v[0], &n = v[1], &a = v[2], &b = v[3], &loc = v[4];
  const Array y = fj::floor(k) - loc;
  const Array combiln = -(fj::log1p(n) + special::betaln(Array(n - y + 1.0), Array(y + 1.0)));
  const Array beta_lns = special::betaln(Array(y + a), Array(n - y + b)) - special::betaln(a, b);
  Array log_probs = combiln + beta_lns;
  log_probs = fj::where(fj::logical_and(y == 0.0, n == 0.0), 0.0, log_probs);
  const Array y_cond = fj::logical_or(fj::logical_or(y<-loc, y> n), y + a <= 0.0);
  log_probs = fj::where(y_cond, -detail::stats::kInf, log_probs);
  const Array n_a_b_cond = fj::logical_or(fj::logical_or(n < 0.0, a <= 0.0), b <= 0.0);
  return Array(fj::where(n_a_b_cond, detail::stats::kNaN, log_probs));
}
/// betabinom.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& n, const Arg& a, const Arg& b, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, n, a, b, loc)));
}
}  // namespace betabinom

/// jax.scipy.stats.nbinom: the number of failures before the n-th success, each trial a success
/// with probability p.
namespace nbinom {
/// nbinom.logpmf: lgamma(k + n) - lgamma(n) - lgamma(k + 1) + xlogy(n, p) + xlogy(k, 1 - p)
/// (k taken from loc), -inf below loc.
inline Array logpmf(const Arg& k_in, const Arg& n_in, const Arg& p_in, const Arg& loc_in = 0) {
  const auto v = detail::stats::promote_args_inexact(
      "nbinom.logpmf",
      {{"k", k_in.value}, {"n", n_in.value}, {"p", p_in.value}, {"loc", loc_in.value}});
  const Array &k = v[0], &n = v[1], &p = v[2], &loc = v[3];
  const Array one = detail::stats::cst(k, 1);
  const Array y = k - loc;
  const Array comb_term = fj::gammaln(Array(y + n)) - fj::gammaln(n) - fj::gammaln(Array(y + one));
  const Array log_linear_term = special::xlogy(n, p) + special::xlogy(y, Array(one - p));
  return Array(fj::where(k < loc, -detail::stats::kInf, comb_term + log_linear_term));
}
/// nbinom.pmf: exp(logpmf).
inline Array pmf(const Arg& k, const Arg& n, const Arg& p, const Arg& loc = 0) {
  return Array(fj::exp(logpmf(k, n, p, loc)));
}
}  // namespace nbinom

/// jax.scipy.stats.multinomial: the counts x (last axis) of n draws among categories of
/// probabilities p.
namespace multinomial {
/// multinomial.logpmf: lgamma(n + 1) + sum(xlogy(x, p) - lgamma(x + 1)) over the last axis;
/// -inf unless the sum of x equals n. As in JAX 0.10.2 that sum is over every element of x (not
/// per row), so a batch of rows compares the total with n. x and n must be integers
/// (fj::ValueError otherwise).
inline Array logpmf(const Arg& x_in, const Arg& n_in, const Arg& p_in) {
  const Array p = detail::inexact(p_in.value);
  const std::vector<Array> xn = {x_in.value, n_in.value};
  const TypedDType t = promote_types(TypedDType{xn[0].dtype(), xn[0].weak_type()},
                                     TypedDType{xn[1].dtype(), xn[1].weak_type()});
  if (is_float(t.dtype) || t.dtype == DType::bool_)
    throw ValueError("scipy.stats.multinomial.logpmf: x and n must be of integer type, got x " +
                     x_in.value.aval().str() + ", n " + n_in.value.aval().str());
  const Array x = fj::astype(x_in.value, p.dtype());
  const Array n = fj::astype(n_in.value, p.dtype());
  const Array logprobs = fj::gammaln(Array(n + 1.0)) +
                         fj::sum(Array(special::xlogy(x, p) - fj::gammaln(Array(x + 1.0))), {-1});
  return Array(fj::where(fj::sum(x) == n, logprobs, -detail::stats::kInf));
}
/// multinomial.pmf: exp(logpmf).
inline Array pmf(const Arg& x, const Arg& n, const Arg& p) {
  return Array(fj::exp(logpmf(x, n, p)));
}
}  // namespace multinomial

}  // namespace fj::scipy::stats
