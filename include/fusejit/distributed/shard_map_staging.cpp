// Definitions of shard_map_staging.hpp: the device body as JAX prints it, its positional twin,
// and the shard_map equation's params (implementation unit only).
#include "fusejit/distributed/shard_map_staging.hpp"

#include <memory>

#include "fusejit/api/jit.hpp"
#include "fusejit/distributed/axis_env.hpp"
#include "fusejit/distributed/pmap.hpp"
#include "fusejit/expr/lowering.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/emit.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj::detail {

namespace {

using MappedAxes = std::vector<std::optional<int>>;

// JAX's PartitionSpec text for a value mapped at `axis` (none: replicated): P(), P('i',),
// P(None, 'i').
std::string partition_spec(const std::optional<int>& axis, const std::string& name) {
  if (!axis) return "P()";
  std::string s = "P(";
  for (int d = 0; d < *axis; ++d) s += "None, ";
  return s + "'" + name + "'" + (*axis == 0 ? ",)" : ")");
}

std::string spec_tuple(const MappedAxes& axes, const std::string& name) {
  std::string s = "(";
  for (std::size_t k = 0; k < axes.size(); ++k)
    s += (k ? ", " : "") + partition_spec(axes[k], name);
  return s + (axes.size() == 1 ? ",)" : ")");
}

Shape with_dim(const Shape& s, int axis, std::int64_t n, bool insert) {
  std::vector<std::int64_t> v = s.to_vector();
  if (insert)
    v.insert(v.begin() + axis, n);
  else
    v[static_cast<std::size_t>(axis)] = n;
  return Shape(v);
}

// One device's body as shard_map's jaxpr holds it: each mapped operand is its share (size 1 at
// the mapped axis) and is squeezed first; each mapped result is expanded back at its out axis.
struct DeviceBody {
  SubGraph traced;
  MappedAxes out;  // per result leaf
};

DeviceBody trace_device_body(const TraceSite& site, const std::string& axis, std::int64_t n,
                             const std::vector<Array>& leaves, const MappedAxes& in,
                             const MappedAxes& out_axes, const DeviceFunction& f,
                             PyTreeDef& out_tree) {
  std::vector<ir::Aval> avals = avals_of(leaves);
  for (std::size_t k = 0; k < avals.size(); ++k)
    if (in[k]) avals[k].shape = with_dim(avals[k].shape, *in[k], 1, false);
  DeviceBody body;
  body.traced = trace_subgraph(site, avals, [&](std::vector<Array>& shares) {
    const distributed::detail::AxisScope bound(axis, n);
    auto& b = current_trace()->builder;
    std::vector<Array> args;
    for (std::size_t k = 0; k < shares.size(); ++k)
      args.push_back(in[k] ? atom_array(lower_squeeze(b, lower_arg(shares[k]), {*in[k]}, false))
                           : shares[k]);
    std::vector<Array> results = f(args, out_tree);
    std::vector<int> ranks;
    for (const Array& r : results) ranks.push_back(r.ndim());
    body.out = pmap_out_axes(ranks, out_axes, site.api ? site.api : "fj::pmap");
    transforms::Emit E(b);
    for (std::size_t k = 0; k < results.size(); ++k) {
      if (!body.out[k]) continue;
      const ir::Atom x = lower_arg(results[k]);
      const int ax = *body.out[k], rank = E.rank(x);
      std::vector<std::int64_t> dims;
      for (int d = 0; d < rank; ++d) dims.push_back(d < ax ? d : d + 1);
      results[k] = atom_array(E.broadcast_in_dim(x, with_dim(E.shape(x), ax, 1, true), dims));
    }
    return results;
  });
  return body;
}

// The body's graph closed: its captured values lead its invars, as shard_map's operands.
ir::GraphPtr closed(const ir::Graph& g) {
  ir::Graph c = g;
  c.invars.insert(c.invars.begin(), c.constvars.begin(), c.constvars.end());
  c.constvars.clear();
  return std::make_shared<const ir::Graph>(std::move(c));
}

// The body over the whole axis at once, on shard_map's operands (the captured values, then the
// leaves): each mapped operand becomes n shares stacked at axis 0, the body is batched over
// them with its collectives positional, and each result is unstacked to its out axis (an
// unmapped one is device 0's).
ir::GraphPtr lower_positional(const ir::Graph& body, const std::string& axis, std::int64_t n,
                              std::size_t n_consts, const MappedAxes& in, const MappedAxes& out) {
  ir::GraphBuilder b;
  transforms::Emit E(b);
  std::vector<ir::Atom> stacked;
  std::vector<bool> batched;
  for (std::size_t k = 0; k < body.invars.size(); ++k) {
    const ir::Aval share = body.aval(body.invars[k]);
    const std::optional<int> ax = k < n_consts ? std::nullopt : in[k - n_consts];
    ir::Aval whole = share;
    if (ax) whole.shape = with_dim(share.shape, *ax, n, false);
    ir::Atom x = ir::Atom::of_var(b.add_invar(whole));
    if (ax) x = E.reshape(E.move_axis(x, *ax, 0), with_dim(share.shape, 0, n, true));
    stacked.push_back(x);
    batched.push_back(ax.has_value());
  }
  transforms::Batched bg;
  {
    const transforms::NamedBatchScope named(axis);
    bg = transforms::batch_graph(transforms::flatten(body), batched, n);
  }
  std::vector<ir::Atom> outs = ir::detail::inline_into(b.graph, bg.graph, stacked, false);
  for (std::size_t k = 0; k < outs.size(); ++k) {
    ir::Atom x = outs[k];
    const Shape share = E.shape(x);
    if (!bg.out_batched[k]) {
      if (!out[k]) continue;
      std::vector<std::int64_t> dims;
      for (int d = 0; d < share.rank(); ++d) dims.push_back(d + 1);
      x = E.broadcast_in_dim(x, with_dim(share, 0, n, true), dims);
    } else if (!out[k]) {  // device 0's value
      std::vector<std::int64_t> start(static_cast<std::size_t>(share.rank()), 0);
      std::vector<std::int64_t> limit = share.to_vector();
      limit[0] = 1;
      std::vector<std::int64_t> rest(limit.begin() + 1, limit.end());
      outs[k] = E.reshape(E.slice(x, start, limit), Shape(rest));
      continue;
    }
    // (n, ..., 1 at the out axis, ...) -> (n, ...) -> the axis moved to its place.
    const Shape stacked_shape = E.shape(x);
    std::vector<std::int64_t> merged = stacked_shape.to_vector();
    merged.erase(merged.begin() + *out[k] + 1);
    outs[k] = E.move_axis(E.reshape(x, Shape(merged)), 0, *out[k]);
  }
  b.graph.outvars = std::move(outs);
  return std::make_shared<const ir::Graph>(std::move(b.graph));
}

ir::Params shard_map_params(const std::string& axis, std::int64_t n, const MappedAxes& in,
                            const MappedAxes& out, ir::GraphPtr body, ir::GraphPtr lowered) {
  ir::Params p;
  p.items.push_back({"check_vma", false, true});
  p.items.push_back({"in_specs", spec_tuple(in, axis), true});
  p.items.push_back({"jaxpr", std::move(body), true});
  p.items.push_back(
      {"mesh", "Mesh('" + axis + "': " + std::to_string(n) + ", axis_types=(Auto,))", true});
  p.items.push_back({"newly_manual_axes", "frozenset({'" + axis + "'})", true});
  p.items.push_back({"out_specs", spec_tuple(out, axis), true});
  p.items.push_back({"lowered", std::move(lowered), false});
  return p;
}

}  // namespace

std::vector<Array> stage_shard_map(const TraceSite& site, const std::string& axis,
                                   const std::vector<Array>& leaves, const MappedAxes& in,
                                   const MappedAxes& out_axes, const DeviceFunction& f,
                                   PyTreeDef& out_tree) {
  const std::int64_t n = pmap_mapped_size(leaves, in);
  // JAX wraps the shard_map in a jit of the flattened function, `_fun`.
  SubGraph fun = trace_subgraph(site, avals_of(leaves), [&](std::vector<Array>& args) {
    const DeviceBody body = trace_device_body(site, axis, n, args, in, out_axes, f, out_tree);
    const ir::GraphPtr jaxpr = closed(*body.traced.graph);
    const std::size_t n_consts = body.traced.consts.size();
    MappedAxes operand_axes(n_consts, std::nullopt);  // captured values: whole on every device
    operand_axes.insert(operand_axes.end(), in.begin(), in.end());
    std::vector<ir::Atom> ops;
    for (const Array& c : body.traced.consts) ops.push_back(lower_arg(c));
    for (const Array& a : args) ops.push_back(lower_arg(a));
    ir::Params p = shard_map_params(axis, n, operand_axes, body.out, jaxpr,
                                    lower_positional(*jaxpr, axis, n, n_consts, in, body.out));
    std::vector<Array> results;
    for (const ir::Atom& o :
         current_trace()->builder.emit(ir::Prim::shard_map, std::move(ops), std::move(p)))
      results.push_back(atom_array(o));
    return results;
  });
  return call_jit("_fun", fun, leaves);
}

}  // namespace fj::detail
