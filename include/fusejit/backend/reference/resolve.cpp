// resolve(): one case per primitive, over the reference kernels of kernels.hpp.
#include "fusejit/backend/reference/resolve.hpp"

#include "fusejit/backend/reference/kernels.hpp"

namespace fj::detail::reference {

/// One case per row of primitives.def: a row without a functor in ops:: fails to compile.
EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
  const ir::PrimInfo& pi = ir::info(e.prim);
  if ((pi.arity >= 0 && static_cast<int>(e.in.size()) != pi.arity) ||
      (ir::num_results(e.prim) >= 0 && static_cast<int>(e.out.size()) != ir::num_results(e.prim)))
    throw ValueError("reference backend: " + std::string(pi.name) + " with " +
                     std::to_string(e.in.size()) + " operands and " + std::to_string(e.out.size()) +
                     " outputs");
  switch (e.prim) {
// Parameter names must not collide with the tokens in the body (ops::id::arity).
#define FUSEJIT_PRIMITIVE(id, printed, n_in, kind, flags)                                  \
  case ir::Prim::id:                                                                       \
    static_assert(ops::id::arity == (n_in), "ops::" #id " disagrees with primitives.def"); \
    return resolve_kind<ir::PrimKind::kind, ops::id>(g, e);
#include "fusejit/ir/primitives.def"
#undef FUSEJIT_PRIMITIVE
  }
  throw ValueError("reference backend: unknown primitive " +
                   std::to_string(static_cast<int>(e.prim)));
}

namespace {
template <class Op>
bool op_reads_splat(int operand) {
  if constexpr (requires { Op::reads_splat(0); })
    return Op::reads_splat(operand);
  else
    return false;
}
}  // namespace

bool reads_splat(ir::Prim p, int operand) {
  switch (p) {
#define FUSEJIT_PRIMITIVE(id, printed, n_in, kind, flags) \
  case ir::Prim::id:                                      \
    return op_reads_splat<ops::id>(operand);
#include "fusejit/ir/primitives.def"
#undef FUSEJIT_PRIMITIVE
  }
  return false;
}

}  // namespace fj::detail::reference
