// The exhaustive sweep's entries for sinh, cosh, asinh, acosh, atanh, cbrt, exp2
// (math_hyperbolic.hpp).
#pragma once
#include <cfloat>
#include <cmath>
#include <vector>

#include "math_fn.hpp"

namespace fusejit_exhaustive {

inline std::vector<MathFn> hyperbolic_functions() {
  const double ln2h = 0.34657359027997264;  // ln2 / 2: where exp's reduction switches k
  return {
      {"sinh",
       FUSEJIT_EXH_JIT(sinh),
       FUSEJIT_EXH_REF(std::sinh(x), std::sinh(x)),
       1.5,
       1.5,
       // polynomial / e^|x|/2 switch at 1, exp's k switches, sinh's overflow (ln(2 MAX)), the
       // argument's clamp
       {0, 1, ln2h, 3 * ln2h, 89.415986232628299, 90},
       {0, 1, ln2h, 3 * ln2h, 710.47586007394394, 711},
       -715,
       715},
      {"cosh",
       FUSEJIT_EXH_JIT(cosh),
       FUSEJIT_EXH_REF(std::cosh(x), std::cosh(x)),
       1.5,
       1.5,
       {0, ln2h, 3 * ln2h, 89.415986232628299, 90},
       {0, ln2h, 3 * ln2h, 710.47586007394394, 711},
       -715,
       715},
      {"asinh",
       FUSEJIT_EXH_JIT(arcsinh),
       FUSEJIT_EXH_REF(std::asinh(x), std::asinh(x)),
       1,
       1,
       // series below 2^-10 / 2^-20, log(2|x|) from 2^12 / 2^28, where 1 + x^2 passes 2
       {0, 0x1p-10, 0x1p12, 1},
       {0, 0x1p-20, 0x1p28, 1},
       -20,
       20},
      {"acosh",
       FUSEJIT_EXH_JIT(arccosh),
       FUSEJIT_EXH_REF(std::acosh(x), std::acosh(x)),
       1,
       1,
       // NaN below 1, log(2x) from 2^12 / 2^28, t = x - 1 passing 1
       {1, 2, 0x1p12},
       {1, 2, 0x1p28},
       1,
       20},
      {"atanh",
       FUSEJIT_EXH_JIT(arctanh),
       FUSEJIT_EXH_REF(std::atanh(x), std::atanh(x)),
       1,
       1,
       // series below 2^-10 / 2^-20, +-inf at +-1 and NaN beyond, 2|x|/(1-|x|) = 1 at 1/3
       {0, 0x1p-10, 1, 1.0 / 3},
       {0, 0x1p-20, 1, 1.0 / 3},
       -1,
       1},
      {"cbrt",
       FUSEJIT_EXH_JIT(cbrt),
       FUSEJIT_EXH_REF(std::cbrt(x), std::cbrt(x)),
       1,
       1,
       // the exponent's residue mod 3 switching (1, 2, 4, 8), subnormals (f64: scaled by 2^54)
       {0, 1, 2, 4, 8, double(FLT_MIN)},
       {0, 1, 2, 4, 8, DBL_MIN},
       -10,
       10},
      {"exp2",
       FUSEJIT_EXH_JIT(exp2),
       FUSEJIT_EXH_REF(std::exp2(x), std::exp2(x)),
       1.5,
       1.5,
       // k's switch at 1/2, overflow at 128 / 1024, the first subnormal results, the last
       // nonzero one, the clamps
       {0, 0.5, 128, -126, -149, -150, 129, -152},
       {0, 0.5, 1024, -1022, -1074, -1075, 1025, -1080},
       -1080,
       1030},
  };
}

}  // namespace fusejit_exhaustive
