// fusejit's jax.numpy.linalg and jax.scipy.linalg additions (api/linalg_extras.hpp,
// api/scipy_linalg.hpp) against JAX 0.10.2 (tests/golden/linalg_extras_goldens.txt, printed by
// tests/golden/linalg_extras_goldens.py), one row per call. Each row runs on every backend and
// again under jit; then bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/api/linalg_extras.hpp>
#include <fusejit/api/scipy_linalg.hpp>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;

namespace {

constexpr fusejit_test::Golden kGolden{"linalg_extras_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// A row: the golden section, the fusejit call, and the bound on each entry in f64 ulps of the
// golden's largest entry (0: bit for bit).
struct Row {
  const char* name;
  std::function<Array()> call;
  double ulps = 0;
};

namespace L = fj::linalg;
namespace S = fj::scipy::linalg;

std::vector<Row> rows() {
  const auto sub = [](const Array& x, std::int64_t r, std::int64_t c) {
    return Array(x(fj::range(0, r), fj::range(0, c)));
  };
  return {
      {"matrix_power_0", [] { return L::matrix_power(in("g"), 0); }},
      {"matrix_power_3", [] { return L::matrix_power(in("g"), 3); }},
      {"matrix_power_5", [] { return L::matrix_power(in("g"), 5); }},
      // inv(a) through an LU factorization whose updates round in an order of fusejit's (LAPACK's
      // getrf in JAX), then one product: a couple of ulps (a's condition number is 3.7).
      {"matrix_power_neg2", [] { return L::matrix_power(in("a"), -2); }, 2},
      {"multi_dot_3",
       [] {
         return L::multi_dot({in("r"), Array(in("r").T()), in("r")});
       }},
      {"multi_dot_vec",
       [] {
         return L::multi_dot({in("v"), in("r"), Array(in("bm").T()), in("b")});
       }},
      // Singular values by Eigen's Jacobi SVD against LAPACK's gesdd: each within a few ulps of
      // the largest (singular values are perfectly conditioned in absolute terms).
      {"svdvals", [] { return L::svdvals(in("g")); }, 4},
      // The singular vectors too (r's singular values 10.2 and 1.44 are well separated), and one
      // product: a few ulps more than svdvals.
      {"pinv", [] { return L::pinv(in("r")); }, 8},
      {"pinv_rtol", [] { return L::pinv(in("r"), {.rtol = 0.5}); }, 8},
      // hermitian: eigh (Eigen's against LAPACK's syevd) in place of the svd, the same bound.
      {"pinv_hermitian",
       [] { return L::pinv(Array(in("a") - Array(2.5 * fj::eye(3))), {.hermitian = true}); }, 8},
      {"matrix_rank_hermitian",
       [] {
         return L::matrix_rank(Array(in("a") - Array(2.5 * fj::eye(3))), {.hermitian = true});
       }},
      {"matrix_rank", [] { return L::matrix_rank(in("g")); }},
      {"matrix_rank_deficient", [] { return L::matrix_rank(Array(fj::outer(in("v"), in("b")))); }},
      {"matrix_rank_vec", [] { return L::matrix_rank(in("v")); }},
      // A ratio of two singular values, each a few ulps off (svdvals): a few ulps.
      {"cond", [] { return L::cond(in("a")); }, 8},
      {"cond_m2", [] { return L::cond(in("a"), -2); }, 8},
      {"cond_fro", [] { return L::cond(in("g"), "fro"); }},
      {"cond_1", [] { return L::cond(in("g"), 1); }},
      // lstsq: svd-based as pinv; the residual is a difference of nearby numbers, squared.
      {"lstsq_x", [] { return L::lstsq(in("r"), in("b4"))[0]; }, 8},
      {"lstsq_resid", [] { return L::lstsq(in("r"), in("b4"))[1]; }, 16},
      {"lstsq_rank", [] { return L::lstsq(in("r"), in("b4"))[2]; }},
      {"lstsq_s", [] { return L::lstsq(in("r"), in("b4"))[3]; }, 4},
      {"lstsq_under_x", [sub] { return L::lstsq(Array(in("r").T()), sub(in("bm"), 2, 2))[0]; }, 8},
      {"vector_norm", [] { return L::vector_norm(in("t")); }},
      {"vector_norm_inf", [] { return L::vector_norm(in("t"), {.axis = 1, .ord = INFINITY}); }},
      {"vector_norm_ninf", [] { return L::vector_norm(in("t"), {.axis = -1, .ord = -INFINITY}); }},
      {"vector_norm_0",
       [] {
         return L::vector_norm(in("t"), {.axis = {0, 2}, .ord = 0});
       }},
      {"vector_norm_1_keepdims",
       [] { return L::vector_norm(in("t"), {.axis = 2, .keepdims = true, .ord = 1}); }},
      {"vector_norm_3", [] { return L::vector_norm(in("v"), {.ord = 3}); }},
      {"matrix_norm", [] { return L::matrix_norm(in("t")); }},
      {"matrix_norm_1", [] { return L::matrix_norm(in("t"), {.ord = 1}); }},
      // A sum of singular values (svdvals' bound).
      {"matrix_norm_nuc", [] { return L::matrix_norm(in("g"), {.ord = "nuc"}); }, 4},
      {"tensorinv", [] { return L::tensorinv(in("t4"), 2); }},
      {"tensorsolve",
       [] {
         return L::tensorsolve(in("t4"), fj::array({{1.0, 2.0}, {0.5, -1.0}}));
       }},
      {"block_diag",
       [sub] {
         return S::block_diag({sub(in("g"), 2, 2), in("v"), fj::array(7.0), in("bm")});
       }},
      {"toeplitz", [] { return S::toeplitz(in("v"), in("b")); }},
      {"toeplitz_c", [] { return S::toeplitz(in("b")); }},
      {"hankel", [] { return S::hankel(in("v"), in("w")); }},
      {"hankel_c", [] { return S::hankel(in("b")); }},
      {"toeplitz_batch", [] { return S::toeplitz(Array(in("t")(0)), in("b")); }},
      {"hankel_batch",
       [] { return S::hankel(Array(in("t")(fj::range(), 0, fj::range())), in("w")); }},
      {"circulant", [] { return S::circulant(in("v")); }},
      {"leslie", [] { return S::leslie(in("v"), in("w")); }},
      {"companion", [] { return S::companion(in("v")); }},
      {"fiedler", [] { return S::fiedler(in("v")); }},
      // XLA's CPU compiler divides by a broadcast scalar as a product with its reciprocal (JAX's
      // -3.5 / 3 reads -1.1666666666666665, one ulp below the quotient); fusejit divides: 1 ulp.
      {"companion_batch", [] { return S::companion(Array(in("t")(1))); }, 1},
      {"fiedler_companion_batch", [] { return S::fiedler_companion(Array(in("t")(1))); }, 1},
      {"leslie_batch", [] { return S::leslie(Array(in("t")(1)), in("w")); }},
      {"fiedler_companion",
       [] {
         return S::fiedler_companion(fj::array({2.0, 1.0, -3.0, 4.0, 0.5, 2.0}));
       }},
      {"convolution_matrix_full", [] { return S::convolution_matrix(in("w"), 4); }},
      {"convolution_matrix_same", [] { return S::convolution_matrix(in("v"), 3, "same"); }},
      {"convolution_matrix_valid", [] { return S::convolution_matrix(in("v"), 3, "valid"); }},
      {"hilbert", [] { return S::hilbert(4); }},
      // Four binomials from comb (exp of a sum of three gammaln each). XLA's lgamma (a Lanczos
      // series) is off by ~1e-15 here (the golden's 6480 reads 6480.000000000031, 21 ulps),
      // fusejit's gammaln differently: up to ~8 relative ulps per lgamma of values < 16, so a
      // few tens of ulps on the product.
      {"invhilbert", [] { return S::invhilbert(4); }, 48},
      // float32 as JAX's, binomials by exp of lgamma: XLA's f32 lgamma(1) is 4.77e-7, not 0 (the
      // golden's ones read 0.99999952), fusejit's is 0: a few f32 ulps per binomial, then a sum
      // of 5 products. Bound: 16 f32 ulps (2^29 f64 ulps each) of the largest entry.
      {"pascal", [] { return S::pascal(5); }, 16 * 0x1p29},
      {"pascal_lower", [] { return S::pascal(5, "lower"); }, 16 * 0x1p29},
      // f64 binomials by exp of lgamma: the golden's binom(4, 2) reads 6.0000000000000178 (XLA's
      // lgamma error, 13 ulps), fusejit's is 6; then a sum of 5 products for the symmetric kind.
      {"invpascal", [] { return S::invpascal(5); }, 32},
      {"invpascal_upper", [] { return S::invpascal(5, "upper"); }, 32},
      {"helmert", [] { return S::helmert(4); }},
      {"helmert_full", [] { return S::helmert(4, true); }},
      {"hadamard", [] { return S::hadamard(4); }},
      // lax.linalg.lu: fusejit's elimination rounds its updates in another order than LAPACK's
      // getrf (the pivots agree exactly): within an ulp of the largest entry.
      {"lu_factor_lu", [] { return S::lu_factor(in("g")).first; }, 2},
      {"lu_factor_piv", [] { return S::lu_factor(in("g")).second; }},
      {"lu_p", [] { return S::lu(in("g"))[0]; }},
      {"lu_l", [] { return S::lu(in("g"))[1]; }, 2},
      {"lu_u", [] { return S::lu(in("g"))[2]; }, 2},
      {"lu_permute_l", [] { return S::lu_permute_l(in("g"))[0]; }, 2},
      // lu's rounding, then two triangular solves (g's condition number is 34).
      {"lu_solve", [] { return S::lu_solve(S::lu_factor(in("g")), in("b")); }, 4},
      {"lu_solve_t", [] { return S::lu_solve(S::lu_factor(in("g")), in("bm"), 1); }, 4},
      // polar: the svd's vectors (pinv's bound), then products.
      {"polar_u", [] { return S::polar(in("r"))[0]; }, 8},
      {"polar_p", [] { return S::polar(in("r"))[1]; }, 8},
      {"polar_left_u", [] { return S::polar(Array(in("r").T()), {.side = "left"})[0]; }, 8},
      {"polar_left_p", [] { return S::polar(Array(in("r").T()), {.side = "left"})[1]; }, 8},
      {"polar_batch_p",
       [] {
         return S::polar(Array(fj::stack({in("r"), Array(Array(in("r") * 0.5) + 1.0)})))[1];
       },
       8},
      // expm: the same Padé products, rounded in the dots' own orders, then an LU solve with Q
      // (near the identity for these norms): within an ulp or two.
      {"expm_pade3", [] { return S::expm(Array(in("e") * 0.01)); }, 2},
      {"expm_pade5", [] { return S::expm(Array(in("e") * 0.05)); }, 2},
      {"expm", [] { return S::expm(in("e")); }, 2},
      {"expm_pade9", [] { return S::expm(Array(in("e") * 4.0)); }, 2},
      // 1-norm 7.75: Padé 13 on A / 2 and one squaring. Against the exponential computed in 50
      // digits, JAX's result is 367 ulps (of the largest entry) off and fusejit's 466, the
      // algorithm's own error; the two differ by ~100 ulps, the dots' rounding differences
      // amplified by the Padé sums' cancellation, the solve and the squaring.
      {"expm_squarings", [] { return S::expm(Array(in("g") * 0.5)); }, 128},
      {"expm_batch",
       [] {
         return S::expm(Array(fj::stack({in("e"), Array(in("e") * 2.0)})));
       },
       2},
      // As the other Padé rows: the dots round in the order of the GEMM build's blocking (the
      // generic build's differs from the AVX-512 one's), 2 ulps.
      {"expm_upper",
       [] { return S::expm(Array(fj::triu(in("a")) * 0.25), {.upper_triangular = true}); }, 2},
      // float32: JAX's float32 thresholds and Padé orders (5 here, 7 for 6 e, no squaring);
      // the dots' and the solve's rounding in f32: 2 f32 ulps (2^29 f64 ulps each).
      {"expm_f32", [] { return S::expm(Array(in("e").astype(fj::f32))); }, 2 * 0x1p29},
      {"expm_f32_pade7", [] { return S::expm(Array(Array(in("e") * 6.0).astype(fj::f32))); },
       2 * 0x1p29},
  };
}

// The row's result against its golden line "d0 d1 : v0 v1 ...": the shape, then each entry
// bit for bit (ulps 0, NaN matching NaN) or within `ulps` f64 ulps of the largest entry.
void check_row(const Row& row, const Array& got) {
  CAPTURE(std::string(row.name));
  const std::string line = kGolden.lines(std::string("values ") + row.name).at(0);
  fusejit_test::check_to_largest(fusejit_test::golden_values(line, got), row.ulps);
}

}  // namespace

TEST_CASE("linalg extras golden: every row gives JAX's values, every backend") {
  // x64 on, as the golden script runs JAX.
  const fj::x64_scope x64;
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call());
  });
}

TEST_CASE("linalg extras golden: the same rows under jit") {
  const fj::x64_scope x64;
  for (const Row& row : rows()) {
    CAPTURE(std::string(row.name));
    check_row(row, fj::jit([&] { return row.call(); })());
  }
}

TEST_CASE("linalg extras golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  const Array m = fj::ones({3, 4}), v = fj::ones({5});
  check_throws_with<fj::ShapeError>([&] { (void)L::matrix_power(m, 2); },
                                    {"fj::linalg::matrix_power", "a", "square", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)L::matrix_power(v, 2); },
                                    {"fj::linalg::matrix_power", "two-dimensional", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)L::multi_dot({m}); },
                                    {"fj::linalg::multi_dot", "at least two"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)L::multi_dot({m, m});
      },
      {"fj::linalg::multi_dot", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)L::pinv(v); }, {"fj::linalg::pinv", "a", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)L::matrix_rank(m, {.rtol = 1.0, .tol = 1.0}); },
                                    {"fj::linalg::matrix_rank", "tol"});
  check_throws_with<fj::ShapeError>([&] { (void)L::cond(v); }, {"fj::linalg::cond", "x", "f32[5]"});
  check_throws_with<fj::ShapeError>([&] { (void)L::cond(m, 1); },
                                    {"fj::linalg::cond", "square", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)L::lstsq(m, v); },
                                    {"fj::linalg::lstsq", "f32[3,4]", "f32[5]"});
  check_throws_with<fj::ShapeError>([&] { (void)L::tensorinv(m, 1); },
                                    {"fj::linalg::tensorinv", "ind", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)L::tensorinv(m, 0); },
                                    {"fj::linalg::tensorinv", "ind"});
  check_throws_with<fj::ShapeError>([&] { (void)L::tensorsolve(m, v); },
                                    {"fj::linalg::tensorsolve", "f32[3,4]", "f32[5]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)S::block_diag({fj::ones({2, 2, 2})});
      },
      {"fj::scipy::linalg::block_diag", "f32[2,2,2]", "argument 0"});
  check_throws_with<fj::ShapeError>([&] { (void)S::hankel(fj::array(1.0)); },
                                    {"fj::scipy::linalg::hankel", "c", "scalar"});
  check_throws_with<fj::ShapeError>([&] { (void)S::leslie(v, v); },
                                    {"fj::scipy::linalg::leslie", "s", "f32[5]"});
  check_throws_with<fj::ShapeError>([&] { (void)S::companion(fj::ones({1})); },
                                    {"fj::scipy::linalg::companion", "a", "f32[1]"});
  check_throws_with<fj::ValueError>([&] { (void)S::convolution_matrix(v, 0); },
                                    {"fj::scipy::linalg::convolution_matrix", "n"});
  check_throws_with<fj::ValueError>([&] { (void)S::convolution_matrix(v, 2, "wide"); },
                                    {"fj::scipy::linalg::convolution_matrix", "mode", "wide"});
  check_throws_with<fj::ValueError>([&] { (void)S::pascal(3, "left"); },
                                    {"fj::scipy::linalg::pascal", "kind", "left"});
  check_throws_with<fj::ValueError>([&] { (void)S::helmert(0); },
                                    {"fj::scipy::linalg::helmert", "n"});
  check_throws_with<fj::ValueError>([&] { (void)S::hadamard(6); },
                                    {"fj::scipy::linalg::hadamard", "n", "6"});
  check_throws_with<fj::ShapeError>([&] { (void)S::expm(m); },
                                    {"fj::scipy::linalg::expm", "A", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)S::lu(v); },
                                    {"fj::scipy::linalg::lu", "a", "f32[5]"});
  check_throws_with<fj::ShapeError>([&] { (void)S::lu_solve(S::lu_factor(fj::eye(3)), v); },
                                    {"fj::scipy::linalg::lu_solve", "b", "f32[5]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)S::lu_solve(S::lu_factor(fj::eye(3)), fj::ones({3}), 3); },
      {"fj::scipy::linalg::lu_solve", "trans"});
  check_throws_with<fj::ShapeError>([&] { (void)S::polar(v); },
                                    {"fj::scipy::linalg::polar", "argument a", "f32[5]"});
  check_throws_with<fj::ShapeError>([&] { (void)S::convolution_matrix(fj::array(1.0), 2); },
                                    {"fj::scipy::linalg::convolution_matrix", "argument a"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)S::toeplitz(fj::ones({2, 3}), fj::ones({3, 3}));
      },
      {"fj::scipy::linalg::toeplitz", "broadcast", "f32[2,3]", "f32[3,3]"});
  check_throws_with<fj::NotImplementedError>([&] { (void)S::polar(m, {.method = "qdwh"}); },
                                             {"fj::scipy::linalg::polar", "qdwh"});
  check_throws_with<fj::ValueError>([&] { (void)S::polar(m, {.side = "up"}); },
                                    {"fj::scipy::linalg::polar", "side"});
}
