// The transformations as IR -> IR passes: forward mode (jvp), reverse mode (vjp) and batching
// (vmap), each one rule per primitive. They take flattened graphs (no constvars: closed-over
// values are leading invars). Batching takes no jit equations; jvp and vjp keep them, as JAX
// does: a jit's JVP is one jit, and reverse mode splits it into a jit of the forward part and
// one of the backward part (JAX's partial evaluation and transpose of a jit).
#pragma once
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::transforms {

/// g with its constvars turned into leading invars and its jit equations inlined (or, with
/// `keep_jits`, kept, their sub-graphs flattened alike).
ir::Graph flatten(const ir::Graph& g, bool keep_jits = false);

/// Forward mode. Invars: g's invars, then a tangent for each invar with has_tangent set.
/// Outvars: g's outvars, then their tangents (zeros where no tangent reaches them).
ir::Graph jvp_graph(const ir::Graph& g, const std::vector<bool>& has_tangent);

/// Reverse mode. Invars: g's invars, then a cotangent per outvar. Outvars: g's outvars, then
/// the cotangent of each invar with wrt set (zeros where none flows back).
ir::Graph vjp_graph(const ir::Graph& g, const std::vector<bool>& wrt);

/// Batching. Invars with in_batched set gain a leading axis of `size`; outvars are batched
/// (leading axis) where out_batched says so.
struct Batched {
  ir::Graph graph;
  std::vector<bool> out_batched;
};
Batched batch_graph(const ir::Graph& g, const std::vector<bool>& in_batched, std::int64_t size);

/// Whether the primitive has each rule (a test walks the table with these).
bool has_jvp_rule(ir::Prim p);
bool has_vjp_rule(ir::Prim p);
bool has_batch_rule(ir::Prim p);

}  // namespace fj::transforms
