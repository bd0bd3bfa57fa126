// The interpreter: a graph resolved once into a plan of kernels, then run eqn by eqn per call.
#pragma once
#include <cstring>
#include <memory>
#include <span>

#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/runtime/fault_injection.hpp"
#include <string>
#include <vector>

#include "fusejit/backend/control_flow.hpp"
#include "fusejit/ir/custom_jvp.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/backend/reference/kernels.hpp"
#include "fusejit/backend/reference/reference_backend.hpp"

namespace fj::detail::reference {

inline std::size_t bytes_of(const ir::Aval& a) {
  return static_cast<std::size_t>(a.shape.size()) * size_of(a.dtype);
}

/// A fresh 1-element buffer holding a literal in its own dtype.
inline Value literal_value(const ir::Literal& lit) {
  Value v{runtime::allocate(size_of(lit.dtype)), ir::Aval{lit.dtype, Shape{}, lit.weak}};
  visit_dtype(lit.dtype, [&](auto t) {
    using T = decltype(t);
    const T x = is_float(lit.dtype) ? static_cast<T>(lit.f) : static_cast<T>(lit.i);
    std::memcpy(v.buf->data, &x, sizeof(T));
  });
  return v;
}

class Plan;

/// One equation, resolved: its kernel (or the sub-plan of a jit / fused call) and its operands.
struct Step {
  const ir::Eqn* eqn = nullptr;
  EqnFn fn = nullptr;
  std::unique_ptr<const Plan> sub;
  std::vector<std::unique_ptr<const Plan>> control;  // cond / while / scan: its sub-graphs' plans
  std::vector<ir::Aval> out_avals;                   // control: its results' avals
  std::vector<ir::VarId> vars;     // per operand; -1 where the operand is a literal
  std::vector<Value> literals;     // per operand; materialized once here, read-only afterwards
  std::vector<ir::VarId> release;  // vars whose last use is this step: freed right after it
};

/// Immutable after construction, so concurrent run() calls share it without locking.
class Plan {
 public:
  explicit Plan(ir::GraphPtr graph) : graph_(std::move(graph)) {
    const ir::Graph& g = *graph_;
    std::vector<bool> defined(g.avals.size(), false);
    auto define = [&](ir::VarId v) {
      check_var(v);
      if (defined[static_cast<std::size_t>(v)])
        throw ValueError("reference backend: variable " + std::to_string(v) + " is assigned twice");
      defined[static_cast<std::size_t>(v)] = true;
    };
    auto use = [&](const ir::Atom& a) {
      if (a.is_literal()) return;
      check_var(a.var);
      if (!defined[static_cast<std::size_t>(a.var)])
        throw ValueError("reference backend: variable " + std::to_string(a.var) +
                         " is used before it is assigned");
    };
    for (ir::VarId v : g.constvars) define(v);
    for (ir::VarId v : g.invars) define(v);

    // Step index of each var's last read: -1 if never read, eqns.size() for graph outputs,
    // which are read after the last step. A var is freed right after its last read.
    const auto never = static_cast<std::ptrdiff_t>(g.eqns.size());
    std::vector<std::ptrdiff_t> last_use(g.avals.size(), -1);
    auto note = [&](const ir::Atom& a, std::ptrdiff_t k) {
      if (!a.is_literal() && a.var >= 0 && static_cast<std::size_t>(a.var) < last_use.size())
        last_use[static_cast<std::size_t>(a.var)] = k;
    };
    for (std::size_t k = 0; k < g.eqns.size(); ++k)
      for (const ir::Atom& a : g.eqns[k].in) note(a, static_cast<std::ptrdiff_t>(k));
    for (const ir::Atom& a : g.outvars) note(a, never);

    steps_.reserve(g.eqns.size());
    for (std::size_t k = 0; k < g.eqns.size(); ++k) {
      const ir::Eqn& e = g.eqns[k];
      for (const ir::Atom& a : e.in) use(a);
      for (ir::VarId v : e.out) define(v);
      Step s;
      s.eqn = &e;
      for (const ir::Atom& a : e.in) {
        s.vars.push_back(a.is_literal() ? -1 : a.var);
        s.literals.push_back(a.is_literal() ? literal_value(a.lit) : Value{});
      }
      s.fn = resolve(g, e);
      if (ir::is_lax_control(e.prim)) {
        for (auto& sub : backend::control_subgraphs(e)) {
          if (!sub || !sub->constvars.empty())
            throw ValueError(std::string(ir::name(e.prim)) +
                             ": sub-graphs must be non-null and closed (no constvars)");
          s.control.push_back(std::make_unique<const Plan>(sub));
        }
        for (ir::VarId v : e.out) s.out_avals.push_back(g.aval(v));
      } else if (!s.fn) {
        s.sub = compile_call(e);
      }
      for (const ir::Atom& a : e.in)
        if (!a.is_literal() &&
            last_use[static_cast<std::size_t>(a.var)] == static_cast<std::ptrdiff_t>(k))
          s.release.push_back(a.var);
      for (ir::VarId v : e.out)
        if (last_use[static_cast<std::size_t>(v)] < static_cast<std::ptrdiff_t>(k))
          s.release.push_back(v);
      steps_.push_back(std::move(s));
    }
    for (const ir::Atom& a : g.outvars) use(a);
  }

  /// `observe`, if given, sees every equation's results (fj::set_debug_nans's re-run).
  std::vector<Value> run(std::span<const Value> inputs,
                         const backend::StepObserver* observe = nullptr) const {
    const ir::Graph& g = *graph_;
    const std::size_t n_in = g.constvars.size() + g.invars.size();
    if (inputs.size() != n_in)
      throw ValueError("reference backend: graph takes " + std::to_string(n_in) +
                       " inputs (constvars then invars), got " + std::to_string(inputs.size()));
    std::vector<Value> env(g.avals.size());
    for (std::size_t k = 0; k < n_in; ++k) {
      const ir::VarId v =
          k < g.constvars.size() ? g.constvars[k] : g.invars[k - g.constvars.size()];
      env[static_cast<std::size_t>(v)] = bind_input(inputs[k], g.aval(v), k);
    }

    std::vector<Value> in, out;
    for (const Step& s : steps_) {
      const ir::Eqn& e = *s.eqn;
      in.clear();
      for (std::size_t i = 0; i < s.vars.size(); ++i)
        in.push_back(s.vars[i] < 0 ? s.literals[i] : env[static_cast<std::size_t>(s.vars[i])]);
      if (!s.control.empty()) {
        out = backend::run_control(e, in, s.out_avals,
                                   [&](std::size_t k, std::span<const Value> args) {
                                     return s.control[k]->run(args, observe);
                                   });
      } else if (s.sub) {
        out = s.sub->run(in, observe);
        for (std::size_t i = 0; i < e.out.size(); ++i) out[i].aval = g.aval(e.out[i]);
      } else {
        out.clear();
        for (ir::VarId v : e.out)
          out.push_back(Value{runtime::allocate(bytes_of(g.aval(v))), g.aval(v)});
        s.fn(e, in.data(), out.data());
      }
      if (observe) (*observe)(g, e, std::span<const Value>(out.data(), e.out.size()));
      for (std::size_t i = 0; i < e.out.size(); ++i)
        env[static_cast<std::size_t>(e.out[i])] = std::move(out[i]);
      for (ir::VarId v : s.release) env[static_cast<std::size_t>(v)].buf.reset();
    }

    std::vector<Value> results;
    results.reserve(g.outvars.size());
    for (const ir::Atom& a : g.outvars)
      results.push_back(a.is_literal() ? literal_value(a.lit)
                                       : env[static_cast<std::size_t>(a.var)]);
    return results;
  }

 private:
  void check_var(ir::VarId v) const {
    if (v < 0 || static_cast<std::size_t>(v) >= graph_->avals.size())
      throw ValueError("reference backend: variable id " + std::to_string(v) + " has no aval");
  }

  std::unique_ptr<const Plan> compile_call(const ir::Eqn& e) const {
    const ir::GraphPtr sub = e.prim == ir::Prim::custom_linear_solve
                                 ? ir::linear_solve_call(*graph_, e)
                                 : require_param<ir::GraphPtr>(e, ir::call_param(e.prim));
    const std::string what(ir::name(e.prim));
    if (!sub) throw ValueError(what + ": null jaxpr");
    if (!sub->constvars.empty())
      throw ValueError(what + ": the reference backend runs sub-graphs without constvars only");
    if (sub->invars.size() != e.in.size() || sub->outvars.size() != e.out.size())
      throw ValueError(what + ": sub-graph takes " + std::to_string(sub->invars.size()) +
                       " operands and gives " + std::to_string(sub->outvars.size()) +
                       " results; the equation has " + std::to_string(e.in.size()) + " and " +
                       std::to_string(e.out.size()));
    auto plan = std::make_unique<const Plan>(sub);  // validates the sub-graph's var ids first
    for (std::size_t i = 0; i < e.in.size(); ++i) {
      const ir::Aval mine = graph_->aval(e.in[i]), theirs = sub->aval(sub->invars[i]);
      if (mine.dtype != theirs.dtype || !(mine.shape == theirs.shape))
        throw ValueError(what + ": operand " + std::to_string(i) + " is " + mine.str() +
                         " but the sub-graph takes " + theirs.str());
    }
    for (std::size_t i = 0; i < e.out.size(); ++i) {
      const ir::Aval& mine = graph_->aval(e.out[i]);
      const ir::Aval theirs = sub->aval(sub->outvars[i]);
      if (mine.dtype != theirs.dtype || !(mine.shape == theirs.shape))
        throw ValueError(what + ": result " + std::to_string(i) + " is " + theirs.str() +
                         " but the equation expects " + mine.str());
    }
    return plan;
  }

  static Value bind_input(const Value& v, const ir::Aval& want, std::size_t k) {
    if (v.aval.dtype != want.dtype)
      throw DTypeError("reference backend: input " + std::to_string(k) + " is " + v.aval.str() +
                       ", the graph expects " + want.str());
    if (!(v.aval.shape == want.shape))
      throw ShapeError("reference backend: input " + std::to_string(k) + " is " + v.aval.str() +
                       ", the graph expects " + want.str());
    const std::size_t need = bytes_of(want);
    if (need > 0 && (!v.buf || !v.buf->data || v.buf->bytes < need))
      throw ValueError("reference backend: input " + std::to_string(k) + " (" + want.str() +
                       ") has a buffer of " + std::to_string(v.buf ? v.buf->bytes : 0) +
                       " bytes, needs " + std::to_string(need));
    return Value{v.buf, want};
  }

  ir::GraphPtr graph_;
  std::vector<Step> steps_;
};

class ReferenceExecutable final : public backend::Executable {
 public:
  explicit ReferenceExecutable(ir::GraphPtr g) : plan_(std::move(g)) {}
  std::vector<Value> run(std::span<const Value> inputs) const override { return plan_.run(inputs); }

 private:
  Plan plan_;
};

class ReferenceBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "reference"; }
  // kernels.hpp has a case for every row of primitives.def (a missing one does not compile).
  bool supports(ir::Prim) const override { return true; }
  std::shared_ptr<const backend::Executable> compile(const ir::GraphPtr& graph) override {
    if (!graph) throw ValueError("reference backend: compile of a null graph");
    if (take_injected_fault(Fault::compile))
      throw CompileError(
          "reference backend: compile failed: injected by "
          "fj::testing::fail_next_compiles");
    auto exe = std::make_shared<const ReferenceExecutable>(graph);
    fj::detail::stat_counters().compiles.fetch_add(1,
                                                   std::memory_order_relaxed);  // a plan, not code
    return exe;
  }
};

}  // namespace fj::detail::reference
