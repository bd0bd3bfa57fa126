// jnp's grid and sequence constructors: meshgrid, indices, logspace, geomspace, tri, identity.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/core/x64.hpp"
#include "fusejit/expr/array.hpp"

namespace fj {

/// jnp.meshgrid(*xi, indexing): one array per 1-d input, each broadcast over the grid they
/// span; with indexing "xy" (the default) the first two grid axes are exchanged, "ij" keeps
/// them in order.
std::vector<Array> meshgrid(const std::vector<Array>& xi, const std::string& indexing = "xy");
/// jnp.indices(dimensions, dtype): an array (len(dimensions), *dimensions) whose slice i holds
/// each element's index along axis i (the default int dtype unless given).
Array indices(const std::vector<std::int64_t>& dimensions,
              std::optional<DType> dtype = std::nullopt);
/// jnp.logspace(start, stop, num, endpoint, base): base ** linspace(start, stop, num).
Array logspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
               double base = 10.0, std::optional<DType> dtype = std::nullopt);
/// jnp.geomspace(start, stop, num, endpoint): num points in geometric progression from start to
/// stop (nonzero, one sign).
Array geomspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                std::optional<DType> dtype = std::nullopt);
/// jnp.logspace / geomspace's keyword arguments: fj::logspace(0, 3, {.num = 4, .base = 2}).
struct LogspaceOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::int64_t num = 50;            ///< how many points
  bool endpoint = true;             ///< whether `stop` is the last point
  double base = 10.0;               ///< the base of the powers (logspace only)
  std::optional<DType> dtype{};     ///< the default float dtype when not given
};
/// jnp.logspace / geomspace with keyword-style options.
///@{
inline Array logspace(double start, double stop, const LogspaceOptions& o) {
  return logspace(start, stop, o.num, o.endpoint, o.base, o.dtype);
}
inline Array geomspace(double start, double stop, const LogspaceOptions& o) {
  return geomspace(start, stop, o.num, o.endpoint, o.dtype);
}
///@}
/// jnp.tri(n, m, k, dtype): an n x m array (m = n when -1) with ones at and below diagonal k.
Array tri(std::int64_t n, std::int64_t m = -1, std::int64_t k = 0,
          std::optional<DType> dtype = std::nullopt);
/// jnp.identity(n, dtype): the n x n identity matrix.
Array identity(std::int64_t n, std::optional<DType> dtype = std::nullopt);

}  // namespace fj
