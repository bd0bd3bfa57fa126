// fj::jacfwd, jacrev, jacobian and hessian (jax.jacfwd, ...): the Jacobian built as JAX builds
// it, vmap of jvp over the inputs' standard basis (forward) or of vjp over the outputs' basis
// (reverse), so each runs as one batched derivative, not one pass per entry.
#pragma once
#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/transforms.hpp"

namespace fj {

/// The tag of jax.jacfwd's (jacrev's, hessian's) has_aux=True: the function returns a pair
/// (output, aux); aux is returned beside the Jacobian and not differentiated.
/// fj::jacrev(f, fj::has_aux)(x) -> std::pair(jacobian, aux).
struct has_aux_t {
  explicit constexpr has_aux_t() = default;
};
/// See has_aux_t.
inline constexpr has_aux_t has_aux{};

namespace detail {

/// The tag of a function without aux output.
struct no_aux_t {};

/// Whether W lists argnums (fj::argnums{...} or fj::argnums_v<...>).
template <class W>
struct is_argnums : std::false_type {};
template <std::size_t N>
struct is_argnums<argnums<N>> : std::true_type {};
template <std::size_t... I>
struct is_argnums<argnums_t<I...>> : std::true_type {};
template <class W>
concept Argnums = is_argnums<std::remove_cvref_t<W>>::value;

/// A Jacobian's array-level result: for each differentiated output leaf j (outer) and each
/// differentiated input leaf i (inner), an array of shape out_j + in_i; and the aux leaves.
struct JacOut {
  std::vector<Array> jac;
  std::vector<Array> aux;
  PyTreeDef out_tree, aux_tree;  // the differentiated output's structure, and aux's
};

/// The Jacobian's array-level core, called inside a trace: checks the arguments (flattened:
/// `fa`) and the argnums `w`, traces `body` (which returns (output, aux) when `with_aux`), and
/// vmaps its jvp over the standard basis of the differentiated inputs (`forward`) or its vjp
/// over the basis of the outputs. `who` names the entry point in errors.
JacOut jac_flat(const char* who, bool forward, std::source_location loc, const FlatArgs& fa,
                const std::vector<int>& w, bool with_aux, TraceBody body);

/// `outer` with each of its leaves replaced by `inner`: the structure of a Jacobian (the
/// output's structure of the inputs' structures).
PyTreeDef replace_leaves(const PyTreeDef& outer, const PyTreeDef& inner);

/// The type every leaf of a tree becomes, for the Jacobian's type.
template <class T>
struct LeafAs {
  template <class L>
  T operator()(const L&) const;
};

/// The differentiated inputs' type: the argument's for one argnum, a tuple of them for several.
template <class Wrt, class... A>
struct jac_input_type {
  static constexpr std::size_t N = wrt_count(static_cast<const Wrt*>(nullptr));
  using type = decltype([]<std::size_t... K>(std::index_sequence<K...>) {
    if constexpr (N == 1) {
      return std::type_identity<typename grad_type<Wrt, 0, A...>::type>{};
    } else {
      return std::type_identity<std::tuple<typename grad_type<Wrt, K, A...>::type...>>{};
    }
  }(std::make_index_sequence<N>{}))::type;
};

/// The Jacobian's type: Out with each leaf replaced by In.
template <class Out, class In>
using jacobian_t = decltype(pytree::map_tree(std::declval<const LeafAs<In>&>(),
                                             std::declval<const traced_t<Out>&>()));

template <class F, class Wrt, bool Forward, bool WithAux>
struct JacFn {
  F f;
  Wrt wrt;
  std::source_location loc;  // the caller of jacfwd / jacrev, for errors raised while tracing f
  template <class... A>
  auto operator()(const A&... a) const {
    constexpr std::size_t N = wrt_count(static_cast<const Wrt*>(nullptr));
    const char* who = Forward ? "fj::jacfwd" : "fj::jacrev";
    const FlatArgs fa = flatten_args(a...);
    const std::vector<int> w = wrt_list(wrt);
    using R = std::remove_cvref_t<decltype(call_flat(f, fa.leaves, fa, a...))>;
    JacOut r = jac_flat(who, Forward, loc, fa, w, WithAux,
                        [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
                          auto result = call_flat(f, t, fa, a...);
                          return flatten_output(ctx, result, outs);
                        });
    using In = typename jac_input_type<Wrt, A...>::type;
    PyTreeDef in_tree;
    if constexpr (N == 1) {
      in_tree = fa.trees[static_cast<std::size_t>(w[0])];
    } else {
      in_tree.kind = PyTreeDef::Kind::tuple;
      for (int i : w) in_tree.children.push_back(fa.trees[static_cast<std::size_t>(i)]);
    }
    auto build = [&]<class Out>(std::type_identity<Out>) {
      std::size_t pos = 0;
      return pytree::build_tree<jacobian_t<Out, In>>(
          replace_leaves(r.out_tree, in_tree),
          [&](std::type_identity<Array>, const PyTreeDef&) { return std::move(r.jac[pos++]); });
    };
    if constexpr (WithAux) {
      static_assert(std::tuple_size_v<R> == 2,
                    "fj::jacfwd / fj::jacrev with fj::has_aux: the function must return a pair "
                    "(output, aux)");
      using Out = std::remove_cvref_t<std::tuple_element_t<0, R>>;
      using Aux = std::remove_cvref_t<std::tuple_element_t<1, R>>;
      auto jac = build(std::type_identity<Out>{});
      return std::make_pair(std::move(jac), unflatten_result<Aux>(r.aux_tree, std::move(r.aux)));
    } else {
      return build(std::type_identity<R>{});
    }
  }
};

template <bool Forward, class F, class Wrt, class Aux>
auto make_jac(F f, Wrt which, Aux, std::source_location loc) {
  constexpr bool with_aux = std::is_same_v<Aux, has_aux_t>;
  return Transformed(JacFn<F, Wrt, Forward, with_aux>{std::move(f), which, loc},
                     Forward ? "jacfwd" : "jacrev", Forward ? "fj::jacfwd" : "fj::jacrev");
}

}  // namespace detail

/// The Jacobian of f by forward mode (jax.jacfwd): vmap of jvp over the standard basis of the
/// differentiated inputs, good when there are fewer inputs than outputs. For an output of shape
/// O and an input of shape I the Jacobian has shape O + I; with pytrees it is the output's
/// structure of the inputs' structures, and with several argnums each output leaf holds a
/// std::tuple over them, as in JAX. Inputs and outputs must be floating (fj::DTypeError, as
/// JAX's TypeError). fj::jacfwd(f)(x); fj::jacfwd(f, fj::argnums{0, 1})(x, y);
/// fj::jacfwd(f, fj::has_aux)(x) -> std::pair(jacobian, aux).
template <class F, detail::Argnums Wrt = argnums_t<0>, class Aux = detail::no_aux_t>
auto jacfwd(F f, Wrt which = {}, Aux aux = {},
            std::source_location loc = std::source_location::current()) {
  return detail::make_jac<true>(std::move(f), which, aux, loc);
}
/// jacfwd(f, fj::has_aux): argnums 0, with aux output.
template <class F>
auto jacfwd(F f, has_aux_t aux, std::source_location loc = std::source_location::current()) {
  return detail::make_jac<true>(std::move(f), argnums_t<0>{}, aux, loc);
}

/// The Jacobian of f by reverse mode (jax.jacrev): vmap of vjp over the standard basis of the
/// outputs, good when there are fewer outputs than inputs. Shapes, structures, argnums and
/// has_aux as fj::jacfwd. fj::jacrev(f)(x).
template <class F, detail::Argnums Wrt = argnums_t<0>, class Aux = detail::no_aux_t>
auto jacrev(F f, Wrt which = {}, Aux aux = {},
            std::source_location loc = std::source_location::current()) {
  return detail::make_jac<false>(std::move(f), which, aux, loc);
}
/// jacrev(f, fj::has_aux): argnums 0, with aux output.
template <class F>
auto jacrev(F f, has_aux_t aux, std::source_location loc = std::source_location::current()) {
  return detail::make_jac<false>(std::move(f), argnums_t<0>{}, aux, loc);
}

/// jax.jacobian, which is jax.jacrev: fj::jacobian(f)(x).
template <class F, detail::Argnums Wrt = argnums_t<0>, class Aux = detail::no_aux_t>
auto jacobian(F f, Wrt which = {}, Aux aux = {},
              std::source_location loc = std::source_location::current()) {
  return detail::make_jac<false>(std::move(f), which, aux, loc);
}
/// jacobian(f, fj::has_aux): argnums 0, with aux output.
template <class F>
auto jacobian(F f, has_aux_t aux, std::source_location loc = std::source_location::current()) {
  return detail::make_jac<false>(std::move(f), argnums_t<0>{}, aux, loc);
}

/// The Hessian of a scalar function (jax.hessian): jacfwd(jacrev(f)), forward over reverse as
/// JAX composes it. For an input of shape I it has shape I + I; with several argnums it is a
/// tuple of tuples (hessian[i][j] = d2f / dx_i dx_j); with fj::has_aux, std::pair(hessian, aux).
/// fj::hessian(f)(x).
template <class F, detail::Argnums Wrt = argnums_t<0>, class Aux = detail::no_aux_t>
auto hessian(F f, Wrt which = {}, Aux aux = {},
             std::source_location loc = std::source_location::current()) {
  return detail::make_jac<true>(detail::make_jac<false>(std::move(f), which, aux, loc), which, aux,
                                loc);
}
/// hessian(f, fj::has_aux): argnums 0, with aux output.
template <class F>
auto hessian(F f, has_aux_t aux, std::source_location loc = std::source_location::current()) {
  return hessian(std::move(f), argnums_t<0>{}, aux, loc);
}

}  // namespace fj
