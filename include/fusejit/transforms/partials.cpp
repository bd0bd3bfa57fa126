// The partials of the elementwise primitives and the reductions' derivative helpers
// (declared in partials.hpp).
#include "fusejit/transforms/partials.hpp"

#include <algorithm>
#include <cmath>

namespace fj::transforms {
namespace {
// JAX's _balanced_eq(x, z, y), max's and min's partial in x (z the result): 1 where x is z,
// halved where y is z too (a tie splits the derivative), staged in JAX's order.
Atom balanced_eq(Emit& E, Atom x, Atom z, Atom y) {
  const Aval za = E.aval(z);
  const Atom x_is_z = E.bin(Prim::eq, x, z);
  const Atom one = E.full(za, 1);
  const Atom numerator = E.select(x_is_z, E.full(za, 0), one);
  const Atom y_is_z = E.bin(Prim::eq, y, z);
  const Atom two = E.full(za, 2);
  const Atom denominator = E.select(y_is_z, E.full(za, 1), two);
  return E.div(numerator, denominator);
}

// polygamma(m + 1, x), with `add m 1` an equation even when m is a literal, as JAX stages it.
Atom polygamma_of_next_order(Emit& E, Atom m, Atom x) {
  const Atom next = E.b.emit1(Prim::add, {m, Emit::lit(1, E.dtype(x))});
  return E.bin(Prim::polygamma, next, x);
}

// JAX defines no derivative of polygamma in its order m (polygamma_gradm raises ValueError).
void reject_polygamma_order_derivative(Prim p, bool differentiated, const char* transform) {
  if (p == Prim::polygamma && differentiated)
    throw ValueError(std::string(transform) +
                     ": polygamma(m, x) has no derivative with respect to its order m (as in "
                     "JAX); pass m as a constant or stop_gradient it");
}

// d/dx P(a, x) = exp(-x + (a - 1) log x - lgamma(a)), in JAX's order (igamma_gradx).
Atom igamma_x_derivative(Emit& E, Atom a, Atom x) {
  const Atom neg_x = E.neg(x);
  const Atom a_minus_1 = E.sub(a, E.full(E.aval(a), 1));
  const Atom power = E.add(neg_x, E.mul(a_minus_1, E.un(Prim::log, x)));
  return E.un(Prim::exp, E.sub(power, E.un(Prim::lgamma, a)));
}

// JAX's _bessel_i1e_jvp: bessel_i0e(x) - y * (sign(x) + 1/x), with x replaced by eps where
// |x| <= eps (the two terms' 1/x cancel) and the limit 1/2 selected there.
Atom bessel_i1e_derivative(Emit& E, Atom x, Atom y) {
  const DType d = E.dtype(x);
  const double eps = d == DType::f64 ? 0x1p-52 : 0x1p-23;
  const Atom not_tiny = E.bin(Prim::gt, E.un(Prim::abs, x), Emit::lit(eps, d));
  const Atom safe_x = E.select(not_tiny, E.full(E.aval(x), eps), x);
  const Atom i0e = E.un(Prim::bessel_i0e, safe_x);
  const Atom sign = E.un(Prim::sign, safe_x);
  const Atom slope = E.sub(i0e, E.mul(y, E.add(sign, E.div(Emit::lit(1, d), safe_x))));
  return E.select(not_tiny, E.full(E.aval(x), 0.5), slope);
}
}  // namespace

std::vector<MaybeAtom> elementwise_partials(Emit& E, Prim p, const ir::Params& params,
                                            const std::vector<Atom>& in, Atom y) {
  const DType d = E.dtype(y);
  auto L = [&](double v) { return Emit::lit(v, d); };
  std::vector<MaybeAtom> r(in.size());
  const Atom x = in[0];
  if (in.size() == 1) {
    switch (p) {
      case Prim::neg:
        r[0] = L(-1);
        break;
      case Prim::copy:
      case Prim::checkpoint_name:
        r[0] = L(1);
        break;
      case Prim::exp:
        r[0] = y;
        break;
      case Prim::log:
        r[0] = E.div(L(1), x);
        break;
      case Prim::log1p:
        r[0] = E.div(L(1), E.add(x, L(1)));
        break;
      case Prim::expm1:
        r[0] = E.add(y, L(1));
        break;
      case Prim::sin:
        r[0] = E.un(Prim::cos, x);
        break;
      case Prim::cos:
        r[0] = E.neg(E.un(Prim::sin, x));
        break;
      case Prim::tan:
        r[0] = E.add(L(1), E.un(Prim::square, y));
        break;
      case Prim::tanh:  // jvp and vjp use JAX's factored form (unary_tangent below)
        r[0] = E.sub(L(1), E.mul(y, y));
        break;
      case Prim::sqrt:
        r[0] = E.div(L(0.5), y);
        break;
      case Prim::rsqrt:
        r[0] = E.mul(L(-0.5), E.div(y, x));
        break;
      case Prim::logistic:
        r[0] = E.mul(y, E.sub(L(1), y));
        break;
      case Prim::erf:
        r[0] = E.mul(L(2 / std::sqrt(M_PI)), E.un(Prim::exp, E.neg(E.un(Prim::square, x))));
        break;
      case Prim::erf_inv:  // sqrt(pi)/2 * exp(erf_inv(x)^2)
        r[0] = E.mul(L(std::sqrt(M_PI) / 2), E.un(Prim::exp, E.mul(y, y)));
        break;
      case Prim::abs:  // JAX's select(x >= 0, 1, -1): 1 at 0 (sign would give 0 there)
        r[0] = E.select(E.bin(Prim::ge, x, L(0)), E.full(E.aval(x), -1), E.full(E.aval(x), 1));
        break;
      // The rest in JAX's forms (lax.py / special.py's defjvp rules).
      case Prim::asin:  // 1 / sqrt(1 - x^2)
        r[0] = E.un(Prim::rsqrt, E.sub(L(1), E.un(Prim::square, x)));
        break;
      case Prim::acos:
        r[0] = E.neg(E.un(Prim::rsqrt, E.sub(L(1), E.un(Prim::square, x))));
        break;
      case Prim::atan:
        r[0] = E.div(L(1), E.add(L(1), E.un(Prim::square, x)));
        break;
      case Prim::sinh:
        r[0] = E.un(Prim::cosh, x);
        break;
      case Prim::cosh:
        r[0] = E.un(Prim::sinh, x);
        break;
      case Prim::asinh:
        r[0] = E.un(Prim::rsqrt, E.add(E.un(Prim::square, x), L(1)));
        break;
      case Prim::acosh:  // x^2 - 1 rather than (x+1)(x-1), as JAX: the domain is x >= 1
        r[0] = E.un(Prim::rsqrt, E.sub(E.un(Prim::square, x), L(1)));
        break;
      case Prim::atanh:  // 1 / (1 + x) / (1 - x)
        r[0] = E.div(E.div(L(1), E.add(L(1), x)), E.sub(L(1), x));
        break;
      case Prim::cbrt: {  // 1 / (3 cbrt(x)^2)
        ir::Params q;
        q.items.push_back({"y", std::int64_t{-2}, true});
        r[0] = E.mul(L(1.0 / 3.0), E.un(Prim::integer_pow, y, q));
        break;
      }
      case Prim::exp2:
        r[0] = E.mul(L(std::log(2.0)), y);
        break;
      case Prim::erfc:
        r[0] = E.mul(L(-2 / std::sqrt(M_PI)), E.un(Prim::exp, E.neg(E.un(Prim::square, x))));
        break;
      case Prim::lgamma:
        r[0] = E.un(Prim::digamma, x);
        break;
      case Prim::digamma:  // JAX's polygamma(1, x), its order a literal
        r[0] = E.bin(Prim::polygamma, L(1), x);
        break;
      case Prim::bessel_i0e: {  // JAX's bessel_i1e(x) - sign(x) * y, in its order
        const Atom i1e = E.un(Prim::bessel_i1e, x);
        r[0] = E.sub(i1e, E.mul(E.un(Prim::sign, x), y));
        break;
      }
      case Prim::bessel_i1e:
        r[0] = bessel_i1e_derivative(E, x, y);
        break;
      case Prim::square:
        r[0] = E.mul(L(2), x);
        break;
      case Prim::integer_pow: {
        const auto n = params.get<std::int64_t>("y");
        if (n == 0) break;
        if (n == 1) {
          r[0] = L(1);
          break;
        }
        ir::Params q;
        q.items.push_back({"y", n - 1, true});
        r[0] = E.mul(L(static_cast<double>(n)), n == 2 ? x : E.un(Prim::integer_pow, x, q));
        break;
      }
      default:
        break;  // sign, floor, ceil, round, stop_gradient, is_finite, the integer ones: zero
    }
  } else {
    const Atom b = in[1];
    switch (p) {
      case Prim::add:
      case Prim::add_any:
        r = {L(1), L(1)};
        break;
      case Prim::sub:
        r = {L(1), L(-1)};
        break;
      case Prim::mul:
        r = {b, x};
        break;
      case Prim::div:
        r = {E.div(L(1), b), E.neg(E.div(y, b))};
        break;
      case Prim::rem: {
        // x - y * trunc(x / y): d/dy is -trunc(x / y).
        const Atom q = E.div(x, b);
        r = {L(1), E.neg(E.mul(E.un(Prim::sign, q), E.un(Prim::floor, E.un(Prim::abs, q))))};
        break;
      }
      case Prim::pow: {
        // d/dx = y x^(y-1); d/dy = log(x) x^y, taken as 0 where x == 0 (JAX's choice).
        if (!x.is_literal()) r[0] = E.mul(b, E.bin(Prim::pow, x, E.sub(b, L(1))));
        if (!b.is_literal()) {
          const Atom is0 = mask(E, Prim::eq, x, L(0), d);
          r[1] = E.mul(E.un(Prim::log, E.add(x, is0)), E.mul(y, E.sub(L(1), is0)));
        }
        break;
      }
      case Prim::polygamma:  // d/dx polygamma(m, x) = polygamma(m + 1, x), m + 1 staged as is
        r[1] = polygamma_of_next_order(E, x, b);
        break;
      case Prim::igamma:  // JAX's igamma_grada and igamma_gradx; igammac's are their negations
      case Prim::igammac: {
        const Atom da = E.bin(Prim::igamma_grad_a, x, b);
        const Atom dx = igamma_x_derivative(E, x, b);
        r = p == Prim::igamma ? std::vector<MaybeAtom>{da, dx}
                              : std::vector<MaybeAtom>{E.neg(da), E.neg(dx)};
        break;
      }
      case Prim::atan2: {  // atan2(x, y): d/dx = y / (x^2 + y^2), d/dy = -x / (x^2 + y^2)
        const Atom den = E.add(E.un(Prim::square, x), E.un(Prim::square, b));
        r = {E.div(b, den), E.div(E.neg(x), den)};
        break;
      }
      case Prim::max:
      case Prim::min: {
        const Atom dx = balanced_eq(E, x, y, b);
        r = {dx, balanced_eq(E, b, y, x)};
        break;
      }
      default:
        break;
    }
  }
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i].is_literal()) r[i].reset();
  return r;
}

namespace {
// How JAX writes a unary primitive's linear term from the values it keeps (the residuals r):
// t * r for most; t / r where JAX divides by a denominator (log: x, log1p: 1 + x, atan:
// 1 + x^2); -(t * r) for cos (r = sin x); +-2/sqrt(pi) * (t * r) for erf and erfc
// (r = exp(-x^2)); r * (t * y) for exp2 (r = log 2); r0 * (t / r1) for atanh (r0 = 1 / (1 + x),
// r1 = 1 - x); select_n(r, -t, t) for abs (r = x >= 0).
enum class UnaryForm : std::uint8_t {
  multiply,
  divide,
  negate,
  erf_scaled,
  output_scaled,
  reciprocal_divide,
  select_sign
};
UnaryForm unary_form(Prim p) {
  switch (p) {
    case Prim::log:
    case Prim::log1p:
    case Prim::atan:
      return UnaryForm::divide;
    case Prim::cos:
      return UnaryForm::negate;
    case Prim::erf:
    case Prim::erfc:
      return UnaryForm::erf_scaled;
    case Prim::exp2:
      return UnaryForm::output_scaled;
    case Prim::atanh:
      return UnaryForm::reciprocal_divide;
    case Prim::abs:
      return UnaryForm::select_sign;
    default:
      return UnaryForm::multiply;
  }
}
// d erf / dx = 2/sqrt(pi) exp(-x^2); erfc's is its negation.
Atom erf_scale(Emit& E, Prim p, Atom like) {
  return Emit::lit((p == Prim::erfc ? -2 : 2) / std::sqrt(M_PI), E.dtype(like));
}
}  // namespace

MaybeAtom unary_tangent(Emit& E, Prim p, const ir::Params& params, Atom x, Atom y, Atom t) {
  if (p == Prim::tanh) {  // staged in JAX's order (C++ leaves argument order open)
    const Atom s = E.add(t, E.mul(t, y));
    const Atom r = E.sub(Emit::lit(1, E.dtype(y)), y);
    return E.mul(s, r);
  }
  const Residuals res = unary_residual(E, p, params, x, y);
  if (!res[0]) return std::nullopt;
  const Atom r = *res[0];
  switch (unary_form(p)) {
    case UnaryForm::divide:
      return E.div(t, r);
    case UnaryForm::negate:
      return E.neg(E.mul(t, r));
    case UnaryForm::erf_scaled:
      return E.mul(erf_scale(E, p, y), E.mul(t, r));
    case UnaryForm::output_scaled:
      return E.mul(r, E.mul(t, y));
    case UnaryForm::reciprocal_divide:
      return E.mul(r, E.div(t, *res[1]));
    case UnaryForm::select_sign: {
      const Atom minus_t = E.neg(t);
      return E.select(r, minus_t, t);
    }
    default:
      return E.mul(t, r);
  }
}

Residuals unary_residual(Emit& E, Prim p, const ir::Params& params, Atom x, Atom y) {
  const DType d = E.dtype(y);
  const Atom one = Emit::lit(1, d);
  switch (p) {
    case Prim::tanh:
      return {E.sub(one, y)};
    case Prim::log:
      return {x};
    case Prim::log1p:
      return {E.add(x, one)};
    case Prim::atan:
      return {E.add(one, E.un(Prim::square, x))};
    case Prim::cos:
      return {E.un(Prim::sin, x)};
    case Prim::erf:
    case Prim::erfc:
      return {E.un(Prim::exp, E.neg(E.un(Prim::square, x)))};
    case Prim::exp2:
      return {E.un(Prim::log, Emit::lit(2, d))};
    case Prim::atanh: {  // lax's reciprocal is integer_pow[y=-1]
      ir::Params inverse;
      inverse.items.push_back({"y", std::int64_t{-1}, true});
      const Atom r0 = E.un(Prim::integer_pow, E.add(one, x), std::move(inverse));
      return {r0, E.sub(one, x)};
    }
    case Prim::abs:
      return {E.bin(Prim::ge, x, Emit::lit(0, d))};
    default:
      return {elementwise_partials(E, p, params, {x}, y)[0]};
  }
}

void unary_cotangent_terms(Emit& E, Prim p, const Residuals& res, Atom y, Atom ct,
                           const std::function<void(Atom)>& add) {
  const Atom r = *res[0];
  switch (unary_form(p)) {
    case UnaryForm::divide:
      return add(E.div(ct, r));
    case UnaryForm::negate:
      return add(E.mul(E.neg(ct), r));
    case UnaryForm::erf_scaled:
      return add(E.mul(E.mul(erf_scale(E, p, ct), ct), r));
    case UnaryForm::output_scaled:
      return add(E.mul(E.mul(r, ct), y));
    case UnaryForm::reciprocal_divide:
      return add(E.div(E.mul(r, ct), *res[1]));
    case UnaryForm::select_sign: {
      // select_n's transpose: ct where each case was taken, zeros elsewhere; the x < 0 case
      // then through neg.
      const Atom zeros = E.zeros(E.aval(ct));
      const Atom negative_case = E.select(r, ct, zeros);
      add(E.select(r, zeros, ct));
      return add(E.neg(negative_case));
    }
    default: {
      const Atom d = E.mul(ct, r);
      add(d);
      if (p == Prim::tanh) add(E.mul(d, y));
    }
  }
}

namespace {
Atom inverse_square(Emit& E, Atom y) {
  ir::Params q;
  q.items.push_back({"y", std::int64_t{-2}, true});
  return E.un(Prim::integer_pow, y, std::move(q));
}
}  // namespace

Residuals binary_residual(Emit& E, Prim p, const std::vector<Atom>& in, Atom y,
                          std::array<bool, 2> wants) {
  Residuals r;
  if (p == Prim::div && wants[1]) r[1] = inverse_square(E, in[1]);
  if (p == Prim::polygamma && wants[1]) r[1] = polygamma_of_next_order(E, in[0], in[1]);
  if (p == Prim::max || p == Prim::min)
    for (std::size_t i = 0; i < 2; ++i)
      if (wants[i]) r[i] = balanced_eq(E, in[i], y, in[1 - i]);
  return r;
}

MaybeAtom binary_tangent(Emit& E, Prim p, const ir::Params& params, const std::vector<Atom>& in,
                         Atom y, const std::vector<MaybeAtom>& t) {
  std::vector<MaybeAtom> terms(2);
  reject_polygamma_order_derivative(p, t[0].has_value(), "fj::jvp");
  if (p == Prim::sub) {  // JAX's own rule: sub(xdot, ydot), or -ydot alone
    if (t[0] && t[1]) return E.sub(*t[0], *t[1]);
    return t[0] ? t[0] : (t[1] ? MaybeAtom(E.neg(*t[1])) : std::nullopt);
  }
  if (p == Prim::div) {
    if (t[0]) terms[0] = E.div(*t[0], in[1]);
    if (t[1]) {
      const Atom scaled = E.mul(E.neg(*t[1]), in[0]);  // staged before y^-2, in JAX's order
      terms[1] = E.mul(scaled, inverse_square(E, in[1]));
    }
  } else if (p == Prim::max || p == Prim::min) {  // each operand's partial, then its term
    for (std::size_t i = 0; i < 2; ++i)
      if (t[i]) terms[i] = E.mul(*t[i], balanced_eq(E, in[i], y, in[1 - i]));
  } else {
    const auto d = elementwise_partials(E, p, params, in, y);
    for (std::size_t i = 0; i < 2; ++i)
      if (t[i] && d[i])
        terms[i] = p == Prim::mul && i == 1 ? E.mul(*d[i], *t[i]) : E.mul(*t[i], *d[i]);
  }
  if (!terms[0] || !terms[1]) return terms[0] ? terms[0] : terms[1];
  return p == Prim::add ? E.add(*terms[0], *terms[1]) : E.add_any(*terms[0], *terms[1]);
}

std::vector<MaybeAtom> binary_cotangents(Emit& E, Prim p, const ir::Params& params,
                                         const std::vector<Atom>& in, Atom y, Atom ct,
                                         const std::vector<bool>& wants,
                                         const Residuals& residual) {
  std::vector<MaybeAtom> r(2);
  reject_polygamma_order_derivative(p, wants[0], "fj::grad");
  if (p == Prim::polygamma) {
    if (wants[1]) {
      const Atom d = residual[1] ? *residual[1] : polygamma_of_next_order(E, in[0], in[1]);
      r[1] = E.unbroadcast(E.mul(ct, d), E.aval(in[1]));
    }
    return r;
  }
  if (p == Prim::mul) {
    if (wants[1]) r[1] = E.unbroadcast(E.mul(in[0], ct), E.aval(in[1]));
    if (wants[0]) r[0] = E.unbroadcast(E.mul(ct, in[1]), E.aval(in[0]));
    return r;
  }
  if (p == Prim::sub) {  // JAX's transpose: ct to x, -ct to y
    if (wants[0]) r[0] = E.unbroadcast(ct, E.aval(in[0]));
    if (wants[1]) r[1] = E.unbroadcast(E.neg(ct), E.aval(in[1]));
    return r;
  }
  if (p == Prim::div) {
    if (wants[1]) {
      const Atom s = residual[1] ? *residual[1] : inverse_square(E, in[1]);
      r[1] = E.neg(E.unbroadcast(E.mul(E.mul(ct, s), in[0]), E.aval(in[1])));
    }
    if (wants[0]) r[0] = E.unbroadcast(E.div(ct, in[1]), E.aval(in[0]));
    return r;
  }
  if (p == Prim::max || p == Prim::min) {  // the last linear term transposed first
    for (std::size_t i : {std::size_t{1}, std::size_t{0}})
      if (wants[i]) {
        const Atom d = residual[i] ? *residual[i] : balanced_eq(E, in[i], y, in[1 - i]);
        r[i] = E.unbroadcast(E.mul(ct, d), E.aval(in[i]));
      }
    return r;
  }
  const auto d = elementwise_partials(E, p, params, in, y);
  for (std::size_t i = 0; i < 2; ++i)
    if (d[i] && wants[i]) r[i] = E.unbroadcast(E.mul(ct, *d[i]), E.aval(in[i]));
  return r;
}

Atom clamp_mask(Emit& E, const std::vector<Atom>& in, std::size_t i) {
  const Atom &lo = in[0], &x = in[1], &hi = in[2];
  if (i == 2) return E.bin(Prim::lt, hi, x);
  const Atom& a = i == 0 ? lo : x;  // the operand whose mask this is, against the other two
  const Atom above = E.bin(Prim::gt, a, i == 0 ? x : lo);
  const Atom below = E.bin(Prim::lt, a, hi);
  return E.bin(Prim::and_, above, below);
}

bool is_elementwise(ir::PrimKind k) {
  return k == ir::PrimKind::unary || k == ir::PrimKind::binary;
}

Dims kept_dims(int r, const Dims& axes) {
  Dims k;
  for (int d = 0; d < r; ++d)
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) k.push_back(d);
  return k;
}

Residuals chooser_mask(Emit& E, Atom x, Atom y, const Dims& axes) {
  Dims kept_shape = E.shape(x).to_vector();  // the reduced axes as 1s
  for (auto a : axes) kept_shape[static_cast<std::size_t>(a)] = 1;
  const Atom at = E.bin(Prim::eq, x, E.reshape(y, Shape(kept_shape)));
  const Atom loc = E.convert(at, E.dtype(x));
  return {loc, E.reduce_sum(loc, axes)};
}

Atom prod_partial(Emit& E, Atom x, Atom y, const Dims& axes) {
  const Aval xa = E.aval(x);
  const DType d = xa.dtype;
  const Dims kept = kept_dims(xa.shape.rank(), axes);
  auto back = [&](Atom r) { return E.broadcast_in_dim(r, xa.shape, kept); };
  const Atom zero = E.bin(Prim::eq, x, Emit::lit(0, d));
  const Atom zeros = E.reduce_sum(E.convert(zero, d), axes);
  const Atom ones = E.full(xa, 1);
  const Atom nonzero_prod = E.reduce(Prim::reduce_prod, E.select(zero, x, ones), axes);
  const Atom none = back(E.bin(Prim::eq, zeros, Emit::lit(0, d)));
  const Atom one = back(E.bin(Prim::eq, zeros, Emit::lit(1, d)));
  const Atom at_the_zero = E.select(zero, E.zeros(xa), back(nonzero_prod));
  const Atom with_one = E.select(one, E.zeros(xa), at_the_zero);
  // Where x is 0 the quotient's value is discarded by the select, and its NaN with it.
  return E.select(none, with_one, E.div(back(y), E.select(zero, x, ones)));
}

}  // namespace fj::transforms
