// Integer-array indexing, take, take_along_axis and x.at(...).get()/set/add/mul/min/max
// (gather and the scatters) against JAX 0.10.2 (tests/golden/index_goldens.txt, printed by
// tests/golden/index_goldens.py): values bit for bit (gathers copy; the scatter-adds add small
// multiples of 1/2, exact in any order), out-of-range modes, vmap, gradients (JAX's and central
// differences, f64), a scatter-add histogram and jaxpr text, on both backends.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "index_golden_inputs.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;
using Mode = fj::lax::GatherScatterMode;
using namespace index_golden;

namespace {

constexpr auto numbers = fusejit_test::golden_numbers;
using fusejit_test::as_doubles;

Array j() { return ivec({1, 0, 2, -3, 1}, {5}); }
Array flat() { return ivec({0, 14, -1, 3}, {4}); }
Array along_t() { return ivec({4, 2, 0, -2, 1, 0}, {3, 2}); }

const std::map<std::string, Case>& cases() {
  using fj::in_axes;
  static const std::map<std::string, Case> c = {
      {"index", {[](Tracer v, Tracer t) { return Array(v(t)); }, x, i}},
      {"index2", {[](Tracer v, Tracer t) { return Array(v(t, j())); }, x, i}},
      {"at_get", {[](Tracer v, Tracer t) { return v.at(t).get(); }, x, i}},
      {"at_add", {[](Tracer v, Tracer t) { return v.at(t).add(10.0); }, x, i}},
      {"at_add_rows", {[](Tracer v, Tracer t) { return v.at(t).add(u()); }, x, i}},
      {"at_add2", {[](Tracer v, Tracer t) { return v.at(t, j()).add(1.0); }, x, i}},
      {"at_int_add", {[](Tracer v, Tracer) { return v.at(2).add(1.0); }, x, i}},
      {"take_axis1", {[](Tracer v, Tracer t) { return Array(fj::take(v, t, 1)); }, x, k}},
      {"take_flat", {[](Tracer v, Tracer t) { return Array(fj::take(v, t)); }, x, flat}},
      {"take_fill_oob", {[](Tracer v, Tracer t) { return Array(fj::take(v, t, 0)); }, x, oob}},
      {"take_clip_oob",
       {[](Tracer v, Tracer t) { return Array(fj::take(v, t, 0, Mode::clip)); }, x, oob}},
      {"index_oob", {[](Tracer v, Tracer t) { return Array(v(t)); }, x, oob}},
      {"at_add_oob", {[](Tracer v, Tracer t) { return v.at(t).add(1.0); }, x, oob}},
      {"at_add_oob_clip",
       {[](Tracer v, Tracer t) { return v.at(t).add(1.0, Mode::clip); }, x, oob}},
      {"take_along_axis",
       {[](Tracer v, Tracer t) { return Array(fj::take_along_axis(v, t, 0)); }, x, along}},
      {"int_index", {[](Tracer v, Tracer t) { return Array(v(t)); }, ints, i}},
      {"int_take_oob", {[](Tracer v, Tracer t) { return Array(fj::take(v, t, 0)); }, ints, oob}},
      {"int_at_add", {[](Tracer v, Tracer t) { return v.at(t).add(3); }, ints, i}},
      {"vmap_operand",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return Array(a(b)); }, in_axes<2>{1, fj::none})(
              v, t);
        },
        x, k}},
      {"vmap_indices",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return Array(a(b)); }, in_axes<2>{fj::none, 0})(
              v, t);
        },
        x, along}},
      {"vmap_both",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return Array(a(b)); }, in_axes<2>{1, 0})(v, t);
        },
        x, along_t}},
      {"vmap_add_operand",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b).add(1.0); },
                          in_axes<2>{1, fj::none})(v, t);
        },
        x, k}},
      {"vmap_add_indices",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b).add(1.0); },
                          in_axes<2>{fj::none, 0})(v, t);
        },
        x, along}},
      {"vmap_add_both",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b).add(1.0); }, in_axes<2>{1, 0})(v,
                                                                                                 t);
        },
        x, along_t}},
      {"at_set", {[](Tracer v, Tracer t) { return v.at(t).set(10.0); }, x, i}},
      {"at_set_rows", {[](Tracer v, Tracer t) { return v.at(t).set(u()); }, x, i}},
      {"at_set_oob", {[](Tracer v, Tracer t) { return v.at(t).set(1.0); }, x, oob}},
      {"at_set_oob_clip",
       {[](Tracer v, Tracer t) { return v.at(t).set(1.0, Mode::clip); }, x, oob}},
      {"at_int_set", {[](Tracer v, Tracer) { return v.at(-2).set(7.0); }, x, i}},
      {"at_mul", {[](Tracer v, Tracer t) { return v.at(t).mul(-2.0); }, x, i}},
      {"at_min_rows", {[](Tracer v, Tracer t) { return v.at(t).min(u() * 0.5); }, x, i}},
      {"at_max_rows", {[](Tracer v, Tracer t) { return v.at(t).max(u() * 0.5); }, x, i}},
      {"at_max_oob_clip",
       {[](Tracer v, Tracer t) { return v.at(t).max(100.0, Mode::clip); }, x, oob}},
      {"int_at_set", {[](Tracer v, Tracer t) { return v.at(t).set(-5); }, ints, i}},
      {"int_at_mul", {[](Tracer v, Tracer t) { return v.at(t).mul(3); }, ints, i}},
      {"int_at_min", {[](Tracer v, Tracer t) { return v.at(t).min(1); }, ints, i}},
      {"int_at_max", {[](Tracer v, Tracer t) { return v.at(t).max(4); }, ints, i}},
      {"vmap_set_both",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b).set(0.5); }, in_axes<2>{1, 0})(v,
                                                                                                 t);
        },
        x, along_t}},
      {"vmap_max_indices",
       {[](Tracer v, Tracer t) {
          return fj::vmap([](Tracer a, Tracer b) { return a.at(b).max(3.0); },
                          in_axes<2>{fj::none, 0})(v, t);
        },
        x, along}},
  };
  return c;
}

}  // namespace

TEST_CASE("index golden: values, out-of-range modes and vmap as JAX's") {
  check_value_cases(cases());
}

// The realistic program: a histogram of 64 values in [0, 1), bin indices from the values and
// one scatter-add of ones, every repeated bin accumulating.
TEST_CASE("index golden: scatter-add histogram") {
  const Array samples = fj::array(numbers(kGolden.lines("hist_input")[0]), fj::Shape{64});
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (int nbins : {8, 5}) {
      CAPTURE(backend);
      CAPTURE(nbins);
      auto hist = [nbins](Tracer v) {
        const Array idx = fj::astype(fj::floor(v * static_cast<double>(nbins)), fj::DType::i32);
        return fj::zeros({nbins}).at(idx).add(1);
      };
      const auto got = as_doubles(fj::jit(hist)(samples));
      CHECK(got == numbers(kGolden.lines("hist " + std::to_string(nbins))[0]));
    }
  }
}

// d/dx sum(w * f(x)): the gathers' cotangents are scatter-adds of the weights (repeated
// indices accumulate) and the scatter-add's are the weights and their gather, all sums of a
// few integers: exact; so are set's (the weight where an update won, else where the operand
// held), mul's (weights times 3 or 9) and, away from ties, min's and max's (no input here
// ties). Central differences (h = 1e-6; f is at most quadratic) agree to 1e-6.
TEST_CASE("index golden: gradients as JAX's and central differences") {
  const std::map<std::string, std::function<Array(Tracer)>> fns = {
      {"index", [](Tracer v) { return Array(v(i())); }},
      {"index2", [](Tracer v) { return Array(v(i(), j())); }},
      {"take_axis1", [](Tracer v) { return Array(fj::take(v, k(), 1)); }},
      {"take_along_axis", [](Tracer v) { return Array(fj::take_along_axis(v, along(), 0)); }},
      {"at_add", [](Tracer v) { return v.at(i()).add(Array(v(j()) * v(j()))); }},
      {"updates", [](Tracer w) { return x().at(i()).add(w); }},
      {"set", [](Tracer v) { return v.at(i()).set(Array(v(j()) * v(j()))); }},
      {"set_updates", [](Tracer w) { return x().at(i()).set(w); }},
      {"mul", [](Tracer v) { return v.at(i()).mul(3.0); }},
      {"max", [](Tracer v) { return v.at(i()).max(6.0 - u() * 0.75); }},
      {"min", [](Tracer v) { return v.at(i()).min(6.0 - u() * 0.75); }},
      {"max_updates", [](Tracer w) { return x().at(i()).max(w); }},
      {"min_updates", [](Tracer w) { return x().at(i()).min(w); }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f] : fns) {
      CAPTURE(backend);
      CAPTURE(name);
      const Array arg = name.ends_with("updates") ? Array(u() * 0.25 + 1.0) : x();
      fusejit_test::check_weighted_grad(f, arg, numbers(kGolden.lines("grad " + name)[0]));
    }
  }
}

// At ties scatter-max shares the cotangent evenly between the updates that reach the element's
// value and the operand if it holds it too, as JAX's _scatter_extremal_jvp does: halves and
// thirds of small integers (exact when they are 1/2; 1.5 = 3/2 here). Not differentiable
// there, so no central differences.
TEST_CASE("index golden: scatter-max gradients at ties as JAX's") {
  const Array tie_idx = ivec({1, 1, 2, 0}, {4});
  const Array tie_w = fj::array(std::vector<double>{2.0, 2.0, 0.0, -1.0}, fj::Shape{4});
  const Array weights = fj::array(std::vector<double>{1.0, 2.0, 3.0}, fj::Shape{3});
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    auto of_updates = [&](Tracer w) {
      return fj::sum(weights * fj::zeros({3}, fj::DType::f64).at(tie_idx).max(w));
    };
    auto of_operand = [&](Tracer v) { return fj::sum(weights * v.at(tie_idx).max(tie_w)); };
    CHECK(as_doubles(fj::jit(fj::grad(of_updates))(tie_w)) ==
          numbers(kGolden.lines("grad max_ties")[0]));
    CHECK(as_doubles(fj::jit(fj::grad(of_operand))(fj::zeros({3}, fj::DType::f64))) ==
          numbers(kGolden.lines("grad max_ties_operand")[0]));
  }
}

// Without unique indices JAX has no derivative of scatter-mul in its updates; nor has fusejit.
TEST_CASE("index: scatter-mul's gradient in its updates raises NotImplementedError") {
  auto f = [](Tracer w) { return fj::sum(x().at(i()).mul(w)); };
  CHECK_THROWS_WITH_AS(fj::jit(fj::grad(f))(Array(u() * 0.25 + 1.0)),
                       doctest::Contains("unique_indices=True"), fj::NotImplementedError);
}

TEST_CASE("index golden: jaxpr text") {
  const Array o = fj::ones({5, 3});
  const Array ti = i();
  const std::map<std::string, Fn> fns = {
      {"index", [](Tracer v, Tracer t) { return Array(v(t)); }},
      {"index2", [](Tracer v, Tracer t) { return Array(v(t, t)); }},
      {"at_get", [](Tracer v, Tracer t) { return v.at(t).get(); }},
      {"at_add", [](Tracer v, Tracer t) { return v.at(t).add(2.0); }},
      {"at_add_clip", [](Tracer v, Tracer t) { return v.at(t).add(2.0, Mode::clip); }},
      {"at_int_add", [](Tracer v, Tracer) { return v.at(2).add(1.0); }},
      {"take_axis1", [](Tracer v, Tracer t) { return Array(fj::take(v, t, 1)); }},
      {"take_flat", [](Tracer v, Tracer t) { return Array(fj::take(v, t)); }},
      {"take_clip", [](Tracer v, Tracer t) { return Array(fj::take(v, t, 0, Mode::clip)); }},
      {"at_set", [](Tracer v, Tracer t) { return v.at(t).set(2.0); }},
      {"at_mul", [](Tracer v, Tracer t) { return v.at(t).mul(2.0); }},
      {"at_min", [](Tracer v, Tracer t) { return v.at(t).min(2.0); }},
      {"at_max_clip", [](Tracer v, Tracer t) { return v.at(t).max(2.0, Mode::clip); }},
      {"at_int_set", [](Tracer v, Tracer) { return v.at(1).set(0.0); }},
  };
  for (const auto& [name, f] : fns) {
    CAPTURE(name);
    CHECK(fj::make_jaxpr(f)(o, ti).str() + "\n" == kGolden.all().at("jaxpr " + name) + "\n");
  }
  const std::string along_text = fj::make_jaxpr([](Tracer v, Tracer t) {
                                   return Array(fj::take_along_axis(v, t, 0));
                                 })(o, along())
                                     .str();
  CHECK(along_text == kGolden.all().at("jaxpr take_along_axis"));
}

TEST_CASE("index: a float index array raises DTypeError naming the function and the dtype") {
  const Array fidx = fj::array(std::vector<float>{0, 1}, fj::Shape{2});
  CHECK_THROWS_WITH_AS(
      fj::jit([](Tracer v, Tracer t) { return Array(fj::take(v, t)); })(x(), fidx),
      doctest::Contains("fj::take: indices must be an integer array, got float32[2]"),
      fj::DTypeError);
  CHECK_THROWS_AS(fj::jit([](Tracer v, Tracer t) { return v.at(t).add(1.0); })(x(), fidx),
                  fj::DTypeError);
  CHECK_THROWS_AS(Array(fj::take(x(), ivec({0}, {1}), 2)), fj::ShapeError);
}

// A scalar update (x.at[i].add(1) stages a broadcast 1.0) reaches the LLVM backend's scatter
// routine as a splat, a one-element Value, instead of an array a kernel fills
// (LlvmExecutable::pass_splats): every scatter, the drop and clip modes, windows of several
// elements, integers and floats give the reference backend's values, and the kernel is not run.
TEST_CASE("index: scalar updates reach the scatters as splats, same values as the reference") {
  if (!fusejit_test::has_backend("llvm")) return;
  const Array idx = ivec({3, -1, 7, 3, 9, 0, -12, 3, 5}, {9});  // repeats, negatives, out of range
  using Fn = std::function<Array(Tracer, Tracer)>;
  const std::vector<std::pair<const char*, Fn>> fns{
      {"add", [](Tracer v, Tracer t) { return v.at(t).add(2.0); }},
      {"add clip", [](Tracer v, Tracer t) { return v.at(t).add(-1.0, Mode::clip); }},
      {"set", [](Tracer v, Tracer t) { return v.at(t).set(7.0); }},
      {"mul", [](Tracer v, Tracer t) { return v.at(t).mul(3.0); }},
      {"min", [](Tracer v, Tracer t) { return v.at(t).min(0.0); }},
      {"max clip", [](Tracer v, Tracer t) { return v.at(t).max(1.0, Mode::clip); }},
  };
  for (fj::DType d : {fj::DType::f32, fj::DType::f64, fj::DType::i32}) {
    // A vector (one element per index) and rows of a matrix (a window of 4 per index).
    for (const fj::Shape& s : {fj::Shape{10}, fj::Shape{10, 4}}) {
      const Array x = fj::astype(fusejit_test::random_array(fj::f32, s, -4, 4, 7), d);
      for (const auto& [name, f] : fns) {
        CAPTURE(std::string(name));
        CAPTURE(std::string(fj::short_name(d)));
        CAPTURE(s.rank());
        auto [got, want] = fusejit_test::run_both("llvm", f, x, idx);
        CHECK(got.dtype() == want.dtype());
        CHECK(as_doubles(got) == as_doubles(want));
        const std::string text = fj::jit(f).lower(x, idx).as_text();
        CHECK(text.find("not run, a splat operand of call") != std::string::npos);
      }
    }
  }
}
