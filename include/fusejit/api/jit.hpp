// fj::jit: trace once per (argument avals, static values), compile, and reuse.
#pragma once
#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <source_location>
#include <sstream>
#include <string>
#include <string_view>
#include <typeinfo>

#include "fusejit/api/disable_jit.hpp"
#include "fusejit/api/lowered.hpp"
#include "fusejit/api/placement.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/api/trace_function.hpp"
#include "fusejit/core/function_ref.hpp"
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
  Device device;     // the arguments' device: the same function has an entry per device
  bool x64 = false;  // fj::x64_enabled() when it was traced: the mode changes the trace
};

/// The per-function cache, shared by copies of one jitted function.
struct JitState {
  std::string name;
  const char* api = "fj::jit";  // the entry point that made it (fj::grad runs through a jit)
  bool always_trace = false;    // a jit the library made for a function that needs a trace
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

/// A jitted function's call as the library's cache (jit_call) sees it: the key, and the hooks
/// that need the arguments' C++ types (compiled in the user's translation unit).
struct JitCall {
  std::span<const ir::Aval> avals;
  std::span<const backend::Value> values;
  const std::type_info* arg_types = nullptr;  // the arguments' pytree types
  std::size_t static_hash = 0;
  std::span<const std::size_t> dyn_index, static_index;  // argument positions, for the miss log
  /// Whether an entry whose avals, types and device match has the call's structures and static
  /// values.
  FunctionRef<bool(const JitEntry&)> matches;
  /// Sets a new entry's structures (trees), static values and their strings.
  FunctionRef<void(JitEntry&)> fill_key;
  /// Traces the function for an entry filled by fill_key.
  FunctionRef<TraceResult(const JitEntry&)> trace;
};
/// The entry a call ran (traced and compiled on a miss) and its flat outputs.
struct JitOutcome {
  std::shared_ptr<const JitEntry> entry;  // keeps out_tree alive even if caches are cleared
  ArrayList outs;
};
/// A jitted call outside any trace: looks the key up in the function's cache, traces and
/// compiles on a miss (evicting beyond the caches' capacity), and runs the executable.
JitOutcome jit_call(JitState& st, const JitCall& call);
/// A jitted call inside another trace: traces `body` into a closed sub-graph (shared with an
/// equal earlier one of the same function) and stages it as one `jit` equation on `dyn`.
std::vector<Array> jit_inline_call(JitState& st, const std::vector<Array>& dyn, TraceBody body,
                                   PyTreeDef& out_tree);

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
  if constexpr (requires(std::ostream & os) { os << v; }) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return "<value of " + std::string(typeid(T).name()) + ">";
  }
}

}  // namespace detail

namespace detail {
/// The tag of a jit the library makes around a function that only runs inside a trace (a staged
/// custom rule, a pullback): it traces even under fj::disable_jit.
struct always_trace_t {
  explicit always_trace_t() = default;
};
inline constexpr always_trace_t always_trace{};
}  // namespace detail

/// A jitted function. Copies share one cache.
template <class F, class Statics = static_argnums_t<>>
class Jitted {
 public:
  /// Wraps `f`, named `name` in jaxprs, logs and errors; `api` is the entry point that errors
  /// name ("fj::jit"). fj::jit makes these.
  Jitted(F f, std::string name, std::source_location loc = {}, const char* api = "fj::jit")
      : f_(std::move(f)), st_(std::make_shared<detail::JitState>()) {
    st_->name = std::move(name);
    st_->api = api;
    st_->loc = loc;
  }
  /// A jit of the library's own (see detail::always_trace_t).
  Jitted(F f, std::string name, std::source_location loc, detail::always_trace_t)
      : Jitted(std::move(f), std::move(name), loc) {
    st_->always_trace = true;
  }

  /// Calls f: traces and compiles it on the first call of each key (argument shapes, dtypes,
  /// pytree structures, static values), then runs the compiled code. Inside another trace it
  /// stages one `jit` equation; under fj::disable_jit it runs f eagerly. What f raises while
  /// being traced (fj::ShapeError, ...) comes out of the call, naming f and `loc`.
  template <class... Args>
  auto operator()(const Args&... args) const {
    using R = checked_result_t<Args...>;
    if (detail::current_trace()) return inline_call<R>(args...);
    // fj::disable_jit applies to the user's jits; a transformation's own jit must trace.
    if (jit_disabled() && !st_->always_trace && st_->api == std::string_view("fj::jit"))
      return eager_call(args...);
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
  /// The name given to fj::jit ("<lambda>" by default).
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
    }
    (std::index_sequence_for<Args...>{});
    PyTreeDef out_tree;
    std::vector<Array> outs = detail::jit_inline_call(
        *st_, dyn,
        [&](std::vector<Array>& tracers, detail::LowerCtx& ctx, std::vector<ir::Atom>& o) {
          auto result = detail::call_traced<Statics>(f_, tracers, trees, args...);
          return detail::flatten_output(ctx, result, o);
        },
        out_tree);
    return detail::unflatten_result<R>(out_tree, std::move(outs));
  }

  // Under fj::disable_jit: f runs on the arguments as they are (static ones) or as arrays
  // (dynamic leaves, as a trace would see them), and its result's leaves become arrays.
  template <class... Args>
  auto eager_call(const Args&... args) const {
    auto to_array = [](const auto& leaf) { return detail::as_array(leaf); };
    auto pick = [&]<std::size_t I, class A>(std::integral_constant<std::size_t, I>,
                                            const A& a) -> detail::stored_arg_t<Statics, I, A> {
      if constexpr (Statics::contains(I))
        return a;
      else
        return detail::pytree::map_tree(to_array, a);
    };
    auto result = [&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
      std::tuple<detail::stored_arg_t<Statics, I, Args>...> call_args{
          pick(std::integral_constant<std::size_t, I>{}, args)...};
      return std::apply(f_, call_args);
    }
    (std::index_sequence_for<Args...>{});
    return detail::pytree::map_tree(to_array, result);
  }

  // Outside any trace: the key is collected here, where the argument types are known; the cache
  // itself is library code (detail::jit_call).
  template <class R, class... Args>
  auto cached_call(const Args&... args) const {
    // Structures are compared in place; a PyTreeDef is built only on a miss.
    auto [avals, values, no_trees, static_hash] =
        detail::collect_args<Statics, true, false>(args...);
    using StaticTuple = decltype(static_tuple(args...));
    static constexpr auto dyn_index = arg_positions<false, sizeof...(Args)>();
    static constexpr auto static_index = arg_positions<true, sizeof...(Args)>();
    auto matches = [&](const detail::JitEntry& e) {
      if (!detail::args_match<Statics>(e.trees, args...)) return false;
      if constexpr (Statics::count > 0)
        return e.statics_type == &typeid(StaticTuple) &&
               *static_cast<const StaticTuple*>(e.statics.get()) == static_tuple(args...);
      return true;
    };
    auto fill_key = [&](detail::JitEntry& e) {
      e.trees = detail::arg_trees<Statics>(args...);
      if constexpr (Statics::count > 0) {
        e.statics = std::make_shared<const StaticTuple>(static_tuple(args...));
        e.statics_type = &typeid(StaticTuple);
        std::apply([&](const auto&... s) { (e.static_strs.push_back(detail::static_str(s)), ...); },
                   static_tuple(args...));
      }
    };
    auto trace = [&](const detail::JitEntry& e) {
      return detail::trace_function<Statics>(f_, st_->site(), e.avals, e.trees, args...);
    };
    detail::JitCall call{avals,       values,    &typeid(std::tuple<detail::traced_t<Args>...>),
                         static_hash, dyn_index, static_index,
                         matches,     fill_key,  trace};
    detail::JitOutcome r = detail::jit_call(*st_, call);
    return detail::unflatten_result<R>(r.entry->out_tree, std::move(r.outs));
  }

  /// Positions of the static (or the dynamic) arguments among N, for the miss log.
  template <bool Static, std::size_t N>
  static constexpr auto arg_positions() {
    constexpr std::size_t count = [] {
      std::size_t c = 0;
      for (std::size_t i = 0; i < N; ++i) c += Statics::contains(i) == Static;
      return c;
    }();
    std::array<std::size_t, count> v{};
    for (std::size_t i = 0, k = 0; i < N; ++i)
      if (Statics::contains(i) == Static) v[k++] = i;
    return v;
  }

  template <class... Args>
  static auto static_tuple(const Args&... args) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple_cat(pick_static<I>(args)...);
    }
    (std::index_sequence_for<Args...>{});
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

/// jax.jit: wraps f so that each call runs a compiled trace of it. Options:
/// fj::static_argnums<I...>, and a name (const char* / std::string) used in jaxprs and logs.
/// `loc`, the caller's line, is named with the function in errors raised while tracing it:
/// auto f = fj::jit([](fj::Tracer x) { return fj::sin(x) * 2; });
///@{
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
///@}

namespace detail {
/// fj::jit for the library's own functions that only run inside a trace: they trace even
/// under fj::disable_jit (an eager call would find no trace to stage into).
template <class F, class Statics = static_argnums_t<>>
auto traced_jit(F f, std::string name, std::source_location loc, Statics = {}) {
  return Jitted<F, Statics>(std::move(f), std::move(name), loc, always_trace);
}
}  // namespace detail

}  // namespace fj
