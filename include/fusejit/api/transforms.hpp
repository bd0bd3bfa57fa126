// fj::grad, value_and_grad, jvp, vjp, vmap and stop_gradient: each traces the function into a
// graph, transforms the graph (transforms/transforms.hpp) and calls the result from the active
// trace. Called outside any trace, grad and vmap run through an fj::jit of themselves, so a
// transformed function is compiled once per argument avals and then dispatched from cache.
#pragma once
#include <array>
#include <optional>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj {

/// Which positional arguments grad differentiates: fj::argnums{0, 2}. The gradients' C++ types
/// are fixed at compile time, so runtime argnums need arguments of one C++ type (e.g. arrays);
/// for pytree arguments of different types give the indices as template arguments:
/// fj::argnums_v<0, 2>.
template <std::size_t N>
struct argnums {
  std::array<int, N> v{};  ///< the argument indices
  /// fj::argnums{0, 2}: the indices, in the order the gradients come back.
  template <class... I>
  constexpr argnums(I... i) : v{static_cast<int>(i)...} {}
};
/// Deduces N from the number of indices.
template <class... I>
argnums(I...) -> argnums<sizeof...(I)>;
/// argnums known at compile time: each gradient has its argument's structure and C++ type.
template <std::size_t... I>
struct argnums_t {
  static constexpr std::size_t count = sizeof...(I);  ///< how many arguments are differentiated
};
/// fj::argnums_v<0, 2>: compile-time argnums, for arguments of different C++ types.
template <std::size_t... I>
inline constexpr argnums_t<I...> argnums_v{};

/// One argument's in_axes (or one output's out_axes): an axis (int), fj::none, or a pytree of
/// those matching the argument's structure (an int or none at a node covers its whole subtree,
/// as a prefix does in JAX).
struct AxisSpec {
  PyTreeDef tree;  ///< the spec's structure (a leaf for one axis)
  std::vector<std::optional<int>> axes{std::nullopt};  ///< one per leaf of tree
  /// Unmapped (fj::none).
  AxisSpec() = default;
  /// Axis `a` of the argument (negative counts from the end).
  AxisSpec(int a) : axes{a} {}
  /// Axis `a`, or unmapped when empty.
  AxisSpec(std::optional<int> a) : axes{a} {}
  /// fj::none: the argument is not mapped (broadcast to every example).
  AxisSpec(std::nullopt_t) {}
  /// A pytree of ints and fj::none, a prefix of the argument's structure.
  template <class T>
  requires detail::pytree::is_node_v<T> AxisSpec(const T& t) : tree(tree_structure(t)) {
    axes.clear();
    detail::pytree::for_each_leaf(t, [&](const auto& a) {
      using A = std::remove_cvref_t<decltype(a)>;
      static_assert(std::is_integral_v<A> || std::is_same_v<A, std::optional<int>> ||
                        std::is_same_v<A, std::nullopt_t>,
                    "fj::in_axes: the leaves of an axes pytree must be ints, std::optional<int> "
                    "or fj::none");
      if constexpr (std::is_same_v<A, std::nullopt_t>)
        axes.push_back(std::nullopt);
      else
        axes.push_back(std::optional<int>(a));
    });
  }
  /// The axis of a leaf-only spec.
  std::optional<int> axis() const { return axes.at(0); }
};

/// The name of a mapped axis, which fj::lax's collectives refer to: fj::axis_name{"i"} as
/// vmap's and pmap's axis_name.
struct axis_name {
  std::string name;  ///< the name the collectives refer to
  /// fj::axis_name{"i"}.
  axis_name(const char* n) : name(n) {}
  /// fj::axis_name{some_string}.
  axis_name(std::string n) : name(std::move(n)) {}
};

/// vmap's mapped axis per argument; fj::none for an unmapped (broadcast) one, a pytree of axes
/// for a pytree argument. One entry applies to every argument, as JAX's in_axes=0.
template <std::size_t N>
struct in_axes {
  std::array<AxisSpec, N> v{};  ///< one spec per positional argument
  /// fj::in_axes{0, fj::none}: each entry an AxisSpec (an int, fj::none or a pytree of them).
  template <class... I>
  in_axes(I... i) : v{AxisSpec(i)...} {}
};
/// Deduces N from the number of entries.
template <class... I>
in_axes(I...) -> in_axes<sizeof...(I)>;
/// vmap's output axis per output leaf (the result flattened); one entry applies to all.
template <std::size_t N>
struct out_axes {
  std::array<std::optional<int>, N> v{};  ///< one axis (or fj::none) per output leaf
  /// fj::out_axes{1}: where each output leaf's batch axis goes.
  template <class... I>
  constexpr out_axes(I... i) : v{std::optional<int>(i)...} {}
};
/// Deduces N from the number of entries.
template <class... I>
out_axes(I...) -> out_axes<sizeof...(I)>;

namespace detail {

template <class F, std::size_t... I>
decltype(auto) call_with(const F& f, std::vector<Array>& args, std::index_sequence<I...>) {
  return f(args[I]...);
}

template <class F, std::size_t N>
using traced_result_t = decltype(call_with(
    std::declval<const F&>(), std::declval<std::vector<Array>&>(), std::make_index_sequence<N>{}));

/// Concatenation of two array lists.
std::vector<Array> concat(std::vector<Array> a, const std::vector<Array>& b);
/// Emits a transpose moving axis `from` of x to `to`, in the active trace.
Array move_axis(const Array& x, int from, int to);
/// Emits x broadcast along a new axis of size n at `axis`, in the active trace.
Array add_axis(const Array& x, std::int64_t n, int axis);
/// The rank-0 array 1 of the output dtype, the cotangent grad seeds reverse mode with.
Array one_like(const ir::Aval& a);

/// Reverse mode on arrays: f's outputs and the cotangents of args[i] for each i in `wrt`,
/// seeded with `cts` (one per output); called inside a trace.
struct VjpOut {
  std::vector<Array> outs, grads;
};
VjpOut vjp_call(const detail::SubGraph& s, const std::vector<Array>& args,
                const std::vector<int>& wrt, const std::vector<Array>& cts);
/// Checks grad's preconditions: argnums in range, float leaves at `wrt` (leaves of argument i
/// are leaves[first[i]] to leaves[first[i + 1]]), one scalar float output.
void check_grad_args(const char* who, const std::vector<Array>& leaves,
                     const std::vector<std::size_t>& first, const std::vector<int>& wrt);
void check_grad_output(const char* who, const ir::Graph& g);

/// Forward mode on arrays, inside a trace: f's outputs and their tangents.
std::pair<std::vector<Array>, std::vector<Array>> jvp_call(const detail::SubGraph& s,
                                                           const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents);
/// Forward mode with tangents for the primals listed in `wrt` only (tangents[k] is that of
/// primals[wrt[k]]; the others are constants), inside a trace.
std::pair<std::vector<Array>, std::vector<Array>> jvp_call(const detail::SubGraph& s,
                                                           const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents,
                                                           const std::vector<int>& wrt);

/// Batching on arrays, inside a trace. With an `axis` name, the function is traced with that
/// axis bound (its collectives stage) and batched with them positional.
std::vector<Array> vmap_call(
    const std::string& name, const std::vector<Array>& args,
    const std::vector<std::optional<int>>& in, const std::vector<std::optional<int>>& out,
    const std::function<detail::SubGraph(const std::vector<ir::Aval>&)>& trace,
    const std::string& axis = {});

/// The dynamic leaves of arguments, their structures, and where each argument's leaves start.
struct FlatArgs {
  std::vector<Array> leaves;
  std::vector<PyTreeDef> trees;
  std::vector<std::size_t> first;  // one more entry than arguments: the end
};
template <class... A>
FlatArgs flatten_args(const A&... a) {
  FlatArgs r;
  (
      [&](const auto& x) {
        r.first.push_back(r.leaves.size());
        flatten_arrays(x, r.leaves);
        r.trees.push_back(tree_structure(x));
      }(a),
      ...);
  r.first.push_back(r.leaves.size());
  return r;
}

template <class F, class... A>
decltype(auto) call_flat(const F& f, const std::vector<Array>& t, const FlatArgs& fa,
                         const A&... a) {
  return call_traced<static_argnums_t<>>(f, t, fa.trees, a...);
}

/// The C++ type of grad's k-th gradient.
template <class Wrt, std::size_t K, class... A>
struct grad_type {
  // Runtime argnums: every argument must have one pytree type.
  using T0 = traced_t<std::tuple_element_t<0, std::tuple<A...>>>;
  static_assert((std::is_same_v<traced_t<A>, T0> && ...),
                "fj::grad: with arguments of different pytree types give argnums at compile "
                "time, fj::argnums_v<I...>, so each gradient can have its argument's type");
  using type = T0;
};
template <std::size_t... I, std::size_t K, class... A>
struct grad_type<argnums_t<I...>, K, A...> {
  static constexpr std::size_t idx = std::array<std::size_t, sizeof...(I)>{I...}[K];
  static_assert(idx < sizeof...(A), "fj::grad: an argnums_v index is out of range");
  using type = traced_t<std::tuple_element_t<idx, std::tuple<A...>>>;
};

template <std::size_t N>
std::vector<int> wrt_list(const argnums<N>& w) {
  return {w.v.begin(), w.v.end()};
}
template <std::size_t... I>
std::vector<int> wrt_list(const argnums_t<I...>&) {
  return {static_cast<int>(I)...};
}
template <std::size_t N>
constexpr std::size_t wrt_count(const argnums<N>*) {
  return N;
}
template <std::size_t... I>
constexpr std::size_t wrt_count(const argnums_t<I...>*) {
  return sizeof...(I);
}

/// grad's array-level core: checks the arguments (flattened: `fa`) and the wrt indices `w`,
/// traces `body`, checks its output and runs reverse mode, seeded with 1, for the leaves of the
/// arguments in `w`.
VjpOut grad_flat(const char* who, std::source_location loc, const FlatArgs& fa,
                 const std::vector<int>& w, TraceBody body);

template <class F, class Wrt, bool WithValue>
struct GradFn {
  F f;
  Wrt wrt;
  std::source_location loc;  // grad's caller, for errors raised while tracing f
  template <class... A>
  auto operator()(const A&... a) const {
    constexpr std::size_t N = wrt_count(static_cast<const Wrt*>(nullptr));
    const FlatArgs fa = flatten_args(a...);
    const std::vector<int> w = wrt_list(wrt);
    const char* who = WithValue ? "fj::value_and_grad" : "fj::grad";
    VjpOut r = grad_flat(who, loc, fa, w,
                         [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
                           auto result = call_flat(f, t, fa, a...);
                           return flatten_output(ctx, result, outs);
                         });
    std::size_t pos = 0;
    auto grads = [&]() {
      auto one = [&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
        using T = typename grad_type<Wrt, K, A...>::type;
        return pytree::build_tree<T>(
            fa.trees[static_cast<std::size_t>(w[K])],
            [&](std::type_identity<Array>, const PyTreeDef&) { return std::move(r.grads[pos++]); });
      };
      if constexpr (N == 1)
        return one(std::integral_constant<std::size_t, 0>{});
      else
        return [&]<std::size_t... K>(std::index_sequence<K...>) {
          // Gradients of one type are a std::array, indexable as JAX's tuple (g[0]); of
          // different types (argnums_v over a pytree and an array) a std::tuple. Both take
          // std::get and structured bindings. Braced initialization keeps the order.
          using G0 = typename grad_type<Wrt, 0, A...>::type;
          if constexpr ((std::is_same_v<typename grad_type<Wrt, K, A...>::type, G0> && ...))
            return std::array<G0, N>{one(std::integral_constant<std::size_t, K>{})...};
          else
            return std::tuple{one(std::integral_constant<std::size_t, K>{})...};
        }
      (std::make_index_sequence<N>{});
    };
    if constexpr (WithValue)
      return std::make_tuple(std::move(r.outs[0]), grads());
    else
      return grads();
  }
};

/// Per leaf of the flattened arguments: its in_axes (specs: one per argument, or, when
/// `one_for_all`, one spec for all). Another count raises fj::ValueError, as JAX's vmap does.
std::vector<std::optional<int>> expand_in_axes(const std::vector<AxisSpec>& specs,
                                               const std::vector<PyTreeDef>& trees,
                                               const char* who = "fj::vmap",
                                               bool one_for_all = true);

/// vmap's array-level core: the leaves of the arguments (flattened: `fa`) mapped over the axes
/// `in` (one spec per argument, or one for all when `in_for_all`), `body` traced for the
/// per-example avals and batched; the outputs' axes are `out`. Sets `out_tree` to the result's
/// structure.
std::vector<Array> vmap_flat(const FlatArgs& fa, const std::vector<AxisSpec>& in, bool in_for_all,
                             const std::vector<std::optional<int>>& out, std::source_location loc,
                             const std::string& axis, TraceBody body, PyTreeDef& out_tree);

template <class F, std::size_t NI, std::size_t NO>
struct VmapFn {
  F f;
  std::array<AxisSpec, NI> in;
  bool in_for_all;  // in[0] for every argument (JAX's in_axes=0), not one entry per argument
  std::array<std::optional<int>, NO> out;
  std::source_location loc;  // vmap's caller
  std::string axis;          // fj::axis_name, or empty
  template <class... A>
  auto operator()(const A&... a) const {
    const FlatArgs fa = flatten_args(a...);
    using R = decltype(call_flat(f, fa.leaves, fa, a...));
    PyTreeDef out_tree;
    std::vector<Array> outs = vmap_flat(
        fa, {in.begin(), in.end()}, in_for_all, {out.begin(), out.end()}, loc, axis,
        [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& o) {
          auto result = call_flat(f, t, fa, a...);
          return flatten_output(ctx, result, o);
        },
        out_tree);
    return unflatten_result<R>(out_tree, std::move(outs));
  }
};

/// A transformed function: inside a trace it records the transformation's equations; outside
/// it runs through a jit of itself (one compile per argument avals).
template <class Fn>
class Transformed {
 public:
  Transformed(Fn fn, std::string name, const char* api)
      : fn_(fn), jitted_(fn, std::move(name), fn.loc, api) {}
  template <class... A>
  auto operator()(const A&... a) const {
    if (current_trace()) return fn_(a...);
    return jitted_(a...);
  }
  const Jitted<Fn>& jitted() const { return jitted_; }

 private:
  Fn fn_;
  Jitted<Fn> jitted_;
};

}  // namespace detail

/// The gradient of a scalar function with respect to its first argument, or the ones listed:
/// fj::grad(f)(x); fj::grad(f, fj::argnums{0, 1})(x, y) gives the gradients as a std::array
/// (g[0], g[1]) when they have one C++ type, else as a std::tuple.
/// Arguments may be pytrees (fj::tree_*): the gradient has the argument's structure.
/// `loc`, the caller's line, is named in errors raised while tracing f (as for fj::jit).
template <class F, class Wrt = argnums_t<0>>
auto grad(F f, Wrt which = {}, std::source_location loc = std::source_location::current()) {
  return detail::Transformed(detail::GradFn<F, Wrt, false>{std::move(f), which, loc}, "grad",
                             "fj::grad");
}
/// (f(x), grad(f)(x)) from one trace.
template <class F, class Wrt = argnums_t<0>>
auto value_and_grad(F f, Wrt which = {},
                    std::source_location loc = std::source_location::current()) {
  return detail::Transformed(detail::GradFn<F, Wrt, true>{std::move(f), which, loc},
                             "value_and_grad", "fj::value_and_grad");
}

/// The function mapped over axis `all` (the leading one by default) of every argument, as
/// JAX's vmap(f, in_axes=0): fj::vmap(f), fj::vmap(f, 1), fj::vmap(f, fj::none). Pytree
/// arguments have each leaf mapped over that axis.
template <class F, std::size_t NO = 1>
auto vmap(F f, AxisSpec all = 0, out_axes<NO> out = out_axes<1>{0},
          std::source_location loc = std::source_location::current()) {
  return detail::Transformed(
      detail::VmapFn<F, 1, NO>{std::move(f), {std::move(all)}, true, out.v, loc, {}}, "vmap",
      "fj::vmap");
}
/// The function mapped with one in_axes entry per positional argument, as JAX's
/// vmap(f, in_axes=(0, None)): fj::vmap(f, fj::in_axes{0, fj::none}). Another number of
/// entries than arguments raises fj::ValueError at the call, as in JAX.
template <class F, std::size_t NI, std::size_t NO = 1>
auto vmap(F f, in_axes<NI> in, out_axes<NO> out = out_axes<1>{0},
          std::source_location loc = std::source_location::current()) {
  return detail::Transformed(detail::VmapFn<F, NI, NO>{std::move(f), in.v, false, out.v, loc, {}},
                             "vmap", "fj::vmap");
}

/// vmap with its axis named: inside f the collectives of fj::lax (distributed/collectives.hpp)
/// over `name` act on the batch axis, as under JAX's vmap(axis_name=...).
template <class F, std::size_t NO = 1>
auto vmap(F f, axis_name name, AxisSpec all = 0, out_axes<NO> out = out_axes<1>{0},
          std::source_location loc = std::source_location::current()) {
  return detail::Transformed(
      detail::VmapFn<F, 1, NO>{
          std::move(f), {std::move(all)}, true, out.v, loc, std::move(name.name)},
      "vmap", "fj::vmap");
}
/// vmap with its axis named and one in_axes entry per positional argument.
template <class F, std::size_t NI, std::size_t NO = 1>
auto vmap(F f, axis_name name, in_axes<NI> in, out_axes<NO> out = out_axes<1>{0},
          std::source_location loc = std::source_location::current()) {
  return detail::Transformed(
      detail::VmapFn<F, NI, NO>{std::move(f), in.v, false, out.v, loc, std::move(name.name)},
      "vmap", "fj::vmap");
}

/// Forward mode: (f(primals...), the directional derivative along tangents), each shaped as
/// f's result. f is taken by value (a function name decays to a pointer, as in fj::grad).
template <class F, std::size_t N>
auto jvp(F f, const std::array<Array, N>& primals, const std::array<Array, N>& tangents,
         std::source_location loc = std::source_location::current()) {
  using R = detail::traced_result_t<F, N>;
  auto body = [f, loc](const auto&... pt) {
    std::vector<Array> all{detail::as_array(pt)...};
    std::vector<Array> p(all.begin(), all.begin() + N), t(all.begin() + N, all.end());
    detail::SubGraph s = detail::trace_subgraph(
        {"jvp", "fj::jvp", loc}, detail::avals_of(p), [&](std::vector<Array>& a) {
          return detail::call_with(f, a, std::make_index_sequence<N>{});
        });
    auto [outs, touts] = detail::jvp_call(s, p, t);
    return std::make_pair(detail::unflatten_result<R>(s.out_tree, std::move(outs)),
                          detail::unflatten_result<R>(s.out_tree, std::move(touts)));
  };
  auto run = [&](auto&& fn) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return fn(primals[I]..., tangents[I]...);
    }
    (std::make_index_sequence<N>{});
  };
  if (detail::current_trace()) return run(body);
  auto r = run(detail::traced_jit(body, "jvp", loc));
  return std::make_pair(std::move(std::get<0>(r)), std::move(std::get<1>(r)));
}

/// Reverse mode: (f(primals...), a function from output cotangents to the primals'
/// cotangents, returned as a std::array). The forward pass is recomputed by each call of it.
/// f is taken by value (a function name decays to a pointer, as in fj::grad).
template <class F, std::size_t N>
auto vjp(F f, const std::array<Array, N>& primals,
         std::source_location loc = std::source_location::current()) {
  using R = detail::traced_result_t<F, N>;
  auto back = [f, loc](const std::vector<Array>& p, const std::vector<Array>& cts) {
    detail::SubGraph s = detail::trace_subgraph(
        {"vjp", "fj::vjp", loc}, detail::avals_of(p), [&](std::vector<Array>& a) {
          return detail::call_with(f, a, std::make_index_sequence<N>{});
        });
    std::vector<int> wrt(N);
    for (std::size_t i = 0; i < N; ++i) wrt[i] = static_cast<int>(i);
    return detail::vjp_call(s, p, wrt, cts);
  };
  auto fwd = [&]<std::size_t... I>(std::index_sequence<I...>) {
    if (detail::current_trace()) return detail::as_array(f(primals[I]...));
    return detail::as_array(fj::jit(f, "vjp", loc)(primals[I]...));
  }
  (std::make_index_sequence<N>{});
  static_assert(!detail::pytree::is_node_v<R>, "fj::vjp: the function must return one array");
  auto pullback = [back, primals, loc](const Array& ct) {
    auto body = [back](const auto&... pc) {
      std::vector<Array> all{detail::as_array(pc)...};
      std::vector<Array> p(all.begin(), all.end() - 1);
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        auto r = back(p, {all.back()});
        return std::make_tuple(std::move(r.grads[I])...);
      }
      (std::make_index_sequence<N>{});
    };
    auto tup = [&]<std::size_t... I>(std::index_sequence<I...>) {
      if (detail::current_trace()) return body(primals[I]..., ct);
      return detail::traced_jit(body, "vjp", loc)(primals[I]..., ct);
    }
    (std::make_index_sequence<N>{});
    return std::apply([](auto&&... g) { return std::array<Array, N>{std::move(g)...}; },
                      std::move(tup));
  };
  return std::make_pair(std::move(fwd), std::move(pullback));
}

/// x, with a zero derivative: gradients do not flow through it (lax.stop_gradient).
Array stop_gradient(const Array& x);
/// stop_gradient of an expression, evaluated (or recorded) first.
template <detail::Expr E>
Array stop_gradient(const E& e) {
  return stop_gradient(Array(e));
}

}  // namespace fj
