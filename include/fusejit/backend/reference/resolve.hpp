// The reference backend's kernel for one equation, by primitive and dtypes: the interpreter runs
// them, and the LLVM backend runs library equations (dot_general, concatenate, ...) with them.
#pragma once
#include "fusejit/backend/backend.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::detail::reference {

/// Runs one equation: reads `in` (one Value per operand) and fills the preallocated `out`.
using EqnFn = void (*)(const ir::Eqn& eqn, const backend::Value* in, backend::Value* out);

/// The kernel for eqn e of graph g (checked against its avals); nullptr for a sub-graph call,
/// which the caller runs itself.
EqnFn resolve(const ir::Graph& g, const ir::Eqn& e);

/// Whether p's routine reads operand `operand` through a splat Value (one element standing for
/// every index) when it is given one: an op's `reads_splat(operand)`, false where it has none.
bool reads_splat(ir::Prim p, int operand);

}  // namespace fj::detail::reference
