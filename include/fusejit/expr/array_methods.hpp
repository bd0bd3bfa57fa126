// The NumPy-style methods of fj::Array (x.T(), x.reshape(...), x(fj::range(1, 4), 2), ...),
// defined here because they build expression nodes, which are defined after Array.
#pragma once
#include "fusejit/expr/shape_ops.hpp"

namespace fj {

inline auto Array::T() const { return fj::transpose(*this); }
inline auto Array::slice(std::initializer_list<std::int64_t> start,
                         std::initializer_list<std::int64_t> stop,
                         std::initializer_list<std::int64_t> step) const {
  return fj::slice(*this, start, stop, step);
}
inline auto Array::reshape(std::initializer_list<std::int64_t> sizes) const {
  return fj::reshape(*this, sizes);
}
inline auto Array::astype(DType to) const { return fj::astype(*this, to); }
inline auto Array::flip() const { return fj::flip(*this); }
inline auto Array::flip(std::initializer_list<int> axes) const { return fj::flip(*this, axes); }
inline auto Array::squeeze() const { return fj::squeeze(*this); }
inline auto Array::squeeze(std::initializer_list<int> axes) const {
  return fj::squeeze(*this, axes);
}
template <class... I>
requires(detail::IndexArg<I>&&...) auto Array::operator()(const I&... index) const {
  return detail::make_node(detail::IndexOp{{detail::to_index(index)...}}, *this);
}

}  // namespace fj
