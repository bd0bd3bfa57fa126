// fj::eval_shape: the shapes and dtypes of a function's outputs, found by tracing it, without
// compiling or running it (jax.eval_shape).
#pragma once
#include <source_location>
#include <type_traits>
#include <vector>

#include "fusejit/api/pure_callback.hpp"
#include "fusejit/api/subtrace.hpp"

namespace fj {

namespace detail {

/// The aval a leaf of eval_shape's arguments stands for: a ShapeDtypeStruct's, or an array's
/// (expressions and C++ scalars as a traced call sees them).
template <class L>
ir::Aval abstract_leaf(const L& leaf) {
  if constexpr (std::is_same_v<L, ShapeDtypeStruct>)
    return {leaf.dtype, leaf.shape, false};
  else if constexpr (std::is_arithmetic_v<L>)
    return arg_aval(leaf, 0);
  else
    return arg_aval(as_array(leaf), 0);
}

/// What f returns when called on the traced forms of arguments of types A.
template <class F, class... A>
using traced_call_result_t = std::remove_cvref_t<decltype(call_traced<static_argnums_t<>>(
    std::declval<const F&>(), std::declval<const std::vector<Array>&>(),
    std::declval<const std::vector<PyTreeDef>&>(), std::declval<const A&>()...))>;

/// The leaf type of eval_shape's result.
struct ToShapeDtype {
  template <class L>
  ShapeDtypeStruct operator()(const L&) const;
};

/// f traced on arguments with the avals of `args`' leaves, in a trace of its own (nested in the
/// active one, if any): its graph and result structure. `site` names f and the entry point in
/// errors.
template <class F, class... A>
SubGraph trace_abstract(const TraceSite& site, const F& f, const A&... args) {
  std::vector<ir::Aval> avals;
  std::vector<PyTreeDef> trees;
  (
      [&](const auto& a) {
        pytree::for_each_leaf(a, [&](const auto& l) { avals.push_back(abstract_leaf(l)); });
        trees.push_back(tree_structure(a));
      }(args),
      ...);
  return trace_subgraph_flat(
      site, avals, [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
        auto result = call_traced<static_argnums_t<>>(f, t, trees, args...);
        return flatten_output(ctx, result, outs);
      });
}

}  // namespace detail

/// The shapes and dtypes f would return for these arguments, as a fj::ShapeDtypeStruct (or f's
/// result structure of them), found by tracing f once: nothing is compiled or computed, as
/// jax.eval_shape. Arguments are arrays, expressions, C++ scalars, ShapeDtypeStructs, or pytrees
/// of those. fj::eval_shape(f, fj::ShapeDtypeStruct{{1000, 3}, fj::f32}).shape == {1000}.
template <class F, class... A>
auto eval_shape(const F& f, const A&... args) {
  detail::SubGraph s = detail::trace_abstract({"eval_shape", "fj::eval_shape", {}}, f, args...);
  using R = detail::traced_call_result_t<F, A...>;
  using T = decltype(detail::pytree::map_tree(std::declval<const detail::ToShapeDtype&>(),
                                              std::declval<const detail::traced_t<R>&>()));
  const ir::Graph& g = *s.graph;
  std::size_t pos = 0;
  return detail::pytree::build_tree<T>(s.out_tree,
                                       [&](std::type_identity<ShapeDtypeStruct>, const PyTreeDef&) {
                                         const ir::Aval a = g.aval(g.outvars[pos++]);
                                         return ShapeDtypeStruct{a.shape, a.dtype};
                                       });
}

}  // namespace fj
