// Fusion: partitions a graph into `fused` kernels and library calls. Each reduction is a kernel
// of its own, with the elementwise chain that feeds it, and so is each reshape's operand
// (reshapes are then free views) and each computed operand of a library primitive (dot_general,
// concatenate, ...) or of a control-flow equation (cond, while, scan), which stays an equation
// of its own between kernels; the remaining outputs
// form one kernel per shape. Broadcasts, transposes and slices are index maps inside kernels.
// Nothing else is written to memory between kernels: every other intermediate is recomputed
// inside the kernel that needs it. With row groups on, a reduction over trailing axes whose
// readers are kernels over its operand's shape joins them (row_groups.hpp): one kernel then
// computes a row's reductions and their broadcast uses while the row is in cache.
#pragma once
#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <vector>

#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/ir/passes/producers.hpp"
#include "fusejit/ir/passes/row_groups.hpp"

namespace fj::ir {

/// The graph with `jit` inlined and its equations grouped into `fused[jaxpr=...]` equations.
/// Top-level inputs and outputs keep their var ids' meaning; outputs that are inputs or
/// literals need no kernel.
/// Equations that stay calls of their own between kernels, reading their operands from memory
/// and writing their results there: library primitives, callbacks (whose operands must exist
/// in memory when the C++ function sees them) and lax control flow (cond, while, scan).
/// Boundaries keep their order, so effectful callbacks run in program order.
inline bool is_fusion_boundary(Prim p) {
  const PrimKind k = info(p).kind;
  return k == PrimKind::library || k == PrimKind::callback || is_lax_control(p);
}

namespace fuse_detail {

// A kernel to emit: its roots, and `at`: the equation it runs after (the graph's end for the
// remaining outputs), so that it runs before the first boundary equation that follows.
struct Unit {
  std::vector<VarId> roots;
  std::size_t at = 0;
  int merged_into = -1;  // row groups: the unit this one's roots joined
};

using KernelEqns = std::function<std::vector<bool>(const std::vector<VarId>&, std::vector<bool>&)>;

// Whether a merged kernel would read a value computed, by other kernels, from its own results
// (a gradient's reduction reshaped and reduced again feeds the kernel that made it): a cycle.
inline bool reads_own_result(const Graph& g, const std::vector<int>& producer,
                             const std::vector<bool>& materialized, const std::vector<bool>& needed,
                             const std::vector<bool>& live, const std::vector<VarId>& roots) {
  std::vector<bool> from_kernel(g.avals.size(), false);
  for (VarId v : roots) from_kernel[static_cast<std::size_t>(v)] = true;
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    const Eqn& e = g.eqns[k];
    const bool tainted = needed[k] || std::any_of(e.in.begin(), e.in.end(), [&](const Atom& a) {
                           return !a.is_literal() && from_kernel[static_cast<std::size_t>(a.var)];
                         });
    if (tainted)
      for (VarId v : e.out) from_kernel[static_cast<std::size_t>(v)] = true;
  }
  for (std::size_t v = 0; v < g.avals.size(); ++v) {
    const bool source =
        producer[v] >= 0 && materialized[v] && !needed[static_cast<std::size_t>(producer[v])];
    if (live[v] && source && from_kernel[v]) return true;
  }
  return false;
}

// Merges each reduction over trailing axes into the kernels that read it, when together they
// form a row group (row_group_space). A merged reduction is no longer written to memory unless
// it is a graph output; the merged kernel runs where the last of them ran, so no boundary
// equation may lie between them.
inline void merge_row_groups(const Graph& g, const std::vector<int>& producer,
                             std::vector<bool>& materialized, std::vector<Unit>& units,
                             const KernelEqns& kernel_eqns) {
  std::vector<bool> is_output(g.avals.size(), false), boundary_reads(g.avals.size(), false);
  for (const Atom& o : g.outvars)
    if (!o.is_literal()) is_output[static_cast<std::size_t>(o.var)] = true;
  std::vector<std::size_t> boundaries;
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    if (!is_fusion_boundary(g.eqns[k].prim)) continue;
    boundaries.push_back(k);
    for (const Atom& a : g.eqns[k].in)
      if (!a.is_literal()) boundary_reads[static_cast<std::size_t>(a.var)] = true;
  }
  // What each unit's kernel reads (its `live` values), kept up to date as units merge.
  std::vector<std::vector<bool>> reads(units.size());
  for (std::size_t u = 0; u < units.size(); ++u) kernel_eqns(units[u].roots, reads[u]);
  auto find = [&](std::size_t u) {
    while (units[u].merged_into >= 0) u = static_cast<std::size_t>(units[u].merged_into);
    return u;
  };
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].roots.size() != 1) continue;  // each reduction starts as a unit of its own
    const VarId m = units[i].roots[0];
    const auto mi = static_cast<std::size_t>(m);
    if (boundary_reads[mi] ||
        !row_reduction_space(g, g.eqns[static_cast<std::size_t>(producer[mi])]))
      continue;
    const std::size_t home = find(i);
    std::vector<std::size_t> group{home};
    for (std::size_t j = 0; j < units.size(); ++j)
      if (units[j].merged_into < 0 && j != home && reads[j][mi]) group.push_back(j);
    std::sort(group.begin(), group.end());
    const std::size_t first_at = units[group.front()].at, last_at = units[group.back()].at;
    if (std::any_of(boundaries.begin(), boundaries.end(),
                    [&](std::size_t b) { return first_at < b && b < last_at; }))
      continue;
    std::vector<VarId> roots;
    for (std::size_t u : group)
      for (VarId v : units[u].roots)
        if (v != m || is_output[mi]) roots.push_back(v);
    if (roots.empty() || (group.size() == 1 && roots.size() == units[home].roots.size())) continue;
    materialized[mi] = is_output[mi];
    std::vector<bool> live;
    const std::vector<bool> needed = kernel_eqns(roots, live);
    std::vector<std::size_t> eqns;
    for (std::size_t k = 0; k < needed.size(); ++k)
      if (needed[k]) eqns.push_back(k);
    if (!row_group_space(g, eqns, roots) ||
        reads_own_result(g, producer, materialized, needed, live, roots)) {
      materialized[mi] = true;
      continue;
    }
    const std::size_t survivor = group.back();
    units[survivor].roots = std::move(roots);
    reads[survivor] = std::move(live);
    for (std::size_t u : group)
      if (u != survivor) units[u].merged_into = static_cast<int>(survivor);
  }
}

}  // namespace fuse_detail

/// What a fused equation costs a kernel's compile, in units of a cheap elementwise op: the
/// float-only functions are inline polynomials with range reduction and a slow path (sin is
/// about 250 LLVM instructions), the rest a few instructions each.
inline std::size_t kernel_weight(Prim p) {
  const PrimInfo& pi = info(p);
  const bool cheap = p == Prim::floor || p == Prim::ceil || p == Prim::round || p == Prim::sqrt ||
                     p == Prim::rsqrt || p == Prim::is_finite;
  const bool elementwise = pi.kind == PrimKind::unary || pi.kind == PrimKind::binary;
  return elementwise && (pi.flags & prim_flags::F) && !cheap ? 16 : 1;
}

/// How much a kernel may weigh. LLVM's register allocation and live-interval analysis grow
/// faster than the function they compile (a kernel of 400 `sin(y) * 0.5 + y` steps: 6.9 s in
/// llc, 1.05 s for 100 steps; 2-vCPU Zen 4), so a long program is compiled as kernels of
/// bounded size, and kernels of one structure (an unrolled loop's) are compiled once, by the
/// kernel cache. 512 is about 28 such steps, far above what the kernels of ordinary programs
/// (softmax, layernorm, an MLP's) weigh.
inline constexpr std::size_t kMaxKernelWeight = 512;

struct FuseOptions {
  // Merge row reductions into the kernels that read them (row_groups.hpp); the LLVM backend's
  // kernels run such groups, the CUDA generator's do not yet.
  bool row_groups = false;
  // The most kernel_weight a run of fused equations holds before it is cut (0: no bound).
  std::size_t max_kernel_weight = kMaxKernelWeight;
};

/// The bound the LLVM backend fuses with (FuseOptions::max_kernel_weight); tests lower it, or
/// set 0 to compare with uncut kernels.
inline std::atomic<std::size_t>& kernel_weight_limit() {
  static std::atomic<std::size_t> limit{kMaxKernelWeight};
  return limit;
}

namespace fuse_detail {

// Cuts the program's runs of fused equations into pieces of at most `max_weight`: walking the
// equations in order, once the fused ones since the last cut weigh more, the run is cut after
// the equation, in its second half, across which the fewest computed values stay live (the
// latest such one), and every value computed before that point and read after it that is not
// in memory already is materialized (written by a kernel of its own). A value computed before
// the last cut and read after it was materialized there, so a kernel holds one piece at most.
// Cutting where the fewest values cross puts the cuts of a repeated body (an unrolled loop's
// steps) at the same place in each repetition, so the pieces are one kernel, compiled once.
inline void cut_heavy_runs(const Graph& g, const std::vector<bool>& materialized,
                           const std::function<void(VarId)>& materialize, std::size_t max_weight) {
  std::vector<std::size_t> last_read(g.avals.size(), 0);
  for (std::size_t k = 0; k < g.eqns.size(); ++k)
    for (const Atom& a : g.eqns[k].in)
      if (!a.is_literal()) last_read[static_cast<std::size_t>(a.var)] = k;
  for (const Atom& o : g.outvars)
    if (!o.is_literal()) last_read[static_cast<std::size_t>(o.var)] = g.eqns.size();
  auto fused = [&](std::size_t k) { return !is_fusion_boundary(g.eqns[k].prim); };
  // Whether v, computed at or before `after`, is read after it and not in memory.
  auto crosses = [&](VarId v, std::size_t after) {
    return last_read[static_cast<std::size_t>(v)] > after &&
           !materialized[static_cast<std::size_t>(v)];
  };
  std::size_t weight = 0, run_start = 0;
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    if (!fused(k)) continue;
    weight += kernel_weight(g.eqns[k].prim);
    if (weight <= max_weight) continue;
    // Live values after each equation of the run: born there, dying at their last reader.
    const std::size_t n = k - run_start + 1;
    std::vector<std::size_t> dying(n, 0);
    std::size_t live = 0, best = SIZE_MAX, cut = k, w = 0;
    for (std::size_t j = run_start; j <= k; ++j) {
      live -= dying[j - run_start];
      if (!fused(j)) continue;
      w += kernel_weight(g.eqns[j].prim);
      for (VarId v : g.eqns[j].out)
        if (crosses(v, j)) {
          ++live;
          const std::size_t r = last_read[static_cast<std::size_t>(v)];
          if (r <= k) ++dying[r - run_start];
        }
      if (2 * w >= max_weight && live <= best) best = live, cut = j;
    }
    for (std::size_t j = run_start; j <= cut; ++j) {
      if (!fused(j)) continue;
      for (VarId v : g.eqns[j].out)
        if (crosses(v, cut)) materialize(v);
    }
    weight = 0;
    for (std::size_t j = cut + 1; j <= k; ++j)
      if (fused(j)) weight += kernel_weight(g.eqns[j].prim);
    run_start = cut + 1;
  }
}

}  // namespace fuse_detail

inline Graph fuse(const Graph& original, FuseOptions options = {}) {
  const Graph g = inline_jit(original);
  const std::vector<int> producer = producers(g);

  // Written to memory by a kernel of their own: reduction results, operands of reshapes (a
  // reshape then reads the same row-major buffer in its new shape, without a copy) and computed
  // operands of library primitives. Library results are in memory too, written by the call.
  std::vector<bool> materialized(g.avals.size(), false);
  std::vector<VarId> materialize_order;
  auto materialize = [&](VarId v) {
    if (v < 0 || materialized[static_cast<std::size_t>(v)]) return;
    materialized[static_cast<std::size_t>(v)] = true;
    materialize_order.push_back(v);
  };
  auto computed = [&](const Atom& a) {
    return !a.is_literal() && producer[static_cast<std::size_t>(a.var)] >= 0;
  };
  for (auto& e : g.eqns) {
    if (info(e.prim).kind == PrimKind::reduce) {
      materialize(e.out[0]);
    } else if (e.prim == Prim::reshape && computed(e.in[0])) {
      materialize(e.in[0].var);
    } else if (is_fusion_boundary(e.prim)) {
      for (auto& a : e.in)
        if (computed(a) &&
            !is_fusion_boundary(
                g.eqns[static_cast<std::size_t>(producer[static_cast<std::size_t>(a.var)])].prim))
          materialize(a.var);
      for (VarId v : e.out) materialized[static_cast<std::size_t>(v)] = true;
    }
  }
  if (options.max_kernel_weight > 0)
    fuse_detail::cut_heavy_runs(g, materialized, materialize, options.max_kernel_weight);
  // Kernels and library calls run in the order of the equations that define their results:
  // everything a kernel reads from memory is then written before it runs.
  std::sort(materialize_order.begin(), materialize_order.end(), [&](VarId a, VarId b) {
    return producer[static_cast<std::size_t>(a)] < producer[static_cast<std::size_t>(b)];
  });
  // A kernel's sources: graph inputs, and materialized values (computed by earlier kernels).
  auto is_source = [&](VarId v) {
    return producer[static_cast<std::size_t>(v)] < 0 || materialized[static_cast<std::size_t>(v)];
  };

  // The equations a kernel computing `roots` holds (a reduction root includes its own), and
  // the values it reads: walking back from the roots to the sources, and stopping once every
  // value the kernel computes has been reached (so a kernel costs its own span, not the
  // graph's). `touched` lists the values the last walk marked live.
  std::vector<VarId> touched;
  auto kernel_eqns = [&](const std::vector<VarId>& roots, std::vector<bool>& live) {
    std::vector<bool> needed(g.eqns.size(), false);
    live.assign(g.avals.size(), false);
    touched.clear();
    auto is_root = [&](VarId v) { return std::find(roots.begin(), roots.end(), v) != roots.end(); };
    auto computed_here = [&](VarId v) {
      return producer[static_cast<std::size_t>(v)] >= 0 && (!is_source(v) || is_root(v));
    };
    std::size_t pending = 0;  // live values computed here whose equation is not reached yet
    auto mark = [&](VarId v) {
      if (live[static_cast<std::size_t>(v)]) return;
      live[static_cast<std::size_t>(v)] = true;
      touched.push_back(v);
      if (computed_here(v)) ++pending;
    };
    int top = -1;
    for (VarId v : roots) {
      mark(v);
      top = std::max(top, producer[static_cast<std::size_t>(v)]);
    }
    for (int k = top; k >= 0 && pending > 0; --k) {
      const Eqn& e = g.eqns[static_cast<std::size_t>(k)];
      bool wanted = false;
      for (VarId v : e.out)
        if (live[static_cast<std::size_t>(v)] && computed_here(v)) wanted = true, --pending;
      if (!wanted) continue;
      needed[static_cast<std::size_t>(k)] = true;
      for (auto& a : e.in)
        if (!a.is_literal()) mark(a.var);
    }
    return needed;
  };

  Graph out;
  out.avals = g.avals;
  out.constvars = g.constvars;
  out.invars = g.invars;
  out.outvars = g.outvars;
  // Emits one kernel computing `roots`.
  auto add_kernel = [&](const std::vector<VarId>& roots) {
    std::vector<bool> live;
    const std::vector<bool> needed = kernel_eqns(roots, live);
    Graph sub;
    std::map<VarId, VarId> remap;
    std::vector<Atom> kernel_in;
    std::vector<VarId> reads = touched;  // in var order, as the kernel's operands
    std::sort(reads.begin(), reads.end());
    std::size_t first = g.eqns.size(), last = 0;  // the kernel's equations lie in [first, last]
    for (VarId v : roots)
      last = std::max(last, static_cast<std::size_t>(producer[static_cast<std::size_t>(v)]));
    for (VarId id : reads) {
      const int p = producer[static_cast<std::size_t>(id)];
      if (p >= 0 && needed[static_cast<std::size_t>(p)])
        first = std::min(first, static_cast<std::size_t>(p));
      if (is_source(id) && std::find(roots.begin(), roots.end(), id) == roots.end()) {
        remap[id] = sub.new_var(g.avals[static_cast<std::size_t>(id)]);
        sub.invars.push_back(remap[id]);
        kernel_in.push_back(Atom::of_var(id));
      }
    }
    auto sub_atom = [&](const Atom& a) {
      return a.is_literal() ? a : Atom::of_var(remap.at(a.var));
    };
    for (std::size_t k = first; k <= last && k < g.eqns.size(); ++k) {
      if (!needed[k]) continue;
      const Eqn& e = g.eqns[k];
      Eqn n{e.prim, {}, {}, e.params};
      for (auto& a : e.in) n.in.push_back(sub_atom(a));
      for (VarId v : e.out) {
        // A result already read from memory (one of several results, materialized for a later
        // kernel) keeps reading it: the reshape that made it a source expects that buffer.
        const VarId nv = sub.new_var(g.aval(v));
        n.out.push_back(nv);
        if (!remap.count(v)) remap[v] = nv;
      }
      sub.eqns.push_back(std::move(n));
    }
    for (VarId v : roots) sub.outvars.push_back(Atom::of_var(remap.at(v)));
    Params p;
    p.items.push_back({"jaxpr", std::make_shared<const Graph>(std::move(sub)), true});
    out.eqns.push_back(Eqn{Prim::fused, std::move(kernel_in), roots, std::move(p)});
  };

  // The kernels: one per materialized value, in order, then the remaining outputs computed by
  // elementwise equations, grouped by shape in order of appearance. A kernel runs at `at`: just
  // before the first boundary equation after its last root's equation (the end for outputs).
  using fuse_detail::Unit;
  std::vector<Unit> units;
  for (VarId v : materialize_order)
    units.push_back({{v}, static_cast<std::size_t>(producer[static_cast<std::size_t>(v)])});
  const std::size_t first_output_unit = units.size();
  std::vector<VarId> seen;
  for (auto& o : g.outvars) {
    if (o.is_literal() || is_source(o.var)) continue;
    if (std::find(seen.begin(), seen.end(), o.var) != seen.end()) continue;
    seen.push_back(o.var);
    auto it =
        std::find_if(units.begin() + static_cast<std::ptrdiff_t>(first_output_unit), units.end(),
                     [&](Unit& u) { return g.aval(u.roots[0]).shape == g.aval(o.var).shape; });
    if (it == units.end())
      units.push_back({{o.var}, g.eqns.size()});
    else
      it->roots.push_back(o.var);
  }
  if (options.row_groups)
    fuse_detail::merge_row_groups(g, producer, materialized, units, kernel_eqns);

  std::size_t next = 0;
  auto emit_units_before = [&](std::size_t k) {
    for (; next < units.size() && units[next].at < k; ++next)
      if (units[next].merged_into < 0) add_kernel(units[next].roots);
  };
  for (std::size_t k = 0; k < g.eqns.size(); ++k) {
    if (!is_fusion_boundary(g.eqns[k].prim)) continue;
    emit_units_before(k);
    out.eqns.push_back(g.eqns[k]);
  }
  emit_units_before(g.eqns.size() + 1);
  return out;
}

}  // namespace fj::ir
