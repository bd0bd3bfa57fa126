// More of jax.scipy.stats' continuous distributions: the Gumbel pair (gumbel_l, gumbel_r), the
// truncated normal (truncnorm), the wrapped Cauchy (wrapcauchy) and von Mises, each composed of the
// same operations in the same order as JAX 0.10.2's, so each gives JAX's values.
#pragma once
#include <vector>

#include "fusejit/api/stats/continuous.hpp"

namespace fj::scipy::stats {

/// jax.scipy.stats.gumbel_l: the left-skewed Gumbel (minimum extreme value) distribution; NaN
/// wherever scale <= 0.
namespace gumbel_l {
/// gumbel_l.logpdf: z - e^z - log scale with z = (x - loc) / scale.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_l.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array z = (x - loc) / scale;
  const Array neg_log_scale = special::xlogy(detail::stats::cst(scale, -1), scale);
  const Array t2 = z - fj::exp(z);
  return Array(fj::where(ok, neg_log_scale + t2, detail::stats::kNaN));
}
/// gumbel_l.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// gumbel_l.logcdf: log(-expm1(-e^z)).
inline Array logcdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_l.logcdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array z = (x - loc) / scale;
  const Array neg_exp_z = -fj::exp(z);
  return Array(fj::where(ok, fj::log(-fj::expm1(neg_exp_z)), detail::stats::kNaN));
}
/// gumbel_l.cdf: exp(logcdf).
inline Array cdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logcdf(x, loc, scale)));
}
/// gumbel_l.logsf: -e^z.
inline Array logsf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_l.logsf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array z = (x - loc) / scale;
  return Array(fj::where(ok, -fj::exp(z), detail::stats::kNaN));
}
/// gumbel_l.sf: exp(logsf).
inline Array sf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logsf(x, loc, scale)));
}
/// gumbel_l.ppf: loc + scale log(-log1p(-p)), NaN unless 0 < p < 1.
inline Array ppf(const Arg& p_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_l.ppf", {{"p", p_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &p = v[0], &loc = v[1], &scale = v[2];
  const Array ok = fj::logical_and(p > 0.0, p < 1.0);
  const Array t1 = special::xlog1py(detail::stats::cst(p, -1), Array(-p));
  const Array t = scale * fj::log(t1);
  return Array(fj::where(ok, loc + t, detail::stats::kNaN));
}
}  // namespace gumbel_l

/// jax.scipy.stats.gumbel_r: the right-skewed Gumbel (maximum extreme value) distribution; NaN
/// wherever scale <= 0.
namespace gumbel_r {
/// gumbel_r.logpdf: -(z + e^-z) - log scale with z = (x - loc) / scale.
inline Array logpdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_r.logpdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array z = (x - loc) / scale;
  const Array neg_log_scale = special::xlogy(detail::stats::cst(scale, -1), scale);
  const Array t2 = -(z + fj::exp(-z));
  return Array(fj::where(ok, neg_log_scale + t2, detail::stats::kNaN));
}
/// gumbel_r.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, loc, scale)));
}
/// gumbel_r.logcdf: -e^-z.
inline Array logcdf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_r.logcdf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array z = (x - loc) / scale;
  return Array(fj::where(ok, -fj::exp(-z), detail::stats::kNaN));
}
/// gumbel_r.cdf: exp(logcdf).
inline Array cdf(const Arg& x, const Arg& loc = 0, const Arg& scale = 1) {
  return Array(fj::exp(logcdf(x, loc, scale)));
}
/// gumbel_r.sf: 1 - exp(-e^((loc - x) / scale)).
inline Array sf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_r.sf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array neg_z = (loc - x) / scale;
  const Array t1 = fj::exp(-fj::exp(neg_z));
  return Array(fj::where(ok, 1.0 - t1, detail::stats::kNaN));
}
/// gumbel_r.logsf: log1mexp(e^((loc - x) / scale)), accurate where sf is near 0 or 1.
inline Array logsf(const Arg& x_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_r.logsf", {{"x", x_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &x = v[0], &loc = v[1], &scale = v[2];
  const Array ok = scale > 0.0;
  const Array neg_z = (loc - x) / scale;
  return Array(fj::where(ok, nn::log1mexp(Array(fj::exp(neg_z))), detail::stats::kNaN));
}
/// gumbel_r.ppf: loc - scale log(-log p), NaN unless 0 < p < 1.
inline Array ppf(const Arg& p_in, const Arg& loc_in = 0, const Arg& scale_in = 1) {
  const auto v = detail::stats::promote_args_inexact(
      "gumbel_r.ppf", {{"p", p_in.value}, {"loc", loc_in.value}, {"scale", scale_in.value}});
  const Array &p = v[0], &loc = v[1], &scale = v[2];
  const Array ok = fj::logical_and(p > 0.0, p < 1.0);
  const Array t1 = special::xlogy(detail::stats::cst(p, -1), p);
  const Array t = scale * fj::log(t1);
  return Array(fj::where(ok, loc - t, detail::stats::kNaN));
}
}  // namespace gumbel_r

}  // namespace fj::scipy::stats

namespace fj::detail::stats {
/// JAX's _log_diff: log(e^x - e^y) as logsumexp([x, y], b=[1, -1]) over the new axis.
inline Array log_diff(const Array& x, const Array& y) {
  const Array xs = fj::stack({x, y}, 0);
  const Array bs = fj::stack({Array(fj::ones_like(x)), Array(-fj::ones_like(y))}, 0);
  return Array(fj::nn::logsumexp(xs, bs, 0));
}
/// JAX's _log_gauss_mass: log of the standard normal mass on [a, b], from the tail that keeps
/// it accurate (both ends below 0, both above, or straddling 0).
inline Array log_gauss_mass(const Array& a_in, const Array& b_in) {
  const Shape s = broadcast_all("truncnorm", {{"a", a_in}, {"b", b_in}});
  const Array a = a_in.shape() == s ? a_in : Array(fj::broadcast_to(a_in, s));
  const Array b = b_in.shape() == s ? b_in : Array(fj::broadcast_to(b_in, s));
  const Array case_left = b <= 0.0;
  const Array case_right = a > 0.0;
  const Array case_central = fj::logical_not(fj::logical_or(case_left, case_right));
  const Array a_tail = fj::where(case_right, -b, a);
  const Array b_tail = fj::where(case_right, -a, b);
  const Array mass_tail =
      log_diff(scipy::special::log_ndtr(b_tail), scipy::special::log_ndtr(a_tail));
  const Array mass_central = fj::log1p(-scipy::special::ndtr(a) - scipy::special::ndtr(Array(-b)));
  return Array(fj::where(case_central, mass_central, mass_tail));
}
}  // namespace fj::detail::stats

namespace fj::scipy::stats {

/// jax.scipy.stats.truncnorm: the normal distribution truncated to [a, b] (in units of scale
/// from loc); NaN wherever a >= b.
namespace truncnorm {
/// truncnorm.logpdf: norm.logpdf(x, loc, scale) - log(mass on [a, b]), -inf outside [a, b].
inline Array logpdf(const Arg& x_in, const Arg& a_in, const Arg& b_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v =
      detail::stats::promote_args_inexact("truncnorm.logpdf", {{"x", x_in.value},
                                                               {"a", a_in.value},
                                                               {"b", b_in.value},
                                                               {"loc", loc_in.value},
                                                               {"scale", scale_in.value}});
  const Array &x = v[0], &a = v[1], &b = v[2], &loc = v[3], &scale = v[4];
  Array val = norm::logpdf(x, loc, scale) - detail::stats::log_gauss_mass(a, b);
  const Array x_scaled = (x - loc) / scale;
  val = fj::where(fj::logical_or(x_scaled<a, x_scaled> b), -detail::stats::kInf, val);
  return Array(fj::where(a >= b, detail::stats::kNaN, val));
}
/// truncnorm.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& a, const Arg& b, const Arg& loc = 0,
                 const Arg& scale = 1) {
  return Array(fj::exp(logpdf(x, a, b, loc, scale)));
}
/// truncnorm.logcdf: log(mass on [a, x]) - log(mass on [a, b]), or log1p(-sf) once that is
/// above -0.1 (where the difference would cancel); 0 from b on, -inf up to a.
inline Array logcdf(const Arg& x_in, const Arg& a_in, const Arg& b_in, const Arg& loc_in = 0,
                    const Arg& scale_in = 1) {
  const auto v =
      detail::stats::promote_args_inexact("truncnorm.logcdf", {{"x", x_in.value},
                                                               {"a", a_in.value},
                                                               {"b", b_in.value},
                                                               {"loc", loc_in.value},
                                                               {"scale", scale_in.value}});
  const Array &loc = v[3], &scale = v[4];
  // jnp.broadcast_arrays(x, a, b): x, a and b (not loc, scale) to their common shape.
  const Shape s =
      detail::stats::broadcast_all("truncnorm.logcdf", {{"x", v[0]}, {"a", v[1]}, {"b", v[2]}});
  const auto bc = [&](const Array& u) {
    return u.shape() == s ? u : Array(fj::broadcast_to(u, s));
  };
  const Array a = bc(v[1]), b = bc(v[2]);
  const Array x = (bc(v[0]) - loc) / scale;
  const Array lgm_ab = detail::stats::log_gauss_mass(a, b);
  const Array lcdf = detail::stats::log_gauss_mass(a, x) - lgm_ab;
  const Array lsf = detail::stats::log_gauss_mass(x, b) - lgm_ab;
  const Array r = fj::select({Array(x >= b), Array(x <= a), Array(lcdf > -0.1), Array(x > a)},
                             {detail::stats::cst(x, 0), detail::stats::cst(x, -detail::stats::kInf),
                              Array(fj::log1p(-fj::exp(lsf))), lcdf});
  return Array(fj::where(a >= b, detail::stats::kNaN, r));
}
/// truncnorm.cdf: exp(logcdf).
inline Array cdf(const Arg& x, const Arg& a, const Arg& b, const Arg& loc = 0,
                 const Arg& scale = 1) {
  return Array(fj::exp(logcdf(x, a, b, loc, scale)));
}
/// truncnorm.logsf: logcdf(-x, -b, -a, -loc, scale), the reflected distribution's.
inline Array logsf(const Arg& x_in, const Arg& a_in, const Arg& b_in, const Arg& loc_in = 0,
                   const Arg& scale_in = 1) {
  const auto v =
      detail::stats::promote_args_inexact("truncnorm.logsf", {{"x", x_in.value},
                                                              {"a", a_in.value},
                                                              {"b", b_in.value},
                                                              {"loc", loc_in.value},
                                                              {"scale", scale_in.value}});
  return logcdf(Array(-v[0]), Array(-v[2]), Array(-v[1]), Array(-v[3]), v[4]);
}
/// truncnorm.sf: exp(logsf).
inline Array sf(const Arg& x, const Arg& a, const Arg& b, const Arg& loc = 0,
                const Arg& scale = 1) {
  return Array(fj::exp(logsf(x, a, b, loc, scale)));
}
}  // namespace truncnorm

/// jax.scipy.stats.wrapcauchy: the wrapped Cauchy distribution on [0, 2 pi] with shape c.
namespace wrapcauchy {
/// wrapcauchy.logpdf: log(1 - c^2) - log(2 pi) - log(1 + c^2 - 2 c cos x) on [0, 2 pi] (-inf
/// outside), NaN unless 0 < c < 1.
inline Array logpdf(const Arg& x_in, const Arg& c_in) {
  const auto v = detail::stats::promote_args_inexact("wrapcauchy.logpdf",
                                                     {{"x", x_in.value}, {"c", c_in.value}});
  const Array &x = v[0], &c = v[1];
  // jnp.log(2 * np.pi) of a Python float: computed in f64 (x64) and then rounded to x's dtype
  // as a weak scalar, which a C++ double literal is too.
  const double log_two_pi = std::log(2 * detail::stats::kPi);
  const Array in_support = fj::logical_and(x >= 0.0, x <= detail::stats::kPi * 2);
  const Array value =
      fj::log(1.0 - c * c) - log_two_pi - fj::log(1.0 + c * c - 2.0 * c * fj::cos(x));
  const Array ok = fj::logical_and(c > 0.0, c < 1.0);
  return Array(
      fj::where(ok, fj::where(in_support, value, -detail::stats::kInf), detail::stats::kNaN));
}
/// wrapcauchy.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& c) { return Array(fj::exp(logpdf(x, c))); }
}  // namespace wrapcauchy

/// jax.scipy.stats.vonmises: the von Mises (circular normal) distribution on [-pi, pi]; NaN
/// unless kappa > 0.
namespace vonmises {
/// vonmises.logpdf: kappa (cos x - 1) - log(2 pi bessel_i0e(kappa)), the scaled Bessel function
/// keeping large kappa finite.
inline Array logpdf(const Arg& x_in, const Arg& kappa_in) {
  const auto v = detail::stats::promote_args_inexact(
      "vonmises.logpdf", {{"x", x_in.value}, {"kappa", kappa_in.value}});
  const Array &x = v[0], &kappa = v[1];
  const Array value =
      kappa * (fj::cos(x) - 1.0) - fj::log(2 * detail::stats::kPi * lax::bessel_i0e(kappa));
  return Array(fj::where(kappa > 0.0, value, detail::stats::kNaN));
}
/// vonmises.pdf: exp(logpdf).
inline Array pdf(const Arg& x, const Arg& kappa) { return Array(fj::exp(logpdf(x, kappa))); }
}  // namespace vonmises

}  // namespace fj::scipy::stats
