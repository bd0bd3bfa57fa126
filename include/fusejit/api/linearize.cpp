// The array-level halves of linearize and linear_transpose: the tangent map, the transpose and
// its linearity check, and the checks of their arguments (implementation unit only).
#include "fusejit/api/linearize.hpp"

#include <unordered_set>

namespace fj::detail {

std::vector<ir::Aval> avals_of_leaves(const std::vector<Array>& leaves) {
  std::vector<ir::Aval> r;
  for (const Array& a : leaves) r.push_back(a.aval());
  return r;
}

void check_same_avals(const char* who, const std::string& what, const PyTreeDef& want_tree,
                      const std::vector<ir::Aval>& want, const PyTreeDef& tree,
                      const std::vector<Array>& got) {
  if (!(tree == want_tree))
    throw TypeError(std::string(who) + ": " + what + " has structure " + tree.str() +
                    " but must have " + want_tree.str());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const ir::Aval a = got[i].aval();
    if (!(a.shape == want[i].shape) || a.dtype != want[i].dtype)
      throw ShapeError(std::string(who) + ": " + what +
                       (got.size() > 1 ? " (leaf " + std::to_string(i) + ")" : std::string()) +
                       " is " + a.str() + " but must be " + want[i].str() +
                       ", as the primal it stands for");
  }
}

std::vector<Array> linearized_tangents(const std::vector<Array>& p, const std::vector<Array>& t,
                                       TraceBody body) {
  SubGraph s = trace_subgraph_flat({"linearize", "fj::linearize", {}}, avals_of(p), body);
  return jvp_call(s, p, t).second;
}

namespace {

// Whether any of g's invars in [first, last) is read, through any chain of equations, by the
// outputs from `first_out` on.
bool outputs_read_invars(const ir::Graph& g, std::size_t first, std::size_t last,
                         std::size_t first_out) {
  std::unordered_set<ir::VarId> needed;
  for (std::size_t k = first_out; k < g.outvars.size(); ++k)
    if (!g.outvars[k].is_literal()) needed.insert(g.outvars[k].var);
  for (auto e = g.eqns.rbegin(); e != g.eqns.rend(); ++e) {
    bool used = false;
    for (ir::VarId o : e->out) used = used || needed.count(o);
    if (!used) continue;
    for (const ir::Atom& a : e->in)
      if (!a.is_literal()) needed.insert(a.var);
  }
  for (std::size_t i = first; i < last; ++i)
    if (needed.count(g.invars[i])) return true;
  return false;
}

}  // namespace

std::vector<Array> transposed_cotangents(const std::vector<Array>& p, const std::vector<Array>& ct,
                                         TraceBody body) {
  SubGraph s =
      trace_subgraph_flat({"linear_transpose", "fj::linear_transpose", {}}, avals_of(p), body);
  // A linear function's transpose reads the cotangents only: where its reverse mode reads a
  // primal argument's value, the function is not linear in it (x * x, sin x, x > 0 ? x : 0).
  const ir::Graph flat = transforms::flatten(*s.graph, /*keep_jits=*/false);
  std::vector<bool> wrt(flat.invars.size(), false);
  for (std::size_t i = s.consts.size(); i < wrt.size(); ++i) wrt[i] = true;
  const ir::Graph h = transforms::vjp_graph(flat, wrt);
  if (outputs_read_invars(h, s.consts.size(), flat.invars.size(), flat.outvars.size()))
    throw TypeError(
        "fj::linear_transpose: the function is not linear in its arguments (its transpose "
        "depends on their values); JAX raises on the non-linear primitive. Use fj::vjp for the "
        "transpose of its derivative at a point");
  std::vector<int> all(p.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return vjp_call(s, p, all, ct).grads;
}

}  // namespace fj::detail
