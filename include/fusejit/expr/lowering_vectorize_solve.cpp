// Definitions of jnp.vectorize over lax.linalg.triangular_solve: JAX's nested vmaps written out
// level by level with its batching rules (implementation unit only).
#include "fusejit/expr/lowering_vectorize_solve.hpp"

#include <utility>

#include "fusejit/expr/lowering_helpers.hpp"

namespace fj::detail {

namespace {

using V = std::vector<std::int64_t>;

// A value inside nested vmaps: the staged atom, holding every batch axis, and per vmap level
// (outermost first) the position of that level's batch axis in the value as that level sees
// it (the axes of the levels outside it removed); -1 where the value is not batched there.
struct Batched {
  Atom atom;
  std::vector<int> bdims;
};

// One primitive application of the vectorized function, in the shape its level sees.
struct Op {
  enum Kind { broadcast, squeeze, reshape, transpose, solve } kind;
  V shape;               // broadcast_in_dim's shape, reshape's new sizes
  V dims;                // broadcast_in_dim's dims, squeeze's dims, transpose's permutation
  std::size_t first_np;  // broadcast_in_dim: dims from here on print as np.int64
  TriangularSolveOptions o;
};

V range_from(std::int64_t from, std::int64_t to) {
  V v;
  for (std::int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// The vmaps of jnp.vectorize, `sizes` their axes' extents (outermost first). bind(k, ...)
// applies a primitive inside the k outermost vmaps: level k's batching rule rewrites it into
// primitives bound inside the k - 1 outer ones, down to the graph itself.
class NestedVmaps {
 public:
  NestedVmaps(GraphBuilder& g, V sizes, const char* fn)
      : g_(g), sizes_(std::move(sizes)), fn_(fn) {}

  // v's shape as seen inside its levels.
  Shape seen(const Batched& v) const {
    V s = g_.aval(v.atom).shape.to_vector();
    for (int b : v.bdims)
      if (b >= 0) s.erase(s.begin() + b);
    return Shape(s);
  }

  Batched bind(const Op& op, std::vector<Batched> args) {
    const std::size_t k = args[0].bdims.size();
    if (k == 0) return {emit(op, args), {}};
    std::vector<int> bd;
    for (Batched& a : args) bd.push_back(a.bdims.back()), a.bdims.pop_back();
    auto [out, bdim] = rule(op, std::move(args), bd, sizes_[k - 1]);
    out.bdims.push_back(bdim);
    return out;
  }

  // v with its innermost level's batch axis moved to the front (vmap's out_axes=0), that
  // level closed.
  Batched close_level(Batched v) {
    const int b = v.bdims.back();
    v.bdims.pop_back();
    return front(v, b, sizes_[v.bdims.size()]);
  }

 private:
  // batching.moveaxis inside v's levels: a transpose, nothing when the axis stays.
  Batched move(const Batched& v, int from, int to) {
    if (from == to) return v;
    V perm = range_from(0, seen(v).rank());
    perm.erase(perm.begin() + from);
    perm.insert(perm.begin() + to, from);
    return bind({Op::transpose, {}, perm, 0, {}}, {v});
  }

  // batching.bdim_at_front: a batched axis moved to 0, an unbatched value broadcast along a
  // new one (batching.broadcast: its dims from np.delete, NumPy ints).
  Batched front(const Batched& v, int b, std::int64_t size) {
    if (b >= 0) return move(v, b, 0);
    const Shape s = seen(v);
    V shape{size};
    for (std::int64_t e : s) shape.push_back(e);
    return bind({Op::broadcast, shape, range_from(1, s.rank() + 1), 0, {}}, {v});
  }

  // One level's batching rule: the value bound one level out and its batch axis there.
  std::pair<Batched, int> rule(Op op, std::vector<Batched> args, const std::vector<int>& bd,
                               std::int64_t size) {
    bool batched = false;
    for (int b : bd) batched = batched || b >= 0;
    if (!batched) return {bind(op, std::move(args)), -1};
    if (op.kind == Op::solve) {
      if (bd[0] < 0) {  // a shared: b's batch folded into its columns, solved, unfolded
        const int last = seen(args[1]).rank() - 1;
        const Batched y = move(args[1], bd[1], last);
        const V s = seen(y).to_vector();
        V flat(s.begin(), s.end() - 2);
        flat.push_back(s[s.size() - 2] * s.back());
        const Batched folded = bind({Op::reshape, flat, {}, 0, {}}, {y});
        const Batched solved = bind(op, {args[0], folded});
        return {bind({Op::reshape, s, {}, 0, {}}, {solved}), last};
      }
      return {bind(op, {front(args[0], bd[0], size), front(args[1], bd[1], size)}), 0};
    }
    switch (op.kind) {
      case Op::transpose: {  // the batch axis stays where it is, listed first
        V perm{bd[0]};
        for (std::int64_t i : op.dims) perm.push_back(i < bd[0] ? i : i + 1);
        return {bind({Op::transpose, {}, perm, 0, {}}, args), 0};
      }
      case Op::broadcast:  // shape (size,) + shape, dims (0,) + np.add(1, dims)
        op.shape.insert(op.shape.begin(), size);
        op.dims.insert(op.dims.begin(), -1);
        for (std::int64_t& d : op.dims) ++d;
        op.first_np = 1;
        break;
      case Op::squeeze:  // dims + 1
        for (std::int64_t& d : op.dims) ++d;
        break;
      default:  // reshape: (size,) + new sizes
        op.shape.insert(op.shape.begin(), size);
    }
    // broadcast_in_dim, squeeze and reshape: the batch axis moved to the front first.
    return {bind(op, {move(args[0], bd[0], 0)}), 0};
  }

  Atom emit(const Op& op, const std::vector<Batched>& args) {
    const Atom x = args[0].atom;
    switch (op.kind) {
      case Op::broadcast:
        return broadcast_np(g_, x, op.shape, op.dims, op.first_np);
      case Op::squeeze:
        return lower_squeeze(g_, x, std::vector<int>(op.dims.begin(), op.dims.end()), false);
      case Op::reshape:
        return lower_reshape(g_, x, op.shape);
      case Op::transpose:
        return lower_transpose(g_, x, op.dims);
      default:
        return lower_triangular_solve(g_, x, args[1].atom, op.o, fn_);
    }
  }

  GraphBuilder& g_;
  V sizes_;
  const char* fn_;
};

// x's batch axes (all but the last `core`) of size 1 squeezed, as jnp.vectorize does before
// it vmaps.
Atom squeeze_ones(GraphBuilder& g, Atom x, int core) {
  const Shape s = g.aval(x).shape;
  std::vector<int> axes;
  for (int d = 0; d + core < s.rank(); ++d)
    if (s[d] == 1) axes.push_back(d);
  return axes.empty() ? x : lower_squeeze(g, x, axes, false);
}

}  // namespace

Atom vectorized_triangular_solve(GraphBuilder& g, Atom a, Atom b, bool vector,
                                 const TriangularSolveOptions& o, const char* fn) {
  const Shape sa = g.aval(a).shape, sb = g.aval(b).shape;
  const int core_b = vector ? 1 : 2, ra = sa.rank(), rb = sb.rank();
  const std::int64_t n = ra >= 2 ? sa[ra - 1] : -1;
  if (ra < 2 || sa[ra - 2] != n || rb < core_b || sb[rb - core_b] != n)
    throw ShapeError(std::string(fn) + ": arguments a and b must have shapes (..., n, n) and " +
                     (vector ? "(..., n)" : "(..., n, k)") + ", got a of shape " + sa.str() +
                     " and b of shape " + sb.str());
  const Shape ba(V(sa.begin(), sa.end() - 2)), bb(V(sb.begin(), sb.end() - core_b));
  Shape batch;
  try {
    batch = broadcast_shapes(ba, bb, fn);
  } catch (const ShapeError&) {
    throw ShapeError(std::string(fn) + ": the batch axes of a (shape " + sa.str() +
                     ") and of b (shape " + sb.str() + ") do not broadcast");
  }
  // One vmap per batch axis, innermost first, in_axes 0 where the operand has that axis with
  // an extent other than 1; an axis neither has is expanded back at the end.
  V sizes;
  std::vector<int> a_at, b_at, expand;
  for (int d = batch.rank() - 1; d >= 0; --d) {
    const int da = d - (batch.rank() - ba.rank()), db = d - (batch.rank() - bb.rank());
    const bool in_a = da >= 0 && ba[da] != 1, in_b = db >= 0 && bb[db] != 1;
    if (!in_a && !in_b) {
      expand.insert(expand.begin(), d);
      continue;
    }
    sizes.insert(sizes.begin(), batch[d]);
    a_at.insert(a_at.begin(), in_a ? 0 : -1);
    b_at.insert(b_at.begin(), in_b ? 0 : -1);
  }
  NestedVmaps vmaps(g, sizes, fn);
  const Batched x{squeeze_ones(g, a, 2), a_at};
  Batched y{squeeze_ones(g, b, core_b), b_at};
  // lax.linalg.triangular_solve's body: a vector b solved as one column (expand_dims, [..., 0]).
  if (vector) y = vmaps.bind({Op::broadcast, V{n, 1}, V{0}, 1, {}}, {y});
  Batched out = vmaps.bind({Op::solve, {}, {}, 0, o}, {x, y});
  if (vector) out = vmaps.bind({Op::squeeze, {}, V{1}, 0, {}}, {out});
  while (!out.bdims.empty()) out = vmaps.close_level(std::move(out));
  return expand.empty() ? out.atom : lower_expand_dims(g, out.atom, expand);
}

}  // namespace fj::detail
