// Out-of-line array factories (implementation unit only).
#include "fusejit/api/factories.hpp"
#include "fusejit/expr/materialize.hpp"

namespace fj {

Array full(const Shape& shape, double value, DType dtype) {
  const auto n = static_cast<std::size_t>(shape.size());
  auto buf = runtime::allocate(n * size_of(dtype));
  visit_dtype(dtype, [&](auto x) {
    using T = decltype(x);
    std::fill_n(static_cast<T*>(buf->data), n, static_cast<T>(value));
  });
  return Array::from_buffer(std::move(buf), ir::Aval{dtype, shape, false});
}

}  // namespace fj

namespace fj::detail {
Array index_scalar(std::int64_t v) {
  return literal_array(ir::Literal::of(static_cast<std::int32_t>(v), true));
}
}  // namespace fj::detail
