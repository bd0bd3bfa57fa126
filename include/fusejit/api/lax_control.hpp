// fj::lax control flow: cond, while_loop, fori_loop and scan, staged as JAX stages them (one
// `cond` / `while` / `scan` equation whose closed sub-graphs take the captured values as leading
// operands). Outside a trace each call traces itself into a small graph and runs it eagerly.
//
// Operands, carries and xs are pytrees (fj::tree_*) of fj::Array (or expressions, or C++
// scalars: weakly typed like Python scalars). The functions receive the same structure with
// every leaf an fj::Array; a carry whose structure changes raises fj::TypeError.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/subtrace.hpp"
#include "fusejit/expr/array_methods.hpp"

namespace fj::detail::lax_impl {

template <class T>
using out_t = traced_t<T>;

/// The lax entry point called and where, for the traces it opens: errors raised while tracing
/// a branch or body name it.
struct LaxSite {
  const char* api;
  std::source_location loc;
  TraceSite of(std::string fn) const { return {std::move(fn), api, loc}; }
};

/// lax.cond's predicate, taken as the first argument so that the caller's line can be recorded
/// (a defaulted parameter cannot follow cond's operand pack): one scalar, as an array.
struct CondPred {
  Array value;
  std::source_location loc;
  template <class P>
  CondPred(const P& p, std::source_location l = std::source_location::current())
      : value(as_array(p)), loc(l) {
    static_assert(!pytree::is_node_v<P>, "fj::lax::cond: pred must be one scalar");
    static_assert(array_tree_v<P>, "fj::lax::cond: pred must be an array, expression or scalar");
  }
};

/// Raises TypeError when a loop body's carry (or a branch's result) has another structure
/// than the init's (or the other branch's).
void check_structure(const std::string& who, const std::string& what, const PyTreeDef& got,
                     const std::string& want_what, const PyTreeDef& want);

/// Runs `staged(inputs)` in the active trace, or, outside any trace, traces it into a graph of
/// its own (inputs as invars) and runs that with the default backend.
std::vector<Array> stage_or_run(
    const std::string& name, const LaxSite& at, const std::vector<Array>& inputs,
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

/// Calls f with the arguments rebuilt from flat `args` as the structures `trees` of types Ts.
template <class... Ts, class F>
decltype(auto) call_unflat(F& f, const std::vector<Array>& args,
                           const std::vector<PyTreeDef>& trees) {
  return [&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    [[maybe_unused]] std::size_t pos = 0;
    // Braced initialization: leaves are taken in order.
    std::tuple<out_t<Ts>...> tup{unflatten_arrays<Ts>(trees.at(I), args, pos)...};
    return std::apply(f, tup);
  }
  (std::index_sequence_for<Ts...>{});
}

/// The loops' and cond's cores on flat arrays (library code); the templates below only rebuild
/// the user's pytrees around `body`, `cond_body` and the branches.
/// scan over the carries `init` (structure `c_tree`) and the leading axis of `xs`: `body` gets
/// the carry leaves then the x leaves and lowers (carry, y). Returns the carries, then the
/// stacked ys, and sets `y_tree` to y's structure.
std::vector<Array> scan_traced(const std::vector<Array>& init, const PyTreeDef& c_tree,
                               const std::vector<Array>& xs, PyTreeDef& y_tree, std::int64_t length,
                               bool reverse, const std::string& who, const LaxSite& at,
                               TraceBody body);
/// while over the carry leaves `init` of structure `tree`.
std::vector<Array> while_traced(const std::vector<Array>& init, const PyTreeDef& tree,
                                const LaxSite& at, TraceBody cond_body, TraceBody body);
/// cond on `in` = (predicate, operand leaves...); sets `out_tree` to the branches' structure.
std::vector<Array> cond_traced(const std::vector<Array>& in, const LaxSite& at, TraceBody true_body,
                               TraceBody false_body, PyTreeDef& out_tree);

/// A TraceBody calling `f` on the tracers rebuilt as the structures `trees` of types Ts.
template <class... Ts, class F>
auto unflat_body(F& f, const std::vector<PyTreeDef>& trees) {
  return [&f, &trees](std::vector<Array>& a, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
    auto result = call_unflat<Ts...>(f, a, trees);
    return flatten_output(ctx, result, outs);
  };
}

// scan over flat carries and xs; the body maps (carry of type C and structure c_tree, x of type
// X and structure x_tree) to a pair (carry, y). Returns carries then stacked ys, and sets
// `y_tree` to y's structure.
template <class C, class X, class F>
std::vector<Array> scan_flat(F& f, const std::vector<Array>& init, const PyTreeDef& c_tree,
                             const std::vector<Array>& xs, const PyTreeDef& x_tree,
                             PyTreeDef& y_tree, std::int64_t length, bool reverse,
                             const std::string& who, const LaxSite& at) {
  const std::size_t n_carry = init.size();
  return scan_traced(
      init, c_tree, xs, y_tree, length, reverse, who, at,
      [&](std::vector<Array>& a, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
        std::vector<Array> c(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n_carry));
        std::vector<Array> xv(a.begin() + static_cast<std::ptrdiff_t>(n_carry), a.end());
        out_t<C> cs = unflatten_arrays<C>(c_tree, c);
        out_t<X> xs_ = unflatten_arrays<X>(x_tree, xv);
        auto result = f(cs, xs_);
        return flatten_output(ctx, result, outs);
      });
}

/// lax.while_loop, called by fj::lax::while_loop and by fori_loop with traced bounds.
template <class CondFn, class BodyFn, class Init>
auto while_loop(CondFn& cond_fn, BodyFn& body_fn, const Init& init, const LaxSite& at) {
  using B = std::remove_cvref_t<std::invoke_result_t<BodyFn&, out_t<Init>&>>;
  static_assert(std::is_same_v<out_t<B>, out_t<Init>>,
                "fj::lax::while_loop: body_fn must return a carry of init's pytree type");
  std::vector<Array> in = flatten_arrays(init);
  const std::vector<PyTreeDef> trees{tree_structure(init)};
  std::vector<Array> outs = while_traced(in, trees[0], at, unflat_body<Init>(cond_fn, trees),
                                         unflat_body<Init>(body_fn, trees));
  return unflatten_arrays<Init>(trees[0], outs);
}

}  // namespace fj::detail::lax_impl

namespace fj::lax {

/// `true_fn(operands...)` if pred else `false_fn(operands...)`, both traced and staged as one
/// `cond` equation (the predicate may be traced). A non-bool pred is compared with 0.
template <class TrueFn, class FalseFn, class... Operands>
auto cond(const detail::lax_impl::CondPred& pred, TrueFn&& true_fn, FalseFn&& false_fn,
          const Operands&... operands) {
  namespace L = detail::lax_impl;
  using R = std::remove_cvref_t<std::invoke_result_t<TrueFn&, L::out_t<Operands>&...>>;
  using RF = std::remove_cvref_t<std::invoke_result_t<FalseFn&, L::out_t<Operands>&...>>;
  static_assert(std::is_same_v<L::out_t<R>, L::out_t<RF>>,
                "fj::lax::cond: true_fn and false_fn must return the same pytree type");
  const L::LaxSite at{"fj::lax::cond", pred.loc};
  std::vector<Array> in{pred.value};
  const std::vector<PyTreeDef> trees{tree_structure(operands)...};
  (detail::flatten_arrays(operands, in), ...);
  PyTreeDef out_tree;
  std::vector<Array> outs = L::cond_traced(in, at, L::unflat_body<Operands...>(true_fn, trees),
                                           L::unflat_body<Operands...>(false_fn, trees), out_tree);
  return detail::unflatten_arrays<R>(out_tree, outs);
}

/// `while cond_fn(carry): carry = body_fn(carry)`, staged as one `while` equation.
template <class CondFn, class BodyFn, class Init>
auto while_loop(CondFn&& cond_fn, BodyFn&& body_fn, const Init& init,
                std::source_location loc = std::source_location::current()) {
  return detail::lax_impl::while_loop(cond_fn, body_fn, init, {"fj::lax::while_loop", loc});
}

/// `scan(f, init, xs)`: f(carry, x) -> pair(carry, y) over the leading axis of xs's leaves (xs
/// a pytree of arrays); returns (final carry, ys stacked along a new leading axis).
template <class F, class Init, class Xs>
auto scan(F&& f, const Init& init, const Xs& xs, bool reverse = false,
          std::source_location loc = std::source_location::current()) {
  namespace L = detail::lax_impl;
  using R = std::remove_cvref_t<std::invoke_result_t<F&, L::out_t<Init>&, L::out_t<Xs>&>>;
  static_assert(detail::pytree::FixedPair<R>, "fj::lax::scan: f must return a pair (carry, y)");
  using C = std::remove_cvref_t<std::tuple_element_t<0, R>>;
  using Y = std::remove_cvref_t<std::tuple_element_t<1, R>>;
  static_assert(std::is_same_v<L::out_t<C>, L::out_t<Init>>,
                "fj::lax::scan: f's carry output must have init's pytree type");
  const std::vector<Array> init_flat = detail::flatten_arrays(init),
                           xs_flat = detail::flatten_arrays(xs);
  const PyTreeDef c_tree = tree_structure(init), x_tree = tree_structure(xs);
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
  PyTreeDef y_tree;
  std::vector<Array> outs = L::scan_flat<Init, Xs>(body, init_flat, c_tree, xs_flat, x_tree, y_tree,
                                                   length, reverse, "scan", {"fj::lax::scan", loc});
  std::size_t pos = 0;
  auto carry = detail::unflatten_arrays<Init>(c_tree, outs, pos);
  auto ys = detail::unflatten_arrays<Y>(y_tree, outs, pos);
  return std::make_pair(std::move(carry), std::move(ys));
}

/// `for i in [lower, upper): carry = body(i, carry)`. Concrete bounds (C++ integers or untraced
/// arrays) run as a `scan` of length upper - lower with an i32 counter carry, as JAX does;
/// traced bounds as a `while` with carry (i, upper, carry).
template <class Lo, class Hi, class Body, class Init>
auto fori_loop(const Lo& lower, const Hi& upper, Body&& body, const Init& init,
               std::source_location loc = std::source_location::current()) {
  namespace L = detail::lax_impl;
  const L::LaxSite at{"fj::lax::fori_loop", loc};
  static_assert(!std::is_floating_point_v<Lo> && !std::is_floating_point_v<Hi>,
                "fj::lax::fori_loop: bounds must be integers");
  static_assert(!detail::pytree::is_node_v<Lo> && !detail::pytree::is_node_v<Hi>,
                "fj::lax::fori_loop: bounds must be integer scalars");
  Array lo = detail::as_array(lower), hi = detail::as_array(upper);
  if (!is_int(lo.dtype()) || !is_int(hi.dtype()) || lo.ndim() != 0 || hi.ndim() != 0)
    throw TypeError("lax.fori_loop: bounds must be integer scalars, got " + lo.aval().str() +
                    " and " + hi.aval().str());
  std::int64_t lo_v = 0, hi_v = 0;
  const std::vector<Array> init_flat = detail::flatten_arrays(init);
  const PyTreeDef init_tree = tree_structure(init);
  // The body's carry must keep init's structure.
  auto checked_body = [&](Array& i, auto& c) {
    auto next = body(i, c);
    L::check_structure("lax.fori_loop", "body_fun returns a carry of structure",
                       tree_structure(next), "init_val has", init_tree);
    return next;
  };
  if (L::concrete_int(lo, lo_v) && L::concrete_int(hi, hi_v)) {
    // The counter starts as a weak i32 literal, as JAX's `lower_` (a Python int).
    std::vector<Array> carry{detail::literal_array(ir::Literal::of(lo_v, true))};
    carry.insert(carry.end(), init_flat.begin(), init_flat.end());
    using C = std::tuple<Array, L::out_t<Init>>;
    auto step = [&](std::tuple<Array, L::out_t<Init>>& c, std::tuple<>&) {
      Array i = std::get<0>(c);
      // `i + 1` is staged before the body's equations, as JAX's `(i + 1, body_fun(i, x))`
      // evaluates left to right (a function argument list would not fix the order).
      Array i_next = L::lax_add_const(i, 1);
      auto next = checked_body(i, std::get<1>(c));
      return std::make_tuple(std::make_tuple(i_next, next), std::tuple<>{});
    };
    PyTreeDef c_tree;
    c_tree.kind = PyTreeDef::Kind::tuple;
    c_tree.children = {PyTreeDef{}, init_tree};
    PyTreeDef y_tree;
    std::vector<Array> outs = L::scan_flat<C, std::tuple<>>(
        step, carry, c_tree, {}, tree_structure(std::tuple<>{}), y_tree,
        std::max<std::int64_t>(hi_v - lo_v, 0), false, "fori_loop", at);
    std::size_t pos = 1;
    return detail::unflatten_arrays<Init>(init_tree, outs, pos);
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
  auto cond_fn = [](const std::tuple<Array, Array, L::out_t<Init>>& c) {
    return L::lax_lt(std::get<0>(c), std::get<1>(c));
  };
  auto body_fn = [&](std::tuple<Array, Array, L::out_t<Init>>& c) {
    Array i = std::get<0>(c);
    Array i_next = L::lax_add_const(i, 1);  // before the body, as in JAX's _fori_body_fun
    auto next = checked_body(i, std::get<2>(c));
    return std::make_tuple(i_next, std::get<1>(c), next);
  };
  auto outs = L::while_loop(cond_fn, body_fn, C(t), at);
  return std::get<2>(outs);
}

}  // namespace fj::lax
