// Which primitives and equations of a fuzzed graph both backends must compute bit for bit (the
// generator's exact programs, check.hpp's whole-program comparison).
#pragma once
#include <fusejit/fusejit.hpp>

namespace fusejit_fuzz {

namespace ir = fj::ir;

/// Primitives whose results are exactly specified: no rounding beyond IEEE conversions.
inline bool is_exact(ir::Prim p) {
  using P = ir::Prim;
  switch (ir::info(p).kind) {
    case ir::PrimKind::compare:
    case ir::PrimKind::logical:
    case ir::PrimKind::select:
    case ir::PrimKind::convert:
    case ir::PrimKind::shape:
    case ir::PrimKind::index_map:
    case ir::PrimKind::generator:
      return true;
    default:
      break;
  }
  switch (p) {
    case P::neg:
    case P::abs:
    case P::sign:
    case P::floor:
    case P::ceil:
    case P::round:
    case P::stop_gradient:
    case P::copy:
    case P::max:
    case P::min:
    case P::shift_left:
    case P::shift_right_arithmetic:
    case P::shift_right_logical:
    case P::reduce_max:
    case P::reduce_min:
    case P::reduce_and:
    case P::reduce_or:
    case P::argmax:
    case P::argmin:
    case P::concatenate:
    case P::stack:
    case P::split:
    case P::dynamic_slice:
    case P::dynamic_update_slice:
    case P::pad:
    case P::tile:
      return true;
    default:
      return false;
  }
}

/// Whether equation `e` of `g` is exact: an exact primitive, or one on integer operands giving
/// integer results (wrapping integer arithmetic is exact; float-only primitives convert to f32).
/// Control equations (and custom_jvp_call, which runs its call_jaxpr) are exact when their
/// sub-graphs are.
inline bool is_exact(const ir::Graph& g, const ir::Eqn& e) {
  if (ir::is_lax_control(e.prim) || e.prim == ir::Prim::custom_jvp_call) {
    bool exact = true;
    ir::for_each_subgraph(e.params, [&](const ir::Graph& sub) {
      for (auto& se : sub.eqns) exact = exact && is_exact(sub, se);
    });
    return exact;
  }
  if (is_exact(e.prim)) return true;
  if (ir::is_float_only(e.prim)) return false;
  for (const ir::Atom& a : e.in)
    if (fj::is_float(g.aval(a).dtype)) return false;
  for (ir::VarId v : e.out)
    if (fj::is_float(g.aval(v).dtype)) return false;
  return true;
}

}  // namespace fusejit_fuzz
