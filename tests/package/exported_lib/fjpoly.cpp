// fjpoly's one function: the coefficients are unrolled into the traced kernel.
#include "fjpoly.hpp"

namespace fjpoly {

fj::Array horner(const std::vector<float>& coefficients, const fj::Array& x) {
  auto poly = fj::jit([coefficients](fj::Tracer t) {
    fj::Tracer acc = fj::zeros_like(t);
    for (auto c = coefficients.rbegin(); c != coefficients.rend(); ++c) acc = acc * t + *c;
    return acc;
  });
  return poly(x);
}

}  // namespace fjpoly
