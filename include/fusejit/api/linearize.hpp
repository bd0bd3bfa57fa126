// fj::linearize and fj::linear_transpose (jax.linearize, jax.linear_transpose): a function's
// tangent map at a point, and the transpose of a linear function, each a jitted callable.
#pragma once
#include <cstddef>
#include <tuple>
#include <utility>
#include <vector>

#include "fusejit/api/eval_shape.hpp"
#include "fusejit/api/transforms.hpp"

namespace fj {

namespace detail {

/// The tangents of f's outputs along `t` (one per leaf of `p`) at the primals `p`, f traced by
/// `body`; called inside a trace.
std::vector<Array> linearized_tangents(const std::vector<Array>& p, const std::vector<Array>& t,
                                       TraceBody body);
/// The cotangents of every leaf of `p` given the cotangents `ct` of f's outputs, f traced by
/// `body`; raises fj::TypeError when f is not linear (its transpose reads the primals' values).
/// Called inside a trace.
std::vector<Array> transposed_cotangents(const std::vector<Array>& p, const std::vector<Array>& ct,
                                         TraceBody body);
/// Checks that `got` (the leaves of an argument of a linearized or transposed function, of
/// structure `tree`) has the structure and avals `want` describes; `what` names the argument.
void check_same_avals(const char* who, const std::string& what, const PyTreeDef& want_tree,
                      const std::vector<ir::Aval>& want, const PyTreeDef& tree,
                      const std::vector<Array>& got);

/// f called on tracers rebuilt with the structures of the stored arguments: the jitted body
/// that linearize's and linear_transpose's functions run, given f's leaves `p` and the
/// tangents or cotangents `v`.
template <class F, bool Transpose, class... A>
struct LinearBody {
  F f;
  std::tuple<A...> args;  // for their types and structures; values come in as `p`
  std::vector<PyTreeDef> trees;
  std::source_location loc;
  std::vector<Array> operator()(const std::vector<Array>& p, const std::vector<Array>& v) const {
    auto body = [&](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
      auto result = std::apply(
          [&](const auto&... a) { return call_traced<static_argnums_t<>>(f, t, trees, a...); },
          args);
      return flatten_output(ctx, result, outs);
    };
    if constexpr (Transpose)
      return transposed_cotangents(p, v, body);
    else
      return linearized_tangents(p, v, body);
  }
};

std::vector<ir::Aval> avals_of_leaves(const std::vector<Array>& leaves);

}  // namespace detail

/// linearize's tangent map (see fj::linearize): called with tangents of the primals'
/// structures, shapes and dtypes, it returns the output's tangent.
template <class F, class... A>
class Linearized {
 public:
  /// What fj::linearize makes: f, the primals it is linearized at, the output's structure.
  Linearized(F f, const A&... primals, PyTreeDef out_tree, std::source_location loc)
      : fa_(detail::flatten_args(primals...)),
        out_tree_(std::move(out_tree)),
        jitted_(detail::LinearBody<F, false, A...>{std::move(f), {primals...}, fa_.trees, loc},
                "linearize", loc, "fj::linearize") {}
  /// The output's tangent along `tangents` (one per primal, same structures and avals).
  template <class... T>
  auto operator()(const T&... tangents) const {
    static_assert(sizeof...(T) == sizeof...(A),
                  "fj::linearize: the linearized function takes one tangent per primal");
    const detail::FlatArgs ft = detail::flatten_args(tangents...);
    for (std::size_t k = 0; k < sizeof...(A); ++k)
      detail::check_same_avals(
          "fj::linearize", "tangent " + std::to_string(k), fa_.trees[k],
          detail::avals_of_leaves(
              {fa_.leaves.begin() + static_cast<std::ptrdiff_t>(fa_.first[k]),
               fa_.leaves.begin() + static_cast<std::ptrdiff_t>(fa_.first[k + 1])}),
          ft.trees[k],
          {ft.leaves.begin() + static_cast<std::ptrdiff_t>(ft.first[k]),
           ft.leaves.begin() + static_cast<std::ptrdiff_t>(ft.first[k + 1])});
    using R = detail::traced_call_result_t<F, A...>;
    return detail::unflatten_result<R>(out_tree_, jitted_(fa_.leaves, ft.leaves));
  }

 private:
  detail::FlatArgs fa_;
  PyTreeDef out_tree_;
  Jitted<detail::LinearBody<F, false, A...>> jitted_;
};

/// linear_transpose's function (see fj::linear_transpose): called with a cotangent of the
/// output's structure, shapes and dtypes, it returns a std::tuple of the inputs' cotangents.
template <class F, class... A>
class LinearTransposed {
 public:
  /// What fj::linear_transpose makes: f (linear in its arguments) and the primals that give
  /// its inputs' structures, shapes and dtypes; traces f once to learn its output's.
  LinearTransposed(F f, const A&... primals, std::source_location loc)
      : fa_(detail::flatten_args(primals...)),
        jitted_(detail::LinearBody<F, true, A...>{f, {primals...}, fa_.trees, loc},
                "linear_transpose", loc, "fj::linear_transpose") {
    detail::SubGraph s =
        detail::trace_abstract({"linear_transpose", "fj::linear_transpose", loc}, f, primals...);
    out_tree_ = s.out_tree;
    for (const ir::Atom& o : s.graph->outvars) out_avals_.push_back(s.graph->aval(o));
  }
  /// The inputs' cotangents, one per primal in a std::tuple, for the output's cotangent `ct`.
  template <class Ct>
  auto operator()(const Ct& ct) const {
    std::vector<Array> cts = detail::flatten_arrays(ct);
    detail::check_same_avals("fj::linear_transpose", "the cotangent", out_tree_, out_avals_,
                             tree_structure(ct), cts);
    std::vector<Array> g = jitted_(fa_.leaves, cts);
    std::size_t pos = 0, k = 0;
    return std::tuple<detail::traced_t<A>...>{
        detail::unflatten_arrays<A>(fa_.trees[k++], g, pos)...};
  }

 private:
  detail::FlatArgs fa_;
  PyTreeDef out_tree_;
  std::vector<ir::Aval> out_avals_;
  Jitted<detail::LinearBody<F, true, A...>> jitted_;
};

/// jax.linearize: f's output at the primals and its tangent map there, a function from
/// tangents (one per primal, of the primals' structures, shapes and dtypes) to the output's
/// tangent. fusejit compiles the tangent map once and, unlike JAX, recomputes in each call the
/// primal values the tangents need (JAX stores them). A tangent of another shape or dtype
/// raises fj::ShapeError. auto [y, f_jvp] = fj::linearize(f, x); Array dy = f_jvp(dx);
template <class F, class... A>
auto linearize(F f, const A&... primals) {
  const std::source_location loc = std::source_location::current();
  auto out = fj::jit(f, "linearize", loc)(primals...);
  PyTreeDef out_tree = tree_structure(out);
  return std::make_pair(std::move(out),
                        Linearized<F, A...>(std::move(f), primals..., std::move(out_tree), loc));
}

/// jax.linear_transpose: the transpose of a linear function f, as a function from a cotangent
/// of f's output to a std::tuple of cotangents of its arguments. The primals give the
/// arguments' structures, shapes and dtypes (their values are not used). A function that is not
/// linear in its arguments (its transpose would read their values) raises fj::TypeError when
/// the transpose is first called, as JAX raises on a non-linear primitive.
/// auto ft = fj::linear_transpose(f, x); auto [ct_x] = ft(ct_y);
template <class F, class... A>
auto linear_transpose(F f, const A&... primals) {
  return LinearTransposed<F, A...>(std::move(f), primals..., std::source_location::current());
}

}  // namespace fj
