// A golden "values" line ("d0 d1 : v0 v1 ...", as tests/golden/golden_print.py prints it) read
// against a result: the table-driven golden tests share this and differ only in their bounds.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "golden_file.hpp"

namespace fusejit_test {

/// A result's entries beside the golden's, as doubles of one length.
struct GoldenValues {
  std::vector<double> got;   ///< the result's entries
  std::vector<double> want;  ///< the golden's entries
};

/// Checks (REQUIRE) that `got` has the shape of the golden `line` and as many entries, and
/// returns both sets of entries for the caller's bound.
inline GoldenValues golden_values(const std::string& line, const fj::Array& got) {
  const std::size_t bar = line.find(" : ");
  REQUIRE(bar != std::string::npos);
  std::vector<std::int64_t> shape;
  for (double d : golden_numbers(line.substr(0, bar)))
    shape.push_back(static_cast<std::int64_t>(d));
  REQUIRE(got.shape() == fj::Shape(shape));
  GoldenValues v{as_doubles(got), golden_numbers(line.substr(bar + 3))};
  REQUIRE(v.got.size() == v.want.size());
  return v;
}

}  // namespace fusejit_test
