// fj::pure_callback: a C++ function of arrays whose results compiled code uses, as
// jax.pure_callback; fj::ShapeDtypeStruct declares what it returns.
#pragma once
#include <string>

#include "fusejit/api/host_call.hpp"

namespace fj {

/// A result's shape and dtype, declared before the function runs (jax.ShapeDtypeStruct).
struct ShapeDtypeStruct {
  Shape shape;               ///< the result's shape
  DType dtype = DType::f32;  ///< the result's dtype
};

namespace detail {
/// pure_callback's params, JAX's: result_avals, sharding, vmap_method.
ir::Params pure_callback_params(const std::vector<ir::Aval>& results);
}  // namespace detail

/// Calls `fn` with the arguments' concrete values (fj::Array leaves, in the arguments'
/// structures) and returns its results, which must have the shapes and dtypes of
/// `result_shape_dtypes` (a ShapeDtypeStruct or a pytree of them; the result has that
/// structure with fj::Array leaves). Traced, it is an equation the compiled function calls on
/// every run; it has no effect, so it is dropped when nothing uses its results. Under vmap it
/// runs once per example (JAX's vmap_method="sequential"); it has no derivative. A result of
/// another shape or dtype, or an exception from fn, is an fj::CallbackError naming fn.
template <class F, class R, class... Args>
auto pure_callback(F fn, const R& result_shape_dtypes, const Args&... args) {
  std::vector<ir::Aval> results;
  detail::pytree::for_each_leaf(result_shape_dtypes, [&](const auto& leaf) {
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(leaf)>, ShapeDtypeStruct>,
                  "fj::pure_callback: result_shape_dtypes must be a fj::ShapeDtypeStruct or a "
                  "pytree of them");
    results.push_back({leaf.dtype, leaf.shape, false});
  });
  detail::CallbackArgs a(args...);
  auto flat = [fn = std::move(fn), trees = a.trees](const std::vector<Array>& leaves) {
    return detail::flatten_arrays(detail::call_on_leaves<Args...>(fn, trees, leaves));
  };
  const std::string name = detail::type_name(typeid(F)), in_tree = a.in_tree();
  const std::string repr =
      "_FlatCallback(callback_func=" + detail::function_repr(name) + ", in_tree=" + in_tree + ")";
  ir::Params p = detail::pure_callback_params(results);
  const std::vector<Array> out = detail::call_host(
      ir::Prim::pure_callback, detail::function_callback(std::move(flat), name, results, repr),
      a.leaves, std::move(p), /*print_callback=*/true);
  return detail::unflatten_arrays<R>(tree_structure(result_shape_dtypes), out);
}

}  // namespace fj
