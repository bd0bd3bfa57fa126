// Where a computation runs: it follows its arguments' device (JAX's "computation follows data"),
// and arrays move between devices only through fj::device_put or an implicit copy back to the
// host (to_vector, item, printing).
#pragma once
#include <memory>
#include <span>
#include <string>

#include "fusejit/api/device.hpp"
#include "fusejit/backend/backend.hpp"

namespace fj::detail {

/// The device of `values`, the arguments of `who` ("fj::jit(f)"): the one device every array
/// argument is on. A rank-0 host value (a scalar) follows the others, as JAX's Python scalars
/// do. Arrays on different devices raise fj::DeviceError naming each argument and its device.
/// `api` and `name` make the error's "who" ("fj::jit", "f"), built only when it is raised.
Device common_device(std::span<const backend::Value> values, const char* api,
                     const std::string& name = {});

/// Raises fj::DeviceError unless every array of `values` is on `d` (host scalars may be
/// anywhere): a function compiled for one device called with arrays on another.
void check_on_device(std::span<const backend::Value> values, Device d, const char* who);

/// `v` on device `d`: itself when it is there, else a copy.
backend::Value put_value(const backend::Value& v, Device d);

/// Compiles `graph` for device `d`: the default backend on the CPU, the CUDA backend on a GPU.
std::shared_ptr<const backend::Executable> compile_on(const ir::GraphPtr& graph, Device d);

}  // namespace fj::detail
