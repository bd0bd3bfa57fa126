// fj::lax control flow, out-of-line halves: closing traced sub-graphs over their captured values,
// JAX's forwarding rewrites, and emitting cond / while / scan equations (impl. unit only).
#include <algorithm>
#include <set>
#include <string_view>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/lax_control.hpp"
#include "fusejit/expr/lowering.hpp"
#include "fusejit/ir/passes/dce.hpp"

namespace fj::detail::lax_impl {

namespace {

TraceState& active() {
  TraceState* ts = current_trace();
  if (!ts) throw ValueError("fj::lax: internal: no active trace");
  return *ts;
}

bool typematch(const ir::Aval& a, const ir::Aval& b) {
  return a.dtype == b.dtype && a.shape == b.shape;
}

// Raises ShapeError for a shape difference, DTypeError for a dtype one.
void require_match(const ir::Aval& a, const ir::Aval& b, const std::string& msg) {
  if (!(a.shape == b.shape)) throw ShapeError(msg);
  if (a.dtype != b.dtype) throw DTypeError(msg);
}

// Two captured values are one operand when they are the same tracer or the same buffer.
bool same_value(const Array& a, const Array& b) {
  if (a.is_traced() != b.is_traced()) return false;
  if (a.is_traced()) return a.trace_state() == b.trace_state() && a.var_id() == b.var_id();
  return a.buffer() == b.buffer();
}

struct Consts {
  std::vector<Array> values;
  std::vector<ir::Aval> avals;
  void add(const SubGraph& s) {
    for (std::size_t i = 0; i < s.consts.size(); ++i) {
      bool seen = false;
      for (auto& v : values) seen = seen || same_value(v, s.consts[i]);
      if (seen) continue;
      values.push_back(s.consts[i]);
      avals.push_back(s.graph->aval(s.graph->constvars[i]));
    }
  }
};

// s's graph with `consts` as its leading invars: its own constvars where it captured the value,
// fresh (unused) vars for the others, as JAX's _merge_common_consts pads each branch.
ir::Graph close_over(const SubGraph& s, const Consts& consts) {
  ir::Graph g = *s.graph;
  std::vector<ir::VarId> lead;
  for (std::size_t m = 0; m < consts.values.size(); ++m) {
    ir::VarId v = -1;
    for (std::size_t i = 0; i < s.consts.size() && v < 0; ++i)
      if (same_value(s.consts[i], consts.values[m])) v = g.constvars[i];
    if (v < 0) v = g.new_var(consts.avals[m]);
    lead.push_back(v);
  }
  g.invars.insert(g.invars.begin(), lead.begin(), lead.end());
  g.constvars.clear();
  return g;
}

// Per output: the index of the invar it forwards unchanged, or -1.
std::vector<int> forwarding(const ir::Graph& g) {
  std::vector<int> r;
  for (auto& o : g.outvars) {
    int f = -1;
    for (std::size_t i = 0; i < g.invars.size() && !o.is_literal(); ++i)
      if (g.invars[i] == o.var) f = static_cast<int>(i);
    r.push_back(f);
  }
  return r;
}

std::vector<ir::Atom> lower_all(const std::vector<Array>& v) {
  std::vector<ir::Atom> r;
  for (auto& a : v) r.push_back(lower_arg(a));
  return r;
}

std::vector<ir::Aval> out_avals(const ir::Graph& g) {
  std::vector<ir::Aval> r;
  for (auto& o : g.outvars) r.push_back(g.aval(o));
  return r;
}

ir::GraphPtr share(ir::Graph g) { return std::make_shared<const ir::Graph>(std::move(g)); }

}  // namespace

void check_structure(const std::string& who, const std::string& what, const PyTreeDef& got,
                     const std::string& want_what, const PyTreeDef& want) {
  if (!(got == want))
    throw TypeError(who + ": " + what + " " + got.str() + " but " + want_what + " " + want.str() +
                    "; the structures must be identical");
}

std::vector<Array> stage_or_run(
    const std::string& name, const LaxSite& at, const std::vector<Array>& inputs,
    const std::function<std::vector<Array>(std::vector<Array>&)>& staged) {
  if (current_trace()) {
    std::vector<Array> in = inputs;
    return staged(in);
  }
  // Eager: trace this one operation into a graph of its own and run it.
  std::vector<ir::Aval> avals;
  TraceResult r = run_trace(at.of("lax." + name), [&](TraceScope& scope) {
    TraceState& ts = scope.state();
    std::vector<Array> tracers;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      avals.push_back(arg_aval(inputs[i], i));
      tracers.push_back(Array::from_trace(scope.ptr(), ts.builder.add_invar(avals.back())));
    }
    std::vector<Array> outs = staged(tracers);
    LowerCtx ctx{ts.builder, &ts};
    TraceResult t;
    for (auto& o : outs) ts.builder.graph.outvars.push_back(lower_output(ctx, o));
    for (std::size_t i = 0; i < ts.consts.size(); ++i)
      t.consts.push_back({ts.consts[i].buf, ts.builder.graph.aval(ts.const_vars[i])});
    t.graph = std::make_shared<const ir::Graph>(std::move(ts.builder.graph));
    return t;
  });
  std::vector<backend::Value> values;
  for (std::size_t i = 0; i < inputs.size(); ++i) values.push_back(arg_value(inputs[i], avals[i]));
  Compiled c = compile_traced(std::move(r), common_device(values, "fj::lax", name));
  c.name = "fj::lax." + name;
  ArrayList outs = run_compiled(c, values);
  return {std::make_move_iterator(outs.begin()), std::make_move_iterator(outs.end())};
}

std::vector<Array> emit_cond(const Array& pred, const SubGraph& true_g, const SubGraph& false_g,
                             const std::vector<Array>& operands) {
  const auto t_out = out_avals(*true_g.graph), f_out = out_avals(*false_g.graph);
  if (t_out.size() != f_out.size())
    throw TypeError("lax.cond: true_fn gives " + std::to_string(t_out.size()) +
                    " outputs but false_fn gives " + std::to_string(f_out.size()));
  for (std::size_t i = 0; i < t_out.size(); ++i)
    if (!typematch(t_out[i], f_out[i]))
      require_match(t_out[i], f_out[i],
                    "lax.cond: true_fn output " + std::to_string(i) + " is " + t_out[i].str() +
                        " but false_fn output " + std::to_string(i) + " is " + f_out[i].str());

  TraceState& ts = active();
  ir::GraphBuilder& b = ts.builder;
  ir::Atom p = lower_arg(pred);
  const ir::Aval pa = b.aval(p);
  if (pa.shape.rank() != 0) throw TypeError("lax.cond: pred must be a scalar, got " + pa.str());
  if (pa.dtype != DType::bool_) {
    // pred != 0; a concrete pred is compared here, as JAX compares a Python scalar eagerly.
    if (p.is_literal())
      p = ir::Atom::of_literal(ir::Literal::of(p.lit.as_double() != 0, false));
    else
      p = lower_binary(b, ir::Prim::ne, p, ir::Atom::of_literal(ir::Literal::of(0, true)));
  }

  // Captured values of both branches (true_fn's first), deduplicated, lead the operands.
  Consts consts;
  consts.add(true_g);
  consts.add(false_g);
  ir::Graph t = close_over(true_g, consts), f = close_over(false_g, consts);
  std::vector<Array> all = consts.values;
  all.insert(all.end(), operands.begin(), operands.end());

  // Outputs both branches pass through from one operand are that operand, not results.
  const auto tf = forwarding(t), ff = forwarding(f);
  std::vector<int> fwd(tf.size(), -1);
  std::vector<ir::Atom> t_outs, f_outs;
  for (std::size_t i = 0; i < tf.size(); ++i) {
    if (tf[i] >= 0 && tf[i] == ff[i]) {
      fwd[i] = tf[i];
      continue;
    }
    t_outs.push_back(t.outvars[i]);
    f_outs.push_back(f.outvars[i]);
  }
  t.outvars = std::move(t_outs);
  f.outvars = std::move(f_outs);

  const ir::Atom index = convert(b, p, TypedDType{DType::i32, false});
  std::vector<ir::Atom> in{index};
  for (auto& a : lower_all(all)) in.push_back(a);
  ir::Params params;
  params.items.push_back(
      {"branches", std::vector<ir::GraphPtr>{share(std::move(f)), share(std::move(t))}});
  std::vector<ir::Atom> res = b.emit(ir::Prim::cond, std::move(in), std::move(params));
  std::vector<Array> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < fwd.size(); ++i)
    out.push_back(fwd[i] >= 0 ? all[static_cast<std::size_t>(fwd[i])] : atom_array(res[next++]));
  return out;
}

bool promote_weak_carry(std::vector<Array>& init, const SubGraph& body, const std::string& who) {
  const auto outs = out_avals(*body.graph);
  bool changed = false;
  for (std::size_t i = 0; i < init.size() && i < outs.size(); ++i) {
    const ir::Aval in = init[i].aval();
    if (!in.weak || typematch(in, outs[i])) continue;
    const TypedDType to = promote_types(TypedDType{in.dtype, true}, {outs[i].dtype, outs[i].weak});
    ir::Atom a = convert(active().builder, lower_arg(init[i]), to);
    init[i] = atom_array(a);
    changed = true;
  }
  (void)who;
  return changed;
}

namespace {
// `hidden` leading carries are the loop's own (fori_loop's counter, and its bound as a while),
// not the user's: the message counts the user's carry only, as the user wrote it.
void check_carry(const std::string& who, const std::string& fn, const std::vector<Array>& init,
                 const std::vector<ir::Aval>& outs, std::size_t hidden = 0) {
  if (outs.size() < init.size())
    throw TypeError(who + ": " + fn + " returns " + std::to_string(outs.size()) +
                    " carry values but the init has " + std::to_string(init.size()));
  for (std::size_t i = 0; i < init.size(); ++i) {
    const ir::Aval in = init[i].aval();
    const std::string k = std::to_string(i >= hidden ? i - hidden : i);
    if (!typematch(in, outs[i]))
      require_match(in, outs[i],
                    who + ": " + fn + " output carry " + k + " is " + outs[i].str() +
                        " but the input carry " + k + " is " + in.str() +
                        "; the carry must keep its shape and dtype");
  }
}
}  // namespace

std::vector<Array> emit_while(const SubGraph& cond_g, const SubGraph& body_g,
                              const std::vector<Array>& init) {
  const std::string who = "lax.while_loop";
  const auto c_out = out_avals(*cond_g.graph);
  if (c_out.size() != 1 || c_out[0].dtype != DType::bool_ || c_out[0].shape.rank() != 0) {
    std::string got;
    for (auto& a : c_out) got += (got.empty() ? "" : ", ") + a.str();
    throw TypeError(who + ": cond_fn must return a bool scalar, got (" + got + ")");
  }
  const auto b_out = out_avals(*body_g.graph);
  if (b_out.size() != init.size())
    throw TypeError(who + ": body_fn returns " + std::to_string(b_out.size()) +
                    " carry values but the init has " + std::to_string(init.size()));
  check_carry(who, "body_fn", init, b_out);

  const std::size_t n = init.size();
  const ir::Graph& bg = *body_g.graph;
  const ir::Graph& cg = *cond_g.graph;
  // A carry the body passes through unchanged and cond does not read becomes a body const.
  const ir::Graph cd = ir::dce(cg);
  std::set<ir::VarId> cond_reads;
  for (auto& e : cd.eqns)
    for (auto& a : e.in)
      if (!a.is_literal()) cond_reads.insert(a.var);
  for (auto& o : cd.outvars)
    if (!o.is_literal()) cond_reads.insert(o.var);
  std::vector<bool> moved(n, false);
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    const bool fwd = !bg.outvars[i].is_literal() && bg.outvars[i].var == bg.invars[i];
    moved[i] = fwd && !cond_reads.count(cg.invars[i]);
    any = any || moved[i];
  }

  ir::Graph c = any ? cd : cg;
  ir::Graph body = bg;
  std::vector<ir::VarId> c_in = c.constvars, b_in, b_rest;
  std::vector<ir::Atom> b_outs;
  std::vector<Array> body_consts, carry;
  for (std::size_t i = 0; i < n; ++i) {
    if (moved[i]) {
      b_in.push_back(bg.invars[i]);
      body_consts.push_back(init[i]);
    } else {
      c_in.push_back(cg.invars[i]);
      b_rest.push_back(bg.invars[i]);
      b_outs.push_back(bg.outvars[i]);
      carry.push_back(init[i]);
    }
  }
  b_in.insert(b_in.end(), bg.constvars.begin(), bg.constvars.end());
  b_in.insert(b_in.end(), b_rest.begin(), b_rest.end());
  body_consts.insert(body_consts.end(), body_g.consts.begin(), body_g.consts.end());
  c.invars = std::move(c_in);
  c.constvars.clear();
  body.invars = std::move(b_in);
  body.constvars.clear();
  body.outvars = std::move(b_outs);

  std::vector<ir::Atom> in = lower_all(cond_g.consts);
  for (auto& a : lower_all(body_consts)) in.push_back(a);
  for (auto& a : lower_all(carry)) in.push_back(a);
  ir::Params params;
  params.items.push_back({"body_jaxpr", share(std::move(body))});
  params.items.push_back({"body_nconsts", static_cast<std::int64_t>(body_consts.size())});
  params.items.push_back({"cond_jaxpr", share(std::move(c))});
  params.items.push_back({"cond_nconsts", static_cast<std::int64_t>(cond_g.consts.size())});
  std::vector<ir::Atom> res =
      active().builder.emit(ir::Prim::while_, std::move(in), std::move(params));
  std::vector<Array> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) out.push_back(moved[i] ? init[i] : atom_array(res[next++]));
  return out;
}

std::vector<Array> emit_scan(const SubGraph& body_g, const std::vector<Array>& init,
                             const std::vector<Array>& xs, std::int64_t length, bool reverse,
                             const std::string& who) {
  const std::string name = "lax." + who;
  const ir::Graph& g = *body_g.graph;
  const auto outs = out_avals(g);
  if (who == "fori_loop")  // the scan's first carry is fori_loop's counter
    check_carry(name, "body_fun", init, outs, 1);
  else
    check_carry(name, "f", init, outs);
  const std::size_t n_carry = init.size(), n_ys = outs.size() - n_carry;

  // A carry passed through unchanged becomes a const; a y that is an x is that xs itself.
  std::vector<bool> moved(n_carry, false);
  for (std::size_t i = 0; i < n_carry; ++i)
    moved[i] = !g.outvars[i].is_literal() && g.outvars[i].var == g.invars[i];
  std::vector<int> y_fwd(n_ys, -1);
  for (std::size_t j = 0; j < n_ys; ++j) {
    const ir::Atom& o = g.outvars[n_carry + j];
    for (std::size_t k = 0; k < xs.size() && !o.is_literal(); ++k)
      if (g.invars[n_carry + k] == o.var) y_fwd[j] = static_cast<int>(k);
  }

  ir::Graph body = g;
  std::vector<ir::VarId> invars, rest;
  std::vector<ir::Atom> outvars;
  std::vector<Array> consts, carry;
  for (std::size_t i = 0; i < n_carry; ++i) {
    if (moved[i]) {
      invars.push_back(g.invars[i]);
      consts.push_back(init[i]);
    } else {
      rest.push_back(g.invars[i]);
      outvars.push_back(g.outvars[i]);
      carry.push_back(init[i]);
    }
  }
  invars.insert(invars.end(), g.constvars.begin(), g.constvars.end());
  consts.insert(consts.end(), body_g.consts.begin(), body_g.consts.end());
  invars.insert(invars.end(), rest.begin(), rest.end());
  invars.insert(invars.end(), g.invars.begin() + static_cast<std::ptrdiff_t>(n_carry),
                g.invars.end());
  for (std::size_t j = 0; j < n_ys; ++j)
    if (y_fwd[j] < 0) outvars.push_back(g.outvars[n_carry + j]);
  body.invars = std::move(invars);
  body.constvars.clear();
  body.outvars = std::move(outvars);

  std::vector<ir::Atom> in = lower_all(consts);
  for (auto& a : lower_all(carry)) in.push_back(a);
  for (auto& a : lower_all(xs)) in.push_back(a);
  ir::Params params;
  params.items.push_back({"jaxpr", share(std::move(body))});
  params.items.push_back({"length", length});
  params.items.push_back({"num_carry", static_cast<std::int64_t>(carry.size())});
  params.items.push_back({"num_consts", static_cast<std::int64_t>(consts.size())});
  params.items.push_back({"reverse", reverse});
  params.items.push_back({"unroll", std::int64_t{1}});
  std::vector<ir::Atom> res =
      active().builder.emit(ir::Prim::scan, std::move(in), std::move(params));
  std::vector<Array> out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < n_carry; ++i)
    out.push_back(moved[i] ? init[i] : atom_array(res[next++]));
  for (std::size_t j = 0; j < n_ys; ++j)
    out.push_back(y_fwd[j] >= 0 ? xs[static_cast<std::size_t>(y_fwd[j])] : atom_array(res[next++]));
  return out;
}

std::vector<Array> scan_traced(const std::vector<Array>& init, const PyTreeDef& c_tree,
                               const std::vector<Array>& xs, PyTreeDef& y_tree, std::int64_t length,
                               bool reverse, const std::string& who, const LaxSite& at,
                               TraceBody body) {
  std::vector<Array> in = init;
  in.insert(in.end(), xs.begin(), xs.end());
  const std::size_t n_carry = init.size();
  return stage_or_run(who, at, in, [&](std::vector<Array>& args) {
    std::vector<Array> carry(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(n_carry));
    std::vector<Array> x(args.begin() + static_cast<std::ptrdiff_t>(n_carry), args.end());
    std::vector<ir::Aval> x_avals;
    for (auto& a : x) {
      ir::Aval av = a.aval();
      if (av.shape.rank() == 0)
        throw ValueError(who + ": scan got a value with no leading axis to scan over: " + av.str());
      Shape s;
      for (int d = 1; d < av.shape.rank(); ++d) s.push_back(av.shape[d]);
      x_avals.push_back(ir::Aval{av.dtype, s, av.weak});
    }
    auto trace = [&] {
      std::vector<ir::Aval> avals = avals_of(carry);
      avals.insert(avals.end(), x_avals.begin(), x_avals.end());
      return trace_subgraph_flat(at.of(who + "_body"), avals, body);
    };
    SubGraph traced = trace();
    check_structure("lax." + who, "f returns a carry of structure", traced.out_tree.children.at(0),
                    "the init has", c_tree);
    y_tree = traced.out_tree.children.at(1);
    if (promote_weak_carry(carry, traced, who)) traced = trace();
    return emit_scan(traced, carry, x, length, reverse, who);
  });
}

std::vector<Array> while_traced(const std::vector<Array>& init, const PyTreeDef& tree,
                                const LaxSite& at, TraceBody cond_body, TraceBody body) {
  return stage_or_run("while", at, init, [&](std::vector<Array>& args) {
    std::vector<Array> carry = args;
    auto trace = [&] {
      const auto avals = avals_of(carry);
      auto c = trace_subgraph_flat(at.of("while_cond"), avals, cond_body);
      auto b = trace_subgraph_flat(at.of("while_body"), avals, body);
      check_structure("lax.while_loop", "body_fn returns a carry of structure", b.out_tree,
                      "the init has", tree);
      return std::make_pair(std::move(c), std::move(b));
    };
    auto [c, b] = trace();
    if (promote_weak_carry(carry, b, "lax.while_loop")) std::tie(c, b) = trace();
    // fori_loop with traced bounds: the carry is (counter, upper, the user's carry).
    if (std::string_view(at.api) == "fj::lax::fori_loop")
      check_carry("lax.fori_loop", "body_fun", carry, out_avals(*b.graph), 2);
    return emit_while(c, b, carry);
  });
}

std::vector<Array> cond_traced(const std::vector<Array>& in, const LaxSite& at, TraceBody true_body,
                               TraceBody false_body, PyTreeDef& out_tree) {
  return stage_or_run("cond", at, in, [&](std::vector<Array>& args) {
    std::vector<Array> ops(args.begin() + 1, args.end());
    const auto avals = avals_of(ops);
    auto t = trace_subgraph_flat(at.of("cond_true"), avals, true_body);
    auto f = trace_subgraph_flat(at.of("cond_false"), avals, false_body);
    check_structure("lax.cond", "false_fn returns structure", f.out_tree, "true_fn returns",
                    t.out_tree);
    out_tree = t.out_tree;
    return emit_cond(args[0], t, f, ops);
  });
}

Array lax_lt(const Array& a, const Array& b) {
  ir::GraphBuilder& bld = active().builder;
  return atom_array(bld.emit1(ir::Prim::lt, {lower_arg(a), lower_arg(b)}));
}

Array lax_add_const(const Array& a, std::int64_t c) {
  ir::GraphBuilder& bld = active().builder;
  const ir::Atom x = lower_arg(a);
  const ir::Aval av = bld.aval(x);
  const ir::Literal lit = ir::Literal::of(c, false).cast(av.dtype, av.weak);
  return atom_array(bld.emit1(ir::Prim::add, {x, ir::Atom::of_literal(lit)}));
}

bool concrete_int(const Array& a, std::int64_t& v) {
  if (a.is_traced() || a.is_empty() || a.ndim() != 0 || !is_int(a.dtype())) return false;
  visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    v = static_cast<std::int64_t>(*static_cast<const T*>(a.buffer()->data));
  });
  return true;
}

}  // namespace fj::detail::lax_impl
