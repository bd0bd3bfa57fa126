// Definitions of jnp.var, jnp.std and jnp.linalg.norm as JAX 0.10.2 stages them (jit[name=_var],
// jit[name=_std], jit[name=norm]), the same equations in the same order (implementation unit
// only).
#include <cmath>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_nn.hpp"
#include "fusejit/expr/lowering_spectral.hpp"

namespace fj::detail {

namespace {

Atom st_weak(double v) { return Atom::of_literal(ir::Literal::of(v, true)); }
Atom st_const(GraphBuilder& b, Atom a, double v) {
  return Atom::of_literal(ir::Literal::of(v, false).cast(b.aval(a).dtype, false));
}
Atom st_unary(GraphBuilder& b, Prim p, Atom x) { return b.emit1(p, {x}); }
std::vector<int> st_ints(const std::vector<std::int64_t>& v) { return {v.begin(), v.end()}; }

// A reduction over `axes` (sorted, non-negative), then keepdims.
Atom st_reduce(GraphBuilder& b, Prim p, Atom x, const std::vector<std::int64_t>& axes,
               bool keepdims) {
  const Shape s = b.aval(x).shape;
  Atom r = lower_reduce(b, p, x, st_ints(axes), false, false);
  return keepdims && !axes.empty() ? keep_dims(b, r, s, axes) : r;
}

// jnp.amax(..., initial=0): the reduction, max with 0, then keepdims.
Atom amax0(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& axes, bool keepdims) {
  const Shape s = b.aval(x).shape;
  Atom r = lower_reduce(b, Prim::reduce_max, x, st_ints(axes), false, false);
  r = lower_binary(b, Prim::max, st_const(b, r, 0), r);
  return keepdims && !axes.empty() ? keep_dims(b, r, s, axes) : r;
}

// The body of _var: x, then ddof as a weak i32 operand.
Atom var_body(GraphBuilder& g, Atom x, Atom ddof, const std::vector<std::int64_t>& ax,
              bool keepdims) {
  x = convert(g, x, to_inexact(typed(g, x)));
  const Shape s = g.aval(x).shape;
  std::int64_t n = 1, kept = 1;
  for (int d = 0; d < s.rank(); ++d)
    (std::find(ax.begin(), ax.end(), d) != ax.end() ? n : kept) *= s[d];
  (void)kept;
  Atom mean = lower_binary(g, Prim::div, st_reduce(g, Prim::reduce_sum, x, ax, true),
                           st_const(g, x, static_cast<double>(n)));
  Atom centered = st_unary(g, Prim::square, lower_binary(g, Prim::sub, x, mean));
  Atom count = lower_binary(g, Prim::sub, st_const(g, x, static_cast<double>(n)),
                            convert(g, ddof, {g.aval(x).dtype, false}));
  Atom r =
      lower_binary(g, Prim::div, st_reduce(g, Prim::reduce_sum, centered, ax, keepdims), count);
  Atom positive = lower_binary(g, Prim::gt, count, st_weak(0.0));
  return lower_where(g, positive, r, st_weak(NAN));
}

std::string st_variant(const std::vector<std::int64_t>& ax, bool keepdims) {
  return ir::tuple_str(ax) + (keepdims ? " keepdims" : "");
}

Atom ddof_atom(std::int64_t ddof) {
  return Atom::of_literal(ir::Literal::of(static_cast<int>(ddof), true));
}

}  // namespace

Atom lower_var(GraphBuilder& b, Atom x, const Axes& axes, std::int64_t ddof, bool keepdims) {
  const auto ax = canonical_axes(b.aval(x).shape, axes, "fj::var");
  return call_named(
      b, "_var", {x, ddof_atom(ddof)},
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        return var_body(g, in[0], in[1], ax, keepdims);
      },
      st_variant(ax, keepdims));
}

Atom lower_std(GraphBuilder& b, Atom x, const Axes& axes, std::int64_t ddof, bool keepdims) {
  const auto ax = canonical_axes(b.aval(x).shape, axes, "fj::std");
  return call_named(
      b, "_std", {x, ddof_atom(ddof)},
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom v = call_named(
            g, "_var", {in[0], in[1]},
            [=](GraphBuilder& h, const std::vector<Atom>& vin) {
              return var_body(h, vin[0], vin[1], ax, keepdims);
            },
            st_variant(ax, keepdims));
        return st_unary(g, Prim::sqrt, v);
      },
      st_variant(ax, keepdims));
}

namespace {

std::string st_ord_str(const NormOrd& o) {
  if (!o.name.empty()) return "'" + o.name + "'";
  if (std::isinf(o.p)) return o.p > 0 ? "inf" : "-inf";
  std::string s = std::to_string(o.p);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

Atom norm_body(GraphBuilder& g, Atom x, const NormOrd& ord, const std::vector<std::int64_t>& ax,
               bool all_default, bool keepdims) {
  x = convert(g, x, to_inexact(typed(g, x)));
  auto two_norm = [&](const std::vector<std::int64_t>& axes) {
    Atom sq = lower_binary(g, Prim::mul, x, x);
    return st_unary(g, Prim::sqrt, st_reduce(g, Prim::reduce_sum, sq, axes, keepdims));
  };
  if (all_default) return two_norm(ax);
  if (ax.size() == 1) {
    if (!ord.name.empty())
      throw ValueError("fj::linalg::norm: invalid order " + st_ord_str(ord) + " for a vector norm");
    const double p = ord.is_default ? 2 : ord.p;
    if (p == 2) return two_norm(ax);
    if (p == INFINITY) return amax0(g, st_unary(g, Prim::abs, x), ax, keepdims);
    if (p == -INFINITY)
      return st_reduce(g, Prim::reduce_min, st_unary(g, Prim::abs, x), ax, keepdims);
    if (p == 0) {
      // sum(x != 0, dtype=float): the bools counted as int32, then as x's dtype.
      Atom nz = convert(g, lower_binary(g, Prim::ne, x, st_weak(0.0)), {DType::i32, false});
      nz = convert(g, nz, {g.aval(x).dtype, false});
      return st_reduce(g, Prim::reduce_sum, nz, ax, keepdims);
    }
    Atom a = st_unary(g, Prim::abs, x);
    if (p == 1) return st_reduce(g, Prim::reduce_sum, a, ax, keepdims);
    // sum(|x|^p)^(1/p), with 1/p computed in x's dtype (JAX's _const(abs_x, 1. / ord_arr)).
    const Atom pl = st_const(g, a, p);
    Atom s = st_reduce(g, Prim::reduce_sum, lower_binary(g, Prim::pow, a, pl), ax, keepdims);
    return lower_binary(g, Prim::pow, s, st_const(g, a, 1.0 / pl.lit.f));
  }
  std::int64_t row = ax[0], col = ax[1];
  if (ord.is_default || ord.name == "fro" || ord.name == "f") return two_norm(ax);
  if (ord.name == "nuc" || (ord.name.empty() && std::fabs(ord.p) == 2)) {
    // The singular values of x with the two axes moved last (jnp.moveaxis: a transpose unless
    // they are there already), then their max (initial 0), min or sum.
    const int r = g.aval(x).shape.rank();
    std::vector<std::int64_t> perm;
    for (int d = 0; d < r; ++d)
      if (d != row && d != col) perm.push_back(d);
    perm.push_back(row);
    perm.push_back(col);
    bool identity = true;
    for (int d = 0; d < r; ++d) identity = identity && perm[static_cast<std::size_t>(d)] == d;
    if (!identity) x = lower_transpose(g, x, perm);
    const Atom s = lower_svd(g, x, true, false)[0];
    const std::vector<std::int64_t> last{r - 2};
    Atom y = ord.name == "nuc" ? st_reduce(g, Prim::reduce_sum, s, last, false)
             : ord.p > 0       ? amax0(g, s, last, false)
                               : st_reduce(g, Prim::reduce_min, s, last, false);
    if (keepdims)
      y = lower_expand_dims(
          g, y, {static_cast<int>(std::min(row, col)), static_cast<int>(std::max(row, col))});
    return y;
  }
  if (!ord.name.empty() || !(ord.p == 1 || ord.p == -1 || std::isinf(ord.p)))
    throw ValueError("fj::linalg::norm: invalid order " + st_ord_str(ord) + " for a matrix norm");
  Atom a = st_unary(g, Prim::abs, x);
  if (std::fabs(ord.p) == 1) {
    if (!keepdims && col > row) col -= 1;
    Atom s = st_reduce(g, Prim::reduce_sum, a, {row}, keepdims);
    return ord.p > 0 ? amax0(g, s, {col}, keepdims)
                     : st_reduce(g, Prim::reduce_min, s, {col}, keepdims);
  }
  if (!keepdims && row > col) row -= 1;
  Atom s = st_reduce(g, Prim::reduce_sum, a, {col}, keepdims);
  return ord.p > 0 ? amax0(g, s, {row}, keepdims)
                   : st_reduce(g, Prim::reduce_min, s, {row}, keepdims);
}

}  // namespace

Atom lower_norm(GraphBuilder& b, Atom x, const NormOrd& ord, const Axes& axes, bool keepdims) {
  const Shape s = b.aval(x).shape;
  auto ax = canonical_axes(s, axes, "fj::linalg::norm");
  // A matrix norm's two axes keep the caller's order (rows, columns).
  if (!axes.all && axes.list.size() == 2)
    for (std::size_t i = 0; i < 2; ++i)
      ax[i] = axes.list[i] < 0 ? axes.list[i] + s.rank() : axes.list[i];
  // axis=None with the default order: the 2-norm of the flattened array, whatever the rank.
  const bool all_default = axes.all && ord.is_default;
  if (!all_default && (ax.size() < 1 || ax.size() > 2))
    throw ValueError("fj::linalg::norm: improper number of axes for an array of shape " + s.str() +
                     ": give one axis for a vector norm or two for a matrix norm");
  return call_named(
      b, "norm", {x},
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        return norm_body(g, in[0], ord, ax, all_default, keepdims);
      },
      st_ord_str(ord) + (ord.is_default ? " default" : "") + " " + ir::tuple_str(ax) +
          (keepdims ? " keepdims" : ""));
}

}  // namespace fj::detail
