// iota and platform_index for the reference backend: the index along one dimension, written out
// in the dtype; the default branch's index.
#pragma once
#include <cstdint>
#include <vector>

#include "fusejit/backend/backend.hpp"

namespace fj::detail::reference {

namespace ops {
struct iota {
  static constexpr int arity = 0;
  static constexpr bool is_generator = true;
};
struct platform_index {
  static constexpr int arity = 0;
  static constexpr bool is_generator = true;
};
}  // namespace ops

/// out[..., i_dim, ...] = i_dim, converted to T as convert_element_type converts an integer.
template <class T>
void run_iota(const ir::Eqn& eqn, const backend::Value*, backend::Value* out) {
  const Shape& shape = out[0].aval.shape;
  const auto dim = static_cast<int>(eqn.params.get<std::int64_t>("dimension"));
  std::int64_t outer = 1, inner = 1;  // inner: elements per step of `dim`
  for (int d = 0; d < dim; ++d) outer *= shape[d];
  for (int d = dim + 1; d < shape.rank(); ++d) inner *= shape[d];
  const std::int64_t extent = shape[dim];
  T* o = static_cast<T*>(out[0].buf->data);
  for (std::int64_t a = 0; a < outer; ++a)
    for (std::int64_t i = 0; i < extent; ++i)
      for (std::int64_t k = 0; k < inner; ++k) *o++ = static_cast<T>(i);
}

/// platform_index: the reference backend is none of the platforms named, so the default branch.
inline void run_platform_index(const ir::Eqn& eqn, const backend::Value*, backend::Value* out) {
  *static_cast<std::int32_t*>(out[0].buf->data) =
      static_cast<std::int32_t>(eqn.params.get<std::int64_t>("default_index"));
}

}  // namespace fj::detail::reference
