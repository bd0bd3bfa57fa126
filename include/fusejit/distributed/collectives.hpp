// jax.lax's collectives over a named mapped axis: inside fj::pmap they combine the values of
// every device on the axis; inside fj::vmap with that axis_name they act on the batch axis.
// Each stages one equation (or JAX's composition of them); an unbound name is fj::NameError.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/expr/array.hpp"

namespace fj::lax {

/// The sum of x over every device on the axis.
Array psum(const Array& x, const std::string& axis_name);
/// psum(x) divided by the axis size.
Array pmean(const Array& x, const std::string& axis_name);
/// The elementwise maximum / minimum over the axis (a NaN anywhere wins); no derivative.
///@{
Array pmax(const Array& x, const std::string& axis_name);
Array pmin(const Array& x, const std::string& axis_name);
///@}
/// Every device's x, stacked along a new axis `axis` (or, tiled, concatenated along `axis`).
Array all_gather(const Array& x, const std::string& axis_name, int axis = 0, bool tiled = false);
/// psum(x), of which each device keeps its own slice along `scatter_dimension` (an axis of the
/// axis size, dropped; tiled: a block of size/axis_size, kept).
Array psum_scatter(const Array& x, const std::string& axis_name, int scatter_dimension = 0,
                   bool tiled = false);
/// Splits x along split_axis, sends chunk j to device j, and concatenates what arrives along
/// concat_axis (not tiled: split_axis has the axis size and is dropped; a new axis at
/// concat_axis).
Array all_to_all(const Array& x, const std::string& axis_name, int split_axis, int concat_axis,
                 bool tiled = false);
/// Sends x from device src to device dst for each (src, dst) pair; devices that receive nothing
/// get zeros.
Array ppermute(const Array& x, const std::string& axis_name,
               const std::vector<std::pair<int, int>>& perm);
/// This device's index along the axis (i32), devices ordered process by process.
Array axis_index(const std::string& axis_name);

}  // namespace fj::lax
