// The NumPy-style methods of fj::Array and of expressions (x.T(), x.reshape(...),
// x(fj::range(1, 4), 2), ...), and the expressions' accessors (item, to_vector, shape, dtype),
// defined here because they need the expression nodes and fj::Array.
#pragma once
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/sort_scan.hpp"

namespace fj {

namespace detail {
template <class S>
auto ArrayMethods<S>::T() const {
  return fj::transpose(self());
}
template <class S>
auto ArrayMethods<S>::slice(std::initializer_list<std::int64_t> start,
                            std::initializer_list<std::int64_t> stop,
                            std::initializer_list<std::int64_t> step) const {
  return fj::slice(self(), start, stop, step);
}
template <class S>
auto ArrayMethods<S>::reshape(std::initializer_list<std::int64_t> sizes) const {
  return fj::reshape(self(), sizes);
}
template <class S>
auto ArrayMethods<S>::astype(DType to) const {
  return fj::astype(self(), to);
}
template <class S>
auto ArrayMethods<S>::flip() const {
  return fj::flip(self());
}
template <class S>
auto ArrayMethods<S>::flip(std::initializer_list<int> axes) const {
  return fj::flip(self(), axes);
}
template <class S>
auto ArrayMethods<S>::squeeze() const {
  return fj::squeeze(self());
}
template <class S>
auto ArrayMethods<S>::squeeze(std::initializer_list<int> axes) const {
  return fj::squeeze(self(), axes);
}
// jax.Array's reductions, each forwarding to the free function of its name in three forms.
#define FUSEJIT_REDUCTION_METHOD(fn)                                               \
  template <class S>                                                               \
  auto ArrayMethods<S>::fn() const {                                               \
    return fj::fn(self());                                                         \
  }                                                                                \
  template <class S>                                                               \
  auto ArrayMethods<S>::fn(std::initializer_list<int> axes, bool keepdims) const { \
    return fj::fn(self(), axes, keepdims);                                         \
  }                                                                                \
  template <class S>                                                               \
  auto ArrayMethods<S>::fn(const ReduceOptions& o) const {                         \
    return fj::fn(self(), o);                                                      \
  }
FUSEJIT_REDUCTION_METHOD(sum)
FUSEJIT_REDUCTION_METHOD(prod)
FUSEJIT_REDUCTION_METHOD(max)
FUSEJIT_REDUCTION_METHOD(min)
FUSEJIT_REDUCTION_METHOD(mean)
FUSEJIT_REDUCTION_METHOD(all)
FUSEJIT_REDUCTION_METHOD(any)
#undef FUSEJIT_REDUCTION_METHOD
template <class S>
auto ArrayMethods<S>::argmax() const {
  return fj::argmax(self());
}
template <class S>
auto ArrayMethods<S>::argmax(int axis, bool keepdims) const {
  return fj::argmax(self(), axis, keepdims);
}
template <class S>
auto ArrayMethods<S>::argmin() const {
  return fj::argmin(self());
}
template <class S>
auto ArrayMethods<S>::argmin(int axis, bool keepdims) const {
  return fj::argmin(self(), axis, keepdims);
}
template <class S>
auto ArrayMethods<S>::cumsum(std::optional<int> axis) const {
  return fj::cumsum(self(), axis);
}
template <class S>
auto ArrayMethods<S>::cumprod(std::optional<int> axis) const {
  return fj::cumprod(self(), axis);
}
template <class S>
auto ArrayMethods<S>::sort(std::optional<int> axis) const {
  return fj::sort(self(), axis);
}
template <class S>
auto ArrayMethods<S>::argsort(std::optional<int> axis) const {
  return fj::argsort(self(), axis);
}
template <class S>
auto ArrayMethods<S>::sort(const SortOptions& o) const {
  return fj::sort(self(), o);
}
template <class S>
auto ArrayMethods<S>::argsort(const SortOptions& o) const {
  return fj::argsort(self(), o);
}
template <class S>
template <class L, class H>
auto ArrayMethods<S>::clip(const L& lo, const H& hi) const {
  return fj::clip(self(), lo, hi);
}
template <class S>
auto ArrayMethods<S>::round() const {
  return fj::round(self());
}
template <class S>
auto ArrayMethods<S>::ravel() const {
  return fj::reshape(self(), {-1});
}
template <class S>
auto ArrayMethods<S>::flatten() const {
  return ravel();
}
template <class S>
auto ArrayMethods<S>::transpose(std::initializer_list<std::int64_t> perm) const {
  return fj::transpose(self(), perm);
}
template <class S>
template <class Y>
auto ArrayMethods<S>::dot(const Y& y) const {
  return fj::dot(self(), y);
}
template <class S>
template <class... I>
requires(IndexArg<I>&&...) auto ArrayMethods<S>::operator()(const I&... index) const {
  return make_node(IndexOp{{at_item(index)...}}, self());
}
template <class S>
template <class T>
T ExprNode<S>::item() const {
  return Array(static_cast<const S&>(*this)).template item<T>();
}
template <class S>
template <class T>
std::vector<T> ExprNode<S>::to_vector() const {
  return Array(static_cast<const S&>(*this)).template to_vector<T>();
}
template <class S>
Shape ExprNode<S>::shape() const {
  return Array(static_cast<const S&>(*this)).shape();
}
template <class S>
DType ExprNode<S>::dtype() const {
  return Array(static_cast<const S&>(*this)).dtype();
}
template <class S>
int ExprNode<S>::ndim() const {
  return Array(static_cast<const S&>(*this)).ndim();
}
}  // namespace detail

}  // namespace fj
