// Definitions of the jnp elementwise functions that JAX stages as compositions of primitives
// (log2, trunc, isinf, signbit, copysign, hypot, logaddexp, ...): the same equations in the same
// order, so that make_jaxpr prints JAX 0.10.2's text (implementation unit only).
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_math.hpp"
#include "fusejit/expr/lowering_nn.hpp"

namespace fj::detail {

namespace {

// A strongly typed scalar literal of a's dtype: JAX's _constant_like / _lax_const.
Atom constant_like(GraphBuilder& b, Atom a, double v) {
  return Atom::of_literal(ir::Literal::of(v, false).cast(b.aval(a).dtype, false));
}
Atom weak(double v) { return Atom::of_literal(ir::Literal::of(v, true)); }
Atom weak_int(int v) { return Atom::of_literal(ir::Literal::of(v, true)); }

// jnp's promote_args_inexact for one operand: integers and bools become f32.
Atom inexact(GraphBuilder& b, Atom x) { return convert(b, x, to_inexact(typed(b, x))); }

// jnp's promote_args_inexact for two: one inexact dtype, each converted in turn, then leading
// 1s for the lower rank.
std::pair<Atom, Atom> inexact2(GraphBuilder& b, Atom x, Atom y, const char* fn) {
  return convert_and_rank_promote(b, x, y, to_inexact(promote_types(typed(b, x), typed(b, y))), fn);
}

// A bool array of a's shape filled with v (JAX's full_like(x, v, dtype=bool)).
Atom full_bool(GraphBuilder& b, Atom a, bool v) {
  const Atom lit = Atom::of_literal(ir::Literal::of(v, false).cast(DType::bool_, false));
  const Shape s = b.aval(a).shape;
  return s.rank() == 0 ? lit : broadcast_to(b, lit, s);
}

Atom unary(GraphBuilder& b, Prim p, Atom x) { return b.emit1(p, {x}); }

}  // namespace

Atom lower_arccosh(GraphBuilder& b, Atom x) {
  return call_named(
      b, "arccosh", {inexact(b, x)},
      [](GraphBuilder& g, const std::vector<Atom>& in) { return unary(g, Prim::acosh, in[0]); });
}

Atom lower_log2(GraphBuilder& b, Atom x) {
  x = inexact(b, x);
  Atom l = unary(b, Prim::log, x);
  return lower_binary(b, Prim::div, l, unary(b, Prim::log, constant_like(b, x, 2.0)));
}

Atom lower_log10(GraphBuilder& b, Atom x) {
  x = inexact(b, x);
  return lower_binary(b, Prim::mul, unary(b, Prim::log, x),
                      constant_like(b, x, 1.0 / std::log(10.0)));
}

// where(x < 0, ceil x, floor x); integers pass through an empty jit.
Atom lower_trunc(GraphBuilder& b, Atom x) {
  return call_named(b, "trunc", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    if (!is_float(g.aval(in[0]).dtype)) return in[0];
    Atom neg = lower_binary(g, Prim::lt, in[0], weak(0.0));
    Atom c = unary(g, Prim::ceil, in[0]);
    Atom f = unary(g, Prim::floor, in[0]);
    return lower_where(g, neg, c, f);
  });
}

// round[rounding_method=1] (half to even); integers become f32 and are returned as they are.
Atom lower_rint(GraphBuilder& b, Atom x) {
  return call_named(b, "rint", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    Atom v = inexact(g, in[0]);
    if (!is_float(g.aval(in[0]).dtype)) return v;
    ir::Params p;
    p.items.push_back({"rounding_method", std::int64_t{1}, true});
    return g.emit1(Prim::round, {v}, std::move(p));
  });
}

Atom lower_isnan(GraphBuilder& b, Atom x) { return lower_binary(b, Prim::ne, x, x); }

Atom lower_isinf(GraphBuilder& b, Atom x) {
  return call_named(b, "isinf", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    if (!is_float(g.aval(in[0]).dtype)) return full_bool(g, in[0], false);
    Atom a = unary(g, Prim::abs, in[0]);
    return lower_binary(g, Prim::eq, a, constant_like(g, a, INFINITY));
  });
}

Atom lower_isfinite(GraphBuilder& b, Atom x) {
  if (!is_float(b.aval(x).dtype)) return full_bool(b, x, true);
  return unary(b, Prim::is_finite, x);
}

// Floats: the sign bit, by a bitcast to the same-width integer and an arithmetic shift of its
// width - 1; integers: x < 0.
Atom lower_signbit(GraphBuilder& b, Atom x) {
  return call_named(b, "signbit", {x}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    const DType d = g.aval(in[0]).dtype;
    if (!is_float(d)) return lower_binary(g, Prim::lt, in[0], constant_like(g, in[0], 0));
    const DType as_int = d == DType::f32 ? DType::i32 : DType::i64;
    ir::Params p;
    p.items.push_back({"new_dtype", as_int, true});
    Atom bits = g.emit1(Prim::bitcast_convert_type, {in[0]}, std::move(p));
    Atom fill = g.emit1(Prim::shift_right_arithmetic,
                        {bits, constant_like(g, bits, d == DType::f32 ? 31 : 63)});
    return convert(g, fill, {DType::bool_, false});
  });
}

// where(signbit(y), -|x|, |x|), |x| staged twice as JAX does.
Atom lower_copysign(GraphBuilder& b, Atom x, Atom y) {
  return call_named(b, "copysign", {x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    auto [xv, yv] = inexact2(g, in[0], in[1], "fj::copysign");
    Atom s = lower_signbit(g, yv);
    Atom neg = unary(g, Prim::neg, unary(g, Prim::abs, xv));
    return lower_where(g, s, neg, unary(g, Prim::abs, xv));
  });
}

// max * sqrt(1 + (min / max)^2), with 0 for two zeros and inf when either is infinite (even
// with a NaN beside it, as JAX).
Atom lower_hypot(GraphBuilder& b, Atom x, Atom y) {
  return call_named(b, "hypot", {x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    auto [xv, yv] = inexact2(g, in[0], in[1], "fj::hypot");
    xv = unary(g, Prim::abs, xv);
    yv = unary(g, Prim::abs, yv);
    Atom inf_x = lower_binary(g, Prim::eq, xv, constant_like(g, xv, INFINITY));
    Atom inf_y = lower_binary(g, Prim::eq, yv, constant_like(g, yv, INFINITY));
    Atom any_inf = lower_binary(g, Prim::or_, inf_x, inf_y);
    Atom hi = lower_binary(g, Prim::max, xv, yv);
    Atom lo = lower_binary(g, Prim::min, xv, yv);
    Atom hi_zero = lower_binary(g, Prim::eq, hi, weak(0.0));
    Atom hi_zero_again = lower_binary(g, Prim::eq, hi, weak(0.0));
    Atom safe = lower_where(g, hi_zero_again, full_like(g, hi, 1), hi);
    Atom q = unary(g, Prim::square, lower_binary(g, Prim::div, lo, safe));
    Atom r = lower_binary(g, Prim::mul, hi,
                          unary(g, Prim::sqrt, lower_binary(g, Prim::add, weak(1.0), q)));
    Atom h = lower_where(g, hi_zero, hi, r);
    return lower_where(g, any_inf, constant_like(g, h, INFINITY), h);
  });
}

// max + log1p(exp(-|x - y|)); x + y where x - y is NaN (both infinite of one sign, or a NaN).
// Staged inside custom_jvp_call[name=logaddexp], as JAX does, with JAX's rule: each operand's
// tangent times exp(x_i - out), +inf replaced by 0 on both sides (so a -inf operand gets a zero
// derivative, not NaN).
Atom lower_logaddexp(GraphBuilder& b, Atom x, Atom y, bool base2) {
  auto [xv, yv] = inexact2(b, x, y, base2 ? "fj::logaddexp2" : "fj::logaddexp");
  static const auto rules = [] {
    std::array<std::shared_ptr<const ir::CustomJvpRule>, 2> r;
    for (bool two : {false, true})
      r[two] = std::make_shared<const ir::FunctionJvpRule>(
          two ? "_logaddexp2_jvp" : "_logaddexp_jvp",
          [two](GraphBuilder& g, const std::vector<Atom>& p, const std::vector<Atom>& o,
                const std::vector<Atom>& t) -> std::vector<Atom> {
            auto replace_inf = [&](Atom v) {
              Atom is_inf = g.emit1(Prim::eq, {v, constant_like(g, v, INFINITY)});
              return g.emit1(Prim::select_n, {is_inf, v, full_like(g, v, 0)});
            };
            auto term = [&](std::size_t i) {
              Atom d = lower_binary(g, Prim::sub, replace_inf(p[i]), replace_inf(o[0]));
              return lower_binary(g, Prim::mul, t[i], unary(g, two ? Prim::exp2 : Prim::exp, d));
            };
            Atom first = term(0);
            return {lower_binary(g, Prim::add, first, term(1))};
          });
    return r;
  }();
  return call_custom_jvp(
      b, base2 ? "logaddexp2" : "logaddexp", {xv, yv},
      [base2](GraphBuilder& g, const std::vector<Atom>& in) -> std::vector<Atom> {
        Atom amax = lower_binary(g, Prim::max, in[0], in[1]);
        Atom delta = lower_binary(g, Prim::sub, in[0], in[1]);
        Atom isnan = lower_binary(g, Prim::ne, delta, delta);
        Atom sum = lower_binary(g, Prim::add, in[0], in[1]);
        Atom e = unary(g, base2 ? Prim::exp2 : Prim::exp,
                       unary(g, Prim::neg, unary(g, Prim::abs, delta)));
        Atom l = unary(g, Prim::log1p, e);
        if (base2) l = lower_binary(g, Prim::mul, constant_like(g, l, 1.0 / std::log(2.0)), l);
        return {g.emit1(Prim::select_n, {isnan, lower_binary(g, Prim::add, amax, l), sum})};
      },
      rules[base2])[0];
}

// lax.rem (C's fmod: the result has x's sign); integer division by zero divides by 1 instead.
Atom lower_fmod(GraphBuilder& b, Atom x, Atom y) {
  return call_named(b, "fmod", {x, y}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    auto [xv, yv] = promote_args_numeric(g, in[0], in[1], "fj::fmod");
    if (!is_float(g.aval(xv).dtype)) {
      Atom zero = lower_binary(g, Prim::eq, yv, weak_int(0));
      yv = lower_where(g, zero, full_like(g, yv, 1), yv);
    }
    return lower_binary(g, Prim::rem, xv, yv);
  });
}

Atom lower_rem(GraphBuilder& b, Atom x, Atom y) { return lower_binary(b, Prim::rem, x, y); }

Atom lower_clamp(GraphBuilder& b, Atom lo, Atom x, Atom hi) {
  const ir::Aval xa = b.aval(x);
  auto bound = [&](Atom a, const char* name) {
    const TypedDType t = typed(b, a);
    const ir::Aval ba = b.aval(a);
    if (t.weak && ba.shape.rank() == 0 && t.dtype != xa.dtype &&
        is_float(t.dtype) == is_float(xa.dtype) && t.dtype != DType::bool_ &&
        xa.dtype != DType::bool_)
      return convert(b, a, {xa.dtype, true});
    if (t.dtype != xa.dtype)
      throw DTypeError(std::string("fj::lax::clamp: ") + name + " " + ba.str() +
                       " must have x's dtype, x " + xa.str());
    if (ba.shape.rank() != 0 && !(ba.shape == xa.shape))
      throw ShapeError(std::string("fj::lax::clamp: ") + name + " " + ba.str() +
                       " must be a scalar or have x's shape, x " + xa.str());
    return a;
  };
  const Atom l = bound(lo, "min"), h = bound(hi, "max");
  return b.emit1(Prim::clamp, {l, x, h});
}

Atom lower_reciprocal(GraphBuilder& b, Atom x) { return lower_integer_pow(b, inexact(b, x), -1); }

Atom lower_square(GraphBuilder& b, Atom x) {
  TypedDType t = typed(b, x);
  if (t.dtype == DType::bool_) t.dtype = DType::i32;
  return unary(b, Prim::square, convert(b, x, t));
}

// JAX's jit[name=i0] around _i0 and its rule: the body's derivative, sign(x) exp(|x|)
// bessel_i1e(|x|) (I0' = I1), with 0 where x is 0 (|x| has no derivative there; JAX selects 0).
Atom lower_i0(GraphBuilder& b, Atom x) {
  static const auto rule = std::make_shared<const ir::FunctionJvpRule>(
      "_i0_jvp",
      [](GraphBuilder& g, const std::vector<Atom>& p, const std::vector<Atom>&,
         const std::vector<Atom>& t) -> std::vector<Atom> {
        Atom ax = unary(g, Prim::abs, p[0]);
        Atom e = unary(g, Prim::exp, ax);
        Atom slope = lower_binary(g, Prim::mul, e, unary(g, Prim::bessel_i1e, ax));
        Atom dx = lower_binary(g, Prim::mul, t[0], unary(g, Prim::sign, p[0]));
        Atom d = lower_binary(g, Prim::mul, dx, slope);
        Atom at_zero = lower_binary(g, Prim::eq, p[0], constant_like(g, p[0], 0));
        return {lower_where(g, at_zero, full_like(g, d, 0), d)};
      });
  return call_named(b, "i0", {inexact(b, x)}, [](GraphBuilder& g, const std::vector<Atom>& in) {
    return call_custom_jvp(
        g, "_i0", {in[0]},
        [](GraphBuilder& h, const std::vector<Atom>& v) -> std::vector<Atom> {
          Atom ax = unary(h, Prim::abs, v[0]);
          Atom e = unary(h, Prim::exp, ax);
          return {lower_binary(h, Prim::mul, e, unary(h, Prim::bessel_i0e, ax))};
        },
        rule)[0];
  });
}

Atom lower_float_binary(GraphBuilder& b, Prim p, Atom x, Atom y) {
  auto [xv, yv] = inexact2(b, x, y, std::string(ir::name(p)).c_str());
  return lower_binary(b, p, xv, yv);
}

}  // namespace fj::detail
