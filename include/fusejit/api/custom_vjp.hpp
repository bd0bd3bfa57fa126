// fj::custom_vjp: a function with its own reverse-mode derivative, as jax.custom_vjp + defvjp.
// Traced, a call is one custom_vjp_call equation whose call_jaxpr is the primal function and
// whose fwd and bwd params are the user's functions; grad runs fwd for the residuals and bwd
// for the cotangents, never differentiating the primal's equations.
#pragma once
#include <memory>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/eval_shape.hpp"
#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/ir/custom_vjp.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"

namespace fj {

/// custom_vjp's nondiff_argnums: arguments passed to f, fwd and bwd as they are (C++ values
/// such as a step count or a function object, compared as jit's static arguments), never
/// differentiated; bwd receives them first, as in JAX. fj::nondiff_argnums<0>.
template <std::size_t... I>
inline constexpr static_argnums_t<I...> nondiff_argnums{};

namespace detail {

/// Traces `fn` (fwd or bwd) on operands of the given avals, rebuilt by `call` from the tracers,
/// and inlines its equations into `b` at `args`; its result's leaves are returned with its
/// structure in `tree`. A function closing over arrays raises fj::ValueError naming it.
std::vector<ir::Atom> inline_user_function(ir::GraphBuilder& b, const TraceSite& site,
                                           const std::vector<ir::Atom>& args, TraceBody call,
                                           PyTreeDef& tree);
/// Checks a user function's result leaves against the avals they must have (`what`: "fwd's
/// primal output", "bwd's cotangent for argument 1"), naming the function: fj::TypeError.
void check_user_avals(const std::string& who, const std::string& what,
                      const std::vector<ir::Aval>& got, const std::vector<ir::Aval>& want);

/// The arguments a rule keeps: the non-differentiable ones' values, and for the others only
/// their types (a kept tracer would outlive its trace).
template <class Statics, class Seq, class... A>
struct kept_args;
template <class Statics, std::size_t... I, class... A>
struct kept_args<Statics, std::index_sequence<I...>, A...> {
  using type = std::tuple<std::conditional_t<Statics::contains(I), A, std::monostate>...>;
  static type keep(const A&... a) {
    return type{[&]() -> std::tuple_element_t<I, type> {
      if constexpr (Statics::contains(I))
        return a;
      else
        return {};
    }()...};
  }
};
template <class Statics, class... A>
using kept_args_t = kept_args<Statics, std::index_sequence_for<A...>, A...>;

/// f called on the kept non-differentiable values and, for the others, the tracers `t`
/// rebuilt with the structures `trees` (call_traced for kept arguments).
template <class Statics, class... A, class F, class Kept>
decltype(auto) call_kept(const F& f, const Kept& kept, const std::vector<Array>& t,
                         const std::vector<PyTreeDef>& trees) {
  std::size_t pos = 0, tree = 0;
  return [&]<std::size_t... I>(std::index_sequence<I...>)->decltype(auto) {
    auto pick = [&]<std::size_t J>(std::integral_constant<std::size_t, J>)
        -> stored_arg_t<Statics, J, std::tuple_element_t<J, std::tuple<A...>>> {
      using AJ = std::tuple_element_t<J, std::tuple<A...>>;
      if constexpr (Statics::contains(J))
        return std::get<J>(kept);
      else
        return unflatten_arrays<AJ>(trees.at(tree++), t, pos);
    };
    // Braced initialization picks arguments in order: tracers bind to leaves left to right.
    std::tuple<stored_arg_t<Statics, I, A>...> args{
        pick(std::integral_constant<std::size_t, I>{})...};
    return std::apply(f, args);
  }
  (std::index_sequence_for<A...>{});
}

/// Zeros of the avals `first`, emitted into `b`, then `rest`: bwd's cotangents behind those of
/// the closed-over values.
std::vector<ir::Atom> with_zeros_first(ir::GraphBuilder& b, const std::vector<ir::Aval>& first,
                                       const std::vector<ir::Atom>& rest);

/// The rule of an fj::custom_vjp call: fwd and bwd traced on the call's operands (the
/// closed-over values of f, its leading operands, get zero cotangents) and inlined.
template <class Statics, class Fwd, class Bwd, class... A>
class UserVjpRule final : public ir::CustomVjpRule {
 public:
  UserVjpRule(Fwd fwd, Bwd bwd, std::string name, std::size_t n_consts,
              typename kept_args_t<Statics, A...>::type args, std::vector<PyTreeDef> trees,
              std::vector<ir::Aval> in_avals, PyTreeDef out_tree, std::vector<ir::Aval> out_avals,
              std::source_location loc)
      : fwd_(std::move(fwd)),
        bwd_(std::move(bwd)),
        name_(std::move(name)),
        n_consts_(n_consts),
        args_(std::move(args)),
        trees_(std::move(trees)),
        in_avals_(std::move(in_avals)),
        out_tree_(std::move(out_tree)),
        out_avals_(std::move(out_avals)),
        loc_(loc) {}
  std::string repr() const override { return name_ + "_fwd"; }
  std::string name() const override { return "the fwd function of " + name_; }
  std::string bwd_repr() const override { return name_ + "_bwd"; }

  std::vector<ir::Atom> forward(ir::GraphBuilder& b,
                                const std::vector<ir::Atom>& operands) const override {
    const std::vector<ir::Atom> args(operands.begin() + static_cast<std::ptrdiff_t>(n_consts_),
                                     operands.end());
    PyTreeDef tree;
    std::vector<ir::Atom> r = inline_user_function(
        b, {name_ + "_fwd", "fj::custom_vjp", loc_}, args,
        [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
          auto result = call_kept<Statics, A...>(fwd_, args_, t, trees_);
          static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(result)>> == 2,
                        "fj::custom_vjp: fwd must return a pair (f's output, residuals)");
          return flatten_output(ctx, result, outs);
        },
        tree);
    if (tree.children.size() != 2 || !(tree.children[0] == out_tree_))
      throw TypeError("fj::custom_vjp: " + name_ + "_fwd's primal output has structure " +
                      (tree.children.empty() ? tree.str() : tree.children[0].str()) + " but " +
                      name_ + " returns " + out_tree_.str());
    std::vector<ir::Aval> got;
    for (std::size_t k = 0; k < out_avals_.size(); ++k) got.push_back(b.aval(r[k]));
    check_user_avals("fj::custom_vjp: " + name_ + "_fwd", "primal output", got, out_avals_);
    res_tree_ = tree.children[1];
    return r;
  }

  std::vector<ir::Atom> backward(ir::GraphBuilder& b, const std::vector<ir::Atom>& residuals,
                                 const std::vector<ir::Atom>& cts) const override {
    std::vector<ir::Atom> args = residuals;
    args.insert(args.end(), cts.begin(), cts.end());
    PyTreeDef tree;
    const std::string who = "fj::custom_vjp: " + name_ + "_bwd";
    std::vector<ir::Atom> r = inline_user_function(
        b, {name_ + "_bwd", "fj::custom_vjp", loc_}, args,
        [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
          std::size_t pos = 0;
          using Res = std::tuple_element_t<1, fwd_result_t>;
          auto res = unflatten_arrays<Res>(res_tree_, t, pos);
          auto ct = unflatten_arrays<out_t>(out_tree_, t, pos);
          auto result = call_bwd(res, ct);
          return flatten_output(ctx, result, outs);
        },
        tree);
    std::vector<ir::Aval> got;
    for (const ir::Atom& a : r) got.push_back(b.aval(a));
    if (got.size() != in_avals_.size())
      throw TypeError(who + " returned " + std::to_string(got.size()) + " cotangent leaves (" +
                      tree.str() + ") for " + std::to_string(in_avals_.size()) +
                      " differentiable argument leaves; it must return a tuple with one "
                      "cotangent per argument, each of its argument's structure");
    check_user_avals(who, "cotangent", got, in_avals_);
    return with_zeros_first(b, const_avals, r);
  }

  /// The closed-over values' avals, for their zero cotangents (set by the call).
  std::vector<ir::Aval> const_avals;

 private:
  using fwd_result_t = std::remove_cvref_t<decltype(call_traced<Statics>(
      std::declval<const Fwd&>(), std::declval<const std::vector<Array>&>(),
      std::declval<const std::vector<PyTreeDef>&>(), std::declval<const A&>()...))>;
  using out_t = std::tuple_element_t<0, fwd_result_t>;

  // bwd(nondiff args..., residuals, cotangent), as JAX calls it.
  template <class Res, class Ct>
  auto call_bwd(const Res& res, const Ct& ct) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::apply([&](const auto&... nd) { return bwd_(nd..., res, ct); },
                        std::tuple_cat(nondiff_arg<I>()...));
    }
    (std::index_sequence_for<A...>{});
  }
  template <std::size_t I>
  auto nondiff_arg() const {
    if constexpr (Statics::contains(I))
      return std::tuple<const std::tuple_element_t<I, std::tuple<A...>>&>(std::get<I>(args_));
    else
      return std::tuple<>();
  }

  Fwd fwd_;
  Bwd bwd_;
  std::string name_;
  std::size_t n_consts_;
  typename kept_args_t<Statics, A...>::type args_;  // the non-differentiable values
  std::vector<PyTreeDef> trees_;
  std::vector<ir::Aval> in_avals_;  // the differentiable arguments' leaves
  PyTreeDef out_tree_;
  std::vector<ir::Aval> out_avals_;
  mutable PyTreeDef res_tree_;  // fwd's residuals, known once fwd has been traced
  std::source_location loc_;
};

/// Stages a custom_vjp_call of the traced `s` (f's graph, its consts leading the operands),
/// with the rule, on the dynamic leaves `leaves`; returns its outputs.
std::vector<Array> emit_custom_vjp_call(const std::string& name, const SubGraph& s,
                                        const std::vector<Array>& leaves,
                                        std::shared_ptr<const ir::CustomVjpRule> rule);

template <class F, class Fwd, class Bwd, class Statics>
struct CustomVjpFn {
  F f;
  Fwd fwd;
  Bwd bwd;
  std::string name;
  std::source_location loc;

  /// f's result on traced arguments (declared: jit of the call needs it before the body).
  template <class... A>
  using result_t = std::remove_cvref_t<decltype(call_traced<Statics>(
      std::declval<const F&>(), std::declval<const std::vector<Array>&>(),
      std::declval<const std::vector<PyTreeDef>&>(), std::declval<const A&>()...))>;

  template <class... A>
  traced_t<result_t<A...>> operator()(const A&... a) const {
    if (!current_trace()) {
      return [&]<std::size_t... I>(static_argnums_t<I...> s) {
        return traced_jit(*this, name, loc, s)(a...);
      }
      (Statics{});
    }
    std::vector<Array> leaves;
    std::vector<PyTreeDef> trees;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            if constexpr (!Statics::contains(I)) {
              flatten_arrays(a, leaves);
              trees.push_back(tree_structure(a));
            }
          }(),
          ...);
    }
    (std::index_sequence_for<A...>{});
    const std::vector<ir::Aval> avals = avals_of(leaves);
    using R = result_t<A...>;
    SubGraph s =
        trace_subgraph_flat({name, "fj::custom_vjp", loc}, avals,
                            [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
                              auto result = call_traced<Statics>(f, t, trees, a...);
                              return flatten_output(ctx, result, outs);
                            });
    std::vector<ir::Aval> out_avals;
    for (const ir::Atom& o : s.graph->outvars) out_avals.push_back(s.graph->aval(o));
    auto rule = std::make_shared<UserVjpRule<Statics, Fwd, Bwd, A...>>(
        fwd, bwd, name, s.consts.size(), kept_args_t<Statics, A...>::keep(a...), trees, avals,
        s.out_tree, out_avals, loc);
    for (const Array& k : s.consts) rule->const_avals.push_back(k.aval());
    std::vector<Array> outs = emit_custom_vjp_call(name, s, leaves, rule);
    return unflatten_result<R>(s.out_tree, std::move(outs));
  }
};

}  // namespace detail

/// A function with its own reverse-mode derivative (jax.custom_vjp with defvjp).
/// `f(args...)` returns an array or a pytree of arrays; `fwd(args...)` returns the pair
/// (f(args...), residuals), residuals any pytree of arrays; `bwd(residuals, cotangent)`, the
/// cotangent of f's output structure, returns a std::tuple with one cotangent per argument, each
/// of its argument's structure. With fj::nondiff_argnums<I...>, those arguments are passed as
/// they are to f, fwd and bwd (bwd receives them first, as in JAX) and get no cotangent.
/// Reverse mode (grad, vjp, jacrev) runs fwd and bwd and never differentiates f; forward mode
/// (jvp, jacfwd) raises fj::TypeError as JAX does; vmap batches f, fwd and bwd. `name` is
/// printed in its custom_vjp_call equation (fwd and bwd print as name_fwd and name_bwd).
/// auto f = fj::custom_vjp(f_impl, f_fwd, f_bwd, "f");
template <class F, class Fwd, class Bwd, std::size_t... I>
auto custom_vjp(F f, Fwd fwd, Bwd bwd, static_argnums_t<I...>, std::string name = "custom_vjp",
                std::source_location loc = std::source_location::current()) {
  return detail::CustomVjpFn<F, Fwd, Bwd, static_argnums_t<I...>>{
      std::move(f), std::move(fwd), std::move(bwd), std::move(name), loc};
}
/// custom_vjp without non-differentiable arguments.
template <class F, class Fwd, class Bwd>
auto custom_vjp(F f, Fwd fwd, Bwd bwd, std::string name = "custom_vjp",
                std::source_location loc = std::source_location::current()) {
  return detail::CustomVjpFn<F, Fwd, Bwd, static_argnums_t<>>{std::move(f), std::move(fwd),
                                                              std::move(bwd), std::move(name), loc};
}

}  // namespace fj
