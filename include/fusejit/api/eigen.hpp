// Eigen interop both ways: fj::view wraps Eigen data, fj::to_eigen maps an array's data.
#pragma once
#include <Eigen/Core>
#include <memory>

#include "fusejit/api/factories.hpp"

namespace fj {

/// Wraps a contiguous Eigen vector or row-major matrix without copying; the Eigen object must
/// outlive the array and its data must not change while the array is used (arrays are
/// immutable). A column-major matrix cannot be viewed in row-major order, so it is copied
/// transposed-in-memory: element (i, j) of the result is element (i, j) of the matrix.
template <class Derived>
Array view(const Eigen::DenseBase<Derived>& m) {
  using T = typename Derived::Scalar;
  static_assert(Element<T>, "fj::view: the Eigen scalar type has no fusejit dtype");
  const auto rows = static_cast<std::int64_t>(m.rows()), cols = static_cast<std::int64_t>(m.cols());
  const bool is_vector = Derived::IsVectorAtCompileTime;
  const Shape shape = is_vector ? Shape{rows * cols} : Shape{rows, cols};
  const bool row_major_contiguous =
      is_vector ? m.innerStride() == 1
                : (Derived::IsRowMajor && m.innerStride() == 1 && m.outerStride() == cols);
  if constexpr (requires { m.derived().data(); }) {
    // A Map over nullptr with a size would be read (or copied) later, far from the mistake.
    if (m.derived().data() == nullptr && rows * cols != 0)
      throw ValueError("fj::view: the Eigen object's data pointer is null but its shape is " +
                       ir::Aval{dtype_of_v<T>, shape, false}.str() +
                       "; only an empty Map may have a null pointer");
    if (row_major_contiguous || ((rows <= 1 || cols <= 1) && m.innerStride() == 1)) {
      auto buf = runtime::wrap(const_cast<T*>(m.derived().data()),
                               static_cast<std::size_t>(rows * cols) * sizeof(T), nullptr);
      return Array::from_buffer(std::move(buf), ir::Aval{dtype_of_v<T>, shape, false});
    }
  }
  Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> copy = m;
  return detail::array_from(copy.data(), shape);
}

/// What fj::to_eigen returns: a read-only row-major dynamic-size Eigen::Map of T.
template <class T>
using RowMajorMap =
    Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// A row-major Eigen::Map over the array's data, without copying: rank 2 maps as rows x cols,
/// rank 1 as an n x 1 column, rank 0 as 1 x 1. T must be the array's element type.
template <Element T>
RowMajorMap<T> to_eigen(const Array& a) {
  if (a.ndim() > 2)
    throw ShapeError("fj::to_eigen: needs an array of rank 0, 1 or 2, got shape " +
                     a.shape().str());
  const T* p = a.data<T>();
  const auto rows = a.ndim() == 0 ? 1 : a.shape()[0];
  const auto cols = a.ndim() == 2 ? a.shape()[1] : 1;
  return RowMajorMap<T>(p, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
}

}  // namespace fj
