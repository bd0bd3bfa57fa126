// JAX's _lu_solve as jnp.linalg.solve stages it: the one-vector body written once and batched
// by the nested-vmap interpreter over jnp.vectorize's levels and the vmap over b's columns
// (implementation unit only).
#include "fusejit/expr/lowering_helpers.hpp"
#include "fusejit/expr/lowering_solve.hpp"
#include "fusejit/expr/nested_vmaps.hpp"

namespace fj::detail {

Atom lu_solve_levels(GraphBuilder& g, Atom lu, Atom perm, Atom rhs,
                     const std::vector<bool>& a_batched, bool trans, const char* fn) {
  const Shape s = g.aval(rhs).shape;
  const std::size_t levels = static_cast<std::size_t>(s.rank() - 1);
  const std::int64_t n = s[s.rank() - 1];
  NestedVmaps vm(g, VmapDims(s.begin(), s.end() - 1), fn);
  std::vector<int> a_at;
  for (bool b : a_batched) a_at.push_back(b ? 0 : -1);
  const std::vector<int> none(levels, -1);
  const Batched lu_v{lu, a_at}, perm_v{perm, a_at};
  auto lit = [&](std::int64_t v) {
    return Batched{Atom::of_literal(ir::Literal::of(v, true).cast(g.aval(perm).dtype, false)),
                   none};
  };
  // jnp's x[p, :]: p normalized (i < 0 ? i + n : i), given its index-vector axis.
  auto gather_rows = [&](const Batched& x, const Batched& p) {
    const Batched neg = vm.bind(VmapOp::apply(Prim::lt), {p, lit(0)});
    const Batched wrapped = vm.bind(VmapOp::apply(Prim::add), {p, lit(n)});
    const Batched i = vm.bind(VmapOp::apply(Prim::select_n), {neg, p, wrapped});
    const Batched idx = vm.bind(VmapOp::broadcast_in_dim({n, 1}, NpDims::plain({0})), {i});
    return vm.bind(VmapOp::gather_rows(), {x, idx});
  };
  // b[..., np.newaxis]; _lu_solve_core's reshapes to (n, 1) and back change nothing.
  Batched x = vm.bind(VmapOp::broadcast_in_dim({n, 1}, NpDims::plain({0})),
                      {{rhs, std::vector<int>(levels, 0)}});
  if (!trans) {
    x = gather_rows(x, perm_v);
    x = vm.bind(VmapOp::solve({true, true, false, false, true}), {lu_v, x});
    x = vm.bind(VmapOp::solve({true, false, false, false, false}), {lu_v, x});
  } else {
    x = vm.bind(VmapOp::solve({true, false, true, false, false}), {lu_v, x});
    x = vm.bind(VmapOp::solve({true, true, true, false, true}), {lu_v, x});
    // perm's inverse: lax.sort_key_val(perm, iota)'s values.
    const Batched iota{lower_iota(g, DType::i32, Shape{n}, 0), none};
    x = gather_rows(x, vm.bind(VmapOp::sort_by_key(0, 1), {perm_v, iota}));
  }
  x = vm.bind(VmapOp::squeeze_dims({1}), {x});  // x[..., 0]
  while (!x.bdims.empty()) x = vm.close_level(std::move(x));
  return x.atom;
}

}  // namespace fj::detail
