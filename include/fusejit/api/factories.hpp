// Array factories: fj::array, zeros, ones, full, arange.
#pragma once
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "fusejit/core/x64.hpp"
#include "fusejit/expr/array.hpp"

namespace fj {

namespace detail {
template <Element T>
Array array_from(const T* data, const Shape& shape) {
  const auto n = static_cast<std::size_t>(shape.size());
  auto buf = runtime::allocate(n * sizeof(T));
  if (n) std::memcpy(buf->data, data, n * sizeof(T));
  return Array::from_buffer(std::move(buf), ir::Aval{dtype_of_v<T>, shape, false});
}
}  // namespace detail

/// A rank-0 array; its dtype is the C++ type's (3.0f -> f32, 3.0 -> f64, 3 -> i32).
template <Element T>
Array array(T value) {
  return detail::array_from(&value, Shape{});
}
/// A 1-D array from a braced list: fj::array({1.f, 2.f}).
template <Element T>
Array array(std::initializer_list<T> values) {
  return detail::array_from(values.begin(), Shape{static_cast<std::int64_t>(values.size())});
}
/// A 2-D array from nested braced lists; rows must have one length.
template <Element T>
Array array(std::initializer_list<std::initializer_list<T>> rows) {
  const auto cols = rows.size() ? rows.begin()->size() : 0;
  std::vector<T> flat;
  for (auto& r : rows) {
    if (r.size() != cols)
      throw ShapeError("fj::array: nested lists are ragged: a row of length " +
                       std::to_string(r.size()) + " after rows of length " + std::to_string(cols));
    flat.insert(flat.end(), r.begin(), r.end());
  }
  return detail::array_from(
      flat.data(), Shape{static_cast<std::int64_t>(rows.size()), static_cast<std::int64_t>(cols)});
}
/// An array of the given shape from row-major data; sizes must match.
template <Element T>
Array array(const std::vector<T>& data, const Shape& shape) {
  if (static_cast<std::int64_t>(data.size()) != shape.size())
    throw ShapeError("fj::array: " + std::to_string(data.size()) + " values do not fill shape " +
                     shape.str());
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<char> bytes(data.begin(), data.end());  // std::vector<bool> is packed
    return detail::array_from(reinterpret_cast<const bool*>(bytes.data()), shape);
  } else {
    return detail::array_from(data.data(), shape);
  }
}

/// An array of `shape` filled with `value` in dtype `dtype` (jnp.full): the default float dtype
/// unless given (float32, or float64 in x64 mode).
Array full(const Shape& shape, double value, DType dtype = default_float_dtype());
/// jnp.zeros: zeros of the default float dtype unless `dtype` is given.
inline Array zeros(const Shape& shape, DType dtype = default_float_dtype()) {
  return full(shape, 0, dtype);
}
/// jnp.ones: ones of the default float dtype unless `dtype` is given.
inline Array ones(const Shape& shape, DType dtype = default_float_dtype()) {
  return full(shape, 1, dtype);
}

/// A 1-D array of a vector's elements, as jnp.array(list): fj::array(std::vector<float>{...}).
template <Element T>
Array array(const std::vector<T>& data) {
  return array(data, Shape{static_cast<std::int64_t>(data.size())});
}

namespace detail {
template <class E, class T>
Array arange_of(T start, T stop, T step) {
  std::vector<E> v;
  if constexpr (std::is_floating_point_v<T>) {
    const auto n = static_cast<std::int64_t>(std::ceil((static_cast<double>(stop) - start) / step));
    for (std::int64_t i = 0; i < n; ++i)
      v.push_back(static_cast<E>(start + static_cast<double>(i) * step));
  } else {
    for (T x = start; step > 0 ? x < stop : x > stop; x += step) v.push_back(static_cast<E>(x));
  }
  return array(v, Shape{static_cast<std::int64_t>(v.size())});
}
}  // namespace detail

/// [start, stop) in steps of `step`, as jnp.arange with Python numbers: integers give the
/// default int dtype (int32, or int64 in x64 mode), `double` the default float dtype (float32,
/// or float64 in x64 mode), `float` float32.
template <class T>
requires std::is_arithmetic_v<T> Array arange(T start, T stop, T step = T(1)) {
  if (step == T(0)) throw ValueError("fj::arange: step must not be zero");
  if constexpr (std::is_same_v<T, float>)
    return detail::arange_of<float>(start, stop, step);
  else if constexpr (std::is_floating_point_v<T>)
    return x64_enabled() ? detail::arange_of<double>(start, stop, step)
                         : detail::arange_of<float>(start, stop, step);
  else
    return x64_enabled() ? detail::arange_of<std::int64_t>(start, stop, step)
                         : detail::arange_of<std::int32_t>(start, stop, step);
}
/// [0, stop) in steps of 1 (jnp.arange(stop)).
template <class T>
requires std::is_arithmetic_v<T> Array arange(T stop) { return arange(T(0), stop, T(1)); }

}  // namespace fj
