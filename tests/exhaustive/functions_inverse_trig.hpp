// The exhaustive sweep's entries for asin, acos, atan (math_inverse_trig.hpp); atan2 is binary and
// has its own grid test (tests/test_math_atan2.cpp).
#pragma once
#include <cfloat>
#include <cmath>
#include <vector>

#include "math_fn.hpp"

namespace fusejit_exhaustive {

inline std::vector<MathFn> inverse_trig_functions() {
  return {
      {"asin",
       FUSEJIT_EXH_JIT(asin),
       FUSEJIT_EXH_REF(std::asin(x), std::asin(x)),
       1,
       1,
       // the polynomial / pi/2 - 2 asin(sqrt((1 - |x|)/2)) switch at 1/2, the domain's end at 1
       {0, 0.5, 1},
       {0, 0.5, 1},
       -1,
       1},
      {"acos",
       FUSEJIT_EXH_JIT(acos),
       FUSEJIT_EXH_REF(std::acos(x), std::acos(x)),
       1,
       1,
       // as asin; the sweep adds -1/2 and -1 (pi - 2 asin s)
       {0, 0.5, 1},
       {0, 0.5, 1},
       -1,
       1},
      {"atan",
       FUSEJIT_EXH_JIT(atan),
       FUSEJIT_EXH_REF(std::atan(x), std::atan(x)),
       1.5,
       1.5,
       // the 1/|x| reduction at 1; 1/|x| subnormal above 2^126 / 2^1022; the largest finite value
       {0, 1, 0x1p126, double(FLT_MAX)},
       {0, 1, 0x1p1022, DBL_MAX},
       -20,
       20},
  };
}

}  // namespace fusejit_exhaustive
