// The array-level halves of grad, jvp, vjp and vmap: argument checks, calling the transformed
// graphs from the active trace, and vmap's axis bookkeeping (implementation unit only).
#include "fusejit/api/transforms.hpp"
#include "fusejit/distributed/axis_env.hpp"
#include "fusejit/transforms/collective_rules.hpp"
#include "fusejit/transforms/emit.hpp"

namespace fj::detail {

namespace {

transforms::Emit emitter() { return transforms::Emit(current_trace()->builder); }

std::string axis_str(const std::optional<int>& a) { return a ? std::to_string(*a) : "None"; }

}  // namespace

std::vector<ir::Aval> avals_of(const std::vector<Array>& args) {
  std::vector<ir::Aval> r;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].is_empty()) throw_empty_array(("fj: argument " + std::to_string(i)).c_str());
    r.push_back(args[i].aval());
  }
  return r;
}

std::vector<Array> concat(std::vector<Array> a, const std::vector<Array>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

Array move_axis(const Array& x, int from, int to) {
  auto E = emitter();
  return atom_array(E.move_axis(lower_arg(x), from, to));
}

Array add_axis(const Array& x, std::int64_t n, int axis) {
  auto E = emitter();
  const ir::Atom a = lower_arg(x);
  const Shape s = E.shape(a);
  std::vector<std::int64_t> shape = s.to_vector(), dims;
  shape.insert(shape.begin() + axis, n);
  for (int d = 0; d < s.rank(); ++d) dims.push_back(d < axis ? d : d + 1);
  return atom_array(E.broadcast_in_dim(a, Shape(shape), dims));
}

Array one_like(const ir::Aval& a) { return literal_array(transforms::Emit::lit(1, a.dtype).lit); }

void check_grad_args(const char* who, const std::vector<Array>& leaves,
                     const std::vector<std::size_t>& first, const std::vector<int>& wrt) {
  const std::size_t n = first.size() - 1;
  for (int i : wrt) {
    if (i < 0 || i >= static_cast<int>(n))
      throw ValueError(std::string(who) + ": argnums entry " + std::to_string(i) +
                       " is out of range for a call with " + std::to_string(n) + " arguments");
    const auto k = static_cast<std::size_t>(i);
    for (std::size_t j = first[k]; j < first[k + 1]; ++j) {
      if (leaves[j].is_empty() || is_float(leaves[j].dtype())) continue;
      const std::string leaf = first[k + 1] - first[k] == 1 && j == first[k]
                                   ? ""
                                   : " (leaf " + std::to_string(j - first[k]) + " of its pytree)";
      throw DTypeError(std::string(who) + ": argument " + std::to_string(i) + leaf + " has dtype " +
                       std::string(long_name(leaves[j].dtype())) +
                       "; differentiation requires floating inputs (JAX: grad requires real- or "
                       "complex-valued inputs)");
    }
  }
}

namespace {
// Appends the axes of `spec` (a prefix of `arg`) for each leaf of `arg`.
void expand_axes(const PyTreeDef& spec, const std::vector<std::optional<int>>& axes,
                 std::size_t& pos, const PyTreeDef& arg, std::vector<std::optional<int>>& out,
                 bool& ok) {
  if (spec.kind == PyTreeDef::Kind::leaf) {
    const auto a = axes.at(pos++);
    for (std::size_t i = 0; i < arg.num_leaves(); ++i) out.push_back(a);
    return;
  }
  if (spec.kind != arg.kind || spec.children.size() != arg.children.size() ||
      spec.keys != arg.keys || spec.name != arg.name) {
    ok = false;
    return;
  }
  for (std::size_t i = 0; i < spec.children.size() && ok; ++i)
    expand_axes(spec.children[i], axes, pos, arg.children[i], out, ok);
}
}  // namespace

std::vector<std::optional<int>> expand_in_axes(const std::vector<AxisSpec>& specs,
                                               const std::vector<PyTreeDef>& trees, const char* who,
                                               bool one_for_all) {
  if (!(one_for_all && specs.size() == 1) && specs.size() != trees.size())
    throw ValueError(std::string(who) + ": in_axes must be one axis for every argument (" + who +
                     "(f, 0)) or have one entry per positional argument, but got len(in_axes)=" +
                     std::to_string(specs.size()) + ", len(args)=" + std::to_string(trees.size()));
  std::vector<std::optional<int>> out;
  for (std::size_t i = 0; i < trees.size(); ++i) {
    const AxisSpec& sp = specs.size() == 1 ? specs[0] : specs[i];
    std::size_t pos = 0;
    bool ok = true;
    expand_axes(sp.tree, sp.axes, pos, trees[i], out, ok);
    if (!ok)
      throw ValueError(std::string(who) + ": in_axes for argument " + std::to_string(i) +
                       " has structure " + sp.tree.str() + " but the argument has " +
                       trees[i].str() + "; in_axes must be a prefix of the argument's structure");
  }
  return out;
}

void check_grad_output(const char* who, const ir::Graph& g) {
  if (g.outvars.size() != 1)
    throw TypeError(std::string(who) + ": the function must return one scalar, it returned " +
                    std::to_string(g.outvars.size()) + " outputs");
  const ir::Aval a = g.aval(g.outvars[0]);
  if (a.shape.rank() != 0)
    throw ShapeError(std::string(who) +
                     ": gradient only defined for scalar-output functions; the output has shape " +
                     a.shape.str() + " (" + a.str() + ")");
  if (!is_float(a.dtype))
    throw DTypeError(std::string(who) + ": the output must be floating, got " + a.str());
}

VjpOut vjp_call(const SubGraph& s, const std::vector<Array>& args, const std::vector<int>& wrt,
                const std::vector<Array>& cts) {
  const ir::Graph flat = transforms::flatten(*s.graph, /*keep_jits=*/true);
  std::vector<bool> mask(flat.invars.size(), false);
  for (int i : wrt) mask[s.consts.size() + static_cast<std::size_t>(i)] = true;
  const ir::Graph h = transforms::vjp_graph(flat, mask);
  const std::size_t nout = flat.outvars.size();
  if (cts.size() != nout)
    throw ValueError("fj::vjp: " + std::to_string(cts.size()) + " cotangents for " +
                     std::to_string(nout) + " outputs");
  for (std::size_t k = 0; k < nout; ++k) {
    const ir::Aval want = flat.aval(flat.outvars[k]);
    const ir::Aval got = cts[k].aval();
    if (!(want.shape == got.shape) || (cts[k].ndim() > 0 && want.dtype != got.dtype))
      throw ShapeError("fj::vjp: the cotangent of output " + std::to_string(k) + " is " +
                       got.str() + " but the output is " + want.str());
  }
  std::vector<Array> cts_typed;
  auto E = emitter();
  for (std::size_t k = 0; k < nout; ++k)
    cts_typed.push_back(atom_array(E.convert(lower_arg(cts[k]), flat.aval(flat.outvars[k]).dtype)));
  std::vector<Array> res = call_graph(h, {}, concat(concat(s.consts, args), cts_typed));
  VjpOut r;
  r.outs.assign(res.begin(), res.begin() + static_cast<std::ptrdiff_t>(nout));
  // The graph lists gradients in argument order; argnums may list them in another.
  std::vector<int> sorted = wrt;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (int i : wrt) {
    const auto k = std::find(sorted.begin(), sorted.end(), i) - sorted.begin();
    r.grads.push_back(res[nout + static_cast<std::size_t>(k)]);
  }
  return r;
}

std::pair<std::vector<Array>, std::vector<Array>> jvp_call(const SubGraph& s,
                                                           const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents) {
  std::vector<int> all(primals.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return jvp_call(s, primals, tangents, all);
}

std::pair<std::vector<Array>, std::vector<Array>> jvp_call(const SubGraph& s,
                                                           const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents,
                                                           const std::vector<int>& wrt) {
  const ir::Graph flat = transforms::flatten(*s.graph, /*keep_jits=*/true);
  std::vector<bool> has(flat.invars.size(), false);
  // The graph takes the tangents in the order of its invars.
  std::vector<const Array*> by_invar(flat.invars.size(), nullptr);
  for (std::size_t k = 0; k < wrt.size(); ++k) {
    const auto i = static_cast<std::size_t>(wrt[k]);
    const ir::Aval p = primals[i].aval(), t = tangents[k].aval();
    if (!(p.shape == t.shape) || p.dtype != t.dtype)
      throw ShapeError("fj::jvp: tangent " + std::to_string(k) + " is " + t.str() +
                       " but its primal is " + p.str() + "; they must match");
    has[s.consts.size() + i] = true;
    by_invar[s.consts.size() + i] = &tangents[k];
  }
  const ir::Graph h = transforms::jvp_graph(flat, has);
  std::vector<Array> ins = concat(s.consts, primals);
  for (const Array* t : by_invar)
    if (t) ins.push_back(*t);
  std::vector<Array> res = call_graph(h, {}, ins);
  const auto n = static_cast<std::ptrdiff_t>(flat.outvars.size());
  return {std::vector<Array>(res.begin(), res.begin() + n),
          std::vector<Array>(res.begin() + n, res.end())};
}

std::vector<Array> vmap_call(const std::string& name, const std::vector<Array>& args,
                             const std::vector<std::optional<int>>& in,
                             const std::vector<std::optional<int>>& out,
                             const std::function<SubGraph(const std::vector<ir::Aval>&)>& trace,
                             const std::string& axis) {
  if (in.size() != 1 && in.size() != args.size())
    throw ValueError("fj::vmap: in_axes has " + std::to_string(in.size()) + " entries for " +
                     std::to_string(args.size()) + " arguments");
  std::vector<Array> moved;
  std::vector<bool> batched;
  std::vector<ir::Aval> avals;
  std::int64_t size = -1;
  std::size_t first = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto axis = in.size() == 1 ? in[0] : in[i];
    Array a = args[i];
    ir::Aval av = avals_of({a})[0];
    if (axis) {
      const int r = a.ndim();
      const int ax = *axis < 0 ? *axis + r : *axis;
      if (ax < 0 || ax >= r)
        throw ValueError("fj::vmap: in_axes " + axis_str(axis) + " is out of range for argument " +
                         std::to_string(i) + " of shape " + a.shape().str());
      const std::int64_t n = a.shape()[ax];
      if (size >= 0 && n != size)
        throw ValueError("fj::vmap: inconsistent sizes for the mapped axes: argument " +
                         std::to_string(first) + " has size " + std::to_string(size) +
                         ", argument " + std::to_string(i) + " has size " + std::to_string(n) +
                         " (shape " + a.shape().str() + ", axis " + std::to_string(ax) + ")");
      if (size < 0) size = n, first = i;
      a = move_axis(a, ax, 0);
      std::vector<std::int64_t> rest = a.shape().to_vector();
      rest.erase(rest.begin());
      av.shape = Shape(rest);
    }
    batched.push_back(axis.has_value());
    avals.push_back(av);
    moved.push_back(std::move(a));
  }
  if (size < 0)
    throw ValueError("fj::" + name +
                     ": at least one argument must be mapped (in_axes are all none)");
  std::optional<distributed::detail::AxisScope> bound;
  if (!axis.empty()) bound.emplace(axis, size);
  SubGraph s = trace(avals);
  bound.reset();
  const ir::Graph flat = transforms::flatten(*s.graph, /*keep_jits=*/true);
  std::vector<bool> in_b(s.consts.size(), false);
  in_b.insert(in_b.end(), batched.begin(), batched.end());
  const transforms::NamedBatchScope named(axis);
  const transforms::Batched bg = transforms::batch_graph(flat, in_b, size);
  std::vector<Array> outs = call_graph(bg.graph, {}, concat(s.consts, moved));
  if (out.size() != 1 && out.size() != outs.size())
    throw ValueError("fj::vmap: out_axes has " + std::to_string(out.size()) + " entries for " +
                     std::to_string(outs.size()) + " outputs");
  for (std::size_t k = 0; k < outs.size(); ++k) {
    const auto axis = out.size() == 1 ? out[0] : out[k];
    if (!axis) {
      if (bg.out_batched[k])
        throw ValueError("fj::vmap: output " + std::to_string(k) +
                         " depends on a mapped argument but its out_axes is none");
      continue;
    }
    const int r = outs[k].ndim() + (bg.out_batched[k] ? 0 : 1);
    const int ax = *axis < 0 ? *axis + r : *axis;
    if (ax < 0 || ax >= r)
      throw ValueError("fj::vmap: out_axes " + axis_str(axis) + " is out of range for output " +
                       std::to_string(k) + " of rank " + std::to_string(r));
    outs[k] = bg.out_batched[k] ? move_axis(outs[k], 0, ax) : add_axis(outs[k], size, ax);
  }
  return outs;
}

VjpOut grad_flat(const char* who, std::source_location loc, const FlatArgs& fa,
                 const std::vector<int>& w, TraceBody body) {
  check_grad_args(who, fa.leaves, fa.first, w);
  std::vector<int> wl;  // the differentiated leaves
  for (int i : w)
    for (std::size_t j = fa.first[static_cast<std::size_t>(i)];
         j < fa.first[static_cast<std::size_t>(i) + 1]; ++j)
      wl.push_back(static_cast<int>(j));
  SubGraph s = trace_subgraph_flat({"grad", who, loc}, avals_of(fa.leaves), body);
  check_grad_output(who, *s.graph);
  const ir::Graph& g = *s.graph;
  return vjp_call(s, fa.leaves, wl, {one_like(g.aval(g.outvars[0]))});
}

std::vector<Array> vmap_flat(const FlatArgs& fa, const std::vector<AxisSpec>& in, bool in_for_all,
                             const std::vector<std::optional<int>>& out, std::source_location loc,
                             const std::string& axis, TraceBody body, PyTreeDef& out_tree) {
  return vmap_call(
      "vmap", fa.leaves, expand_in_axes(in, fa.trees, "fj::vmap", in_for_all), out,
      [&](const std::vector<ir::Aval>& avals) {
        SubGraph s = trace_subgraph_flat({"vmap", "fj::vmap", loc}, avals, body);
        out_tree = s.out_tree;
        return s;
      },
      axis);
}

}  // namespace fj::detail

namespace fj {

Array stop_gradient(const Array& x) {
  if (!detail::current_trace()) return x;
  auto E = detail::emitter();
  return detail::atom_array(E.un(ir::Prim::stop_gradient, detail::lower_arg(x)));
}

}  // namespace fj
