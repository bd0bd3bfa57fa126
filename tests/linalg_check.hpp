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
#include <string>
#include <vector>

#include "golden_file.hpp"

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

}  // namespace fusejit_test
