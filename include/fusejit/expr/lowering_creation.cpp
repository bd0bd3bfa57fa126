// Creation functions staged into a trace (implementation unit only): eye, linspace, full_like.
#include <string>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

namespace {

// A strongly typed literal of dtype d.
Atom constant_of(DType d, double v) {
  ir::Literal l;
  l.dtype = d;
  if (is_float(d))
    l.f = d == DType::f32 ? static_cast<double>(static_cast<float>(v)) : v;
  else
    l = ir::Literal::of(static_cast<std::int64_t>(v), true).cast(d, false);
  return Atom::of_literal(l);
}

}  // namespace

Atom lower_eye(GraphBuilder& b, std::int64_t n, std::int64_t m, std::int64_t k, DType dtype) {
  if (n < 0 || m < 0)
    throw ValueError("fj::eye: negative dimensions are not allowed, got N=" + std::to_string(n) +
                     ", M=" + std::to_string(m));
  const Shape s{n, m};
  // JAX's lax._eye: (row + k) == column, converted from bool.
  Atom rows = lower_iota(b, default_int_dtype(), s, 0);
  Atom cols = lower_iota(b, default_int_dtype(), s, 1);
  Atom shifted = lower_binary(b, Prim::add, rows, Atom::of_literal(ir::Literal::of(k, true)));
  Atom diagonal = lower_binary(b, Prim::eq, shifted, cols);
  return convert(b, diagonal, {dtype, false});
}

Atom lower_linspace(GraphBuilder& b, Atom start, Atom stop, std::int64_t num, bool endpoint,
                    DType dtype) {
  if (num < 0)
    throw ValueError("fj::linspace: the number of samples, " + std::to_string(num) +
                     ", must be non-negative");
  for (const Atom& a : {start, stop})
    if (b.aval(a).shape.rank() != 0)
      throw ShapeError("fj::linspace: start and stop must be scalars, got " + b.aval(a).str());
  const DType cdt = is_float(dtype) ? dtype : DType::f32;  // the computation dtype
  const std::string variant =
      std::to_string(num) + (endpoint ? " endpoint " : " ") + std::string(short_name(dtype));
  return call_named(
      b, "_linspace", {start, stop},
      [&](GraphBuilder& g, const std::vector<Atom>& in) {
        Atom lo = convert(g, in[0], {cdt, false});
        Atom hi = convert(g, in[1], {cdt, false});
        Atom out;
        if (num == 0) {
          out = lower_full(g, Shape{0}, constant_of(dtype, 0).lit);
        } else if (num == 1) {
          out = lower_reshape(g, lo, {1});
        } else {
          // XLA computes i / div as i * (1 / div) and stop * (i / div) as i * (stop / div); the
          // same arithmetic here gives jnp.linspace's values (see docs/ARCHITECTURE.md).
          const std::int64_t div = endpoint ? num - 1 : num;
          const double recip = cdt == DType::f32
                                   ? static_cast<double>(1.0f / static_cast<float>(div))
                                   : 1.0 / static_cast<double>(div);
          const Atom r = constant_of(cdt, recip);
          Atom i = lower_iota(g, cdt, Shape{num}, 0);
          Atom frac = lower_binary(g, Prim::mul, i, r);
          Atom from_lo =
              lower_binary(g, Prim::mul, lo, lower_binary(g, Prim::sub, constant_of(cdt, 1), frac));
          Atom from_hi = lower_binary(g, Prim::mul, i, lower_binary(g, Prim::mul, hi, r));
          out = lower_binary(g, Prim::add, from_hi, from_lo);
          if (endpoint) {
            // The last point is stop itself (JAX concatenates it).
            Atom last = lower_binary(g, Prim::eq, i, constant_of(cdt, static_cast<double>(div)));
            out = g.emit1(Prim::select_n, {last, out, broadcast_to(g, hi, Shape{num})});
          }
        }
        if (!is_float(dtype) && dtype != DType::bool_ && is_float(g.aval(out).dtype))
          out = g.emit1(Prim::floor, {out});
        return convert(g, out, {dtype, false});
      },
      variant);
}

Atom lower_full(GraphBuilder& b, const Shape& shape, const ir::Literal& value) {
  return broadcast_to(b, Atom::of_literal(value), shape);
}

}  // namespace fj::detail
