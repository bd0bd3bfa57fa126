// Concrete creation results outside a trace: eye, linspace, full_like (implementation unit only).
#include <cmath>

#include "fusejit/api/creation.hpp"

namespace fj::detail {

namespace {

// `v` in dtype T, as convert_element_type converts a double.
template <class T>
T converted(double v) {
  const ir::Literal l = literal_like(v, dtype_of_v<T>, false);
  return std::is_floating_point_v<T> ? static_cast<T>(l.f) : static_cast<T>(l.i);
}
void store_converted(void* base, std::int64_t i, DType d, double v) {
  visit_dtype(d, [&](auto x) { static_cast<decltype(x)*>(base)[i] = converted<decltype(x)>(v); });
}

Array new_array(const Shape& shape, DType d, bool weak = false) {
  auto buf = runtime::allocate(static_cast<std::size_t>(shape.size()) * size_of(d));
  return Array::from_buffer(std::move(buf), ir::Aval{d, shape, weak});
}

// The points XLA's CPU code computes for jnp.linspace (num - 1 <= 512; above that XLA contracts
// 1 - i * r into an FMA as well, which can move a point by an ulp): with r = 1 / div and
// s = stop * r rounded, point i is fma(i, s, start * (1 - i * r)), each other step rounded.
template <class F>
F linspace_point(F lo, F r, F s, std::int64_t i) {
  const F fi = static_cast<F>(i);
  volatile F frac = fi * r;  // volatile: a separate rounding, never contracted with the next op
  volatile F rest = F(1) - frac;
  volatile F from_lo = lo * rest;
  return std::fma(fi, s, static_cast<F>(from_lo));
}

}  // namespace

Array eye_value(std::int64_t n, std::int64_t m, std::int64_t k, DType dtype) {
  if (n < 0 || m < 0)
    throw ValueError("fj::eye: negative dimensions are not allowed, got N=" + std::to_string(n) +
                     ", M=" + std::to_string(m));
  Array out = new_array(Shape{n, m}, dtype);
  visit_dtype(dtype, [&](auto x) {
    using T = decltype(x);
    T* p = static_cast<T*>(out.buffer()->data);
    const T one = converted<T>(1), zero = converted<T>(0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < m; ++j) p[i * m + j] = j == i + k ? one : zero;
  });
  return out;
}

Array linspace_value(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
  if (num < 0)
    throw ValueError("fj::linspace: the number of samples, " + std::to_string(num) +
                     ", must be non-negative");
  Array out = new_array(Shape{num}, dtype);
  void* p = out.buffer()->data;
  const bool f64 = dtype == DType::f64;
  // Computed in float32 (float64 for an f64 result); integers take the floor.
  auto put = [&](std::int64_t i, double v) {
    if (!is_float(dtype) && dtype != DType::bool_) v = std::floor(v);
    store_converted(p, i, dtype, v);
  };
  const double lo = f64 ? start : static_cast<float>(start);
  const double hi = f64 ? stop : static_cast<float>(stop);
  if (num == 1) put(0, lo);
  if (num < 2) return out;
  const std::int64_t div = endpoint ? num - 1 : num;
  for (std::int64_t i = 0; i < div; ++i) {
    if (f64) {
      const double r = 1.0 / static_cast<double>(div);
      put(i, linspace_point<double>(lo, r, hi * r, i));
    } else {
      const float r = 1.0f / static_cast<float>(div);
      const float s = static_cast<float>(hi) * r;
      put(i, static_cast<double>(linspace_point<float>(static_cast<float>(lo), r, s, i)));
    }
  }
  if (endpoint) put(num - 1, hi);
  return out;
}

Array full_like_value(const Array& x, double value, DType dtype, bool weak) {
  Array out = new_array(x.shape(), dtype, weak);
  visit_dtype(dtype, [&](auto t) {
    using T = decltype(t);
    std::fill_n(static_cast<T*>(out.buffer()->data), x.size(), converted<T>(value));
  });
  return out;
}

}  // namespace fj::detail
