// fj::grad, value_and_grad, jvp, vjp, vmap and stop_gradient: each traces the function into a
// graph, transforms the graph (transforms/transforms.hpp) and calls the result from the active
// trace. Called outside any trace, grad and vmap run through an fj::jit of themselves, so a
// transformed function is compiled once per argument avals and then dispatched from cache.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/transforms/transforms.hpp"

namespace fj {

/// Which positional arguments grad differentiates: fj::argnums{0, 2}.
template <std::size_t N>
struct argnums {
  std::array<int, N> v{};
  template <class... I>
  constexpr argnums(I... i) : v{static_cast<int>(i)...} {}
};
template <class... I>
argnums(I...) -> argnums<sizeof...(I)>;

/// vmap's mapped axis per argument or output; fj::none for an unmapped (broadcast) one. One
/// entry applies to every argument (or output), as JAX's in_axes=0.
template <std::size_t N>
struct in_axes {
  std::array<std::optional<int>, N> v{};
  template <class... I>
  constexpr in_axes(I... i) : v{std::optional<int>(i)...} {}
};
template <class... I>
in_axes(I...) -> in_axes<sizeof...(I)>;
template <std::size_t N>
struct out_axes {
  std::array<std::optional<int>, N> v{};
  template <class... I>
  constexpr out_axes(I... i) : v{std::optional<int>(i)...} {}
};
template <class... I>
out_axes(I...) -> out_axes<sizeof...(I)>;

namespace detail {

/// An argument as an Array: arrays as they are, expressions evaluated (or recorded), C++
/// scalars as weakly typed rank-0 arrays, as Python scalars are.
template <class T>
Array as_array(const T& v) {
  if constexpr (std::is_same_v<T, Array>)
    return v;
  else if constexpr (Expr<T>)
    return Array(v);
  else
    return literal_array(ir::Literal::of(v, !std::is_same_v<T, bool>));
}

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
/// Checks grad's preconditions: float arguments at `wrt`, one scalar float output.
void check_grad_args(const char* who, const std::vector<Array>& args, const std::vector<int>& wrt);
void check_grad_output(const char* who, const ir::Graph& g);

/// Forward mode on arrays, inside a trace: f's outputs and their tangents.
std::pair<std::vector<Array>, std::vector<Array>> jvp_call(const detail::SubGraph& s,
                                                           const std::vector<Array>& primals,
                                                           const std::vector<Array>& tangents);

/// Batching on arrays, inside a trace.
std::vector<Array> vmap_call(
    const std::string& name, const std::vector<Array>& args,
    const std::vector<std::optional<int>>& in, const std::vector<std::optional<int>>& out,
    const std::function<detail::SubGraph(const std::vector<ir::Aval>&)>& trace);

template <class F, std::size_t N, bool WithValue>
struct GradFn {
  F f;
  std::array<int, N> wrt;
  template <class... A>
  auto operator()(const A&... a) const {
    constexpr std::size_t n = sizeof...(A);
    std::vector<Array> args{as_array(a)...};
    const std::vector<int> w(wrt.begin(), wrt.end());
    const char* who = WithValue ? "fj::value_and_grad" : "fj::grad";
    check_grad_args(who, args, w);
    SubGraph s = trace_subgraph("grad", avals_of(args), [&](std::vector<Array>& t) {
      return call_with(f, t, std::make_index_sequence<n>{});
    });
    check_grad_output(who, *s.graph);
    const ir::Graph& g = *s.graph;
    VjpOut r = vjp_call(s, args, w, {one_like(g.aval(g.outvars[0]))});
    auto grads = [&]() {
      if constexpr (N == 1)
        return std::move(r.grads[0]);
      else
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
          return std::make_tuple(std::move(r.grads[I])...);
        }
      (std::make_index_sequence<N>{});
    };
    if constexpr (WithValue)
      return std::make_tuple(std::move(r.outs[0]), grads());
    else
      return grads();
  }
};

template <class F, std::size_t NI, std::size_t NO>
struct VmapFn {
  F f;
  std::array<std::optional<int>, NI> in;
  std::array<std::optional<int>, NO> out;
  template <class... A>
  auto operator()(const A&... a) const {
    constexpr std::size_t n = sizeof...(A);
    using R = traced_result_t<F, n>;
    std::vector<Array> outs =
        vmap_call("vmap", {as_array(a)...}, {in.begin(), in.end()}, {out.begin(), out.end()},
                  [&](const std::vector<ir::Aval>& avals) {
                    return trace_subgraph("vmap", avals, [&](std::vector<Array>& t) {
                      return call_with(f, t, std::make_index_sequence<n>{});
                    });
                  });
    return unflatten_result<R>(std::move(outs));
  }
};

/// A transformed function: inside a trace it records the transformation's equations; outside
/// it runs through a jit of itself (one compile per argument avals).
template <class Fn>
class Transformed {
 public:
  Transformed(Fn fn, std::string name) : fn_(fn), jitted_(fn, std::move(name)) {}
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
/// fj::grad(f)(x), fj::grad(f, fj::argnums{0, 1})(x, y) -> std::tuple of gradients.
template <class F, std::size_t N = 1>
auto grad(F f, argnums<N> which = argnums<1>{0}) {
  return detail::Transformed(detail::GradFn<F, N, false>{std::move(f), which.v}, "grad");
}
/// (f(x), grad(f)(x)) from one trace.
template <class F, std::size_t N = 1>
auto value_and_grad(F f, argnums<N> which = argnums<1>{0}) {
  return detail::Transformed(detail::GradFn<F, N, true>{std::move(f), which.v}, "value_and_grad");
}

/// The function mapped over a leading (or the given) axis of its arguments.
template <class F, std::size_t NI = 1, std::size_t NO = 1>
auto vmap(F f, in_axes<NI> in = in_axes<1>{0}, out_axes<NO> out = out_axes<1>{0}) {
  return detail::Transformed(detail::VmapFn<F, NI, NO>{std::move(f), in.v, out.v}, "vmap");
}

/// Forward mode: (f(primals...), the directional derivative along tangents), each shaped as
/// f's result.
template <class F, std::size_t N>
auto jvp(const F& f, const std::array<Array, N>& primals, const std::array<Array, N>& tangents) {
  using R = detail::traced_result_t<F, N>;
  auto body = [f](const auto&... pt) {
    std::vector<Array> all{detail::as_array(pt)...};
    std::vector<Array> p(all.begin(), all.begin() + N), t(all.begin() + N, all.end());
    detail::SubGraph s =
        detail::trace_subgraph("jvp", detail::avals_of(p), [&](std::vector<Array>& a) {
          return detail::call_with(f, a, std::make_index_sequence<N>{});
        });
    auto [outs, touts] = detail::jvp_call(s, p, t);
    return std::make_pair(detail::unflatten_result<R>(std::move(outs)),
                          detail::unflatten_result<R>(std::move(touts)));
  };
  auto run = [&](auto&& fn) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return fn(primals[I]..., tangents[I]...);
    }
    (std::make_index_sequence<N>{});
  };
  if (detail::current_trace()) return run(body);
  auto r = run(fj::jit(body, "jvp"));
  return std::make_pair(std::move(std::get<0>(r)), std::move(std::get<1>(r)));
}

/// Reverse mode: (f(primals...), a function from output cotangents to the primals'
/// cotangents, returned as a std::array). The forward pass is recomputed by each call of it.
template <class F, std::size_t N>
auto vjp(const F& f, const std::array<Array, N>& primals) {
  using R = detail::traced_result_t<F, N>;
  auto back = [f](const std::vector<Array>& p, const std::vector<Array>& cts) {
    detail::SubGraph s =
        detail::trace_subgraph("vjp", detail::avals_of(p), [&](std::vector<Array>& a) {
          return detail::call_with(f, a, std::make_index_sequence<N>{});
        });
    std::vector<int> wrt(N);
    for (std::size_t i = 0; i < N; ++i) wrt[i] = static_cast<int>(i);
    return detail::vjp_call(s, p, wrt, cts);
  };
  auto fwd = [&]<std::size_t... I>(std::index_sequence<I...>) {
    if (detail::current_trace()) return detail::as_array(f(primals[I]...));
    return detail::as_array(fj::jit(f, "vjp")(primals[I]...));
  }
  (std::make_index_sequence<N>{});
  static_assert(!detail::is_tuple_like<std::remove_cvref_t<R>>::value,
                "fj::vjp: the function must return one array");
  auto pullback = [back, primals](const Array& ct) {
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
      return fj::jit(body, "vjp")(primals[I]..., ct);
    }
    (std::make_index_sequence<N>{});
    return std::apply([](auto&&... g) { return std::array<Array, N>{std::move(g)...}; },
                      std::move(tup));
  };
  return std::make_pair(std::move(fwd), std::move(pullback));
}

/// x, with a zero derivative: gradients do not flow through it (lax.stop_gradient).
Array stop_gradient(const Array& x);
template <detail::Expr E>
Array stop_gradient(const E& e) {
  return stop_gradient(Array(e));
}

}  // namespace fj
