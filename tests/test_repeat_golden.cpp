// fj::repeat with an array of counts (jnp.repeat's `repeats` array and total_repeat_length)
// against JAX 0.10.2 (tests/golden/repeat_goldens.txt, printed by tests/golden/repeat_goldens.py):
// values and gradients in f64 on every backend (exact: they move values and sum integer weights),
// traced counts, empty results, vmap, jaxpr text byte for byte, and bad input.
#include <doctest/doctest.h>

#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"repeat_goldens.txt"};

using fusejit_test::sin_operand;
using Case = fusejit_test::UnaryCase;
using Counts = std::vector<std::int64_t>;

Array i32s(const std::vector<std::int32_t>& v, const fj::Shape& s) { return fj::array(v, s); }

// Counts known in C++ (JAX: a NumPy array), or a closed-over array with a total.
std::map<std::string, Case> cases() {
  return {
      {"counts",
       {[](Tracer a) {
          return fj::repeat(a, Counts{1, 2, 0}, 0);
        },
        {3, 4}}},
      {"counts_flat",
       {[](Tracer a) {
          return fj::repeat(a, Counts{2, 0, 1, 1, 3, 0});
        },
        {2, 3}}},
      {"one_count", {[](Tracer a) { return fj::repeat(a, Counts{2}, -1); }, {3, 2}}},
      {"counts_short",
       {[](Tracer a) {
          return fj::repeat(a, i32s({2, 0, 1, 3}, {4}), 1, 4);
        },
        {3, 4}}},
      {"counts_long",
       {[](Tracer a) {
          return fj::repeat(a, Counts{1, 2, 0}, 0, 5);
        },
        {3, 4}}},
      {"one_count_total", {[](Tracer a) { return fj::repeat(a, Counts{2}, 0, 5); }, {3, 4}}},
      {"scalar", {[](Tracer a) { return fj::repeat(a, Counts{3}, 0); }, {}}},
  };
}

std::map<std::string, Case> empty_cases() {
  return {
      {"counts_zero",
       {[](Tracer a) {
          return fj::repeat(a, Counts{0, 0, 0}, 0);
        },
        {3, 4}}},
      {"empty_axis", {[](Tracer a) { return fj::repeat(a, i32s({2}, {1}), 0, 3); }, {0, 3}}},
  };
}

// Traced counts, the function's second argument.
struct ArgCase {
  std::function<Array(Tracer, Tracer)> f;
  fj::Shape shape;
  Array counts;
};
std::map<std::string, ArgCase> arg_cases() {
  return {
      {"arg",
       {[](Tracer a, Tracer r) { return fj::repeat(a, r, 1, 5); },
        {3, 4},
        i32s({2, 0, 1, 3}, {4})}},
      {"arg_one",
       {[](Tracer a, Tracer r) { return fj::repeat(a, r, std::nullopt, 5); }, {3}, i32s({2}, {1})}},
      {"arg_2d",
       {[](Tracer a, Tracer r) { return fj::repeat(a, r, 0, 6); },
        {4, 3},
        i32s({1, 0, 3, 2}, {2, 2})}},
      {"arg_flat",
       {[](Tracer a, Tracer r) { return fj::repeat(a, r, std::nullopt, 7); },
        {2, 3},
        i32s({1, 1, 0, 2, 1, 3}, {6})}},
      {"arg_scalar",
       {[](Tracer a, Tracer r) { return fj::repeat(a, r, 0, 4); }, {}, i32s({5}, {1})}},
  };
}

}  // namespace

TEST_CASE("repeat golden: counts per element, values and gradients as JAX's, every backend") {
  fusejit_test::check_unary_goldens(kGolden, cases());
}

TEST_CASE("repeat golden: traced counts with total_repeat_length, every backend") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : arg_cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const Array x = sin_operand(c.shape, 0);
      const auto [got, want] =
          fusejit_test::golden_values(fj::jit(c.f)(x, c.counts), kGolden.lines("values " + name));
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);
      // The gradient with the counts a constant: staged the same way (total given).
      const auto f = c.f;
      const Array counts = c.counts;
      fusejit_test::check_weighted_grad(
          [f, counts](Tracer a) { return f(a, counts); }, x,
          fusejit_test::golden_numbers(kGolden.lines("grad " + name)[0]));
    }
  }
}

TEST_CASE("repeat golden: empty results, every backend") {
  fusejit_test::check_shape_goldens(kGolden, empty_cases());
}

TEST_CASE("repeat golden: jaxpr text as JAX's") {
  std::map<std::string, Case> all = cases();
  all.merge(empty_cases());
  for (const auto& [name, c] : all) {
    CAPTURE(name);
    CHECK(fj::make_jaxpr(c.f)(fj::ones(c.shape)).str() == kGolden.all().at("jaxpr " + name));
  }
  for (const auto& [name, c] : arg_cases()) {
    CAPTURE(name);
    CHECK(fj::make_jaxpr(c.f)(fj::ones(c.shape), fj::ones(c.counts.shape(), fj::i32)).str() ==
          kGolden.all().at("jaxpr " + name));
  }
  CHECK(fj::make_jaxpr(fj::grad([](Tracer a, Tracer r) {
          return Tracer(fj::sum(fj::repeat(a, r, 1, 5)));
        }))(fj::ones({3, 4}), fj::ones({4}, fj::i32))
            .str() == kGolden.all().at("jaxpr grad_arg"));
}

// Batching rules of the composition (roll's slices, scatter, cumsum, scatter-add, gather), with
// x batched and with the counts batched too, against each example alone: exact.
TEST_CASE("repeat: vmap equals per-example results, every backend") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const Array xs = sin_operand({3, 3, 4}, 0);
    const Array counts = i32s({2, 0, 1, 3, 1, 1, 0, 2, 4}, {3, 3});
    auto f = [](Tracer a, Tracer r) { return fj::repeat(a, r, 0, 5); };
    const auto got = fusejit_test::as_doubles(fj::jit(fj::vmap(f))(xs, counts));
    const auto got_x =
        fusejit_test::as_doubles(fj::jit(fj::vmap([&](Tracer a) { return f(a, counts(0)); }))(xs));
    std::vector<double> want, want_x;
    for (std::int64_t b = 0; b < 3; ++b) {
      const auto one = fusejit_test::as_doubles(fj::jit(f)(xs(b), counts(b)));
      want.insert(want.end(), one.begin(), one.end());
      const auto one_x = fusejit_test::as_doubles(fj::jit(f)(xs(b), counts(0)));
      want_x.insert(want_x.end(), one_x.begin(), one_x.end());
    }
    CHECK(got == want);
    CHECK(got_x == want_x);
  }
}

TEST_CASE("repeat: bad input names the function, the argument and the shapes") {
  const Array m = fj::ones({3, 4});
  CHECK_THROWS_WITH_AS(fj::repeat(m, fj::ones({3}), 0, 5),
                       "fj::repeat: repeats must be an integer array, got f32[3]", fj::DTypeError);
  CHECK_THROWS_WITH_AS(fj::repeat(m, Counts{1, 2}, 0),
                       "fj::repeat: repeats (1, 2) has 2 counts for the 3 elements along axis 0 "
                       "of f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::repeat(m, i32s({1, 2}, {2}), 1, 3),
                       "fj::repeat: repeats i32[2] has 2 counts for the 4 elements along axis 1 "
                       "of f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::repeat(m, Counts{1, -2, 0}, 0),
                       "fj::repeat: repeats must be nonnegative, got (1, -2, 0) for f32[3,4]",
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::repeat(m, Counts{1, 2, 0}, 0, -1),
                       "fj::repeat: total_repeat_length must be nonnegative, got -1",
                       fj::ValueError);
  CHECK_THROWS_WITH_AS(fj::repeat(m, Counts{1, 2, 0}, 2),
                       "fj::repeat: axis 2 is out of range for f32[3,4]", fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::repeat(fj::ones({}), Counts{1, 2}, 0),
                       "fj::repeat: a scalar x (f32[]) takes one count only, got repeats (1, 2)",
                       fj::ValueError);
  fusejit_test::check_throws_with<fj::ConcretizationError>(
      [&] {
        fj::jit([&](Tracer r) { return fj::repeat(m, r, 0); })(i32s({1, 2, 0}, {3}));
      },
      {"fj::repeat: repeats i32[3] is traced, so the result's length is not static: pass "
       "total_repeat_length"});
}
