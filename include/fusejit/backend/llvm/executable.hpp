// The LLVM backend's executable: per fused kernel a Launch with every parameter computed at
// compile time, the process-wide kernel cache, and LlvmExecutable, which runs a graph's launches
// (llvm_backend.cpp builds them; native_loop.hpp compiles a whole lax loop over them).
#pragma once
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "fusejit/backend/control_flow.hpp"
#include "fusejit/backend/launch_params.hpp"
#include "fusejit/backend/cpu/dot_general.hpp"
#include "fusejit/backend/llvm/codegen.hpp"
#include "fusejit/backend/llvm/orc_session.hpp"
#include "fusejit/backend/reference/reductions.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/ir/passes/fold_dot_transpose.hpp"
#include "fusejit/ir/passes/fuse.hpp"
#include "fusejit/ir/passes/verify.hpp"
#include "fusejit/ir/printer.hpp"
#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/runtime/thread_pool.hpp"

namespace fj::backend::llvm_kernel {

struct CompiledKernel {
  KernelFn fn;
  std::string signature;
  std::string ir;                                      // optimized LLVM IR, for lower().as_text()
  std::shared_ptr<const OrcSession::LoadedCode> code;  // the kernel's code stays loaded while held
};

/// Process-wide: maps a kernel's structure and the target to its compiled function. Bounded by
/// the caches' capacity (least recently used first out); an evicted kernel's code is unloaded
/// when the last executable holding it goes.
class KernelCache {
 public:
  static KernelCache& get() {
    static KernelCache c;
    return c;
  }
  std::shared_ptr<const CompiledKernel> kernel(const Plan& plan) {
    OrcSession& session = OrcSession::get();
    const std::shared_ptr<const JitTarget> target = session.target();
    const std::string key = target->key() + "\n" + plan.signature;
    const std::uint64_t h = XXH3_64bits(key.data(), key.size());
    auto& stats = detail::stat_counters();
    std::lock_guard lock(mu_);  // held while compiling, so a kernel is compiled once
    // clear_caches() empties this cache too. Executables built before the clear still hold their
    // kernels (and so their code) and keep working.
    if (const auto gen = stats.generation.load(); gen != generation_)
      slots_.clear(), by_hash_.clear(), generation_ = gen;
    if (auto it = by_hash_.find(h); it != by_hash_.end())
      for (std::size_t i : it->second)
        if (slots_[i].kernel->signature == key) {
          stats.kernel_hits.fetch_add(1, std::memory_order_relaxed);
          slots_[i].used = detail::next_use_tick();
          return slots_[i].kernel;
        }
    // OrcSession::load names the kernel after its content (fj_k_<hash>).
    auto [module, ctx] = build_kernel_module(plan, target->info.lanes, OrcSession::kEntryName,
                                             target->info.cpu, target->info.features);
    auto loaded = session.load(std::move(module), std::move(ctx), OrcSession::kEntryName, *target);
    auto k = std::make_shared<CompiledKernel>(CompiledKernel{
        reinterpret_cast<KernelFn>(loaded.addr), key, std::move(loaded.ir), loaded.code});
    stats.compiles.fetch_add(1, std::memory_order_relaxed);
    slots_.push_back({k, h, detail::next_use_tick()});
    const std::size_t before = slots_.size();
    detail::evict_beyond_capacity(slots_, [](const Slot& s) { return s.used; });
    if (slots_.size() != before)
      reindex();
    else
      by_hash_[h].push_back(slots_.size() - 1);
    return k;
  }

 private:
  struct Slot {
    std::shared_ptr<const CompiledKernel> kernel;
    std::uint64_t hash = 0, used = 0;
  };
  void reindex() {
    by_hash_.clear();
    for (std::size_t i = 0; i < slots_.size(); ++i) by_hash_[slots_[i].hash].push_back(i);
  }
  std::mutex mu_;
  std::uint64_t generation_ = 0;
  std::vector<Slot> slots_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> by_hash_;
};

struct NativeLoop;

/// One kernel call of an executable, with every parameter computed at compile time.
/// One kernel call of an executable, with every parameter computed at compile time (the
/// shared part, kernel::LaunchParams, is what the CUDA backend launches with too).
struct Launch : kernel::LaunchParams {
  std::shared_ptr<const CompiledKernel> kernel;
  std::vector<ir::VarId> inputs, outputs;  // top-level vars of the fused graph

  // A library equation (dot_general, concatenate, ...) runs as a host routine instead.
  const ir::Eqn* library = nullptr;
  fj::detail::reference::EqnFn host = nullptr;
  std::shared_ptr<const cpu::DotPlan> dot;
  std::vector<ir::Atom> atoms;     // library: its operands
  std::vector<ir::Aval> in_avals;  // library: its operands' avals
  std::vector<Value> literals;     // library: per operand, a literal operand's value
  bool epilogue_next = false;      // dot: the next kernel runs on each output panel as it is done
  // A kernel that fills a library operand with one literal, passed to the call as a splat
  // instead (LlvmExecutable::pass_splats): it does not run. `literals` holds the splat.
  int splat_for = -1;  // kernel: the launch of the call that reads its result as a splat
  // A control equation (cond, while, scan) runs its sub-graphs' executables, compiled with the
  // outer graph, from the run loop (backend/control_flow.hpp); `library` points at it too.
  std::vector<std::shared_ptr<const Executable>> control;
  // A scan or while: one compiled driver that runs the whole loop, nested conds and loops
  // included (native_loop.hpp); null when the loop runs through run_control
  // (FUSEJIT_NATIVE_LOOPS=0).
  std::shared_ptr<const NativeLoop> native;
};

inline std::shared_ptr<const NativeLoop> make_native_loop(const ir::Graph& outer, const ir::Eqn& e,
                                                          const Launch& l);
inline std::vector<Value> run_native_loop(const Launch& l, std::span<const Value> in);
inline std::string describe_native_loop(const Launch& l);

/// The LLVM pipeline for one graph (verify, inline_jit, fold_dot_transpose, fuse, codegen);
/// control equations' sub-graphs go through it too, once, when the outer graph is compiled.
/// With `kernels` false the executable is a plan only (launch parameters, no compiled kernels,
/// library and control calls unresolved): a native loop driver reads it and never runs it.
std::shared_ptr<const Executable> compile_graph(const ir::GraphPtr& graph, bool kernels = true);

inline Launch make_launch(const ir::Eqn& e, bool compile = true) {
  const ir::Graph& sub = *e.params.get<ir::GraphPtr>("jaxpr");
  Plan plan = Planner(sub).run();
  if (!plan.reduction) {
    std::int64_t bytes = 0;
    for (std::size_t o = 0; o < sub.outvars.size(); ++o)
      if (!plan.rows || !plan.per_row_output[o])
        bytes += sub.aval(sub.outvars[o]).shape.size() * size_of(sub.aval(sub.outvars[o]).dtype);
    plan.stream = bytes >= kernel::stream_bytes().load(std::memory_order_relaxed);
    if (plan.stream) plan.signature += "\nstream";
  }
  Launch l;
  static_cast<kernel::LaunchParams&>(l) = kernel::launch_params(plan, sub);
  if (compile) l.kernel = KernelCache::get().kernel(plan);
  for (auto& a : e.in) l.inputs.push_back(a.var);
  l.outputs = e.out;
  return l;
}

// Combines a reduction's per-block partials, in block order, into its outputs.
inline void combine_partials(ir::Prim p, DType d, const void* partials, void* out,
                             std::int64_t n_out, std::int64_t nblocks) {
  namespace ops = fj::detail::reference::ops;
  auto run = [&](auto op) {
    visit_dtype(d, [&](auto x) {
      using T = decltype(x);
      if constexpr (decltype(op)::template accepts<T>) {
        const T* in = static_cast<const T*>(partials);
        T* o = static_cast<T*>(out);
        for (std::int64_t j = 0; j < n_out; ++j) {
          const T* p = in + j * nblocks;
          auto tree = [&](auto& self, std::int64_t lo, std::int64_t hi) -> T {
            if (hi - lo == 1) return p[lo];
            const std::int64_t mid = lo + (hi - lo) / 2;
            return decltype(op)::combine(self(self, lo, mid), self(self, mid, hi));
          };
          o[j] = tree(tree, 0, nblocks);
        }
      }
    });
  };
  switch (p) {
    case ir::Prim::reduce_sum:
      return run(ops::reduce_sum{});
    case ir::Prim::reduce_prod:
      return run(ops::reduce_prod{});
    case ir::Prim::reduce_max:
      return run(ops::reduce_max{});
    case ir::Prim::reduce_min:
      return run(ops::reduce_min{});
    case ir::Prim::reduce_and:
      return run(ops::reduce_and{});
    default:
      return run(ops::reduce_or{});
  }
}

inline Value literal_value(const ir::Literal& lit);

inline Launch make_library_launch(const ir::Graph& g, const ir::Eqn& e, bool kernels = true) {
  Launch l;
  l.library = &e;
  l.atoms = e.in;
  l.outputs = e.out;
  for (ir::VarId v : e.out) l.out_avals.push_back(g.aval(v));
  for (const ir::Atom& a : e.in) {
    l.literals.push_back(a.is_literal() ? literal_value(a.lit) : Value{});
    l.in_avals.push_back(a.is_literal() ? l.literals.back().aval : g.aval(a.var));
  }
  if (ir::is_lax_control(e.prim)) {
    const auto subs = control_subgraphs(e);
    for (auto& sub : subs)
      if (!sub || !sub->constvars.empty())
        throw ValueError(std::string(ir::name(e.prim)) +
                         ": sub-graphs must be non-null and closed (no constvars)");
    // A loop first gets plans of its sub-graphs: when it runs natively, its driver compiles the
    // kernels (inlined), and compiling them into sub-executables too would be wasted. In a plan
    // (a loop's body), a nested cond or loop gets plans only: the driver emits it in place.
    if (!kernels) {
      for (auto& sub : subs) l.control.push_back(compile_graph(sub, /*kernels=*/false));
      return l;
    }
    if (e.prim == ir::Prim::scan || e.prim == ir::Prim::while_) {
      for (auto& sub : subs) l.control.push_back(compile_graph(sub, /*kernels=*/false));
      l.native = make_native_loop(g, e, l);
      if (l.native) return l;
      l.control.clear();
    }
    for (auto& sub : subs) l.control.push_back(compile_graph(sub));
  } else if (e.prim == ir::Prim::dot_general)
    l.dot =
        std::make_shared<const cpu::DotPlan>(e, g.aval(e.in[0]), g.aval(e.in[1]), g.aval(e.out[0]));
  else
    l.host = fj::detail::reference::resolve(g, e);
  return l;
}

// A kernel right after a dot_general runs on each panel of the product as soon as it is
// written (while it is in cache) when it iterates over the product's shape and reads the
// product only at the point it computes.
inline bool is_epilogue(const Launch& dot, const Launch& k) {
  if (!dot.dot || k.library || k.nblocks > 1 || k.reduce != ir::Prim::fused) return false;
  if (!(k.out_avals.at(0).shape == dot.out_avals.at(0).shape)) return false;
  bool reads = false;
  for (std::size_t i = 0; i < k.inputs.size(); ++i) {
    if (k.inputs[i] != dot.outputs[0]) continue;
    for (auto [input, at_point] : k.load_reads)
      if (input == static_cast<int>(i)) {
        if (!at_point) return false;
        reads = true;
      }
  }
  return reads;
}

inline Value literal_value(const ir::Literal& lit) {
  auto buf = runtime::allocate(size_of(lit.dtype));
  visit_dtype(lit.dtype, [&](auto x) {
    using T = decltype(x);
    *static_cast<T*>(buf->data) =
        is_float(lit.dtype) ? static_cast<T>(lit.f) : static_cast<T>(lit.i);
  });
  return {std::move(buf), ir::Aval{lit.dtype, Shape{}, lit.weak}};
}

class LlvmExecutable final : public AppendingExecutable {
 public:
  using Env = SmallVector<runtime::BufferPtr, 16>;
  using Bufs = SmallVector<void*, 16>;

  explicit LlvmExecutable(ir::GraphPtr fused, bool kernels = true) : fused_(std::move(fused)) {
    for (auto& e : fused_->eqns) {
      if (e.prim == ir::Prim::fused) {
        launches_.push_back(make_launch(e, kernels));
      } else {
        // A plan resolves library calls too (a native loop driver calls them through a host
        // trampoline); they compile nothing.
        launches_.push_back(make_library_launch(*fused_, e, kernels));
      }
    }
    for (std::size_t k = 0; k + 1 < launches_.size(); ++k)
      launches_[k].epilogue_next = is_epilogue(launches_[k], launches_[k + 1]);
    if (kernels) pass_splats();
    find_last_reads();
  }

  // The warm path of a jitted call: the environment, the kernels' buffer lists and the outputs
  // are inline vectors, and buffers come from the runtime's pool, so a small graph runs without
  // a heap allocation.
  void run_into(std::span<const Value> inputs, ValueList& out) const override {
    const ir::Graph& g = *fused_;
    Env env;  // per var of the fused graph its buffer; its aval is the graph's
    env.resize(g.avals.size());
    std::size_t next = 0;
    for (ir::VarId v : g.constvars) env[static_cast<std::size_t>(v)] = inputs[next++].buf;
    for (ir::VarId v : g.invars) env[static_cast<std::size_t>(v)] = inputs[next++].buf;
    Bufs bufs;
    for (std::size_t li = 0; li < launches_.size(); ++li) {
      const Launch& l = launches_[li];
      if (l.splat_for >= 0) continue;
      if (l.library) {
        run_library(l, env, l.epilogue_next ? &launches_[li + 1] : nullptr, bufs);
        release(li, env);
        if (l.epilogue_next) release(++li, env);
        continue;
      }
      bind(l, env, bufs);
      const bool partials = l.nblocks > 1;
      KernelFn fn = l.kernel->fn;
      void* const* b = bufs.data();
      const std::int64_t* ip = l.iparams.data();
      const std::int64_t* sc = l.scalars.data();
      // Small kernels run on the calling thread; big ones split into vector-aligned chunks.
      const std::int64_t min_items =
          std::max<std::int64_t>(1, (std::int64_t{1} << 15) / l.work_per_item);
      if (l.size < 2 * min_items) {
        if (l.size > 0) fn(b, ip, sc, 0, l.size);  // small: no pool, no std::function
      } else {
        runtime::parallel_for(l.size, min_items, l.work_per_item > 1 ? 1 : 64,
                              [&](std::int64_t lo, std::int64_t hi) { fn(b, ip, sc, lo, hi); });
      }
      if (partials) {
        runtime::BufferPtr& buf = env[static_cast<std::size_t>(l.outputs[0])];
        const ir::Aval& av = l.out_avals[0];
        const std::int64_t n_out = av.shape.size();
        auto final_buf = runtime::allocate(static_cast<std::size_t>(n_out) * size_of(av.dtype));
        combine_partials(l.reduce, av.dtype, buf->data, final_buf->data, n_out, l.nblocks);
        buf = std::move(final_buf);
      }
      release(li, env);
    }
    for (auto& o : g.outvars)
      out.push_back(o.is_literal() ? literal_value(o.lit)
                                   : Value{env[static_cast<std::size_t>(o.var)], g.aval(o.var)});
  }

  // Points `bufs` at a kernel's inputs, then at freshly allocated outputs (bound in env).
  static void bind(const Launch& l, Env& env, Bufs& bufs) {
    bufs.clear();
    for (ir::VarId v : l.inputs) bufs.push_back(env[static_cast<std::size_t>(v)]->data);
    for (std::size_t o = 0; o < l.outputs.size(); ++o) {
      const ir::Aval& av = l.out_avals[o];
      // Block partials fill the work items; any other output has its own shape.
      const std::int64_t n = l.nblocks > 1 ? l.size : av.shape.size();
      auto buf = runtime::allocate(static_cast<std::size_t>(n) * size_of(av.dtype));
      bufs.push_back(buf->data);
      env[static_cast<std::size_t>(l.outputs[o])] = std::move(buf);
    }
  }

  // A library call; `epilogue` (after a dot_general) runs on each panel of the product.
  static void run_library(const Launch& l, Env& env, const Launch* epilogue, Bufs& bufs) {
    std::vector<Value> in, out;
    for (std::size_t i = 0; i < l.atoms.size(); ++i)
      in.push_back(l.atoms[i].is_literal() || l.literals[i].splat
                       ? l.literals[i]
                       : Value{env[static_cast<std::size_t>(l.atoms[i].var)], l.in_avals[i]});
    if (l.native) {
      out = run_native_loop(l, in);
    } else if (!l.control.empty()) {
      out = run_control(
          *l.library, in, l.out_avals,
          [&](std::size_t k, std::span<const Value> args) { return l.control[k]->run(args); });
    }
    if (!l.control.empty()) {
      for (std::size_t o = 0; o < l.outputs.size(); ++o)
        env[static_cast<std::size_t>(l.outputs[o])] = std::move(out[o].buf);
      return;
    }
    for (const ir::Aval& av : l.out_avals)
      out.push_back(
          {runtime::allocate(static_cast<std::size_t>(av.shape.size()) * size_of(av.dtype)), av});
    for (std::size_t o = 0; o < l.outputs.size(); ++o)
      env[static_cast<std::size_t>(l.outputs[o])] = out[o].buf;
    if (!l.dot) {
      l.host(*l.library, in.data(), out.data());
      return;
    }
    std::function<void(std::int64_t, std::int64_t)> after_panel;
    if (epilogue) {
      bind(*epilogue, env, bufs);
      const std::int64_t cols = l.dot->cols();
      after_panel = [&, cols](std::int64_t lo, std::int64_t hi) {
        epilogue->kernel->fn(bufs.data(), epilogue->iparams.data(), epilogue->scalars.data(),
                             lo * cols, hi * cols);
      };
    }
    l.dot->run(in[0], in[1], out[0], after_panel);
  }

  const ir::Graph& fused() const { return *fused_; }
  const std::vector<Launch>& launches() const { return launches_; }

  std::string describe() const override {
    std::string s = "# fused graph\n" + ir::print_jaxpr(*fused_) + "\n";
    for (std::size_t k = 0; k < launches_.size(); ++k) {
      const Launch& l = launches_[k];
      if (l.library)
        s += "\n# call " + std::to_string(k) + ": " + std::string(ir::name(l.library->prim)) +
             (l.dot ? std::string(" (Eigen GEMM, ") + cpu::gemm_kernels().isa + ")" : "") +
             (l.epilogue_next ? ", kernel " + std::to_string(k + 1) + " fused as its epilogue"
                              : "") +
             (l.control.empty() ? ""
              : l.native        ? describe_native_loop(l)
                                : " (" + std::to_string(l.control.size()) +
                               " sub-executables, run between kernels)") +
             "\n";
      else if (l.splat_for >= 0)
        s += "\n# kernel " + std::to_string(k) + ": not run, a splat operand of call " +
             std::to_string(l.splat_for) + "\n";
      else
        s += "\n# kernel " + std::to_string(k) + "\n" + (l.kernel ? l.kernel->ir : "(plan only)\n");
    }
    return s;
  }

 private:
  // The literal a kernel fills its one output with (a broadcast of it, nothing read), if so.
  static std::optional<ir::Literal> splat_literal(const ir::Eqn& kernel) {
    const ir::Graph& sub = *kernel.params.get<ir::GraphPtr>("jaxpr");
    if (!sub.invars.empty() || sub.eqns.size() != 1 || sub.outvars.size() != 1) return {};
    const ir::Eqn& e = sub.eqns[0];
    if (e.prim != ir::Prim::broadcast_in_dim || !e.in[0].is_literal() ||
        e.in[0].lit.dtype != sub.aval(sub.outvars[0]).dtype)
      return {};
    return e.in[0].lit;
  }

  // A library operand that a kernel would fill with one literal (jnp stages x.at[i].add(1) with
  // a broadcast 1.0 as the scatter's updates) goes to a routine that reads it as a splat
  // (reference::reads_splat) as a one-element Value: the kernel's writes and the routine's reads
  // of a whole array are saved. Only when the call is the value's one reader.
  // Per launch, the values its equation is the last to read (the graph's outputs excepted):
  // their buffers go back to the pool as soon as it has run, so a call holds what is live, not
  // everything it computed (what makes fj::checkpoint's recomputation save memory).
  void find_last_reads() {
    const ir::Graph& g = *fused_;
    std::vector<std::size_t> last(g.avals.size(), launches_.size());
    for (std::size_t k = 0; k < g.eqns.size(); ++k)
      for (const ir::Atom& a : g.eqns[k].in)
        if (!a.is_literal()) last[static_cast<std::size_t>(a.var)] = k;
    for (const ir::Atom& o : g.outvars)
      if (!o.is_literal()) last[static_cast<std::size_t>(o.var)] = launches_.size();
    last_reads_.assign(launches_.size(), {});
    for (std::size_t v = 0; v < last.size(); ++v)
      if (last[v] < launches_.size()) last_reads_[last[v]].push_back(static_cast<ir::VarId>(v));
  }
  void release(std::size_t launch, Env& env) const {
    for (ir::VarId v : last_reads_[launch]) env[static_cast<std::size_t>(v)].reset();
  }

  void pass_splats() {
    const ir::Graph& g = *fused_;
    std::vector<int> readers(g.avals.size(), 0), kernel_of(g.avals.size(), -1);
    for (const ir::Eqn& e : g.eqns)
      for (const ir::Atom& a : e.in)
        if (!a.is_literal()) ++readers[static_cast<std::size_t>(a.var)];
    for (const ir::Atom& o : g.outvars)
      if (!o.is_literal()) readers[static_cast<std::size_t>(o.var)] += 2;  // outputs stay arrays
    for (std::size_t k = 0; k < launches_.size(); ++k)
      if (!launches_[k].library)
        for (ir::VarId v : launches_[k].outputs)
          kernel_of[static_cast<std::size_t>(v)] = static_cast<int>(k);
    for (std::size_t c = 0; c < launches_.size(); ++c) {
      Launch& call = launches_[c];
      if (!call.library || !call.host) continue;  // host routines only, not dots or control
      for (std::size_t i = 0; i < call.atoms.size(); ++i) {
        const ir::Atom& a = call.atoms[i];
        if (a.is_literal() || readers[static_cast<std::size_t>(a.var)] != 1) continue;
        const int k = kernel_of[static_cast<std::size_t>(a.var)];
        if (k < 0 || !fj::detail::reference::reads_splat(call.library->prim, static_cast<int>(i)))
          continue;
        const auto lit = splat_literal(g.eqns[static_cast<std::size_t>(k)]);
        if (!lit) continue;
        Value v = literal_value(*lit);
        v.aval = call.in_avals[i];
        v.splat = true;
        call.literals[i] = std::move(v);
        launches_[static_cast<std::size_t>(k)].splat_for = static_cast<int>(c);
      }
    }
  }

  ir::GraphPtr fused_;
  std::vector<Launch> launches_;
  std::vector<std::vector<ir::VarId>> last_reads_;  // per launch (find_last_reads)
};

}  // namespace fj::backend::llvm_kernel
