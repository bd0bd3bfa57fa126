// jnp-level lowerings of the library primitives: dot, matmul, dot_general, argmax/argmin,
// concatenate, stack and dynamic slices (implementation unit only; after lowering.cpp).
#include <numeric>

#include "fusejit/expr/lowering.hpp"
#include "fusejit/expr/lowering_helpers.hpp"

namespace fj::detail {

namespace {

std::string shape_pair(const GraphBuilder& b, Atom x, Atom y) {
  return b.aval(x).str() + " and " + b.aval(y).str();
}

// Removes the size-1 dims `dims` (jnp.matmul squeezes broadcast batch dims of size 1).
Atom squeeze_dims(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& dims) {
  if (dims.empty()) return x;
  return lower_squeeze(b, x, std::vector<int>(dims.begin(), dims.end()), false);
}

int normalize_axis(int axis, int rank, const char* who, const std::string& shapes) {
  if (axis < -rank || axis >= rank)
    throw ShapeError(std::string(who) + ": axis " + std::to_string(axis) + " is out of range for " +
                     shapes);
  return axis < 0 ? axis + rank : axis;
}

}  // namespace

Atom lower_dot_general(GraphBuilder& b, Atom x, Atom y, const ir::DotDims& dims,
                       std::optional<DType> preferred, const char* who) {
  const ir::Aval ax = b.aval(x), ay = b.aval(y);
  for (std::size_t i = 0; i < dims.lhs_contract.size() && i < dims.rhs_contract.size(); ++i) {
    const auto l = dims.lhs_contract[i], r = dims.rhs_contract[i];
    if (l >= 0 && l < ax.shape.rank() && r >= 0 && r < ay.shape.rank() &&
        ax.shape[static_cast<int>(l)] != ay.shape[static_cast<int>(r)])
      throw ShapeError(std::string(who) + ": shapes " + shape_pair(b, x, y) +
                       " do not align: size " + std::to_string(ax.shape[static_cast<int>(l)]) +
                       " of axis " + std::to_string(l) + " != size " +
                       std::to_string(ay.shape[static_cast<int>(r)]) + " of axis " +
                       std::to_string(r));
  }
  ir::Params p;
  dims.add_to(p);
  if (preferred) p.items.push_back({"preferred_element_type", *preferred, true});
  try {
    return b.emit1(Prim::dot_general, {x, y}, std::move(p));
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(who) + ": " + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(std::string(who) + ": " + e.what());
  }
}

Atom lower_dot(GraphBuilder& b, Atom x, Atom y) {
  const ir::Aval ax = b.aval(x), ay = b.aval(y);
  const DType t = promote_types(typed(b, x), typed(b, y)).dtype;
  ir::DotDims d;
  if (ax.shape.rank() > 0 && ay.shape.rank() > 0) {
    d.lhs_contract = {ax.shape.rank() - 1};
    d.rhs_contract = {ay.shape.rank() == 1 ? 0 : ay.shape.rank() - 2};
  }
  return lower_dot_general(b, x, y, d, t, "fj::dot");
}

Atom lower_matmul(GraphBuilder& b, Atom x, Atom y) {
  const ir::Aval ax = b.aval(x), ay = b.aval(y);
  const int ra = ax.shape.rank(), rb = ay.shape.rank();
  if (ra == 0 || rb == 0)
    throw ShapeError("fj::matmul: operands must have at least one axis, got " +
                     shape_pair(b, x, y));
  const bool a_mat = ra > 1, b_mat = rb > 1;
  // Batch dims of each operand, aligned from the right; -1 where an operand has none.
  const int nb = std::max(a_mat ? ra - 2 : 0, b_mat ? rb - 2 : 0);
  auto batch = [&](const Shape& s, bool mat, int i) -> std::int64_t {
    const int own = mat ? s.rank() - 2 : 0;
    const int k = i - (nb - own);
    return k < 0 ? -1 : s[k];
  };
  std::vector<std::int64_t> a_squeeze, b_squeeze, a_batch, b_batch, idx_batch, idx_a, idx_b;
  for (int i = 0; i < nb; ++i) {
    const std::int64_t ba = batch(ax.shape, a_mat, i), bb = batch(ay.shape, b_mat, i);
    const auto nbat = static_cast<std::int64_t>(idx_batch.size());
    if (ba < 0) {
      idx_b.push_back(i);
    } else if (bb < 0) {
      idx_a.push_back(i);
    } else if (ba == 1 && bb != 1) {
      idx_b.push_back(i);
      a_squeeze.push_back(nbat + static_cast<std::int64_t>(idx_a.size() + a_squeeze.size()));
    } else if (bb == 1 && ba != 1) {
      idx_a.push_back(i);
      b_squeeze.push_back(nbat + static_cast<std::int64_t>(idx_b.size() + b_squeeze.size()));
    } else if (ba == bb) {
      a_batch.push_back(nbat + static_cast<std::int64_t>(idx_a.size()));
      b_batch.push_back(nbat + static_cast<std::int64_t>(idx_b.size()));
      idx_batch.push_back(i);
    } else {
      throw ShapeError("fj::matmul: batch dimensions of " + shape_pair(b, x, y) +
                       " do not broadcast");
    }
  }
  if (a_mat) idx_a.push_back(nb);
  if (b_mat) idx_b.push_back(nb + (a_mat ? 1 : 0));
  std::vector<std::int64_t> order = idx_batch;
  order.insert(order.end(), idx_a.begin(), idx_a.end());
  order.insert(order.end(), idx_b.begin(), idx_b.end());
  std::vector<std::int64_t> perm(order.size());
  std::iota(perm.begin(), perm.end(), 0);
  // Stable by the index tiebreak (std::stable_sort's libstdc++ 12 buffer trips clang 19's
  // deprecation warning).
  std::sort(perm.begin(), perm.end(), [&](auto i, auto j) {
    const auto oi = order[static_cast<std::size_t>(i)], oj = order[static_cast<std::size_t>(j)];
    return oi != oj ? oi < oj : i < j;
  });
  const int k_a = ra - 1, k_b = rb - 1 - (b_mat ? 1 : 0);
  if (ax.shape[k_a] != ay.shape[k_b])
    throw ShapeError("fj::matmul: inner dimensions of " + shape_pair(b, x, y) + " differ: " +
                     std::to_string(ax.shape[k_a]) + " != " + std::to_string(ay.shape[k_b]));
  x = squeeze_dims(b, x, a_squeeze);
  y = squeeze_dims(b, y, b_squeeze);
  ir::DotDims d;
  d.lhs_contract = {b.aval(x).shape.rank() - 1};
  d.rhs_contract = {b.aval(y).shape.rank() - 1 - (b_mat ? 1 : 0)};
  d.lhs_batch = a_batch;
  d.rhs_batch = b_batch;
  const DType t = promote_types(typed(b, x), typed(b, y)).dtype;
  Atom out = lower_dot_general(b, x, y, d, t, "fj::matmul");
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i)
    identity = identity && perm[i] == static_cast<std::int64_t>(i);
  return identity ? out : lower_transpose(b, out, perm);
}

Atom lower_arg_reduce(GraphBuilder& b, Prim p, Atom x, int axis, bool all_axes, bool keepdims) {
  const char* who = p == Prim::argmax ? "fj::argmax" : "fj::argmin";
  const ir::Aval av = b.aval(x);
  if (av.dtype == DType::bool_)
    x = convert(b, x, {DType::i32, false});  // JAX compares bools as ints
  std::vector<std::int64_t> axes;
  if (all_axes) {
    if (av.shape.size() == 0)
      throw ValueError(std::string(who) + ": attempt to get " + (who + 4) +
                       " of an empty sequence (shape " + av.shape.str() + ")");
    x = lower_reshape(b, x, {-1});
    axis = 0;
  } else {
    axis = normalize_axis(axis, av.shape.rank(), who, av.str());
    if (av.shape[axis] == 0)
      throw ValueError(std::string(who) + ": attempt to get " + (who + 4) +
                       " of an empty sequence (axis " + std::to_string(axis) + " of " + av.str() +
                       ")");
  }
  ir::Params params;
  params.items.push_back({"axes", std::vector<std::int64_t>{axis}, true});
  params.items.push_back({"index_dtype", default_int_dtype(), true});
  Atom r = b.emit1(p, {x}, std::move(params));
  if (!keepdims) return r;
  std::vector<std::int64_t> reduced;
  for (int d = 0; d < av.shape.rank(); ++d)
    if (all_axes || d == axis) reduced.push_back(d);
  return keep_dims(b, r, av.shape, reduced);
}

Atom lower_join(GraphBuilder& b, Prim p, std::vector<Atom> xs, int axis) {
  const bool stack = p == Prim::stack;
  const char* who = stack ? "fj::stack" : "fj::concatenate";
  if (xs.empty()) throw ValueError(std::string(who) + ": needs at least one array");
  std::string shapes;
  TypedDType t = typed(b, xs[0]);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    shapes += (i ? ", " : "") + b.aval(xs[i]).str();
    if (i) t = promote_types(t, typed(b, xs[i]));
  }
  const int rank = b.aval(xs[0]).shape.rank();
  for (auto& a : xs) {
    if (b.aval(a).shape.rank() != rank)
      throw ShapeError(std::string(who) + ": arrays must have one rank, got " + shapes);
    a = convert(b, a, t);
  }
  if (!stack && rank == 0)
    throw ShapeError(std::string(who) + ": zero-dimensional arrays cannot be concatenated, got " +
                     shapes);
  axis = normalize_axis(axis, rank + (stack ? 1 : 0), who, shapes);
  ir::Params params;
  params.items.push_back({stack ? "axis" : "dimension", std::int64_t{axis}, true});
  try {
    return b.emit1(p, std::move(xs), std::move(params));
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(who) + ": " + e.what());
  }
}

namespace {
// JAX's _dynamic_slice_indices: a negative start counts from the end (once); literal starts
// are folded, as Python ints are in JAX.
std::vector<Atom> wrap_starts(GraphBuilder& b, const std::vector<Atom>& starts, const Shape& s,
                              const char* who) {
  if (static_cast<int>(starts.size()) != s.rank())
    throw ShapeError(std::string(who) + ": needs one start index per axis of shape " + s.str() +
                     ", got " + std::to_string(starts.size()));
  std::vector<Atom> out;
  for (int d = 0; d < s.rank(); ++d) {
    Atom i = starts[static_cast<std::size_t>(d)];
    const ir::Aval ai = b.aval(i);
    if (ai.shape.rank() != 0 || is_float(ai.dtype) || ai.dtype == DType::bool_)
      throw DTypeError(std::string(who) + ": start index " + std::to_string(d) +
                       " must be an integer scalar, got " + ai.str());
    if (i.is_literal()) {
      ir::Literal l = i.lit.cast(DType::i32, false);
      if (l.i < 0) l.i += s[d];
      out.push_back(Atom::of_literal(l));
      continue;
    }
    if (ai.dtype == DType::u32) {
      out.push_back(i);
      continue;
    }
    const Atom neg = lower_binary(b, Prim::lt, i, Atom::of_literal(ir::Literal::of(0, true)));
    const Atom strong = convert(b, i, {ai.dtype, false});
    const Atom sum = b.emit1(
        Prim::add, {strong, Atom::of_literal(ir::Literal::of(s[d], true).cast(ai.dtype, false))});
    out.push_back(b.emit1(Prim::select_n, {neg, i, sum}));
  }
  return out;
}
}  // namespace

Atom lower_dynamic_slice(GraphBuilder& b, Atom x, const std::vector<Atom>& starts,
                         const std::vector<std::int64_t>& sizes) {
  const ir::Aval ax = b.aval(x);
  if (static_cast<int>(sizes.size()) != ax.shape.rank())
    throw ShapeError("fj::lax::dynamic_slice: slice_sizes " + ir::tuple_str(sizes) +
                     " for an operand of shape " + ax.shape.str());
  for (int d = 0; d < ax.shape.rank(); ++d)
    if (sizes[static_cast<std::size_t>(d)] < 0 || sizes[static_cast<std::size_t>(d)] > ax.shape[d])
      throw ShapeError("fj::lax::dynamic_slice: slice_sizes " + ir::tuple_str(sizes) +
                       " do not fit in an operand of shape " + ax.shape.str());
  std::vector<Atom> in{x};
  for (auto& a : wrap_starts(b, starts, ax.shape, "fj::lax::dynamic_slice")) in.push_back(a);
  ir::Params p;
  p.items.push_back({"slice_sizes", sizes, true});
  return b.emit1(Prim::dynamic_slice, std::move(in), std::move(p));
}

Atom lower_dynamic_update_slice(GraphBuilder& b, Atom x, Atom update,
                                const std::vector<Atom>& starts) {
  const ir::Aval ax = b.aval(x), au = b.aval(update);
  if (au.shape.rank() != ax.shape.rank())
    throw ShapeError("fj::lax::dynamic_update_slice: update of shape " + au.shape.str() +
                     " and operand of shape " + ax.shape.str() + " differ in rank");
  for (int d = 0; d < ax.shape.rank(); ++d)
    if (au.shape[d] > ax.shape[d])
      throw ShapeError("fj::lax::dynamic_update_slice: update of shape " + au.shape.str() +
                       " does not fit in operand of shape " + ax.shape.str());
  if (au.dtype != ax.dtype)
    throw DTypeError("fj::lax::dynamic_update_slice: update " + au.str() + " and operand " +
                     ax.str() + " differ in dtype");
  std::vector<Atom> in{x, update};
  for (auto& a : wrap_starts(b, starts, ax.shape, "fj::lax::dynamic_update_slice")) in.push_back(a);
  return b.emit1(Prim::dynamic_update_slice, std::move(in));
}

}  // namespace fj::detail
