// fusejit's further jax.numpy compositions (api/jnp_*.hpp) against JAX 0.10.2
// (tests/golden/jnp_more_goldens.txt, printed by tests/golden/jnp_more_goldens.py), one row per
// call: adding a function is a row there and a row here. Each row runs on every backend and
// again under jit; then bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/api/jnp_arithmetic.hpp>
#include <fusejit/api/jnp_editing.hpp>
#include <fusejit/api/jnp_index_helpers.hpp>
#include <fusejit/api/jnp_polynomials.hpp>
#include <fusejit/api/jnp_search.hpp>
#include <fusejit/api/jnp_sets.hpp>
#include <fusejit/api/jnp_windows.hpp>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "golden_values.hpp"
#include "throws_with.hpp"

using fj::Array;

namespace {

constexpr fusejit_test::Golden kGolden{"jnp_more_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// The int64 and int32 operands of the integer rows (the golden script's ia, ib and i32).
Array ia() { return fj::array(std::vector<std::int64_t>{12, -18, 0, 7, 0, 35, 1LL << 40, -9}); }
Array ib() { return fj::array(std::vector<std::int64_t>{18, 12, 5, 0, 0, -14, 6, -6}); }
Array i32() { return fj::array(std::vector<std::int32_t>{12, -18, 0, 7, 0, 35, 255, -9}); }
Array i32_divisors() { return fj::array(std::vector<std::int32_t>{5, 5, 3, -2, 4, -6, 16, 4}); }

Array ints(std::vector<std::int64_t> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return fj::array(v, fj::Shape{n});
}

// A row: the golden section, the fusejit call, and the bound on each entry in f64 ulps of the
// golden's largest entry (0: bit for bit). Sums, products, selections, bit operations and
// integer arithmetic are exact; the rows with a bound say why. Rows whose output length
// depends on concrete values (as in JAX) have `jit` false and a ConcretizationError check.
struct Row {
  const char* name;
  std::function<Array()> call;
  double ulps = 0;
  bool jit = true;
};

std::vector<Row> rows() {
  return {
      // Arithmetic.
      {"gcd", [] { return fj::gcd(ia(), ib()); }},
      {"gcd_int32_broadcast", [] { return fj::gcd(i32(), fj::array(std::int32_t{6})); }},
      {"lcm", [] { return fj::lcm(ia(), ib()); }},
      {"frexp_mantissa", [] { return fj::frexp(in("f")).first; }},
      {"frexp_exponent", [] { return fj::frexp(in("f")).second; }},
      {"frexp_special_mantissa", [] { return fj::frexp(in("e")).first; }},
      {"frexp_special_exponent", [] { return fj::frexp(in("e")).second; }},
      {"ldexp",
       [] {
         return fj::ldexp(
             in("f"), fj::array(std::vector<std::int64_t>{3, 2, 5, 1, -1, 1100, -1000, 1, -60}));
       }},
      {"ldexp_special", [] { return fj::ldexp(in("e"), fj::array(std::int32_t{3})); }},
      {"modf_fraction", [] { return fj::modf(in("e")).first; }},
      {"modf_whole", [] { return fj::modf(in("e")).second; }},
      {"divmod_quotient", [] { return fj::divmod(in("g"), in("h")).first; }},
      {"divmod_remainder", [] { return fj::divmod(in("g"), in("h")).second; }},
      {"divmod_int_quotient", [] { return fj::divmod(i32(), i32_divisors()).first; }},
      {"divmod_int_remainder", [] { return fj::divmod(i32(), i32_divisors()).second; }},
      // std::pow and XLA's pow on a non-integral exponent (2 ** 5.5): within an ulp each.
      {"float_power", [] { return fj::float_power(in("h"), in("g")); }, 2},
      // 1/3 in f32 against its f64 golden: exact, as both round the same f32 quotient.
      {"float_power_int",
       [] {
         return fj::float_power(fj::array(std::vector<std::int32_t>{2, 3, -2}),
                                fj::array(std::vector<std::int32_t>{3, -1, 2}));
       }},
      {"spacing", [] { return fj::spacing(in("f")); }},
      {"spacing_special", [] { return fj::spacing(in("e")); }},
      {"spacing_subnormal", [] { return fj::spacing(in("d")); }},
      {"logical_xor", [] { return fj::logical_xor(in("g"), in("h")); }},
      {"invert", [] { return Array(fj::invert(i32())); }},
      {"bitwise_invert_bool", [] { return Array(fj::bitwise_invert(Array(in("g") > 0.0))); }},
      {"bitwise_left_shift",
       [] { return Array(fj::bitwise_left_shift(i32(), fj::array(std::int32_t{3}))); }},
      {"bitwise_right_shift",
       [] { return Array(fj::bitwise_right_shift(i32(), fj::array(std::int32_t{2}))); }},
      {"bitwise_count", [] { return fj::bitwise_count(i32()); }},
      // Windows: the cosines of each library, within an ulp of the true cosine, scaled and
      // shifted by constants below 1 (the differences of 0.54 and 0.46 cos near 0.08 lose
      // a few bits more).
      {"hamming", [] { return fj::hamming(7); }, 4},
      {"hanning", [] { return fj::hanning(6); }, 4},
      {"blackman", [] { return fj::blackman(7); }, 4},
      // XLA's CPU compiler turns the division by the constant M - 1 into a multiplication by
      // its reciprocal (3 * 0.2 rounds above 0.6): JAX's 0.4 is an ulp below fusejit's.
      {"bartlett", [] { return fj::bartlett(6); }, 1},
      {"hamming_1", [] { return fj::hamming(1); }},
      {"bartlett_0", [] { return fj::bartlett(0); }},
      // i0 of beta sqrt(1 - r^2) over i0(beta): exp and Cephes' i0e series (up to 8 ulps in
      // XLA, docs/MATH.md) in each, and the quotient.
      {"kaiser", [] { return fj::kaiser(7, 5.0); }, 19},
      {"kaiser_1", [] { return fj::kaiser(1, 3.0); }},
      // Polynomials.
      {"polyadd", [] { return fj::polyadd(in("p"), in("q")); }},
      {"polyadd_longer_second", [] { return fj::polyadd(in("q"), in("p")); }},
      {"polysub", [] { return fj::polysub(in("q"), in("p")); }},
      {"polymul", [] { return fj::polymul(in("p"), in("q")); }},
      {"poly", [] { return fj::poly(in("z")); }},
      {"polyder", [] { return fj::polyder(in("p")); }},
      {"polyder_2", [] { return fj::polyder(in("p"), 2); }},
      // Divisions by the factorial-like coefficients (3, 6, 12...): each correctly rounded in
      // both libraries.
      {"polyint", [] { return fj::polyint(in("p")); }},
      {"polyint_2_k",
       [] {
         return fj::polyint(in("p"), 2, fj::array({1.0, -2.0}));
       }},
      {"polydiv_quotient", [] { return fj::polydiv(in("p"), in("q")).first; }},
      {"polydiv_remainder", [] { return fj::polydiv(in("p"), in("q")).second; }},
      {"vander", [] { return fj::vander(in("z")); }},
      {"vander_increasing_4", [] { return fj::vander(in("z"), {.N = 4, .increasing = true}); }},
      // Editing.
      {"ravel", [] { return fj::ravel(in("c")); }},
      {"append_flat", [] { return fj::append(in("m"), in("v")); }},
      {"append_axis0", [] { return fj::append(in("m"), Array(in("m")(fj::range(0, 1))), 0); }},
      {"delete_one_axis1", [] { return fj::delete_(in("m"), 1, 1); }},
      {"delete_list_flat",
       [] {
         return fj::delete_(in("m"), {0, 5, -1});
       },
       0},
      {"delete_mask_axis0",
       [] {
         return fj::delete_(in("m"), fj::array({true, false, true}), {.axis = 0});
       },
       0},
      {"delete_unique_axis1",
       [] {
         return fj::delete_(in("m"), ints({3, 0}), {.axis = 1, .assume_unique_indices = true});
       }},
      {"insert_scalar_flat", [] { return fj::insert(in("v"), 2, fj::array(10.0)); }},
      {"insert_many_axis1",
       [] {
         return fj::insert(in("m"), ints({0, 2, 4}), fj::array({10.0, 20.0, 30.0}), 1);
       }},
      {"insert_row_axis0",
       [] { return fj::insert(in("m"), 1, Array(in("w")(fj::range(0, 4))), 0); }},
      {"rot90", [] { return fj::rot90(in("m")); }},
      {"rot90_k2", [] { return fj::rot90(in("m"), 2); }},
      {"rot90_k3_axes12",
       [] {
         return fj::rot90(in("c"), 3, {1, 2});
       }},
      {"rot90_neg1", [] { return fj::rot90(in("m"), -1); }},
      {"rollaxis", [] { return fj::rollaxis(in("c"), 2); }},
      {"rollaxis_start", [] { return fj::rollaxis(in("c"), 0, 3); }},
      {"unstack_axis1_2", [] { return fj::unstack(in("c"), 1).at(2); }},
      {"unstack_neg_0", [] { return fj::unstack(in("m"), -1).at(0); }},
      {"resize_grow",
       [] {
         return fj::resize(in("v"), fj::Shape{3, 4});
       }},
      {"resize_shrink", [] { return fj::resize(in("m"), fj::Shape{5}); }},
      {"trim_zeros",
       [] {
         return fj::trim_zeros(fj::array({0.0, 0.0, 1.0, 0.0, 2.0, 0.0}));
       },
       0},
      {"trim_zeros_f",
       [] {
         return fj::trim_zeros(fj::array({0.0, 0.0, 1.0, 0.0, 2.0, 0.0}), "f");
       },
       0},
      {"trim_zeros_2d", [] { return fj::trim_zeros(in("t")); }},
      // Index helpers.
      {"tril_indices_0", [] { return fj::tril_indices(3).first; }},
      {"tril_indices_1", [] { return fj::tril_indices(3).second; }},
      {"triu_indices_k1_m4_0", [] { return fj::triu_indices(3, 1, 4).first; }},
      {"triu_indices_k1_m4_1", [] { return fj::triu_indices(3, {.k = 1, .m = 4}).second; }},
      {"tril_indices_from_km1_1", [] { return fj::tril_indices_from(in("m"), -1).second; }},
      {"triu_indices_from_0", [] { return fj::triu_indices_from(in("m")).first; }},
      {"diag_indices", [] { return fj::diag_indices(3, 3).at(2); }},
      {"diag_indices_from",
       [] {
         return fj::diag_indices_from(fj::ones({4, 4})).at(0);
       }},
      {"diagflat", [] { return fj::diagflat(in("p")); }},
      {"diagflat_k_neg", [] { return fj::diagflat(in("q"), -2); }},
      {"diagflat_2d",
       [] {
         return fj::diagflat(fj::array({{1.0, 2.0}, {3.0, 4.0}}), 1);
       }},
      {"fill_diagonal", [] { return fj::fill_diagonal(in("m"), fj::array(0.5)); }},
      {"fill_diagonal_values",
       [] {
         return fj::fill_diagonal(fj::zeros({4, 4}, fj::f64), in("q"));
       }},
      {"fill_diagonal_3d",
       [] {
         return fj::fill_diagonal(fj::zeros({2, 2, 2}, fj::f64), fj::array(7.0));
       }},
      {"ravel_multi_index",
       [] {
         return fj::ravel_multi_index({ints({0, 2, 1}), ints({3, 0, 2})}, {3, 4});
       },
       0},
      {"ravel_multi_index_clip",
       [] {
         return fj::ravel_multi_index({ints({-1, 5, 1}), ints({3, 0, 9})}, {3, 4},
                                      fj::IndexMode::clip);
       }},
      {"ravel_multi_index_wrap",
       [] {
         return fj::ravel_multi_index({ints({-1, 5, 1}), ints({3, 0, 9})}, {3, 4},
                                      fj::IndexMode::wrap);
       }},
      {"unravel_index_0",
       [] {
         return fj::unravel_index(ints({0, 5, 11, 13, -1, -20}), {3, 4}).at(0);
       }},
      {"unravel_index_1",
       [] {
         return fj::unravel_index(ints({0, 5, 11, 13, -1, -20}), {3, 4}).at(1);
       }},
      {"ix_0",
       [] {
         return fj::ix_({ints({0, 2}), ints({1, 3, 0})}).at(0);
       }},
      {"ix_1",
       [] {
         return fj::ix_({ints({0, 2}), ints({1, 3, 0})}).at(1);
       }},
      {"mask_indices_triu_1",
       [] {
         return fj::mask_indices(
                    3, [](const Array& a, std::int64_t k) { return Array(fj::triu(a, k)); }, 1)
             .second;
       },
       0, false},
      {"mask_indices_tril_size",
       [] {
         return fj::mask_indices(
                    3, [](const Array& a, std::int64_t k) { return Array(fj::tril(a, k)); }, 0, 8)
             .first;
       }},
      // Searching and binning.
      {"searchsorted_left", [] { return fj::searchsorted(in("s"), in("e")); }},
      {"searchsorted_right",
       [] { return fj::searchsorted(in("s"), in("e"), {.side = fj::Side::right}); }},
      {"searchsorted_sorter",
       [] {
         return fj::searchsorted(in("v"), fj::array({0.0, 2.0, 4.5, 9.0}), fj::Side::left,
                                 Array(fj::argsort(in("v"))));
       }},
      {"searchsorted_2d", [] { return fj::searchsorted(in("s"), in("m")); }},
      {"digitize", [] { return fj::digitize(in("e"), in("s")); }},
      {"digitize_right", [] { return fj::digitize(in("e"), in("s"), true); }},
      {"digitize_decreasing", [] { return fj::digitize(in("e"), Array(fj::flip(in("s")))); }},
      // One division and one product per point, each rounded once in both libraries.
      {"interp",
       [] {
         return fj::interp(fj::array({-1.0, 0.0, 0.5, 2.5, 3.0, 6.0, 8.0}), in("s"),
                           fj::array({0.0, 2.0, 4.0, 6.0, 8.0, 10.0}));
       }},
      {"interp_left_right",
       [] {
         return fj::interp(fj::array({-1.0, 0.5, 8.0}), in("s"),
                           fj::array({0.0, 1.0, 2.0, 3.0, 4.0, 5.0}), {.left = -5.0, .right = 5.0});
       }},
      {"interp_extrapolate",
       [] {
         return fj::interp(fj::array({-1.0, 0.5, 8.0}), in("s"),
                           fj::array({0.0, 1.0, 2.0, 3.0, 4.0, 5.0}),
                           {.extrapolate_left = true, .extrapolate_right = true});
       }},
      {"interp_period",
       [] {
         return fj::interp(fj::array({-1.0, 0.5, 8.0, 370.0}), fj::array({0.0, 90.0, 180.0, 270.0}),
                           fj::array({1.0, 2.0, 3.0, 4.0}), {.period = 360.0});
       }},
      {"isin", [] { return fj::isin(in("m"), in("v")); }},
      {"isin_invert", [] { return fj::isin(in("m"), in("v"), true); }},
      {"histogram_bin_edges", [] { return fj::histogram_bin_edges(in("v"), std::int64_t{4}); }},
      {"histogram_bin_edges_range",
       [] {
         return fj::histogram_bin_edges(in("v"), std::int64_t{3}, {.range = {{0.0, 6.0}}});
       }},
      {"histogram_counts", [] { return fj::histogram(in("v"), std::int64_t{4}).first; }},
      {"histogram_range_counts",
       [] {
         return fj::histogram(in("v"), std::int64_t{3}, {.range = {{0.0, 6.0}}}).first;
       }},
      {"histogram_edges_counts",
       [] {
         return fj::histogram(in("v"), fj::array({0.0, 2.0, 3.0, 9.0})).first;
       }},
      // Sums of weights divided by widths and the total: each rounded once in both libraries.
      {"histogram_weights_density",
       [] {
         return fj::histogram(in("v"), std::int64_t{4},
                              {.weights = fj::full({7}, 2.0, fj::f64), .density = true})
             .first;
       }},
      {"histogram_same",
       [] {
         return fj::histogram(fj::array({2.0, 2.0}), std::int64_t{2}).second;
       }},
      // Sets.
      {"unique", [] { return fj::unique(in("u")); }, 0, false},
      {"unique_2d", [] { return fj::unique(in("m")); }, 0, false},
      {"unique_size", [] { return fj::unique(in("u"), {.size = 7}); }},
      {"unique_size_fill", [] { return fj::unique(in("u"), {.size = 7, .fill_value = -1.0}); }},
      {"unique_values",
       [] {
         return fj::unique_values(fj::array({std::nan(""), 1.0, std::nan(""), 1.0}));
       },
       0, false},
      {"unique_counts_values", [] { return fj::unique_counts(in("u")).first; }, 0, false},
      {"unique_counts_counts", [] { return fj::unique_counts(in("u")).second; }, 0, false},
      {"unique_counts_size", [] { return fj::unique_counts(in("u"), {.size = 7}).second; }},
      {"unique_inverse", [] { return fj::unique_inverse(in("m")).second; }, 0, false},
      {"unique_all_indices", [] { return fj::unique_all(in("u")).indices; }, 0, false},
      {"unique_all_indices_size", [] { return fj::unique_all(in("u"), {.size = 3}).indices; }},
      {"unique_all_counts_size_fill",
       [] { return fj::unique_all(in("u"), {.size = 9, .fill_value = 0.0}).counts; }},
      {"unique_all_values_size_fill",
       [] { return fj::unique_all(in("u"), {.size = 9, .fill_value = 0.0}).values; }},
      {"union1d", [] { return fj::union1d(in("v"), in("w")); }, 0, false},
      {"union1d_size",
       [] { return fj::union1d(in("v"), in("w"), {.size = 9, .fill_value = -1.0}); }},
      {"setdiff1d", [] { return fj::setdiff1d(in("v"), in("w")); }, 0, false},
      {"setdiff1d_size",
       [] { return fj::setdiff1d(in("v"), in("w"), {.size = 6, .fill_value = -1.0}); }},
      {"setdiff1d_size_nofill", [] { return fj::setdiff1d(in("v"), in("w"), {.size = 6}); }},
      {"intersect1d", [] { return fj::intersect1d(in("v"), in("w")); }, 0, false},
      {"intersect1d_size", [] { return fj::intersect1d(in("v"), in("w"), {.size = 4}); }},
      {"intersect1d_size_fill",
       [] { return fj::intersect1d(in("v"), in("u"), {.size = 5, .fill_value = -1.0}); }},
      {"setxor1d", [] { return fj::setxor1d(in("v"), in("w")); }, 0, false},
      {"setxor1d_size", [] { return fj::setxor1d(in("v"), in("w"), {.size = 8}); }},
      {"setxor1d_size_fill",
       [] { return fj::setxor1d(in("v"), in("u"), {.size = 6, .fill_value = -1.0}); }},
      {"int_unique", [] { return fj::unique(ia()); }, 0, false},
  };
}

// The row's result against its golden line "d0 d1 : v0 v1 ...": the shape, then each entry
// bit for bit (ulps 0, NaN matching NaN, zeros by sign) or within `ulps` f64 ulps of the largest
// entry.
void check_row(const Row& row, const Array& got) {
  CAPTURE(std::string(row.name));
  const std::string line = kGolden.lines(std::string("values ") + row.name).at(0);
  fusejit_test::check_to_largest(fusejit_test::golden_values(line, got), row.ulps, true);
}

}  // namespace

TEST_CASE("jnp more golden: every row gives JAX's values, every backend") {
  // x64 on, as the golden script runs JAX: Python scalars and default dtypes are 64-bit.
  const fj::x64_scope x64;
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call());
  });
}

TEST_CASE("jnp more golden: the same rows under jit") {
  const fj::x64_scope x64;
  for (const Row& row : rows()) {
    CAPTURE(std::string(row.name));
    if (row.jit)
      check_row(row, fj::jit([&] { return row.call(); })());
    else
      CHECK_THROWS_AS(fj::jit([&] { return row.call(); })(), fj::ConcretizationError);
  }
}

TEST_CASE("jnp more golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  const Array m = fj::ones({3, 4}), v = fj::ones({5});
  check_throws_with<fj::DTypeError>([&] { (void)fj::gcd(v, v); }, {"fj::gcd", "x1", "f32[5]"});
  check_throws_with<fj::DTypeError>([&] { (void)fj::lcm(i32(), v); }, {"fj::lcm", "x2", "f32[5]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)fj::gcd(i32(), fj::array({1, 2, 3}));
      },
      {"fj::gcd", "i32[8]", "i32[3]"});
  check_throws_with<fj::DTypeError>([&] { (void)fj::ldexp(v, v); }, {"fj::ldexp", "x2", "f32[5]"});
  check_throws_with<fj::DTypeError>([&] { (void)fj::bitwise_count(v); },
                                    {"fj::bitwise_count", "x", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::hamming(-1); }, {"fj::hamming", "M", "-1"});
  check_throws_with<fj::ValueError>([&] { (void)fj::polyadd(m, v); },
                                    {"fj::polyadd", "a1", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::polyder(v, -1); }, {"fj::polyder", "m", "-1"});
  check_throws_with<fj::ValueError>([&] { (void)fj::polyint(v, 2, fj::ones({3})); },
                                    {"fj::polyint", "k", "f32[3]"});
  check_throws_with<fj::NotImplementedError>(
      [&] {
        (void)fj::poly(fj::ones({2, 2}));
      },
      {"fj::poly", "f32[2,2]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::vander(m); }, {"fj::vander", "f32[3,4]"});
  // Editing, index helpers, searching and sets.
  check_throws_with<fj::ValueError>([&] { (void)fj::rot90(v); }, {"fj::rot90", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::rollaxis(m, 0, 5); },
                                    {"fj::rollaxis", "start", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)fj::unstack(m, 2); },
                                    {"fj::unstack", "axis 2", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)fj::delete_(m, 7, 1); },
                                    {"fj::delete_", "index 7", "f32[3,4]"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::insert(v, fj::ones({2, 2}, fj::i32), v);
      },
      {"fj::insert", "obj", "i32[2,2]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::tril_indices_from(v); },
                                    {"fj::tril_indices_from", "arr", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::diag_indices_from(m); },
                                    {"fj::diag_indices_from", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::fill_diagonal(v, fj::array(1.0f)); },
                                    {"fj::fill_diagonal", "a", "f32[5]"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::ravel_multi_index({ints({0, 3})}, {3});
      },
      {"fj::ravel_multi_index", "index 0", "outside"});
  check_throws_with<fj::ValueError>([&] { (void)fj::ix_({m}); }, {"fj::ix_", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::searchsorted(m, v); },
                                    {"fj::searchsorted", "a", "f32[3,4]", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::digitize(v, m); },
                                    {"fj::digitize", "bins", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::interp(v, m, v); },
                                    {"fj::interp", "xp", "f32[3,4]", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::histogram(v, std::int64_t{0}); },
                                    {"fj::histogram_bin_edges", "bins", "f32[5]"});
  check_throws_with<fj::ValueError>(
      [&] { (void)fj::histogram(v, std::int64_t{2}, {.weights = m}); },
      {"fj::histogram", "weights", "f32[3,4]", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::unique(fj::zeros({0}), {.size = 2}); },
                                    {"fj::unique", "fill_value", "f32[0]"});
  check_throws_with<fj::ConcretizationError>(
      [&] { (void)fj::jit([](const Array& x) { return fj::unique(x); })(v); },
      {"fj::unique", "size", "f32[5]"});
  check_throws_with<fj::ConcretizationError>(
      [&] { (void)fj::jit([](const Array& x) { return fj::trim_zeros(x); })(v); },
      {"fj::trim_zeros", "f32[5]"});
  check_throws_with<fj::ConcretizationError>(
      [&] { (void)fj::jit([](const Array& x) { return fj::setdiff1d(x, x); })(v); },
      {"fj::setdiff1d", "size", "f32[5]"});
}
