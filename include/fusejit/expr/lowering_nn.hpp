// jax.nn's functions, jnp.var / std and jnp.linalg.norm as JAX stages them, and the staging of a
// custom_jvp_call (defined in lowering_nn.cpp and lowering_stats.cpp).
#pragma once
#include <concepts>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/expr/axes.hpp"
#include "fusejit/expr/lowering.hpp"
#include "fusejit/ir/custom_jvp.hpp"

namespace fj::detail {

/// A `custom_jvp_call[name=... call_jaxpr=... jvp=rule]` equation: `body` traced once per name,
/// variant and operand avals (shared, as call_named's), differentiated by `rule`.
std::vector<Atom> call_custom_jvp(GraphBuilder& b, const std::string& name,
                                  const std::vector<Atom>& ops, const SubgraphBody& body,
                                  std::shared_ptr<const ir::CustomJvpRule> rule,
                                  const std::string& variant = "");

/// The sorted non-negative axes of `axes` for an operand of shape `s`; out of range or repeated
/// raises ShapeError naming `fn`, the axis and the shape (as fj::sum does).
std::vector<std::int64_t> canonical_axes(const Shape& s, const Axes& axes, const char* fn);

/// jax.nn.relu: custom_jvp_call[name=relu] around jit[name=relu](max(x, 0)); derivative 0 at 0.
Atom lower_relu(GraphBuilder& b, Atom x);
/// jax.nn.softplus: jit[name=softplus](logaddexp(x, 0)).
Atom lower_softplus(GraphBuilder& b, Atom x);
/// jax.nn.gelu: the tanh approximation, or the exact form with erfc (and JAX's `copy`).
Atom lower_gelu(GraphBuilder& b, Atom x, bool approximate);
/// jax.nn.silu: jit[name=silu](x * logistic(x)).
Atom lower_silu(GraphBuilder& b, Atom x);
/// jax.nn.log_softmax / softmax over `axes` (the max subtracted behind stop_gradient).
Atom lower_log_softmax(GraphBuilder& b, Atom x, const Axes& axes);
Atom lower_softmax(GraphBuilder& b, Atom x, const Axes& axes);
/// jax.nn.logsumexp, optionally with weights `bw` (b in JAX); with `sign`, also the sign of the
/// weighted sum (return_sign=True), else NaN where that sum is negative.
std::vector<Atom> lower_logsumexp(GraphBuilder& b, Atom x, std::optional<Atom> bw, const Axes& axes,
                                  bool keepdims, bool sign);
/// jax.nn.one_hot: jit[name=_one_hot], x == iota along `axis` of the result, as `dtype`.
Atom lower_one_hot(GraphBuilder& b, Atom x, std::int64_t num_classes, DType dtype, int axis);

/// jnp.var / jnp.std: jit[name=_var] (and jit[name=_std] around it) with ddof as an operand.
Atom lower_var(GraphBuilder& b, Atom x, const Axes& axes, std::int64_t ddof, bool keepdims);
Atom lower_std(GraphBuilder& b, Atom x, const Axes& axes, std::int64_t ddof, bool keepdims);

/// jnp.linalg.norm's `ord`: a number (inf, -inf, 0, 1, 2, p) or "fro" / "nuc".
struct NormOrd {
  bool is_default = true;
  double p = 2;
  std::string name;  // "fro" or "nuc" when set
};
/// jnp.linalg.norm over `axes` (fj::none: all, the 2-norm of the flattened array by default).
Atom lower_norm(GraphBuilder& b, Atom x, const NormOrd& ord, const Axes& axes, bool keepdims);

}  // namespace fj::detail
