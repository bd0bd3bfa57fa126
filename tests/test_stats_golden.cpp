// fusejit's jax.scipy.stats functions (include/fusejit/api/stats/) against JAX 0.10.2
// (tests/golden/stats_goldens.txt, printed by tests/golden/stats_goldens.py): one row per JAX
// call, in f64 on inputs that reach each function's edge cases and in f32 for some, run on
// every backend and under jit; then bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/api/stats.hpp>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;

namespace {

constexpr fusejit_test::Golden kGolden{"stats_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }
Array in32(const std::string& name) { return Array(fj::astype(in(name), fj::f32)); }
// The input plus 1/4 (in f64), in f32: shapes kept off lgamma's roots 1 and 2 in f32.
Array in32p(const std::string& name) { return Array(fj::astype(Array(in(name) + 0.25), fj::f32)); }

constexpr std::uint64_t kSame = UINT64_MAX;

// A row: the JAX call's section, the fusejit call, and the bound on each entry's distance from
// JAX's in ulps of the result's dtype (0: bit for bit, the sign of a zero included; two NaNs
// agree). The LLVM backend (and the jit, on it) contracts a * b + c into one fused multiply-add
// (docs/jax-differences.md), which JAX's op-by-op evaluation never does, and computes exp, log,
// tan, ... with its own polynomials (docs/MATH.md), an ulp from the reference backend's in
// places: where that moves a result, `llvm_ulps` bounds it there, and `llvm_skip` lists the
// entries no ulp bound can cover (a contracted 0.5 + (1/pi) atan(-inf) is -1.1e-17 where JAX's
// is 0).
struct Row {
  const char* name;
  std::function<Array()> call;
  std::uint64_t ulps = 0;
  std::uint64_t llvm_ulps = kSame;
  std::vector<std::size_t> llvm_skip = {};
};

std::vector<Row> rows() {
  namespace st = fj::scipy::stats;
  const auto x = [] { return in("x"); };
  const auto q = [] { return in("q"); };
  const auto xc = [] { return in("xc"); };
  const auto loc = [] { return in("loc"); };
  const auto scale = [] { return in("scale"); };
  const auto scale_neg = [] { return in("scale_neg"); };
  const auto q4 = [] { return Array(fj::expand_dims(in("q")(fj::range(0, 4)), {1})); };
  return {
      {"norm.logpdf", [=] { return st::norm::logpdf(x()); }},
      {"norm.logpdf_loc_scale", [=] { return st::norm::logpdf(xc(), loc(), scale()); }},
      // exp: XLA's f64 exp is up to an ulp from fusejit's (at -1 JAX is 0.8 ulp from the exact
      // value, fusejit 0.5); every exp(logpdf) row below with a bound of 1 is this.
      {"norm.pdf", [=] { return st::norm::pdf(x()); }, 1},
      {"norm.pdf_loc_scale", [=] { return st::norm::pdf(xc(), loc(), scale()); }, 1},
      // ndtr: XLA's erf and erfc against fusejit's, an ulp apart; 2 at -2 (ndtr = 0.023).
      {"norm.cdf", [=] { return st::norm::cdf(x()); }, 1},
      {"norm.cdf_loc_scale", [=] { return st::norm::cdf(xc(), loc(), scale()); }, 2},
      // log of ndtr or the log_ndtr series: an ulp (XLA's erfc and log).
      {"norm.logcdf", [=] { return st::norm::logcdf(x()); }, 1},
      {"norm.sf", [=] { return st::norm::sf(x()); }, 1},
      {"norm.logsf", [=] { return st::norm::logsf(x()); }, 1},
      {"norm.logsf_loc_scale", [=] { return st::norm::logsf(xc(), loc(), scale()); }, 1},
      // ndtri's rational approximations through log and sqrt (the nn_special ndtri row: 3).
      {"norm.ppf", [=] { return st::norm::ppf(q()); }, 2},
      {"norm.ppf_loc_scale", [=] { return st::norm::ppf(q4(), loc(), scale()); }},
      {"norm.isf", [=] { return st::norm::isf(q()); }},
      {"expon.logpdf", [=] { return st::expon::logpdf(x()); }},
      {"expon.logpdf_loc_scale", [=] { return st::expon::logpdf(xc(), loc(), scale()); }},
      {"expon.pdf", [=] { return st::expon::pdf(x()); }, 1},
      // expm1: XLA's is 1.0 ulp from the exact value at -0.5, fusejit's 0.4.
      {"expon.cdf", [=] { return st::expon::cdf(x()); }, 1},
      {"expon.cdf_loc_scale", [=] { return st::expon::cdf(xc(), loc(), scale()); }, 1},
      // log1p(-exp(-1)): XLA's exp(-1) is an ulp low and its log1p carries it: JAX 10.3 ulps
      // from the exact value, fusejit 0.7 (the nn_special log1mexp row).
      {"expon.logcdf", [=] { return st::expon::logcdf(x()); }, 11},
      {"expon.sf", [=] { return st::expon::sf(x()); }, 1},
      {"expon.logsf", [=] { return st::expon::logsf(x()); }},
      // log1p: an ulp between XLA's and fusejit's.
      {"expon.ppf", [=] { return st::expon::ppf(q()); }, 1},
      {"expon.ppf_loc_scale", [=] { return st::expon::ppf(q4(), loc(), scale()); }},
      {"uniform.logpdf", [=] { return st::uniform::logpdf(x()); }},
      {"uniform.logpdf_loc_scale", [=] { return st::uniform::logpdf(xc(), loc(), scale()); }},
      {"uniform.pdf", [=] { return st::uniform::pdf(x()); }},
      {"uniform.cdf", [=] { return st::uniform::cdf(x()); }},
      {"uniform.cdf_loc_scale", [=] { return st::uniform::cdf(xc(), loc(), scale()); }},
      {"uniform.ppf", [=] { return st::uniform::ppf(q()); }},
      // logaddexp (exp and log1p) and expit (exp): an ulp between the libraries; pdf's
      // exp adds one.
      {"logistic.logpdf", [=] { return st::logistic::logpdf(x()); }, 1},
      {"logistic.logpdf_loc_scale", [=] { return st::logistic::logpdf(xc(), loc(), scale()); }, 1},
      {"logistic.pdf", [=] { return st::logistic::pdf(x()); }, 2},
      {"logistic.cdf", [=] { return st::logistic::cdf(x()); }, 1},
      {"logistic.sf", [=] { return st::logistic::sf(x()); }, 1},
      {"logistic.ppf", [=] { return st::logistic::ppf(q()); }, 1},
      {"logistic.isf", [=] { return st::logistic::isf(q()); }, 1},
      {"logistic.isf_loc_scale", [=] { return st::logistic::isf(q4(), loc(), scale()); }},
      {"laplace.logpdf", [=] { return st::laplace::logpdf(x()); }},
      {"laplace.logpdf_loc_scale", [=] { return st::laplace::logpdf(xc(), loc(), scale()); }},
      {"laplace.pdf", [=] { return st::laplace::pdf(x()); }, 0, 1},
      // exp, an ulp (as norm.pdf); laplace.pdf on the LLVM backend: its exp an ulp from the
      // reference's (which equals XLA's there).
      {"laplace.cdf", [=] { return st::laplace::cdf(x()); }, 1},
      {"laplace.cdf_loc_scale", [=] { return st::laplace::cdf(xc(), loc(), scale()); }, 1},
      {"cauchy.logpdf", [=] { return st::cauchy::logpdf(x()); }},
      {"cauchy.logpdf_loc_scale", [=] { return st::cauchy::logpdf(xc(), loc(), scale()); }},
      // log1p and log, an ulp.
      {"cauchy.pdf", [=] { return st::cauchy::pdf(x()); }, 1},
      // 0.5 + (1/pi) atan(x): XLA's atan(-1) is an ulp from the exact -pi/4 and the sum cancels
      // to 0.25 (2 ulps), to 0.045 at 40 in sf (an ulp of the product is 8 of the result). On the
      // LLVM backend the product and the sum are one FMA: an ulp more (3, 12, 4), and at +-inf 0.5
      // + (1/pi) atan is -1.1e-17 where JAX's is exactly 0, so cdf < 0 and logcdf NaN where JAX's
      // are 0 and -inf (skipped there; fusejit issue reported).
      {"cauchy.cdf", [=] { return st::cauchy::cdf(x()); }, 2, 3, {0}},
      {"cauchy.logcdf", [=] { return st::cauchy::logcdf(x()); }, 1, 1, {0}},
      {"cauchy.sf", [=] { return st::cauchy::sf(x()); }, 8, 12, {12}},
      {"cauchy.logsf", [=] { return st::cauchy::logsf(x()); }, 3, 4, {12}},
      // tan(pi q - pi / 2) near its pole (q = 0.99, condition number 50): the reference
      // backend computes JAX's bits; the LLVM backend contracts pi q - pi / 2 into an FMA, one
      // rounding fewer, which the pole turns into 64 ulps.
      {"cauchy.ppf", [=] { return st::cauchy::ppf(q()); }, 0, 64},
      {"cauchy.isf", [=] { return st::cauchy::isf(q()); }, 0, 64},
      // lgamma(50.5) - lgamma(50) = 1.96 from terms of 145 (x = 0.5, df = 100): an ulp of
      // lgamma(50.5) is 128 ulps of the result, and XLA's is 2.6 ulps off there (JAX 237 ulps from
      // the exact logpdf, fusejit 19); pdf: JAX 332 from the exact value, fusejit 27.
      {"t.logpdf", [=] { return st::t::logpdf(x(), in("df")); }, 256},
      // lgamma(1.5) and lgamma(2): XLA's few ulps, in results near -1.
      {"t.logpdf_loc_scale", [=] { return st::t::logpdf(xc(), 3.0, loc(), scale()); }, 2},
      {"t.pdf", [=] { return st::t::pdf(x(), in("df")); }, 359},
      // XLA's lgamma(2.5) is 8.4 ulps off (JAX 3.5 ulps from the exact logpdf, fusejit 0.5).
      {"chi2.logpdf", [=] { return st::chi2::logpdf(in("h"), in("k")); }, 4},
      {"chi2.logpdf_loc_scale", [=] { return st::chi2::logpdf(xc(), 3.0, loc(), scale()); }, 2},
      // exp(-21.1) at x = 100, df = 30: an ulp of the log is 16 ulps of the pdf (JAX 15.5
      // ulps from the exact value, fusejit 30); on the LLVM backend its exp moves it one more ulp
      // of the log (70).
      {"chi2.pdf", [=] { return st::chi2::pdf(in("h"), in("k")); }, 46, 70},
      // The gamma rows' incomplete gamma function at a = df / 2: JAX 5 ulps from mpmath in the
      // cdf, 4.1 at x = 3, loc = 1, scale = 2, where fusejit's LLVM backend is 5 off the other
      // way; 34.7 in sf(100, df = 30).
      {"chi2.cdf", [=] { return st::chi2::cdf(in("h"), in("k")); }, 10},
      {"chi2.cdf_loc_scale", [=] { return st::chi2::cdf(xc(), 3.0, loc(), scale()); }, 10},
      {"chi2.logcdf", [=] { return st::chi2::logcdf(in("h"), in("k")); }, 14},
      {"chi2.sf", [=] { return st::chi2::sf(in("h"), in("k")); }, 35},
      {"chi2.logsf", [=] { return st::chi2::logsf(in("h"), in("k")); }, 9},
      // lgamma(30) = 71 in a result of -37.7 (x = 100): JAX 5.2 ulps from the exact value,
      // fusejit 1.2; pdf = exp(-37.7): an ulp of the log is 32 ulps of the pdf (JAX 254 from the
      // exact value, fusejit 60).
      {"gamma.logpdf", [=] { return st::gamma::logpdf(in("h"), in("k")); }, 4},
      {"gamma.logpdf_loc_scale", [=] { return st::gamma::logpdf(xc(), 2.5, loc(), scale()); }, 2},
      {"gamma.pdf", [=] { return st::gamma::pdf(in("h"), in("k")); }, 194},
      // The incomplete gamma function: the reference backend sums the series and continued
      // fraction in long double (within half an ulp of mpmath at these points), the LLVM
      // backend runs XLA's f64 algorithm, whose x^a e^-x / Gamma(a) carries lgamma's and log's
      // roundings: JAX is 17.9 ulps from mpmath at cdf(1e-10, a = 2) and 155 at sf(100, a = 30)
      // (Q = 2e-20); the bounds are those, measured (docs/MATH.md, "igamma").
      {"gamma.cdf", [=] { return st::gamma::cdf(in("h"), in("k")); }, 19},
      {"gamma.cdf_loc_scale", [=] { return st::gamma::cdf(xc(), 2.5, loc(), scale()); }, 19},
      {"gamma.logcdf", [=] { return st::gamma::logcdf(in("h"), in("k")); }, 8},
      {"gamma.sf", [=] { return st::gamma::sf(in("h"), in("k")); }, 156},
      {"gamma.sf_loc_scale", [=] { return st::gamma::sf(xc(), 2.5, loc(), scale()); }, 19},
      {"gamma.logsf", [=] { return st::gamma::logsf(in("h"), in("k")); }, 17},
      // betaln(3, 1) from lgamma(3) and lgamma(4), which XLA has 11.2 and 2.8 ulps off (JAX
      // 17.3 ulps from the exact logpdf, fusejit 0.7); beta.pdf: JAX 14 ulps from the exact 1.6875,
      // fusejit 0 (15 on the LLVM backend, its exp). loc_scale: betaln(2, 3) = -2.48 through XLA's
      // lgamma(3) and lgamma(5), in a result of 0.41.
      {"beta.logpdf", [=] { return st::beta::logpdf(in("u"), in("ba"), in("bb")); }, 18},
      {"beta.logpdf_loc_scale",
       [=] { return st::beta::logpdf(xc(), 2.0, 3.0, loc(), scale_neg()); }, 32},
      {"beta.pdf", [=] { return st::beta::pdf(in("u"), in("ba"), in("bb")); }, 14, 15},
      // The LLVM backend contracts (b + 1) log x + log(scale / b) into an FMA: an ulp of
      // the log, 3 ulps of the pdf; pow and log elsewhere, an ulp.
      {"pareto.logpdf", [=] { return st::pareto::logpdf(in("h"), in("k")); }, 0, 1},
      {"pareto.logpdf_loc_scale", [=] { return st::pareto::logpdf(xc(), 2.0, loc(), scale()); }, 1},
      {"pareto.pdf", [=] { return st::pareto::pdf(in("h"), in("k")); }, 0, 3},
      {"pareto.cdf", [=] { return st::pareto::cdf(in("h"), in("k")); }},
      {"pareto.logcdf", [=] { return st::pareto::logcdf(in("h"), in("k")); }},
      {"pareto.sf", [=] { return st::pareto::sf(in("h"), in("k")); }, 1},
      {"pareto.logsf", [=] { return st::pareto::logsf(in("h"), in("k")); }},
      {"pareto.ppf", [=] { return st::pareto::ppf(q(), 2.5); }},
      // XLA's lgamma(1 / 1.5) is 7 ulps off (JAX 7.1 ulps from the exact value,
      // fusejit 0.1; pdf: JAX 12.2, fusejit 0.2).
      {"gennorm.logpdf", [=] { return st::gennorm::logpdf(x(), in("beta")); }, 7},
      {"gennorm.pdf", [=] { return st::gennorm::pdf(x(), in("beta")); }, 12},
      // exp and expm1, an ulp between the libraries (gumbel_l.cdf: 3 at -3, exp of a
      // log of an expm1 of an exp); logpdf at +-40 on the LLVM backend: its e^40 an ulp from the
      // reference's.
      {"gumbel_l.logpdf", [=] { return st::gumbel_l::logpdf(x()); }, 0, 1},
      {"gumbel_l.logpdf_loc_scale", [=] { return st::gumbel_l::logpdf(xc(), loc(), scale_neg()); },
       1},
      {"gumbel_l.pdf", [=] { return st::gumbel_l::pdf(x()); }, 1},
      {"gumbel_l.cdf", [=] { return st::gumbel_l::cdf(x()); }, 3},
      {"gumbel_l.logcdf", [=] { return st::gumbel_l::logcdf(x()); }, 1},
      {"gumbel_l.sf", [=] { return st::gumbel_l::sf(x()); }, 1},
      {"gumbel_l.logsf", [=] { return st::gumbel_l::logsf(x()); }, 1},
      {"gumbel_l.ppf", [=] { return st::gumbel_l::ppf(q()); }, 1},
      {"gumbel_r.logpdf", [=] { return st::gumbel_r::logpdf(x()); }, 0, 1},
      {"gumbel_r.logpdf_loc_scale", [=] { return st::gumbel_r::logpdf(xc(), loc(), scale_neg()); },
       1},
      {"gumbel_r.pdf", [=] { return st::gumbel_r::pdf(x()); }, 1},
      {"gumbel_r.cdf", [=] { return st::gumbel_r::cdf(x()); }, 1},
      {"gumbel_r.logcdf", [=] { return st::gumbel_r::logcdf(x()); }, 1},
      {"gumbel_r.sf", [=] { return st::gumbel_r::sf(x()); }},
      // log1mexp(exp(-1)) as expon.logcdf above: JAX 10.3 ulps from the exact value.
      {"gumbel_r.logsf", [=] { return st::gumbel_r::logsf(x()); }, 11},
      {"gumbel_r.ppf", [=] { return st::gumbel_r::ppf(q()); }},
      // norm.logpdf minus the log mass: log_ndtr, ndtr and logsumexp through XLA's
      // erf, erfc, exp and log1p, each an ulp from fusejit's; a difference of two log masses
      // (logcdf, sf) cancels to 5 ulps, to 10 at x = 0.83 in [-1, 2] (-0.25 from -0.41 and -0.16).
      {"truncnorm.logpdf", [=] { return st::truncnorm::logpdf(in("tx"), in("ta"), in("tb")); }, 2},
      {"truncnorm.logpdf_loc_scale",
       [=] { return st::truncnorm::logpdf(xc(), -1.0, 2.0, loc(), scale_neg()); }, 1},
      {"truncnorm.pdf", [=] { return st::truncnorm::pdf(in("tx"), in("ta"), in("tb")); }, 3},
      {"truncnorm.cdf", [=] { return st::truncnorm::cdf(in("tx"), in("ta"), in("tb")); }, 1},
      {"truncnorm.logcdf", [=] { return st::truncnorm::logcdf(in("tx"), in("ta"), in("tb")); }, 5},
      {"truncnorm.logcdf_loc_scale",
       [=] { return st::truncnorm::logcdf(xc(), -1.0, 2.0, loc(), scale_neg()); }, 10},
      {"truncnorm.sf", [=] { return st::truncnorm::sf(in("tx"), in("ta"), in("tb")); }, 4},
      {"truncnorm.logsf", [=] { return st::truncnorm::logsf(in("tx"), in("ta"), in("tb")); }, 4},
      // (1 - igamma(1 / beta, |x|^beta)) / 2 below 0 cancels: at x = -1, beta = 1.5, P = 0.775
      // and an ulp of P is 6.9 ulps of the result, so igamma's 16-ulp bound (test_math_golden)
      // allows 110; JAX is 7.0 ulps from mpmath there, the LLVM backend 32 from JAX.
      {"gennorm.cdf", [=] { return st::gennorm::cdf(x(), in("beta")); }, 110},
      {"wrapcauchy.logpdf", [=] { return st::wrapcauchy::logpdf(in("wx"), in("wc")); }},
      {"wrapcauchy.pdf", [=] { return st::wrapcauchy::pdf(in("wx"), in("wc")); }},
      // log(2 pi bessel_i0e(kappa)): Cephes' series in XLA is up to 8 ulps off (docs/MATH.md),
      // the reference backend's half an ulp; the log divides that by |log(...)| >= 0.9 here.
      {"vonmises.logpdf", [=] { return st::vonmises::logpdf(in("wx"), in("vk")); }, 9},
      {"vonmises.pdf", [=] { return st::vonmises::pdf(in("wx"), in("vk")); }, 9},
      // xlog1py: XLA's log1p(-0.3) an ulp off.
      {"bernoulli.logpmf", [=] { return st::bernoulli::logpmf(in("bk"), in("bp")); }, 1},
      // XLA's log1p(-0.4) is 50 ulps from the exact value (fusejit's 0.01).
      {"bernoulli.logpmf_loc", [=] { return st::bernoulli::logpmf(in("bk"), 0.4, 1.0); }, 50},
      {"bernoulli.pmf", [=] { return st::bernoulli::pmf(in("bk"), in("bp")); }, 1},
      {"bernoulli.cdf", [=] { return st::bernoulli::cdf(in("bk"), in("bp")); }},
      {"bernoulli.ppf", [=] { return st::bernoulli::ppf(Array(q()(fj::range(0, 12))), in("bp")); }},
      // xlog1py and log, an ulp; pmf: exp(-5.6), an ulp of the log is 8 ulps of the pmf.
      {"geom.logpmf", [=] { return st::geom::logpmf(in("n"), in("p")); }, 1},
      {"geom.logpmf_loc", [=] { return st::geom::logpmf(in("n"), 0.3, -1.0); }, 1},
      {"geom.pmf", [=] { return st::geom::pmf(in("n"), in("p")); }, 8},
      // 50 log 50 - lgamma(51) - 50 = -2.88 from terms of 196: an ulp of 196 is 64 ulps
      // of the result (JAX 97 ulps from the exact value, fusejit 33); pmf = exp of it (JAX 352,
      // fusejit 121). loc: XLA's lgamma(3) is 11 ulps off (JAX 5.4 ulps from the exact value,
      // fusejit 0.4).
      {"poisson.logpmf", [=] { return st::poisson::logpmf(in("n"), in("mu")); }, 64},
      {"poisson.logpmf_loc", [=] { return st::poisson::logpmf(in("n"), 2.0, 1.0); }, 5},
      {"poisson.pmf", [=] { return st::poisson::pmf(in("n"), in("mu")); }, 231},
      // gammaincc(k + 1, mu): JAX 90.7 ulps from mpmath at k = mu = 50, the LLVM backend (XLA's
      // algorithm) 27.3 on the other side.
      {"poisson.cdf", [=] { return st::poisson::cdf(in("n"), in("mu")); }, 118},
      {"poisson.cdf_loc", [=] { return st::poisson::cdf(in("n"), 2.0, 1.0); }, 4},
      // Three lgammas of 4 to 121 summed to a few units: XLA's lgamma is up to 11 ulps off
      // at small integers (JAX 18 ulps from the exact value at k = 2.5, n = 10, fusejit 2;
      // loc: 41.7 and 2.3); pmf(100; 120, 0.01) = exp(-408): an ulp of the log is 256 ulps of the
      // pmf (JAX 693 from the exact value, fusejit 193).
      {"binom.logpmf", [=] { return st::binom::logpmf(in("n"), in("trials"), in("p")); }, 20},
      {"binom.logpmf_loc", [=] { return st::binom::logpmf(in("n"), 10.0, 0.3, 2.0); }, 44},
      {"binom.pmf", [=] { return st::binom::pmf(in("n"), in("trials"), in("p")); }, 500},
      // Differences of betaln's, each a few lgamma's: JAX 11.2 ulps from the exact
      // value, fusejit 6.8; pmf: JAX 43, fusejit 27; loc: XLA's lgamma(3) 11 ulps off.
      {"betabinom.logpmf",
       [=] { return st::betabinom::logpmf(in("n"), in("trials"), in("ba"), in("bb")); }, 18},
      {"betabinom.logpmf_loc", [=] { return st::betabinom::logpmf(in("n"), 10.0, 2.0, 3.0, 1.0); },
       12},
      {"betabinom.pmf",
       [=] { return st::betabinom::pmf(in("n"), in("trials"), in("ba"), in("bb")); }, 70},
      // Three lgammas: JAX 15.5 ulps from the exact value, fusejit 2.5 (loc: 14.5 and 0.5);
      // pmf(100; 120, 0.01) = exp(-404): an ulp of the log is 256 ulps of the pmf (JAX 1373 from
      // the exact value, fusejit 521).
      {"nbinom.logpmf", [=] { return st::nbinom::logpmf(in("n"), in("trials"), in("p")); }, 18},
      {"nbinom.logpmf_loc", [=] { return st::nbinom::logpmf(in("n"), 3.0, 0.4, 1.0); }, 14},
      {"nbinom.pmf", [=] { return st::nbinom::pmf(in("n"), in("trials"), in("p")); }, 1894},
      {"multinomial.logpmf",
       [=] {
         return st::multinomial::logpmf(Array(fj::astype(in("mnx"), fj::i32)), 3, in("mnp"));
       }},
      // lgamma(4) - lgamma(2) - lgamma(3): XLA's lgamma(3) 11 ulps off (JAX 9.0
      // ulps from the exact value, fusejit 2.0).
      {"multinomial.logpmf_row",
       [=] {
         return st::multinomial::logpmf(Array(fj::astype(in("mnx")(0), fj::i32)), 3, in("mnp"));
       },
       7},
      {"multinomial.pmf_row",
       [=] { return st::multinomial::pmf(Array(fj::astype(in("mnx")(1), fj::i32)), 3, in("mnp")); },
       3},
      {"multivariate_normal.logpdf",
       [=] { return st::multivariate_normal::logpdf(in("mx"), in("mm"), in("mcov")); }},
      {"multivariate_normal.logpdf_batch",
       [=] { return st::multivariate_normal::logpdf(in("mbx"), in("mm"), in("mcovb")); }},
      {"multivariate_normal.logpdf_scalar_cov",
       [=] { return st::multivariate_normal::logpdf(in("mx"), in("mm"), 2.5); }},
      {"multivariate_normal.logpdf_scalar_mean",
       [=] { return st::multivariate_normal::logpdf(in("s1"), 0.5, 2.0); }},
      // exp, an ulp.
      {"multivariate_normal.pdf",
       [=] { return st::multivariate_normal::pdf(in("mx"), in("mm"), in("mcov")); }, 1},
      // Four lgammas summed to -0.32: JAX 2.3 ulps from the exact value, fusejit 1.7.
      {"dirichlet.logpdf", [=] { return st::dirichlet::logpdf(in("dx"), in("dalpha")); }, 4},
      {"dirichlet.logpdf_k_minus_1", [=] { return st::dirichlet::logpdf(in("dxm"), in("dalpha")); },
       4},
      {"dirichlet.logpdf_vector",
       [=] { return st::dirichlet::logpdf(Array(in("dx")(fj::range(), 0)), in("dalpha")); }, 4},
      {"dirichlet.pdf", [=] { return st::dirichlet::pdf(in("dx"), in("dalpha")); }, 1},
      // jnp.std's mean: XLA multiplies by 1/n where fj::mean divides, an ulp apart.
      // Each pmf is exp(k log mu - lgamma(k + 1) - mu), terms up to 460 cancelling to a few units
      // (an ulp of 460 is 128 ulps of a term's log), summed by entr over up to 250 k: at mu = 99.5
      // JAX is 306 ulps from the exact (truncated) sum, fusejit 106-107 (the sum's order follows
      // the vector width); at 42, 115 and 21. Bound: 306 + 128, an ulp of a term's log.
      {"poisson.entropy", [=] { return st::poisson::entropy(in("em")); }, 434},
      {"poisson.entropy_loc",
       [=] {
         return st::poisson::entropy(Array(in("em")(fj::range(0, 3))), fj::zeros({2, 1}, fj::f64));
       },
       434},
      {"mode_axis0.mode", [=] { return st::mode(in("rm")).mode; }},
      {"mode_axis0.count", [=] { return st::mode(in("rm")).count; }},
      {"mode_axis1.mode", [=] { return st::mode(in("rm"), 1).mode; }},
      {"mode_axis1.count", [=] { return st::mode(in("rm"), 1).count; }},
      {"mode_none_keepdims.mode", [=] { return st::mode(in("ra"), std::nullopt, true).mode; }},
      {"mode_none_keepdims.count", [=] { return st::mode(in("ra"), std::nullopt, true).count; }},
      {"mode_int.mode", [=] { return st::mode(Array(fj::astype(in("ra"), fj::i32))).mode; }},
      {"mode_int.count", [=] { return st::mode(Array(fj::astype(in("ra"), fj::i32))).count; }},
      {"rankdata", [=] { return st::rankdata(in("ra")); }},
      {"rankdata_min", [=] { return st::rankdata(in("ra"), st::RankMethod::min); }},
      {"rankdata_max", [=] { return st::rankdata(in("ra"), st::RankMethod::max); }},
      {"rankdata_dense", [=] { return st::rankdata(in("ra"), st::RankMethod::dense); }},
      {"rankdata_ordinal", [=] { return st::rankdata(in("ra"), st::RankMethod::ordinal); }},
      {"rankdata_2d", [=] { return st::rankdata(Array(in("rm")(fj::range(0, 3, 2)))); }},
      {"rankdata_nan", [=] { return st::rankdata(in("rm")); }},
      {"rankdata_axis0", [=] { return st::rankdata(in("rm"), st::RankMethod::average, 0); }},
      {"rankdata_axis1_dense", [=] { return st::rankdata(in("rm"), st::RankMethod::dense, 1); }},
      {"rankdata_axis_neg1_ordinal",
       [=] { return st::rankdata(in("rm"), st::RankMethod::ordinal, -1); }},
      {"sem", [=] { return st::sem(in("sa")); }, 1},
      {"sem_axis1", [=] { return st::sem(in("sa"), 1); }},
      {"sem_none_ddof0", [=] { return st::sem(in("sa"), std::nullopt, 0); }, 1},
      {"sem_keepdims", [=] { return st::sem(in("sa"), -1, 1, true); }},
      {"f32.norm.logpdf", [=] { return st::norm::logpdf(in32("x")); }},
      // f32 rows: XLA's f32 erf, an ulp; logcdf at 7: -ndtr(-7) through XLA's f32 erfc,
      // which rounds z^2 before exp(-z^2) (the f64 ndtr row's cause), 12 ulps.
      {"f32.norm.cdf", [=] { return st::norm::cdf(in32("x")); }, 1},
      {"f32.norm.logcdf", [=] { return st::norm::logcdf(in32("x")); }, 12},
      {"f32.norm.ppf", [=] { return st::norm::ppf(in32("q")); }},
      {"f32.expon.logpdf", [=] { return st::expon::logpdf(in32("x")); }},
      {"f32.logistic.logpdf", [=] { return st::logistic::logpdf(in32("x")); }},
      // 0.5 + (1/pi) atan(-3) = 0.10 cancels: an ulp of the product is 8 f32 ulps of it;
      // at -inf on the LLVM backend the FMA of cauchy.cdf above (6.3e-9 for JAX's 0).
      {"f32.cauchy.cdf", [=] { return st::cauchy::cdf(in32("x")); }, 8, 8, {0}},
      // tan(pi q - pi / 2) at q = 0 (the pole): an ulp of f32 tan; at q = 1.5 the
      // argument is pi, where tan is 0: the LLVM backend's FMA changes its rounding and the
      // result's sign (skipped there).
      {"f32.cauchy.ppf", [=] { return st::cauchy::ppf(in32("q")); }, 1, 2, {11}},
      // XLA's f32 lgamma(1) is 4.8e-7 where the exact value is 0: 8 f32 ulps of -log 2.
      {"f32.chi2.logpdf", [=] { return st::chi2::logpdf(in32("h"), in32("k")); }, 8},
      // XLA's f32 lgamma, a few ulps (24 in beta's sum of three).
      {"f32.gamma.logpdf", [=] { return st::gamma::logpdf(in32("h"), in32p("k")); }, 4},
      {"f32.beta.logpdf", [=] { return st::beta::logpdf(in32("u"), in32p("ba"), in32p("bb")); },
       24},
      {"f32.pareto.ppf", [=] { return st::pareto::ppf(in32("q"), 2.5); }},
      // lgamma(101) = 364 in a result of -5.5: an ulp of 364 is 64 f32 ulps of it.
      {"f32.poisson.logpmf", [=] { return st::poisson::logpmf(in32("n"), in32("mu")); }, 64},
      {"f32.binom.logpmf", [=] { return st::binom::logpmf(in32("n"), in32("trials"), in32("p")); },
       8},
      {"f32.multivariate_normal.logpdf",
       [=] { return st::multivariate_normal::logpdf(in32("mx"), in32("mm"), in32("mcov")); }},
  };
}

// The row's result against its golden section: the dtype line, then "d0 d1 : v0 v1 ...".
void check_row(const Row& row, const Array& got, bool on_llvm) {
  const std::uint64_t bound = on_llvm && row.llvm_ulps != kSame ? row.llvm_ulps : row.ulps;
  CAPTURE(std::string(row.name));
  const auto lines = kGolden.lines(std::string("values ") + row.name);
  const std::string& line = lines.at(1);
  REQUIRE(std::string(fj::long_name(got.dtype())) == lines.at(0));
  const auto [v, w] = fusejit_test::golden_values(line, got);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (on_llvm && std::find(row.llvm_skip.begin(), row.llvm_skip.end(), i) != row.llvm_skip.end())
      continue;
    CAPTURE(i);
    CAPTURE(v[i]);
    CAPTURE(w[i]);
    const std::uint64_t d =
        got.dtype() == fj::f32
            ? fusejit_test::ulp_distance(static_cast<float>(v[i]), static_cast<float>(w[i]))
            : fusejit_test::ulp_distance(v[i], w[i]);
    CHECK(d <= bound);
    if (bound == 0 && v[i] == 0) CHECK(std::signbit(v[i]) == std::signbit(w[i]));
  }
}

}  // namespace

TEST_CASE("stats golden: each function gives JAX's values on every backend") {
  const fj::x64_scope x64;  // the goldens are JAX's with jax_enable_x64
  fusejit_test::on_each_backend([&](const std::string& backend) {
    for (const Row& row : rows()) check_row(row, row.call(), backend == "llvm");
  });
}

TEST_CASE("stats golden: the same rows under jit") {
  // The jit traces each composition into one graph, so the staged (fused) form is checked as
  // well as the eager one.
  const fj::x64_scope x64;
  const bool on_llvm = fusejit_test::has_backend("llvm");  // the jit's default backend
  for (const Row& row : rows()) check_row(row, fj::jit([&] { return row.call(); })(), on_llvm);
}

TEST_CASE("stats golden: bad input names the function, the argument and the shapes") {
  using fusejit_test::check_throws_with;
  namespace st = fj::scipy::stats;
  const Array v3 = fj::zeros({3}, fj::f64), v2 = fj::zeros({2}, fj::f64);
  const Array m22 = fj::eye(2, 2, 0, fj::f64), m33 = fj::eye(3, 3, 0, fj::f64);
  check_throws_with<fj::ShapeError>([&] { (void)st::norm::logpdf(v3, v2); },
                                    {"scipy.stats.norm.logpdf", "x f64[3]", "loc f64[2]"});
  check_throws_with<fj::ShapeError>(
      [&] { (void)st::binom::logpmf(v3, 10.0, 0.5, v2); },
      {"scipy.stats.binom.logpmf", "k f64[3]", "loc f64[2]", "n ", "p "});
  check_throws_with<fj::ShapeError>([&] { (void)st::truncnorm::logcdf(v3, v2, 1.0); },
                                    {"scipy.stats.truncnorm.logcdf", "x f64[3]", "a f64[2]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)st::multivariate_normal::logpdf(v3, v3, m22); },
      {"scipy.stats.multivariate_normal.logpdf", "cov", "mean f64[3]", "cov f64[2,2]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)st::multivariate_normal::logpdf(v3, v3, v3); },
      {"scipy.stats.multivariate_normal.logpdf", "cov", "mean f64[3]", "cov f64[3]"});
  check_throws_with<fj::ShapeError>(
      [&] { (void)st::multivariate_normal::logpdf(v2, v3, m33); },
      {"scipy.stats.multivariate_normal.logpdf", "x f64[2]", "mean f64[3]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)st::multivariate_normal::logpdf(fj::zeros({2, 3}, fj::f64), v3,
                                              fj::zeros({4, 3, 3}, fj::f64));
      },
      {"scipy.stats.multivariate_normal.logpdf", "batch", "x f64[2,3]", "cov f64[4,3,3]"});
  check_throws_with<fj::ValueError>([&] { (void)st::dirichlet::logpdf(v3, m33); },
                                    {"scipy.stats.dirichlet.logpdf", "alpha", "f64[3,3]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)st::dirichlet::logpdf(fj::zeros({5}, fj::f64), v3); },
      {"scipy.stats.dirichlet.logpdf", "x f64[5]", "alpha f64[3]"});
  check_throws_with<fj::ValueError>([&] { (void)st::multinomial::logpmf(v3, 3, v3); },
                                    {"scipy.stats.multinomial.logpmf", "integer", "x f64[3]"});
  check_throws_with<fj::ValueError>([&] { (void)st::rankdata(m33, st::RankMethod::min, -3); },
                                    {"scipy.stats.rankdata", "axis -3", "f64[3,3]"});
  check_throws_with<fj::ShapeError>([&] { (void)st::poisson::entropy(v3, v2); },
                                    {"scipy.stats.poisson.entropy", "mu f64[3]", "loc f64[2]"});
  check_throws_with<fj::ValueError>([&] { (void)st::sem(m33, 2); },
                                    {"scipy.stats.sem", "axis 2", "f64[3,3]"});
}
