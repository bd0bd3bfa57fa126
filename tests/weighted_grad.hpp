// The goldens' gradient check: d/dx sum(w * f(x)) with w = 1, 2, ... over f's output (so a
// wrong permutation or index shows), against JAX's numbers and central differences, in f64.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>
#include <fusejit/fusejit.hpp>

#include "backend_compare.hpp"
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

/// Operand k of the goldens' cases: sin(0.37 i + 1.3 k + 0.1), i = 0, 1, ... in row-major order.
inline fj::Array sin_operand(const fj::Shape& s, int k) {
  std::vector<double> v(static_cast<std::size_t>(s.size()));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = std::sin(0.37 * static_cast<double>(i) + 1.3 * k + 0.1);
  return fj::array(v, s);
}

/// A golden case as a function of one operand (sin_operand(shape, 0)).
struct UnaryCase {
  std::function<fj::Array(fj::Tracer)> f;
  fj::Shape shape;
};

/// Each case's values ("values NAME": exact) and weighted gradient ("grad NAME": exact, or
/// within grad_tol(NAME) relative) against the golden file, on every backend.
inline void check_unary_goldens(const Golden& golden, const std::map<std::string, UnaryCase>& cases,
                                const std::function<double(const std::string&)>& grad_tol = {}) {
  for (const std::string& backend : backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const fj::Array x = sin_operand(c.shape, 0);
      const auto [got, want] = golden_values(fj::jit(c.f)(x), golden.lines("values " + name));
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);
      check_weighted_grad(c.f, x, golden_numbers(golden.lines("grad " + name)[0]), {},
                          grad_tol ? grad_tol(name) : 0.0);
    }
  }
}

/// Each case's result shape and values against the golden "shape NAME" line (the shape, " : ",
/// the values), on every backend: for empty operands or results.
inline void check_shape_goldens(const Golden& golden,
                                const std::map<std::string, UnaryCase>& cases) {
  for (const std::string& backend : backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const std::string line = golden.lines("shape " + name)[0];
      const std::size_t colon = line.find(" : ");
      REQUIRE(colon != std::string::npos);
      const auto dims = golden_numbers(line.substr(0, colon));
      const auto want = golden_numbers(line.substr(colon + 3));
      const fj::Array y = fj::jit(c.f)(sin_operand(c.shape, 0));
      REQUIRE(y.shape().rank() == static_cast<int>(dims.size()));
      for (int d = 0; d < y.shape().rank(); ++d)
        CHECK(y.shape()[d] == dims[static_cast<std::size_t>(d)]);
      CHECK(as_doubles(y) == want);
    }
  }
}

}  // namespace fusejit_test
