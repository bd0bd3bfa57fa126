// lax.linalg.lu and the functions JAX builds on it (defined in lowering_solve.cpp), staged as
// JAX 0.10.2 stages them.
#pragma once
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// lax.linalg.lu: one `lu` equation (results: lu, i32 pivots, i32 permutation). `fn` names the
/// caller in errors: a float32 / float64 array of rank >= 2.
std::vector<Atom> lower_lu(GraphBuilder& b, Atom x, const char* fn);

}  // namespace fj::detail
