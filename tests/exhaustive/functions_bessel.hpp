// The exhaustive sweep's entries for bessel_i0e and bessel_i1e (math_bessel.hpp): Cephes'
// Chebyshev series, as XLA evaluates them, against the defining series in long double.
#pragma once
#include <vector>

#include "fusejit/backend/reference/bessel.hpp"
#include "math_fn.hpp"

namespace fusejit_exhaustive {

// The bounds are the series' own error (XLA's and JAX's too, docs/MATH.md), largest next to |x| =
// 8, the end of the first series' range: f32 evaluates the f32 series in f32. Branch points: |x| =
// 8, where the series switch (both sides listed; the sweep adds the negations), and the tiny
// arguments where i1e is x / 2.
inline std::vector<MathFn> bessel_functions() {
  namespace ref = fj::detail::reference;
  return {
      {"bessel_i0e",
       FUSEJIT_EXH_JIT(lax::bessel_i0e),
       [](double x) -> double { return static_cast<double>(ref::bessel_i0e_ld(x)); },
       [](LD x) -> LD { return ref::bessel_i0e_ld(x); },
       8,
       9,
       {8, 0x1p-20},
       {8, 0x1p-40},
       -40,
       40},
      {"bessel_i1e",
       FUSEJIT_EXH_JIT(lax::bessel_i1e),
       [](double x) -> double { return static_cast<double>(ref::bessel_i1e_ld(x)); },
       [](LD x) -> LD { return ref::bessel_i1e_ld(x); },
       14,
       12,
       {8, 0x1p-20},
       {8, 0x1p-40},
       -40,
       40},
  };
}

}  // namespace fusejit_exhaustive
