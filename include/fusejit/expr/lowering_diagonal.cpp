// Definitions of jnp.diagonal's, jnp.count_nonzero's and lax.platform_dependent's lowerings
// (implementation unit only).
#include "fusejit/expr/lowering_diagonal.hpp"

#include <memory>
#include <string>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"

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

Atom lower_trace(GraphBuilder& b, Atom x, int axis1, int axis2) {
  const int r = b.aval(x).shape.rank();
  const int a1 = axis1 < 0 ? axis1 + r : axis1, a2 = axis2 < 0 ? axis2 + r : axis2;
  return call_named(
      b, "trace", {x},
      [r, a1, a2](GraphBuilder& g, const std::vector<Atom>& in) {
        // jnp.moveaxis(x, (axis1, axis2), (-2, -1)): a transpose unless already there.
        Atom a = in[0];
        if (a1 != r - 2 || a2 != r - 1) {
          std::vector<std::int64_t> perm;
          for (int d = 0; d < r; ++d)
            if (d != a1 && d != a2) perm.push_back(d);
          perm.insert(perm.end(), {a1, a2});
          a = lower_transpose(g, a, perm);
        }
        const Shape s = g.aval(a).shape;
        const Atom mask = lower_eye(g, s[r - 2], s[r - 1], 0, DType::bool_);
        const Atom kept = lower_where(g, mask, a, full_like(g, a, 0));
        return lower_reduce(g, Prim::reduce_sum, kept, {r - 2, r - 1}, false, false);
      },
      std::to_string(a1) + "," + std::to_string(a2));
}

}  // namespace fj::detail
