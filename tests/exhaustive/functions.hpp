// The functions tests/exhaustive/exhaustive_math.cpp sweeps: each with its jitted kernel, its
// references, docs/MATH.md's ulp bounds and the branch boundaries its IR takes (math_*.hpp).
#pragma once
#include <fusejit/fusejit.hpp>

#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "functions_bessel.hpp"
#include "functions_gamma.hpp"
#include "functions_hyperbolic.hpp"
#include "functions_inverse_trig.hpp"
#include "math_fn.hpp"
#include "reference.hpp"

namespace fusejit_exhaustive {

// Multiples of pi/4 (the quadrant switches at odd ones, the smallest reductions at even ones) up
// to 8 pi/4, a few far multiples of pi/2, the Cody-Waite / Payne-Hanek switch (5e5 / 5e12), and
// the hardest arguments of each format for the reduction (docs/MATH.md).
inline std::vector<double> trig_edges(bool f32) {
  std::vector<double> e{0.0};
  for (int k = 1; k <= 8; ++k) e.push_back(k * 0.78539816339744830962);
  for (double k : {1e3, 1e4, 1e5, 3e5}) e.push_back(k * 1.5707963267948966);
  e.push_back(f32 ? 5e5 : 5e12);
  e.push_back(f32 ? std::ldexp(16367173.0, 72) : std::ldexp(6381956970095103.0, 797));
  e.push_back(f32 ? double(FLT_MAX) : DBL_MAX);
  return e;
}

// Bounds: docs/MATH.md's table (the same as tests/test_llvm_math.cpp's); sqrt is not in it: it is
// llvm.sqrt, IEEE's correctly rounded square root, so 0.5 ulp.
inline std::vector<MathFn> math_functions() {
  const double ln2h = 0.34657359027997264;  // ln2 / 2: exp's and expm1's reduction switches k
  const double ln2 = 0.69314718055994531;
  std::vector<MathFn> fns{
      {"exp",
       FUSEJIT_EXH_JIT(exp),
       FUSEJIT_EXH_REF(std::exp(x), std::exp(x)),
       1.5,
       1.5,
       // inf above 88.8 / 709.9, 0 below -104 / -745.2, overflow, first subnormal, last nonzero
       {0, ln2h, 3 * ln2h, 88.8, -104, 88.72283935546875, -87.336544, -103.972076},
       {0, ln2h, 3 * ln2h, 709.9, -745.2, 709.78271289338397, -708.39641853226408,
        -745.13321910194111},
       -750,
       715},
      {"expm1",
       FUSEJIT_EXH_JIT(expm1),
       FUSEJIT_EXH_REF(std::expm1(x), std::expm1(x)),
       2,
       2,
       // -1 below -88 / -709, inf above 88.8 / 709.9, 2^k capped at the top exponent near 88.7
       {0, ln2h, 3 * ln2h, 88.8, -88, 88.72283935546875, 127.5 * ln2},
       {0, ln2h, 3 * ln2h, 709.9, -709, 709.78271289338397, 1023.5 * ln2},
       -40,
       715},
      {"log",
       FUSEJIT_EXH_JIT(log),
       FUSEJIT_EXH_REF(std::log(x), std::log(x)),
       1,
       1,
       // 1, the significand's switch at sqrt2/2 and sqrt2, the subnormal rescaling at FLT_MIN
       {0, 1, 0.70710678118654752, 1.4142135623730951, double(FLT_MIN), 2, 0.5},
       {0, 1, 0.70710678118654752, 1.4142135623730951, DBL_MIN, 2, 0.5},
       0,
       4},
      {"log1p",
       FUSEJIT_EXH_JIT(log1p),
       FUSEJIT_EXH_REF(std::log1p(x), std::log1p(x)),
       1,
       1,
       {0, -1, 0.41421356237309505, -0.29289321881345248, 1},
       {0, -1, 0.41421356237309505, -0.29289321881345248, 1},
       -1,
       4},
      {"sin", FUSEJIT_EXH_JIT(sin), FUSEJIT_EXH_REF(std::sin(x), std::sin(x)), 2, 2,
       trig_edges(true), trig_edges(false), -1e3, 1e3},
      {"cos", FUSEJIT_EXH_JIT(cos), FUSEJIT_EXH_REF(std::cos(x), std::cos(x)), 2, 2,
       trig_edges(true), trig_edges(false), -1e3, 1e3},
      {"tan", FUSEJIT_EXH_JIT(tan), FUSEJIT_EXH_REF(std::tan(x), std::tan(x)), 3.5, 3.5,
       trig_edges(true), trig_edges(false), -1e3, 1e3},
      {"tanh",
       FUSEJIT_EXH_JIT(tanh),
       FUSEJIT_EXH_REF(std::tanh(x), std::tanh(x)),
       1.5,
       1.5,
       // the polynomial / 1 - 2/(expm1(2x) + 2) switch, where the result rounds to 1 in T
       // ((n+1) ln2 / 2 for n significand bits), where expm1(2x) overflows
       {0, 0.625, 25 * ln2 / 2, 88.72283935546875 / 2},
       {0, 0.625, 54 * ln2 / 2, 709.78271289338397 / 2},
       -20,
       20},
      {"sqrt",
       FUSEJIT_EXH_JIT(sqrt),
       FUSEJIT_EXH_REF(std::sqrt(x), std::sqrt(x)),
       0.5,
       0.5,
       {0, double(FLT_MIN), 1},
       {0, DBL_MIN, 1},
       0,
       10},
      {"rsqrt",
       FUSEJIT_EXH_JIT(rsqrt),
       FUSEJIT_EXH_REF(1 / std::sqrt(x), 1 / std::sqrt(x)),
       2,
       2,
       {0, double(FLT_MIN), 1, double(FLT_MAX)},
       {0, DBL_MIN, 1, DBL_MAX},
       0,
       10},
      {"logistic",
       FUSEJIT_EXH_JIT(logistic),
       FUSEJIT_EXH_REF(logistic_ref(x), logistic_ref(x)),
       3,
       3,
       // x >= 0 / x < 0 forms, and exp(-|x|)'s zero and subnormal edges
       {0, 88.8, 104, 87.336544, 103.972076},
       {0, 709.9, 745.2, 708.39641853226408, 745.13321910194111},
       -20,
       20},
      {"erf",
       FUSEJIT_EXH_JIT(erf),
       FUSEJIT_EXH_REF(std::erf(x), std::erf(x)),
       1.5,
       1.5,
       // polynomial / 1 - exp(..) at 1, saturation at 3.92 / 5.93, the f64 tail's pieces at 2, 4
       {0, 1, 3.92},
       {0, 1, 2, 4, 5.93},
       -7,
       7},
      {"erf_inv",
       FUSEJIT_EXH_JIT(erf_inv),
       FUSEJIT_EXH_REF(erf_inv_ref<double>(x, FLT_MAX), erf_inv_ref<LD>(x, DBL_MAX)),
       // f32: XLA's ErfInv32 bit for bit, whose own error peaks at 64.7 ulp (docs/MATH.md);
       // f64: our four pieces, 2.19 ulp measured on a scan of [0.5, 1).
       65,
       3,
       // +-1 (the +-max edge), w = -log1p(-x^2) = 5 (the polynomials' switch), XLA's f32 log1p
       // switch at |x^2| = sqrt2 - 1, log1p's own switches for f64
       {0, 1, 0.99662900101389617, 0.64359425290558262},
       {0, 1, 0.99662900101389617, 0.54119610014619698},
       -1,
       1},
  };
  // Each group's functions live in a header of their own (functions_*.hpp).
  for (auto group :
       {inverse_trig_functions(), hyperbolic_functions(), gamma_functions(), bessel_functions()})
    for (auto& f : group) fns.push_back(std::move(f));
  return fns;
}

#undef FUSEJIT_EXH_JIT
#undef FUSEJIT_EXH_REF

}  // namespace fusejit_exhaustive
