// fusejit's keyword-options structs, jnp.diagonal / trace / diag and x.at[].apply against JAX
// 0.10.2 (tests/golden/keywords_goldens.txt, printed by tests/golden/keywords_goldens.py): one
// row per JAX call written with keywords, run on every backend; then jaxpr text and bad input.
#include <doctest/doctest.h>

#include <algorithm>
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

constexpr fusejit_test::Golden kGolden{"keywords_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }
Array in_i32(const std::string& name) { return in(name).astype(fj::i32); }

// A row: the JAX call's section, the fusejit call, and the bound on each entry in f64 ulps of
// the golden's largest entry (0: bit for bit). The inputs are small integers, so sums, means,
// sorts, selections and 2-norms are exact; the rows with a bound say why.
struct Row {
  const char* name;
  std::function<Array()> call;
  double ulps = 0;
  bool jit = true;  // false: the function needs a concrete operand, as JAX's does under jit
};

// f(t) = t * t + 1, the function the script applies with .at[].apply.
Array square_plus_one(const Array& t) { return Array(t * t + 1.0); }

// Where the positional form takes a list of axes (the reductions, var, std, logsumexp, median,
// quantile, norm), GCC 12 may find a designated list ambiguous with that list: those rows name
// the struct, as docs/guide/arrays.md tells users to.
std::vector<Row> rows() {
  using fj::PadMode, fj::QuantileMethod;
  using R = fj::ReduceOptions;
  using V = fj::VarOptions;
  using N = fj::linalg::NormOptions;
  using Q = fj::QuantileOptions;
  return {
      {"sum_axis1_keepdims",
       [] { return Array(fj::sum(in("m"), R{.axis = 1, .keepdims = true})); }},
      {"mean_axes02_keepdims",
       [] {
         return Array(fj::mean(in("c"), R{.axis = {0, 2}, .keepdims = true}));
       }},
      {"max_keepdims", [] { return Array(in("m").max(R{.keepdims = true})); }},
      {"min_axis0", [] { return Array(in("m").min(R{.axis = 0})); }},
      // var: the mean is rounded, then centered squares summed (up to 4 terms, any order).
      {"var_axis0_ddof1", [] { return Array(fj::var(in("m"), V{.axis = 0, .ddof = 1})); }, 4},
      {"std_ddof1", [] { return Array(in("m").std(V{.ddof = 1})); }, 4},
      {"var_axis1_keepdims", [] { return Array(in("m").var(V{.axis = 1, .keepdims = true})); }, 4},
      // exp and log, each within an ulp in both libraries, over a sum of four terms.
      {"logsumexp_axis1_keepdims",
       [] { return Array(fj::nn::logsumexp(in("m"), R{.axis = 1, .keepdims = true})); }, 4},
      {"norm_ord1_axis1", [] { return Array(fj::linalg::norm(in("m"), N{.ord = 1, .axis = 1})); }},
      {"norm_axis0_keepdims",
       [] { return Array(fj::linalg::norm(in("m"), N{.axis = 0, .keepdims = true})); }},
      {"median_axis1_keepdims", [] { return fj::median(in("m"), R{.axis = 1, .keepdims = true}); }},
      {"quantile_axis0_nearest",
       [] { return fj::quantile(in("m"), 0.25, Q{.axis = 0, .method = QuantileMethod::nearest}); }},
      {"percentile_lower_keepdims",
       [] {
         return fj::percentile(in("m"), 40.0,
                               Q{.axis = 1, .method = QuantileMethod::lower, .keepdims = true});
       }},
      {"sort_axis0_descending",
       [] { return Array(fj::sort(in("m"), {.axis = 0, .descending = true})); }},
      {"argsort_descending", [] { return Array(in("v").argsort({.descending = true})); }},
      {"argsort_flat", [] { return Array(fj::argsort(in("m"), {.axis = std::nullopt})); }},
      {"lax_sort_num_keys",
       [] {
         return fj::lax::sort({in("i"), in("v")}, {.is_stable = true, .num_keys = 1}).at(1);
       }},
      {"lax_cumsum_axis1_reverse",
       [] { return Array(fj::lax::cumsum(in("m"), {.axis = 1, .reverse = true})); }},
      {"lax_cummax_reverse", [] { return Array(fj::lax::cummax(in("v"), {.reverse = true})); }},
      {"associative_scan_reverse",
       [] {
         auto add = [](const Array& a, const Array& b) { return Array(a + b); };
         return fj::lax::associative_scan(add, in("v"), {.reverse = true});
       }},
      {"associative_scan_axis1",
       [] {
         auto max = [](const Array& a, const Array& b) { return Array(fj::maximum(a, b)); };
         return fj::lax::associative_scan(max, in("m"), {.axis = 1});
       }},
      {"one_hot_i32_axis0",
       [] { return Array(fj::nn::one_hot(in_i32("i"), 4, {.dtype = fj::i32, .axis = 0})); }},
      {"diff_n2_axis0", [] { return fj::diff(in("m"), {.n = 2, .axis = 0}); }},
      {"isclose_atol", [] { return fj::isclose(in("p"), in("q"), {.atol = 0.3}); }},
      {"isclose_rtol", [] { return fj::isclose(in("p"), in("q"), {.rtol = 0.01}); }},
      {"allclose_atol", [] { return fj::allclose(in("p"), in("q"), {.atol = 1.0}); }},
      {"bincount_length", [] { return fj::bincount(in_i32("i"), {.length = 6}); }},
      {"bincount_weights_minlength",
       [] { return fj::bincount(in_i32("i"), {.minlength = 6, .weights = in("w")}); }, 0, false},
      // Two singular values and two eigenvalues (exactly 3, 2 and 1, 3), each from an
      // iterative algorithm (Eigen's, LAPACK's) that lands within a few ulps.
      {"svd_compute_uv_false", [] { return fj::linalg::svd(in("z"), {.compute_uv = false}).at(0); },
       4},
      {"eigh_upper_no_symmetrize",
       [] { return fj::linalg::eigh(in("s"), {.lower = false, .symmetrize_input = false})[0]; }, 4},
      {"nonzero_size_fill",
       [] { return fj::nonzero(in_i32("i"), {.size = 6, .fill_value = -1}).at(0); }},
      {"flatnonzero_size", [] { return fj::flatnonzero(Array(in("m") > 4.0), {.size = 3}); }},
      {"argwhere_size", [] { return fj::argwhere(Array(in("m") > 4.0), {.size = 5}); }},
      {"pad_reflect_odd",
       [] {
         return fj::pad(in_i32("r"), {{2, 3}},
                        {.mode = PadMode::reflect, .reflect_type = fj::ReflectType::odd});
       }},
      {"pad_constant_7", [] { return fj::pad(in("m"), 1, {.constant_values = 7}); }},
      {"pad_mean_stat_length",
       [] {
         return fj::pad(in("v"), {{2, 2}}, {.mode = PadMode::mean, .stat_length = {{2, 3}}});
       },
       4},
      {"pad_edge",
       [] {
         return fj::pad(in("m"), {{1, 0}, {0, 2}}, {.mode = PadMode::edge});
       }},
      {"take_axis1_clip",
       [] {
         return Array(fj::take(in("m"), fj::array({0, 7, -9}),
                               {.axis = 1, .mode = fj::lax::GatherScatterMode::clip}));
       }},
      {"diagonal_m", [] { return Array(fj::diagonal(in("m"))); }},
      {"diagonal_m_offset1", [] { return Array(fj::diagonal(in("m"), 1)); }},
      {"diagonal_m_offset_neg1", [] { return Array(fj::diagonal(in("m"), -1)); }},
      {"diagonal_m_offset5", [] { return Array(fj::diagonal(in("m"), 5)); }},
      {"diagonal_c_axes12", [] { return Array(fj::diagonal(in("c"), {.axis1 = 1, .axis2 = 2})); }},
      {"diagonal_c_offset1_axes02", [] { return Array(fj::diagonal(in("c"), 1, 0, 2)); }},
      {"diagonal_c_offset_neg1_axes20",
       [] { return Array(fj::diagonal(in("c"), {.offset = -1, .axis1 = 2, .axis2 = 0})); }},
      {"diagonal_s_square", [] { return Array(fj::diagonal(in("s"))); }},
      {"trace_m", [] { return Array(fj::trace(in("m"))); }},
      {"trace_m_offset_neg2", [] { return Array(fj::trace(in("m"), -2)); }},
      {"trace_c_offset1_axes12",
       [] { return Array(fj::trace(in("c"), {.offset = 1, .axis1 = 1, .axis2 = 2})); }},
      {"trace_int",
       [] {
         return Array(fj::trace(in_i32("r").reshape({1, 5}), 2));
       }},
      {"diag_v_k1", [] { return Array(fj::diag(in("v")(fj::range(0, 3)), 1)); }},
      {"diag_v_k_neg2", [] { return Array(fj::diag(in("v")(fj::range(0, 3)), -2)); }},
      {"diag_m_k1", [] { return Array(fj::diag(in("m"), 1)); }},
      {"linalg_diagonal_c_offset1", [] { return Array(fj::linalg::diagonal(in("c"), 1)); }},
      {"linalg_trace_c", [] { return Array(fj::linalg::trace(in("c"))); }},
      {"method_diagonal_offset1", [] { return Array(in("m").diagonal(1)); }},
      {"method_trace_offset_neg1", [] { return Array(in("m").trace(-1)); }},
      {"apply_slice", [] { return in("r").at(fj::range(1, 3)).apply(square_plus_one); }},
      {"apply_repeated",
       [] {
         return in("r").at(fj::array({0, 0, 3, 0})).apply(square_plus_one);
       }},
      {"apply_2d",
       [] {
         return in("m").at(1, fj::array({3, 3})).apply([](const Array& t) { return Array(-t); });
       }},
      {"apply_out_of_range_dropped",
       [] {
         return in("r").at(fj::array({1, 9})).apply(square_plus_one);
       }},
      {"bernoulli_p_shape",
       [] { return fj::random::bernoulli(fj::random::key(7), {.p = 0.6, .shape = {10}}); }},
      {"categorical_axis0",
       [] {
         const Array logits = fj::array({{0.f, 2.f, -1.f}, {1.f, 0.5f, 3.f}});
         return fj::random::categorical(fj::random::key(7), logits, {.axis = 0});
       }},
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

TEST_CASE("keywords golden: each keyword-options call gives what JAX's keywords give") {
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call());
  });
}

TEST_CASE("keywords golden: the same rows under jit") {
  // The jit traces each row (the options are static), so the staged compositions are checked
  // as well as the eager ones.
  for (const Row& row : rows())
    if (row.jit) check_row(row, fj::jit([&] { return row.call(); })());
}

TEST_CASE("keywords golden: trace and the square diagonal stage JAX's jaxpr text") {
  using T = fj::Tracer;
  fusejit_test::check_jaxpr_texts(
      kGolden,
      {{"trace",
        [] {
          return fj::make_jaxpr([](T x) { return fj::trace(x); })(fj::ones({3, 4})).str();
        }},
       {"trace_offset_axes",
        [] {
          return fj::make_jaxpr([](T x) { return fj::trace(x, 1, 2, 0); })(fj::ones({2, 3, 4}))
              .str();
        }},
       {"diagonal_square", [] {
          return fj::make_jaxpr([](T x) { return fj::diagonal(x); })(fj::ones({3, 3})).str();
        }}});
}

TEST_CASE("keywords golden: diagonal, trace and diag name the function and shape on bad input") {
  using fusejit_test::check_throws_with;
  const Array v = fj::array({1.f, 2.f, 3.f});
  const Array m = fj::ones({2, 3});
  check_throws_with<fj::ValueError>([&] { (void)Array(fj::diagonal(v)); },
                                    {"fj::diagonal", "at least two dimensions", "f32[3]"});
  check_throws_with<fj::ValueError>([&] { (void)Array(fj::trace(m, 0, 1, -1)); },
                                    {"fj::trace", "axis1 and axis2 must differ", "f32[2,3]"});
  check_throws_with<fj::ShapeError>([&] { (void)Array(fj::diagonal(m, 0, 0, 2)); },
                                    {"fj::diagonal", "axis 2", "f32[2,3]"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)Array(fj::diag(fj::ones({2, 2, 2})));
      },
      {"fj::diag", "1-d or 2-d", "f32[2,2,2]"});
}
