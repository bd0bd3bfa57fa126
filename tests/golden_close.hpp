// Checking an f64 result against a JAX golden within a number of ulps of the golden's largest
// entry: the bound of results that are short sums of products of transcendentals, which two
// libraries round alike to an ulp each but may associate differently.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>

#include "golden_file.hpp"

namespace fusejit_test {

/// Each entry of `got` within `ulps` f64 ulps of max(`floor`, the largest |entry| of the golden
/// section `section` of `g`); `floor` bounds entries that are differences of larger terms.
inline void check_close_to_golden(const Golden& g, const fj::Array& got, const std::string& section,
                                  double ulps, double floor = 0) {
  CAPTURE(section);
  const auto [v, w] = golden_values(got, g.lines(section));
  double scale = floor;
  for (double x : w) scale = std::max(scale, std::abs(x));
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(v[i] - w[i]) <= ulps * 0x1p-52 * scale);
  }
}

}  // namespace fusejit_test
