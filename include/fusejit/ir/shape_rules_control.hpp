// Shape and dtype rules of the control primitives: jit/fused calls and lax's cond, while and scan
// (implementation unit only, included by shape_rules.cpp).
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/linear_solve.hpp"

namespace fj::ir {

namespace {

// JAX's core.typematch: dtype and shape agree; weak types may differ.
bool typematch(const Aval& a, const Aval& b) { return a.dtype == b.dtype && a.shape == b.shape; }

std::vector<Aval> out_avals_of(const Graph& g) {
  std::vector<Aval> r;
  for (auto& o : g.outvars) r.push_back(g.aval(o));
  return r;
}

const Graph& sub_graph(const Params& params, std::string_view key, std::string_view who) {
  const GraphPtr& g = params.get<GraphPtr>(key);
  if (!g) throw ValueError(std::string(who) + ": null " + std::string(key));
  if (!g->constvars.empty())
    throw ValueError(std::string(who) + ": " + std::string(key) +
                     " must be closed (captured values as leading invars), it has constvars");
  return *g;
}

// `g` takes operands `in[lo, lo + n)`, matched by type.
void check_takes(const Graph& g, const std::vector<Aval>& in, std::size_t lo, std::size_t n,
                 const std::string& what) {
  if (g.invars.size() != n)
    throw ValueError(what + " takes " + std::to_string(g.invars.size()) + " operands, got " +
                     std::to_string(n));
  for (std::size_t i = 0; i < n; ++i)
    if (!typematch(g.aval(g.invars[i]), in[lo + i]))
      throw DTypeError(what + ": operand " + std::to_string(i) + " is " + in[lo + i].str() +
                       " but the sub-graph takes " + g.aval(g.invars[i]).str());
}

std::int64_t nonneg_param(const Params& params, std::string_view key, std::string_view who) {
  const auto v = params.get<std::int64_t>(key);
  if (v < 0)
    throw ValueError(std::string(who) + ": " + std::string(key) +
                     " is negative: " + std::to_string(v));
  return v;
}

}  // namespace

std::vector<Aval> control_avals(Prim p, const std::vector<Aval>& in, const Params& params) {
  switch (p) {
    case Prim::cond: {
      const auto& branches = params.get<std::vector<GraphPtr>>("branches");
      if (branches.empty()) throw ValueError("cond: no branches");
      if (in.empty() || in[0].dtype != DType::i32 || in[0].shape.rank() != 0)
        throw DTypeError("cond: the index must be an i32 scalar, got " +
                         (in.empty() ? std::string("nothing") : in[0].str()));
      std::vector<Aval> outs;
      for (std::size_t b = 0; b < branches.size(); ++b) {
        if (!branches[b]) throw ValueError("cond: null branch");
        const Graph& g = *branches[b];
        if (!g.constvars.empty()) throw ValueError("cond: branches must have no constvars");
        check_takes(g, in, 1, in.size() - 1, "cond: branch " + std::to_string(b));
        auto o = out_avals_of(g);
        if (b == 0) {
          outs = o;
          continue;
        }
        if (o.size() != outs.size())
          throw ValueError("cond: branch " + std::to_string(b) + " gives " +
                           std::to_string(o.size()) + " results, branch 0 gives " +
                           std::to_string(outs.size()));
        for (std::size_t i = 0; i < o.size(); ++i) {
          if (!typematch(o[i], outs[i]))
            throw DTypeError("cond: branch " + std::to_string(b) + " output " + std::to_string(i) +
                             " is " + o[i].str() + " but branch 0 output " + std::to_string(i) +
                             " is " + outs[i].str());
          outs[i].weak = outs[i].weak && o[i].weak;
        }
      }
      return outs;
    }
    case Prim::while_: {
      const Graph& c = sub_graph(params, "cond_jaxpr", "while");
      const Graph& b = sub_graph(params, "body_jaxpr", "while");
      const auto cn = static_cast<std::size_t>(nonneg_param(params, "cond_nconsts", "while"));
      const auto bn = static_cast<std::size_t>(nonneg_param(params, "body_nconsts", "while"));
      if (cn + bn > in.size())
        throw ValueError("while: " + std::to_string(cn + bn) + " consts but " +
                         std::to_string(in.size()) + " operands");
      const std::size_t nc = in.size() - cn - bn;
      std::vector<Aval> cin(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(cn));
      cin.insert(cin.end(), in.begin() + static_cast<std::ptrdiff_t>(cn + bn), in.end());
      check_takes(c, cin, 0, cin.size(), "while: cond_jaxpr");
      check_takes(b, in, cn, bn + nc, "while: body_jaxpr");
      auto co = out_avals_of(c);
      if (co.size() != 1 || co[0].dtype != DType::bool_ || co[0].shape.rank() != 0)
        throw DTypeError("while: cond_jaxpr must give one bool scalar");
      auto bo = out_avals_of(b);
      if (bo.size() != nc)
        throw ValueError("while: body_jaxpr gives " + std::to_string(bo.size()) +
                         " results for a carry of " + std::to_string(nc));
      for (std::size_t i = 0; i < nc; ++i)
        if (!typematch(bo[i], in[cn + bn + i]))
          throw DTypeError("while: body_jaxpr output " + std::to_string(i) + " is " + bo[i].str() +
                           " but the carry is " + in[cn + bn + i].str());
      return bo;
    }
    case Prim::scan: {
      const Graph& g = sub_graph(params, "jaxpr", "scan");
      const auto length = nonneg_param(params, "length", "scan");
      const auto n_consts = static_cast<std::size_t>(nonneg_param(params, "num_consts", "scan"));
      const auto n_carry = static_cast<std::size_t>(nonneg_param(params, "num_carry", "scan"));
      (void)params.get<bool>("reverse");
      (void)params.get<std::int64_t>("unroll");
      if (n_consts + n_carry > in.size())
        throw ValueError("scan: " + std::to_string(n_consts + n_carry) +
                         " consts and carries but " + std::to_string(in.size()) + " operands");
      std::vector<Aval> body_in(in.begin(),
                                in.begin() + static_cast<std::ptrdiff_t>(n_consts + n_carry));
      for (std::size_t i = n_consts + n_carry; i < in.size(); ++i) {
        const Aval& x = in[i];
        if (x.shape.rank() == 0 || x.shape[0] != length)
          throw ShapeError("scan: xs operand " + x.str() + " needs a leading axis of length " +
                           std::to_string(length));
        Shape s;
        for (int d = 1; d < x.shape.rank(); ++d) s.push_back(x.shape[d]);
        body_in.push_back(Aval{x.dtype, s, x.weak});
      }
      check_takes(g, body_in, 0, body_in.size(), "scan: jaxpr");
      auto o = out_avals_of(g);
      if (o.size() < n_carry)
        throw ValueError("scan: jaxpr gives " + std::to_string(o.size()) +
                         " results, fewer than its " + std::to_string(n_carry) + " carries");
      for (std::size_t i = 0; i < n_carry; ++i)
        if (!typematch(o[i], in[n_consts + i]))
          throw DTypeError("scan: jaxpr carry output " + std::to_string(i) + " is " + o[i].str() +
                           " but the carry is " + in[n_consts + i].str());
      for (std::size_t i = n_carry; i < o.size(); ++i) {
        Shape s;
        s.push_back(length);
        for (int d = 0; d < o[i].shape.rank(); ++d) s.push_back(o[i].shape[d]);
        o[i] = Aval{o[i].dtype, s, o[i].weak};
      }
      return o;
    }
    case Prim::custom_jvp_call:
    case Prim::custom_vjp_call: {  // call_jaxpr on the operands, matched by type
      const std::string who(name(p));
      const Graph& g = sub_graph(params, "call_jaxpr", who);
      check_takes(g, in, 0, in.size(), who + ": call_jaxpr");
      return out_avals_of(g);
    }
    case Prim::shard_map: {  // the whole axis at once: `lowered` on the operands
      const Graph& g = sub_graph(params, "lowered", "shard_map");
      check_takes(g, in, 0, in.size(), "shard_map: lowered");
      return out_avals_of(g);
    }
    case Prim::custom_linear_solve: {  // each sub-graph on its consts and the right-hand sides
      const LinearSolveView v(params);
      if (in.size() <= v.n_consts)
        throw ValueError("custom_linear_solve: " + std::to_string(in.size()) +
                         " operands, no right-hand side after " + std::to_string(v.n_consts) +
                         " consts");
      const std::vector<Aval> rhs = v.rhs(in);
      for (std::size_t k = 0; k < 4; ++k) {
        const auto p = static_cast<LinearSolvePart>(k);
        const Graph& sub = v.graph(p);
        if (!sub.constvars.empty())
          throw ValueError("custom_linear_solve: " + v.part_name(k) + " must be closed");
        const std::vector<Aval> args = v.args(p, in, rhs);
        check_takes(sub, args, 0, args.size(), "custom_linear_solve: " + v.part_name(k));
        const auto o = out_avals_of(sub);
        if (o.size() != rhs.size())
          throw ValueError("custom_linear_solve: " + v.part_name(k) + " gives " +
                           std::to_string(o.size()) + " results for " + std::to_string(rhs.size()) +
                           " right-hand sides");
        for (std::size_t i = 0; i < o.size(); ++i)
          if (!typematch(o[i], rhs[i]))
            throw DTypeError("custom_linear_solve: " + v.part_name(k) + " result " +
                             std::to_string(i) + " is " + o[i].str() + " but b is " + rhs[i].str());
      }
      return out_avals_of(v.graph(LinearSolvePart::solve));
    }
    default: {  // jit and fused: one sub-graph called on the operands
      const Graph& g = *params.get<GraphPtr>("jaxpr");
      if (g.invars.size() != in.size())
        throw ValueError(std::string(name(p)) + ": sub-graph takes " +
                         std::to_string(g.invars.size()) + " operands, got " +
                         std::to_string(in.size()));
      return out_avals_of(g);
    }
  }
}

}  // namespace fj::ir
