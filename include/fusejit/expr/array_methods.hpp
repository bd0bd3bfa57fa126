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
template <class S>
auto ArrayMethods<S>::sum() const {
  return fj::sum(self());
}
template <class S>
auto ArrayMethods<S>::sum(std::initializer_list<int> axes, bool keepdims) const {
  return fj::sum(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::prod() const {
  return fj::prod(self());
}
template <class S>
auto ArrayMethods<S>::prod(std::initializer_list<int> axes, bool keepdims) const {
  return fj::prod(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::max() const {
  return fj::max(self());
}
template <class S>
auto ArrayMethods<S>::max(std::initializer_list<int> axes, bool keepdims) const {
  return fj::max(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::min() const {
  return fj::min(self());
}
template <class S>
auto ArrayMethods<S>::min(std::initializer_list<int> axes, bool keepdims) const {
  return fj::min(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::mean() const {
  return fj::mean(self());
}
template <class S>
auto ArrayMethods<S>::mean(std::initializer_list<int> axes, bool keepdims) const {
  return fj::mean(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::all() const {
  return fj::all(self());
}
template <class S>
auto ArrayMethods<S>::all(std::initializer_list<int> axes, bool keepdims) const {
  return fj::all(self(), axes, keepdims);
}
template <class S>
auto ArrayMethods<S>::any() const {
  return fj::any(self());
}
template <class S>
auto ArrayMethods<S>::any(std::initializer_list<int> axes, bool keepdims) const {
  return fj::any(self(), axes, keepdims);
}
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
