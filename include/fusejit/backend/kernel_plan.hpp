// A fused kernel's plan: every value it computes, as (var, index map) nodes in evaluation order,
// plus the structural signature that keys the global kernel cache (no extents, no constants).
// Shared by the code generators: LLVM (backend/llvm/kernel_builder.hpp) and CUDA (backend/cuda/).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <map>
#include <string>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/graph.hpp"
#include "fusejit/ir/passes/row_groups.hpp"

namespace fj::backend::kernel {

/// How one dim of a value is indexed at an iteration point i: offset + step * i[iter], or the
/// constant `offset` when iter is -1 (a broadcast, a squeezed dim). Transposes permute these,
/// slices scale and shift them, rev negates them (offset + step * (n - 1) - step * i): every
/// index map of the table is affine in this form.
struct Dim {
  int iter = -1;
  std::int64_t step = 1;
  std::int64_t offset = 0;
  friend bool operator==(const Dim&, const Dim&) = default;
  friend bool operator<(const Dim& a, const Dim& b) {
    return std::tie(a.iter, a.step, a.offset) < std::tie(b.iter, b.step, b.offset);
  }
};
using Map = std::vector<Dim>;

/// One value of the kernel at every point of its iteration space.
struct Node {
  // iota: the index along one dim of an iota's output, map[0] saying how the iteration point
  // gives it; it is computed from the loop indices, never read from memory.
  // part: result `result` of a multi-result op (threefry2x32), whose node is args[0].
  // reduced: in a row kernel, the row's result of reduction phase `result` (one value per row).
  enum Kind { load, literal, op, iota, part, reduced } kind = op;
  DType dtype = DType::f32;
  int input = -1;  // load: index into the kernel's inputs
  Map map;         // load: how each dim of the (viewed) input is indexed; iota: its one dim
  Shape view;      // load: the shape the input's buffer is read as (a reshape's), row-major
  // load: how the innermost loop walks it: stride 0, stride 1, stride -1 (a rev), or another.
  enum Inner { broadcast, contiguous, strided, reversed } inner = broadcast;
  int slot = -1;    // literal: index into the kernel's scalar parameters
  ir::Prim prim{};  // op
  const ir::Eqn* eqn = nullptr;
  std::vector<int> args;  // op: operand nodes; part: the multi-result op
  int result = 0;         // part: which result; reduced: which phase
};

/// A row kernel's pass over a row: a reduction (its operand node `root` folded with `reduce`
/// into the node `node`), or, after them, the pass that stores the row's outputs
/// (reduce == fused), or the one that stores the outputs with one element per row.
struct Phase {
  ir::Prim reduce = ir::Prim::fused;
  int root = -1;  // reduction: the operand node folded over the row
  int node = -1;  // reduction: its `reduced` node
  DType dtype = DType::f32;
  std::vector<int> eval;   // nodes computed at each point of this pass, in order
  std::vector<int> store;  // nodes first computed here and kept in scratch for later passes
};

struct Plan {
  int rank = 1;        // iteration rank (a rank-0 kernel iterates over one element)
  int num_inputs = 0;  // buffers before the outputs
  // A reduction kernel iterates over its operand's shape with the kept dims outermost, and
  // combines each output's points with `reduce` (the other fields describe that operand).
  bool reduction = false;
  ir::Prim reduce{};
  // An elementwise kernel: the output dims it iterates over, in order. Dims of extent 1 are left
  // out (always index 0): the row-major layout is the same, and an (n, 1) operand of a library
  // call, as jnp stages indices, is then one vectorized loop instead of n rows of one element.
  std::vector<int> space_dims;
  std::vector<int> order;  // iteration dim k walks operand dim order[k]
  // A row kernel (the fusion pass's row groups): work item t is row t of the iteration space,
  // whose last rank - outer_rank dims form the row. Phases run in order over the row (the
  // reductions, then `phases.size() - 2`: the row-shaped outputs, then the per-row outputs);
  // a node kept for later phases has a scratch slot (`scratch`, -1 for none).
  bool rows = false;
  int outer_rank = 0;
  std::vector<Phase> phases;
  std::vector<int> scratch;
  int num_scratch = 0;
  std::vector<bool> per_row_output;  // rows: output o has one element per row
  // Elementwise outputs too large for the last-level cache are written with non-temporal
  // stores (set by the LLVM backend's launch, with " stream" added to the signature).
  bool stream = false;
  std::vector<Node> nodes;
  std::vector<int> outputs;  // node per kernel output
  std::vector<DType> output_dtypes;
  std::vector<ir::Literal> literals;  // values of the scalar parameters, by slot
  std::vector<int> loads;             // node ids of loads, in parameter order
  std::vector<int> iotas;             // node ids of iotas, in parameter order
  std::string signature;              // everything codegen depends on, nothing it does not
};

/// The last-level cache of one core's share: Linux's sysfs size of cpu0's highest cache (what
/// lscpu prints; sysconf's _SC_LEVEL3_CACHE_SIZE gives the whole host's in a VM), 0 if unknown.
inline std::int64_t last_level_cache_bytes() {
  for (int index = 4; index >= 2; --index) {
    const std::string path =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size";
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) continue;
    long long n = 0;
    char unit = 0;
    const int got = std::fscanf(f, "%lld%c", &n, &unit);
    std::fclose(f);
    if (got >= 1 && n > 0) return n << (unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0);
  }
  return 0;
}

/// Elementwise kernels whose outputs take at least this many bytes store them non-temporally:
/// half the last-level cache (8 MiB if unknown), or FUSEJIT_STREAM_BYTES, read once; tests set
/// it. Below it the next kernel, or the next call, finds the output in cache; above it a cached
/// store would first read each line from memory and evict the inputs.
inline std::atomic<std::int64_t>& stream_bytes() {
  static std::atomic<std::int64_t> bytes{[] {
    if (const char* v = std::getenv("FUSEJIT_STREAM_BYTES"); v && *v)
      return static_cast<std::int64_t>(std::atoll(v));
    const std::int64_t llc = last_level_cache_bytes();
    return llc > 0 ? llc / 2 : std::int64_t{8} << 20;
  }()};
  return bytes;
}

/// A row kernel's phases: which nodes each pass over the row computes, and which are kept in
/// scratch for later passes (row_phases.cpp).
void assign_row_phases(Plan& plan);

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
    plan_.num_inputs = static_cast<int>(g_.invars.size());
    // A kernel holding a reduction that is not its one result is a row group (fuse.hpp).
    const ir::Eqn* first_reduce = nullptr;
    int reductions = 0;
    for (auto& e : g_.eqns)
      if (ir::info(e.prim).kind == ir::PrimKind::reduce)
        ++reductions, first_reduce = first_reduce ? first_reduce : &e;
    plan_.rows =
        reductions > 1 || (reductions == 1 && (g_.outvars.size() > 1 || last != first_reduce));
    plan_.reduction = !plan_.rows && last && ir::info(last->prim).kind == ir::PrimKind::reduce;
    if (plan_.rows) {
      plan_rows(*first_reduce);
    } else if (plan_.reduction) {
      plan_.reduce = last->prim;
      const Shape& s = g_.aval(last->in[0]).shape;
      const auto& axes = last->params.get<std::vector<std::int64_t>>("axes");
      for (int d = 0; d < s.rank(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) plan_.order.push_back(d);
      for (auto d : axes) plan_.order.push_back(static_cast<int>(d));
      plan_.rank = std::max(1, s.rank());
      Map map(static_cast<std::size_t>(s.rank()));
      for (int k = 0; k < s.rank(); ++k)
        map[static_cast<std::size_t>(plan_.order[static_cast<std::size_t>(k)])] = Dim{k, 1, 0};
      plan_.outputs.push_back(value(last->in[0], map));
      plan_.output_dtypes.push_back(g_.aval(root).dtype);
    } else {
      const Shape& s = g_.aval(root).shape;
      Map identity;
      for (int d = 0; d < s.rank(); ++d) {
        if (s[d] == 1) {
          identity.push_back(Dim{});
          continue;
        }
        identity.push_back(Dim{static_cast<int>(plan_.space_dims.size()), 1, 0});
        plan_.space_dims.push_back(d);
      }
      plan_.rank = std::max(1, static_cast<int>(plan_.space_dims.size()));
      for (auto& o : g_.outvars) {
        plan_.outputs.push_back(value(o, identity));
        plan_.output_dtypes.push_back(g_.aval(o).dtype);
      }
    }
    std::string& sig = plan_.signature;
    sig += "rank " + std::to_string(plan_.rank) + " inputs " + std::to_string(plan_.num_inputs);
    if (plan_.reduction) sig += " " + std::string(ir::name(plan_.reduce));
    if (plan_.rows) {
      sig += " rows " + std::to_string(plan_.outer_rank);
      for (auto& ph : plan_.phases)
        sig += " " + std::string(ir::name(ph.reduce)) + " %" + std::to_string(ph.root);
      for (bool r : plan_.per_row_output) sig += r ? " r" : " s";
    }
    sig += "\n";
    for (auto& n : plan_.nodes) {
      sig += std::to_string(static_cast<int>(n.kind)) + " " + std::string(short_name(n.dtype));
      if (n.kind == Node::load) {
        sig +=
            " in" + std::to_string(n.input) + " inner" + std::to_string(static_cast<int>(n.inner));
        for (const Dim& m : n.map) sig += " " + std::to_string(m.iter);
      } else if (n.kind == Node::iota) {
        sig += " iter" + std::to_string(n.map[0].iter);
      } else if (n.kind == Node::part) {
        sig += " part " + std::to_string(n.result) + " %" + std::to_string(n.args[0]);
      } else if (n.kind == Node::reduced) {
        sig += " reduced " + std::to_string(n.result);
      } else if (n.kind == Node::op) {
        sig += " " + std::string(ir::name(n.prim));
        for (int a : n.args) sig += " %" + std::to_string(a);
        for (auto& p : n.eqn->params.items)
          if (p.name != "shape" && p.name != "broadcast_dimensions") sig += " " + param_str(p);
      }
      if (plan_.rows && plan_.scratch[static_cast<std::size_t>(&n - plan_.nodes.data())] >= 0)
        sig += " kept";
      sig += "\n";
    }
    sig += "out";
    for (int o : plan_.outputs) sig += " %" + std::to_string(o);
    return std::move(plan_);
  }

 private:
  // A row kernel: iteration space = the reductions' operand shape, row-shaped outputs at the
  // identity map, per-row outputs at the outer dims (their unit row dims always index 0).
  void plan_rows(const ir::Eqn& reduce) {
    const Shape& s = g_.aval(reduce.in[0]).shape;
    const auto k = static_cast<int>(reduce.params.get<std::vector<std::int64_t>>("axes").size());
    plan_.rank = s.rank();
    plan_.outer_rank = s.rank() - k;
    for (int d = 0; d < s.rank(); ++d) row_identity_.push_back(Dim{d, 1, 0});
    for (auto& o : g_.outvars) {
      const ir::Aval av = g_.aval(o);
      const bool per_row = !(av.shape == s);
      Map map;
      for (int d = 0; d < av.shape.rank(); ++d)
        map.push_back(d < plan_.outer_rank ? Dim{d, 1, 0} : Dim{});
      plan_.outputs.push_back(value(o, per_row ? map : row_identity_));
      plan_.output_dtypes.push_back(av.dtype);
      plan_.per_row_output.push_back(per_row);
    }
    assign_row_phases(plan_);
  }

  // In a row kernel, a reduction's result at its own row: a `reduced` node after a phase that
  // folds its operand over the row.
  int reduced_value(const ir::Eqn& e, const ir::Aval& out, const Map& map) {
    if (!plan_.rows)
      throw CompileError("kernel planner: a reduction inside a kernel that is not a row group");
    for (int d = 0; d < plan_.outer_rank; ++d)
      if (!(map[static_cast<std::size_t>(d)] == Dim{d, 1, 0}))
        throw CompileError("kernel planner: a reduction's result read at another row");
    Phase ph;
    ph.reduce = e.prim;
    ph.dtype = out.dtype;
    ph.root = value(e.in[0], row_identity_);
    Node n;
    n.kind = Node::reduced;
    n.dtype = out.dtype;
    n.eqn = &e;
    n.result = static_cast<int>(plan_.phases.size());
    ph.node = add(std::move(n));
    plan_.phases.push_back(std::move(ph));
    return plan_.phases.back().node;
  }

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

  // A load of kernel input `var`, read as `view` (its own shape, or a reshape's) through `map`.
  int load(ir::VarId var, DType dtype, const Shape& view, const Map& map) {
    Node n;
    n.kind = Node::load;
    n.dtype = dtype;
    n.input = input_index_.at(var);
    n.map = map;
    n.view = view;
    // The innermost loop reads this input at stride 1 (its last dim follows the innermost
    // iteration dim with step 1), stride 0 (no dim does), or another stride.
    bool other = false;
    for (std::size_t d = 0; d + 1 < map.size(); ++d) other = other || map[d].iter == plan_.rank - 1;
    const bool last = !map.empty() && map.back().iter == plan_.rank - 1;
    n.inner = last && !other && map.back().step == 1    ? Node::contiguous
              : last && !other && map.back().step == -1 ? Node::reversed
              : (last || other)                         ? Node::strided
                                                        : Node::broadcast;
    const int id = add(std::move(n));
    plan_.loads.push_back(id);
    return id;
  }

  // The value of atom `a`, its dims indexed as `map` says.
  int value(const ir::Atom& a, const Map& map) {
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
    const ir::Eqn* e = producer_[static_cast<std::size_t>(a.var)];
    const int id = e ? op_value(*e, av, map, a.var) : load(a.var, av.dtype, av.shape, map);
    memo_[key] = id;
    return id;
  }

  // An operand dim of extent 1 against a larger result dim is broadcast: always index 0.
  static Dim follow(std::int64_t operand_extent, std::int64_t result_extent, const Dim& d) {
    return operand_extent == 1 && result_extent != 1 ? Dim{} : d;
  }

  // A dim's entry with its step normalized where it means nothing (a constant index), so that
  // equal index maps memoize to one node.
  static Dim canonical(Dim d) { return d.iter < 0 ? Dim{-1, 1, d.offset} : d; }

  int op_value(const ir::Eqn& e, const ir::Aval& out, const Map& map, ir::VarId var) {
    if (ir::num_results(e.prim) > 1) {
      // One node computes every result at this index map; each result is a part of it.
      auto key = std::make_pair(&e, map);
      auto it = multi_memo_.find(key);
      const int whole =
          it != multi_memo_.end() ? it->second : (multi_memo_[key] = op_node(e, out, map));
      Node n;
      n.kind = Node::part;
      n.dtype = out.dtype;
      n.args = {whole};
      n.result = static_cast<int>(std::find(e.out.begin(), e.out.end(), var) - e.out.begin());
      return add(std::move(n));
    }
    return op_node(e, out, map);
  }

  int op_node(const ir::Eqn& e, const ir::Aval& out, const Map& map) {
    if (e.prim == ir::Prim::iota) {
      // The value is the iteration point's index along `dimension`: no memory is read.
      const auto dim = static_cast<std::size_t>(e.params.get<std::int64_t>("dimension"));
      Node n;
      n.kind = Node::iota;
      n.dtype = out.dtype;
      n.map = {map[dim]};
      const int id = add(std::move(n));
      plan_.iotas.push_back(id);
      return id;
    }
    if (ir::info(e.prim).kind == ir::PrimKind::reduce) return reduced_value(e, out, map);
    const ir::Aval in = g_.aval(e.in[0]);
    Map m;
    // Index maps compose into the operand's map and add no node of their own.
    switch (e.prim) {
      case ir::Prim::rev: {
        // Reversed dim d reads index n - 1 - (offset + step * i).
        m = map;
        for (auto d : e.params.get<std::vector<std::int64_t>>("dimensions")) {
          Dim& x = m[static_cast<std::size_t>(d)];
          x = canonical(Dim{x.iter, -x.step, in.shape[static_cast<int>(d)] - 1 - x.offset});
        }
        return value(e.in[0], m);
      }
      case ir::Prim::squeeze: {
        // A squeezed dim has extent 1: always index 0.
        const auto& dims = e.params.get<std::vector<std::int64_t>>("dimensions");
        std::size_t j = 0;
        for (int d = 0; d < in.shape.rank(); ++d)
          m.push_back(std::find(dims.begin(), dims.end(), d) != dims.end() ? Dim{} : map[j++]);
        return value(e.in[0], m);
      }
      case ir::Prim::broadcast_in_dim: {
        const auto& bd = e.params.get<std::vector<std::int64_t>>("broadcast_dimensions");
        for (int d = 0; d < in.shape.rank(); ++d) {
          const auto od = static_cast<int>(bd[static_cast<std::size_t>(d)]);
          m.push_back(follow(in.shape[d], out.shape[od], map[static_cast<std::size_t>(od)]));
        }
        return value(e.in[0], m);
      }
      case ir::Prim::transpose: {
        const auto& perm = e.params.get<std::vector<std::int64_t>>("permutation");
        m.resize(perm.size());
        for (std::size_t j = 0; j < perm.size(); ++j) m[static_cast<std::size_t>(perm[j])] = map[j];
        return value(e.in[0], m);
      }
      case ir::Prim::slice: {
        const auto& start = e.params.get<std::vector<std::int64_t>>("start_indices");
        const auto steps = ir::slice_strides(e.params, in.shape.rank());
        for (std::size_t d = 0; d < map.size(); ++d)
          m.push_back(
              Dim{map[d].iter, map[d].step * steps[d], start[d] + steps[d] * map[d].offset});
        return value(e.in[0], m);
      }
      case ir::Prim::reshape: {
        // The fusion pass materializes a reshape's operand, so this reads its buffer in the
        // new shape: row-major data does not move.
        const ir::Atom src = e.in[0];
        // A literal is a scalar: every element of its reshape (of size 1) is that value.
        if (src.is_literal()) return value(src, {});
        if (producer_[static_cast<std::size_t>(src.var)])
          throw CompileError("kernel planner: a reshape of a value computed inside the kernel");
        return load(src.var, out.dtype, out.shape, map);
      }
      default:
        break;
    }
    std::vector<int> args;
    for (auto& a : e.in) {
      const ir::Aval ai = g_.aval(a);
      Map am;
      for (int d = 0; d < ai.shape.rank(); ++d)
        am.push_back(follow(ai.shape[d], out.shape[d], map[static_cast<std::size_t>(d)]));
      args.push_back(value(a, am));
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
  std::map<std::pair<ir::VarId, Map>, int> memo_;
  std::map<std::pair<const ir::Eqn*, Map>, int> multi_memo_;
  Map row_identity_;
  Plan plan_;
};

}  // namespace fj::backend::kernel
