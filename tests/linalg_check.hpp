// What the linear-algebra golden tests share besides golden_file.hpp's golden_input: the
// comparison, each element within a tolerance relative to the largest expected magnitude
// (factorizations and solves are accurate to that scale, not to each entry's own), NaN and
// infinities exactly where JAX gives them.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "golden_file.hpp"
#include "weighted_grad.hpp"

namespace fusejit_test {

/// |got - want| <= rel * max(1, the largest finite |want|), elementwise; NaN where want is NaN,
/// the same infinity where want is infinite.
inline void check_close(const std::vector<double>& got, const std::vector<double>& want,
                        double rel) {
  REQUIRE(got.size() == want.size());
  double scale = 1;
  for (double w : want)
    if (std::isfinite(w)) scale = std::max(scale, std::fabs(w));
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CAPTURE(got[i]);
    CAPTURE(want[i]);
    if (std::isnan(want[i]))
      CHECK(std::isnan(got[i]));
    else if (std::isinf(want[i]))
      CHECK(got[i] == want[i]);
    else
      CHECK(std::fabs(got[i] - want[i]) <= rel * scale);
  }
}

/// A solve f(a, b) against the golden file on the current backend: its values ("values NAME",
/// within `rel` as check_close) and its weighted gradients with respect to a and to b ("grad
/// NAME_a", "grad NAME_b": 1e-10 relative, and against central differences).
inline void check_solve_golden(const Golden& golden,
                               const std::function<fj::Array(fj::Tracer, fj::Tracer)>& f,
                               const fj::Array& a, const fj::Array& b, const std::string& name,
                               double rel) {
  CAPTURE(name);
  const auto [got, want] = golden_values(fj::jit(f)(a, b), golden.lines("values " + name));
  check_close(got, want, rel);
  check_weighted_grad([f, b](fj::Tracer x) { return f(x, b); }, a,
                      golden_numbers(golden.lines("grad " + name + "_a")[0]), {}, 1e-10);
  check_weighted_grad([f, a](fj::Tracer x) { return f(a, x); }, b,
                      golden_numbers(golden.lines("grad " + name + "_b")[0]), {}, 1e-10);
}

}  // namespace fusejit_test
