// fj::checkpoint / fj::remat (jax.checkpoint) and fj::checkpoint_name: a function whose
// intermediate values reverse mode recomputes in the backward pass instead of keeping them from
// the forward pass, trading compute for memory; a policy chooses what is kept anyway.
#pragma once
#include <initializer_list>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"

namespace fj {

/// What a checkpointed function keeps from its forward pass for the backward pass (JAX's
/// jax.checkpoint_policies). The values the policy does not save are recomputed.
struct CheckpointPolicy {
  std::string repr = "None";       ///< as JAX prints the policy in remat2's params
  std::string saves = "nothing";   ///< nothing, everything, dots, dots_no_batch or names
  std::vector<std::string> names;  ///< for save_only_these_names
};

/// The policies of jax.checkpoint_policies.
namespace checkpoint_policies {
/// Save nothing: recompute every intermediate value (JAX's default, policy=None).
inline const CheckpointPolicy nothing_saveable{"None", "nothing", {}};
/// Save everything: the same as no checkpoint.
inline const CheckpointPolicy everything_saveable{
    "<function everything_saveable>", "everything", {}};
/// Save the results of matrix products (dot_general); recompute the elementwise work.
inline const CheckpointPolicy dots_saveable{
    "DotsSaveable(only_if_no_batch_dims=False)", "dots", {}};
/// Save the results of matrix products without batch dimensions only.
inline const CheckpointPolicy dots_with_no_batch_dims_saveable{
    "DotsSaveable(only_if_no_batch_dims=True)", "dots_no_batch", {}};
/// Save only the values named with fj::checkpoint_name(x, name) for one of `names`.
CheckpointPolicy save_only_these_names(std::initializer_list<std::string> names);
}  // namespace checkpoint_policies

/// fj::checkpoint's keyword arguments (jax.checkpoint's): fj::checkpoint(f, {.policy =
/// fj::checkpoint_policies::dots_saveable}).
struct checkpoint_options {
  /// What the forward pass keeps for the backward pass; the rest is recomputed.
  CheckpointPolicy policy = checkpoint_policies::nothing_saveable;
  /// JAX's prevent_cse: printed in remat2's params. fusejit has no common-subexpression
  /// elimination that could merge the recomputation with the forward pass, so it changes nothing.
  bool prevent_cse = true;
};

/// x, named for checkpoint policies (jax.ad_checkpoint.checkpoint_name): the identity, staged as
/// a `name[name=...]` equation that save_only_these_names looks for.
///@{
Array checkpoint_name(const Array& x, const std::string& name);
template <detail::Expr E>
Array checkpoint_name(const E& e, const std::string& name) {
  return checkpoint_name(Array(e), name);
}
///@}

namespace detail {

/// Stages remat2[differentiated=False jaxpr policy prevent_cse] of the traced `s` on the dynamic
/// leaves (its captured values lead the operands); returns its outputs.
std::vector<Array> emit_remat(const SubGraph& s, const std::vector<Array>& leaves,
                              const checkpoint_options& opt);

template <class F>
struct CheckpointFn {
  F f;
  checkpoint_options opt;
  std::source_location loc;

  template <class... A>
  using result_t = std::remove_cvref_t<decltype(call_traced<static_argnums_t<>>(
      std::declval<const F&>(), std::declval<const std::vector<Array>&>(),
      std::declval<const std::vector<PyTreeDef>&>(), std::declval<const A&>()...))>;

  template <class... A>
  traced_t<result_t<A...>> operator()(const A&... a) const {
    if (!current_trace()) return traced_jit(*this, "checkpoint", loc)(a...);
    std::vector<Array> leaves;
    std::vector<PyTreeDef> trees;
    (
        [&](const auto& x) {
          flatten_arrays(x, leaves);
          trees.push_back(tree_structure(x));
        }(a),
        ...);
    SubGraph s =
        trace_subgraph_flat({"checkpoint", "fj::checkpoint", loc}, avals_of(leaves),
                            [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
                              auto result = call_traced<static_argnums_t<>>(f, t, trees, a...);
                              return flatten_output(ctx, result, outs);
                            });
    return unflatten_result<result_t<A...>>(s.out_tree, emit_remat(s, leaves, opt));
  }
};

}  // namespace detail

/// f with its intermediate values recomputed in the backward pass (jax.checkpoint, also called
/// jax.remat): under grad, the forward pass keeps only f's inputs (and what `policy` saves) and
/// the backward pass runs f again before transposing it, so the memory a deep network's gradient
/// holds no longer grows with every layer's activations. Traced, a call is one
/// `remat2[differentiated=False jaxpr policy prevent_cse]` equation; its gradient shows the
/// recomputation as a `remat2[differentiated=True ...]` equation, as in JAX. Values are the
/// same as without it. auto layer = fj::checkpoint(dense_layer); fj::grad(loss)(params, x);
template <class F>
auto checkpoint(F f, checkpoint_options opt = {},
                std::source_location loc = std::source_location::current()) {
  return detail::CheckpointFn<F>{std::move(f), std::move(opt), loc};
}
/// jax.remat, another name of checkpoint.
template <class F>
auto remat(F f, checkpoint_options opt = {},
           std::source_location loc = std::source_location::current()) {
  return checkpoint(std::move(f), std::move(opt), loc);
}

}  // namespace fj
