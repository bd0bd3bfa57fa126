// GraphBuilder: appends equations to a Graph, computing each output's aval by its shape rule.
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::ir {

/// Output avals of primitive p applied to operands `in`; raises ShapeError / DTypeError.
std::vector<Aval> infer_avals(Prim p, const std::vector<Aval>& in, const Params& params);
/// A slice's steps: its `strides` param, or all 1 when that is None.
std::vector<std::int64_t> slice_strides(const Params& params, int rank);
/// "(1, 2)" as Python prints a tuple.
std::string tuple_str(const std::vector<std::int64_t>& v);

class GraphBuilder {
 public:
  Graph graph;

  VarId add_invar(Aval a) {
    const VarId v = graph.new_var(std::move(a));
    graph.invars.push_back(v);
    return v;
  }
  VarId add_constvar(Aval a) {
    const VarId v = graph.new_var(std::move(a));
    graph.constvars.push_back(v);
    return v;
  }
  Aval aval(const Atom& a) const { return graph.aval(a); }

  /// Appends `out... = p[params] in...` and returns the outputs as atoms.
  std::vector<Atom> emit(Prim p, std::vector<Atom> in, Params params = {}) {
    std::vector<Aval> in_avals;
    in_avals.reserve(in.size());
    for (auto& a : in) in_avals.push_back(aval(a));
    std::vector<Aval> outs = infer_avals(p, in_avals, params);
    Eqn e{p, std::move(in), {}, std::move(params)};
    std::vector<Atom> res;
    for (auto& o : outs) {
      e.out.push_back(graph.new_var(std::move(o)));
      res.push_back(Atom::of_var(e.out.back()));
    }
    graph.eqns.push_back(std::move(e));
    return res;
  }
  Atom emit1(Prim p, std::vector<Atom> in, Params params = {}) {
    return emit(p, std::move(in), std::move(params))[0];
  }
};

}  // namespace fj::ir
