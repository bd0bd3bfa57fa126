// fj::device_put: an array's data on another device (jax.device_put).
#pragma once
#include "fusejit/api/device.hpp"
#include "fusejit/expr/array.hpp"

namespace fj {

/// `x` on `device`: `x` itself when it is there already, else a copy. Host-to-GPU copies go
/// through pinned staging memory; a copy to the host waits for the work that computes `x`.
/// Raises fj::DeviceError for a GPU that does not exist, fj::TypeError for an empty array and
/// fj::NotImplementedError inside a trace (fusejit stages no device_put primitive yet).
Array device_put(const Array& x, Device device);

}  // namespace fj
