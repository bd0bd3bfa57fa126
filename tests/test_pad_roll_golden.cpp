// fj::pad (constant, edge, reflect), fj::lax::pad, fj::roll, fj::tile and fj::repeat against JAX
// 0.10.2 (tests/golden/pad_roll_goldens.txt, printed by tests/golden/pad_roll_goldens.py): values
// and gradients in f64 on every backend (exact: they move values and sum integer weights), vmap,
// jaxpr text byte for byte, and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::PadMode;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"pad_roll_goldens.txt"};

using fusejit_test::sin_operand;
using Case = fusejit_test::UnaryCase;
// Traced shifts for roll (jit[name=_roll_dynamic]).
Array shift_m5() { return fj::array(std::vector<std::int32_t>{-5}, {}); }
Array shift_7() { return fj::array(std::vector<std::int32_t>{7}, {}); }
Array shifts_1_m6() { return fj::array(std::vector<std::int32_t>{1, -6}, {2}); }

using W = std::vector<std::pair<std::int64_t, std::int64_t>>;
constexpr fj::ReflectType odd = fj::ReflectType::odd;

// fj::pad(a, widths, mode, reflect_type) as a case's function.
std::function<Array(Tracer)> pad_with(W widths, PadMode mode,
                                      fj::ReflectType type = fj::ReflectType::even) {
  return [=](Tracer a) { return Array(fj::pad(a, widths, mode, type)); };
}

// fj::pad(a, widths, constant_values) with a value per side, as a case's function.
std::function<Array(Tracer)> pad_values(W widths, std::vector<std::pair<double, double>> values) {
  return [=](Tracer a) { return Array(fj::pad(a, widths, values)); };
}

std::map<std::string, Case> cases() {
  return {
      {"pad",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 2}, {0, 1}}));
        },
        {3, 4}}},
      {"pad_all", {[](Tracer a) { return Array(fj::pad(a, 1)); }, {3, 4}}},
      {"pad_value",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 2}, {0, 1}}, 2.5));
        },
        {3, 4}}},
      {"pad_1d",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{2, 0}}));
        },
        {5}}},
      {"pad_edge",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 2}, {0, 1}}, PadMode::edge));
        },
        {3, 4}}},
      {"pad_edge_3d",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{0, 1}, {2, 0}, {1, 1}}, PadMode::edge));
        },
        {2, 3, 2}}},
      {"pad_reflect",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 2}, {0, 1}}, PadMode::reflect));
        },
        {3, 4}}},
      {"pad_reflect_wide",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{5, 4}}, PadMode::reflect));
        },
        {3}}},
      {"pad_reflect_one",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{2, 1}, {1, 0}}, PadMode::reflect));
        },
        {1, 3}}},
      {"pad_wrap", {pad_with(W{{4, 2}, {0, 1}}, PadMode::wrap), {3, 4}}},
      {"pad_wrap_wide", {pad_with(W{{7, 5}}, PadMode::wrap), {3}}},
      {"pad_symmetric", {pad_with(W{{1, 2}, {0, 5}}, PadMode::symmetric), {3, 4}}},
      {"pad_symmetric_one", {pad_with(W{{2, 1}, {1, 0}}, PadMode::symmetric), {1, 3}}},
      {"pad_reflect_odd", {pad_with(W{{1, 2}, {0, 1}}, PadMode::reflect, odd), {3, 4}}},
      {"pad_reflect_odd_wide", {pad_with(W{{5, 4}}, PadMode::reflect, odd), {3}}},
      {"pad_symmetric_odd", {pad_with(W{{2, 3}, {1, 1}}, PadMode::symmetric, odd), {2, 3}}},
      {"pad_reflect_odd_one", {pad_with(W{{0, 0}, {2, 1}}, PadMode::reflect, odd), {2, 1}}},
      {"pad_maximum", {pad_with(W{{1, 2}, {0, 1}}, PadMode::maximum), {3, 4}}},
      {"pad_minimum", {pad_with(W{{0, 2}, {3, 1}}, PadMode::minimum), {3, 4}}},
      {"pad_mean", {pad_with(W{{1, 0}, {0, 2}}, PadMode::mean), {3, 4}}},
      {"pad_maximum_stat_length",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 2}, {0, 1}}, PadMode::maximum, W{{2, 1}, {5, 3}}));
        },
        {3, 4}}},
      {"pad_mean_stat_length",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{2, 1}, {1, 2}}, PadMode::mean, W{{1, 2}}));
        },
        {3, 4}}},
      {"pad_median", {pad_with(W{{1, 0}, {0, 2}}, PadMode::median), {3, 4}}},
      {"pad_median_stat_length",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{2, 1}, {1, 2}}, PadMode::median, W{{2, 3}}));
        },
        {3, 4}}},
      {"lax_pad",
       {[](Tracer a) {
          return Array(fj::lax::pad(a, 0.0, {{1, -1, 1}, {0, 2, 0}}));
        },
        {3, 4}}},
      {"lax_pad_crop",
       {[](Tracer a) {
          return Array(fj::lax::pad(a, -1.0, {{-1, 2, 2}, {-2, -1, 1}}));
        },
        {3, 4}}},
      {"roll", {[](Tracer a) { return Array(fj::roll(a, 2, 0)); }, {3, 4}}},
      {"roll_flat", {[](Tracer a) { return Array(fj::roll(a, -1)); }, {3, 4}}},
      {"roll_flat_1d", {[](Tracer a) { return Array(fj::roll(a, 7)); }, {5}}},
      {"roll_axes",
       {[](Tracer a) {
          return Array(fj::roll(a, {1, -6}, {0, 1}));
        },
        {3, 4}}},
      {"roll_dynamic", {[](Tracer a) { return Array(fj::roll(a, shift_m5(), 0)); }, {3, 4}}},
      {"roll_dynamic_flat", {[](Tracer a) { return Array(fj::roll(a, shift_7())); }, {3, 4}}},
      {"roll_dynamic_axes",
       {[](Tracer a) {
          return Array(fj::roll(a, shifts_1_m6(), {0, 1}));
        },
        {3, 4}}},
      {"tile",
       {[](Tracer a) {
          return Array(fj::tile(a, {2, 3}));
        },
        {3, 4}}},
      {"tile_int", {[](Tracer a) { return Array(fj::tile(a, 2)); }, {3, 4}}},
      {"tile_more",
       {[](Tracer a) {
          return Array(fj::tile(a, {2, 1, 3}));
        },
        {3, 4}}},
      {"tile_3d",
       {[](Tracer a) {
          return Array(fj::tile(a, {1, 2, 2}));
        },
        {2, 1, 3}}},
      {"repeat", {[](Tracer a) { return Array(fj::repeat(a, 3, 1)); }, {3, 4}}},
      {"repeat_flat", {[](Tracer a) { return Array(fj::repeat(a, 2)); }, {3, 4}}},
      {"repeat_neg_axis", {[](Tracer a) { return Array(fj::repeat(a, 2, -2)); }, {2, 3, 2}}},
      {"pad_empty_mode", {pad_with(W{{1, 2}, {0, 1}}, PadMode::empty), {3, 4}}},
      {"pad_empty_mode_3d", {pad_with(W{{0, 1}, {2, 0}, {1, 1}}, PadMode::empty), {2, 3, 2}}},
      {"pad_value_pairs", {pad_values(W{{1, 2}, {0, 1}}, {{1.0, 2.0}, {3.0, 4.0}}), {3, 4}}},
      {"pad_value_pair", {pad_values(W{{0, 2}, {1, 0}}, {{1.5, 2.5}}), {3, 4}}},
  };
}

// Empty operands or results (golden "shape NAME": the shape, " : ", the values).
std::map<std::string, Case> empty_cases() {
  return {
      {"pad_empty",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{1, 1}, {0, 2}}));
        },
        {0, 3}}},
      {"pad_edge_flat_axis",
       {[](Tracer a) {
          return Array(fj::pad(a, W{{0, 0}, {2, 1}}, PadMode::edge));
        },
        {0, 3}}},
      {"tile_zero",
       {[](Tracer a) {
          return Array(fj::tile(a, {0, 2}));
        },
        {3, 4}}},
      {"repeat_zero", {[](Tracer a) { return Array(fj::repeat(a, 0, 1)); }, {3, 4}}},
      {"roll_empty_axis", {[](Tracer a) { return Array(fj::roll(a, 1, 0)); }, {0, 2}}},
      {"pad_empty_mode_empty_axis", {pad_with(W{{1, 1}, {0, 0}}, PadMode::empty), {0, 3}}},
  };
}

Tracer lax_pad_of(Tracer a, Tracer v) { return fj::lax::pad(a, v, {{1, -1, 1}, {0, 2, 0}}); }

}  // namespace

TEST_CASE("pad/roll golden: values and gradients as JAX's, f64, every backend") {
  fusejit_test::check_unary_goldens(kGolden, cases());
}

TEST_CASE("pad/roll golden: empty operands and results, every backend") {
  fusejit_test::check_shape_goldens(kGolden, empty_cases());
}

TEST_CASE("pad/roll golden: lax.pad's gradient in its padding value, and vmap") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const Array x = sin_operand({3, 4}, 0), v = fj::array(std::vector<double>{0.75}, {});
    const Array y = fj::jit(lax_pad_of)(x, v);
    std::vector<double> wv(static_cast<std::size_t>(y.size()));
    for (std::size_t n = 0; n < wv.size(); ++n) wv[n] = 1.0 + static_cast<double>(n);
    const Array w = fj::array(wv, y.shape());
    auto [gx, gv] =
        fj::grad([&](Tracer a, Tracer b) { return Tracer(fj::sum(w * lax_pad_of(a, b))); },
                 fj::argnums{0, 1})(x, v);
    const auto lines = kGolden.lines("grad lax_pad_both");
    const auto want_x = fusejit_test::golden_numbers(lines[0]);
    const auto got_x = fusejit_test::as_doubles(gx);
    REQUIRE(got_x.size() == want_x.size());
    for (std::size_t i = 0; i < got_x.size(); ++i) CHECK(got_x[i] == want_x[i]);
    CHECK(fusejit_test::as_doubles(gv)[0] == fusejit_test::golden_numbers(lines[1])[0]);

    const Array xb = sin_operand({2, 3, 4}, 0), vb = sin_operand({2}, 1);
    const auto pb = fusejit_test::as_doubles(fj::jit(fj::vmap(lax_pad_of))(xb, vb));
    const auto want_pb = fusejit_test::golden_numbers(kGolden.lines("values vmap_lax_pad")[0]);
    REQUIRE(pb.size() == want_pb.size());
    for (std::size_t i = 0; i < pb.size(); ++i) CHECK(pb[i] == want_pb[i]);
    const auto tb = fusejit_test::as_doubles(fj::jit(fj::vmap([](Tracer a) {
      return Tracer(fj::tile(a, {2, 1}));
    }))(xb));
    const auto want_tb = fusejit_test::golden_numbers(kGolden.lines("values vmap_tile")[0]);
    REQUIRE(tb.size() == want_tb.size());
    for (std::size_t i = 0; i < tb.size(); ++i) CHECK(tb[i] == want_tb[i]);
  }
}

// The compositions under vmap (batching rules of slice, concatenate, rev, dynamic_slice with
// batched starts, broadcast_in_dim, reshape, pad, tile) against each example alone, and roll's
// traced shift batched too: exact.
TEST_CASE("pad/roll: vmap equals per-example results, every backend") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const Array xs = sin_operand({3, 3, 4}, 0);
    const Array shifts = fj::array(std::vector<std::int32_t>{-5, 0, 7}, {3});
    auto per_example = [&](const std::function<Array(Tracer, Tracer)>& f) {
      const auto got = fusejit_test::as_doubles(fj::jit(fj::vmap(f))(xs, shifts));
      std::vector<double> want;
      for (std::int64_t b = 0; b < 3; ++b) {
        const auto one = fusejit_test::as_doubles(fj::jit(f)(xs(b), shifts(b)));
        want.insert(want.end(), one.begin(), one.end());
      }
      CHECK(got == want);
    };
    using W = std::vector<std::pair<std::int64_t, std::int64_t>>;
    per_example([](Tracer a, Tracer) {
      return Array(fj::pad(a, W{{1, 2}, {3, 1}}, PadMode::edge));
    });
    per_example([](Tracer a, Tracer) {
      return Array(fj::pad(a, W{{2, 2}, {5, 1}}, PadMode::reflect));
    });
    per_example([](Tracer a, Tracer) { return Array(fj::roll(a, {1, -6}, {0, 1})); });
    per_example([](Tracer a, Tracer t) { return Array(fj::roll(a, t, 1)); });
    per_example([](Tracer a, Tracer t) { return Array(fj::roll(a, t)); });
    per_example([](Tracer a, Tracer) { return Array(fj::tile(a, {2, 1, 2})); });
    per_example([](Tracer a, Tracer) { return Array(fj::repeat(a, 2, 0)); });
  }
}

// Issue 50: reflect_type odd on an int32 array raised "concatenate: operands must have one
// dtype, got f32[2], i32[5]" (the 2 of `2 * edge - x` was a weak float); JAX 0.10.2's values.
TEST_CASE("pad golden: reflect_type odd keeps an int32 array int32, as JAX") {
  using W = std::vector<std::pair<std::int64_t, std::int64_t>>;
  const Array x = fj::array(std::vector<std::int32_t>{1, 5, 2, 8, 3});
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const Array reflect = fj::pad(x, W{{2, 3}}, PadMode::reflect, fj::ReflectType::odd);
    CHECK(reflect.dtype() == fj::i32);
    CHECK(reflect.to_vector<std::int32_t>() ==
          std::vector<std::int32_t>{0, -3, 1, 5, 2, 8, 3, -2, 4, 1});
    const Array symmetric = fj::jit([](Tracer a) {
      return Array(fj::pad(a, W{{2, 3}}, PadMode::symmetric, fj::ReflectType::odd));
    })(x);
    CHECK(symmetric.to_vector<std::int32_t>() ==
          std::vector<std::int32_t>{-3, 1, 1, 5, 2, 8, 3, 3, -2, 4});
  }
}

TEST_CASE("pad/roll golden: jaxpr text") {
  auto all = cases();
  all.merge(empty_cases());
  for (const auto& [name, c] : all) {
    CAPTURE(name);
    if (name.rfind("roll_dynamic", 0) == 0) continue;  // with the shift an argument, below
    CHECK(fj::make_jaxpr(c.f)(fj::ones(c.shape)).str() == kGolden.all().at("jaxpr " + name));
  }
  CHECK(fj::make_jaxpr([](Tracer a) {
          return Array(fj::pad(a, W{{1, 0}, {0, 2}}));
        })(fj::ones({2, 2}, fj::i32))
            .str() == kGolden.all().at("jaxpr pad_int"));
  // Integer statistics: rounded by jnp.round (a jit returning its operand) on each side.
  std::vector<std::int32_t> iv(12);
  for (std::size_t i = 0; i < iv.size(); ++i) iv[i] = static_cast<std::int32_t>(i * 7 % 10);
  const Array ints = fj::array(iv, fj::Shape{3, 4});
  for (auto [name, mode] : {std::pair{"mean", PadMode::mean},
                            {"minimum", PadMode::minimum},
                            {"median", PadMode::median}}) {
    CAPTURE(name);
    const auto f = pad_with(W{{1, 0}, {0, 2}}, mode);
    CHECK(fj::make_jaxpr(f)(fj::ones({3, 4}, fj::i32)).str() ==
          kGolden.all().at(std::string("jaxpr pad_") + name + "_int"));
    for (const std::string& backend : fusejit_test::backends_to_test()) {
      BackendScope scope(backend.c_str());
      const Array out = fj::jit(f)(ints);
      REQUIRE(out.dtype() == fj::i32);
      std::string got;
      for (std::int32_t v : out.to_vector<std::int32_t>())
        got += (got.empty() ? "" : " ") + std::to_string(v);
      CHECK(got == kGolden.lines(std::string("values pad_") + name + "_int")[0]);
    }
  }
  CHECK(fj::make_jaxpr([](Tracer a, Tracer t) { return Tracer(fj::roll(a, t, 0)); })(
            fj::ones({3, 4}), shift_m5())
            .str() == kGolden.all().at("jaxpr roll_dynamic_arg"));
  CHECK(fj::make_jaxpr([](Tracer a, Tracer t) { return Tracer(fj::roll(a, t)); })(fj::ones({3, 4}),
                                                                                  shift_7())
            .str() == kGolden.all().at("jaxpr roll_dynamic_flat_arg"));
  CHECK(fj::make_jaxpr([](Tracer a, Tracer t) {
          return Tracer(fj::roll(a, t, {0, 1}));
        })(fj::ones({3, 4}), shifts_1_m6())
            .str() == kGolden.all().at("jaxpr roll_dynamic_axes_arg"));
  CHECK(fj::make_jaxpr(pad_values(W{{1, 2}, {0, 1}}, {{1.0, 2.0}, {3.0, 4.0}}))(
            fj::ones({3, 4}, fj::i32))
            .str() == kGolden.all().at("jaxpr pad_value_pairs_int"));
  CHECK(fj::make_jaxpr(lax_pad_of)(fj::ones({3, 4}), fj::ones({})).str() ==
        kGolden.all().at("jaxpr lax_pad_value"));
  CHECK(fj::make_jaxpr(fj::vmap(lax_pad_of))(fj::ones({2, 3, 4}), fj::ones({2})).str() ==
        kGolden.all().at("jaxpr vmap_lax_pad"));
  CHECK(fj::make_jaxpr(fj::vmap([](Tracer a) {
          return Tracer(fj::tile(a, {2, 3}));
        }))(fj::ones({2, 3, 4}))
            .str() == kGolden.all().at("jaxpr vmap_tile"));
  CHECK(fj::make_jaxpr(fj::grad([](Tracer a) {
          return Tracer(fj::sum(fj::tile(a, {2, 3})));
        }))(fj::ones({3, 4}))
            .str() == kGolden.all().at("jaxpr grad_tile"));
}

TEST_CASE("pad/roll golden: bad input names the function and shapes") {
  using W = std::vector<std::pair<std::int64_t, std::int64_t>>;
  const Array m = fj::ones({3, 4});
  CHECK_THROWS_WITH_AS(Array(fj::pad(m, W{{1, -1}, {0, 0}})),
                       "fj::pad: pad_width ((1, -1), (0, 0)) must be nonnegative, for f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::pad(m, W{{1, 1}, {0, 0}, {2, 2}})),
                       doctest::Contains("needs one (before, after) pair per axis of f32[3,4]"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::pad(fj::ones({0, 2}), W{{1, 0}, {0, 0}}, PadMode::edge)),
                       "fj::pad: cannot apply 'edge' padding to empty axis 0 of f32[0,2]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::pad(m, W{{1, 0}, {0, 0}}, PadMode::maximum, W{{0, 1}})),
                       "fj::pad: stat_length ((0, 1),) must be positive (a length of 0 yields no "
                       "value for padding), for f32[3,4]",
                       fj::ValueError);
  CHECK_THROWS_WITH_AS(Array(fj::pad(m, W{{1, 0}, {0, 0}}, PadMode::edge, W{{1, 1}})),
                       "fj::pad: stat_length applies to the maximum, minimum, mean and median "
                       "modes, not to 'edge'",
                       fj::ValueError);
  CHECK_THROWS_WITH_AS(Array(fj::lax::pad(m, 0.0, {{1, 1, -1}, {0, 0, 0}})),
                       doctest::Contains("fj::lax::pad: pad: interior padding must be nonnegative"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::lax::pad(m, 0.0, {{-3, -1, 0}, {0, 0, 0}})),
                       doctest::Contains("leaves axis 0 of f32[3,4] with size -1"), fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::lax::pad(m, 0.0, {{0, 0, 0}})),
                       doctest::Contains("must have one entry per axis of f32[3,4]"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::roll(m, 1, 2)), "fj::roll: axis 2 is out of range for f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::roll(m, fj::ones({}), 0)),
                       "fj::roll: shift must have an integer dtype, got f32[] for f32[3,4]",
                       fj::DTypeError);
  CHECK_THROWS_WITH_AS(
      Array(fj::roll(m, fj::array(std::vector<std::int32_t>{1, 2, 3}, {3}), {0, 1})),
      "fj::roll: shift i32[3] and 2 axes must be scalars or 1-D arrays of one length, for f32[3,4]",
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::pad(m, W{{1, 1}}, {{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}})),
                       "fj::pad: constant_values has 3 (before, after) pairs for f32[3,4], which "
                       "needs one per axis, or one for all",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::tile(m, {2, -1})),
                       "fj::tile: reps (2, -1) must be nonnegative, for f32[3,4]", fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::repeat(m, -1, 0)),
                       "fj::repeat: repeats must be nonnegative, got -1 for f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::repeat(m, 2, -3)),
                       "fj::repeat: axis -3 is out of range for f32[3,4]", fj::ShapeError);
}
