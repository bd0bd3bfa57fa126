// operator<< for arrays, in JAX's repr: Array([1., 2.], dtype=float32).
#pragma once
#include <ostream>
#include <string>

#include "fusejit/expr/array.hpp"

namespace fj {

/// The array as JAX's repr prints it; a traced array prints as its tracer, JitTracer(float32[3]).
std::string repr(const Array& a);

inline std::ostream& operator<<(std::ostream& os, const Array& a) { return os << repr(a); }

}  // namespace fj
