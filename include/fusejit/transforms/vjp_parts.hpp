// The parts of reverse mode that transforms/vjp.cpp and transforms/linearize_call.cpp share:
// vjp_impl's layout and linear mode, the residual order, and the linearization of a custom
// call whose rule computes its results (implementation detail).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "fusejit/transforms/emit.hpp"

namespace fj::transforms::vjp_detail {

// Where vjp_impl put the equations: the forward part first (`forward_eqns` of them), then for
// each later equation the index of g's equation whose rule emitted it (g's size: the zeros of
// the inputs no cotangent reached).
struct VjpLayout {
  std::size_t forward_eqns = 0;
  std::vector<std::size_t> emitted_for;
  // (g's equation, value) pairs: forward values JAX's linearized program reads for that
  // equation that the direct rule does not (select_n's zeros), residuals all the same.
  std::vector<std::pair<std::size_t, Atom>> linear_reads;
  // g's equation -> the forward values its backward part reads, in the order JAX's linearized
  // program reads them, where that is not the order the backward part reads them (a custom
  // call's, linearized from its rule).
  std::map<std::size_t, std::vector<Atom>> ordered_reads;
};

// `linear`: the wanted inputs are tangents, unknown in the forward pass (JAX's linearize of a
// custom call's rule): a nested jit's forward part then takes only its known operands.
ir::Graph vjp_impl(const ir::Graph& g, const std::vector<bool>& wrt,
                   const std::vector<bool>& has_ct, VjpLayout* layout, bool linear = false);

// Raised in linear mode where the backward part would read a value a tangent reaches (a rule
// that is not linear in its tangents as staged): the caller transposes the rule's graph whole.
struct NotLinear {};

// Linear mode: which of v's forward equations a tangent (a wanted input) reaches, to be left
// out of the forward part, and which values they (and the tangents) are; NotLinear if the
// backward part reads one of them.
struct TangentMarks {
  std::vector<char> eqns, values;
};
TangentMarks tangent_marks(const ir::Graph& v, std::size_t forward_eqns,
                           const std::vector<bool>& wrt);

// The forward values v's backward part reads (its residuals), in the order JAX's linearized
// program first reads them (defined in vjp.cpp).
std::vector<Atom> residual_order(const ir::Graph& sub, const ir::Graph& v, const VjpLayout& lay);

// A custom_jvp_call whose rule computes its results (JAX's defjvp form), linearized as JAX
// linearizes it: vjp_impl of the rule's graph with respect to its tangent inputs, whose forward
// part (the rule's equations no tangent reaches: the results and what the tangents read) runs
// where the call was, and whose backward part runs where the call's cotangents are known.
struct LinearizedCall {
  ir::Graph v;  // vjp_impl of (operands, tangents) -> (results, tangents)
  std::size_t forward_eqns = 0;
  std::vector<MaybeAtom> env;  // v's forward values as the outer graph's atoms
  std::vector<bool> wrt, has_ct;
  std::vector<Atom> results, residuals;
};

// The forward part of custom call e of graph g (operands `in`; cotangents flow into the
// operands `wrt_in` from the results `ct_out`), emitted into E's graph; nullopt for a rule given
// the results, or one whose backward part would read a tangent (vjp_custom_call then transposes
// the rule's graph whole).
std::optional<LinearizedCall> linearize_call(Emit& E, const ir::Graph& g, const ir::Eqn& e,
                                             const std::vector<Atom>& in,
                                             const std::vector<bool>& wrt_in,
                                             const std::vector<bool>& ct_out);

// The backward part of a linearized call: the operands' cotangents (nullopt: none) given the
// results' (`cts`, of avals `outs`).
std::vector<MaybeAtom> transpose_call(Emit& E, LinearizedCall& c, const std::vector<MaybeAtom>& cts,
                                      const std::vector<Aval>& outs);

}  // namespace fj::transforms::vjp_detail
