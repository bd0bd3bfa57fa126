// JVP, VJP and batching rules of the collectives (declared in collective_rules.hpp;
// implementation unit only).
#include "fusejit/transforms/collective_rules.hpp"

#include "fusejit/expr/lowering.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/ir/shape_rules_library.hpp"
#include "fusejit/transforms/rule_signatures.hpp"

namespace fj::transforms {

namespace col = ir::collective;

namespace {

thread_local std::string t_batch_axis;

std::int64_t int_param(const ir::Eqn& e, const char* name) {
  return e.params.get<std::int64_t>(name);
}

Atom emit_like(Emit& E, const ir::Eqn& e, Atom x) { return E.b.emit1(e.prim, {x}, e.params); }

// x (batched at 0, n rows) with axis 0 merged into axis `dim` + 1's place: the rows laid side
// by side along `dim` (all_gather's tiled layout).
Atom merge_batch_into(Emit& E, Atom x, int dim) {
  const Atom moved = E.move_axis(x, 0, dim);
  Dims s = E.shape(moved).to_vector();
  s[static_cast<std::size_t>(dim)] *= s[static_cast<std::size_t>(dim) + 1];
  s.erase(s.begin() + dim + 1);
  return E.reshape(moved, Shape(s));
}

// Under the vmap named by the collective's axis: the positional form.
std::pair<std::vector<Atom>, std::vector<bool>> positional(Emit& E, const ir::Eqn& e, Atom x,
                                                           bool batched, std::int64_t n) {
  const std::string& axis = col::axis_of(e.params);
  switch (e.prim) {
    case Prim::axis_index:
      return {{detail::lower_iota(E.b, DType::i32, Shape{n}, 0)}, {true}};
    case Prim::psum:
      if (!batched) return {{E.mul(x, E.lit(static_cast<double>(n), E.dtype(x)))}, {false}};
      return {{E.reduce_sum(x, {0})}, {false}};
    case Prim::pmax:
    case Prim::pmin:
      if (!batched) return {{x}, {false}};
      return {{E.reduce(e.prim == Prim::pmax ? Prim::reduce_max : Prim::reduce_min, x, {0})},
              {false}};
    case Prim::all_gather: {
      const int dim = static_cast<int>(col::dimension_of(e.prim, e.params));
      if (!batched) x = add_batch_axis(E, x, n);
      if (e.params.get<bool>("tiled")) return {{merge_batch_into(E, x, dim)}, {false}};
      return {{E.move_axis(x, 0, dim)}, {false}};
    }
    case Prim::reduce_scatter: {
      const int dim = static_cast<int>(col::dimension_of(e.prim, e.params));
      const Atom sum =
          batched ? E.reduce_sum(x, {0}) : E.mul(x, E.lit(static_cast<double>(n), E.dtype(x)));
      if (!e.params.get<bool>("tiled")) return {{E.move_axis(sum, dim, 0)}, {true}};
      Dims s = E.shape(sum).to_vector();
      const std::int64_t chunk = s[static_cast<std::size_t>(dim)] / n;
      s[static_cast<std::size_t>(dim)] = chunk;
      s.insert(s.begin() + dim, n);
      return {{E.move_axis(E.reshape(sum, Shape(s)), dim, 0)}, {true}};
    }
    case Prim::ppermute: {
      // Row `dst` of the result is row `src` of x; rows nobody sends to are zeros.
      if (!batched) x = add_batch_axis(E, x, n);
      const Shape s = E.shape(x);
      Dims lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
      Dims row = hi;
      row[0] = 1;
      std::vector<Atom> rows;
      const auto perm = col::perm_of(e.params);
      for (std::int64_t dst = 0; dst < n; ++dst) {
        std::optional<std::int64_t> src;
        for (const auto& [a, b] : perm)
          if (b == dst) src = a;
        if (!src) {
          rows.push_back(E.zeros(Aval{E.dtype(x), Shape(row), false}));
          continue;
        }
        lo[0] = *src, hi[0] = *src + 1;
        rows.push_back(E.slice(x, lo, hi));
      }
      ir::Params p;
      p.items.push_back({"dimension", std::int64_t{0}, true});
      return {{E.b.emit1(Prim::concatenate, std::move(rows), std::move(p))}, {true}};
    }
    case Prim::all_to_all: {
      // Row i of x split along split_axis into n chunks; row d of the result is chunk d of every
      // row, concatenated along concat_axis in row order.
      if (!batched) x = add_batch_axis(E, x, n);
      const int split = static_cast<int>(e.params.get<std::int64_t>("split_axis"));
      const int concat = static_cast<int>(e.params.get<std::int64_t>("concat_axis"));
      Dims s = E.shape(x).to_vector();  // (n_i, per-device shape...)
      s[static_cast<std::size_t>(split) + 1] /= n;
      s.insert(s.begin() + split + 1, n);                          // (n_i, ..., n_d, chunk, ...)
      Atom y = E.move_axis(E.reshape(x, Shape(s)), split + 1, 0);  // (n_d, n_i, ...)
      y = E.move_axis(y, 1, 1 + concat);  // n_i just before the concat axis
      Dims out = E.shape(y).to_vector();
      out[static_cast<std::size_t>(concat) + 1] *= out[static_cast<std::size_t>(concat) + 2];
      out.erase(out.begin() + concat + 2);
      return {{E.reshape(y, Shape(out))}, {true}};
    }
    default:
      throw ValueError("fj::vmap: " + std::string(ir::name(e.prim)) + " over axis '" + axis +
                       "' is not a collective");
  }
}

}  // namespace

NamedBatchScope::NamedBatchScope(std::string name) : saved_(std::move(t_batch_axis)) {
  t_batch_axis = std::move(name);
}
NamedBatchScope::~NamedBatchScope() { t_batch_axis = std::move(saved_); }

bool over_batched_axis(const ir::Eqn& e) {
  return is_collective(e.prim) && !t_batch_axis.empty() && col::axis_of(e.params) == t_batch_axis;
}

std::vector<MaybeAtom> jvp_collective(Emit& E, const ir::Eqn& e, const std::vector<MaybeAtom>& t) {
  if (e.in.empty() || !t[0]) return {std::nullopt};
  return {emit_like(E, e, *t[0])};
}

std::vector<MaybeAtom> vjp_collective(Emit& E, const ir::Eqn& e, const std::vector<MaybeAtom>& ct) {
  if (e.in.empty() || !ct[0]) return {std::nullopt};
  const Atom c = *ct[0];
  const std::string& axis = col::axis_of(e.params);
  switch (e.prim) {
    case Prim::psum:
      // pmap's transpose of psum is psum (shard_map's check_vma would give pbroadcast).
      return {emit_like(E, e, c)};
    case Prim::all_gather:
    case Prim::reduce_scatter: {
      const Prim to = e.prim == Prim::all_gather ? Prim::reduce_scatter : Prim::all_gather;
      return {E.b.emit1(to, {c},
                        col::gather_or_scatter(to, axis, int_param(e, "axis_size"),
                                               col::dimension_of(e.prim, e.params),
                                               e.params.get<bool>("tiled")))};
    }
    case Prim::all_to_all:
      return {
          E.b.emit1(Prim::all_to_all, {c},
                    col::all_to_all(axis, int_param(e, "axis_size"), int_param(e, "concat_axis"),
                                    int_param(e, "split_axis"), e.params.get<bool>("tiled")))};
    case Prim::ppermute: {
      auto perm = col::perm_of(e.params);
      for (auto& [src, dst] : perm) std::swap(src, dst);
      return {E.b.emit1(Prim::ppermute, {c}, col::ppermute(axis, perm))};
    }
    default:
      throw ValueError("fj::grad: no differentiation rule for " + std::string(ir::name(e.prim)));
  }
}

std::pair<std::vector<Atom>, std::vector<bool>> batch_collective(Emit& E, const ir::Eqn& e,
                                                                 std::vector<Atom> in,
                                                                 const std::vector<bool>& bat,
                                                                 std::int64_t n) {
  const bool batched = !bat.empty() && bat[0];
  if (over_batched_axis(e)) return positional(E, e, in.empty() ? Atom{} : in[0], batched, n);
  // Another axis: the collective maps over the batch axis, its dimensions past it.
  ir::Params p = e.params;
  switch (e.prim) {
    case Prim::all_gather:
    case Prim::reduce_scatter: {
      const char* dim = e.prim == Prim::all_gather ? "all_gather_dimension" : "scatter_dimension";
      p = with_int(p, dim, int_param(e, dim) + 1);
      break;
    }
    case Prim::all_to_all:
      p = with_int(with_int(p, "split_axis", int_param(e, "split_axis") + 1), "concat_axis",
                   int_param(e, "concat_axis") + 1);
      break;
    default:
      break;
  }
  return {{E.b.emit1(e.prim, std::move(in), std::move(p))}, {true}};
}

namespace {

std::vector<MaybeAtom> jvp_collective_rule(Emit& E, const ir::Eqn& e, const std::vector<Atom>&,
                                           const std::vector<MaybeAtom>& t,
                                           const std::vector<Atom>&) {
  return jvp_collective(E, e, t);
}

void vjp_collective_rule(Emit& E, const VjpCall& c) { c.add_each(vjp_collective(E, c.e, c.ct)); }

}  // namespace

void register_collective_rules(ir::RuleTable& t) {
  for (Prim p : {Prim::psum, Prim::pmax, Prim::pmin, Prim::all_gather, Prim::reduce_scatter,
                 Prim::all_to_all, Prim::ppermute, Prim::axis_index})
    t[p] = {ir::library_rules::collective, after_primals<jvp_collective_rule>, vjp_collective_rule,
            some_batched<batch_collective>};
}

}  // namespace fj::transforms
