// The goldens' gradient check: d/dx sum(w * f(x)) with w = 1, 2, ... over f's output (so a
// wrong permutation or index shows), against JAX's numbers and central differences, in f64.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>
#include <fusejit/fusejit.hpp>

#include "golden_file.hpp"

namespace fusejit_test {

/// `want` must equal the gradient exactly (the goldens' functions move or add a few small
/// integers' worth of weights) or, with `tol` > 0, within tol * max(1, |want|) where the gradient
/// sums products whose rounding depends on the order; central differences (h = 1e-6, f piecewise
/// linear away from ties) must agree to 1e-6 relative, except at the inputs `skip` names (ties,
/// kinks).
inline void check_weighted_grad(const std::function<fj::Array(fj::Tracer)>& f, const fj::Array& x,
                                const std::vector<double>& want,
                                const std::function<bool(std::size_t)>& skip = {}, double tol = 0) {
  const fj::Array y = fj::jit(f)(x);
  std::vector<double> wv(static_cast<std::size_t>(y.size()));
  for (std::size_t n = 0; n < wv.size(); ++n) wv[n] = 1.0 + static_cast<double>(n);
  const fj::Array w = fj::array(wv, y.shape());
  auto loss = [f, w](fj::Tracer v) { return fj::sum(w * f(v)); };
  const auto g = as_doubles(fj::jit(fj::grad(loss))(x));
  REQUIRE(g.size() == want.size());
  const auto xs = as_doubles(x);
  for (std::size_t n = 0; n < g.size(); ++n) {
    CAPTURE(n);
    if (tol == 0)
      CHECK(g[n] == want[n]);
    else
      CHECK(std::fabs(g[n] - want[n]) <= tol * std::max(1.0, std::fabs(want[n])));
    if (skip && skip(n)) continue;
    auto at = [&](double d) {
      std::vector<double> v = xs;
      v[n] += d;
      return fj::jit(loss)(fj::array(v, x.shape())).item<double>();
    };
    CHECK(std::fabs((at(1e-6) - at(-1e-6)) / 2e-6 - g[n]) <= 1e-6 * std::max(1.0, std::fabs(g[n])));
  }
}

}  // namespace fusejit_test
