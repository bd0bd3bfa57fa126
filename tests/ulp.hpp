// The spacing of a float format's values at a magnitude: the unit of the tests' ulp errors.
#pragma once
#include <cmath>
#include <limits>

namespace fusejit_test {

/// The spacing of T's values at |v| (the subnormal spacing below T's normals), in long double.
template <class T>
long double ulp_at(long double v) {
  const long double a = std::fabs(v);
  if (a < static_cast<long double>(std::numeric_limits<T>::min()))
    return static_cast<long double>(std::numeric_limits<T>::denorm_min());
  int e = 0;
  (void)std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1)
  return std::ldexp(1.0L, e - std::numeric_limits<T>::digits);
}

}  // namespace fusejit_test
