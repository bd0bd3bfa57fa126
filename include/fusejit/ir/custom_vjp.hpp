// The forward and backward functions of a custom_vjp_call equation (jax.custom_vjp's defvjp),
// as the IR holds them: opaque params `fwd` and `bwd` that print as the functions' names and
// emit their equations. Reverse mode calls them instead of differentiating call_jaxpr.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/builder.hpp"

namespace fj::ir {

/// A custom VJP rule (the `fwd` param). It derives from Callback only to travel as a param
/// (printed form, name, identity); no backend ever calls it.
class CustomVjpRule : public Callback {
 public:
  /// Emits into `b` the user's forward function on the call's operands: the call's results,
  /// then the residuals.
  virtual std::vector<Atom> forward(GraphBuilder& b, const std::vector<Atom>& operands) const = 0;
  /// Emits into `b` the user's backward function: one cotangent per operand (each of its
  /// operand's aval; zeros for the closed-over values that lead the operands), given the
  /// residuals the forward function returned and one cotangent per result.
  virtual std::vector<Atom> backward(GraphBuilder& b, const std::vector<Atom>& residuals,
                                     const std::vector<Atom>& cts) const = 0;
  /// The name the `bwd` param prints.
  virtual std::string bwd_repr() const = 0;
};

/// The `bwd` param: prints as the backward function's name (the rule itself is `fwd`).
class CustomVjpBwdName final : public Callback {
 public:
  explicit CustomVjpBwdName(std::string n) : n_(std::move(n)) {}
  std::string repr() const override { return n_; }
  std::string name() const override { return n_; }

 private:
  std::string n_;
};

/// The rule of a custom_vjp_call equation (its `fwd` param); a malformed one is a ValueError.
inline std::shared_ptr<const CustomVjpRule> custom_vjp_rule(const Params& params) {
  auto rule = std::dynamic_pointer_cast<const CustomVjpRule>(params.get<CallbackPtr>("fwd"));
  if (!rule) throw ValueError("custom_vjp_call: its fwd param is not a custom VJP rule");
  return rule;
}

/// The params of a custom_vjp_call, JAX's: name, bwd, call_jaxpr, fwd, symbolic_zeros.
inline Params custom_vjp_params(const std::string& name, GraphPtr call,
                                std::shared_ptr<const CustomVjpRule> rule) {
  Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back(
      {"bwd", CallbackPtr(std::make_shared<const CustomVjpBwdName>(rule->bwd_repr())), true});
  p.items.push_back({"call_jaxpr", std::move(call), true});
  p.items.push_back({"fwd", CallbackPtr(std::move(rule)), true});
  p.items.push_back({"symbolic_zeros", false, true});
  return p;
}

}  // namespace fj::ir
