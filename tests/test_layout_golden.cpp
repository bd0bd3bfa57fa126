// fj::tril, fj::triu and fj::outer against JAX 0.10.2 (tests/golden/layout_goldens.txt, printed by
// tests/golden/layout_goldens.py): values and gradients in f64 (exact: they select or multiply
// once), jaxpr text byte for byte, and bad input.
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
using fj::Tracer;

namespace {

constexpr fusejit_test::Golden kGolden{"layout_goldens.txt"};

using fusejit_test::sin_operand;

// Each case as a function of its first operand (the second, for outer, fixed), and its shape.
using Case = fusejit_test::UnaryCase;
std::map<std::string, Case> cases() {
  const Array b3 = sin_operand({3}, 1), b4 = sin_operand({4}, 1);
  return {
      {"tril", {[](Tracer a) { return Array(fj::tril(a)); }, {3, 4}}},
      {"tril_k1", {[](Tracer a) { return Array(fj::tril(a, 1)); }, {3, 4}}},
      {"tril_km1", {[](Tracer a) { return Array(fj::tril(a, -1)); }, {4, 3}}},
      {"triu", {[](Tracer a) { return Array(fj::triu(a)); }, {3, 4}}},
      {"triu_k2", {[](Tracer a) { return Array(fj::triu(a, 2)); }, {3, 4}}},
      {"triu_batched", {[](Tracer a) { return Array(fj::triu(a, -1)); }, {2, 3, 3}}},
      {"outer", {[b4](Tracer a) { return Array(fj::outer(a, b4)); }, {3}}},
      {"outer_flattens", {[b3](Tracer a) { return Array(fj::outer(a, b3)); }, {2, 2}}},
  };
}

}  // namespace

TEST_CASE("layout golden: values and gradients as JAX's, f64") {
  // outer's gradient sums up to 4 products of magnitude up to 12 (w times b): (n + 1) eps of
  // their magnitudes is 5.3e-14, so 1e-13 relative to max(1, |g|); tril/triu are exact.
  fusejit_test::check_unary_goldens(kGolden, cases(), [](const std::string& name) {
    return name.rfind("outer", 0) == 0 ? 1e-13 : 0.0;
  });
}

TEST_CASE("layout golden: jaxpr text") {
  for (const auto& [name, c] : cases()) {
    CAPTURE(name);
    const bool two = name.rfind("outer", 0) == 0;
    const Array x = fj::ones(c.shape);
    const Array b = fj::ones({name == "outer" ? 4 : 3});
    const std::string text =
        two ? fj::make_jaxpr([](Tracer u, Tracer v) { return Array(fj::outer(u, v)); })(x, b).str()
            : fj::make_jaxpr(c.f)(x).str();
    CHECK(text == kGolden.all().at("jaxpr " + name));
  }
  CHECK(fj::make_jaxpr([](Tracer a) { return Array(fj::tril(a)); })(fj::ones({2, 2}, fj::i32))
            .str() == kGolden.all().at("jaxpr tril_int"));
  CHECK(fj::make_jaxpr([](Tracer u, Tracer v) { return Array(fj::outer(u, v)); })(
            fj::ones({2}, fj::i32), fj::ones({3}))
            .str() == kGolden.all().at("jaxpr outer_mixed"));
}

TEST_CASE("layout golden: tril and triu need two axes") {
  CHECK_THROWS_WITH_AS(
      Array(fj::tril(fj::ones({3}))),
      doctest::Contains("fj::tril: needs an array of rank 2 or more, got shape (3,)"),
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(Array(fj::triu(fj::ones({}))), doctest::Contains("fj::triu"),
                       fj::ShapeError);
}
