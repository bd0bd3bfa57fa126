// One swept function of tests/exhaustive/exhaustive_math.cpp: its jitted kernel, its references,
// docs/MATH.md's ulp bounds and the branch boundaries its IR takes (math_*.hpp).
#pragma once
#include <fusejit/fusejit.hpp>

#include <functional>
#include <string>
#include <vector>

#include "reference.hpp"

namespace fusejit_exhaustive {

struct MathFn {
  std::string name;
  std::function<fj::Array(const fj::Array&)> run;  // fj::jit of the one primitive
  double (*ref32)(double);                         // reference for f32 inputs
  LD (*ref64)(LD);                                 // reference for f64 inputs
  double bound32, bound64;                         // docs/MATH.md's "bound f32 / f64"
  // Where the IR switches branches, clamps or saturates (positive and negative values are both
  // listed where the code is not symmetric; the sweep adds each value's negation too).
  std::vector<double> edges32, edges64;
  double lo, hi;  // the f64 sample's uniform interval: where the function is not constant
};

}  // namespace fusejit_exhaustive

// fj::jit of one primitive, and a pair of references (f32 inputs in double, f64 in long double).
#define FUSEJIT_EXH_JIT(op)                                                                        \
  [f = fj::jit([](fj::Tracer x) { return fj::op(x); })](const fj::Array& a) mutable -> fj::Array { \
    return f(a);                                                                                   \
  }
#define FUSEJIT_EXH_REF(expr32, expr64) \
  [](double x) -> double { return expr32; }, [](LD x) -> LD { return expr64; }
