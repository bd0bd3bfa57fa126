// jax.nn's activation and normalization functions under fj::nn::, jnp.var / jnp.std under fj::
// and jnp.linalg.norm under fj::linalg::, each staged as JAX 0.10.2 stages it.
#pragma once
#include <cmath>
#include <concepts>
#include <type_traits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "fusejit/api/jit.hpp"
#include "fusejit/api/subtrace.hpp"
#include "fusejit/expr/lowering_nn.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {
namespace detail {

template <Atom (*Lower)(GraphBuilder&, Atom)>
struct NnOp1 {
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return Lower(b, x); }
};
struct GeluOp {
  bool approximate;
  void key(std::vector<std::int64_t>& k) const { k.push_back(approximate); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_gelu(b, x, approximate); }
};
template <bool Log>
struct SoftmaxOp {
  Axes axes;
  void key(std::vector<std::int64_t>& k) const { axes.key(k); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return Log ? lower_log_softmax(b, x, axes) : lower_softmax(b, x, axes);
  }
};
struct LogsumexpOp {
  Axes axes;
  bool keepdims;
  void key(std::vector<std::int64_t>& k) const {
    axes.key(k);
    k.push_back(keepdims);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_logsumexp(b, x, std::nullopt, axes, keepdims, false)[0];
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom w) const {
    return lower_logsumexp(b, x, w, axes, keepdims, false)[0];
  }
};
struct OneHotOp {
  std::int64_t num_classes;
  DType dtype;
  int axis;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(num_classes);
    k.push_back(static_cast<std::int64_t>(dtype));
    k.push_back(axis);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_one_hot(b, x, num_classes, dtype, axis);
  }
};
template <bool Std>
struct VarOp {
  Axes axes;
  std::int64_t ddof;
  bool keepdims;
  void key(std::vector<std::int64_t>& k) const {
    axes.key(k);
    k.push_back(ddof);
    k.push_back(keepdims);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return Std ? lower_std(b, x, axes, ddof, keepdims) : lower_var(b, x, axes, ddof, keepdims);
  }
};
struct NormOp {
  NormOrd ord;
  Axes axes;
  bool keepdims;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(ord.is_default);
    std::int64_t bits = 0;
    std::memcpy(&bits, &ord.p, sizeof bits);
    k.push_back(bits);
    for (char c : ord.name) k.push_back(c);
    k.push_back(-1);
    axes.key(k);
    k.push_back(keepdims);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_norm(b, x, ord, axes, keepdims);
  }
};

/// logsumexp's (result, sign) pair, in the active trace (return_sign=True).
inline std::tuple<Array, Array> logsumexp_sign_traced(const Array& x, const Array* w,
                                                      const Axes& axes, bool keepdims) {
  TraceState& ts = *current_trace();
  const ir::Atom xa = lower_arg(x);
  std::optional<ir::Atom> wa;
  if (w) wa = lower_arg(*w);
  auto r = lower_logsumexp(ts.builder, xa, wa, axes, keepdims, true);
  return {atom_array(r[0]), atom_array(r[1])};
}

}  // namespace detail

/// The order of fj::linalg::norm: a number (1, 2, INFINITY, -INFINITY, 0, any p), "fro" or
/// "nuc", or fj::none (the default: 2 for vectors, Frobenius for matrices).
struct NormOrder {
  detail::NormOrd ord;  ///< the order as fusejit's lowering reads it
  /// A numeric order p: 1, 2, INFINITY, -INFINITY, 0, or any p.
  ///@{
  NormOrder(double p) { ord.is_default = false, ord.p = p; }
  NormOrder(int p) : NormOrder(static_cast<double>(p)) {}
  ///@}
  /// A named order: "fro" (Frobenius) or "nuc" (nuclear); norm raises fj::ValueError on others.
  NormOrder(const char* name) { ord.is_default = false, ord.name = name; }
  /// The default order, fj::none (JAX's ord=None).
  NormOrder(std::nullopt_t) {}
};

namespace nn {

/// max(x, 0), with derivative 0 at 0 (a custom_jvp_call, as jax.nn.relu).
template <detail::Operand A>
auto relu(A&& x) {
  return detail::make_node(detail::NnOp1<detail::lower_relu>{}, std::forward<A>(x));
}
/// log(1 + e^x), as logaddexp(x, 0).
template <detail::Operand A>
auto softplus(A&& x) {
  return detail::make_node(detail::NnOp1<detail::lower_softplus>{}, std::forward<A>(x));
}
/// 1 / (1 + e^-x) (lax.logistic).
template <detail::Operand A>
auto sigmoid(A&& x) {
  return detail::make_node(detail::UnaryOp<ir::Prim::logistic>{}, std::forward<A>(x));
}
/// x * sigmoid(x); swish is the same function.
template <detail::Operand A>
auto silu(A&& x) {
  return detail::make_node(detail::NnOp1<detail::lower_silu>{}, std::forward<A>(x));
}
/// jax.nn.swish: the same function as silu.
template <detail::Operand A>
auto swish(A&& x) {
  return silu(std::forward<A>(x));
}
/// The Gaussian error linear unit: the tanh approximation, or x/2 erfc(-x/sqrt 2) exactly.
template <detail::Operand A>
auto gelu(A&& x, bool approximate = true) {
  return detail::make_node(detail::GeluOp{approximate}, std::forward<A>(x));
}
/// log(softmax(x)) over `axis` (default the last; several, or fj::none for all).
template <detail::Operand A>
auto log_softmax(A&& x, Axes axis = -1) {
  return detail::make_node(detail::SoftmaxOp<true>{std::move(axis)}, std::forward<A>(x));
}
/// exp(x) / sum(exp(x)) over `axis`, computed with the max subtracted.
template <detail::Operand A>
auto softmax(A&& x, Axes axis = -1) {
  return detail::make_node(detail::SoftmaxOp<false>{std::move(axis)}, std::forward<A>(x));
}
/// log(sum(exp(x))) over `axis` (default: all axes), without overflow.
template <detail::Operand A>
auto logsumexp(A&& x, Axes axis = none, bool keepdims = false) {
  return detail::make_node(detail::LogsumexpOp{std::move(axis), keepdims}, std::forward<A>(x));
}
/// logsumexp with keyword-style options: fj::nn::logsumexp(x, {.axis = 1, .keepdims = true}).
template <detail::Operand A>
auto logsumexp(A&& x, const ReduceOptions& o) {
  return logsumexp(std::forward<A>(x), o.axis, o.keepdims);
}
/// log(sum(b * exp(x))), NaN where the weighted sum is negative. Integer scalar weights are
/// not taken (logsumexp(x, 1, true) is axis 1 with keepdims); write 1.0.
template <detail::Operand A, detail::Operand B>
requires(!std::integral<std::remove_cvref_t<B>>) auto logsumexp(A&& x, B&& b, Axes axis,
                                                                bool keepdims = false) {
  return detail::make_node(detail::LogsumexpOp{std::move(axis), keepdims}, std::forward<A>(x),
                           std::forward<B>(b));
}
/// logsumexp with return_sign=True: (log |sum(b * exp(x))|, its sign).
inline std::tuple<Array, Array> logsumexp_with_sign(const Array& x, const Array& b,
                                                    Axes axis = none, bool keepdims = false) {
  if (detail::current_trace()) return detail::logsumexp_sign_traced(x, &b, axis, keepdims);
  return detail::traced_jit(
      [axis, keepdims](const Array& a, const Array& w) {
        return detail::logsumexp_sign_traced(a, &w, axis, keepdims);
      },
      "logsumexp", std::source_location::current())(x, b);
}
/// logsumexp with return_sign=True and no weights: (logsumexp(x), the sign of sum(exp(x))).
inline std::tuple<Array, Array> logsumexp_with_sign(const Array& x, Axes axis = none,
                                                    bool keepdims = false) {
  if (detail::current_trace()) return detail::logsumexp_sign_traced(x, nullptr, axis, keepdims);
  return detail::traced_jit(
      [axis, keepdims](const Array& a) {
        return detail::logsumexp_sign_traced(a, nullptr, axis, keepdims);
      },
      "logsumexp", std::source_location::current())(x);
}
/// 1 where x == i along a new axis of num_classes entries (indices outside [0, num_classes)
/// give zeros), as `dtype`.
template <detail::Operand A>
auto one_hot(A&& x, std::int64_t num_classes, DType dtype = DType::f32, int axis = -1) {
  return detail::make_node(detail::OneHotOp{num_classes, dtype, axis}, std::forward<A>(x));
}
/// jax.nn.one_hot's keyword arguments: fj::nn::one_hot(x, 4, {.dtype = fj::i32, .axis = 0}).
struct OneHotOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  DType dtype = DType::f32;         ///< the result's dtype
  int axis = -1;                    ///< where the new axis of num_classes entries goes
};
/// jax.nn.one_hot(x, num_classes, dtype=..., axis=...) with keyword-style options.
template <detail::Operand A>
auto one_hot(A&& x, std::int64_t num_classes, const OneHotOptions& o) {
  return one_hot(std::forward<A>(x), num_classes, o.dtype, o.axis);
}

}  // namespace nn

/// The variance over `axis` (default all), divided by N - ddof (NaN where that is not positive).
template <detail::Operand A>
auto var(A&& x, Axes axis = none, std::int64_t ddof = 0, bool keepdims = false) {
  return detail::make_node(detail::VarOp<false>{std::move(axis), ddof, keepdims},
                           std::forward<A>(x));
}
/// The standard deviation: sqrt(var(x, axis, ddof, keepdims)).
template <detail::Operand A>
auto std(A&& x, Axes axis = none, std::int64_t ddof = 0, bool keepdims = false) {
  return detail::make_node(detail::VarOp<true>{std::move(axis), ddof, keepdims},
                           std::forward<A>(x));
}

/// jnp.var / jnp.std with keyword-style options: fj::var(x, {.axis = 0, .ddof = 1}).
///@{
template <detail::Operand A>
auto var(A&& x, const VarOptions& o) {
  return var(std::forward<A>(x), o.axis, o.ddof, o.keepdims);
}
template <detail::Operand A>
auto std(A&& x, const VarOptions& o) {
  return std(std::forward<A>(x), o.axis, o.ddof, o.keepdims);
}
///@}

// x.std() and x.var() (declared with fj::Array's methods), here beside the free functions.
template <class S>
auto detail::ArrayMethods<S>::std(Axes axis, std::int64_t ddof, bool keepdims) const {
  return fj::std(self(), std::move(axis), ddof, keepdims);
}
template <class S>
auto detail::ArrayMethods<S>::var(Axes axis, std::int64_t ddof, bool keepdims) const {
  return fj::var(self(), std::move(axis), ddof, keepdims);
}
template <class S>
auto detail::ArrayMethods<S>::std(const VarOptions& o) const {
  return fj::std(self(), o);
}
template <class S>
auto detail::ArrayMethods<S>::var(const VarOptions& o) const {
  return fj::var(self(), o);
}

namespace linalg {
/// jnp.linalg.norm: a vector norm over one axis, a matrix norm over two; by default the 2-norm
/// of all elements. The matrix orders 2, -2 and "nuc" take the singular values (fj::linalg::svd
/// with compute_uv=false), as JAX's.
template <detail::Operand A>
auto norm(A&& x, NormOrder ord = none, Axes axis = none, bool keepdims = false) {
  return detail::make_node(detail::NormOp{ord.ord, std::move(axis), keepdims}, std::forward<A>(x));
}
/// jnp.linalg.norm's keyword arguments: fj::linalg::norm(x, {.ord = 1, .axis = 0}).
struct NormOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  NormOrder ord = none;             ///< the order (the 2-norm of all elements by default)
  Axes axis = none;       ///< one axis (a vector norm) or two (a matrix norm); all by default
  bool keepdims = false;  ///< keep each reduced axis with extent 1
};
/// jnp.linalg.norm(x, ord=..., axis=..., keepdims=...) with keyword-style options.
template <detail::Operand A>
auto norm(A&& x, const NormOptions& o) {
  return norm(std::forward<A>(x), o.ord, o.axis, o.keepdims);
}
}  // namespace linalg

}  // namespace fj
