// Reverse mode through a custom_jvp_call whose rule computes its results (JAX's defjvp form),
// as JAX's linearize goes through it: the rule's tangent-free part in the forward pass, its
// transposed tangent part in the backward pass (implementation unit only).
#include <algorithm>

#include "fusejit/transforms/sort_rules.hpp"
#include "fusejit/transforms/vjp_parts.hpp"

namespace fj::transforms::vjp_detail {

namespace {

// Copies v's equations [from, to) into E's graph with v's values mapped by env; an equation
// `skip` marks is left out (its results stay unmapped).
void copy_eqns(Emit& E, const ir::Graph& v, std::size_t from, std::size_t to,
               std::vector<MaybeAtom>& env, const std::vector<char>& skip) {
  for (std::size_t j = from; j < to; ++j) {
    const ir::Eqn& q = v.eqns[j];
    if (!skip.empty() && skip[j]) continue;
    std::vector<Atom> in;
    for (const Atom& a : q.in)
      in.push_back(a.is_literal() ? a : *env[static_cast<std::size_t>(a.var)]);
    const std::vector<Atom> r = E.b.emit(q.prim, std::move(in), q.params);
    for (std::size_t i = 0; i < q.out.size(); ++i) env[static_cast<std::size_t>(q.out[i])] = r[i];
  }
}

}  // namespace

// The forward part of call e (operands `in`; cotangents flow into the operands `wrt_in` from
// the results `ct_out`), emitted into E's graph; nullopt for a rule given the results, or one
// whose backward part would read a tangent (the rule's graph is then transposed whole, by
// vjp_custom_call).
std::optional<LinearizedCall> linearize_call(Emit& E, const ir::Graph& g, const ir::Eqn& e,
                                             const std::vector<Atom>& in,
                                             const std::vector<bool>& wrt_in,
                                             const std::vector<bool>& ct_out) {
  std::vector<Aval> out_avals;
  for (ir::VarId o : e.out) out_avals.push_back(g.aval(Atom::of_var(o)));
  std::vector<Aval> in_avals;
  for (const Atom& x : in) in_avals.push_back(E.aval(x));
  const std::optional<ir::Graph> rule = custom_call_jvp_graph(e, in_avals, out_avals);
  if (!rule) return std::nullopt;
  const std::size_t n = in.size(), m = out_avals.size();
  LinearizedCall c;
  c.wrt.assign(2 * n, false);
  for (std::size_t i = 0; i < n; ++i) c.wrt[n + i] = wrt_in[i];
  c.has_ct.assign(2 * m, false);
  for (std::size_t k = 0; k < m; ++k) c.has_ct[m + k] = ct_out[k];
  const ir::Graph sub = expand_differentiated_scans(*rule, c.wrt);
  VjpLayout lay;
  TangentMarks marks;
  try {
    c.v = vjp_impl(sub, c.wrt, c.has_ct, &lay, /*linear=*/true);
    marks = tangent_marks(c.v, lay.forward_eqns, c.wrt);
  } catch (const NotLinear&) {
    return std::nullopt;
  }
  c.forward_eqns = lay.forward_eqns;
  for (std::size_t k = 0; k < m; ++k)
    if (!c.v.outvars[k].is_literal() && marks.values[static_cast<std::size_t>(c.v.outvars[k].var)])
      return std::nullopt;
  std::vector<char>& skip = marks.eqns;
  // What the forward part computes that nothing reads (zeros_like of a result whose tangent
  // is dead) is left out too, as JAX's partial evaluation drops it.
  std::vector<char> live(c.v.avals.size(), 0);
  auto mark = [&](const Atom& a) {
    if (!a.is_literal()) live[static_cast<std::size_t>(a.var)] = 1;
  };
  for (std::size_t k = 0; k < m; ++k) mark(c.v.outvars[k]);
  for (std::size_t j = c.forward_eqns; j < c.v.eqns.size(); ++j)
    for (const Atom& a : c.v.eqns[j].in) mark(a);
  for (std::size_t j = c.forward_eqns; j-- > 0;) {
    const ir::Eqn& q = c.v.eqns[j];
    if (skip[j] || std::none_of(q.out.begin(), q.out.end(), [&](ir::VarId o) {
          return live[static_cast<std::size_t>(o)] != 0;
        })) {
      skip[j] = 1;
      continue;
    }
    for (const Atom& a : q.in) mark(a);
  }
  c.env.assign(c.v.avals.size(), std::nullopt);
  for (std::size_t i = 0; i < n; ++i) c.env[static_cast<std::size_t>(c.v.invars[i])] = in[i];
  copy_eqns(E, c.v, 0, c.forward_eqns, c.env, skip);
  auto mapped = [&](const Atom& a) {
    return a.is_literal() ? a : *c.env[static_cast<std::size_t>(a.var)];
  };
  for (std::size_t k = 0; k < m; ++k) c.results.push_back(mapped(c.v.outvars[k]));
  for (const Atom& a : residual_order(sub, c.v, lay)) c.residuals.push_back(mapped(a));
  return c;
}

// The backward part of a linearized call: the operands' cotangents (nullopt: none) given the
// results' (`cts`, of avals `outs`).
std::vector<MaybeAtom> transpose_call(Emit& E, LinearizedCall& c, const std::vector<MaybeAtom>& cts,
                                      const std::vector<Aval>& outs) {
  const std::size_t n = c.wrt.size() / 2, m = c.has_ct.size() / 2;
  std::size_t next = 2 * n;
  for (std::size_t k = 0; k < 2 * m; ++k)
    if (c.has_ct[k])
      c.env[static_cast<std::size_t>(c.v.invars[next++])] = E.or_zeros(cts[k - m], outs[k - m]);
  copy_eqns(E, c.v, c.forward_eqns, c.v.eqns.size(), c.env, {});
  std::vector<MaybeAtom> r(n);
  std::size_t pos = 2 * m;
  for (std::size_t i = n; i < 2 * n; ++i)
    if (c.wrt[i]) {
      const Atom& o = c.v.outvars[pos++];
      r[i - n] = o.is_literal() ? o : *c.env[static_cast<std::size_t>(o.var)];
    }
  return r;
}

}  // namespace fj::transforms::vjp_detail
