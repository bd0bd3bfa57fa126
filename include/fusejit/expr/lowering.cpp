// Definitions of the jnp-level lowerings (implementation unit only).
#include <functional>
#include <map>
#include <mutex>

#include "fusejit/expr/lowering.hpp"
#include "fusejit/expr/lowering_helpers.hpp"

namespace fj::detail {

TypedDType typed(const GraphBuilder& b, const Atom& a) {
  auto av = b.aval(a);
  return {av.dtype, av.weak};
}

TypedDType to_inexact(TypedDType t) {
  if (is_float(t.dtype)) return t;
  return {DType::f32, t.weak};
}

// Named composites are traced once per operand avals (and variant) and shared, as JAX caches
// the jaxpr of an inner jit; the printer hoists a sub-graph used twice into `let name = ... in`.
ir::GraphPtr shared_subgraph(GraphBuilder& b, std::string key, const std::vector<Atom>& ops,
                             const SubgraphBody& body) {
  std::vector<ir::Aval> avals;
  for (auto& a : ops) {
    avals.push_back(b.aval(a));
    key += " " + avals.back().str() + (avals.back().weak ? "~" : "");
  }
  if (x64_enabled()) key += " x64";  // the body's default dtypes follow the mode
  static std::mutex mu;
  static std::map<std::string, ir::GraphPtr> cache;
  ir::GraphPtr sub;
  {
    std::lock_guard lock(mu);
    if (auto it = cache.find(key); it != cache.end()) sub = it->second;
  }
  if (!sub) {
    GraphBuilder inner;
    std::vector<Atom> ins;
    for (auto& av : avals) ins.push_back(Atom::of_var(inner.add_invar(av)));
    inner.graph.outvars = body(inner, ins);
    sub = std::make_shared<const ir::Graph>(std::move(inner.graph));
    std::lock_guard lock(mu);
    sub = cache.try_emplace(key, sub).first->second;
  }
  return sub;
}

Atom call_named(GraphBuilder& b, const std::string& name, const std::vector<Atom>& ops,
                const std::function<Atom(GraphBuilder&, const std::vector<Atom>&)>& body,
                const std::string& variant) {
  const ir::GraphPtr sub = shared_subgraph(
      b, name + "[" + variant + "]", ops,
      [&](GraphBuilder& g, const std::vector<Atom>& in) { return std::vector<Atom>{body(g, in)}; });
  ir::Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back({"jaxpr", sub, true});
  return b.emit1(Prim::jit, ops, std::move(p));
}

// jnp's promote_shapes: operands of lower rank (but not rank 0) get leading 1s.
Atom rank_promote(GraphBuilder& b, Atom a, int rank) {
  const Shape s = b.aval(a).shape;
  if (s.rank() == 0 || s.rank() == rank) return a;
  Shape padded;
  for (int i = 0; i < rank - s.rank(); ++i) padded.push_back(1);
  for (auto d : s) padded.push_back(d);
  return broadcast_to(b, a, padded);
}

// jnp's promote_args_numeric: one dtype (bool becomes i32, keeping the weak flag), then
// leading 1s for the lower rank; a composite does this once, before any of its ops.
std::pair<Atom, Atom> promote_args_numeric(GraphBuilder& b, Atom x, Atom y, const char* fn) {
  TypedDType t = promote_types(typed(b, x), typed(b, y));
  if (t.dtype == DType::bool_) t.dtype = DType::i32;
  return convert_and_rank_promote(b, x, y, t, fn);
}

std::pair<Atom, Atom> convert_and_rank_promote(GraphBuilder& b, Atom x, Atom y, TypedDType t,
                                               const char* fn) {
  x = convert(b, x, t);
  y = convert(b, y, t);
  const Shape sx = b.aval(x).shape, sy = b.aval(y).shape;
  if (sx.rank() != 0 && sy.rank() != 0) {
    broadcast_shapes(sx, sy, fn);
    const int r = std::max(sx.rank(), sy.rank());
    x = rank_promote(b, x, r);
    y = rank_promote(b, y, r);
  }
  return {x, y};
}

Atom broadcast_np(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& dims, std::size_t first_np) {
  std::vector<std::int64_t> flags(dims.size(), 0);
  for (std::size_t i = first_np; i < dims.size(); ++i) flags[i] = 1;
  ir::Params p;
  p.items.push_back({"shape", shape, false});
  p.items.push_back({"broadcast_dimensions", dims, true});
  p.items.push_back({"broadcast_dimensions@np", flags, false});
  return b.emit1(Prim::broadcast_in_dim, {x}, std::move(p));
}

Atom full_like(GraphBuilder& b, Atom a, int v) {
  const ir::Aval av = b.aval(a);
  const Atom lit = Atom::of_literal(ir::Literal::of(v, true).cast(av.dtype, av.weak));
  return av.shape.rank() == 0 ? lit : broadcast_to(b, lit, av.shape);
}

namespace {

std::string operands_str(const GraphBuilder& b, std::initializer_list<Atom> ops) {
  std::string s;
  for (const Atom& a : ops) {
    const ir::Aval av = b.aval(a);
    s += (s.empty() ? "" : " and ") + av.str() + (av.weak ? " (weak)" : "");
  }
  return s;
}

}  // namespace

Atom convert(GraphBuilder& b, Atom a, TypedDType to) {
  if (typed(b, a) == to) return a;
  if (a.is_literal()) return Atom::of_literal(a.lit.cast(to.dtype, to.weak));
  ir::Params p;
  p.items.push_back({"new_dtype", to.dtype, true});
  p.items.push_back({"weak_type", to.weak, true});
  return b.emit1(Prim::convert_element_type, {a}, std::move(p));
}

Atom broadcast_to(GraphBuilder& b, Atom a, const Shape& shape) {
  const Shape s = b.aval(a).shape;
  if (s == shape) return a;
  if (s.rank() > shape.rank())
    throw ShapeError("broadcast_to: cannot broadcast " + s.str() + " to " + shape.str());
  std::vector<std::int64_t> dims;
  for (int i = 0; i < s.rank(); ++i) dims.push_back(shape.rank() - s.rank() + i);
  ir::Params p;
  p.items.push_back({"shape", shape.to_vector(), false});
  p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
  return b.emit1(Prim::broadcast_in_dim, {a}, std::move(p));
}

Atom lower_unary(GraphBuilder& b, Prim p, Atom a) {
  if (ir::is_float_only(p)) a = convert(b, a, to_inexact(typed(b, a)));
  return b.emit1(p, {a});
}

Atom lower_binary(GraphBuilder& b, Prim p, Atom x, Atom y) {
  const TypedDType t = promote_types(typed(b, x), typed(b, y));
  x = convert(b, x, t);
  y = convert(b, y, t);
  const ir::Aval ax = b.aval(x), ay = b.aval(y);
  if (ax.shape.rank() != 0 && ay.shape.rank() != 0) {
    // Check NumPy broadcasting up front so the error names the user's shapes.
    broadcast_shapes(ax.shape, ay.shape, std::string(ir::name(p)).c_str());
    const int r = std::max(ax.shape.rank(), ay.shape.rank());
    x = rank_promote(b, x, r);
    y = rank_promote(b, y, r);
  }
  return b.emit1(p, {x, y});
}

Atom lower_true_divide(GraphBuilder& b, Atom x, Atom y) {
  const TypedDType t = to_inexact(promote_types(typed(b, x), typed(b, y)));
  return lower_binary(b, Prim::div, convert(b, x, t), convert(b, y, t));
}

Atom lower_pow(GraphBuilder& b, Atom x, Atom y) {
  const TypedDType t = promote_types(typed(b, x), typed(b, y));
  if (!is_float(t.dtype)) return lower_pow_int_int(b, x, y);
  const TypedDType f = to_inexact(t);
  return lower_binary(b, Prim::pow, convert(b, x, f), convert(b, y, f));
}

// jnp's _pow_int_int, unrolled as JAX traces it: binary exponentiation over the exponent's low
// 6 bits (read as unsigned), so an integer result, wrapping; pow(0, y != 0) is 0.
Atom lower_pow_int_int(GraphBuilder& b, Atom x, Atom y) {
  const Shape sx = b.aval(x).shape, sy = b.aval(y).shape;
  if (sx.rank() != 0 && sy.rank() != 0) {
    broadcast_shapes(sx, sy, "fj::pow");
    x = rank_promote(b, x, std::max(sx.rank(), sy.rank()));  // jnp: shapes, then dtypes
    y = rank_promote(b, y, std::max(sx.rank(), sy.rank()));
  }
  auto [base, e] = promote_args_numeric(b, x, y, "fj::pow");
  auto constant = [&](int v) {
    return Atom::of_literal(ir::Literal::of(v, true).cast(b.aval(e).dtype, false));
  };
  const Atom zero = constant(0), one = constant(1);
  Atom base_zero = lower_binary(b, Prim::eq, base, zero);
  Atom e_nonzero = lower_binary(b, Prim::ne, e, zero);
  Atom acc = lower_where(b, lower_binary(b, Prim::and_, base_zero, e_nonzero), zero, one);
  for (int bit = 0; bit < 6; ++bit) {
    Atom odd = lower_binary(b, Prim::and_, e, one);
    Atom times = lower_binary(b, Prim::mul, acc, base);
    acc = lower_where(b, odd, times, acc);
    base = lower_binary(b, Prim::mul, base, base);
    e = b.emit1(Prim::shift_right_logical, {e, one});
  }
  return acc;
}

Atom lower_logical(GraphBuilder& b, Prim p, Atom x, Atom y) {
  auto to_bool = [&](Atom a) {
    if (typed(b, a).dtype == DType::bool_) return a;
    return lower_binary(b, Prim::ne, a, Atom::of_literal(ir::Literal::of(0, true)));
  };
  return lower_binary(b, p, to_bool(x), to_bool(y));
}

Atom lower_logical_not(GraphBuilder& b, Atom x) {
  if (typed(b, x).dtype != DType::bool_)
    return lower_binary(b, Prim::eq, x, Atom::of_literal(ir::Literal::of(0, true)));
  return b.emit1(Prim::not_, {x});
}

Atom lower_astype(GraphBuilder& b, Atom x, DType to) {
  if (x.is_literal()) {
    // A literal cast is still an equation in JAX (astype of a traced scalar is staged).
    ir::Params p;
    p.items.push_back({"new_dtype", to, true});
    p.items.push_back({"weak_type", false, true});
    return b.emit1(Prim::convert_element_type, {x}, std::move(p));
  }
  return convert(b, x, {to, false});
}

Atom lower_where(GraphBuilder& b, Atom c, Atom x, Atom y) {
  return call_named(b, "_where", {c, x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    Atom cond = in[0];
    if (g.aval(cond).dtype != DType::bool_)
      cond = lower_binary(g, Prim::ne, cond, Atom::of_literal(ir::Literal::of(0, true)));
    const TypedDType t = promote_types(typed(g, in[1]), typed(g, in[2]));
    Atom xv = convert(g, in[1], t), yv = convert(g, in[2], t);
    Shape s = broadcast_shapes(g.aval(cond).shape, g.aval(xv).shape, "fj::where");
    s = broadcast_shapes(s, g.aval(yv).shape, "fj::where");
    // select_n takes a scalar predicate as it is; JAX broadcasts only the two cases then.
    if (g.aval(cond).shape.rank() != 0) cond = broadcast_to(g, cond, s);
    xv = broadcast_to(g, xv, s);
    yv = broadcast_to(g, yv, s);
    return g.emit1(Prim::select_n, {cond, yv, xv});
  });
}

Atom lower_clip(GraphBuilder& b, Atom x, std::optional<Atom> lo, std::optional<Atom> hi) {
  std::vector<Atom> ops{x};
  if (lo) ops.push_back(*lo);
  if (hi) ops.push_back(*hi);
  const bool has_lo = lo.has_value(), has_hi = hi.has_value();
  return call_named(
      b, "clip", ops,
      [has_lo, has_hi](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom r = in[0];
        if (has_lo) r = lower_binary(g, Prim::max, in[1], r);
        if (has_hi) r = lower_binary(g, Prim::min, in.back(), r);
        return r;
      },
      std::string(has_lo ? "l" : "") + (has_hi ? "h" : ""));
}

Atom lower_round(GraphBuilder& b, Atom x) {
  // jnp.round is a jit for integers too, one that returns its operand.
  return call_named(b, "round", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    if (!is_float(typed(g, in[0]).dtype)) return in[0];
    ir::Params p;
    p.items.push_back({"rounding_method", std::int64_t{1}, true});
    return g.emit1(Prim::round, {in[0]}, std::move(p));
  });
}

Atom lower_remainder(GraphBuilder& b, Atom x, Atom y) {
  return call_named(b, "remainder", {x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    auto [xv, yv] = promote_args_numeric(g, in[0], in[1], "fj::remainder");
    const TypedDType t = typed(g, xv);
    // Constants take the operands' dtype, strongly typed, as JAX's _constant_like makes them.
    auto constant = [&](int v) {
      return Atom::of_literal(ir::Literal::of(v, true).cast(t.dtype, false));
    };
    const Atom zero = constant(0);
    if (!is_float(t.dtype)) {
      // Integer division by zero is undefined; JAX divides by 1 instead.
      Atom is_zero = lower_binary(g, Prim::eq, yv, zero);
      Atom ones = full_like(g, yv, 1);
      yv = lower_where(g, is_zero, ones, yv);
    }
    Atom r = lower_binary(g, Prim::rem, xv, yv);
    Atom nonzero = lower_binary(g, Prim::ne, r, zero);
    Atom r_neg = lower_binary(g, Prim::lt, r, zero);
    Atom y_neg = lower_binary(g, Prim::lt, yv, zero);
    Atom signs_differ = lower_binary(g, Prim::ne, r_neg, y_neg);
    Atom fix = lower_binary(g, Prim::and_, signs_differ, nonzero);
    Atom shifted = lower_binary(g, Prim::add, r, yv);
    return g.emit1(Prim::select_n, {fix, r, shifted});
  });
}

Atom lower_bitwise(GraphBuilder& b, Prim p, Atom x, Atom y, const char* fn) {
  if (is_float(promote_types(typed(b, x), typed(b, y)).dtype))
    throw DTypeError(std::string(fn) + ": needs integer or bool operands, got " +
                     operands_str(b, {x, y}));
  return lower_binary(b, p, x, y);
}

Atom lower_bitwise_not(GraphBuilder& b, Atom x) {
  if (is_float(typed(b, x).dtype))
    throw DTypeError("fj::bitwise_not: needs an integer or bool operand, got " +
                     operands_str(b, {x}));
  return b.emit1(Prim::not_, {x});
}

Atom lower_shift(GraphBuilder& b, bool left, Atom x, Atom y) {
  const char* fn = left ? "fj::left_shift" : "fj::right_shift";
  if (is_float(promote_types(typed(b, x), typed(b, y)).dtype))
    throw DTypeError(std::string(fn) + ": needs integer or bool operands, got " +
                     operands_str(b, {x, y}));
  auto [xv, yv] = promote_args_numeric(b, x, y, fn);
  const DType d = b.aval(xv).dtype;
  const Prim p = left              ? Prim::shift_left
                 : d == DType::u32 ? Prim::shift_right_logical
                                   : Prim::shift_right_arithmetic;
  return b.emit1(p, {xv, yv});
}

Atom lower_integer_pow(GraphBuilder& b, Atom x, std::int64_t n) {
  TypedDType t = typed(b, x);
  if (t.dtype == DType::bool_) t.dtype = DType::i32;
  if (n < 0 && !is_float(t.dtype))
    throw DTypeError(
        "fj::integer_pow: integers cannot be raised to negative powers, got "
        "integer_pow(" +
        operands_str(b, {x}) + ", " + std::to_string(n) + ")");
  x = convert(b, x, t);
  ir::Params p;
  p.items.push_back({"y", n, true});
  return b.emit1(Prim::integer_pow, {x}, std::move(p));
}

Atom lower_floor_divide(GraphBuilder& b, Atom x, Atom y) {
  return call_named(b, "floor_divide", {x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    auto [xv, yv] = promote_args_numeric(g, in[0], in[1], "fj::floor_divide");
    const DType d = g.aval(xv).dtype;
    if (d == DType::u32) return lower_binary(g, Prim::div, xv, yv);
    auto weak = [](auto v) { return Atom::of_literal(ir::Literal::of(v, true)); };
    if (!is_float(d)) {
      // Truncating division, one lower where the signs differ and the division is inexact.
      // x / 0 is -1 on every backend (XLA's), so x // 0 is -1 or -2, as in JAX, never a trap.
      Atom q = lower_binary(g, Prim::div, xv, yv);
      Atom sign_x = g.emit1(Prim::sign, {xv});  // one statement each: JAX's equation order
      Atom sign_y = g.emit1(Prim::sign, {yv});
      Atom signs_differ = lower_binary(g, Prim::ne, sign_x, sign_y);
      Atom inexact = lower_binary(g, Prim::ne, lower_binary(g, Prim::rem, xv, yv), weak(0));
      Atom fix = lower_binary(g, Prim::and_, signs_differ, inexact);
      return lower_where(g, fix, lower_binary(g, Prim::sub, q, weak(1)), q);
    }
    // jnp's _float_divmod (CPython's float_divmod): the quotient of x - fmod(x, y), rounded.
    // The corrected modulus is staged though unused, as JAX stages it.
    Atom mod = lower_binary(g, Prim::rem, xv, yv);
    Atom y_zero = lower_binary(g, Prim::eq, yv, weak(0));
    Atom x_corrected = lower_where(g, y_zero, xv, lower_binary(g, Prim::sub, xv, mod));
    Atom q = lower_binary(g, Prim::div, x_corrected, yv);
    Atom mod_nonzero = lower_binary(g, Prim::ne, mod, weak(0));
    Atom sign_y = g.emit1(Prim::sign, {yv});
    Atom sign_mod = g.emit1(Prim::sign, {mod});
    Atom signs_differ = lower_binary(g, Prim::ne, sign_y, sign_mod);
    Atom ind = lower_binary(g, Prim::and_, mod_nonzero, signs_differ);
    g.emit1(Prim::select_n, {ind, mod, lower_binary(g, Prim::add, mod, yv)});
    Atom q_fixed = g.emit1(Prim::select_n, {ind, q, lower_binary(g, Prim::sub, q, weak(1.0))});
    ir::Params p;
    p.items.push_back({"rounding_method", std::int64_t{0}, true});
    return g.emit1(Prim::round, {q_fixed}, std::move(p));
  });
}

}  // namespace fj::detail

namespace fj::detail {

namespace {
std::vector<std::int64_t> normalize_axes(const ir::Aval& a, const std::vector<int>& axes,
                                         bool all_axes, const char* what) {
  std::vector<std::int64_t> out;
  const int r = a.shape.rank();
  if (all_axes) {
    for (int d = 0; d < r; ++d) out.push_back(d);
    return out;
  }
  for (int ax : axes) {
    if (ax < -r || ax >= r)
      throw ShapeError(std::string(what) + ": axis " + std::to_string(ax) +
                       " is out of range for an array of shape " + a.shape.str());
    const std::int64_t d = ax < 0 ? ax + r : ax;
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw ShapeError(std::string(what) + ": axis " + std::to_string(ax) + " is repeated");
    out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Atom keep_dims(GraphBuilder& b, Atom r, const Shape& in, const std::vector<std::int64_t>& axes) {
  Shape kept;
  std::vector<std::int64_t> dims;
  for (int d = 0; d < in.rank(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!reduced) dims.push_back(kept.rank());
    kept.push_back(reduced ? 1 : in[d]);
  }
  ir::Params p;
  p.items.push_back({"shape", kept.to_vector(), false});
  p.items.push_back({"broadcast_dimensions", dims, !dims.empty()});
  return b.emit1(Prim::broadcast_in_dim, {r}, std::move(p));
}

Atom lower_reduce(GraphBuilder& b, Prim p, Atom x, const std::vector<int>& axes, bool all_axes,
                  bool keepdims) {
  const char* what = p == Prim::reduce_sum    ? "fj::sum"
                     : p == Prim::reduce_prod ? "fj::prod"
                     : p == Prim::reduce_max  ? "fj::max"
                     : p == Prim::reduce_min  ? "fj::min"
                     : p == Prim::reduce_and  ? "fj::all"
                                              : "fj::any";
  TypedDType t = typed(b, x);
  if (p == Prim::reduce_and || p == Prim::reduce_or) {
    if (t.dtype != DType::bool_)
      x = lower_binary(b, Prim::ne, x, Atom::of_literal(ir::Literal::of(0, true)));
  } else if (p == Prim::reduce_sum || p == Prim::reduce_prod) {
    // jnp's promote_integers: bools are counted as int32, then bools and narrower signed ints
    // as the default int (int64 in x64 mode). fusejit has no uint64: uint32 stays uint32.
    if (t.dtype == DType::bool_) x = convert(b, x, {DType::i32, false});
    if ((t.dtype == DType::bool_ || t.dtype == DType::i32) && default_int_dtype() == DType::i64)
      x = convert(b, x, {DType::i64, false});
  }
  const ir::Aval av = b.aval(x);
  const auto ax = normalize_axes(av, axes, all_axes, what);
  // No axes (a scalar, or axis=()) still stage the reduction, as jnp's reductions do.
  ir::Params params;
  params.items.push_back({"axes", ax, true});
  if (p == Prim::reduce_sum) params.items.push_back({"out_sharding", std::string("None"), true});
  Atom r = b.emit1(p, {x}, std::move(params));
  return keepdims ? keep_dims(b, r, av.shape, ax) : r;
}

Atom lower_mean(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes,
                bool keepdims) {
  const TypedDType t = typed(b, x);
  if (!is_float(t.dtype)) x = convert(b, x, {DType::f32, t.weak});
  const ir::Aval av = b.aval(x);
  const auto ax = normalize_axes(av, axes, all_axes, "fj::mean");
  std::int64_t count = 1;
  for (auto d : ax) count *= av.shape[static_cast<int>(d)];
  Atom s = lower_reduce(b, Prim::reduce_sum, x, axes, all_axes, keepdims);
  return lower_binary(b, Prim::div, s,
                      Atom::of_literal(ir::Literal::of(static_cast<double>(count), true)));
}

}  // namespace fj::detail

namespace fj::detail {

Atom lower_transpose(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& perm) {
  const int r = b.aval(x).shape.rank();
  std::vector<std::int64_t> p = perm;
  if (p.empty())
    for (int d = r - 1; d >= 0; --d) p.push_back(d);
  bool identity = static_cast<int>(p.size()) == r;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] < 0) p[i] += r;
    identity = identity && p[i] == static_cast<std::int64_t>(i);
  }
  if (identity) return x;  // lax.transpose stages nothing for the identity (x.T of a vector)
  ir::Params params;
  params.items.push_back({"permutation", p, true});
  return b.emit1(Prim::transpose, {x}, std::move(params));
}

Atom lower_reshape(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& sizes) {
  const Shape in = b.aval(x).shape;
  std::vector<std::int64_t> s = sizes;
  std::int64_t known = 1;
  int infer = -1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (infer >= 0) throw ShapeError("fj::reshape: more than one -1 in " + ir::tuple_str(sizes));
      infer = static_cast<int>(i);
    } else {
      known *= s[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || in.size() % known != 0)
      throw ShapeError("fj::reshape: cannot reshape an array of shape " + in.str() + " into " +
                       ir::tuple_str(sizes));
    s[static_cast<std::size_t>(infer)] = in.size() / known;
  }
  if (Shape(s) == in) return x;
  ir::Params params;
  params.items.push_back({"dimensions", std::string("None"), true});
  params.items.push_back({"new_sizes", s, true});
  params.items.push_back({"sharding", std::string("None"), true});
  return b.emit1(Prim::reshape, {x}, std::move(params));
}

std::vector<Atom> lower_split(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& sizes,
                              int axis) {
  const ir::Aval a = b.aval(x);
  const Shape& in = a.shape;
  if (axis < -in.rank() || axis >= in.rank())
    throw ShapeError("fj::lax::split: axis " + std::to_string(axis) + " is out of range for " +
                     a.str());
  std::int64_t total = 0;
  for (auto s : sizes) {
    if (s < 0)
      throw ShapeError("fj::lax::split: sizes " + ir::tuple_str(sizes) +
                       " must be nonnegative, for " + a.str());
    total += s;
  }
  const std::int64_t extent = in[axis < 0 ? axis + in.rank() : axis];
  if (total != extent)
    throw ShapeError("fj::lax::split: sizes " + ir::tuple_str(sizes) + " sum to " +
                     std::to_string(total) + ", but " + a.str() + " has " + std::to_string(extent) +
                     " along axis " + std::to_string(axis));
  ir::Params params;
  params.items.push_back({"axis", std::int64_t{axis < 0 ? axis + in.rank() : axis}, true});
  params.items.push_back({"sizes", sizes, true});
  return b.emit(Prim::split, {x}, std::move(params));
}

Atom lower_slice(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& start,
                 const std::vector<std::int64_t>& stop, const std::vector<std::int64_t>& step) {
  const Shape in = b.aval(x).shape;
  const auto r = static_cast<std::size_t>(in.rank());
  if (start.size() != r || stop.size() != r || (!step.empty() && step.size() != r))
    throw ShapeError("fj::slice: needs one bound per axis of shape " + in.str() + ", got " +
                     ir::tuple_str(start) + " to " + ir::tuple_str(stop));
  for (std::int64_t st : step)
    if (st < 1)
      throw ValueError("fj::slice: steps must be positive, got " + ir::tuple_str(step) +
                       " for shape " + in.str() + " (fj::range takes negative steps)");
  std::vector<std::int64_t> b0, e0;
  bool unit = true;
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t n = in[static_cast<int>(d)];
    std::int64_t s = start[d] < 0 ? start[d] + n : start[d],
                 e = stop[d] < 0 ? stop[d] + n : stop[d];
    if (s < 0 || s > n || e < 0 || e > n)
      throw ShapeError("fj::slice: bounds " + ir::tuple_str(start) + " to " + ir::tuple_str(stop) +
                       " are out of range for shape " + in.str());
    b0.push_back(s);
    e0.push_back(std::max(s, e));
    if (!step.empty() && step[d] != 1) unit = false;
  }
  // A step of n or more takes one element, as one of n does; clamping huge ones keeps the
  // shape rule's (limit - start + step - 1) from overflowing near INT64_MAX.
  std::vector<std::int64_t> steps(step.begin(), step.end());
  for (std::size_t d = 0; d < steps.size(); ++d)
    steps[d] =
        std::min(steps[d], std::max<std::int64_t>(in[static_cast<int>(d)], std::int64_t{1} << 32));
  ir::Params params;
  params.items.push_back({"limit_indices", e0, true});
  params.items.push_back({"start_indices", b0, true});
  if (unit)
    params.items.push_back({"strides", std::string("None"), true});
  else
    params.items.push_back({"strides", steps, true});
  return b.emit1(Prim::slice, {x}, std::move(params));
}

}  // namespace fj::detail
