// Tracing a C++ function: tracer arguments in, its outputs lowered into a finished graph.
#pragma once
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fusejit/api/checking_leaks.hpp"
#include "fusejit/api/static_argnums.hpp"
#include "fusejit/api/pytree/traced.hpp"
#include "fusejit/core/function_ref.hpp"
#include "fusejit/expr/materialize.hpp"

namespace fj::detail {

template <class R>
constexpr void check_output_type() {
  static_assert(array_tree_v<R>,
                "fj::jit: the traced function must return fj::Array, an expression, a C++ scalar, "
                "or a pytree of those (std::tuple, std::pair, std::array, std::vector, "
                "std::map<std::string, T>, a FUSEJIT_PYTREE struct)");
}

/// Lowers the leaves of a traced function's result into the active trace's atoms (appended to
/// `outs`) and returns its structure.
template <class T>
PyTreeDef flatten_output(LowerCtx& ctx, const T& r, std::vector<ir::Atom>& outs) {
  check_output_type<T>();
  pytree::for_each_leaf(r, [&](const auto& l) {
    using D = std::remove_cvref_t<decltype(l)>;
    if constexpr (std::is_same_v<D, Array>)
      outs.push_back(lower_output(ctx, l));
    else if constexpr (Expr<D>)
      outs.push_back(l.lower(ctx));
    else
      outs.push_back(ctx.scalar_leaf(l));
  });
  return tree_structure(r);
}

/// The result of a traced function returning R, rebuilt from its flat outputs (a vector or an
/// ArrayList, whose arrays it moves): R's structure with every leaf an fj::Array.
template <class R, class List>
traced_t<R> unflatten_result(const PyTreeDef& def, List&& outs) {
  std::size_t pos = 0;
  return unflatten_arrays<R>(def, std::span<Array>(outs.data(), outs.size()), pos);
}

/// The abstract value a dynamic argument is traced with. C++ scalars are weakly typed, like
/// Python scalars passed to jax.jit.
ir::Aval arg_aval(const Array& a, std::size_t index);
template <class T>
requires std::is_arithmetic_v<T> ir::Aval arg_aval(const T&, std::size_t) {
  if constexpr (std::is_same_v<T, bool>)
    return {DType::bool_, Shape{}, false};
  else if constexpr (std::is_floating_point_v<T>)
    return {default_float_dtype(), Shape{}, true};
  else
    return {default_int_dtype(), Shape{}, true};
}

/// The buffer a dynamic argument is passed in.
backend::Value arg_value(const Array& a, const ir::Aval& aval);
template <class T>
requires std::is_arithmetic_v<T> backend::Value arg_value(const T& v, const ir::Aval& aval) {
  auto buf = runtime::allocate(size_of(aval.dtype));
  visit_dtype(aval.dtype,
              [&](auto x) { *static_cast<decltype(x)*>(buf->data) = static_cast<decltype(x)>(v); });
  return {std::move(buf), aval};
}

/// The argument as the traced function receives it: the static value itself, or a pytree of
/// tracers of the argument's structure (an Array for a leaf).
template <class Statics, std::size_t I, class A>
using traced_arg_t = std::conditional_t<Statics::contains(I), const std::remove_cvref_t<A>&,
                                        traced_t<std::remove_cvref_t<A>>&>;
// What the traced call's argument tuple stores: a reference to a static value, or the tracers.
template <class Statics, std::size_t I, class A>
using stored_arg_t = std::conditional_t<Statics::contains(I), const std::remove_cvref_t<A>&,
                                        traced_t<std::remove_cvref_t<A>>>;

template <class Statics, class A>
constexpr void check_arg_kind(std::size_t) {
  using D = std::remove_cvref_t<A>;
  static_assert(array_tree_v<D>,
                "fj::jit: a dynamic argument must be fj::Array, an expression, a C++ scalar or a "
                "pytree of those; pass other types through fj::static_argnums<...>");
}

template <class Statics, class F, class Seq, class... Args>
struct call_result;
template <class Statics, class F, std::size_t... I, class... Args>
struct call_result<Statics, F, std::index_sequence<I...>, Args...> {
  using type = std::invoke_result_t<const F&, traced_arg_t<Statics, I, Args>...>;
};

struct TraceResult {
  ir::GraphPtr graph;
  std::vector<backend::Value> consts;
  PyTreeDef out_tree;  // the structure of the function's result
};

/// Compiles a traced graph for `where`: the default backend on the CPU, the CUDA backend on a
/// GPU. Captured constants are copied to `where` when they live elsewhere.
Compiled compile_traced(TraceResult&& r, Device where = cpu());

/// Calls f with its static arguments as they are and its dynamic ones rebuilt, structure
/// `trees[k]` for the k-th, from `tracers` (the dynamic leaves, in order).
template <class Statics, class F, class... Args>
decltype(auto) call_traced(const F& f, const std::vector<Array>& tracers,
                           const std::vector<PyTreeDef>& trees, const Args&... args) {
  std::size_t next = 0, tree = 0;
  auto pick = [&]<std::size_t I, class A>(std::integral_constant<std::size_t, I>,
                                          const A& a) -> stored_arg_t<Statics, I, A> {
    if constexpr (Statics::contains(I))
      return a;
    else
      return unflatten_arrays<A>(trees.at(tree++), tracers, next);
  };
  return [&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    // Braced initialization picks arguments in order: tracers bind to dynamic leaves left to
    // right.
    std::tuple<stored_arg_t<Statics, I, Args>...> call_args{
        pick(std::integral_constant<std::size_t, I>{}, args)...};
    return std::apply(f, call_args);
  }
  (std::index_sequence_for<Args...>{});
}

/// The dynamic arguments' leaves (avals and values, for a top-level call) and structures, and a
/// hash of the static ones.
struct CollectedArgs {
  SmallVector<ir::Aval, 4> avals;  // inline: a warm jitted call allocates no argument list
  SmallVector<backend::Value, 4> values;
  std::vector<PyTreeDef> trees;
  std::size_t static_hash = 0x9e3779b97f4a7c15ull;
};
/// The dynamic arguments' structures.
template <class Statics, class... Args>
std::vector<PyTreeDef> arg_trees(const Args&... args) {
  std::vector<PyTreeDef> trees;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          if constexpr (!Statics::contains(I)) trees.push_back(tree_structure(args));
        }(),
        ...);
  }
  (std::index_sequence_for<Args...>{});
  return trees;
}
/// Whether the dynamic arguments have the structures `trees` (no allocation: jit's hit path).
template <class Statics, class... Args>
bool args_match(const std::vector<PyTreeDef>& trees, const Args&... args) {
  std::size_t k = 0;
  bool ok = true;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          if constexpr (!Statics::contains(I)) ok = ok && pytree::matches(args, trees.at(k++));
        }(),
        ...);
  }
  (std::index_sequence_for<Args...>{});
  return ok;
}

/// With WithTrees false, `trees` stays empty (arg_trees gives them when needed).
template <class Statics, bool WithValues, bool WithTrees = true, class... Args>
CollectedArgs collect_args(const Args&... args) {
  CollectedArgs c;
  std::size_t n = 0;  // the dynamic leaves, counted first so that each vector allocates once
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          if constexpr (!Statics::contains(I))
            pytree::for_each_leaf(args, [&](const auto&) { ++n; });
        }(),
        ...);
  }
  (std::index_sequence_for<Args...>{});
  c.avals.reserve(n);
  if constexpr (WithValues) c.values.reserve(n);
  auto visit = [&]<std::size_t I, class A>(std::integral_constant<std::size_t, I>, const A& a) {
    if constexpr (Statics::contains(I)) {
      c.static_hash = c.static_hash * 1000003u ^ std::hash<A>{}(a);
    } else {
      auto leaf = [&](const auto& l) {
        using L = std::remove_cvref_t<decltype(l)>;
        if constexpr (Expr<L>) {
          Array m = l;
          c.avals.push_back(arg_aval(m, I));
          if constexpr (WithValues) c.values.push_back(arg_value(m, c.avals.back()));
        } else {
          c.avals.push_back(arg_aval(l, I));
          if constexpr (WithValues) c.values.push_back(arg_value(l, c.avals.back()));
        }
      };
      if constexpr (pytree::is_node_v<A>) {
        pytree::for_each_leaf(a, leaf);
        if constexpr (WithTrees) c.trees.push_back(tree_structure(a));
      } else {
        leaf(a);
        if constexpr (WithTrees) c.trees.emplace_back();
      }
    }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (visit(std::integral_constant<std::size_t, I>{}, args), ...);
  }
  (std::index_sequence_for<Args...>{});
  return c;
}

/// Runs `body(scope)` in a new trace for `site` and returns what it returns (which must hold no
/// tracer of that trace). Every trace opens here, so that:
/// - an fj::Error escaping the body names the traced function and its caller's file:line (the
///   innermost trace only: the one whose function raised), and is rethrown with its type;
/// - with leak checking on (fj::checking_leaks), a tracer of the trace still referenced once
///   the body's locals (its tracer arguments, the function's result) are gone is reported.
template <class Body>
auto run_trace(const TraceSite& site, Body&& body) {
  std::shared_ptr<TraceState> ended;  // the one reference left to the machinery, when checking
  auto r = [&] {
    TraceScope scope(site);
    try {
      auto out = body(scope);
      if (leak_checking()) ended = scope.ptr();
      return out;
    } catch (Error& e) {
      e.add_trace_note("The error occurred while tracing " + site.str() + ".");
      throw;
    }
  }();
  if (ended) check_no_leaks(std::move(ended));
  return r;
}

/// A traced function as the library calls it: given the tracers of the dynamic leaves, it calls
/// the user's function and lowers the result's leaves into `outs` (flatten_output), returning the
/// result's structure. The template wrappers below build it; everything else is library code.
using TraceBody =
    FunctionRef<PyTreeDef(std::vector<Array>& tracers, LowerCtx& ctx, std::vector<ir::Atom>& outs)>;

/// Traces `body` at top level, its tracers of the given avals, into a finished graph.
TraceResult trace_flat(const TraceSite& site, std::span<const ir::Aval> avals, TraceBody body);

/// Traces f once. `avals` are the avals of the dynamic arguments' leaves, in order; `trees` the
/// dynamic arguments' structures.
template <class Statics, class F, class... Args>
TraceResult trace_function(const F& f, const TraceSite& site, std::span<const ir::Aval> avals,
                           const std::vector<PyTreeDef>& trees, const Args&... args) {
  return trace_flat(site, avals,
                    [&](std::vector<Array>& tracers, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
                      auto result = call_traced<Statics>(f, tracers, trees, args...);
                      return flatten_output(ctx, result, outs);
                    });
}

}  // namespace fj::detail
