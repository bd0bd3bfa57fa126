// The seed tutorial's functions in C++, shared by the golden tests and examples/tour.
#pragma once
#include <fusejit/fusejit.hpp>
#include <iostream>

namespace fusejit_seeds {

inline fj::Array log2(const fj::Tracer& x) {
  fj::Tracer ln_x = fj::log(x);
  fj::Tracer ln_2 = fj::log(2.0);
  return ln_x / ln_2;
}

/// Prints only while tracing: the print is a side effect of the C++ code, not of the graph.
inline fj::Array log2_with_print(const fj::Tracer& x) {
  std::cout << "printed x: " << x << "\n";
  return log2(x);
}

/// Python's `if x.ndim == 2` is on static information, so it is plain C++ here too.
inline fj::Array log2_if_rank_2(const fj::Tracer& x) {
  if (x.ndim() == 2) return log2(x);
  return x;
}

inline fj::Array selu(const fj::Tracer& x, float alpha = 1.67f, float lambda = 1.05f) {
  return lambda * fj::where(x > 0, x, alpha * fj::exp(x) - alpha);
}

inline fj::Array many_adds(fj::Tracer x) {
  for (int i = 0; i < 30; ++i) x = x + 1.0;
  return x;
}

}  // namespace fusejit_seeds
