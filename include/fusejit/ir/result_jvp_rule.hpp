// A custom_jvp rule in JAX's defjvp form: it computes the call's results as well as their
// tangents, from the operands alone (jnp.linalg.det's _det_jvp). Reverse mode linearizes such a
// rule as JAX's linearize does (transforms/linearize_call.cpp): its results, and every value of
// it the tangents read, are computed in the forward pass; only its tangent part is transposed.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/ir/custom_jvp.hpp"

namespace fj::ir {

/// A rule written as a C++ function over the builder from the operands and their tangents to
/// the results, then the results' tangents.
class ResultJvpRule final : public CustomJvpRule {
 public:
  using Fn = std::function<std::vector<Atom>(GraphBuilder&, const std::vector<Atom>&,
                                             const std::vector<Atom>&)>;
  ResultJvpRule(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string repr() const override { return name_; }
  std::string name() const override { return name_; }
  /// Emits the call's results, then their tangents.
  std::vector<Atom> jvp(GraphBuilder& b, const std::vector<Atom>& primals,
                        const std::vector<Atom>& tangents) const {
    return fn_(b, primals, tangents);
  }
  /// The tangents alone (forward mode, batching): the results the rule also emits are left for
  /// dead-code elimination.
  std::vector<Atom> tangents(GraphBuilder& b, const std::vector<Atom>& primals,
                             const std::vector<Atom>& outs,
                             const std::vector<Atom>& tangents) const override {
    std::vector<Atom> r = fn_(b, primals, tangents);
    r.erase(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(std::min(outs.size(), r.size())));
    return r;
  }

 private:
  std::string name_;
  Fn fn_;
};

}  // namespace fj::ir
