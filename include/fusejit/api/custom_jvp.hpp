// fj::custom_jvp: a function with its own forward-mode derivative, as jax.custom_jvp + defjvp.
// Traced, a call is one custom_jvp_call equation whose call_jaxpr is the primal function and
// whose jvp param is the user's rule; grad and jvp use the rule, never the primal's equations.
#pragma once
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/ir/custom_jvp.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"

namespace fj {
namespace detail {

/// The rule of an fj::custom_jvp: traces the user's jvp function on the call's operands (the
/// closed-over values, its leading operands, get no tangents) and inlines its tangent.
template <class J>
class UserJvpRule final : public ir::CustomJvpRule {
 public:
  UserJvpRule(J jvp, std::string name, std::size_t n_consts, std::source_location loc)
      : jvp_(std::move(jvp)), name_(std::move(name)), n_consts_(n_consts), loc_(loc) {}
  std::string repr() const override { return name_ + "_jvp"; }
  std::string name() const override { return "the JVP rule of " + name_; }
  std::vector<ir::Atom> tangents(ir::GraphBuilder& b, const std::vector<ir::Atom>& primals,
                                 const std::vector<ir::Atom>&,
                                 const std::vector<ir::Atom>& tangents) const override {
    const std::size_t n = primals.size() - n_consts_;
    std::vector<ir::Aval> avals;
    std::vector<ir::Atom> args;
    for (std::size_t i = n_consts_; i < primals.size(); ++i)
      avals.push_back(b.aval(primals[i])), args.push_back(primals[i]);
    for (std::size_t i = n_consts_; i < tangents.size(); ++i)
      avals.push_back(b.aval(tangents[i])), args.push_back(tangents[i]);
    SubGraph s = trace_subgraph({name_ + " (jvp)", "fj::custom_jvp", loc_}, avals,
                                [&](std::vector<Array>& v) {
                                  std::vector<Array> p(v.begin(), v.begin() + n);
                                  std::vector<Array> t(v.begin() + n, v.end());
                                  auto [po, to] = jvp_(p, t);
                                  (void)po;  // the primal result comes from the call itself
                                  return to;
                                });
    if (!s.consts.empty())
      throw ValueError("fj::custom_jvp: the JVP function of " + name_ +
                       " closes over arrays or tracers; pass them as arguments instead");
    return ir::detail::inline_into(b.graph, *s.graph, args, true, true);
  }

 private:
  J jvp_;
  std::string name_;
  std::size_t n_consts_;
  std::source_location loc_;
};

template <class F, class J>
struct CustomJvpFn {
  F f;
  J jvp;
  std::string name;
  std::source_location loc;

  /// f's result on arrays: an array, or a pytree of them (declared: jit of the call needs it).
  template <class... A>
  using result_t = std::remove_cvref_t<decltype(std::declval<const F&>()(
      std::declval<std::conditional_t<true, Array&, A>>()...))>;

  template <class... A>
  traced_t<result_t<A...>> operator()(const A&... a) const {
    if (!current_trace()) return traced_jit(*this, name, loc)(a...);
    std::vector<Array> args{as_array(a)...};
    SubGraph s =
        trace_subgraph({name, "fj::custom_jvp", loc}, avals_of(args), [&](std::vector<Array>& t) {
          return [&]<std::size_t... I>(std::index_sequence<I...>) { return f(t[I]...); }
          (std::index_sequence_for<A...>{});
        });
    auto rule = std::make_shared<const UserJvpRule<J>>(jvp, name, s.consts.size(), loc);
    std::vector<Array> results = emit_closed_call(
        ir::Prim::custom_jvp_call, s, args,
        [&](ir::GraphPtr closed) { return ir::custom_jvp_params(name, std::move(closed), rule); });
    return unflatten_result<result_t<A...>>(s.out_tree, std::move(results));
  }
};

}  // namespace detail

/// A function of arrays with its own derivative (jax.custom_jvp with defjvp): `f(x...)` returns
/// an array or a pytree of arrays; `jvp(primals, tangents)`, both std::vector<fj::Array> with
/// one entry per argument, returns the pair (f(primals...), its directional derivative along
/// tangents, of f's result structure), which must be linear in the tangents (grad transposes
/// it). Differentiating the result (fj::grad,
/// fj::jvp) uses `jvp` and never differentiates f; vmap batches both. `name` is printed in its
/// custom_jvp_call equation. The JVP function may not close over arrays (pass them as
/// arguments); values f closes over are held as leading operands and get no tangent.
template <class F, class J>
auto custom_jvp(F f, J jvp, std::string name = "custom_jvp",
                std::source_location loc = std::source_location::current()) {
  return detail::CustomJvpFn<F, J>{std::move(f), std::move(jvp), std::move(name), loc};
}

}  // namespace fj
