// The exhaustive sweep's entries for erfc, lgamma, digamma (math_erfc.hpp, math_gamma.hpp) and
// polygamma of orders 1 and 2 (math_polygamma.hpp).
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "digamma_ref.hpp"
#include "fusejit/backend/reference/polygamma.hpp"
#include "math_fn.hpp"

namespace fusejit_exhaustive {

// lgamma and digamma: f32 on every argument, f64 on x >= 0 only (the f64 kernel makes negative
// lanes NaN, and so does the f64 reference). Next to the negative zeros the reflection formula's
// error is absolute (docs/MATH.md, "erfc, lgamma, digamma"), so no ulp bound holds there in f64;
// tests/test_math_gamma.cpp checks negative f64 arguments with an absolute tolerance. f32 runs in
// f64 inside, which keeps it within an ulp there too.
#define FUSEJIT_EXH_JIT_NONNEG64(op)                                                 \
  [f32 = fj::jit([](fj::Tracer x) { return fj::op(x); }),                            \
   f64 = fj::jit([](fj::Tracer x) {                                                  \
     return fj::where(x < 0.0, std::numeric_limits<double>::quiet_NaN(), fj::op(x)); \
   })](const fj::Array& a) mutable -> fj::Array { return a.dtype() == fj::f64 ? f64(a) : f32(a); }

inline LD lgamma_nonneg(LD x) {
  int sign = 0;
  return x < 0 ? std::numeric_limits<LD>::quiet_NaN() : ::lgammal_r(x, &sign);
}

// polygamma(m, x) on x >= 0 in both formats: below 0 the Hurwitz zeta sum that XLA and fusejit
// use loses accuracy (docs/MATH.md, "polygamma"), and the reference, the same sum in long double
// (its truncation below 1e-20 relative for x >= 0, checked against mpmath), shares that error.
#define FUSEJIT_EXH_JIT_POLYGAMMA(m)                                     \
  [f = fj::jit([](fj::Tracer x) {                                        \
     return fj::where(x < 0.0, std::numeric_limits<double>::quiet_NaN(), \
                      fj::lax::polygamma(fj::full_like(x, m), x));       \
   })](const fj::Array& a) mutable -> fj::Array { return f(a); }
template <int m>
LD polygamma_nonneg(LD x) {
  return x < 0 ? std::numeric_limits<LD>::quiet_NaN() : fj::detail::reference::polygamma_ld(m, x);
}
template <int m>
double polygamma_nonneg32(double x) {
  return static_cast<double>(polygamma_nonneg<m>(x));
}
// polygamma of order m on (0, 50]: 1 ulp in f32 (f64 inside), 8 in f64 (docs/MATH.md).
template <int m>
MathFn polygamma_entry(std::vector<double> edges32, std::vector<double> edges64) {
  return {"polygamma" + std::to_string(m),
          FUSEJIT_EXH_JIT_POLYGAMMA(m),
          polygamma_nonneg32<m>,
          polygamma_nonneg<m>,
          1,
          8,
          std::move(edges32),
          std::move(edges64),
          0,
          50};
}

inline std::vector<MathFn> gamma_functions() {
  const double root = 1.4616321449683623;  // digamma's positive root
  return {
      {"erfc",
       FUSEJIT_EXH_JIT(erfc),
       FUSEJIT_EXH_REF(std::erfc(x), std::erfc(x)),
       1,
       2.5,
       // 1 - erf below 0.5, erfcx's pieces at 1, 2, 4; the first subnormal results (f32 9.19,
       // f64 26.55), the last nonzero ones (10.05, 27.22) and the explicit 0 past 27.3
       {0.5, 1, 2, 4, 9.194, 10.05, 27.3},
       {0.5, 1, 2, 4, 26.55, 27.22, 27.3},
       -6,
       27.5},
      {"lgamma",
       FUSEJIT_EXH_JIT_NONNEG64(lgamma),
       [](double x) -> double {
         int sign = 0;
         return ::lgamma_r(x, &sign);
       },
       [](LD x) -> LD { return lgamma_nonneg(x); },
       1,
       2,
       // the pieces (0.7, 1.25, 1.75, 2.5, 5, 10, Stirling's large-x form at 2^60), the zeros at 1
       // and 2, the reflection below -0.3, the first negative zeros, the overflow (f32 4.08e36, f64
       // 2.55e305)
       {0.7, 1, 1.25, 1.75, 2, 2.5, 5, 10, 0.3, 2.4570247, 2.7476826, 4.08e36},
       {0, 0.7, 1, 1.25, 1.75, 2, 2.5, 5, 10, 0x1p60, 2.55e305},
       0,
       20},
      {"digamma",
       FUSEJIT_EXH_JIT_NONNEG64(digamma),
       [](double x) -> double { return digamma_ref(x); },
       [](LD x) -> LD { return x < 0 ? std::numeric_limits<LD>::quiet_NaN() : digamma_ref(x); },
       1,
       2,
       // the pieces (1, 2.5, 5, 10), the positive root, -1/x alone below 2^-60, the first
       // negative zero
       {1, 2.5, 5, 10, root, 0x1p-60, 0.5040830},
       {0, 1, 2.5, 5, 10, root, 0x1p-60},
       0,
       20},
      // No branches but the poles at 0 and the overflow of x^-(m+1) next to it.
      polygamma_entry<1>({0x1p-64, 1, 10}, {0x1p-511, 1, 10}),
      polygamma_entry<2>({0x1p-42, 1, 10}, {0x1p-340, 1, 10}),
  };
}

#undef FUSEJIT_EXH_JIT_NONNEG64
#undef FUSEJIT_EXH_JIT_POLYGAMMA

}  // namespace fusejit_exhaustive
