// jnp.tril, jnp.triu and jnp.outer, staged as JAX 0.10.2 stages them.
#include "fusejit/expr/lowering_layout.hpp"

#include <string>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_helpers.hpp"

namespace fj::detail {

Atom lower_tri(GraphBuilder& b, Atom x, std::int64_t k, bool upper) {
  const char* name = upper ? "triu" : "tril";
  const Shape s = b.aval(x).shape;
  if (s.rank() < 2)
    throw ShapeError(std::string("fj::") + name + ": needs an array of rank 2 or more, got shape " +
                     s.str());
  auto body = [k, upper](GraphBuilder& g, const std::vector<Atom>& in) {
    const Shape sh = g.aval(in[0]).shape;
    const int r = sh.rank();
    const Shape m{sh[r - 2], sh[r - 1]};
    // lax._tri: row + offset >= column, the offset of the default int dtype (triu keeps the
    // complement of tri(k - 1)).
    const std::int64_t offset = upper ? k - 1 : k;
    const DType d = default_int_dtype();
    const Atom rows = lower_iota(g, d, m, 0);
    const Atom lit = Atom::of_literal(ir::Literal::of(offset, false).cast(d, false));
    const Atom shifted = g.emit1(Prim::add, {rows, lit});
    Atom mask = g.emit1(Prim::ge, {shifted, lower_iota(g, d, m, 1)});
    if (r > 2) {  // lax.broadcast over the leading axes
      ir::Params p;
      p.items.push_back({"shape", sh.to_vector(), false});
      p.items.push_back({"broadcast_dimensions", std::vector<std::int64_t>{r - 2, r - 1}, true});
      mask = g.emit1(Prim::broadcast_in_dim, {mask}, std::move(p));
    }
    const Atom zeros = full_like(g, in[0], 0);
    // lax.select(mask, on_true, on_false) is select_n(mask, on_false, on_true).
    return upper ? g.emit1(Prim::select_n, {mask, in[0], zeros})
                 : g.emit1(Prim::select_n, {mask, zeros, in[0]});
  };
  return call_named(b, name, {x}, body, std::to_string(k));
}

Atom lower_outer(GraphBuilder& b, Atom x, Atom y) {
  const TypedDType t = promote_types(typed(b, x), typed(b, y));
  x = convert(b, x, t);
  y = convert(b, y, t);
  auto flat = [&](Atom a) {
    const Shape s = b.aval(a).shape;
    return s.rank() == 1 ? a : lower_reshape(b, a, {s.size()});
  };
  x = lower_expand_dims(b, flat(x), {1});
  y = lower_expand_dims(b, flat(y), {0});
  return lower_binary(b, Prim::mul, x, y);
}

}  // namespace fj::detail
