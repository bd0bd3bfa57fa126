// fusejit's jax.nn additions (activations.hpp) and jax.scipy.special functions
// (special_functions.hpp) against JAX 0.10.2 (tests/golden/nn_special_goldens.txt, printed by
// tests/golden/nn_special_goldens.py): one row per JAX call on f64 inputs that reach each
// function's edge cases, run on every backend and under jit; then bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;

namespace {

constexpr fusejit_test::Golden kGolden{"nn_special_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// A row: the JAX call's section, the fusejit call, and the bound on each entry's distance from
// JAX's in f64 ulps of that entry (0: bit for bit, the sign of a zero included; two NaNs agree).
struct Row {
  const char* name;
  std::function<Array()> call;
  std::uint64_t ulps = 0;
};

std::vector<Row> rows() {
  namespace nn = fj::nn;
  namespace sp = fj::scipy::special;
  using R = fj::ReduceOptions;
  using S = fj::nn::StandardizeOptions;
  return {
      // jax.nn.
      {"identity", [] { return nn::identity(in("v")); }},
      {"relu6", [] { return nn::relu6(in("v")); }},
      // expm1: XLA's f64 expm1 is up to 1.6 ulps from the exact value (mpmath), fusejit's 0.4;
      // each row below is that one ulp, times alpha or scale (a rounding more) where given.
      {"elu", [] { return nn::elu(in("v")); }, 1},
      {"elu_alpha", [] { return nn::elu(in("v"), 0.3); }, 1},
      {"celu", [] { return nn::celu(in("v")); }, 1},
      {"celu_alpha", [] { return nn::celu(in("v"), 2.5); }, 2},
      {"selu", [] { return nn::selu(in("v")); }, 1},
      {"leaky_relu", [] { return nn::leaky_relu(in("v")); }},
      {"leaky_relu_slope", [] { return nn::leaky_relu(in("v"), 0.2); }},
      {"hard_tanh", [] { return nn::hard_tanh(in("v")); }},
      {"hard_sigmoid", [] { return nn::hard_sigmoid(in("v")); }},
      {"hard_silu", [] { return nn::hard_silu(in("v")); }},
      {"hard_swish", [] { return nn::hard_swish(in("v")); }},
      // softplus (exp and log1p): JAX 1.3 ulps from the exact value at 0.7, fusejit 0.5.
      {"log_sigmoid", [] { return nn::log_sigmoid(in("v")); }, 1},
      // XLA's exp(-1) is an ulp low and its log1p(-e^-1) adds more: JAX is 10.3 ulps from the
      // exact log1mexp(1), fusejit 0.7; elsewhere an ulp.
      {"log1mexp", [] { return nn::log1mexp(in("e")); }, 11},
      // softplus, tanh and a product: JAX 1.5 ulps from the exact value at 3, fusejit 0.5.
      {"mish", [] { return nn::mish(in("v")); }, 2},
      {"soft_sign", [] { return nn::soft_sign(in("v")); }},
      {"sparse_plus", [] { return nn::sparse_plus(in("v")); }},
      {"sparse_sigmoid", [] { return nn::sparse_sigmoid(in("v")); }},
      {"squareplus", [] { return nn::squareplus(in("v")); }},
      {"squareplus_b", [] { return nn::squareplus(in("v"), 0.5); }},
      // lax.logistic: XLA's exp is an ulp off where fusejit's is not (JAX 1.0, fusejit 0.0).
      {"glu", [] { return nn::glu(in("m")); }, 1},
      {"glu_axis0", [] { return nn::glu(in("m")(fj::range(0, 2)), 0); }},
      // A sum of exps over the whole array: the reduction adds in an order of the vector width
      // (8, 4 or 2 f64 lanes), so at some widths the log of the sum is 1-2 ulps from JAX's.
      {"logmeanexp", [] { return nn::logmeanexp(in("m")); }, 2},
      {"logmeanexp_axis1", [] { return nn::logmeanexp(in("m"), 1); }},
      {"logmeanexp_axis0_keepdims",
       [] { return nn::logmeanexp(in("m"), R{.axis = 0, .keepdims = true}); }},
      {"logmeanexp_axes_neg1_0",
       [] {
         return nn::logmeanexp(in("m"), {-1, 0});
       },
       2},
      {"standardize", [] { return nn::standardize(in("s")); }},
      // n = 3 (and 12 below): XLA turns jnp.mean's division by n into a product with 1/n and
      // fj::mean divides, an ulp apart; x - mean and the variance carry it, and XLA's rsqrt is an
      // ulp off where fusejit's is not.
      {"standardize_axis0", [] { return nn::standardize(in("s"), 0); }, 4},
      {"standardize_all", [] { return nn::standardize(in("s"), S{.axis = fj::none}); }, 3},
      // rsqrt(1 + 1e-5): XLA's rsqrt is an ulp from fusejit's 1 / sqrt (each mean exact).
      {"standardize_clip", [] { return nn::standardize(in("t")); }, 1},
      {"standardize_clip_epsilon0", [] { return nn::standardize(in("t"), S{.epsilon = 0}); }},
      // rsqrt(4 + 1e-5), rsqrt(9 + 1e-5): XLA's rsqrt against fusejit's 1 / sqrt, an ulp.
      {"standardize_mean_variance",
       [] { return nn::standardize(in("m"), S{.mean = in("mu"), .variance = in("var")}); }, 1},
      {"standardize_epsilon", [] { return nn::standardize(in("m"), 1, fj::none, fj::none, 0.5); }},
      {"standardize_stable",
       [] { return nn::standardize(in("s"), S{.algorithm = nn::StandardizeAlgorithm::stable}); }},
      // jax.scipy.special.
      // lax.logistic: JAX 0.9 ulp from the exact value at -40, fusejit 1.0 at -3.
      {"expit", [] { return sp::expit(in("v")); }, 1},
      // a division and a log, each within an ulp in both libraries.
      {"logit", [] { return sp::logit(in("u")); }, 1},
      {"xlogy", [] { return sp::xlogy(in("p"), in("q")); }},
      {"xlog1py", [] { return sp::xlog1py(in("p"), Array(in("q") - 1.0)); }},
      // x * log(x): log within an ulp in both libraries (fusejit 0.9 ulp from exact at 3).
      {"entr", [] { return sp::entr(in("v")); }, 1},
      {"rel_entr", [] { return sp::rel_entr(in("p"), in("q")); }},
      {"kl_div", [] { return sp::kl_div(in("p"), in("q")); }},
      // erfc(14.5) at x = -20.5: XLA's erfc rounds z^2 = 210 before exp(-z^2), fusejit carries it
      // as a double-word, so the two differ by up to z^2 / 4 ulps (53 measured); elsewhere an ulp.
      {"ndtr", [] { return sp::ndtr(in("v")); }, 53},
      // the rational approximations through log and sqrt: each an ulp apart in the two
      // libraries, 3 ulps at p = 0.7 (fusejit 1.2 ulps from the exact value at 0.01, JAX 0.8).
      {"ndtri", [] { return sp::ndtri(in("u")); }, 3},
      // -ndtr(-30) = -erfc(21.2) / 2: z^2 = 450 rounded in XLA's erfc (as in ndtr above), 156
      // ulps; elsewhere 1 ulp (log(ndtr) at -1, the series at -19.5).
      {"log_ndtr", [] { return sp::log_ndtr(in("l")); }, 156},
      {"log_ndtr_order0", [] { return sp::log_ndtr(in("l"), 0); }, 156},
      {"log_ndtr_order5", [] { return sp::log_ndtr(in("l"), 5); }, 156},
      // fj::erf and XLA's erf, each within 0.6 ulp of the exact value.
      {"erf", [] { return Array(sp::erf(in("v"))); }, 1},
      // XLA's erfc is 1.6 ulps from the exact value at 7.5, fusejit's 0.4.
      {"erfc", [] { return Array(sp::erfc(in("v"))); }, 2},
      // XLA's ErfInv64 is 1.9 ulps from the exact value at -0.5, fusejit's 0.1.
      {"erfinv", [] { return sp::erfinv(in("r")); }, 2},
      // lgamma(-2.5) = -0.056, next to lgamma's root -2.457: XLA's Lanczos lgamma is 74.5 ulps
      // from the exact value there (fusejit 0.5); elsewhere XLA's is up to 3 ulps off (at 0.5).
      {"gammaln", [] { return Array(sp::gammaln(in("g"))); }, 75},
      // the same lgamma at positive x only: XLA 3.0 ulps from the exact value at 0.5, fusejit 0.0.
      {"loggamma", [] { return sp::loggamma(in("g")); }, 3},
      {"gammasgn", [] { return sp::gammasgn(in("g")); }},
      // exp(lgamma(x)): an ulp of lgamma(171) = 706.6 is 706 ulps of gamma(171); XLA's lgamma is
      // about an ulp off there (JAX 615 ulps from the exact gamma(171), fusejit 46). Below 10: 18.
      {"gamma", [] { return sp::gamma(in("g")); }, 661},
      // digamma(-0.5) = 0.036, next to digamma's root -0.504: XLA's digamma is 114 ulps from the
      // exact value there (fusejit 0.0); elsewhere XLA's is up to 9.3 ulps off (at 0.5).
      {"digamma", [] { return Array(sp::digamma(in("g"))); }, 114},
      // polygamma(0, 0.5) is digamma(0.5): XLA 9.3 ulps from the exact value, fusejit 0.3.
      {"polygamma", [] { return Array(sp::polygamma(in("o").astype(fj::i32), in("ox"))); }, 9},
      // i0e, i1e: Cephes' Chebyshev series in XLA (and fusejit's LLVM backend), up to 8.0 and
      // 11.9 ulps from the exact value (docs/MATH.md); the reference backend's is within half an
      // ulp. i0 and i1 multiply by exp(|x|) (an ulp each side, and the product's rounding).
      {"i0e", [] { return sp::i0e(in("v")); }, 9},
      {"i1e", [] { return sp::i1e(in("v")); }, 13},
      {"i0", [] { return sp::i0(in("g")); }, 12},
      {"i1", [] { return sp::i1(in("g")); }, 16},
      // Both sum XLA's ten terms and tail (JAX's f64 within 2 ulps of mpmath at these points).
      {"zeta", [] { return sp::zeta(in("zx"), in("zq")); }, 8},
      // lax.igamma and igammac: JAX is up to 8 and 30 ulps from mpmath at these points (at a =
      // 10, x = 12, where Q = 1 - P cancels; tests/golden/math_goldens.txt), fusejit within 16
      // and 32 (test_math_golden.cpp's bounds): the sums, 24 and 62.
      {"gammainc", [] { return sp::gammainc(in("ga"), in("gx")); }, 24},
      {"gammaincc", [] { return sp::gammaincc(in("ga"), in("gx")); }, 62},
      // lgamma(0.25) + algdiv(0.25, 100) = 1.29 - 1.15: the cancellation makes XLA's lgamma error
      // 16 ulps of the sum; lgamma(3) alone is 11 ulps off in XLA (betaln(1, 2) = -log 2).
      {"betaln", [] { return sp::betaln(in("a"), in("b")); }, 16},
      // exp(betaln): betaln(20, 30) = -34 turns its few ulps into 127 ulps of beta.
      {"beta", [] { return sp::beta(in("a"), in("b")); }, 127},
      // gamma(z + m) / gamma(z), each exp(lgamma): gamma(100.25) = exp(357) multiplies lgamma's
      // ulp by 357 (JAX 997 ulps from the exact value, fusejit 22).
      {"poch", [] { return sp::poch(in("a"), in("b")); }, 975},
      // exp(lgamma(n + 1)) as gamma above: 170! = gamma(171).
      {"factorial", [] { return sp::factorial(in("f")); }, 661},
      // exp of three lgammas: lgamma(61) = 188 turns each ulp into 188 ulps of comb(60, 30).
      {"comb", [] { return sp::comb(in("n"), in("k")); }, 210},
      {"comb_repetition", [] { return sp::comb(in("n"), in("k"), true); }, 190},
      // sums of lgammas: XLA's lgamma(3) is 11 ulps off (d = 1, a = 3), one term of three in d = 3.
      {"multigammaln_d3", [] { return sp::multigammaln(in("mg"), 3); }, 3},
      {"multigammaln_d1", [] { return sp::multigammaln(in("mg"), 1); }, 11},
      {"multigammaln_d0", [] { return sp::multigammaln(in("mg"), 0); }},
      // expm1(lmbda log x) / lmbda: XLA's log and expm1, each within an ulp of fusejit's.
      {"boxcox", [] { return sp::boxcox(in("bx"), in("bl")); }, 1},
      {"boxcox1p", [] { return sp::boxcox1p(in("bx1"), in("bl")); }},
      // The whole array's sum of exps, in an order of the vector width: an ulp at some widths.
      {"logsumexp", [] { return Array(sp::logsumexp(in("m"))); }, 1},
      {"logsumexp_axis1_b", [] { return Array(sp::logsumexp(in("m"), Array(in("m") + 9.0), 1)); }},
      // exp and a division by the sum: XLA's exp is an ulp off where fusejit's is not.
      {"softmax", [] { return sp::softmax(in("m")); }, 2},
      {"softmax_axis1", [] { return sp::softmax(in("m"), 1); }, 1},
      // x - max - log(s), s the whole array's sum of exps (about 1.1) in an order of the vector
      // width: an ulp of s is 15 ulps of an entry near log(s) = 0.09.
      {"log_softmax", [] { return sp::log_softmax(in("m")); }, 16},
      {"log_softmax_axis0", [] { return sp::log_softmax(in("m"), 0); }},
  };
}

// The row's result against its golden line "d0 d1 : v0 v1 ...": the shape, then each entry.
void check_row(const Row& row, const Array& got) {
  CAPTURE(std::string(row.name));
  const std::string line = kGolden.lines(std::string("values ") + row.name).at(0);
  REQUIRE(got.dtype() == fj::f64);
  const auto [v, w] = fusejit_test::golden_values(line, got);
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CAPTURE(v[i]);
    CAPTURE(w[i]);
    CHECK(fusejit_test::ulp_distance(v[i], w[i]) <= row.ulps);
    if (row.ulps == 0 && v[i] == 0) CHECK(std::signbit(v[i]) == std::signbit(w[i]));
  }
}

}  // namespace

TEST_CASE("nn/special golden: each function gives JAX's values on every backend") {
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call());
  });
}

TEST_CASE("nn/special golden: the same rows under jit") {
  // The jit traces each composition into one graph, so the staged (fused) form is checked as
  // well as the eager one.
  for (const Row& row : rows()) check_row(row, fj::jit([&] { return row.call(); })());
}

TEST_CASE("nn/special golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  namespace sp = fj::scipy::special;
  const Array m = fj::zeros({3, 4}, fj::f64);
  const Array ints = fj::array({1, 2, 3});
  check_throws_with<fj::ValueError>([&] { (void)fj::nn::glu(m, 0); },
                                    {"fj::nn::glu", "axis 0", "even", "f64[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)fj::nn::glu(m, 2); },
                                    {"fj::nn::glu", "axis 2", "f64[3,4]"});
  check_throws_with<fj::DTypeError>([&] { (void)sp::ndtr(ints); },
                                    {"fj::scipy::special::ndtr", "x", "f32 or f64", "i32[3]"});
  check_throws_with<fj::DTypeError>([&] { (void)sp::ndtri(ints); },
                                    {"fj::scipy::special::ndtri", "p", "i32[3]"});
  check_throws_with<fj::DTypeError>([&] { (void)sp::log_ndtr(ints); },
                                    {"fj::scipy::special::log_ndtr", "x", "i32[3]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)sp::log_ndtr(m, 31); },
      {"fj::scipy::special::log_ndtr", "series_order", "31", "f64[3,4]"});
  check_throws_with<fj::NotImplementedError>(
      [&] { (void)sp::factorial(m, true); },
      {"fj::scipy::special::factorial", "exact", "f64[3,4]"});
}
