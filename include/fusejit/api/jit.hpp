// fj::jit: trace once per (argument avals, static values), compile, and reuse.
#pragma once
#include <algorithm>
#include <memory>
#include <mutex>
#include <source_location>
#include <sstream>
#include <string>
#include <typeinfo>

#include "fusejit/api/lowered.hpp"
#include "fusejit/api/placement.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/api/trace_function.hpp"
#include "fusejit/runtime/cache_stats.hpp"

namespace fj {

namespace detail {

/// One cache entry: the key (dynamic avals and static values) and its compiled graph.
struct JitEntry {
  std::vector<ir::Aval> avals;
  std::vector<PyTreeDef> trees;  // the dynamic arguments' structures
  const std::type_info* arg_types = nullptr;
  PyTreeDef out_tree;
  std::size_t static_hash = 0;
  std::shared_ptr<const void> statics;  // a std::tuple of the static values
  const std::type_info* statics_type = nullptr;
  std::vector<std::string> static_strs;
  Compiled compiled;
  Device device;  // the arguments' device: the same function has an entry per device
};

/// The per-function cache, shared by copies of one jitted function.
struct JitState {
  std::string name;
  const char* api = "fj::jit";  // the entry point that made it (fj::grad runs through a jit)
  std::source_location loc{};   // where that entry point was called
  TraceSite site() const { return {name, api, loc}; }
  std::mutex mu;
  struct Slot {
    std::shared_ptr<const JitEntry> entry;
    std::uint64_t used = 0;  // last use, for eviction at the caches' capacity
  };
  std::vector<Slot> entries;
  const JitEntry* last = nullptr;
  std::uint64_t generation = 0;
  int traces = 0;
  std::vector<std::pair<std::string, ir::GraphPtr>> inline_graphs;  // nested calls' sub-graphs
};

/// `g` closed (constvars turned into leading invars), or an earlier graph of `cache` that
/// prints the same (JAX reuses a nested jit's jaxpr).
ir::GraphPtr share_equal_graph(std::vector<std::pair<std::string, ir::GraphPtr>>& cache,
                               ir::GraphPtr g);
/// Emits `jit[name jaxpr]` into the active trace: `sub`'s constvars become its leading invars,
/// bound to its captured values, then `args`.
std::vector<Array> call_jit(const std::string& name, const SubGraph& sub,
                            const std::vector<Array>& args);

/// Why a call missed the cache, for FUSEJIT_LOG_COMPILES.
std::string miss_reason(const JitState& st, std::span<const ir::Aval> avals,
                        const std::vector<PyTreeDef>& trees,
                        const std::vector<std::size_t>& dyn_index,
                        const std::vector<std::string>& static_strs,
                        const std::vector<std::size_t>& static_index, Device device);
void log_trace(const std::string& name, const std::string& reason);
bool log_compiles_enabled();

template <class T>
std::string static_str(const T& v) {
  if constexpr (requires(std::ostream& os) { os << v; }) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return "<value of " + std::string(typeid(T).name()) + ">";
  }
}

}  // namespace detail

/// A jitted function. Copies share one cache.
template <class F, class Statics = static_argnums_t<>>
class Jitted {
 public:
  Jitted(F f, std::string name, std::source_location loc = {}, const char* api = "fj::jit")
      : f_(std::move(f)), st_(std::make_shared<detail::JitState>()) {
    st_->name = std::move(name);
    st_->api = api;
    st_->loc = loc;
  }

  template <class... Args>
  auto operator()(const Args&... args) const {
    using R = checked_result_t<Args...>;
    if (detail::current_trace()) return inline_call<R>(args...);
    return cached_call<R>(args...);
  }

  /// Ahead-of-time: traces for these arguments and returns the lowered function, whose
  /// `as_text()` shows the fused kernel graph and the generated code and whose `compile()`
  /// gives a callable taking the dynamic arguments.
  template <class... Args>
  auto lower(const Args&... args) const {
    using R = checked_result_t<Args...>;
    const detail::CollectedArgs c = detail::collect_args<Statics, false>(args...);
    return Lowered<R>(detail::trace_function<Statics>(f_, st_->site(), c.avals, c.trees, args...),
                      {c.avals.begin(), c.avals.end()}, c.trees, st_->name);
  }

  /// How many times the function has been traced (once per new cache key).
  int trace_count() const {
    std::lock_guard lock(st_->mu);
    return st_->traces;
  }
  /// Number of (avals, structures, static values) keys in its cache now (at most the caches'
  /// capacity).
  std::size_t cache_size() const {
    std::lock_guard lock(st_->mu);
    return st_->entries.size();
  }
  const std::string& name() const { return st_->name; }

 private:
  // What f returns for these arguments, after the compile-time checks of the call: static
  // indices in range, static values hashable, dynamic ones arrays or scalars, outputs arrays.
  template <class... Args>
  static consteval auto checked_result() {
    static_assert(Statics::count == 0 || Statics::max_index() < sizeof...(Args),
                  "fj::jit: a static_argnums index is out of range for this call's arguments");
    check_statics<Args...>(std::index_sequence_for<Args...>{});
    using R =
        typename detail::call_result<Statics, F, std::index_sequence_for<Args...>, Args...>::type;
    detail::check_output_type<R>();
    return std::type_identity<R>{};
  }
  template <class... Args>
  using checked_result_t = typename decltype(checked_result<Args...>())::type;

  template <class... Args, std::size_t... I>
  static constexpr void check_statics(std::index_sequence<I...>) {
    (check_static<I, Args>(), ...);
  }
  template <std::size_t I, class A>
  static constexpr void check_static() {
    using D = std::remove_cvref_t<A>;
    if constexpr (Statics::contains(I))
      static_assert(
          StaticValue<D>,
          "fj::jit: a static argument's type must be hashable (std::hash) and equality-comparable");
    else
      detail::check_arg_kind<Statics, D>(I);
  }

  // Called inside another trace: the function is traced into a closed sub-graph and staged as
  // one `jit[name=... jaxpr=...]` equation, as JAX stages a nested jit (its captured values are
  // leading operands). Equal sub-graphs of one function are shared, so the printer hoists them.
  template <class R, class... Args>
  auto inline_call(const Args&... args) const {
    std::vector<Array> dyn;
    std::vector<PyTreeDef> trees;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            if constexpr (!Statics::contains(I)) {
              detail::flatten_arrays(args, dyn);
              trees.push_back(tree_structure(args));
            }
          }(),
          ...);
    }(std::index_sequence_for<Args...>{});
    std::vector<ir::Aval> avals;
    for (auto& a : dyn) avals.push_back(a.aval());
    detail::SubGraph sub =
        detail::trace_subgraph(st_->site(), avals, [&](std::vector<Array>& tracers) {
          return detail::call_traced<Statics>(f_, tracers, trees, args...);
        });
    {
      std::lock_guard lock(st_->mu);
      sub.graph = detail::share_equal_graph(st_->inline_graphs, sub.graph);
    }
    return detail::unflatten_result<R>(sub.out_tree, detail::call_jit(st_->name, sub, dyn));
  }

  template <class R, class... Args>
  auto cached_call(const Args&... args) const {
    // Structures are compared in place; a PyTreeDef is built only on a miss.
    auto [avals, values, no_trees, static_hash] =
        detail::collect_args<Statics, true, false>(args...);
    using StaticTuple = decltype(static_tuple(args...));
    // The arguments' pytree types: part of the key, as they fix structure the avals do not show.
    const std::type_info* arg_types = &typeid(std::tuple<detail::traced_t<Args>...>);
    const Device device = detail::common_device(values, st_->api, st_->name);
    auto& stats = detail::stat_counters();
    std::unique_lock lock(st_->mu);
    if (const auto gen = stats.generation.load(); gen != st_->generation)
      st_->entries.clear(), st_->last = nullptr, st_->generation = gen;
    std::shared_ptr<const detail::JitEntry> hit;
    for (auto& slot : st_->entries) {
      const auto& e = slot.entry;
      if (e->static_hash != static_hash || !(e->device == device) ||
          !std::ranges::equal(e->avals, avals) || e->arg_types != arg_types ||
          !detail::args_match<Statics>(e->trees, args...))
        continue;
      if constexpr (Statics::count > 0) {
        if (e->statics_type != &typeid(StaticTuple) ||
            !(*static_cast<const StaticTuple*>(e->statics.get()) == static_tuple(args...)))
          continue;
      }
      hit = e;
      slot.used = detail::next_use_tick();
      break;
    }
    if (hit) {
      stats.hits.fetch_add(1, std::memory_order_relaxed);
    } else {
      stats.misses.fetch_add(1, std::memory_order_relaxed);
      const std::vector<PyTreeDef> trees = detail::arg_trees<Statics>(args...);
      auto e = std::make_shared<detail::JitEntry>();
      e->avals.assign(avals.begin(), avals.end());
      e->trees = trees;
      e->arg_types = arg_types;
      e->static_hash = static_hash;
      e->statics = std::make_shared<const StaticTuple>(static_tuple(args...));
      e->statics_type = &typeid(StaticTuple);
      std::apply([&](const auto&... s) { (e->static_strs.push_back(detail::static_str(s)), ...); },
                 static_tuple(args...));
      if (detail::log_compiles_enabled())
        detail::log_trace(
            st_->name,
            detail::miss_reason(*st_, avals, trees, arg_positions<false, sizeof...(Args)>(),
                                e->static_strs, arg_positions<true, sizeof...(Args)>(), device));
      detail::TraceResult tr =
          detail::trace_function<Statics>(f_, st_->site(), avals, trees, args...);
      e->out_tree = tr.out_tree;
      e->compiled = detail::compile_traced(std::move(tr), device);
      e->device = device;
      e->compiled.name = "fj::jit(" + st_->name + ")";
      ++st_->traces;
      hit = e;
      st_->entries.push_back({std::move(e), detail::next_use_tick()});
      detail::evict_beyond_capacity(st_->entries,
                                    [](const detail::JitState::Slot& s) { return s.used; });
    }
    st_->last = hit.get();
    lock.unlock();  // `hit` keeps the entry alive even if clear_caches() runs meanwhile
    return detail::unflatten_result<R>(hit->out_tree, detail::run_compiled(hit->compiled, values));
  }

  /// Positions of the static (or the dynamic) arguments among N, for log messages.
  template <bool Static, std::size_t N>
  static std::vector<std::size_t> arg_positions() {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < N; ++i)
      if (Statics::contains(i) == Static) v.push_back(i);
    return v;
  }

  template <class... Args>
  static auto static_tuple(const Args&... args) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple_cat(pick_static<I>(args)...);
    }(std::index_sequence_for<Args...>{});
  }
  template <std::size_t I, class A>
  static auto pick_static(const A& a) {
    if constexpr (Statics::contains(I))
      return std::tuple<A>(a);
    else
      return std::tuple<>();
  }

  F f_;
  std::shared_ptr<detail::JitState> st_;
};

/// Wraps f so that each call runs a compiled trace of it. Options: fj::static_argnums<I...>,
/// and a name (const char* / std::string) used in jaxprs and logs. `loc`, the caller's line,
/// is named with the function in errors raised while tracing it.
template <class F, std::size_t... I>
auto jit(F f, static_argnums_t<I...>, std::string name = "<lambda>",
         std::source_location loc = std::source_location::current()) {
  return Jitted<F, static_argnums_t<I...>>(std::move(f), std::move(name), loc);
}
template <class F>
auto jit(F f, std::string name = "<lambda>",
         std::source_location loc = std::source_location::current()) {
  return Jitted<F>(std::move(f), std::move(name), loc);
}

}  // namespace fj
