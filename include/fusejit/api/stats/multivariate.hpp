// jax.scipy.stats' multivariate distributions (multivariate_normal, dirichlet), composed of the
// same operations in the same order as JAX 0.10.2's; their arguments do not broadcast elementwise,
// so bad shapes raise here with both shapes named.
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/api/stats/continuous.hpp"
#include "fusejit/expr/diagonal.hpp"
#include "fusejit/expr/einsum.hpp"
#include "fusejit/expr/linalg.hpp"

namespace fj::scipy::stats {

/// jax.scipy.stats.multivariate_normal: the normal distribution over vectors (the last axis)
/// with mean `mean` and covariance `cov` (a matrix, or a scalar for cov times the identity).
namespace multivariate_normal {
/// multivariate_normal.logpdf: -|y|^2 / 2 - n/2 log(2 pi) - sum(log diag L), with cov = L L^T
/// (lax.linalg.cholesky) and y solving L y = x - mean; the closed forms when mean or cov is a
/// scalar. cov must be (..., n, n) for mean (..., n) (fj::ValueError), x - mean must broadcast
/// (fj::ShapeError).
inline Array logpdf(const Arg& x_in, const Arg& mean_in, const Arg& cov_in) {
  const char* fn = "multivariate_normal.logpdf";
  const auto v = detail::stats::promote_dtypes_inexact(
      {{"x", x_in.value}, {"mean", mean_in.value}, {"cov", cov_in.value}});
  const Array &x = v[0], &mean = v[1], &cov = v[2];
  (void)detail::stats::broadcast_all(fn, {{"x", x}, {"mean", mean}});
  // jnp.log(2 * np.pi) of a Python float: an f64 value (x64), rounded to the arrays' dtype
  // where it meets them, as a C++ double literal is.
  const double log_two_pi = std::log(2 * std::numbers::pi);
  if (mean.ndim() == 0) {
    (void)detail::stats::broadcast_all(fn, {{"x", x}, {"mean", mean}, {"cov", cov}});
    return Array(-0.5 * fj::square(x - mean) / cov - 0.5 * (log_two_pi + fj::log(cov)));
  }
  const std::int64_t n = mean.shape()[mean.ndim() - 1];
  if (cov.ndim() == 0) {
    const Array y = x - mean;
    return Array(-0.5 * fj::einsum("...i,...i->...", y, y) / cov -
                 (static_cast<double>(n) / 2) * (log_two_pi + fj::log(cov)));
  }
  if (cov.ndim() < 2 || cov.shape()[cov.ndim() - 1] != n || cov.shape()[cov.ndim() - 2] != n)
    throw ValueError(std::string("scipy.stats.multivariate_normal.logpdf: cov must be (..., ") +
                     std::to_string(n) + ", " + std::to_string(n) +
                     ") for mean with n = " + std::to_string(n) + " (got mean " +
                     mean.aval().str() + ", cov " + cov.aval().str() + ")");
  const Array L = fj::lax::linalg::cholesky(cov);
  const Array r = x - mean;
  // jnp.vectorize over the signature (n,n),(n)->(n): L and x - mean broadcast over their batch
  // axes, then one triangular solve per batch element (x L^T = r, i.e. L x = r).
  std::vector<std::int64_t> lb = L.shape().to_vector(), rb = r.shape().to_vector();
  lb.resize(lb.size() - 2);
  rb.resize(rb.size() - 1);
  if (lb.size() < rb.size()) lb.insert(lb.begin(), rb.size() - lb.size(), 1);
  if (rb.size() < lb.size()) rb.insert(rb.begin(), lb.size() - rb.size(), 1);
  std::vector<std::int64_t> bd(lb.size());
  for (std::size_t i = 0; i < lb.size(); ++i) {
    if (lb[i] != rb[i] && lb[i] != 1 && rb[i] != 1)
      throw ShapeError(
          "scipy.stats.multivariate_normal.logpdf: the batch axes of cov and x - mean do not "
          "broadcast (x " +
          x.aval().str() + ", mean " + mean.aval().str() + ", cov " + cov.aval().str() + ")");
    bd[i] = lb[i] == 1 ? rb[i] : lb[i];
  }
  const Shape batch(bd);
  std::vector<std::int64_t> ls = batch.to_vector(), rs = batch.to_vector();
  ls.push_back(n);
  ls.push_back(n);
  rs.push_back(n);
  const Array Lb = L.shape() == Shape(ls) ? L : Array(fj::broadcast_to(L, Shape(ls)));
  const Array rb_ = r.shape() == Shape(rs) ? r : Array(fj::broadcast_to(r, Shape(rs)));
  const Array y = fj::lax::linalg::triangular_solve(Lb, rb_, /*left_side=*/false, /*lower=*/true,
                                                    /*transpose_a=*/true);
  return Array(-0.5 * fj::einsum("...i,...i->...", y, y) -
               (static_cast<double>(n) / 2) * log_two_pi -
               fj::sum(Array(fj::log(fj::diagonal(L, 0, -1, -2))), {-1}));
}
/// multivariate_normal.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& mean, const Arg& cov) {
  return Array(fj::exp(logpdf(x, mean, cov)));
}
}  // namespace multivariate_normal

/// jax.scipy.stats.dirichlet: the Dirichlet distribution over the simplex, with concentrations
/// alpha; x's first axis holds the K components (or K - 1, the last taken as 1 - their sum).
namespace dirichlet {
/// dirichlet.logpdf: sum(xlogy(alpha - 1, x)) over the first axis - (sum lgamma(alpha) -
/// lgamma(sum alpha)); -inf off the simplex (a component <= 0 or a sum 1e-6 or more from 1).
/// alpha must be one-dimensional and x's first axis K or K - 1 long (fj::ValueError).
inline Array logpdf(const Arg& x_in, const Arg& alpha_in) {
  const auto v =
      detail::stats::promote_dtypes_inexact({{"x", x_in.value}, {"alpha", alpha_in.value}});
  Array x = v[0];
  Array alpha = v[1];
  if (alpha.ndim() != 1)
    throw ValueError("scipy.stats.dirichlet.logpdf: alpha must be one-dimensional, got alpha " +
                     alpha.aval().str() + " (x " + x.aval().str() + ")");
  const std::int64_t K = alpha.shape()[0];
  if (x.ndim() == 0 || (x.shape()[0] != K && x.shape()[0] != K - 1))
    throw ValueError(
        "scipy.stats.dirichlet.logpdf: x must have as many entries as alpha along its first "
        "axis, or one fewer; got x " +
        x.aval().str() + ", alpha " + alpha.aval().str());
  const Array one = detail::stats::cst(x, 1);
  if (x.shape()[0] != K) x = fj::concatenate({x, Array(one - x.sum({0}, true))}, 0);
  const Array normalize_term =
      fj::sum(Array(fj::gammaln(alpha))) - fj::gammaln(Array(fj::sum(alpha)));
  // alpha (K, 1, ...) against x (K, ...), as JAX's broadcast_in_dim.
  while (alpha.ndim() < x.ndim()) alpha = fj::expand_dims(alpha, {alpha.ndim()});
  const Array log_probs =
      fj::sum(Array(special::xlogy(Array(alpha - one), x)), {0}) - normalize_term;
  // JAX's _is_simplex.
  const Array x_sum = fj::sum(x, {0});
  const Array simplex = fj::logical_and(fj::all(Array(x > 0.0), {0}), fj::abs(x_sum - 1.0) < 1e-06);
  return Array(fj::where(simplex, log_probs, -detail::stats::kInf));
}
/// dirichlet.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& alpha) { return Array(fj::exp(logpdf(x, alpha))); }
}  // namespace dirichlet

}  // namespace fj::scipy::stats
