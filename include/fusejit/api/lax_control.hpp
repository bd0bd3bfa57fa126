// fj::lax control flow: cond, while_loop, fori_loop and scan, staged as JAX stages them (one
// `cond` / `while` / `scan` equation whose closed sub-graphs take the captured values as leading
// operands). Outside a trace each call traces itself into a small graph and runs it eagerly.
//
// Operands, carries and xs are fj::Array (or expressions, or C++ scalars: weakly typed like
// Python scalars), or std::tuple / std::pair of those, nested. The functions receive the same
// structure with every leaf an fj::Array.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/subtrace.hpp"

namespace fj::detail::lax_impl {

/// A leaf (array, expression, scalar) or a tuple / pair of trees: flattened to arrays in order,
/// and rebuilt with every leaf an Array.
template <class T>
struct Tree {
  static_assert(ArrayLike<T> || std::is_arithmetic_v<T>,
                "fj::lax: operands, carries and xs must be fj::Array, expressions, C++ scalars, "
                "or std::tuple / std::pair of those");
  static constexpr std::size_t size = 1;
  using out = Array;
  static void flatten(const T& v, std::vector<Array>& o) {
    if constexpr (std::is_same_v<T, Array>)
      o.push_back(v);
    else if constexpr (std::is_arithmetic_v<T>)
      o.push_back(literal_array(ir::Literal::of(v, !std::is_same_v<T, bool>)));
    else
      o.push_back(Array(v));
  }
  static out unflatten(const std::vector<Array>& v, std::size_t& pos) { return v.at(pos++); }
};
template <class... T>
struct Tree<std::tuple<T...>> {
  static constexpr std::size_t size = (Tree<std::remove_cvref_t<T>>::size + ... + 0);
  using out = std::tuple<typename Tree<std::remove_cvref_t<T>>::out...>;
  static void flatten(const std::tuple<T...>& v, std::vector<Array>& o) {
    std::apply([&](const auto&... e) { (Tree<std::remove_cvref_t<T>>::flatten(e, o), ...); }, v);
  }
  static out unflatten(const std::vector<Array>& v, std::size_t& pos) {
    return out{Tree<std::remove_cvref_t<T>>::unflatten(v, pos)...};  // braces: left to right
  }
};
template <class A, class B>
struct Tree<std::pair<A, B>> {
  using TA = Tree<std::remove_cvref_t<A>>;
  using TB = Tree<std::remove_cvref_t<B>>;
  static constexpr std::size_t size = TA::size + TB::size;
  using out = std::pair<typename TA::out, typename TB::out>;
  static void flatten(const std::pair<A, B>& v, std::vector<Array>& o) {
    TA::flatten(v.first, o);
    TB::flatten(v.second, o);
  }
  static out unflatten(const std::vector<Array>& v, std::size_t& pos) {
    return out{TA::unflatten(v, pos), TB::unflatten(v, pos)};
  }
};

template <class T>
using tree_t = Tree<std::remove_cvref_t<T>>;
template <class T>
using out_t = typename tree_t<T>::out;

template <class T>
std::vector<Array> flatten(const T& v) {
  std::vector<Array> o;
  tree_t<T>::flatten(v, o);
  return o;
}
template <class T>
out_t<T> unflatten(const std::vector<Array>& v, std::size_t pos = 0) {
  return tree_t<T>::unflatten(v, pos);
}

/// Runs `staged(inputs)` in the active trace, or, outside any trace, traces it into a graph of
/// its own (inputs as invars) and runs that with the default backend.
std::vector<Array> stage_or_run(
    const std::string& name, const std::vector<Array>& inputs,
    const std::function<std::vector<Array>(std::vector<Array>&)>& staged);

/// The closing halves: check the traced sub-graphs, merge their captured values into leading
/// operands, apply JAX's forwarding rewrites and emit the equation into the active trace.
std::vector<Array> emit_cond(const Array& pred, const SubGraph& true_g, const SubGraph& false_g,
                             const std::vector<Array>& operands);
std::vector<Array> emit_while(const SubGraph& cond_g, const SubGraph& body_g,
                              const std::vector<Array>& init);
std::vector<Array> emit_scan(const SubGraph& body, const std::vector<Array>& init,
                             const std::vector<Array>& xs, std::int64_t length, bool reverse,
                             const std::string& who);

/// JAX's _promote_weak_typed_input: a weakly typed init whose loop output has another dtype is
/// converted to the promoted type (the loop is then traced again). Returns whether any changed.
bool promote_weak_carry(std::vector<Array>& init, const SubGraph& body, const std::string& who);

/// lax-level primitives on arrays of the active trace (no jnp promotion): lt, add of a
/// literal of the operand's own type.
Array lax_lt(const Array& a, const Array& b);
Array lax_add_const(const Array& a, std::int64_t c);
/// A concrete integer scalar's value (C++ integer or untraced 0-d integer Array), if it has one.
bool concrete_int(const Array& a, std::int64_t& v);

/// Calls f with the arguments rebuilt from flat `args` as the structures Ts.
template <class... Ts, class F>
decltype(auto) call_unflat(F& f, const std::vector<Array>& args) {
  [[maybe_unused]] std::size_t pos = 0;
  std::tuple<out_t<Ts>...> tup{tree_t<Ts>::unflatten(args, pos)...};
  return std::apply(f, tup);
}

// scan over flat carries and xs; the body maps (carry structure C, x structure X) to a pair
// (carry, y) whose y has `n_y` leaves. Returns carries then stacked ys.
template <class C, class X, class F>
std::vector<Array> scan_flat(F& f, const std::vector<Array>& init, const std::vector<Array>& xs,
                             std::int64_t length, bool reverse, const std::string& who) {
  std::vector<Array> in = init;
  in.insert(in.end(), xs.begin(), xs.end());
  const std::size_t n_carry = init.size();
  return stage_or_run(who, in, [&](std::vector<Array>& args) {
    std::vector<Array> carry(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(n_carry));
    std::vector<Array> x(args.begin() + static_cast<std::ptrdiff_t>(n_carry), args.end());
    std::vector<ir::Aval> x_avals;
    for (auto& a : x) {
      ir::Aval av = a.aval();
      if (av.shape.rank() == 0)
        throw ValueError(who + ": scan got a value with no leading axis to scan over: " + av.str());
      Shape s;
      for (int d = 1; d < av.shape.rank(); ++d) s.push_back(av.shape[d]);
      x_avals.push_back(ir::Aval{av.dtype, s, av.weak});
    }
    auto trace = [&] {
      std::vector<ir::Aval> avals = detail::avals_of(carry);
      avals.insert(avals.end(), x_avals.begin(), x_avals.end());
      return trace_subgraph(who + "_body", avals, [&](std::vector<Array>& a) {
        std::vector<Array> c(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n_carry));
        std::vector<Array> xv(a.begin() + static_cast<std::ptrdiff_t>(n_carry), a.end());
        std::size_t pc = 0, px = 0;
        out_t<C> cs = tree_t<C>::unflatten(c, pc);
        out_t<X> xs_ = tree_t<X>::unflatten(xv, px);
        return f(cs, xs_);
      });
    };
    SubGraph body = trace();
    if (promote_weak_carry(carry, body, who)) body = trace();
    return emit_scan(body, carry, x, length, reverse, who);
  });
}

}  // namespace fj::detail::lax_impl

namespace fj::lax {

/// `true_fn(operands...)` if pred else `false_fn(operands...)`, both traced and staged as one
/// `cond` equation (the predicate may be traced). A non-bool pred is compared with 0.
template <class Pred, class TrueFn, class FalseFn, class... Operands>
auto cond(const Pred& pred, TrueFn&& true_fn, FalseFn&& false_fn, const Operands&... operands) {
  namespace L = detail::lax_impl;
  using R = std::remove_cvref_t<std::invoke_result_t<TrueFn&, L::out_t<Operands>&...>>;
  std::vector<Array> in = L::flatten(pred);
  if (in.size() != 1) throw TypeError("lax.cond: pred must be one scalar array");
  (L::tree_t<Operands>::flatten(operands, in), ...);
  std::vector<Array> outs = L::stage_or_run("cond", in, [&](std::vector<Array>& args) {
    std::vector<Array> ops(args.begin() + 1, args.end());
    const auto avals = detail::avals_of(ops);
    auto t = detail::trace_subgraph("cond_true", avals, [&](std::vector<Array>& a) {
      return L::call_unflat<Operands...>(true_fn, a);
    });
    auto f = detail::trace_subgraph("cond_false", avals, [&](std::vector<Array>& a) {
      return L::call_unflat<Operands...>(false_fn, a);
    });
    return L::emit_cond(args[0], t, f, ops);
  });
  return L::unflatten<R>(outs);
}

/// `while cond_fn(carry): carry = body_fn(carry)`, staged as one `while` equation.
template <class CondFn, class BodyFn, class Init>
auto while_loop(CondFn&& cond_fn, BodyFn&& body_fn, const Init& init) {
  namespace L = detail::lax_impl;
  std::vector<Array> in = L::flatten(init);
  std::vector<Array> outs = L::stage_or_run("while", in, [&](std::vector<Array>& args) {
    std::vector<Array> carry = args;
    auto trace = [&] {
      const auto avals = detail::avals_of(carry);
      auto c = detail::trace_subgraph("while_cond", avals, [&](std::vector<Array>& a) {
        return L::call_unflat<Init>(cond_fn, a);
      });
      auto b = detail::trace_subgraph("while_body", avals, [&](std::vector<Array>& a) {
        return L::call_unflat<Init>(body_fn, a);
      });
      return std::make_pair(std::move(c), std::move(b));
    };
    auto [c, b] = trace();
    if (L::promote_weak_carry(carry, b, "lax.while_loop")) std::tie(c, b) = trace();
    return L::emit_while(c, b, carry);
  });
  return L::unflatten<Init>(outs);
}

/// `scan(f, init, xs)`: f(carry, x) -> pair(carry, y) over the leading axis of xs (an array or a
/// tuple of arrays); returns (final carry, ys stacked along a new leading axis).
template <class F, class Init, class Xs>
auto scan(F&& f, const Init& init, const Xs& xs, bool reverse = false) {
  namespace L = detail::lax_impl;
  using R = std::remove_cvref_t<std::invoke_result_t<F&, L::out_t<Init>&, L::out_t<Xs>&>>;
  static_assert(detail::is_tuple_like<R>::value && std::tuple_size_v<R> == 2,
                "fj::lax::scan: f must return a pair (carry, y)");
  using C = std::remove_cvref_t<std::tuple_element_t<0, R>>;
  using Y = std::remove_cvref_t<std::tuple_element_t<1, R>>;
  static_assert(L::tree_t<C>::size == L::tree_t<Init>::size,
                "fj::lax::scan: f's carry output must have the structure of init");
  const std::vector<Array> init_flat = L::flatten(init), xs_flat = L::flatten(xs);
  std::int64_t length = -1;
  for (auto& x : xs_flat) {
    if (x.ndim() == 0)
      throw ValueError("lax.scan: got a value with no leading axis to scan over: " +
                       x.aval().str());
    if (length >= 0 && x.shape()[0] != length)
      throw ValueError("lax.scan: xs have leading axes of different lengths: " +
                       std::to_string(length) + " and " + std::to_string(x.shape()[0]));
    length = x.shape()[0];
  }
  if (length < 0) throw ValueError("lax.scan: xs must hold at least one array");
  auto body = [&](L::out_t<Init>& c, L::out_t<Xs>& x) { return f(c, x); };
  std::vector<Array> outs =
      L::scan_flat<Init, Xs>(body, init_flat, xs_flat, length, reverse, "scan");
  std::size_t pos = 0;
  auto carry = L::tree_t<Init>::unflatten(outs, pos);
  auto ys = L::tree_t<Y>::unflatten(outs, pos);
  return std::make_pair(std::move(carry), std::move(ys));
}

/// `for i in [lower, upper): carry = body(i, carry)`. Concrete bounds (C++ integers or untraced
/// arrays) run as a `scan` of length upper - lower with an i32 counter carry, as JAX does;
/// traced bounds as a `while` with carry (i, upper, carry).
template <class Lo, class Hi, class Body, class Init>
auto fori_loop(const Lo& lower, const Hi& upper, Body&& body, const Init& init) {
  namespace L = detail::lax_impl;
  static_assert(!std::is_floating_point_v<Lo> && !std::is_floating_point_v<Hi>,
                "fj::lax::fori_loop: bounds must be integers");
  Array lo = L::flatten(lower).at(0), hi = L::flatten(upper).at(0);
  if (!is_int(lo.dtype()) || !is_int(hi.dtype()) || lo.ndim() != 0 || hi.ndim() != 0)
    throw TypeError("lax.fori_loop: bounds must be integer scalars, got " + lo.aval().str() +
                    " and " + hi.aval().str());
  std::int64_t lo_v = 0, hi_v = 0;
  const std::vector<Array> init_flat = L::flatten(init);
  if (L::concrete_int(lo, lo_v) && L::concrete_int(hi, hi_v)) {
    // The counter starts as a weak i32 literal, as JAX's `lower_` (a Python int).
    std::vector<Array> carry{detail::literal_array(ir::Literal::of(lo_v, true))};
    carry.insert(carry.end(), init_flat.begin(), init_flat.end());
    using C = std::tuple<Array, L::out_t<Init>>;
    auto step = [&](std::tuple<Array, L::out_t<Init>>& c, std::tuple<>&) {
      Array i = std::get<0>(c);
      auto next = body(i, std::get<1>(c));
      return std::make_tuple(std::make_tuple(L::lax_add_const(i, 1), next), std::tuple<>{});
    };
    std::vector<Array> outs = L::scan_flat<C, std::tuple<>>(
        step, carry, {}, std::max<std::int64_t>(hi_v - lo_v, 0), false, "fori_loop");
    return L::unflatten<Init>(outs, 1);
  }
  if (lo.dtype() != hi.dtype()) {
    if (lo.weak_type() && !hi.weak_type())
      lo = Array(lo.astype(hi.dtype()));
    else if (hi.weak_type() && !lo.weak_type())
      hi = Array(hi.astype(lo.dtype()));
    else
      throw TypeError("lax.fori_loop: lower and upper must have equal types, got " +
                      lo.aval().str() + " and " + hi.aval().str());
  }
  using C = std::tuple<Array, Array, Init>;
  auto t = std::tuple_cat(std::make_tuple(lo, hi), std::tuple<const Init&>(init));
  auto outs = while_loop(
      [](const std::tuple<Array, Array, L::out_t<Init>>& c) {
        return L::lax_lt(std::get<0>(c), std::get<1>(c));
      },
      [&](std::tuple<Array, Array, L::out_t<Init>>& c) {
        Array i = std::get<0>(c);
        auto next = body(i, std::get<2>(c));
        return std::make_tuple(L::lax_add_const(i, 1), std::get<1>(c), next);
      },
      C(t));
  return std::get<2>(outs);
}

}  // namespace fj::lax
