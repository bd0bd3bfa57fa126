// Creation functions: linspace, eye, zeros_like, ones_like, full_like. Inside a trace they stage
// what jnp stages; outside one they return concrete arrays.
#pragma once
#include <cstdint>
#include <optional>
#include <type_traits>

#include "fusejit/api/factories.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/materialize.hpp"
#include "fusejit/expr/operators.hpp"

namespace fj {
namespace detail {

struct EyeOp {
  std::int64_t n, m, k;
  DType dtype;
  ir::Atom operator()(GraphBuilder& b) const { return lower_eye(b, n, m, k, dtype); }
};
struct LinspaceOp {
  std::int64_t num;
  bool endpoint;
  DType dtype;
  ir::Atom operator()(GraphBuilder& b, ir::Atom start, ir::Atom stop) const {
    return lower_linspace(b, start, stop, num, endpoint, dtype);
  }
};
struct FullOp {
  Shape shape;
  ir::Literal value;
  ir::Atom operator()(GraphBuilder& b) const { return lower_full(b, shape, value); }
};

/// `v` as a literal of dtype `d`, converted from the full double (as NumPy's astype converts).
inline ir::Literal literal_like(double v, DType d, bool weak) {
  ir::Literal l;
  l.dtype = DType::f64;
  l.f = v;
  return l.cast(d, weak);
}

/// Concrete results, computed on the host with JAX's arithmetic.
Array eye_value(std::int64_t n, std::int64_t m, std::int64_t k, DType dtype);
Array linspace_value(double start, double stop, std::int64_t num, bool endpoint, DType dtype);
/// full_like: x's shape, `dtype`, weakly typed when `weak`.
Array full_like_value(const Array& x, double value, DType dtype, bool weak);

}  // namespace detail

/// An n x m array (m = n when m is -1) with ones on diagonal k (jnp.eye): 1 where column ==
/// row + k, 0 elsewhere; of the default float dtype unless `dtype` is given.
inline Array eye(std::int64_t n, std::int64_t m = -1, std::int64_t k = 0,
                 DType dtype = default_float_dtype()) {
  if (m == -1) m = n;
  if (detail::TraceState* t = detail::current_trace())
    return detail::record(detail::make_node(detail::EyeOp{n, m, k, dtype}), *t);
  return detail::eye_value(n, m, k, dtype);
}
/// jnp.eye's keyword arguments, for designated initializers: fj::eye(3, {.k = 1, .dtype =
/// fj::f64}). `m` -1 means n; no dtype means the default float dtype.
struct EyeOptions {
  std::int64_t m = -1;           ///< columns (JAX's M); -1: as many as rows
  std::int64_t k = 0;            ///< the diagonal: 0 main, > 0 above, < 0 below
  std::optional<DType> dtype{};  ///< the default float dtype when not given
};
/// jnp.eye(n, M=m, k=k, dtype=dtype) with keyword-style options.
inline Array eye(std::int64_t n, const EyeOptions& o) {
  return eye(n, o.m, o.k, o.dtype.value_or(default_float_dtype()));
}

/// `num` evenly spaced points from start to stop, stop included when `endpoint` (jnp.linspace).
/// Of the default float dtype unless `dtype` is given; integer dtypes take the floor of the
/// float32 points, as JAX does.
template <class S, class E>
requires(std::is_arithmetic_v<S>&& std::is_arithmetic_v<E>) Array
    linspace(S start, E stop, std::int64_t num = 50, bool endpoint = true,
             DType dtype = default_float_dtype()) {
  if (detail::TraceState* t = detail::current_trace())
    return detail::record(detail::make_node(detail::LinspaceOp{num, endpoint, dtype}, start, stop),
                          *t);
  return detail::linspace_value(static_cast<double>(start), static_cast<double>(stop), num,
                                endpoint, dtype);
}
/// jnp.linspace's keyword arguments: fj::linspace(0, 1, {.num = 5, .endpoint = false}).
struct LinspaceOptions {
  std::int64_t num = 50;         ///< how many points
  bool endpoint = true;          ///< whether `stop` is the last point
  std::optional<DType> dtype{};  ///< the default float dtype when not given
};
/// jnp.linspace(start, stop, num=num, endpoint=endpoint, dtype=dtype) with keyword-style options.
template <class S, class E>
requires(std::is_arithmetic_v<S>&& std::is_arithmetic_v<E>) Array
    linspace(S start, E stop, const LinspaceOptions& o) {
  return linspace(start, stop, o.num, o.endpoint, o.dtype.value_or(default_float_dtype()));
}

/// An array of x's shape filled with `value`, in x's dtype (and weak type) or in `dtype`.
template <detail::ArrayLike A>
Array full_like(const A& x, double value) {
  const Array a = x;
  if (detail::TraceState* t = detail::current_trace()) {
    const ir::Literal v = detail::literal_like(value, a.dtype(), a.weak_type());
    return detail::record(detail::make_node(detail::FullOp{a.shape(), v}), *t);
  }
  return detail::full_like_value(a, value, a.dtype(), a.weak_type());
}
/// jnp.full_like(x, value, dtype=dtype): x's shape filled with `value` in `dtype` (not weak).
template <detail::ArrayLike A>
Array full_like(const A& x, double value, DType dtype) {
  const Array a = x;
  if (detail::TraceState* t = detail::current_trace()) {
    const ir::Literal v = detail::literal_like(value, dtype, false);
    return detail::record(detail::make_node(detail::FullOp{a.shape(), v}), *t);
  }
  return detail::full_like_value(a, value, dtype, false);
}
/// Zeros of x's shape and dtype (jnp.zeros_like).
template <detail::ArrayLike A>
Array zeros_like(const A& x) {
  return full_like(x, 0.0);
}
/// Ones of x's shape and dtype (jnp.ones_like).
template <detail::ArrayLike A>
Array ones_like(const A& x) {
  return full_like(x, 1.0);
}

// x.at(idx).divide(v) and .power(v) (expr/indexing.hpp): JAX's compositions over ones_like.
template <class Arrays>
template <detail::Operand U>
Array detail::AtIndex<Arrays>::divide(U&& v, lax::GatherScatterMode mode) const {
  return Array(x_ / AtIndex(ones_like(x_), items_, arrays_).mul(std::forward<U>(v), mode));
}
template <class Arrays>
template <detail::Operand U>
Array detail::AtIndex<Arrays>::power(U&& v, lax::GatherScatterMode mode) const {
  return Array(fj::pow(x_, AtIndex(ones_like(x_), items_, arrays_).mul(std::forward<U>(v), mode)));
}

}  // namespace fj
