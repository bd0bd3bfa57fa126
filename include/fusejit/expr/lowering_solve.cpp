// Definitions of lax.linalg.lu's lowering and of the functions staged on it (implementation
// unit only).
#include "fusejit/expr/lowering_solve.hpp"

#include <cmath>
#include <functional>
#include <memory>

#include "fusejit/expr/lowering_diagonal.hpp"
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/expr/lowering_linalg.hpp"
#include "fusejit/expr/lowering_math.hpp"
#include "fusejit/expr/lowering_nn.hpp"
#include "fusejit/expr/lowering_pad.hpp"
#include "fusejit/expr/lowering_sort.hpp"
#include "fusejit/expr/nested_vmaps.hpp"
#include "fusejit/ir/custom_jvp.hpp"
#include "fusejit/ir/result_jvp_rule.hpp"
#include "fusejit/ir/linear_solve.hpp"

namespace fj::detail {

std::vector<Atom> lower_lu(GraphBuilder& b, Atom x, const char* fn) {
  const ir::Aval a = b.aval(x);
  if (a.dtype != DType::f32 && a.dtype != DType::f64)
    throw DTypeError(std::string(fn) + ": argument a must be float32 or float64, got " + a.str());
  if (a.shape.rank() < 2)
    throw ShapeError(std::string(fn) + ": argument a must be a (batch of) matrices (rank >= 2), " +
                     "got an array of shape " + a.shape.str());
  return b.emit(Prim::lu, {x});
}

namespace {

// The check every function of a square matrix makes: (..., n, n). Integers and bools become
// float32 inside the function's jit (to_float, as jnp's promote_dtypes_inexact).
void check_square(GraphBuilder& b, Atom a, const char* fn) {
  const ir::Aval av = b.aval(a);
  const int r = av.shape.rank();
  if (r < 2 || av.shape[r - 1] != av.shape[r - 2])
    throw ShapeError(std::string(fn) + ": argument a must be a (batch of) square matrices, " +
                     "got an array of shape " + av.shape.str());
}

Atom to_float(GraphBuilder& b, Atom a) {
  const TypedDType t = typed(b, a);
  return is_float(t.dtype) ? a : convert(b, a, to_inexact(t));
}

// a[..., i, j], as JAX's static indexing stages it (slice, squeeze).
Atom entry(GraphBuilder& b, Atom a, std::int64_t i, std::int64_t j) {
  std::vector<Index> ix(static_cast<std::size_t>(b.aval(a).shape.rank() - 2),
                        Index{true, 0, Range{}});
  ix.push_back(Index{false, i, Range{}});
  ix.push_back(Index{false, j, Range{}});
  return lower_index(b, a, ix);
}

Atom bin(GraphBuilder& b, Prim p, Atom x, Atom y) { return b.emit1(p, {x, y}); }

// A `jit[name=...]` equation with several results.
std::vector<Atom> call_named_n(GraphBuilder& b, const std::string& name,
                               const std::vector<Atom>& ops, const SubgraphBody& body,
                               const std::string& variant) {
  ir::Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back({"jaxpr", shared_subgraph(b, name + "[" + variant + "]", ops, body), true});
  return b.emit(Prim::jit, ops, std::move(p));
}

// x reduced over the axes `axes` (negative from the end) by p.
Atom reduce(GraphBuilder& b, Prim p, Atom x, std::vector<int> axes) {
  return lower_reduce(b, p, x, axes, false, false);
}

// _slogdet_1x1 / _slogdet_2x2: sign(det), log|det| of the closed form.
std::vector<Atom> slogdet_small(GraphBuilder& g, Atom a) {
  Atom det;
  if (g.aval(a).shape[g.aval(a).shape.rank() - 1] == 1) {
    det = entry(g, a, 0, 0);
  } else {
    const Atom a00 = entry(g, a, 0, 0), a01 = entry(g, a, 0, 1);
    const Atom a10 = entry(g, a, 1, 0), a11 = entry(g, a, 1, 1);
    const Atom p = bin(g, Prim::mul, a00, a11);
    det = bin(g, Prim::sub, p, bin(g, Prim::mul, a01, a10));
  }
  const Atom abs_det = g.emit1(Prim::abs, {det});
  const Atom sign = g.emit1(Prim::sign, {det});
  return {sign, g.emit1(Prim::log, {abs_det})};
}

// _slogdet_lu: the sign from the pivots' parity and the diagonal's signs, log|det| the sum of
// the diagonal's log magnitudes; 0 and -inf when a diagonal entry is zero. In JAX's order:
// jnp.diagonal, the parity by count_nonzero and %, jnp.array(..., dtype)'s copy, and the
// jnp.where of each result.
std::vector<Atom> slogdet_lu(GraphBuilder& g, Atom a) {
  const std::vector<Atom> f = g.emit(Prim::lu, {a});
  const DType dt = g.aval(a).dtype;
  const int r = g.aval(a).shape.rank();
  auto lit = [dt](double v) { return Atom::of_literal(ir::Literal::of(v, false).cast(dt, false)); };
  auto weak = [](int v) { return Atom::of_literal(ir::Literal::of(v, true)); };
  const Atom diag = lower_diagonal(g, f[0]);
  const Atom is_zero = reduce(g, Prim::reduce_or, lower_binary(g, Prim::eq, diag, lit(0)), {-1});
  std::vector<int> lead;  // lax.expand_dims(arange(n), range(pivot.ndim - 1))
  for (int d = 0; d < r - 2; ++d) lead.push_back(d);
  const Atom iota =
      lower_expand_dims(g, lower_iota(g, DType::i32, Shape{g.aval(a).shape[r - 1]}, 0), lead);
  const Atom swaps = lower_count_nonzero(g, lower_binary(g, Prim::ne, f[1], iota), -1);
  const Atom negs = lower_count_nonzero(g, lower_binary(g, Prim::lt, diag, lit(0)), -1);
  const Atom parity = lower_binary(g, Prim::add, swaps, negs);
  const Atom odd = lower_remainder(g, parity, weak(2));
  const Atom pm_one =
      lower_binary(g, Prim::add, lower_binary(g, Prim::mul, weak(-2), odd), weak(1));
  const Atom sign_nz = convert(g, g.emit1(Prim::copy, {pm_one}), {dt, false});
  const Atom sign = lower_where(g, is_zero, lit(0), lower_binary(g, Prim::mul, lit(1), sign_nz));
  const Atom logs =
      reduce(g, Prim::reduce_sum, g.emit1(Prim::log, {g.emit1(Prim::abs, {diag})}), {-1});
  return {sign, lower_where(g, is_zero, lit(-INFINITY), logs)};
}

std::vector<Atom> staged_slogdet(GraphBuilder& b, Atom a) {
  const std::int64_t n = b.aval(a).shape[b.aval(a).shape.rank() - 1];
  const bool small = n <= 2;
  // JAX's _slogdet_small_jvp and _slogdet_jvp: each computes the results too, the first by
  // _slogdet_small itself (a custom_jvp_call), the second by jnp.linalg.slogdet (its jit);
  // sign's tangent is zeros_like(sign).
  static const std::shared_ptr<const ir::ResultJvpRule> small_rule =
      std::make_shared<const ir::ResultJvpRule>(
          "_slogdet_small_jvp",
          [](GraphBuilder& g, const std::vector<Atom>& p,
             const std::vector<Atom>& t) -> std::vector<Atom> {
            const Atom x = p[0], dx = t[0];
            const std::vector<Atom> r = call_custom_jvp(
                g, "_slogdet_small", {x},
                [](GraphBuilder& h, const std::vector<Atom>& y) { return slogdet_small(h, y[0]); },
                small_rule);
            Atom dot;
            if (g.aval(x).shape[g.aval(x).shape.rank() - 1] == 1) {
              const Atom g00 = entry(g, dx, 0, 0);
              dot = bin(g, Prim::div, g00, entry(g, x, 0, 0));
            } else {
              const Atom x00 = entry(g, x, 0, 0), x01 = entry(g, x, 0, 1);
              const Atom x10 = entry(g, x, 1, 0), x11 = entry(g, x, 1, 1);
              const Atom p0 = bin(g, Prim::mul, x00, x11);
              const Atom det = bin(g, Prim::sub, p0, bin(g, Prim::mul, x01, x10));
              const Atom t0 = bin(g, Prim::mul, entry(g, dx, 0, 0), x11);
              const Atom t1 = bin(g, Prim::sub, t0, bin(g, Prim::mul, entry(g, dx, 0, 1), x10));
              const Atom t2 = bin(g, Prim::sub, t1, bin(g, Prim::mul, entry(g, dx, 1, 0), x01));
              const Atom t3 = bin(g, Prim::add, t2, bin(g, Prim::mul, entry(g, dx, 1, 1), x00));
              dot = bin(g, Prim::div, t3, det);
            }
            return {r[0], r[1], full_like(g, r[0], 0), dot};
          });
  static const auto lu_rule = std::make_shared<const ir::ResultJvpRule>(
      "_slogdet_jvp",
      [](GraphBuilder& g, const std::vector<Atom>& p,
         const std::vector<Atom>& t) -> std::vector<Atom> {
        const std::vector<Atom> r = staged_slogdet(g, p[0]);
        const Atom dot = lower_trace(g, lower_solve(g, p[0], t[0]), -1, -2);
        return {r[0], r[1], full_like(g, r[0], 0), dot};
      });
  return call_named_n(
      b, "slogdet", {a},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        return call_custom_jvp(
            g, small ? "_slogdet_small" : "_slogdet_lu", {to_float(g, in[0])},
            [small](GraphBuilder& h, const std::vector<Atom>& x) {
              return small ? slogdet_small(h, x[0]) : slogdet_lu(h, x[0]);
            },
            small ? small_rule : lu_rule);
      },
      small ? "small" : "lu");
}

// _det_2x2 / _det_3x3: JAX's closed forms, in its order of operations.
Atom det_closed(GraphBuilder& g, Atom a, std::int64_t n) {
  auto prod = [&](std::initializer_list<std::pair<int, int>> at) {
    Atom r;
    bool first = true;
    for (auto [i, j] : at) {
      const Atom e = entry(g, a, i, j);
      r = first ? e : bin(g, Prim::mul, r, e);
      first = false;
    }
    return r;
  };
  if (n == 2) {
    const Atom p = prod({{0, 0}, {1, 1}});
    return bin(g, Prim::sub, p, prod({{0, 1}, {1, 0}}));
  }
  Atom r = prod({{0, 0}, {1, 1}, {2, 2}});
  r = bin(g, Prim::add, r, prod({{0, 1}, {1, 2}, {2, 0}}));
  r = bin(g, Prim::add, r, prod({{0, 2}, {1, 0}, {2, 1}}));
  r = bin(g, Prim::sub, r, prod({{0, 2}, {1, 1}, {2, 0}}));
  r = bin(g, Prim::sub, r, prod({{0, 0}, {1, 2}, {2, 1}}));
  return bin(g, Prim::sub, r, prod({{0, 1}, {1, 0}, {2, 2}}));
}

// JAX's _cofactor_solve(a, b), staged as it is: det(a) and adj(a) b, which stays finite where
// a has rank n - 1 (and is 0 below). With P a = L U, U's last pivot is replaced by 1 / (the
// product of the others, times the permutation's sign), so that the last triangular solve's
// division by it multiplies by det(a) instead; every other row is scaled by det(a). A matrix
// whose modified U still solves ones to a non-finite value (rank < n - 1) gives zeros.
std::pair<Atom, Atom> cofactor_solve(GraphBuilder& g, Atom a, Atom b) {
  const char* fn = "fj::linalg::det";
  const Shape s = g.aval(a).shape;
  const int r = s.rank();
  const std::int64_t n = s[r - 1];
  const DType dt = g.aval(a).dtype;
  auto weak = [](auto v) { return Atom::of_literal(ir::Literal::of(v, true)); };
  auto integer = [](std::int64_t i) { return AtItem{AtItem::Kind::integer, i, {}}; };
  const AtItem all{AtItem::Kind::range, 0, {}}, ellipsis{AtItem::Kind::ellipsis, 0, {}},
      newaxis{AtItem::Kind::newaxis, 0, {}};
  if (n == 1) return {lower_static_index(g, a, {ellipsis, integer(0), integer(0)}), b};
  const std::vector<Atom> f = g.emit(Prim::lu, {a});
  const Atom diag = lower_diagonal(g, f[0]);
  std::vector<int> lead;  // lax.expand_dims(arange(n), range(pivots.ndim - 1))
  for (int d = 0; d < r - 2; ++d) lead.push_back(d);
  const Atom iota = lower_expand_dims(g, lower_iota(g, DType::i32, Shape{n}, 0), lead);
  const Atom parity = lower_count_nonzero(g, lower_binary(g, Prim::ne, f[1], iota), -1);
  const Atom odd = lower_remainder(g, parity, weak(2));
  const Atom sign =
      convert(g, lower_binary(g, Prim::add, lower_binary(g, Prim::mul, weak(-2), odd), weak(1)),
              {dt, false});
  // partial_det[..., -1] is det(a); partial_det[..., -2] is det(U) / U's last pivot. (Each
  // operand is staged before the call that reads it: JAX's order, whatever C++'s.)
  const Atom cumprod = lower_cumulative(g, Prim::cumprod, diag, -1, false, true, fn);
  const Atom partial_det =
      lower_binary(g, Prim::mul, cumprod, lower_static_index(g, sign, {ellipsis, newaxis}));
  const Atom corner = lower_binary(g, Prim::div, weak(1.0),
                                   lower_static_index(g, partial_det, {ellipsis, integer(-2)}));
  const Atom lu = lower_index_tuple(g, f[0], {ellipsis, integer(-1), integer(-1)}, {}, corner,
                                    Prim::scatter, ir::GatherMode::fill_or_drop, fn);
  // jnp.ix_ over the batch axes and one more of size 1 (unread: JAX's jvp keeps it, its grad
  // drops it as dead): the iotas first, then each made (r-1)-d, as jnp.ix_ of one 1-d array is
  // that array.
  std::vector<Atom> iotas;
  for (int d = 0; d < r - 1; ++d)
    iotas.push_back(lower_iota(g, DType::i32, Shape{d < r - 2 ? s[d] : 1}, 0));
  if (r > 2)
    for (int d = 0; d < r - 1; ++d) {
      std::vector<std::int64_t> to(static_cast<std::size_t>(r - 1), 1);
      to[static_cast<std::size_t>(d)] = g.aval(iotas[static_cast<std::size_t>(d)]).shape[0];
      ir::Params p;
      p.items.push_back({"shape", to, false});
      p.items.push_back({"broadcast_dimensions", std::vector<std::int64_t>{d}, true});
      iotas[static_cast<std::size_t>(d)] =
          g.emit1(Prim::broadcast_in_dim, {iotas[static_cast<std::size_t>(d)]}, std::move(p));
    }
  iotas.pop_back();
  // The filter: a solve of U against ones that is not finite somewhere.
  std::vector<std::int64_t> vs(s.begin(), s.end() - 1);
  const Atom ones = lower_full(g, Shape(vs), ir::Literal::of(1.0, true).cast(dt, false));
  const Atom solved = lower_triangular_solve(g, lu, ones, {true, false, false, false, false}, fn);
  const Atom nan = lower_binary(g, Prim::ne, solved, solved);
  const Atom bad =
      reduce(g, Prim::reduce_or, lower_logical(g, Prim::or_, nan, lower_isinf(g, solved)), {-1});
  std::vector<std::int64_t> reps(static_cast<std::size_t>(r - 2), 1);
  reps.insert(reps.end(), {n, n});
  const Atom filter = lower_tile(g, lower_static_index(g, bad, {ellipsis, newaxis, newaxis}), reps);
  const Atom zeros = full_like(g, b, 0);
  Atom x = lower_where(g, filter, zeros, b);
  std::vector<AtItem> rows(static_cast<std::size_t>(r - 2), AtItem{AtItem::Kind::array, 0, {}});
  rows.push_back(AtItem{AtItem::Kind::array, 0, {}});
  rows.push_back(all);
  std::vector<Atom> row_arrays = iotas;
  row_arrays.push_back(f[2]);
  x = lower_index_tuple(g, x, rows, row_arrays, std::nullopt, Prim::scatter,
                        ir::GatherMode::promise_in_bounds, fn);
  x = lower_triangular_solve(g, lu, x, {true, true, false, false, true}, fn);
  const AtItem but_last{AtItem::Kind::range, 0, {std::nullopt, -1, 1}};
  const AtItem last{AtItem::Kind::range, 0, {-1, std::nullopt, 1}};
  const Atom upper = lower_static_index(g, x, {ellipsis, but_last, all});
  const Atom scaled =
      lower_binary(g, Prim::mul, upper,
                   lower_static_index(g, partial_det, {ellipsis, integer(-1), newaxis, newaxis}));
  x = lower_join(g, Prim::concatenate, {scaled, lower_static_index(g, x, {ellipsis, last, all})},
                 -2);
  x = lower_triangular_solve(g, lu, x, {true, false, false, false, false}, fn);
  const Atom zeros2 = full_like(g, x, 0);
  x = lower_where(g, filter, zeros2, x);
  return {lower_static_index(g, partial_det, {ellipsis, integer(-1)}), x};
}

}  // namespace

Atom lower_det(GraphBuilder& b, Atom a) {
  check_square(b, a, "fj::linalg::det");
  const std::int64_t n = b.aval(a).shape[b.aval(a).shape.rank() - 1];
  // JAX's _det_jvp: det(a) and tr(adj(a) a_dot) from the cofactor solve, which stays finite
  // for singular matrices; the rule computes the result too, as JAX's does.
  static const auto rule = std::make_shared<const ir::ResultJvpRule>(
      "_det_jvp",
      [](GraphBuilder& g, const std::vector<Atom>& p,
         const std::vector<Atom>& t) -> std::vector<Atom> {
        const auto [det, adj_t] = cofactor_solve(g, p[0], t[0]);
        return {det, lower_trace(g, adj_t, -1, -2)};
      });
  return call_named(
      b, "det", {a},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        const Atom x = to_float(g, in[0]);
        if (n == 2 || n == 3) return det_closed(g, x, n);
        return call_custom_jvp(
            g, "_det", {x},
            [](GraphBuilder& h, const std::vector<Atom>& x) -> std::vector<Atom> {
              const std::vector<Atom> sl = staged_slogdet(h, x[0]);
              const Atom e = h.emit1(Prim::exp, {sl[1]});
              return {bin(h, Prim::mul, sl[0], e)};
            },
            rule)[0];
      },
      std::to_string(n == 2 || n == 3 ? n : 0));
}

std::vector<Atom> lower_slogdet(GraphBuilder& b, Atom a) {
  check_square(b, a, "fj::linalg::slogdet");
  return staged_slogdet(b, a);
}

namespace {

// A closed sub-graph of custom_linear_solve: `body` on invars of the avals of `ops`.
ir::GraphPtr linear_part(GraphBuilder& b, const std::vector<Atom>& ops,
                         const std::function<Atom(GraphBuilder&, const std::vector<Atom>&)>& body) {
  GraphBuilder g;
  std::vector<Atom> in;
  for (const Atom& x : ops) in.push_back(Atom::of_var(g.add_invar(b.aval(x))));
  g.graph.outvars = {body(g, in)};
  return std::make_shared<const ir::Graph>(std::move(g.graph));
}

// custom_linear_solve's matvec (a x) or vecmat (x a; then JAX's reduce_sum over no axes) for
// right-hand sides x (levels..., n), one vector each, a (..., n, n) batched at the levels
// `a_batched` marks: one dot_general at HIGHEST precision, as JAX's batching rules leave it (a's
// levels paired as batch dims, x's other levels free), its result transposed to x's layout.
Atom product_part(GraphBuilder& g, Atom a, Atom x, bool vecmat, const std::vector<bool>& a_batched,
                  bool vector) {
  const int r = g.aval(a).shape.rank(), rx = g.aval(x).shape.rank();
  ir::DotDims dd;
  dd.lhs_contract = {vecmat ? rx - 1 : r - 1};
  dd.rhs_contract = {vecmat ? r - 2 : rx - 1};
  // Where each of x's axes lands in the result: a's batch first, then (matvec) a's rows, then
  // x's free axes in order, then (vecmat) a's columns.
  std::vector<std::int64_t> land(static_cast<std::size_t>(rx));
  std::int64_t paired = 0, free = 0;
  for (int d = 0; d + 1 < rx; ++d)
    if (a_batched[static_cast<std::size_t>(d)]) {
      (vecmat ? dd.lhs_batch : dd.rhs_batch).push_back(d);
      (vecmat ? dd.rhs_batch : dd.lhs_batch).push_back(paired);
      land[static_cast<std::size_t>(d)] = paired++;
    }
  for (int d = 0; d + 1 < rx; ++d)
    if (!a_batched[static_cast<std::size_t>(d)])
      land[static_cast<std::size_t>(d)] = paired + (vecmat ? 0 : 1) + free++;
  land.back() = vecmat ? paired + free : paired;
  ir::Params p;
  dd.add_to(p);
  p.items.push_back({"precision", std::string("(Precision.HIGHEST, Precision.HIGHEST)"), true});
  Atom y = g.emit1(Prim::dot_general, {vecmat ? x : a, vecmat ? a : x}, std::move(p));
  bool moved = false;
  for (int d = 0; d < rx; ++d) moved = moved || land[static_cast<std::size_t>(d)] != d;
  // The transpose closes the vmap levels: after matvec's dot, after vecmat's sum.
  auto to_x_layout = [&](Atom v) { return moved ? lower_transpose(g, v, land) : v; };
  if (!vecmat) return to_x_layout(y);
  // JAX's vecmat is matvec's transpose, which sums the cotangent over the axes it broadcast: none,
  // except for a 1x1 a, whose size-1 axis it sums and broadcasts back (that axis a NumPy int
  // where the solve is vmapped over b's columns, as are the broadcast's dims after the first).
  const Shape ys = g.aval(y).shape;
  const int ry = ys.rank();
  const bool one_by_one = g.aval(a).shape[r - 1] == 1;
  ir::Params sum;
  sum.items.push_back(
      {"axes", one_by_one ? std::vector<std::int64_t>{ry - 1} : std::vector<std::int64_t>{}, true});
  if (one_by_one)
    sum.items.push_back({"axes@np", std::vector<std::int64_t>{vector ? 0 : 1}, false});
  sum.items.push_back({"out_sharding", std::string("None"), true});
  const Atom summed = g.emit1(Prim::reduce_sum, {y}, std::move(sum));
  if (!one_by_one) return to_x_layout(summed);
  std::vector<std::int64_t> dims, np_flags;
  for (int d = 0; d + 1 < ry; ++d) {
    dims.push_back(d);
    np_flags.push_back(!vector && d > 0);
  }
  ir::Params back;
  back.items.push_back({"shape", ys.to_vector(), false});
  back.items.push_back({"broadcast_dimensions", dims, !dims.empty()});  // JAX omits ()
  back.items.push_back({"broadcast_dimensions@np", np_flags, false});
  return to_x_layout(g.emit1(Prim::broadcast_in_dim, {summed}, std::move(back)));
}

// JAX's _lu_solve (trans 0: a x = b, 1: a^T x = b) on lu's factors x[0] and permutation x[1]
// for right-hand sides x[2] (levels..., n): `jit[name=_lu_solve]`.
Atom lu_solve_part(GraphBuilder& g, const std::vector<Atom>& x, bool trans,
                   const std::vector<bool>& a_batched, const char* fn) {
  std::string variant = trans ? "1" : "0";
  for (bool b : a_batched) variant += b ? "a" : "b";  // which levels a has
  return call_named(
      g, "_lu_solve", x,
      [trans, a_batched, fn](GraphBuilder& h, const std::vector<Atom>& v) {
        return lu_solve_levels(h, v[0], v[1], v[2], a_batched, trans, fn);
      },
      variant);
}

// JAX's _solve: lu of stop_gradient(a) (f: its results), then lax.custom_linear_solve with
// matvec a x, vecmat x a, solve through lu's factors (_lu_solve: P a = L U) and
// transpose_solve the transposed system's (a^T = U^T L^T P), so a's gradient flows through
// matvec only, as in JAX. rhs: (levels..., n), one vector each (JAX vmaps the solve over a
// matrix b's columns, the innermost level), a batched at the levels `a_batched` marks.
Atom factored_solve(GraphBuilder& g, Atom a, const std::vector<Atom>& f, Atom rhs,
                    const std::vector<bool>& a_batched, bool vector, const char* fn) {
  std::vector<ir::GraphPtr> parts;
  for (bool t : {false, true})
    parts.push_back(linear_part(
        g, {a, rhs}, [t, &a_batched, vector](GraphBuilder& h, const std::vector<Atom>& x) {
          return product_part(h, x[0], x[1], t, a_batched, vector);
        }));
  for (bool t : {false, true})
    parts.push_back(linear_part(g, {f[0], f[2], rhs},
                                [t, &a_batched, fn](GraphBuilder& h, const std::vector<Atom>& x) {
                                  return lu_solve_part(h, x, t, a_batched, fn);
                                }));
  return g.emit(Prim::custom_linear_solve, {a, a, f[0], f[2], f[0], f[2], rhs},
                ir::linear_solve_params({1, 1, 2, 2}, std::move(parts)))[0];
}

// jnp.vectorize(_solve) over the batch axes of a and b: size-1 axes squeezed, one vmap per
// remaining axis (a and b each batched where they have it), axes neither has expanded back.
// Inside, a matrix b is solved as rows (_solve's vmap over its columns moves them first), and
// custom_linear_solve's batching rule broadcasts b at each level where only a is batched,
// innermost first.
Atom solve_body(GraphBuilder& g, Atom a, Atom rhs, const char* fn) {
  const bool f64 = g.aval(a).dtype == DType::f64 || g.aval(rhs).dtype == DType::f64;
  const TypedDType t{f64 ? DType::f64 : DType::f32, false};
  a = convert(g, a, t);
  rhs = convert(g, rhs, t);
  const bool vector = g.aval(rhs).shape.rank() == 1;
  const int core = vector ? 1 : 2;
  const Shape sa = g.aval(a).shape, sb = g.aval(rhs).shape;
  const Shape ba(std::vector<std::int64_t>(sa.begin(), sa.end() - 2));
  const Shape bb(std::vector<std::int64_t>(sb.begin(), sb.end() - core));
  const VectorizeLevels lv = vectorize_levels(ba, bb, broadcast_shapes(ba, bb, fn));
  a = squeeze_ones(g, a, 2);
  rhs = squeeze_ones(g, rhs, core);
  const std::vector<Atom> f = g.emit(Prim::lu, {g.emit1(Prim::stop_gradient, {a})});
  NestedVmaps vmaps(g, lv.sizes, fn);
  Batched rows{vector ? rhs : matrix_transpose(g, rhs), lv.b_at};
  for (std::size_t level = lv.sizes.size(); level-- > 0;)
    if (rows.bdims[level] < 0) rows = vmaps.broadcast_at(rows, level);
  std::vector<bool> a_batched;
  for (int at : lv.a_at) a_batched.push_back(at >= 0);
  if (!vector) a_batched.push_back(false);  // the columns
  Atom x = factored_solve(g, a, f, rows.atom, a_batched, vector, fn);
  if (!vector) x = matrix_transpose(g, x);
  return lv.expand.empty() ? x : lower_expand_dims(g, x, lv.expand);
}

void check_solve(GraphBuilder& b, Atom a, Atom rhs, const char* fn) {
  check_square(b, a, fn);
  const Shape sa = b.aval(a).shape, sb = b.aval(rhs).shape;
  const std::int64_t n = sa[sa.rank() - 1];
  const bool ok = sb.rank() == 1 ? sb[0] == n : sb.rank() >= 2 && sb[sb.rank() - 2] == n;
  if (!ok)
    throw ShapeError(std::string(fn) + ": argument b must be (n,) or (..., n, k) for a of shape " +
                     sa.str() + ", got an array of shape " + sb.str());
  if (sb.rank() >= 2) {
    const Shape ba(std::vector<std::int64_t>(sa.begin(), sa.end() - 2));
    const Shape bb(std::vector<std::int64_t>(sb.begin(), sb.end() - 2));
    (void)broadcast_shapes(ba, bb, fn);
  }
}

}  // namespace

Atom lower_solve(GraphBuilder& b, Atom a, Atom rhs) {
  const char* fn = "fj::linalg::solve";
  check_solve(b, a, rhs, fn);
  return call_named(b, "solve", {a, rhs}, [fn](GraphBuilder& g, const std::vector<Atom>& in) {
    return solve_body(g, in[0], in[1], fn);
  });
}

Atom lower_inv(GraphBuilder& b, Atom a) {
  const char* fn = "fj::linalg::inv";
  check_square(b, a, fn);
  return call_named(b, "inv", {a}, [fn](GraphBuilder& g, const std::vector<Atom>& in) {
    const Atom x = to_float(g, in[0]);
    const Shape s = g.aval(x).shape;
    const Atom eye =
        broadcast_to(g, lower_eye(g, s[s.rank() - 1], s[s.rank() - 1], 0, g.aval(x).dtype), s);
    return call_named(g, "solve", {x, eye}, [fn](GraphBuilder& h, const std::vector<Atom>& v) {
      return solve_body(h, v[0], v[1], fn);
    });
  });
}

}  // namespace fj::detail
