// Minimizing a failing fuzz program, and the report a mismatch prints.
//
// The shrinker is greedy: it drops results and cuts operands (an equation's operand produced by
// another equation becomes a new input holding the reference's value of it), prunes what is no
// longer used, and keeps any step after which the program still fails, until no step helps or
// the budget of checks is spent.
#pragma once
#include <fusejit/ir/passes/dce.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"

namespace fusejit_fuzz {

namespace shrink_detail {

/// Drops dead equations and the inputs nothing reads (with their values).
inline Program prune(const Program& p, ir::Graph g) {
  g = ir::dce(std::move(g));
  std::vector<bool> used(g.avals.size(), false);
  for (auto& e : g.eqns)
    for (auto& a : e.in)
      if (!a.is_literal()) used[static_cast<std::size_t>(a.var)] = true;
  for (auto& o : g.outvars)
    if (!o.is_literal()) used[static_cast<std::size_t>(o.var)] = true;
  Program q = p;
  q.inputs.clear();
  std::vector<ir::VarId> invars;
  for (std::size_t i = 0; i < g.invars.size(); ++i) {
    if (!used[static_cast<std::size_t>(g.invars[i])]) continue;
    invars.push_back(g.invars[i]);
    q.inputs.push_back(p.inputs[i]);
  }
  g.invars = std::move(invars);
  q.graph = std::make_shared<const ir::Graph>(std::move(g));
  return q;
}

/// The reference's value of every var of `p` (null where it refuses the program).
inline std::vector<Value> all_values(const Program& p) {
  const ir::Graph& g = *p.graph;
  ir::Graph all = g;
  all.outvars.clear();
  for (auto& e : g.eqns)
    for (ir::VarId v : e.out) all.outvars.push_back(ir::Atom::of_var(v));
  std::vector<Value> at(g.avals.size());
  try {
    auto r = check_detail::run_on("reference", std::make_shared<const ir::Graph>(all), p.inputs);
    for (std::size_t k = 0; k < r.size(); ++k)
      at[static_cast<std::size_t>(all.outvars[k].var)] = std::move(r[k]);
  } catch (const fj::Error&) {
    return {};
  }
  return at;
}

}  // namespace shrink_detail

/// A smaller program that still fails on `target` (the program itself when nothing smaller
/// does), within `budget` checks.
inline Program shrink(Program p, const Runner& target, int budget = 150) {
  using namespace shrink_detail;
  auto fails = [&](const Program& q) {
    --budget;
    return check(q, target).has_value();
  };
  for (bool progress = true; progress && budget > 0;) {
    progress = false;
    const ir::Graph& g = *p.graph;
    // Fewer results.
    for (std::size_t k = 0; k < g.outvars.size() && g.outvars.size() > 1 && budget > 0; ++k) {
      ir::Graph h = g;
      h.outvars.erase(h.outvars.begin() + static_cast<std::ptrdiff_t>(k));
      Program q = prune(p, std::move(h));
      if (fails(q)) {
        p = std::move(q);
        progress = true;
        break;
      }
    }
    if (progress) continue;
    // Cut operands, the last equations' first.
    const auto values = all_values(p);
    if (values.empty()) break;
    for (std::size_t ei = g.eqns.size(); ei-- > 0 && !progress && budget > 0;) {
      for (std::size_t j = 0; j < g.eqns[ei].in.size() && budget > 0; ++j) {
        const ir::Atom a = g.eqns[ei].in[j];
        if (a.is_literal() || !values[static_cast<std::size_t>(a.var)].buf) continue;
        ir::Graph h = g;
        const ir::VarId fresh = h.new_var(h.aval(a.var));
        h.invars.push_back(fresh);
        h.eqns[ei].in[j] = ir::Atom::of_var(fresh);
        Program q = p;
        q.inputs.push_back(values[static_cast<std::size_t>(a.var)]);
        q = prune(q, std::move(h));
        if (fails(q)) {
          p = std::move(q);
          progress = true;
          break;
        }
      }
    }
  }
  return p;
}

/// What a mismatch prints: the seed, the difference, the jaxpr and the inputs (the first values
/// of each) of the minimized program.
inline std::string report(const Program& original, const Failure& f, const Program& minimized,
                          const Runner& target, const std::string& backend = "llvm") {
  std::ostringstream s;
  s << "fuzz: seed " << f.seed << (original.exact_only ? " (exact program)" : "") << ": " << backend
    << " differs from the reference: " << f.message << "\n";
  const auto again = check(minimized, target);
  s << "minimized reproducer (" << minimized.graph->eqns.size() << " of "
    << original.graph->eqns.size() << " equations)"
    << (again ? ": " + again->message : std::string(": (no longer fails)")) << "\n"
    << ir::print_jaxpr(*minimized.graph) << "\n";
  for (std::size_t i = 0; i < minimized.inputs.size(); ++i) {
    const Value& v = minimized.inputs[i];
    s << "  input " << i << " " << v.aval.str() << ":";
    for (std::int64_t k = 0; k < std::min<std::int64_t>(v.aval.shape.size(), 8); ++k)
      s << " " << check_detail::value_text(check_detail::element(v, k));
    if (v.aval.shape.size() > 8) s << " ...";
    s << "\n";
  }
  return s.str();
}

/// Generates, checks and on failure shrinks the program of `seed`: the report, or empty.
inline std::string run_seed(std::uint64_t seed, const std::string& backend = "llvm") {
  const Program p = generate(seed);
  const Runner target = on_backend(backend);
  const auto f = check(p, target);
  if (!f) return {};
  return report(p, *f, shrink(p, target), target, backend);
}

}  // namespace fusejit_fuzz
