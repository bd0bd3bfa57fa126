// The array-level half of jacfwd and jacrev: the standard bases, the vmapped jvp or vjp over
// them, and the Jacobian's blocks cut out of the batched result (implementation unit only).
#include "fusejit/api/jacobian.hpp"
#include "fusejit/transforms/emit.hpp"

namespace fj::detail {

namespace {

// Emits into the active trace.
transforms::Emit active_emit() { return transforms::Emit(current_trace()->builder); }

// The leaves of the arguments listed in w, in w's order.
std::vector<int> wrt_leaves(const FlatArgs& fa, const std::vector<int>& w) {
  std::vector<int> wl;
  for (int i : w)
    for (std::size_t j = fa.first[static_cast<std::size_t>(i)];
         j < fa.first[static_cast<std::size_t>(i) + 1]; ++j)
      wl.push_back(static_cast<int>(j));
  return wl;
}

// One block of the standard basis of a space of `total` entries: the rows are the basis
// vectors, the columns [offset, offset + size of `shape`) reshaped to `shape`, as JAX's
// _std_basis splits one identity matrix among the leaves.
Array basis_block(std::int64_t total, std::int64_t offset, const ir::Aval& leaf) {
  auto E = active_emit();
  const std::int64_t n = leaf.shape.size();
  const ir::Atom eye = lower_eye(E.b, total, total, 0, leaf.dtype);
  const ir::Atom cols = E.slice(eye, {0, offset}, {total, offset + n});
  std::vector<std::int64_t> shape = leaf.shape.to_vector();
  shape.insert(shape.begin(), total);
  return atom_array(E.reshape(cols, Shape(shape)));
}

// x[..., lo:hi] along `axis`, reshaped to `shape`.
Array block(const Array& x, int axis, std::int64_t lo, std::int64_t hi,
            const std::vector<std::int64_t>& shape) {
  auto E = active_emit();
  const ir::Atom a = lower_arg(x);
  std::vector<std::int64_t> start(static_cast<std::size_t>(x.ndim()), 0);
  std::vector<std::int64_t> limit = x.shape().to_vector();
  start[static_cast<std::size_t>(axis)] = lo;
  limit[static_cast<std::size_t>(axis)] = hi;
  return atom_array(E.reshape(E.slice(a, start, limit), Shape(shape)));
}

std::vector<std::int64_t> joined(const Shape& a, const Shape& b) {
  std::vector<std::int64_t> r = a.to_vector();
  for (std::int64_t d : b.to_vector()) r.push_back(d);
  return r;
}

void check_float_outputs(const char* who, const std::vector<ir::Aval>& outs) {
  for (std::size_t j = 0; j < outs.size(); ++j)
    if (!is_float(outs[j].dtype))
      throw DTypeError(std::string(who) + ": output " + std::to_string(j) + " is " + outs[j].str() +
                       "; " + (who + 4) +
                       " requires real-valued outputs (a floating dtype), as JAX's does; for "
                       "integer outputs use fj::vjp or fj::jvp directly");
}

}  // namespace

PyTreeDef replace_leaves(const PyTreeDef& outer, const PyTreeDef& inner) {
  if (outer.kind == PyTreeDef::Kind::leaf) return inner;
  PyTreeDef r = outer;
  for (PyTreeDef& c : r.children) c = replace_leaves(c, inner);
  return r;
}

JacOut jac_flat(const char* who, bool forward, std::source_location loc, const FlatArgs& fa,
                const std::vector<int>& w, bool with_aux, TraceBody body) {
  check_grad_args(who, fa.leaves, fa.first, w);
  const std::vector<int> wl = wrt_leaves(fa, w);
  const char* name = forward ? "jacfwd" : "jacrev";
  SubGraph s = trace_subgraph_flat({name, who, loc}, avals_of(fa.leaves), body);
  const ir::Graph& g = *s.graph;
  JacOut r;
  r.out_tree = s.out_tree;
  std::size_t ndiff = g.outvars.size();
  if (with_aux) {
    r.out_tree = s.out_tree.children.at(0);
    r.aux_tree = s.out_tree.children.at(1);
    ndiff = r.out_tree.num_leaves();
  }
  const std::size_t nout = g.outvars.size();
  std::vector<ir::Aval> out_av, in_av;
  for (std::size_t j = 0; j < ndiff; ++j) out_av.push_back(g.aval(g.outvars[j]));
  for (int i : wl) in_av.push_back(fa.leaves[static_cast<std::size_t>(i)].aval());
  check_float_outputs(who, out_av);

  // The basis spans the inputs (forward) or the outputs (reverse).
  const std::vector<ir::Aval>& spanned = forward ? in_av : out_av;
  std::vector<std::int64_t> offset{0};
  for (const ir::Aval& a : spanned) offset.push_back(offset.back() + a.shape.size());
  const std::int64_t total = offset.back();
  std::vector<Array> basis;
  for (std::size_t k = 0; k < spanned.size(); ++k)
    basis.push_back(basis_block(total, offset[k], spanned[k]));

  // Forward: the tangents of the outputs gain the basis axis last (out_axes=-1, as JAX's
  // jacfwd); reverse: the inputs' cotangents gain it first. Aux outputs are not batched.
  const std::size_t nbatched = forward ? ndiff : wl.size();
  std::vector<std::optional<int>> out_axes(nbatched, forward ? -1 : 0);
  out_axes.resize(nbatched + (nout - ndiff), std::nullopt);
  std::vector<Array> res =
      vmap_call(name, basis, {0}, out_axes, [&](const std::vector<ir::Aval>& avals) {
        return trace_subgraph({name, who, loc}, avals, [&](std::vector<Array>& t) {
          std::vector<Array> outs;
          if (forward) {
            auto [primal, tangent] = jvp_call(s, fa.leaves, t, wl);
            outs.assign(tangent.begin(), tangent.begin() + static_cast<std::ptrdiff_t>(ndiff));
            outs.insert(outs.end(), primal.begin() + static_cast<std::ptrdiff_t>(ndiff),
                        primal.end());
          } else {
            std::vector<Array> cts = t;
            auto E = active_emit();
            for (std::size_t j = ndiff; j < nout; ++j)
              cts.push_back(atom_array(E.zeros(g.aval(g.outvars[j]))));
            VjpOut v = vjp_call(s, fa.leaves, wl, cts);
            outs = std::move(v.grads);
            outs.insert(outs.end(), v.outs.begin() + static_cast<std::ptrdiff_t>(ndiff),
                        v.outs.end());
          }
          return outs;
        });
      });

  // Block (j, i): output j's rows of input i's cotangents (reverse), or input i's columns of
  // output j's tangents (forward), reshaped to out_j + in_i.
  for (std::size_t j = 0; j < ndiff; ++j)
    for (std::size_t i = 0; i < wl.size(); ++i) {
      const std::vector<std::int64_t> shape = joined(out_av[j].shape, in_av[i].shape);
      if (forward)
        r.jac.push_back(block(res[j], out_av[j].shape.rank(), offset[i], offset[i + 1], shape));
      else
        r.jac.push_back(block(res[i], 0, offset[j], offset[j + 1], shape));
    }
  r.aux.assign(res.begin() + static_cast<std::ptrdiff_t>(nbatched), res.end());
  return r;
}

}  // namespace fj::detail
