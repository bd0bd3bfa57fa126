// fj::diff, fj::ptp, fj::isclose, fj::allclose and fj::bincount against JAX 0.10.2
// (tests/golden/numeric_goldens.txt, printed by tests/golden/numeric_goldens.py): values in f64
// on every backend (exact: they subtract, compare and count), jaxpr text, and bad input.
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

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"numeric_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// The non-negative counts' operand: clip(i, 0) as an int32 array, as the script passes it.
Array counts() { return fj::clip(input("i"), 0.0, 1e9).astype(fj::DType::i32); }

std::map<std::string, std::function<Array()>> cases() {
  return {
      {"diff_m", [] { return fj::diff(input("m")); }},
      {"diff_m_n2_axis0", [] { return fj::diff(input("m"), 2, 0); }},
      {"diff_v_n3", [] { return fj::diff(input("v"), 3); }},
      {"diff_v_n0", [] { return fj::diff(input("v"), 0); }},
      {"diff_bool", [] { return fj::diff(Array(input("m") > 2.0)); }},
      {"ptp_m", [] { return fj::ptp(input("m")); }},
      {"ptp_m_axis0", [] { return fj::ptp(input("m"), 0); }},
      {"ptp_m_axis1_keepdims", [] { return fj::ptp(input("m"), 1, true); }},
      {"isclose_pq", [] { return fj::isclose(input("p"), input("q")); }},
      {"isclose_pq_nan", [] { return fj::isclose(input("p"), input("q"), {}, {}, true); }},
      {"isclose_pq_tol", [] { return fj::isclose(input("p"), input("q"), 0.0, 1e-3); }},
      {"allclose_pq", [] { return fj::allclose(input("p"), input("q")); }},
      {"allclose_vv", [] { return fj::allclose(input("v"), Array(input("v") + 1e-9)); }},
      {"bincount_i", [] { return fj::bincount(counts(), 9); }},
      {"bincount_i_w", [] { return fj::bincount(counts(), input("w"), 6); }},
      {"bincount_i_short", [] { return fj::bincount(counts(), 4); }},
      {"bincount_concrete", [] { return fj::bincount(counts()); }},
      {"bincount_minlength", [] { return fj::bincount(counts(), std::nullopt, 10); }},
  };
}

}  // namespace

TEST_CASE("numeric golden: diff, ptp, isclose, allclose and bincount as JAX's, every backend") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f] : cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const std::string line = kGolden.lines("values " + name).at(0);
      const std::size_t bar = line.find(" : ");
      const Array got = f();
      std::vector<std::int64_t> shape;
      for (double d : fusejit_test::golden_numbers(line.substr(0, bar)))
        shape.push_back(static_cast<std::int64_t>(d));
      CHECK(got.shape() == fj::Shape(shape));
      CHECK(fusejit_test::as_doubles(got) == fusejit_test::golden_numbers(line.substr(bar + 3)));
    }
  }
}

TEST_CASE("numeric golden: jaxpr text as JAX's") {
  using T = Tracer;
  const auto f32 = fj::DType::f32, i32 = fj::DType::i32, b8 = fj::DType::bool_;
  const std::map<std::string, std::function<std::string()>> texts = {
      {"diff",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::diff(x); })(fj::ones({3, 5})).str();
       }},
      {"diff_n2_axis0",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::diff(x, 2, 0); })(fj::ones({4, 3})).str();
       }},
      {"diff_n0",
       [&] { return fj::make_jaxpr([](T x) { return fj::diff(x, 0); })(fj::ones({3})).str(); }},
      {"diff_bool",
       [&] { return fj::make_jaxpr([](T x) { return fj::diff(x); })(fj::ones({4}, b8)).str(); }},
      {"ptp",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::ptp(x); })(fj::ones({3, 4}, i32)).str();
       }},
      {"ptp_axis1_keepdims",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::ptp(x, 1, true); })(fj::ones({3, 4}, f32))
             .str();
       }},
      {"isclose",
       [&] {
         return fj::make_jaxpr([](T x, T y) { return fj::isclose(x, y); })(fj::ones({3}),
                                                                           fj::ones({3}))
             .str();
       }},
      {"isclose_tol_nan",
       [&] {
         return fj::make_jaxpr([](T x, T y) { return fj::isclose(x, y, 0.1, 0.0, true); })(
                    fj::ones({3}), fj::ones({2, 3}))
             .str();
       }},
      {"isclose_rtol",
       [&] {
         return fj::make_jaxpr([](T x, T y) { return fj::isclose(x, y, 0.5); })(fj::ones({3}),
                                                                                fj::ones({3}))
             .str();
       }},
      {"isclose_int",
       [&] {
         return fj::make_jaxpr([](T x, T y) { return fj::isclose(x, y); })(fj::ones({3}, i32),
                                                                           fj::ones({3}))
             .str();
       }},
      {"allclose",
       [&] {
         return fj::make_jaxpr([](T x, T y) { return fj::allclose(x, y); })(fj::ones({2, 3}),
                                                                            fj::ones({2, 3}))
             .str();
       }},
      {"bincount",
       [&] {
         return fj::make_jaxpr([](T x) { return fj::bincount(x, 5); })(fj::ones({6}, i32)).str();
       }},
      {"bincount_weights",
       [&] {
         return fj::make_jaxpr([](T x, T w) { return fj::bincount(x, w, 4); })(fj::ones({6}, i32),
                                                                               fj::ones({6}))
             .str();
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    CHECK(text() == kGolden.all().at("jaxpr " + name));
  }
}

TEST_CASE("numeric golden: bad input names the function and the operand") {
  using fusejit_test::check_throws_with;
  check_throws_with<fj::ValueError>([] { fj::diff(fj::ones({})); },
                                    {"fj::diff", "at least one axis", "f32[]"});
  check_throws_with<fj::ValueError>([] { fj::diff(fj::ones({3}), -1); },
                                    {"fj::diff", "nonnegative", "-1"});
  check_throws_with<fj::ShapeError>([] { fj::diff(fj::ones({3}), 1, 1); }, {"fj::diff", "axis 1"});
  check_throws_with<fj::TypeError>([] { fj::bincount(fj::ones({3})); },
                                   {"fj::bincount", "integer", "f32[3]"});
  check_throws_with<fj::ValueError>(
      [] {
        fj::bincount(fj::ones({2, 2}, fj::DType::i32), 3);
      },
      {"fj::bincount", "one-dimensional", "i32[2,2]"});
  check_throws_with<fj::ValueError>(
      [] { fj::bincount(fj::ones({3}, fj::DType::i32), fj::ones({2}), 3); },
      {"fj::bincount", "weights f32[2]", "i32[3]"});
  check_throws_with<fj::ConcretizationError>(
      [] { fj::jit([](Tracer x) { return fj::bincount(x); })(fj::ones({3}, fj::DType::i32)); },
      {"fj::bincount", "i32[3]", "pass length"});
}
