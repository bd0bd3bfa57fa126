// Definitions of lax.linalg.lu's lowering and of the functions staged on it (implementation
// unit only).
#include "fusejit/expr/lowering_solve.hpp"

namespace fj::detail {

std::vector<Atom> lower_lu(GraphBuilder& b, Atom x, const char* fn) {
  const ir::Aval a = b.aval(x);
  if (a.dtype != DType::f32 && a.dtype != DType::f64)
    throw DTypeError(std::string(fn) + ": argument a must be float32 or float64, got " + a.str());
  if (a.shape.rank() < 2)
    throw ShapeError(std::string(fn) + ": argument a must be a (batch of) matrices (rank >= 2), " +
                     "got an array of shape " + a.shape.str());
  return b.emit(Prim::lu, {x});
}

}  // namespace fj::detail
