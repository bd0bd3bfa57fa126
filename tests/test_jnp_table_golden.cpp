// fusejit's jax.numpy compositions against JAX 0.10.2 (tests/golden/jnp_table_goldens.txt,
// printed by tests/golden/jnp_table_goldens.py), one row per call: adding a function is a row
// there and a row here. Each row runs on every backend and again under jit; then bad input.
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

constexpr fusejit_test::Golden kGolden{"jnp_table_goldens.txt"};

Array in(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// A row: the golden section, the fusejit call, and the bound on each entry in f64 ulps of the
// golden's largest entry (0: bit for bit). The inputs are small integers and halves, so sums,
// products, selections, moves and one final rounding are exact; the rows with a bound say why.
struct Row {
  const char* name;
  std::function<Array()> call;
  double ulps = 0;
};

using R = fj::ReduceOptions;

std::vector<Row> rows() {
  const auto col = [](const Array& x, std::int64_t j) { return Array(x(fj::range(), j)); };
  return {
      {"nansum", [] { return fj::nansum(in("n")); }},
      {"nansum_axis1", [] { return fj::nansum(in("n"), 1); }},
      {"nanprod_axis0_keepdims",
       [] { return fj::nanprod(in("n"), R{.axis = 0, .keepdims = true}); }},
      {"nanmax_axis1", [] { return fj::nanmax(in("n"), 1); }},
      {"nanmin_axis0", [] { return fj::nanmin(in("n"), 0); }},
      {"nanmean_axis1", [] { return fj::nanmean(in("n"), 1); }},
      {"nanmean", [] { return fj::nanmean(in("n")); }},
      // A rounded mean, then squares summed in an order of the backend's: a few ulps.
      {"nanvar_axis1_ddof1", [] { return fj::nanvar(in("n"), 1, 1); }, 4},
      {"nanstd_axis0", [] { return fj::nanstd(in("n"), 0); }, 4},
      {"nanargmax_axis1", [] { return fj::nanargmax(in("n"), 1); }},
      {"nanargmin", [] { return fj::nanargmin(in("n")); }},
      {"nancumsum_axis1", [] { return fj::nancumsum(in("n"), 1); }},
      {"nancumprod", [] { return fj::nancumprod(in("n")); }},
      {"nansum_int", [] { return fj::nansum(in("m").astype(fj::i32), 0); }},
      {"hstack_1d",
       [] {
         return fj::hstack({in("v"), in("u")});
       }},
      {"hstack_2d",
       [] {
         // The golden's second operand: k[:, :1].repeat(3, 0)[:3], a column of ones.
         return fj::hstack({in("m"), Array(fj::reshape(fj::array({1.0, 1.0, 1.0}), {3, 1}))});
       }},
      {"vstack",
       [] {
         return fj::vstack({in("v"), in("u")});
       }},
      {"dstack",
       [] {
         return fj::dstack({in("m"), in("m")});
       }},
      {"column_stack",
       [] {
         return fj::column_stack({in("v"), in("u"), in("v")});
       }},
      {"atleast_2d", [] { return fj::atleast_2d(in("v")); }},
      {"atleast_3d", [] { return fj::atleast_3d(in("m")); }},
      {"atleast_1d_scalar", [] { return fj::atleast_1d(fj::array(2.5)); }},
      {"moveaxis", [] { return fj::moveaxis(in("c"), 0, -1); }},
      {"moveaxis_two",
       [] {
         return fj::moveaxis(in("c"), {0, 2}, {2, 0});
       }},
      {"swapaxes", [] { return fj::swapaxes(in("c"), 0, 2); }},
      {"permute_dims",
       [] {
         return fj::permute_dims(in("c"), {1, 2, 0});
       }},
      {"matrix_transpose", [] { return fj::matrix_transpose(in("c")); }},
      {"fliplr", [] { return fj::fliplr(in("m")); }},
      {"flipud", [] { return fj::flipud(in("m")); }},
      {"split_sections_1", [] { return fj::split(in("m"), 2, 1).at(1); }},
      {"split_indices_0",
       [] {
         return fj::split(in("v"), std::vector<std::int64_t>{2, 5}).at(0);
       }},
      {"split_indices_2",
       [] {
         return fj::split(in("v"), std::vector<std::int64_t>{2, 5}).at(2);
       }},
      {"array_split_0", [] { return fj::array_split(in("v"), 3).at(0); }},
      {"array_split_2", [] { return fj::array_split(in("v"), 3).at(2); }},
      {"hsplit_1", [] { return fj::hsplit(in("m"), 2).at(1); }},
      {"vsplit_2", [] { return fj::vsplit(in("m"), 3).at(2); }},
      {"tensordot_1", [] { return fj::tensordot(in("m"), Array(in("m").T()), 1); }},
      {"tensordot_pairs",
       [] {
         return fj::tensordot(in("c"), in("m"), {{1, 2}, {0, 1}});
       }},
      {"inner", [] { return fj::inner(in("a3"), in("b3")); }},
      {"vdot", [] { return fj::vdot(in("m"), in("m")); }},
      {"vecdot", [] { return fj::vecdot(in("a3"), in("b3")); }},
      {"matvec", [] { return fj::matvec(in("m"), Array(in("m")(0))); }},
      {"vecmat", [col] { return fj::vecmat(col(in("m"), 0), in("m")); }},
      {"kron", [] { return fj::kron(in("k"), Array(in("m")(fj::range(0, 2), fj::range(0, 3)))); }},
      {"kron_ranks", [] { return fj::kron(Array(in("v")(fj::range(0, 2))), in("k")); }},
      {"cross", [] { return fj::cross(in("a3"), in("b3")); }},
      {"cross_2d",
       [] {
         return fj::cross(Array(in("a3")(fj::range(), fj::range(0, 2))),
                          Array(in("b3")(fj::range(), fj::range(0, 2))));
       }},
      {"meshgrid_xy_0",
       [] {
         return fj::meshgrid({Array(in("v")(fj::range(0, 3))), Array(in("u")(fj::range(0, 2)))})
             .at(0);
       }},
      {"meshgrid_xy_1",
       [] {
         return fj::meshgrid({Array(in("v")(fj::range(0, 3))), Array(in("u")(fj::range(0, 2)))})
             .at(1);
       }},
      {"meshgrid_ij_1",
       [] {
         return fj::meshgrid({Array(in("v")(fj::range(0, 3))), Array(in("u")(fj::range(0, 2)))},
                             "ij")
             .at(1);
       }},
      {"indices",
       [] {
         return fj::indices({2, 3});
       }},
      // pow(10, x) in each library's pow, within an ulp or two of the true power.
      {"logspace", [] { return fj::logspace(0.0, 3.0, {.num = 4, .dtype = fj::f64}); }, 4},
      {"logspace_base2",
       [] {
         return fj::logspace(0.0, 4.0,
                             {.num = 5, .endpoint = false, .base = 2.0, .dtype = fj::f64});
       },
       4},
      // log10 of the ends, then logspace: an ulp from each of log10 and pow.
      {"geomspace", [] { return fj::geomspace(1.0, 1000.0, {.num = 4, .dtype = fj::f64}); }, 8},
      {"geomspace_negative",
       [] { return fj::geomspace(-2.0, -32.0, {.num = 5, .dtype = fj::f64}); }, 8},
      {"tri", [] { return fj::tri(3, 4, 1, fj::f64); }},
      {"identity", [] { return fj::identity(3, fj::f64); }},
      {"average", [] { return fj::average(in("m")); }},
      // A weighted sum and a division by the weights' sum, each rounded once, in an order of
      // the backend's: 2 ulps.
      {"average_weights_axis1",
       [] {
         return fj::average(in("m"), 1, fj::array({1.0, 2.0, 3.0, 4.0}));
       },
       2},
      {"average_weights_full",
       [] { return fj::average(in("m"), 0, Array(fj::abs(in("m")) + 1.0)); }},
      // Rounded means, then a matmul of the centered rows and one division: a few ulps.
      {"cov", [] { return fj::cov(in("m")); }, 8},
      {"cov_colvar_bias", [] { return fj::cov(in("m"), {.rowvar = false, .bias = true}); }, 8},
      // cov's rounding, then two divisions by square roots.
      {"corrcoef", [] { return fj::corrcoef(in("m")); }, 8},
      {"count_nonzero_axis0",
       [] {
         return fj::count_nonzero(fj::array({{0.0, 1.0}, {2.0, 0.0}, {3.0, 4.0}}), 0);
       }},
      {"trapezoid", [] { return fj::trapezoid(in("m"), 0.5); }},
      {"trapezoid_x_axis0",
       [] {
         return fj::trapezoid(in("m"), fj::array({0.0, 1.0, 3.0}), 0);
       }},
      {"polyval", [] { return fj::polyval(in("p"), Array(in("e")(fj::range(0, 6)))); }},
      {"select",
       [] {
         const Array v = in("v");
         return fj::select({Array(v > 3.0), Array(v < 2.0)}, {v, Array(-v)}, 100.0);
       }},
      {"nan_to_num", [] { return fj::nan_to_num(in("e")); }},
      {"nan_to_num_values", [] { return fj::nan_to_num(in("e"), -1.0, 7.0, -7.0); }},
      {"add", [] { return Array(fj::add(in("m"), 2.0)); }},
      {"subtract",
       [] {
         return Array(
             fj::subtract(in("m"), Array(fj::reshape(in("m")(0, fj::range(0, 3)), {3, 1}))));
       }},
      {"multiply", [] { return Array(fj::multiply(in("v"), in("u"))); }},
      {"true_divide", [] { return Array(fj::true_divide(in("v"), in("u"))); }},
      {"divide", [] { return Array(fj::divide(in("v"), in("u"))); }},
      // Small integer powers of small integers: exact in f64 (JAX's pow and fusejit's alike).
      {"power", [] { return Array(fj::power(in("k"), in("k"))); }},
      {"power_int", [] { return Array(fj::power(in("m").astype(fj::i32), 3)); }},
      {"negative", [] { return Array(fj::negative(in("m"))); }},
      {"less_equal", [] { return Array(fj::less_equal(in("v"), in("u"))); }},
      {"greater", [] { return Array(fj::greater(in("v"), 3.0)); }},
      {"not_equal", [] { return Array(fj::not_equal(in("v"), in("u"))); }},
      {"absolute", [] { return Array(fj::absolute(in("m"))); }},
      {"deg2rad",
       [] {
         return Array(fj::deg2rad(fj::array({0.0, 90.0, 180.0, -45.0})));
       }},
      {"rad2deg",
       [] {
         return Array(fj::rad2deg(fj::array({0.0, 1.0, M_PI, -0.5})));
       }},
      {"fmax", [] { return fj::fmax(in("e"), Array(fj::flip(in("e")))); }},
      {"fmin", [] { return fj::fmin(in("e"), Array(fj::flip(in("e")))); }},
      {"heaviside", [] { return fj::heaviside(in("e"), 0.5); }},
      // sin of pi x, within an ulp in both libraries, divided by pi x.
      {"sinc",
       [] {
         return fj::sinc(fj::array({0.0, 0.5, 1.0, -1.5, 2.25, 1e-9}));
       },
       4},
      {"remainder",
       [] {
         return Array(fj::remainder(fj::array({7.0, -7.0, 7.0, -7.0, 5.5, 0.0}),
                                    fj::array({3.0, 3.0, -3.0, -3.0, 2.0, 3.0})));
       }},
      {"remainder_int",
       [] {
         return fj::remainder(fj::array({7, -7, 7, -7, 0}), fj::array({3, 3, -3, -3, 5}));
       }},
      {"isposinf", [] { return Array(fj::isposinf(in("e"))); }},
      {"isneginf", [] { return Array(fj::isneginf(in("e"))); }},
      {"amax_axis0", [] { return Array(fj::amax(in("m"), {0})); }},
      {"around",
       [] {
         return Array(fj::around(fj::array({0.5, 1.5, 2.5, -0.5, 2.4})));
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

TEST_CASE("jnp table golden: every row gives JAX's values, every backend") {
  // x64 on, as the golden script runs JAX: Python scalars and default dtypes are 64-bit.
  const fj::x64_scope x64;
  fusejit_test::on_each_backend([&] {
    for (const Row& row : rows()) check_row(row, row.call());
  });
}

TEST_CASE("jnp table golden: the same rows under jit") {
  const fj::x64_scope x64;
  for (const Row& row : rows()) {
    CAPTURE(std::string(row.name));
    check_row(row, fj::jit([&] { return row.call(); })());
  }
}

TEST_CASE("jnp table golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  const Array m = fj::ones({3, 4}), v = fj::ones({5});
  check_throws_with<fj::ValueError>([&] { (void)fj::split(m, 3, 1); },
                                    {"fj::split", "equal division", "f32[3,4]"});
  check_throws_with<fj::ShapeError>([&] { (void)fj::split(m, 2, 2); }, {"fj::split", "axis 2"});
  check_throws_with<fj::ValueError>([&] { (void)fj::vsplit(v, 5); },
                                    {"fj::vsplit", "two dimensions", "f32[5]"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::moveaxis(m, {0, 0}, {0, 1});
      },
      {"fj::moveaxis", "repeated axis", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::cross(m, m); },
                                    {"fj::cross", "2 or 3 components", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::meshgrid({m}); },
                                    {"fj::meshgrid", "1-d", "f32[3,4]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)fj::tensordot(m, m, {{0}, {1}});
      },
      {"fj::tensordot", "differ in extent", "f32[3,4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::matrix_transpose(v); },
                                    {"fj::matrix_transpose", "f32[5]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::polyval(m, v); }, {"fj::polyval", "1-d"});
  check_throws_with<fj::ValueError>([&] { (void)fj::geomspace(0.0, 1.0); }, {"fj::geomspace"});
}
