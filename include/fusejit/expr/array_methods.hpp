// The NumPy-style methods of fj::Array and of expressions (x.T(), x.reshape(...),
// x(fj::range(1, 4), 2), ...), and the expressions' accessors (item, to_vector, shape, dtype),
// defined here because they need the expression nodes and fj::Array.
#pragma once
#include "fusejit/expr/shape_ops.hpp"

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
