// A fused kernel's plan: every value it computes, as (var, index map) nodes in evaluation order,
// plus the structural signature that keys the global kernel cache (no extents, no constants).
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::backend::llvm_kernel {

/// One value of the kernel at every point of its iteration space.
struct Node {
  enum Kind { load, literal, op } kind = op;
  DType dtype = DType::f32;
  int input = -1;        // load: index into the kernel's inputs
  std::vector<int> map;  // load: for each input dim, the iteration dim it follows (-1: broadcast)
  // load: how the innermost loop walks it: stride 0, stride 1, or another stride.
  enum Inner { broadcast, contiguous, strided } inner = broadcast;
  int slot = -1;    // literal: index into the kernel's scalar parameters
  ir::Prim prim{};  // op
  const ir::Eqn* eqn = nullptr;
  std::vector<int> args;  // op: operand nodes
};

struct Plan {
  int rank = 1;        // iteration rank (a rank-0 kernel iterates over one element)
  int num_inputs = 0;  // buffers before the outputs
  // A reduction kernel iterates over its operand's shape with the kept dims outermost, and
  // combines each output's points with `reduce` (the other fields describe that operand).
  bool reduction = false;
  ir::Prim reduce{};
  std::vector<int> order;  // iteration dim k walks operand dim order[k]
  std::vector<Node> nodes;
  std::vector<int> outputs;  // node per kernel output
  std::vector<DType> output_dtypes;
  std::vector<ir::Literal> literals;  // values of the scalar parameters, by slot
  std::vector<int> loads;             // node ids of loads, in parameter order
  std::string signature;              // everything codegen depends on, nothing it does not
};

class Planner {
 public:
  explicit Planner(const ir::Graph& g) : g_(g), producer_(g.avals.size(), nullptr) {
    for (auto& e : g.eqns)
      for (ir::VarId v : e.out) producer_[static_cast<std::size_t>(v)] = &e;
    for (std::size_t i = 0; i < g.invars.size(); ++i)
      input_index_[g.invars[i]] = static_cast<int>(i);
  }

  Plan run() {
    const ir::Atom root = g_.outvars.at(0);
    const ir::Eqn* last =
        root.is_literal() ? nullptr : producer_[static_cast<std::size_t>(root.var)];
    plan_.reduction = last && ir::info(last->prim).kind == ir::PrimKind::reduce;
    plan_.num_inputs = static_cast<int>(g_.invars.size());
    if (plan_.reduction) {
      plan_.reduce = last->prim;
      const Shape& s = g_.aval(last->in[0]).shape;
      const auto& axes = last->params.get<std::vector<std::int64_t>>("axes");
      for (int d = 0; d < s.rank(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) plan_.order.push_back(d);
      for (auto d : axes) plan_.order.push_back(static_cast<int>(d));
      plan_.rank = std::max(1, s.rank());
      std::vector<int> map(static_cast<std::size_t>(s.rank()));
      for (int k = 0; k < s.rank(); ++k)
        map[static_cast<std::size_t>(plan_.order[static_cast<std::size_t>(k)])] = k;
      plan_.outputs.push_back(value(last->in[0], map));
      plan_.output_dtypes.push_back(g_.aval(root).dtype);
    } else {
      const Shape& s = g_.aval(root).shape;
      plan_.rank = std::max(1, s.rank());
      std::vector<int> identity;
      for (int d = 0; d < s.rank(); ++d) identity.push_back(d);
      for (auto& o : g_.outvars) {
        plan_.outputs.push_back(value(o, identity));
        plan_.output_dtypes.push_back(g_.aval(o).dtype);
      }
    }
    std::string& sig = plan_.signature;
    sig += "rank " + std::to_string(plan_.rank) + " inputs " + std::to_string(plan_.num_inputs);
    if (plan_.reduction) sig += " " + std::string(ir::name(plan_.reduce));
    sig += "\n";
    for (auto& n : plan_.nodes) {
      sig += std::to_string(static_cast<int>(n.kind)) + " " + std::string(short_name(n.dtype));
      if (n.kind == Node::load) {
        sig +=
            " in" + std::to_string(n.input) + " inner" + std::to_string(static_cast<int>(n.inner));
        for (int m : n.map) sig += " " + std::to_string(m);
      } else if (n.kind == Node::op) {
        sig += " " + std::string(ir::name(n.prim));
        for (int a : n.args) sig += " %" + std::to_string(a);
        for (auto& p : n.eqn->params.items)
          if (p.name != "shape" && p.name != "broadcast_dimensions") sig += " " + param_str(p);
      }
      sig += "\n";
    }
    sig += "out";
    for (int o : plan_.outputs) sig += " %" + std::to_string(o);
    return std::move(plan_);
  }

 private:
  static std::string param_str(const ir::Param& p) {
    if (auto* i = std::get_if<std::int64_t>(&p.value)) return p.name + "=" + std::to_string(*i);
    if (auto* b = std::get_if<bool>(&p.value)) return p.name + "=" + (*b ? "1" : "0");
    if (auto* d = std::get_if<DType>(&p.value)) return p.name + "=" + std::string(short_name(*d));
    return p.name;
  }

  int add(Node n) {
    plan_.nodes.push_back(std::move(n));
    return static_cast<int>(plan_.nodes.size() - 1);
  }

  // The value of atom `a` whose dim d follows iteration dim map[d].
  int value(const ir::Atom& a, const std::vector<int>& map) {
    if (a.is_literal()) {
      Node n;
      n.kind = Node::literal;
      n.dtype = a.lit.dtype;
      n.slot = static_cast<int>(plan_.literals.size());
      plan_.literals.push_back(a.lit);
      return add(std::move(n));
    }
    auto key = std::make_pair(a.var, map);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const ir::Aval& av = g_.aval(a.var);
    int id;
    if (const ir::Eqn* e = producer_[static_cast<std::size_t>(a.var)]) {
      id = op_value(*e, av, map);
    } else {
      Node n;
      n.kind = Node::load;
      n.dtype = av.dtype;
      n.input = input_index_.at(a.var);
      n.map = map;
      // The innermost loop reads this input at stride 1 (its last dim follows the innermost
      // iteration dim), stride 0 (no dim does), or another stride (a reduction's order).
      bool other = false;
      for (std::size_t d = 0; d + 1 < map.size(); ++d) other = other || map[d] == plan_.rank - 1;
      const bool last = !map.empty() && map.back() == plan_.rank - 1;
      n.inner = last && !other    ? Node::contiguous
                : (last || other) ? Node::strided
                                  : Node::broadcast;
      id = add(std::move(n));
      plan_.loads.push_back(id);
    }
    memo_[key] = id;
    return id;
  }

  int op_value(const ir::Eqn& e, const ir::Aval& out, const std::vector<int>& map) {
    std::vector<int> args;
    if (e.prim == ir::Prim::broadcast_in_dim) {
      const auto& bd = e.params.get<std::vector<std::int64_t>>("broadcast_dimensions");
      const ir::Aval in = g_.aval(e.in[0]);
      std::vector<int> m;
      for (int d = 0; d < in.shape.rank(); ++d) {
        const auto od = static_cast<int>(bd[static_cast<std::size_t>(d)]);
        m.push_back(in.shape[d] == 1 && out.shape[od] != 1 ? -1
                                                           : map[static_cast<std::size_t>(od)]);
      }
      return value(e.in[0], m);  // an index map: no node of its own
    }
    for (auto& a : e.in) {
      const ir::Aval in = g_.aval(a);
      std::vector<int> m;
      for (int d = 0; d < in.shape.rank(); ++d)
        m.push_back(in.shape[d] == 1 && out.shape[d] != 1 ? -1 : map[static_cast<std::size_t>(d)]);
      args.push_back(value(a, m));
    }
    Node n;
    n.kind = Node::op;
    n.dtype = out.dtype;
    n.prim = e.prim;
    n.eqn = &e;
    n.args = std::move(args);
    return add(std::move(n));
  }

  const ir::Graph& g_;
  std::vector<const ir::Eqn*> producer_;
  std::map<ir::VarId, int> input_index_;
  std::map<std::pair<ir::VarId, std::vector<int>>, int> memo_;
  Plan plan_;
};

}  // namespace fj::backend::llvm_kernel
