// Tracing a C++ function: tracer arguments in, its outputs lowered into a finished graph.
#pragma once
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fusejit/api/static_argnums.hpp"
#include "fusejit/expr/materialize.hpp"

namespace fj::detail {

template <class T>
struct is_tuple_like : std::false_type {};
template <class... T>
struct is_tuple_like<std::tuple<T...>> : std::true_type {};
template <class A, class B>
struct is_tuple_like<std::pair<A, B>> : std::true_type {};

template <class T>
concept OutputLeaf = ArrayLike<T> || std::is_arithmetic_v<std::remove_cvref_t<T>>;

template <class R>
constexpr void check_output_type() {
  using D = std::remove_cvref_t<R>;
  if constexpr (is_tuple_like<D>::value) {
    []<std::size_t... I>(std::index_sequence<I...>) {
      (check_output_type<std::tuple_element_t<I, D>>(), ...);
    }
    (std::make_index_sequence<std::tuple_size_v<D>>{});
  } else {
    static_assert(
        OutputLeaf<D>,
        "fj::jit: the traced function must return fj::Array, an expression, a C++ scalar, "
        "or a std::tuple / std::pair of those");
  }
}

/// The C++ type a jitted call returns for a function returning R: Array for each leaf, a
/// std::tuple for each tuple or pair (nested ones too).
template <class R, class = void>
struct jit_result {
  using type = Array;
};
template <class R>
struct jit_result<R, std::enable_if_t<is_tuple_like<std::remove_cvref_t<R>>::value>> {
  using D = std::remove_cvref_t<R>;
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>)
      -> std::tuple<typename jit_result<std::tuple_element_t<I, D>>::type...>;
  using type = decltype(make(std::make_index_sequence<std::tuple_size_v<D>>{}));
};

template <class T>
void flatten_output(LowerCtx& ctx, T&& r, std::vector<ir::Atom>& outs) {
  using D = std::remove_cvref_t<T>;
  if constexpr (is_tuple_like<D>::value) {
    std::apply([&](auto&&... e) { (flatten_output(ctx, e, outs), ...); }, r);
  } else if constexpr (std::is_same_v<D, Array>) {
    outs.push_back(lower_output(ctx, r));
  } else if constexpr (Expr<D>) {
    outs.push_back(r.lower(ctx));
  } else {
    outs.push_back(ctx.scalar_leaf(r));
  }
}

/// Rebuilds R's structure from its flattened leaves, starting at outs[next].
template <class R>
typename jit_result<R>::type unflatten_at(std::vector<Array>& outs, std::size_t& next) {
  using D = std::remove_cvref_t<R>;
  if constexpr (is_tuple_like<D>::value) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      // Braced initialization evaluates left to right, so leaves are taken in order.
      return typename jit_result<R>::type{unflatten_at<std::tuple_element_t<I, D>>(outs, next)...};
    }
    (std::make_index_sequence<std::tuple_size_v<D>>{});
  } else {
    return std::move(outs[next++]);
  }
}

template <class R>
auto unflatten_result(std::vector<Array>&& outs) {
  std::size_t next = 0;
  return unflatten_at<R>(outs, next);
}

/// The abstract value a dynamic argument is traced with. C++ scalars are weakly typed, like
/// Python scalars passed to jax.jit.
ir::Aval arg_aval(const Array& a, std::size_t index);
template <class T>
requires std::is_arithmetic_v<T> ir::Aval arg_aval(const T&, std::size_t) {
  if constexpr (std::is_same_v<T, bool>)
    return {DType::bool_, Shape{}, false};
  else if constexpr (std::is_floating_point_v<T>)
    return {DType::f32, Shape{}, true};
  else
    return {DType::i32, Shape{}, true};
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

/// The argument as the traced function receives it: a tracer, or the static value itself.
template <class Statics, std::size_t I, class A>
using traced_arg_t =
    std::conditional_t<Statics::contains(I), const std::remove_cvref_t<A>&, Array&>;

template <class Statics, class A>
constexpr void check_arg_kind(std::size_t) {
  using D = std::remove_cvref_t<A>;
  static_assert(
      ArrayLike<D> || std::is_arithmetic_v<D>,
      "fj::jit: a dynamic argument must be fj::Array, an expression or a C++ scalar; pass other "
      "types through fj::static_argnums<...>");
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
};

/// Compiles a traced graph with the default backend.
Compiled compile_traced(TraceResult&& r);

/// Traces f once. `avals[i]` is the aval of the i-th dynamic argument.
template <class Statics, class F, class... Args>
TraceResult trace_function(const F& f, const std::string& name, const std::vector<ir::Aval>& avals,
                           const Args&... args) {
  TraceScope scope(name);
  TraceState& ts = scope.state();
  std::vector<Array> tracers;
  tracers.reserve(avals.size());
  for (auto& av : avals)
    tracers.push_back(Array::from_trace(scope.ptr(), ts.builder.add_invar(av)));
  std::size_t next = 0;
  auto pick = [&]<std::size_t I, class A>(std::integral_constant<std::size_t, I>,
                                          const A& a) -> decltype(auto) {
    if constexpr (Statics::contains(I))
      return (a);
    else
      return (tracers[next++]);
  };
  auto result = [&]<std::size_t... I>(std::index_sequence<I...>) {
    // Arguments are picked in order, so tracers bind to dynamic arguments left to right.
    std::tuple<traced_arg_t<Statics, I, Args>...> call_args{
        pick(std::integral_constant<std::size_t, I>{}, args)...};
    return std::apply(f, call_args);
  }
  (std::index_sequence_for<Args...>{});
  LowerCtx ctx{ts.builder, &ts};
  std::vector<ir::Atom> outs;
  flatten_output(ctx, result, outs);
  ts.builder.graph.outvars = std::move(outs);
  TraceResult r;
  for (std::size_t i = 0; i < ts.consts.size(); ++i)  // a top-level trace captures no tracers
    r.consts.push_back({ts.consts[i].buf, ts.builder.graph.aval(ts.const_vars[i])});
  r.graph = std::make_shared<const ir::Graph>(std::move(ts.builder.graph));
  return r;
}

}  // namespace fj::detail
