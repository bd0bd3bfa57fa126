// operator<< for arrays, in JAX's repr: Array([1., 2.], dtype=float32).
#pragma once
#include <ostream>
#include <string>

#include "fusejit/expr/array.hpp"

namespace fj {

/// The array as JAX's repr prints it; a traced array prints as its tracer, JitTracer(float32[3]).
std::string repr(const Array& a);

/// Prints the array in JAX's repr: `std::cout << x` as Python's print(repr(x)).
inline std::ostream& operator<<(std::ostream& os, const Array& a) { return os << repr(a); }

/// Prints a dtype by NumPy's name (`float32`, `int64`, `bool`), as Python's print(x.dtype).
inline std::ostream& operator<<(std::ostream& os, DType d) { return os << long_name(d); }

namespace detail {
/// Prints an expression as the array it evaluates to (`std::cout << x + 1.f`); found by
/// argument-dependent lookup, since the expression nodes live in fj::detail.
template <Expr E>
std::ostream& operator<<(std::ostream& os, const E& e) {
  return os << repr(Array(e));
}
}  // namespace detail

}  // namespace fj
