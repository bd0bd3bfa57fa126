// Batching (vmap): one rule per primitive that rewrites an equation on per-example values into
// one on values with a leading batch axis, and the pass that applies them (impl. unit only).
#include <numeric>

#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/transforms/batching.hpp"
#include "fusejit/transforms/emit.hpp"
#include "fusejit/transforms/index_rules.hpp"
#include "fusejit/transforms/linalg_rules.hpp"
#include "fusejit/transforms/pad_rules.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/sort_rules.hpp"
#include "fusejit/transforms/spectral_rules.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::transforms {

namespace {

Dims with_front(std::int64_t first, const Dims& rest) {
  Dims r{first};
  r.insert(r.end(), rest.begin(), rest.end());
  return r;
}

Shape batched_shape(std::int64_t n, const Shape& s) { return Shape(with_front(n, s.to_vector())); }

}  // namespace

Atom add_batch_axis(Emit& E, Atom x, std::int64_t n) {
  Dims dims(static_cast<std::size_t>(E.rank(x)));
  std::iota(dims.begin(), dims.end(), 1);
  return E.broadcast_in_dim(x, batched_shape(n, E.shape(x)), dims);
}

namespace {

/// Element i of a batched value: slice i of the leading axis, without that axis.
Atom batch_element(Emit& E, Atom x, std::int64_t i) {
  const Shape s = E.shape(x);
  Dims lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  lo[0] = i, hi[0] = i + 1;
  Dims rest(hi.begin() + 1, hi.end());
  return E.reshape(E.slice(x, lo, hi), Shape(rest));
}

/// The general rule, O(n) equations: the equation once per batch element, results stacked.
/// Used where no vectorized form exists here (dynamic slices with batched start indices).
Atom unrolled(Emit& E, const ir::Eqn& e, const std::vector<Atom>& in, const std::vector<bool>& bat,
              std::int64_t n) {
  std::vector<Atom> parts;
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<Atom> ops;
    for (std::size_t k = 0; k < in.size(); ++k)
      ops.push_back(bat[k] ? batch_element(E, in[k], i) : in[k]);
    const Atom r = E.b.emit1(e.prim, std::move(ops), e.params);
    parts.push_back(E.reshape(r, batched_shape(1, E.shape(r))));
  }
  if (parts.size() == 1) return parts[0];
  ir::Params cat;
  cat.items.push_back({"dimension", std::int64_t{0}, true});
  return E.b.emit1(Prim::concatenate, std::move(parts), cat);
}

/// p with every entry of its Dims param `name` marked a NumPy int (the hidden `<name>@np`
/// flags): JAX's reducer batching rule shifts the axes with np.where(np.less(axes, bdim), axes,
/// np.add(axes, 1)), and prints them as np.int64(...).
ir::Params numpy_ints(ir::Params p, const std::string& name) {
  const ir::ParamValue* d = p.find(name);
  if (!d) return p;
  std::vector<std::int64_t> flags(std::get<Dims>(*d).size(), 1);
  const std::string flag_name = name + "@np";
  std::erase_if(p.items, [&](const ir::Param& q) { return q.name == flag_name; });
  p.items.push_back({flag_name, flags, false});
  return p;
}

/// lax.clamp's batching rule, JAX's _clamp_batch_rule with every batch axis at 0: as it is
/// where all three are batched at one shape or both bounds are unbatched scalars; else each
/// unbatched non-scalar gets the batch axis in front, scalar bounds are broadcast to x, a bound
/// of one batched scalar per element is broadcast along x's other axes, and an unbatched scalar
/// x is broadcast to the bounds' shape.
Atom clamp_batch_rule(Emit& E, const ir::Eqn& e, std::vector<Atom> in, const std::vector<bool>& bat,
                      std::int64_t n) {
  Atom &lo = in[0], &x = in[1], &hi = in[2];
  auto bind = [&] { return E.b.emit1(Prim::clamp, in, e.params); };
  if (bat[0] && bat[1] && bat[2]) {
    if (E.shape(lo) == E.shape(x) && E.shape(hi) == E.shape(x)) return bind();
    if (E.rank(lo) == 1 && E.rank(hi) == 1) {
      lo = E.broadcast_in_dim(lo, E.shape(x), {0});
      hi = E.broadcast_in_dim(hi, E.shape(x), {0});
      return bind();
    }
  } else if (E.rank(lo) == 0 && E.rank(hi) == 0 && bat[1]) {
    return bind();
  }
  // bdim_at_front of an unbatched value: broadcast(x, (size,)), its dims NumPy ints.
  for (std::size_t k : {0, 2, 1})
    if (!bat[k] && E.rank(in[k]) > 0) {
      Dims dims(static_cast<std::size_t>(E.rank(in[k])));
      std::iota(dims.begin(), dims.end(), 1);
      ir::Params p;
      p.items.push_back({"shape", batched_shape(n, E.shape(in[k])).to_vector(), false});
      p.items.push_back({"broadcast_dimensions", dims, true});
      in[k] = E.b.emit1(Prim::broadcast_in_dim, {in[k]}, numpy_ints(p, "broadcast_dimensions"));
    }
  for (Atom* b : {&lo, &hi})
    if (E.rank(*b) == 0 && E.rank(x) > 0) *b = E.broadcast_in_dim(*b, E.shape(x), {});
  for (Atom* b : {&lo, &hi})
    if (E.rank(*b) > 0 && E.rank(*b) < E.rank(x)) *b = E.broadcast_in_dim(*b, E.shape(x), {0});
  if (E.rank(lo) > E.rank(x)) x = E.broadcast_in_dim(x, E.shape(lo), {});
  return bind();
}

/// e with its operands batched where `bat` says (at least one is): the batched result.
Atom batch_rule(Emit& E, const ir::Eqn& e, const Aval& out_aval, std::vector<Atom> in,
                const std::vector<bool>& bat, std::int64_t n) {
  const ir::PrimInfo& pi = ir::info(e.prim);
  auto same = [&](ir::Params p) { return E.b.emit1(e.prim, std::move(in), std::move(p)); };
  auto shift = [&](std::vector<std::string> names) {
    return map_dims(e.params, names, [](const Dims& d) { return shifted(d); });
  };
  switch (pi.kind) {
    case ir::PrimKind::unary:
    case ir::PrimKind::binary:
    case ir::PrimKind::compare:
    case ir::PrimKind::logical:
    case ir::PrimKind::select:
    case ir::PrimKind::convert: {
      if (e.prim == Prim::clamp) return clamp_batch_rule(E, e, std::move(in), bat, n);
      // Every operand at the full batched shape, except unbatched scalars, which lax
      // broadcasts itself.
      const Shape full = batched_shape(n, out_aval.shape);
      for (std::size_t k = 0; k < in.size(); ++k) {
        // select_n's cases always take the full shape (only its predicate may stay scalar).
        const bool keep_scalar = e.prim != Prim::select_n || k == 0;
        if (!bat[k] && E.rank(in[k]) == 0 && !keep_scalar)
          in[k] = E.broadcast_in_dim(in[k], full, {});
        else if (bat[k] && E.rank(in[k]) == 1 && full.rank() > 1)
          in[k] = E.broadcast_in_dim(in[k], full, {0});
        else if (!bat[k] && E.rank(in[k]) > 0)
          in[k] = add_batch_axis(E, E.broadcast_to(in[k], out_aval.shape), n);
      }
      return same(e.params);
    }
    case ir::PrimKind::shape: {
      ir::Params p = e.params;
      for (auto& item : p.items) {
        auto* v = std::get_if<Dims>(&item.value);
        if (v && item.name == "shape") *v = with_front(n, *v);
        if (v && item.name == "broadcast_dimensions") {
          *v = with_front(0, shifted(*v));
          item.printed = true;
        }
      }
      // JAX's rule writes (0,) + tuple(np.add(1, dims)): the shifted dims are NumPy ints.
      if (const ir::ParamValue* d = p.find("broadcast_dimensions")) {
        std::vector<std::int64_t> np_flags(std::get<Dims>(*d).size(), 1);
        np_flags[0] = 0;
        std::erase_if(p.items,
                      [](const ir::Param& q) { return q.name == "broadcast_dimensions@np"; });
        p.items.push_back({"broadcast_dimensions@np", np_flags, false});
      }
      return same(std::move(p));
    }
    case ir::PrimKind::index_map: {
      ir::Params p = e.params;
      for (auto& item : p.items) {
        auto* v = std::get_if<Dims>(&item.value);
        if (!v) continue;
        if (item.name == "permutation") *v = with_front(0, shifted(*v));
        if (item.name == "start_indices") *v = with_front(0, *v);
        if (item.name == "limit_indices" || item.name == "new_sizes") *v = with_front(n, *v);
        if (item.name == "strides") *v = with_front(1, *v);
        if (item.name == "dimensions") *v = shifted(*v);
      }
      return same(std::move(p));
    }
    case ir::PrimKind::reduce:
      return same(numpy_ints(shift({"axes"}), "axes"));
    default:
      break;
  }
  switch (e.prim) {
    case Prim::argmax:
    case Prim::argmin:
      return same(numpy_ints(shift({"axes"}), "axes"));
    case Prim::concatenate:
    case Prim::stack: {
      for (std::size_t k = 0; k < in.size(); ++k)
        if (!bat[k]) in[k] = add_batch_axis(E, in[k], n);
      ir::Params p = e.params;
      for (auto& item : p.items)
        if (item.name == "dimension" || item.name == "axis")
          std::get<std::int64_t>(item.value) += 1;
      return same(std::move(p));
    }
    case Prim::dynamic_slice:
    case Prim::dynamic_update_slice: {
      const std::size_t first_index = e.prim == Prim::dynamic_slice ? 1 : 2;
      for (std::size_t k = first_index; k < in.size(); ++k)
        if (bat[k]) return unrolled(E, e, in, bat, n);
      for (std::size_t k = 0; k < first_index; ++k)
        if (!bat[k]) in[k] = add_batch_axis(E, in[k], n);
      const DType idx = in.size() > first_index ? E.dtype(in[first_index]) : DType::i32;
      in.insert(in.begin() + static_cast<std::ptrdiff_t>(first_index), Emit::lit(0, idx));
      return same(
          e.prim == Prim::dynamic_slice
              ? map_dims(e.params, {"slice_sizes"}, [&](const Dims& d) { return with_front(n, d); })
              : e.params);
    }
    case Prim::dot_general: {
      ir::DotDims dd = ir::DotDims::from(e.params);
      const int rl = E.rank(in[0]) - (bat[0] ? 1 : 0);
      const auto nb = static_cast<std::int64_t>(dd.lhs_batch.size());
      const auto nlf = static_cast<std::int64_t>(
          ir::DotDims::free_dims(rl, dd.lhs_batch, dd.lhs_contract).size());
      auto shift_side = [&](bool b, Dims& batch, Dims& contract) {
        if (!b) return;
        batch = shifted(batch), contract = shifted(contract);
      };
      shift_side(bat[0], dd.lhs_batch, dd.lhs_contract);
      shift_side(bat[1], dd.rhs_batch, dd.rhs_contract);
      std::int64_t at = 0;  // where the batch axis lands in the output
      if (bat[0] && bat[1]) {
        dd.lhs_batch = with_front(0, dd.lhs_batch);
        dd.rhs_batch = with_front(0, dd.rhs_batch);
      } else if (bat[0]) {
        at = nb;  // the first lhs free dim
      } else {
        at = nb + nlf;  // the first rhs free dim
      }
      ir::Params p;
      dd.add_to(p);
      for (auto& item : e.params.items)
        if (item.name == "preferred_element_type") p.items.push_back(item);
      const Atom r = E.b.emit1(Prim::dot_general, std::move(in), std::move(p));
      return E.move_axis(r, static_cast<int>(at), 0);
    }
    default:
      throw ValueError("fj::vmap: no batching rule for " + std::string(pi.name));
  }
}

}  // namespace

bool has_batch_rule(ir::Prim p) {
  switch (ir::info(p).kind) {
    case ir::PrimKind::unary:
    case ir::PrimKind::binary:
    case ir::PrimKind::compare:
    case ir::PrimKind::logical:
    case ir::PrimKind::select:
    case ir::PrimKind::convert:
    case ir::PrimKind::shape:
    case ir::PrimKind::index_map:
    case ir::PrimKind::reduce:
    case ir::PrimKind::generator:  // no operands: never batched
    case ir::PrimKind::multi:
    case ir::PrimKind::callback:  // batch_callback.cpp
      return true;
    default:
      break;
  }
  if (is_sort_or_scan(p) || is_linalg(p) || is_index_op(p) || is_pad_op(p) || is_spectral(p) ||
      is_collective(p))
    return true;
  switch (p) {
    case Prim::argmax:
    case Prim::argmin:
    case Prim::concatenate:
    case Prim::stack:
    case Prim::dynamic_slice:
    case Prim::dynamic_update_slice:
    case Prim::dot_general:
    case Prim::cond:
    case Prim::while_:
    case Prim::scan:
    case Prim::custom_jvp_call:      // custom_jvp_rules.cpp
    case Prim::custom_linear_solve:  // linear_solve_rules.cpp
    case Prim::jit:                  // batch_graph: a jit of the batched graph
      return true;
    default:
      return false;  // shard_map is inlined first; fused exists only inside a backend
  }
}

Batched batch_graph(const ir::Graph& g, const std::vector<bool>& in_batched, std::int64_t size) {
  GraphBuilder b;
  Emit E(b);
  std::vector<Atom> env(g.avals.size());
  std::vector<bool> bat(g.avals.size(), false);
  auto at = [&](const Atom& a) {
    return a.is_literal() ? a : env[static_cast<std::size_t>(a.var)];
  };
  auto is_b = [&](const Atom& a) {
    return !a.is_literal() && bat[static_cast<std::size_t>(a.var)];
  };
  for (std::size_t i = 0; i < g.invars.size(); ++i) {
    Aval a = g.aval(g.invars[i]);
    if (in_batched[i]) a.shape = batched_shape(size, a.shape);
    env[static_cast<std::size_t>(g.invars[i])] = Atom::of_var(b.add_invar(a));
    bat[static_cast<std::size_t>(g.invars[i])] = in_batched[i];
  }
  for (const ir::Eqn& e : g.eqns) {
    std::vector<Atom> in;
    std::vector<bool> flags;
    bool any = false;
    for (auto& a : e.in) {
      in.push_back(at(a));
      flags.push_back(is_b(a));
      any = any || flags.back();
    }
    if ((any && is_collective(e.prim)) || over_batched_axis(e)) {
      auto [outs, out_flags] = batch_collective(E, e, std::move(in), flags, size);
      env[static_cast<std::size_t>(e.out[0])] = outs[0];
      bat[static_cast<std::size_t>(e.out[0])] = out_flags[0];
      continue;
    }
    if (!any) {
      auto out = b.emit(e.prim, std::move(in), e.params);
      for (std::size_t k = 0; k < e.out.size(); ++k)
        env[static_cast<std::size_t>(e.out[k])] = out[k];
      continue;
    }
    if (e.prim == Prim::jit) {
      // JAX's batching of a jit is one jit of the same name over its batched graph; results the
      // batch does not reach stay unbatched.
      Batched inner = batch_graph(*e.params.get<ir::GraphPtr>("jaxpr"), flags, size);
      const std::vector<Atom> outs =
          b.emit(Prim::jit, std::move(in), with_graph(e.params, std::move(inner.graph)));
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
        bat[static_cast<std::size_t>(e.out[k])] = inner.out_batched[k];
      }
      continue;
    }
    if (ir::is_lax_control(e.prim) || e.prim == Prim::custom_jvp_call ||
        e.prim == Prim::custom_linear_solve) {
      auto [outs, out_flags] = e.prim == Prim::custom_jvp_call
                                   ? batch_custom_call(E, e, std::move(in), flags, size)
                               : e.prim == Prim::custom_linear_solve
                                   ? batch_linear_solve(E, e, std::move(in), flags, size)
                                   : batch_control(E, e, std::move(in), flags, size);
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
        bat[static_cast<std::size_t>(e.out[k])] = out_flags[k];
      }
      continue;
    }
    if (ir::info(e.prim).kind == ir::PrimKind::multi) {
      // Elementwise with several results (threefry2x32): as unary/binary, every operand at the
      // batched shape except unbatched scalars; every result is batched.
      const Shape out_shape = g.aval(e.out[0]).shape;
      const Shape full = batched_shape(size, out_shape);
      for (std::size_t k = 0; k < in.size(); ++k) {
        if (flags[k] && E.rank(in[k]) == 1 && full.rank() > 1)
          in[k] = E.broadcast_in_dim(in[k], full, {0});
        else if (!flags[k] && E.rank(in[k]) > 0)
          in[k] = add_batch_axis(E, E.broadcast_to(in[k], out_shape), size);
      }
      auto out = b.emit(e.prim, std::move(in), e.params);
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = out[k];
        bat[static_cast<std::size_t>(e.out[k])] = true;
      }
      continue;
    }
    if (is_sort_or_scan(e.prim) || is_linalg(e.prim) || is_index_op(e.prim) || is_pad_op(e.prim) ||
        is_spectral(e.prim)) {
      const std::vector<Atom> outs =
          is_linalg(e.prim)     ? batch_linalg(E, e, std::move(in), flags, size)
          : is_spectral(e.prim) ? batch_spectral(E, e, std::move(in), flags, size)
          : is_index_op(e.prim) ? batch_index(E, e, std::move(in), flags, size)
          : is_pad_op(e.prim)   ? batch_pad(E, e, std::move(in), flags, size)
                                : batch_sorting(E, e, std::move(in), flags, size);
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
        bat[static_cast<std::size_t>(e.out[k])] = true;
      }
      continue;
    }
    if (ir::info(e.prim).kind == ir::PrimKind::callback) {
      const std::vector<Atom> outs = batch_callback(E, e, in, flags, size);
      for (std::size_t k = 0; k < e.out.size(); ++k) {
        env[static_cast<std::size_t>(e.out[k])] = outs[k];
        bat[static_cast<std::size_t>(e.out[k])] = true;
      }
      continue;
    }
    if (e.out.size() != 1)
      throw ValueError("fj::vmap: no batching rule for " + std::string(ir::name(e.prim)));
    env[static_cast<std::size_t>(e.out[0])] =
        batch_rule(E, e, g.aval(e.out[0]), std::move(in), flags, size);
    bat[static_cast<std::size_t>(e.out[0])] = true;
  }
  Batched r;
  for (auto& o : g.outvars) {
    b.graph.outvars.push_back(at(o));
    r.out_batched.push_back(is_b(o));
  }
  r.graph = std::move(b.graph);
  return r;
}

}  // namespace fj::transforms
