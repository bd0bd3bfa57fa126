// Softmax and layernorm over the last axis as the benchmarks time them; tests/test_row_fusion.cpp
// checks these same functions fuse into one kernel each, so what is timed is what is tested.
#pragma once
#include <fusejit/fusejit.hpp>

namespace fjbench {

inline constexpr float kLayernormEps = 1e-5f;

// exp(x - max(x)) / sum(...), over axis 1 of a 2-D array.
inline auto softmax = [](fj::Tracer x) {
  fj::Tracer e = fj::exp(x - fj::max(x, {1}, true));
  return e / fj::sum(e, {1}, true);
};

// (x - mean) * rsqrt(var + eps), over axis 1, without the affine parameters.
inline auto layernorm = [](fj::Tracer x) {
  fj::Tracer d = x - fj::mean(x, {1}, true);
  fj::Tracer var = fj::mean(d * d, {1}, true);
  return d * fj::rsqrt(var + kLayernormEps);
};

}  // namespace fjbench
