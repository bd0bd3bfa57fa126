// A golden "values" line ("d0 d1 : v0 v1 ...", as tests/golden/golden_print.py prints it) read
// against a result: the table-driven golden tests share this and differ only in their bounds.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
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

/// Each entry of `g.got` against `g.want`: bit for bit (NaN matching NaN; with `signed_zeros` a
/// zero's sign too) where `ulps` is 0 or the golden entry is not finite, else within `ulps` f64
/// ulps of the golden's largest finite entry (a bound for sums and products whose rounding is
/// relative to the largest term, not to each small result).
inline void check_to_largest(const GoldenValues& g, double ulps, bool signed_zeros = false) {
  double scale = 0;
  for (double x : g.want)
    if (std::isfinite(x)) scale = std::max(scale, std::abs(x));
  for (std::size_t i = 0; i < g.got.size(); ++i) {
    const double v = g.got[i], w = g.want[i];
    CAPTURE(i);
    CAPTURE(v);
    CAPTURE(w);
    if (ulps == 0 || !std::isfinite(w))
      CHECK(((v == w && (!signed_zeros || std::signbit(v) == std::signbit(w))) ||
             (std::isnan(v) && std::isnan(w))));
    else
      CHECK(std::abs(v - w) <= ulps * 0x1p-52 * scale);
  }
}

/// f once on each backend of backends_to_test(), the backend's name captured; f takes the name
/// when it needs it (f(name)), else nothing.
template <class F>
void on_each_backend(F&& f) {
  for (const std::string& backend : backends_to_test()) {
    CAPTURE(backend);
    const BackendScope scope(backend.c_str());
    if constexpr (std::is_invocable_v<F&, const std::string&>)
      f(backend);
    else
      f();
  }
}

}  // namespace fusejit_test
