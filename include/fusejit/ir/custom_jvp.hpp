// The tangent rule of a custom_jvp_call equation (jax.custom_jvp's defjvp), as the IR holds it:
// an opaque `jvp` param that prints as the rule's name and emits the tangents of the call's
// results. The forward-mode pass calls it instead of differentiating the call's sub-graph.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/builder.hpp"

namespace fj::ir {

/// A custom JVP rule. It derives from Callback only to travel as a param (printed form, name,
/// identity for sharing equal sub-graphs); no backend ever calls it.
class CustomJvpRule : public Callback {
 public:
  /// Emits into `b` the tangents of the call's results, one per result, given its operands,
  /// its results and one tangent per operand: zeros where none flows in (JAX's
  /// symbolic_zeros=False), each of its operand's aval. The tangents must be linear in
  /// `tangents` (reverse mode transposes them).
  virtual std::vector<Atom> tangents(GraphBuilder& b, const std::vector<Atom>& primals,
                                     const std::vector<Atom>& outs,
                                     const std::vector<Atom>& tangents) const = 0;
};

/// A rule written as a C++ function over the builder (the jnp and nn functions' rules).
class FunctionJvpRule final : public CustomJvpRule {
 public:
  using Fn = std::function<std::vector<Atom>(GraphBuilder&, const std::vector<Atom>&,
                                             const std::vector<Atom>&, const std::vector<Atom>&)>;
  FunctionJvpRule(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string repr() const override { return name_; }
  std::string name() const override { return name_; }
  std::vector<Atom> tangents(GraphBuilder& b, const std::vector<Atom>& primals,
                             const std::vector<Atom>& outs,
                             const std::vector<Atom>& tangents) const override {
    return fn_(b, primals, outs, tangents);
  }

 private:
  std::string name_;
  Fn fn_;
};

/// The rule of a custom_jvp_call equation (its `jvp` param); a malformed one is a ValueError.
inline const CustomJvpRule& custom_jvp_rule(const Params& params) {
  const auto* rule = dynamic_cast<const CustomJvpRule*>(params.get<CallbackPtr>("jvp").get());
  if (!rule) throw ValueError("custom_jvp_call: its jvp param is not a tangent rule");
  return *rule;
}

/// The params of a custom_jvp_call, in JAX's print order: name, call_jaxpr, jvp,
/// symbolic_zeros.
inline Params custom_jvp_params(const std::string& name, GraphPtr call,
                                std::shared_ptr<const CustomJvpRule> rule) {
  Params p;
  p.items.push_back({"name", name, true});
  p.items.push_back({"call_jaxpr", std::move(call), true});
  p.items.push_back({"jvp", CallbackPtr(std::move(rule)), true});
  p.items.push_back({"symbolic_zeros", false, true});
  return p;
}

/// The sub-graph a call equation runs: `call_jaxpr` for custom_jvp_call and custom_vjp_call,
/// `lowered` (the whole axis at once) for shard_map, `jaxpr` otherwise.
inline const char* call_param(Prim p) {
  return p == Prim::custom_jvp_call || p == Prim::custom_vjp_call ? "call_jaxpr"
         : p == Prim::shard_map                                   ? "lowered"
                                                                  : "jaxpr";
}

}  // namespace fj::ir
