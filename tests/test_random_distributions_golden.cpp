// fusejit's jax.random distributions (api/random_distributions.hpp) and jax.nn.initializers
// (api/initializers.hpp) against JAX 0.10.2 (tests/golden/random_distributions_goldens.txt,
// printed by tests/golden/random_distributions_goldens.py): one row per JAX call with a fixed
// legacy key, in f32 and f64, run on every backend and under jit; then bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/api/initializers.hpp>
#include <fusejit/api/random_distributions.hpp>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::DType;

namespace {

constexpr fusejit_test::Golden kGolden{"random_distributions_goldens.txt"};

Array key(std::uint64_t seed) { return fj::random::key(seed); }

// A row: the JAX call's name (its section is "values <name>_f32" and "..._f64"), the fusejit
// call in a dtype, and the bound on each entry's distance from JAX's in ulps of that dtype, for
// f32 and for f64 (0: bit for bit, the sign of a zero included).
struct Row {
  const char* name;
  std::function<Array(DType)> call;
  std::uint64_t ulps32 = 0;
  std::uint64_t ulps64 = 0;
  // Distances in ulps of 1 rather than of each entry, in f64 only or in both dtypes: for
  // entries near 0 that come of a cancellation, or of an orthogonal matrix (see each row).
  enum { none, f64, both } unit = none;
};

// Bounds that are not 0, and why. The uniform and normal draws are JAX's bit for bit, except
// that fusejit's f64 erf_inv is its own (XLA's ErfInv64 is another polynomial, itself up to 10
// ulps of 1 from the exact value near 1.36, as mpmath shows): every f64 row built on normal is
// within a few ulps. The rest are the transcendentals fusejit and XLA compute each their own
// way (log, log1p, exp, tan, pow: an ulp or two apart), measured on these keys and named below.
// Truncated normals in f64: XLA fuses u = floats * (b - a) + a into one rounding, fusejit's
// reference backend rounds twice (no fused multiply-add op), so near 0 (where a cancels) the
// relative error is meaningless; those rows count ulps of 1.

std::vector<Row> rows() {
  namespace r = fj::random;
  namespace ini = fj::nn::initializers;
  const auto vec = [](std::initializer_list<double> v, DType d) {
    return Array(fj::array(std::vector<double>(v)).astype(d));
  };
  const auto diag = [=](DType d) {
    return Array(
        fj::array(std::vector<double>{4, 0, 0, 0, 1, 0, 0, 0, 9}, fj::Shape{3, 3}).astype(d));
  };
  const auto cov = [](DType d) {
    return Array(fj::array(std::vector<double>{4.0, 1.0, 0.5, 1.0, 3.0, -0.5, 0.5, -0.5, 2.0},
                           fj::Shape{3, 3})
                     .astype(d));
  };
  return {
      {"uniform", [](DType d) { return r::uniform(key(0), {7}, d); }},
      {"normal", [](DType d) { return r::normal(key(0), {7}, d); }, 0, 3},
      {"exponential", [](DType d) { return r::exponential(key(1), {7}, d); }},
      {"exponential_2x3",
       [](DType d) {
         return r::exponential(key(2), {.shape = {2, 3}, .dtype = d});
       }},
      // -log(-log u): the two logs, each an ulp apart, the outer one of a value near 1.
      {"gumbel", [](DType d) { return r::gumbel(key(3), {7}, d); }, 2, 2},
      {"gumbel_high",
       [](DType d) {
         return r::gumbel(key(3), {.shape = {2, 3}, .dtype = d, .mode = "high"});
       }},
      {"laplace", [](DType d) { return r::laplace(key(4), {7}, d); }},
      // XLA's f64 log1p is 10 ulps from the exact value at entry 3 (mpmath), fusejit's within 1.
      {"laplace_2x3",
       [](DType d) {
         return r::laplace(key(5), {.shape = {2, 3}, .dtype = d});
       },
       0, 9},
      // log(x) - log1p(-x): an ulp from each.
      {"logistic", [](DType d) { return r::logistic(key(6), {7}, d); }, 1, 2},
      // tan in f64: an ulp.
      {"cauchy", [](DType d) { return r::cauchy(key(7), {7}, d); }, 0, 1},
      {"rademacher", [](DType d) { return r::rademacher(key(8), {7}, d); }},
      // exp(-log1p(-u) / b): log1p's ulp, times 1/b, then exp's.
      {"pareto", [](DType d) { return r::pareto(key(9), 3.0, std::vector<std::int64_t>{7}, d); }, 2,
       1},
      {"pareto_array_b",
       [=](DType d) {
         return r::pareto(key(9), fj::reshape(vec({0.5, 2.0}, d), {2, 1}),
                          std::vector<std::int64_t>{2, 3}, d);
       },
       0, 1},
      {"rayleigh",
       [](DType d) { return r::rayleigh(key(10), 2.0, std::vector<std::int64_t>{7}, d); }},
      {"rayleigh_array",
       [=](DType d) {
         return r::rayleigh(key(10), vec({0.5, 1.0, 4.0}, d), {.dtype = d});
       }},
      // exp of the normal: exp's ulp (f64: and erf_inv's).
      {"lognormal",
       [](DType d) { return r::lognormal(key(11), 0.5, std::vector<std::int64_t>{7}, d); }, 1, 1},
      {"weibull_min", [](DType d) { return r::weibull_min(key(12), 2.0, 1.5, {7}, d); }},
      // pow in f64: an ulp.
      {"weibull_min_c3",
       [](DType d) {
         return r::weibull_min(key(12), 0.5, 3.0, {.shape = {2, 3}, .dtype = d});
       },
       0, 1},
      // sqrt of a sum of 3 squares: XLA fuses the squares into the sums (fused multiply-adds:
      // JAX's f32 results are the exactly rounded ones here), the reference backend rounds
      // each (an ulp); f64: three f64 normals' erf_inv.
      {"maxwell", [](DType d) { return r::maxwell(key(13), {7}, d); }, 1, 7},
      // maxwell's rounding (above) times scale and plus loc.
      {"double_sided_maxwell",
       [](DType d) { return r::double_sided_maxwell(key(14), 1.0, 2.0, {7}, d); }, 2, 4},
      // x = mean + mean^2 y / 2 - mean / 2 sqrt(...) cancels (terms near 3 give x near 0.3,
      // then w = mean^2 / x): JAX itself is 24 ulps of 1 from the exact value at w = 7.5
      // (mpmath), and the f64 normal's few ulps grow to 124 ulps of 1 there. f32 is bit for bit.
      {"wald", [](DType d) { return r::wald(key(42), 1.5, std::vector<std::int64_t>{7}, d); }, 0,
       124, Row::f64},
      // The same cancellation: where the LLVM backend fuses a product into a sum (XLA fuses
      // others), 2 ulps of 1 in f32; f64 adds the normal's ulps.
      {"wald_array",
       [=](DType d) {
         return r::wald(key(43), vec({0.5, 3.0}, d), {.dtype = d});
       },
       2, 5, Row::both},
      {"geometric_p_array",
       [=](DType d) {
         return r::geometric(key(44), vec({0.3, 0.05, 0.9}, d), {.dtype = DType::i32});
       }},
      {"triangular",
       [](DType d) {
         return r::triangular(key(15), -1.0, 0.5, 2.0, std::vector<std::int64_t>{7}, d);
       }},
      {"truncated_normal",
       [](DType d) {
         return r::truncated_normal(key(16), -1.5, 2.0, std::vector<std::int64_t>{7}, d);
       },
       0, 1, Row::f64},
      // f32: XLA's erf(4 / sqrt 2) is an ulp above the exact value (mpmath), fusejit's exact,
      // and the reference backend's erf(0.5 / sqrt 2) an ulp below it (see below).
      {"truncated_normal_array",
       [=](DType d) {
         return r::truncated_normal(key(17), vec({-3.0, 0.0, 1.0}, d), vec({3.0, 0.5, 4.0}, d),
                                    {.shape = std::vector<std::int64_t>{2, 3}, .dtype = d});
       },
       3, 1, Row::f64},
      // Cholesky (LAPACK's potrf against fusejit's) and the f64 normal; f64 in ulps of 1 where
      // mean + factor z cancels.
      {"multivariate_normal",
       [=](DType d) {
         return r::multivariate_normal(key(18), vec({1.0, -2.0, 0.5}, d), cov(d),
                                       {.shape = std::vector<std::int64_t>{4}, .dtype = d});
       },
       1, 8, Row::f64},
      // On a diagonal cov (see the script): the factor is exact, so f32 is bit for bit; f64 is
      // the normal's ulps, in ulps of 1 where mean + factor z cancels.
      {"multivariate_normal_eigh",
       [=](DType d) {
         return r::multivariate_normal(
             key(18), vec({1.0, -2.0, 0.5}, d), diag(d),
             {.shape = std::vector<std::int64_t>{4}, .dtype = d, .method = "eigh"});
       },
       0, 6, Row::f64},
      {"multivariate_normal_svd",
       [=](DType d) {
         return r::multivariate_normal(
             key(18), vec({1.0, -2.0, 0.5}, d), diag(d),
             {.shape = std::vector<std::int64_t>{4}, .dtype = d, .method = "svd"});
       },
       0, 8, Row::f64},
      // Householder QR: LAPACK's (blocked) and fusejit's round differently; entries of an
      // orthogonal matrix, in ulps of 1.
      {"orthogonal", [](DType d) { return r::orthogonal(key(19), 3, {}, d); }, 1, 2, Row::both},
      {"orthogonal_2x3x4",
       [](DType d) { return r::orthogonal(key(20), 3, {.shape = {2}, .dtype = d, .m = 4}); }, 2, 4,
       Row::both},
      // nn.initializers.
      {"init_zeros",
       [](DType d) {
         return ini::zeros(key(0), {2, 3}, d);
       }},
      {"init_ones",
       [](DType d) {
         return ini::ones(key(0), {2, 3}, d);
       }},
      {"init_constant",
       [](DType d) {
         return ini::constant(-0.7)(key(0), {2, 3}, d);
       }},
      {"init_uniform",
       [](DType d) {
         return ini::uniform()(key(21), {2, 3}, d);
       }},
      {"init_uniform_scale3",
       [](DType d) {
         return ini::uniform({.scale = 3.0})(key(21), {2, 3}, d);
       }},
      {"init_normal",
       [](DType d) {
         return ini::normal(0.3)(key(22), {2, 3}, d);
       },
       0, 1},
      {"init_truncated_normal",
       [](DType d) {
         return ini::truncated_normal(0.3)(key(23), {2, 3}, d);
       },
       0, 1, Row::f64},
      // f32: the reference backend's erf(-1 / sqrt 2) and erf(0.5 / sqrt 2) are an ulp below
      // the exact value (LLVM's and XLA's are exact), which moves u, and 11 ulps of the sample
      // near 0.05; LLVM's rows are bit for bit. f64: XLA's ErfInv64, 10 ulps of 1 from exact.
      {"init_truncated_normal_bounds",
       [](DType d) {
         return ini::truncated_normal({.stddev = 1.5, .lower = -1.0, .upper = 0.5})(key(23), {2, 3},
                                                                                    d);
       },
       11, 11, Row::f64},
      {"init_glorot_uniform",
       [](DType d) {
         return ini::glorot_uniform()(key(24), {3, 5}, d);
       }},
      {"init_glorot_normal",
       [](DType d) {
         return ini::glorot_normal()(key(24), {3, 5}, d);
       },
       0, 2, Row::f64},
      {"init_xavier_uniform",
       [](DType d) {
         return ini::xavier_uniform()(key(24), {3, 5}, d);
       }},
      {"init_he_uniform",
       [](DType d) {
         return ini::he_uniform()(key(25), {4, 3}, d);
       }},
      {"init_he_normal",
       [](DType d) {
         return ini::he_normal()(key(25), {4, 3}, d);
       },
       0, 2, Row::f64},
      {"init_kaiming_normal",
       [](DType d) {
         return ini::kaiming_normal()(key(25), {4, 3}, d);
       },
       0, 2, Row::f64},
      {"init_lecun_uniform",
       [](DType d) {
         return ini::lecun_uniform()(key(26), {2, 3, 6}, d);
       }},
      {"init_lecun_normal",
       [](DType d) {
         return ini::lecun_normal()(key(26), {2, 3, 6}, d);
       },
       0, 2, Row::f64},
      {"init_vs_fan_out_normal",
       [](DType d) {
         return ini::variance_scaling(0.5, "fan_out", "normal")(key(27), {3, 2, 5}, d);
       },
       0, 3},
      {"init_vs_fan_geo_avg",
       [](DType d) {
         return ini::variance_scaling(3.0, "fan_geo_avg", "uniform")(key(27), {3, 7}, d);
       }},
      {"init_vs_axes",
       [](DType d) {
         return ini::variance_scaling({.scale = 2.0,
                                       .mode = "fan_avg",
                                       .distribution = "truncated_normal",
                                       .in_axis = {0, 1},
                                       .out_axis = 3,
                                       .batch_axis = 2})(key(28), {2, 3, 4, 5}, d);
       },
       0, 8, Row::f64},
      // orthogonal's QR, as above.
      {"init_orthogonal",
       [](DType d) {
         return ini::orthogonal()(key(29), {3, 4}, d);
       },
       2, 1, Row::both},
      {"init_orthogonal_tall",
       [](DType d) {
         return ini::orthogonal(2.0)(key(29), {4, 3}, d);
       },
       3, 2, Row::both},
      {"init_orthogonal_axis0",
       [](DType d) {
         return ini::orthogonal({.column_axis = 0})(key(30), {3, 2, 2}, d);
       },
       1, 2, Row::both},
      {"init_delta_orthogonal",
       [](DType d) {
         return ini::delta_orthogonal()(key(31), {3, 2, 4}, d);
       },
       1, 3, Row::both},
      {"init_delta_orthogonal_4d",
       [](DType d) {
         return ini::delta_orthogonal(0.5)(key(31), {2, 3, 2, 2}, d);
       },
       0, 1, Row::both},
  };
}

// Rows with a dtype of their own (integers, or JAX's default f32), compared exactly.
std::vector<std::pair<const char*, std::function<Array()>>> exact_rows() {
  namespace r = fj::random;
  const Array p = fj::array(std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f});
  const Array a = fj::reshape(fj::iota(DType::f32, fj::Shape{12}, 0), {3, 4});
  return {
      {"rademacher_i32", [] { return r::rademacher(key(8), {7}, DType::i32); }},
      {"choice_n", [] { return r::choice(key(32), 10, {.shape = {4}}); }},
      {"choice_n_2x3",
       [] {
         return r::choice(key(33), 5, {.shape = {2, 3}});
       }},
      {"choice_n_noreplace",
       [] { return r::choice(key(34), 10, {.shape = {6}, .replace = false}); }},
      {"choice_p",
       [=] {
         return r::choice(key(35), 4, {.shape = {3, 3}, .p = p});
       }},
      {"choice_p_noreplace",
       [=] { return r::choice(key(36), 4, {.shape = {3}, .replace = false, .p = p}); }},
      {"choice_a", [=] { return r::choice(key(37), a, {.shape = {5}}); }},
      {"choice_a_axis1", [=] { return r::choice(key(38), a, {.shape = {2}, .axis = 1}); }},
      {"choice_a_noreplace_axis1",
       [=] { return r::choice(key(39), a, {.shape = {3}, .replace = false, .axis = 1}); }},
      {"choice_a_p",
       [=] {
         return r::choice(key(40), a,
                          {.shape = {2}, .p = fj::array(std::vector<float>{0.5f, 0.25f, 0.25f})});
       }},
      {"geometric", [] { return r::geometric(key(44), 0.3, std::vector<std::int64_t>{7}); }},
      {"clone", [] { return r::uniform(r::clone(r::PRNGKey(41)), {3}, DType::f32); }},
  };
}

// `got` against the golden line "d0 d1 : v0 v1 ...", each entry within `ulps` of JAX's in
// got's dtype (f32 entries compared as floats).
void check_values(const std::string& section, const Array& got, std::uint64_t ulps,
                  bool unit = false) {
  CAPTURE(section);
  const std::string line = kGolden.lines("values " + section).at(0);
  const auto [v, w] = fusejit_test::golden_values(line, got);
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CAPTURE(v[i]);
    CAPTURE(w[i]);
    const double eps = got.dtype() == DType::f32 ? 0x1p-23 : 0x1p-52;
    const std::uint64_t dist =
        unit ? static_cast<std::uint64_t>(std::ceil(std::abs(v[i] - w[i]) / eps))
        : got.dtype() == DType::f32
            ? fusejit_test::ulp_distance(static_cast<float>(v[i]), static_cast<float>(w[i]))
            : fusejit_test::ulp_distance(v[i], w[i]);
    CHECK(dist <= ulps);
    if (ulps == 0 && v[i] == 0) CHECK(std::signbit(v[i]) == std::signbit(w[i]));
  }
}

void check_all(const std::function<Array(const std::function<Array()>&)>& run) {
  for (const Row& row : rows()) {
    for (DType d : {DType::f32, DType::f64}) {
      const std::string suffix = d == DType::f32 ? "_f32" : "_f64";
      // JAX's f64 rows ran in x64 mode, where its Python-float parameters are f64.
      const fj::x64_scope x64(d == DType::f64);
      const Array got = run([&] { return row.call(d); });
      CHECK(got.dtype() == (std::string(row.name).rfind("geometric", 0) == 0 ? DType::i32 : d));
      check_values(row.name + suffix, got, d == DType::f32 ? row.ulps32 : row.ulps64,
                   row.unit == Row::both || (row.unit == Row::f64 && d == DType::f64));
    }
  }
  for (const auto& [name, call] : exact_rows()) check_values(name, run(call), 0);
}

}  // namespace

TEST_CASE("random distributions golden: JAX's samples on every backend") {
  fusejit_test::on_each_backend(
      [&] { check_all([](const std::function<Array()>& f) { return f(); }); });
}

TEST_CASE("random distributions golden: the same rows under jit") {
  // The jit traces each composition into one graph, so the staged (fused) form is checked as
  // well as the eager one.
  check_all([](const std::function<Array()>& f) { return Array(fj::jit([&] { return f(); })()); });
}

TEST_CASE("random distributions golden: bad input names the function, the argument and shapes") {
  using fusejit_test::check_throws_with;
  namespace r = fj::random;
  namespace ini = fj::nn::initializers;
  const Array k = key(0);
  const Array a = fj::zeros({3, 4}, DType::f32);
  check_throws_with<fj::DTypeError>([&] { (void)r::exponential(k, {2}, DType::i32); },
                                    {"fj::random::exponential", "dtype", "int32"});
  check_throws_with<fj::DTypeError>(
      [&] { (void)r::truncated_normal(k, -1.0, 1.0, {}, DType::i32); },
      {"fj::random::truncated_normal", "dtype", "int32"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)r::choice(k, 3, {.shape = {2, 2}, .replace = false});
      },
      {"fj::random::choice", "larger sample", "(2, 2)", "a = 3", "replace=false"});
  check_throws_with<fj::ValueError>(
      [&] { (void)r::choice(k, a, {.shape = {5}, .replace = false, .axis = 1}); },
      {"fj::random::choice", "population (4", "f32[3,4]"});
  check_throws_with<fj::ShapeError>(
      [&] { (void)r::choice(k, a, {.shape = {2}, .p = fj::ones({3}), .axis = 1}); },
      {"fj::random::choice", "p must be 1-D", "f32[3]", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)r::choice(k, a, {.axis = 2}); },
                                    {"fj::random::choice", "axis 2", "f32[3,4]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)r::multivariate_normal(k, fj::zeros({3}), fj::zeros({2, 2}));
      },
      {"fj::random::multivariate_normal", "cov", "n = 3", "f32[3]", "f32[2,2]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)r::multivariate_normal(k, fj::zeros({}), fj::zeros({2, 2}));
      },
      {"fj::random::multivariate_normal", "mean", "1-D", "f32[]"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)r::multivariate_normal(k, fj::zeros({2}), fj::zeros({2, 2}), {.method = "lu"});
      },
      {"fj::random::multivariate_normal", "method", "lu"});
  check_throws_with<fj::ShapeError>(
      [&] { (void)r::pareto(k, fj::ones({3}), std::vector<std::int64_t>{2}); },
      {"fj::random::pareto", "(3,)", "shape argument (2,)"});
  check_throws_with<fj::DTypeError>(
      [&] { (void)r::geometric(k, 0.3, std::vector<std::int64_t>{2}, DType::f32); },
      {"fj::random::geometric", "integer dtype", "float32"});
  check_throws_with<fj::ValueError>([&] { (void)r::gumbel(k, {2}, DType::f32, "highest"); },
                                    {"fj::random::gumbel", "mode", "highest"});
  check_throws_with<fj::ValueError>([&] { (void)ini::variance_scaling(1.0, "fan", "normal"); },
                                    {"fj::nn::initializers::variance_scaling", "mode", "fan"});
  check_throws_with<fj::ShapeError>([&] { (void)ini::glorot_uniform()(k, {5}); },
                                    {"fj::nn::initializers::variance_scaling", "in_axis", "(5,)"});
  check_throws_with<fj::ShapeError>([&] { (void)ini::orthogonal()(k, {4}); },
                                    {"fj::nn::initializers::orthogonal", "2-D", "(4,)"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)ini::delta_orthogonal()(k, {3, 4, 2});
      },
      {"fj::nn::initializers::delta_orthogonal", "fan_in", "(3, 4, 2)"});
}
