// Definitions of jax.nn's functions as JAX 0.10.2 stages them (relu's custom_jvp_call, softplus,
// gelu, silu, log_softmax, softmax, logsumexp, one_hot), the same equations in the same order,
// and the staging of custom_jvp_call itself (implementation unit only).
#include <cmath>
#include <cstdint>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_math.hpp"
#include "fusejit/expr/lowering_nn.hpp"

namespace fj::detail {

namespace {

Atom nn_weak(double v) { return Atom::of_literal(ir::Literal::of(v, true)); }
Atom nn_weak_int(int v) { return Atom::of_literal(ir::Literal::of(v, true)); }
// A strongly typed scalar of a's dtype (JAX's _const / np.float32(v)).
Atom nn_const(GraphBuilder& b, Atom a, double v) {
  return Atom::of_literal(ir::Literal::of(v, false).cast(b.aval(a).dtype, false));
}
Atom nn_inexact(GraphBuilder& b, Atom x) { return convert(b, x, to_inexact(typed(b, x))); }
Atom nn_unary(GraphBuilder& b, Prim p, Atom x) { return b.emit1(p, {x}); }

std::vector<int> nn_ints(const std::vector<std::int64_t>& v) { return {v.begin(), v.end()}; }

// jnp.max / jnp.min with `initial` (JAX's -inf for max in softmax, 0 for norm's inf orders):
// the reduction, then max (min) with the initial value, then keepdims.
Atom reduce_initial(GraphBuilder& b, Prim p, Atom x, const std::vector<std::int64_t>& axes,
                    std::optional<double> initial, bool keepdims) {
  const Shape s = b.aval(x).shape;
  Atom r = lower_reduce(b, p, x, nn_ints(axes), false, false);
  if (initial)
    r = lower_binary(b, p == Prim::reduce_max ? Prim::max : Prim::min, nn_const(b, r, *initial), r);
  return keepdims && !axes.empty() ? keep_dims(b, r, s, axes) : r;
}

Atom nn_reduce_sum(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& axes, bool keepdims) {
  const Shape s = b.aval(x).shape;
  Atom r = lower_reduce(b, Prim::reduce_sum, x, nn_ints(axes), false, false);
  return keepdims && !axes.empty() ? keep_dims(b, r, s, axes) : r;
}

}  // namespace

std::vector<Atom> call_custom_jvp(GraphBuilder& b, const std::string& name,
                                  const std::vector<Atom>& ops, const SubgraphBody& body,
                                  std::shared_ptr<const ir::CustomJvpRule> rule,
                                  const std::string& variant) {
  // Keyed like call_named's sub-graphs, plus the rule (two rules may share a name).
  const ir::GraphPtr sub =
      shared_subgraph(b,
                      "custom_jvp_call " + name + "[" + variant + "] " +
                          std::to_string(reinterpret_cast<std::uintptr_t>(rule.get())),
                      ops, body);
  return b.emit(Prim::custom_jvp_call, ops, ir::custom_jvp_params(name, sub, std::move(rule)));
}

std::vector<std::int64_t> canonical_axes(const Shape& s, const Axes& axes, const char* fn) {
  std::vector<std::int64_t> out;
  const int r = s.rank();
  if (axes.all) {
    for (int d = 0; d < r; ++d) out.push_back(d);
    return out;
  }
  for (int ax : axes.list) {
    if (ax < -r || ax >= r)
      throw ShapeError(std::string(fn) + ": axis " + std::to_string(ax) +
                       " is out of range for an array of shape " + s.str());
    const std::int64_t d = ax < 0 ? ax + r : ax;
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw ShapeError(std::string(fn) + ": axis " + std::to_string(ax) + " is repeated");
    out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// relu's rule (jax.nn.relu.defjvps): select(x > 0, g, 0), so the derivative at 0 is 0.
Atom lower_relu(GraphBuilder& b, Atom x) {
  static const auto rule = std::make_shared<const ir::FunctionJvpRule>(
      "jvp",
      [](GraphBuilder& g, const std::vector<Atom>& p, const std::vector<Atom>&,
         const std::vector<Atom>& t) -> std::vector<Atom> {
        Atom pos = lower_binary(g, Prim::gt, p[0], nn_weak_int(0));
        return {g.emit1(Prim::select_n, {pos, full_like(g, t[0], 0), t[0]})};
      });
  return call_custom_jvp(
      b, "relu", {x},
      [](GraphBuilder& g, const std::vector<Atom>& in) -> std::vector<Atom> {
        return {call_named(g, "relu", {in[0]}, [](GraphBuilder& h, const std::vector<Atom>& v) {
          return lower_binary(h, Prim::max, v[0], nn_weak_int(0));
        })};
      },
      rule)[0];
}

Atom lower_softplus(GraphBuilder& b, Atom x) {
  return call_named(b, "softplus", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    return lower_logaddexp(g, in[0], nn_weak_int(0), false);
  });
}

Atom lower_gelu(GraphBuilder& b, Atom x, bool approximate) {
  x = nn_inexact(b, x);
  if (approximate) {
    // x * 0.5 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), constants in x's dtype.
    Atom cube = lower_integer_pow(b, x, 3);
    Atom inner = lower_binary(b, Prim::add, x, lower_binary(b, Prim::mul, nn_weak(0.044715), cube));
    Atom arg = lower_binary(b, Prim::mul, nn_const(b, x, std::sqrt(2 / M_PI)), inner);
    Atom cdf = lower_binary(b, Prim::add, nn_weak(1.0), nn_unary(b, Prim::tanh, arg));
    return lower_binary(b, Prim::mul, x, lower_binary(b, Prim::mul, nn_weak(0.5), cdf));
  }
  // x / 2 * erfc(-x / sqrt 2), then jnp.array(..., dtype)'s copy.
  Atom half = lower_binary(b, Prim::mul, nn_weak(0.5), x);
  Atom arg = lower_binary(b, Prim::mul, nn_unary(b, Prim::neg, x), nn_const(b, x, std::sqrt(0.5)));
  return nn_unary(b, Prim::copy, lower_binary(b, Prim::mul, half, nn_unary(b, Prim::erfc, arg)));
}

Atom lower_silu(GraphBuilder& b, Atom x) {
  return call_named(b, "silu", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    return lower_binary(g, Prim::mul, in[0], lower_unary(g, Prim::logistic, in[0]));
  });
}

namespace {

// x - stop_gradient(max(x, axes, initial=-inf, keepdims=True)): softmax's shifted input.
Atom nn_shifted(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& axes) {
  Atom m = reduce_initial(b, Prim::reduce_max, x, axes, -INFINITY, true);
  return lower_binary(b, Prim::sub, x, nn_unary(b, Prim::stop_gradient, m));
}

std::string nn_axes_variant(const std::vector<std::int64_t>& axes) { return ir::tuple_str(axes); }

}  // namespace

Atom lower_log_softmax(GraphBuilder& b, Atom x, const Axes& axes) {
  const auto ax = canonical_axes(b.aval(x).shape, axes, "fj::nn::log_softmax");
  return call_named(
      b, "log_softmax", {x},
      [ax](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom s = nn_shifted(g, in[0], ax);
        Atom lse = nn_unary(g, Prim::log, nn_reduce_sum(g, nn_unary(g, Prim::exp, s), ax, true));
        return lower_binary(g, Prim::sub, s, lse);
      },
      nn_axes_variant(ax));
}

Atom lower_softmax(GraphBuilder& b, Atom x, const Axes& axes) {
  const auto ax = canonical_axes(b.aval(x).shape, axes, "fj::nn::softmax");
  Atom e = nn_unary(b, Prim::exp, nn_shifted(b, x, ax));
  return lower_binary(b, Prim::div, e, nn_reduce_sum(b, e, ax, true));
}

std::vector<Atom> lower_logsumexp(GraphBuilder& b, Atom x, std::optional<Atom> bw, const Axes& axes,
                                  bool keepdims, bool sign) {
  Atom a = x;
  if (bw) {
    // promote_args_inexact(a, b), then -inf where b == 0.
    const TypedDType t = to_inexact(promote_types(typed(b, x), typed(b, *bw)));
    a = convert(b, a, t);
    Atom w = convert(b, *bw, t);
    const Shape sa = b.aval(a).shape, sw = b.aval(w).shape;
    if (sa.rank() != 0 && sw.rank() != 0) {
      broadcast_shapes(sa, sw, "fj::nn::logsumexp");
      const int r = std::max(sa.rank(), sw.rank());
      a = rank_promote(b, a, r);
      w = rank_promote(b, w, r);
    }
    bw = w;
    a = lower_where(b, lower_binary(b, Prim::ne, w, nn_weak(0.0)), a, nn_weak(-INFINITY));
  } else {
    a = nn_inexact(b, a);
  }
  const Shape s = b.aval(a).shape;
  const auto ax = canonical_axes(s, axes, "fj::nn::logsumexp");
  // The max, 0 where it is not finite (all -inf), behind stop_gradient.
  Atom amax = reduce_initial(b, Prim::reduce_max, a, ax, -INFINITY, keepdims);
  Atom finite = nn_unary(b, Prim::is_finite, amax);
  amax = b.emit1(Prim::select_n, {finite, full_like(b, amax, 0), amax});
  amax = nn_unary(b, Prim::stop_gradient, amax);
  Atom amax_dims = keepdims || ax.empty() ? amax : keep_dims(b, amax, s, ax);
  Atom e = nn_unary(b, Prim::exp, lower_binary(b, Prim::sub, a, amax_dims));
  if (bw) e = lower_binary(b, Prim::mul, e, *bw);
  Atom sum = nn_reduce_sum(b, e, ax, keepdims);
  Atom sgn = nn_unary(b, Prim::sign, sum);
  Atom out = lower_binary(b, Prim::add, nn_unary(b, Prim::log, nn_unary(b, Prim::abs, sum)), amax);
  if (sign) return {out, sgn};
  if (bw) {
    Atom neg = lower_binary(b, Prim::lt, sgn, nn_weak(0.0));
    out = lower_where(b, neg, nn_const(b, out, NAN), out);
  }
  return {out};
}

Atom lower_one_hot(GraphBuilder& b, Atom x, std::int64_t num_classes, DType dtype, int axis) {
  const Shape s = b.aval(x).shape;
  const int r = s.rank() + 1;
  if (axis < -r || axis >= r)
    throw ShapeError("fj::nn::one_hot: axis " + std::to_string(axis) +
                     " is out of range for a result of rank " + std::to_string(r) +
                     " (indices of shape " + s.str() + ")");
  if (num_classes < 0)
    throw ValueError("fj::nn::one_hot: num_classes must be non-negative, got " +
                     std::to_string(num_classes));
  const int pos = axis < 0 ? axis + r : axis;
  return call_named(
      b, "_one_hot", {x},
      [=](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom lhs = lower_expand_dims(g, in[0], {axis});
        Shape rhs_shape;
        for (int d = 0; d < r; ++d) rhs_shape.push_back(d == pos ? num_classes : 1);
        Atom rhs = lower_iota(g, g.aval(in[0]).dtype, rhs_shape, pos);
        return lower_astype(g, lower_binary(g, Prim::eq, lhs, rhs), dtype);
      },
      std::to_string(num_classes) + " " + std::string(long_name(dtype)) + " " +
          std::to_string(pos));
}

}  // namespace fj::detail
