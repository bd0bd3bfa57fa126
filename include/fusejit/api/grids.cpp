// Definitions of api/grids.hpp (implementation unit only).
#include "fusejit/api/grids.hpp"

#include <cmath>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/math_functions.hpp"

namespace fj {

std::vector<Array> meshgrid(const std::vector<Array>& xi, const std::string& indexing) {
  if (indexing != "xy" && indexing != "ij")
    throw ValueError("fj::meshgrid: indexing must be \"xy\" or \"ij\", got \"" + indexing + "\"");
  std::vector<std::int64_t> grid;
  for (const Array& x : xi) {
    if (x.ndim() != 1)
      throw ValueError("fj::meshgrid: each input must be 1-d, got " + x.aval().str());
    grid.push_back(x.shape()[0]);
  }
  const bool xy = indexing == "xy" && xi.size() >= 2;
  if (xy) std::swap(grid[0], grid[1]);
  std::vector<Array> out;
  for (std::size_t i = 0; i < xi.size(); ++i) {
    const std::size_t axis = xy && i < 2 ? 1 - i : i;
    std::vector<std::int64_t> s(grid.size(), 1);
    s[axis] = grid[axis];
    out.push_back(Array(broadcast_to(detail::reshape_dyn(xi[i], s), Shape(grid))));
  }
  return out;
}

Array indices(const std::vector<std::int64_t>& dimensions, std::optional<DType> dtype) {
  std::vector<Array> rows;
  for (std::size_t i = 0; i < dimensions.size(); ++i)
    rows.push_back(
        Array(iota(dtype.value_or(default_int_dtype()), Shape(dimensions), static_cast<int>(i))));
  if (rows.empty()) return zeros({0}, dtype.value_or(default_int_dtype()));
  return Array(stack(rows, 0));
}

Array logspace(double start, double stop, std::int64_t num, bool endpoint, double base,
               std::optional<DType> dtype) {
  const DType d = dtype.value_or(default_float_dtype());
  const Array lin = linspace(start, stop, num, endpoint, is_float(d) ? d : default_float_dtype());
  return Array(pow(full_like(lin, base), lin)).astype(d);
}

Array geomspace(double start, double stop, std::int64_t num, bool endpoint,
                std::optional<DType> dtype) {
  if (start == 0 || stop == 0)
    throw ValueError("fj::geomspace: start and stop must be nonzero, got " + std::to_string(start) +
                     " and " + std::to_string(stop));
  if ((start < 0) != (stop < 0))
    throw ValueError(
        "fj::geomspace: start and stop must have one sign (fusejit has no complex "
        "dtype), got " +
        std::to_string(start) + " and " + std::to_string(stop));
  const double sign = start < 0 ? -1.0 : 1.0;
  const DType d = dtype.value_or(default_float_dtype());
  const Array r = logspace(std::log10(start / sign), std::log10(stop / sign), num, endpoint, 10.0,
                           is_float(d) ? d : default_float_dtype());
  return Array(r * sign).astype(d);
}

Array tri(std::int64_t n, std::int64_t m, std::int64_t k, std::optional<DType> dtype) {
  if (m == -1) m = n;
  const Shape s{n, m};
  const Array rows = Array(iota(DType::i32, s, 0)), cols = Array(iota(DType::i32, s, 1));
  return Array(Array(cols <= Array(rows + static_cast<std::int32_t>(k)))
                   .astype(dtype.value_or(default_float_dtype())));
}

Array identity(std::int64_t n, std::optional<DType> dtype) {
  return eye(n, n, 0, dtype.value_or(default_float_dtype()));
}

}  // namespace fj
