// The inputs tests/golden/index_goldens.py indexes (x, u, the index arrays), shared by
// test_index_golden.cpp and test_index_tuple_golden.cpp, and the values check both run.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fusejit/fusejit.hpp>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "weighted_grad.hpp"

namespace index_golden {

using fj::Array;
using fj::Tracer;

inline constexpr fusejit_test::Golden kGolden{"index_goldens.txt"};

inline Array ivec(std::vector<std::int32_t> v, fj::Shape s) { return fj::array(v, s); }
/// n values from, from + step, ... in shape s (f64).
inline Array steps(int n, double step, double from, fj::Shape s) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(k * step + from);
  return fj::array(v, s);
}
inline Array x() { return steps(15, 1.5, -4.0, {5, 3}); }
inline Array u() { return steps(15, 1.0, 0.0, {5, 3}); }
inline Array i() { return ivec({0, -1, 2, 2, 4}, {5}); }  // a negative and a repeated index
inline Array k() { return ivec({2, 0, -1}, {3}); }
inline Array oob() { return ivec({0, 7, -8, 3}, {4}); }  // out of range both ways
inline Array along() { return ivec({4, 0, 1, 2, -2, 0}, {2, 3}); }
inline Array ints() { return ivec({3, -1, 2, 0, 1, 4, -2, 7, 5, 6, 6, 1, 0, 9, -4}, {5, 3}); }

/// One values case: f(input(), index()) against the section "values <name>".
using Fn = std::function<Array(Tracer, Tracer)>;
struct Case {
  Fn f;
  Array (*input)();
  Array (*index)();
};

/// Each case's values against its section, bit for bit (NaN where JAX has NaN), on each backend.
inline void check_value_cases(const std::map<std::string, Case>& cases) {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    fusejit_test::BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto [got, want] = fusejit_test::golden_values(fj::jit(c.f)(c.input(), c.index()),
                                                           kGolden.lines("values " + name));
      for (std::size_t n = 0; n < got.size(); ++n) {
        CAPTURE(n);
        if (std::isnan(want[n]))
          CHECK(std::isnan(got[n]));
        else
          CHECK(got[n] == want[n]);
      }
    }
  }
}

/// d/dx sum(w * f(x)) of each case against its section "grad <name>" (JAX's, and central
/// differences), on each backend.
using GradCases = std::map<std::string, std::pair<std::function<Array(Tracer)>, Array>>;
inline void check_grad_cases(const GradCases& fns) {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    fusejit_test::BackendScope scope(backend.c_str());
    for (const auto& [name, fa] : fns) {
      CAPTURE(backend);
      CAPTURE(name);
      fusejit_test::check_weighted_grad(
          fa.first, fa.second, fusejit_test::golden_numbers(kGolden.lines("grad " + name)[0]));
    }
  }
}

/// make_jaxpr(f)(input, index) of each case against its section "jaxpr <name>", byte for byte.
using TextCases = std::map<std::string, std::tuple<Fn, Array, Array>>;
inline void check_text_cases(const TextCases& fns) {
  std::map<std::string, std::function<std::string()>> texts;
  for (const auto& [name, c] : fns)
    texts[name] = [&c] {
      const auto& [f, v, t] = c;
      return fj::make_jaxpr(f)(v, t).str();
    };
  fusejit_test::check_jaxpr_texts(kGolden, texts);
}

}  // namespace index_golden
