// Definitions of the nested-vmap interpreter: JAX 0.10.2's batching rules for broadcast_in_dim,
// squeeze, reshape, transpose, triangular_solve, gather, elementwise primitives and sort
// (implementation unit only).
#include "fusejit/expr/nested_vmaps.hpp"

#include <utility>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_sort.hpp"
#include "fusejit/ir/gather_dims.hpp"

namespace fj::detail {

namespace {

VmapDims count_from(std::int64_t from, std::int64_t to) {
  VmapDims v;
  for (std::int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// tuple(np.add(1, dims)): every entry shifted, all NumPy ints.
NpDims np_add1(const NpDims& d) {
  NpDims r{d.v, 0};
  for (std::int64_t& x : r.v) ++x;
  return r;
}

// (0,) + tuple(np.add(1, dims)).
NpDims zero_then_np_add1(const NpDims& d) {
  NpDims r = np_add1(d);
  r.v.insert(r.v.begin(), 0);
  r.first_np = 1;
  return r;
}

// The tuple as JAX prints it: `(0, np.int64(2))`, `(np.int64(1),)`, `()`.
std::string np_str(const NpDims& d) {
  std::string s = "(";
  for (std::size_t i = 0; i < d.v.size(); ++i) {
    const std::string n = std::to_string(d.v[i]);
    s += (i ? ", " : "") + (i >= d.first_np ? "np.int64(" + n + ")" : n);
  }
  return s + (d.v.size() == 1 ? ",)" : ")");
}

}  // namespace

VmapOp VmapOp::shaped(Kind k, VmapDims shape, NpDims dims) {
  VmapOp op;
  op.kind = k;
  op.shape = std::move(shape);
  op.dims = std::move(dims);
  return op;
}

VmapOp VmapOp::solve(const TriangularSolveOptions& o) {
  VmapOp op;
  op.kind = triangular_solve;
  op.o = o;
  return op;
}

VmapOp VmapOp::gather_rows() {
  VmapOp op;
  op.kind = gather;
  op.offset = NpDims::plain({1});
  op.collapsed = NpDims::plain({0});
  op.start_map = NpDims::plain({0});
  op.slice_sizes = {1, 1};
  return op;
}

VmapOp VmapOp::apply(Prim p) {
  VmapOp op;
  op.kind = elementwise;
  op.prim = p;
  return op;
}

VmapOp VmapOp::sort_by_key(int dimension, int result) {
  VmapOp op;
  op.kind = sort;
  op.dimension = dimension;
  op.result = result;
  return op;
}

Shape NestedVmaps::seen(const Batched& v) const {
  VmapDims s = g_.aval(v.atom).shape.to_vector();
  for (int b : v.bdims)
    if (b >= 0) s.erase(s.begin() + b);
  return Shape(s);
}

Batched NestedVmaps::bind(const VmapOp& op, std::vector<Batched> args) {
  const std::size_t k = args[0].bdims.size();
  if (k == 0) return {emit(op, args), {}};
  std::vector<int> bd;
  for (Batched& a : args) bd.push_back(a.bdims.back()), a.bdims.pop_back();
  auto [out, bdim] = rule(op, std::move(args), bd, sizes_[k - 1]);
  out.bdims.push_back(bdim);
  return out;
}

Batched NestedVmaps::close_level(Batched v) {
  const int b = v.bdims.back();
  v.bdims.pop_back();
  return front(v, b, sizes_[v.bdims.size()]);
}

Batched NestedVmaps::broadcast_at(Batched v, std::size_t level) {
  const Batched outer{v.atom, std::vector<int>(v.bdims.begin(), v.bdims.begin() + level)};
  const Batched b = front(outer, -1, sizes_[level]);
  v.atom = b.atom;
  std::copy(b.bdims.begin(), b.bdims.end(), v.bdims.begin());
  v.bdims[level] = 0;
  return v;
}

// batching.moveaxis inside v's levels: a transpose, nothing when the axis stays.
Batched NestedVmaps::move(const Batched& v, int from, int to) {
  if (from == to) return v;
  VmapDims perm = count_from(0, seen(v).rank());
  perm.erase(perm.begin() + from);
  perm.insert(perm.begin() + to, from);
  return bind(VmapOp::transpose_by(perm), {v});
}

// batching.bdim_at_front: a batched axis moved to 0, an unbatched value broadcast along a
// new one (batching.broadcast: its dims from np.delete, NumPy ints).
Batched NestedVmaps::front(const Batched& v, int b, std::int64_t size) {
  if (b >= 0) return move(v, b, 0);
  const Shape s = seen(v);
  VmapDims shape{size};
  for (std::int64_t e : s) shape.push_back(e);
  return bind(VmapOp::broadcast_in_dim(shape, NpDims{count_from(1, s.rank() + 1), 0}), {v});
}

std::pair<Batched, int> NestedVmaps::rule(VmapOp op, std::vector<Batched> args,
                                          const std::vector<int>& bd, std::int64_t size) {
  int first = -1;
  for (int b : bd)
    if (first < 0 && b >= 0) first = b;
  if (first < 0) return {bind(op, std::move(args)), -1};
  switch (op.kind) {
    case VmapOp::triangular_solve:
      return solve_rule(op, std::move(args), bd, size);
    case VmapOp::gather:
      return gather_rule(std::move(op), std::move(args), bd);
    case VmapOp::sort:
      return sort_rule(std::move(op), std::move(args), bd);
    case VmapOp::elementwise: {  // broadcast_batcher: scalars ride along, else one batch axis
      bool agree = true;
      for (std::size_t i = 0; i < args.size(); ++i)
        agree = agree && (bd[i] >= 0 ? bd[i] == first : seen(args[i]).rank() == 0);
      if (!agree) {
        first = 0;
        for (std::size_t i = 0; i < args.size(); ++i)
          if (bd[i] >= 0 || seen(args[i]).rank() > 0) args[i] = front(args[i], bd[i], size);
      }
      return {bind(op, std::move(args)), first};
    }
    case VmapOp::transpose: {  // the batch axis stays where it is, listed first
      VmapDims perm{bd[0]};
      for (std::int64_t i : op.dims.v) perm.push_back(i < bd[0] ? i : i + 1);
      return {bind(VmapOp::transpose_by(perm), std::move(args)), 0};
    }
    case VmapOp::broadcast:  // shape (size,) + shape, dims (0,) + np.add(1, dims)
      op.shape.insert(op.shape.begin(), size);
      op.dims = zero_then_np_add1(op.dims);
      break;
    case VmapOp::squeeze:  // dims + 1
      for (std::int64_t& d : op.dims.v) ++d;
      break;
    default:  // reshape: (size,) + new sizes
      op.shape.insert(op.shape.begin(), size);
  }
  // broadcast_in_dim, squeeze and reshape: the batch axis moved to the front first.
  return {bind(op, {move(args[0], bd[0], 0)}), 0};
}

// _triangular_solve_batching_rule (left_side): an unbatched a solves b's batch folded into its
// columns (moved last, reshaped, solved, unfolded: they stay last); else both at the front.
std::pair<Batched, int> NestedVmaps::solve_rule(const VmapOp& op, std::vector<Batched> args,
                                                const std::vector<int>& bd, std::int64_t size) {
  if (bd[0] < 0) {
    const int last = seen(args[1]).rank() - 1;
    const Batched y = move(args[1], bd[1], last);
    const VmapDims s = seen(y).to_vector();
    VmapDims flat(s.begin(), s.end() - 2);
    flat.push_back(s[s.size() - 2] * s.back());
    const Batched folded = bind(VmapOp::reshape_to(flat), {y});
    const Batched solved = bind(op, {args[0], folded});
    return {bind(VmapOp::reshape_to(s), {solved}), last};
  }
  return {bind(op, {front(args[0], bd[0], size), front(args[1], bd[1], size)}), 0};
}

// _gather_batching_rule: the batched operands' axes moved to the front; an operand batched
// alone becomes a leading offset dim, indices batched alone a leading batch of indices, both
// batched a pair of batching dims.
std::pair<Batched, int> NestedVmaps::gather_rule(VmapOp op, std::vector<Batched> args,
                                                 const std::vector<int>& bd) {
  if (bd[0] >= 0) args[0] = move(args[0], bd[0], 0);
  if (bd[1] >= 0) args[1] = move(args[1], bd[1], 0);
  if (bd[1] < 0) {
    op.slice_sizes.insert(op.slice_sizes.begin(), seen(args[0])[0]);
    op.offset = zero_then_np_add1(op.offset);
    op.operand_batching = np_add1(op.operand_batching);
  } else if (bd[0] < 0) {
    for (std::int64_t& d : op.offset.v) ++d;  // 1 + d keeps each entry's type
    op.indices_batching = np_add1(op.indices_batching);
    return {bind(op, std::move(args)), 0};
  } else {
    op.slice_sizes.insert(op.slice_sizes.begin(), seen(args[0])[0] == 0 ? 0 : 1);
    op.offset = np_add1(op.offset);
    op.operand_batching = zero_then_np_add1(op.operand_batching);
    op.indices_batching = zero_then_np_add1(op.indices_batching);
  }
  op.collapsed = np_add1(op.collapsed);
  op.start_map = np_add1(op.start_map);
  return {bind(op, std::move(args)), 0};
}

// _sort_batch_rule: the first batched operand's axis is everyone's; unbatched operands
// broadcast to its shape (dims from np.delete, printed plain), the sorted axis shifted past it.
std::pair<Batched, int> NestedVmaps::sort_rule(VmapOp op, std::vector<Batched> args,
                                               const std::vector<int>& bd) {
  std::size_t proto = 0;
  while (bd[proto] < 0) ++proto;
  const int at = bd[proto];
  const VmapDims seen_shape = seen(args[proto]).to_vector();  // with this level's axis
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (bd[i] >= 0) {
      args[i] = move(args[i], bd[i], at);
      continue;
    }
    VmapDims dims = count_from(0, static_cast<std::int64_t>(seen_shape.size()));
    dims.erase(dims.begin() + at);
    args[i] = bind(VmapOp::broadcast_in_dim(seen_shape, NpDims::plain(dims)), {args[i]});
  }
  op.dimension += at <= op.dimension ? 1 : 0;
  return {bind(op, std::move(args)), at};
}

Atom NestedVmaps::emit(const VmapOp& op, const std::vector<Batched>& args) {
  const Atom x = args[0].atom;
  switch (op.kind) {
    case VmapOp::broadcast:
      return broadcast_np(g_, x, op.shape, op.dims.v, op.dims.first_np);
    case VmapOp::squeeze:
      return lower_squeeze(g_, x, std::vector<int>(op.dims.v.begin(), op.dims.v.end()), false);
    case VmapOp::reshape:
      return lower_reshape(g_, x, op.shape);
    case VmapOp::transpose:
      return lower_transpose(g_, x, op.dims.v);
    case VmapOp::triangular_solve:
      return lower_triangular_solve(g_, x, args[1].atom, op.o, fn_);
    case VmapOp::elementwise: {
      std::vector<Atom> in;
      for (const Batched& a : args) in.push_back(a.atom);
      return in.size() == 2 ? lower_binary(g_, op.prim, in[0], in[1]) : g_.emit1(op.prim, in);
    }
    case VmapOp::sort: {
      std::vector<Atom> in;
      for (const Batched& a : args) in.push_back(a.atom);
      return lower_lax_sort(g_, in, op.dimension, true, 1)[op.result];
    }
    default: {  // gather: the dims as JAX's rules left them, NumPy ints marked
      const ir::IndexDims d{op.offset.v, op.collapsed.v, op.start_map.v, op.operand_batching.v,
                            op.indices_batching.v};
      ir::Params p;
      d.add_to(p, false);
      for (auto& item : p.items)
        if (item.name == "dimension_numbers")
          item.value = "GatherDimensionNumbers(offset_dims=" + np_str(op.offset) +
                       ", collapsed_slice_dims=" + np_str(op.collapsed) +
                       ", start_index_map=" + np_str(op.start_map) +
                       ", operand_batching_dims=" + np_str(op.operand_batching) +
                       ", start_indices_batching_dims=" + np_str(op.indices_batching) + ")";
      p.items.push_back({"fill_value", std::string("None"), true});
      p.items.push_back({"indices_are_sorted", false, true});
      p.items.push_back({"mode", ir::mode_str(ir::GatherMode::promise_in_bounds), true});
      p.items.push_back({"slice_sizes", op.slice_sizes, true});
      p.items.push_back({"unique_indices", false, true});
      return g_.emit1(Prim::gather, {x, args[1].atom}, std::move(p));
    }
  }
}

VectorizeLevels vectorize_levels(const Shape& ba, const Shape& bb, const Shape& batch) {
  VectorizeLevels v;
  for (int d = batch.rank() - 1; d >= 0; --d) {  // innermost first, as jnp.vectorize nests
    const int da = d - (batch.rank() - ba.rank()), db = d - (batch.rank() - bb.rank());
    const bool in_a = da >= 0 && ba[da] != 1, in_b = db >= 0 && bb[db] != 1;
    if (!in_a && !in_b) {
      v.expand.insert(v.expand.begin(), d);
      continue;
    }
    v.sizes.insert(v.sizes.begin(), batch[d]);
    v.a_at.insert(v.a_at.begin(), in_a ? 0 : -1);
    v.b_at.insert(v.b_at.begin(), in_b ? 0 : -1);
  }
  return v;
}

Atom squeeze_ones(GraphBuilder& g, Atom x, int core) {
  const Shape s = g.aval(x).shape;
  std::vector<int> axes;
  for (int d = 0; d + core < s.rank(); ++d)
    if (s[d] == 1) axes.push_back(d);
  return axes.empty() ? x : lower_squeeze(g, x, axes, false);
}

}  // namespace fj::detail
