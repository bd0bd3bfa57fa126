// Definitions of jnp.diagonal's, jnp.count_nonzero's and lax.platform_dependent's lowerings
// (implementation unit only).
#include "fusejit/expr/lowering_diagonal.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/expr/lowering_pad.hpp"

namespace fj::detail {

namespace {

// A closed branch of a cond: `body` on invars of the avals of `ops`.
ir::GraphPtr branch(GraphBuilder& b, const std::vector<Atom>& ops, const SubgraphBody& body) {
  GraphBuilder g;
  std::vector<Atom> in;
  for (const Atom& x : ops) in.push_back(Atom::of_var(g.add_invar(b.aval(x))));
  g.graph.outvars = body(g, in);
  return std::make_shared<const ir::Graph>(std::move(g.graph));
}

// x[..., i, i] for i = arange(n): two iotas (one per index array), as jnp's advanced indexing
// stages a[..., i, j].
Atom gather_diagonal(GraphBuilder& g, Atom x) {
  const Shape s = g.aval(x).shape;
  const int r = s.rank();
  const Shape n{s[r - 1]};
  std::vector<AtItem> items(static_cast<std::size_t>(r - 2), AtItem{});
  items.push_back(AtItem{AtItem::Kind::array, 0, {}});
  items.push_back(AtItem{AtItem::Kind::array, 0, {}});
  const DType d = default_int_dtype();
  const Atom i = lower_iota(g, d, n, 0), j = lower_iota(g, d, n, 0);
  return lower_index_tuple(g, x, items, {i, j}, std::nullopt, Prim::scatter,
                           ir::GatherMode::promise_in_bounds, "fj::diagonal");
}

}  // namespace

std::vector<Atom> lower_platform_dependent(GraphBuilder& b, const std::vector<Atom>& ops,
                                           const SubgraphBody& mosaic,
                                           const SubgraphBody& fallback) {
  const std::string platforms = "(('mosaic',), None)";
  ir::Params ip;
  ip.items.push_back({"platforms", platforms, true});
  ip.items.push_back({"default_index", std::int64_t{1}, false});
  std::vector<Atom> in{b.emit1(Prim::platform_index, {}, std::move(ip))};
  in.insert(in.end(), ops.begin(), ops.end());
  ir::Params cp;
  cp.items.push_back(
      {"branches", std::vector<ir::GraphPtr>{branch(b, ops, mosaic), branch(b, ops, fallback)}});
  cp.items.push_back({"branches_platforms", platforms, true});
  return b.emit(Prim::cond, std::move(in), std::move(cp));
}

Atom lower_diagonal(GraphBuilder& b, Atom x) {
  const ir::Aval a = b.aval(x);
  const int r = a.shape.rank();
  if (r < 2) throw ShapeError("fj::diagonal: x must have rank >= 2, got " + a.str());
  // JAX's mosaic lowering takes one square matrix (not bool) only: else the gather alone.
  const bool mosaic = r == 2 && a.shape[0] == a.shape[1] && a.dtype != DType::bool_;
  return call_named(
      b, "diagonal", {x},
      [mosaic](GraphBuilder& g, const std::vector<Atom>& in) {
        if (!mosaic) return gather_diagonal(g, in[0]);
        const std::int64_t n = g.aval(in[0]).shape[0];
        const Atom eye = lower_eye(g, n, n, 0, g.aval(in[0]).dtype);
        const SubgraphBody sum_eye = [](GraphBuilder& h, const std::vector<Atom>& v) {
          const Atom p = h.emit1(Prim::mul, {v[0], v[1]});
          return std::vector<Atom>{lower_reduce(h, Prim::reduce_sum, p, {0}, false, false)};
        };
        const SubgraphBody gather = [](GraphBuilder& h, const std::vector<Atom>& v) {
          return std::vector<Atom>{gather_diagonal(h, v[1])};
        };
        return lower_platform_dependent(g, {eye, in[0]}, sum_eye, gather)[0];
      },
      mosaic ? "mosaic" : "gather");
}

Atom lower_count_nonzero(GraphBuilder& b, Atom x, int axis) {
  const int r = b.aval(x).shape.rank();
  const int ax = axis < 0 ? axis + r : axis;
  return call_named(
      b, "count_nonzero", {x},
      [ax](GraphBuilder& g, const std::vector<Atom>& in) {
        const ir::Aval a = g.aval(in[0]);
        const Atom zero = Atom::of_literal(ir::Literal::of(0, false).cast(a.dtype, false));
        const Atom nz = g.emit1(Prim::ne, {in[0], zero});
        const Atom n = convert(g, nz, {DType::i32, false});
        return lower_reduce(g, Prim::reduce_sum, n, {ax}, false, false);
      },
      std::to_string(ax));
}

namespace {

// jnp.diagonal's and jnp.trace's two axes, checked and made nonnegative.
std::pair<int, int> two_axes(const ir::Aval& a, int axis1, int axis2, const char* who) {
  if (a.shape.rank() < 2)
    throw ValueError(std::string(who) + ": x must have at least two dimensions, got " + a.str());
  const int a1 = detail::canonical_axis(axis1, a, who);
  const int a2 = detail::canonical_axis(axis2, a, who);
  if (a1 == a2)
    throw ValueError(std::string(who) + ": axis1 and axis2 must differ, got " +
                     std::to_string(axis1) + " and " + std::to_string(axis2) + " for " + a.str());
  return {a1, a2};
}

// jnp.moveaxis(x, (a1, a2), (-2, -1)): a transpose unless the axes are already last.
Atom move_last(GraphBuilder& g, Atom x, int a1, int a2) {
  const int r = g.aval(x).shape.rank();
  if (a1 == r - 2 && a2 == r - 1) return x;
  std::vector<std::int64_t> perm;
  for (int d = 0; d < r; ++d)
    if (d != a1 && d != a2) perm.push_back(d);
  perm.insert(perm.end(), {a1, a2});
  return lower_transpose(g, x, perm);
}

}  // namespace

Atom lower_trace(GraphBuilder& b, Atom x, int axis1, int axis2, std::int64_t offset,
                 const char* who) {
  const auto [a1, a2] = two_axes(b.aval(x), axis1, axis2, who);
  const int r = b.aval(x).shape.rank();
  // jnp.trace's jit takes a given offset as an operand (a weak int), the default one as a
  // constant; fusejit stages offset 0 as the default.
  std::vector<Atom> ops{x};
  if (offset != 0) ops.push_back(Atom::of_literal(ir::Literal::of(offset, true)));
  return call_named(
      b, "trace", ops,
      [r, a1, a2](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom a = move_last(g, in[0], a1, a2);
        const Shape s = g.aval(a).shape;
        Atom mask;
        if (in.size() == 1) {
          mask = lower_eye(g, s[r - 2], s[r - 1], 0, DType::bool_);
        } else {  // jnp.eye with a traced k: iota + k == iota
          const Shape m{s[r - 2], s[r - 1]};
          const Atom i = lower_iota(g, DType::i32, m, 0), j = lower_iota(g, DType::i32, m, 1);
          const Atom k = convert(g, in[1], {DType::i32, false});
          mask = g.emit1(Prim::eq, {g.emit1(Prim::add, {i, k}), j});
        }
        const Atom kept = lower_where(g, mask, a, full_like(g, a, 0));
        return lower_reduce(g, Prim::reduce_sum, kept, {r - 2, r - 1}, false, false);
      },
      std::to_string(a1) + "," + std::to_string(a2));
}

Atom lower_diagonal_of(GraphBuilder& b, Atom x, std::int64_t offset, int axis1, int axis2) {
  const ir::Aval xa = b.aval(x);
  const auto [a1, a2] = two_axes(xa, axis1, axis2, "fj::diagonal");
  const int r = xa.shape.rank();
  // lower_diagonal reads square matrices only (its two iotas have the last axis's extent).
  if (offset == 0 && a1 == r - 2 && a2 == r - 1 && xa.shape[r - 2] == xa.shape[r - 1])
    return lower_diagonal(b, x);
  return call_named(
      b, "diagonal", {x},
      [a1, a2, offset](GraphBuilder& g, const std::vector<Atom>& in) {
        const Shape s0 = g.aval(in[0]).shape;
        const std::int64_t size =
            std::max<std::int64_t>(0, std::min(s0[a1] + std::min<std::int64_t>(offset, 0),
                                               s0[a2] - std::max<std::int64_t>(offset, 0)));
        const Atom a = move_last(g, in[0], a1, a2);
        const int r = g.aval(a).shape.rank();
        const DType d = default_int_dtype();
        // i = arange(size), j = arange(|offset|, |offset| + size): a[..., i, j] above the
        // diagonal, a[..., j, i] below.
        const Atom i = lower_iota(g, d, Shape{size}, 0);
        const Atom shift =
            Atom::of_literal(ir::Literal::of(offset < 0 ? -offset : offset, false).cast(d, false));
        const Atom j = g.emit1(Prim::add, {lower_iota(g, d, Shape{size}, 0), shift});
        std::vector<AtItem> items(static_cast<std::size_t>(r - 2), AtItem{});
        items.push_back(AtItem{AtItem::Kind::array, 0, {}});
        items.push_back(AtItem{AtItem::Kind::array, 0, {}});
        const std::vector<Atom> idx =
            offset >= 0 ? std::vector<Atom>{i, j} : std::vector<Atom>{j, i};
        return lower_index_tuple(g, a, items, idx, std::nullopt, Prim::scatter,
                                 ir::GatherMode::promise_in_bounds, "fj::diagonal");
      },
      std::to_string(a1) + "," + std::to_string(a2) + "," + std::to_string(offset));
}

Atom lower_diag(GraphBuilder& b, Atom v, std::int64_t k) {
  const ir::Aval va = b.aval(v);
  if (va.shape.rank() == 2) return lower_diagonal_of(b, v, k, 0, 1);
  if (va.shape.rank() != 1) throw ValueError("fj::diag: v must be 1-d or 2-d, got " + va.str());
  return call_named(
      b, "diag", {v},
      [k](GraphBuilder& g, const std::vector<Atom>& in) {
        const std::int64_t n = g.aval(in[0]).shape[0] + (k < 0 ? -k : k);
        const Atom scalar_zero =
            Atom::of_literal(ir::Literal::of(0, false).cast(g.aval(in[0]).dtype, false));
        const Atom padded =
            lower_lax_pad(g, in[0], scalar_zero,
                          {{std::max<std::int64_t>(0, k), std::max<std::int64_t>(0, -k), 0}});
        const Atom mask = lower_eye(g, n, n, k, DType::bool_);
        return lower_where(g, mask, padded, full_like(g, padded, 0));
      },
      std::to_string(k));
}

}  // namespace fj::detail
