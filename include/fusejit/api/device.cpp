// Definitions of api/device.hpp (from the CUDA driver's device list), api/placement.hpp and
// api/device_put.hpp: which device runs a computation, and copies between devices.
#include "fusejit/api/device.hpp"
#include "fusejit/api/device_put.hpp"
#include "fusejit/api/placement.hpp"
#include "fusejit/backend/cuda/cuda_executable.hpp"
#include "fusejit/backend/cuda/gpu_runtime.hpp"
#include "fusejit/backend/cuda/driver.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/distributed/devices.hpp"

namespace fj {

std::vector<Device> devices() {
  std::vector<Device> all;
  const int n = local_device_count();
  for (int p = 0; p < process_count(); ++p)
    for (int i = 0; i < n; ++i) all.push_back(Device::cpu_device(p * n + i, p));
  for (std::size_t i = 0; i < backend::cuda::driver().gpus.size(); ++i)
    all.push_back(gpu(static_cast<int>(i)));
  return all;
}

Device gpu(int index) {
  const auto& d = backend::cuda::driver();
  const int n = static_cast<int>(d.gpus.size());
  if (n == 0)
    throw DeviceError("fj::gpu(" + std::to_string(index) +
                      "): no CUDA GPU is available: " + d.missing);
  if (index < 0 || index >= n)
    throw DeviceError("fj::gpu(" + std::to_string(index) + "): index out of range; there " +
                      (n == 1 ? "is 1 GPU" : "are " + std::to_string(n) + " GPUs"));
  return Device(Device::Kind::cuda, index);
}

std::string Device::name() const {
  return is_gpu() ? backend::cuda::driver().gpus.at(static_cast<std::size_t>(id_)).name : "cpu";
}

std::string Device::arch() const {
  return is_gpu() ? backend::cuda::driver().gpus.at(static_cast<std::size_t>(id_)).arch() : "";
}

}  // namespace fj

// Arrays on devices: placement and copies.

namespace fj::detail {

runtime::BufferPtr host_copy(const runtime::Buffer& b, std::size_t bytes) {
  auto host = runtime::allocate(bytes);
  backend::cuda::gpu_runtime(b.device).download(b, host->data, bytes);
  return host;
}

void wait_for_device(const runtime::Buffer& b) {
  backend::cuda::gpu_runtime(b.device).synchronize();
}

void throw_data_on_gpu(const char* what, const runtime::Buffer& b) {
  throw DeviceError(std::string("fj::Array::") + what + ": the array is on " +
                    Device::of_buffer_device(b.device).str() +
                    "; its elements are not in host memory. Copy it with fj::device_put(x, "
                    "fj::cpu()), or read it with to_vector() or item(), which copy");
}

Device common_device(std::span<const backend::Value> values, const char* api,
                     const std::string& name) {
  int found = -1;         // the first array argument's device
  std::size_t first = 0;  // and its index
  bool any = false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const backend::Value& v = values[i];
    const int d = v.buf ? v.buf->device : -1;
    if (d < 0 && v.aval.shape.rank() == 0) continue;  // a host scalar follows the others
    if (!any) {
      any = true, found = d, first = i;
    } else if (d != found) {
      const std::string who = std::string(api) + (name.empty() ? "" : "(" + name + ")");
      throw DeviceError(who + ": arguments on different devices: argument " +
                        std::to_string(first) + " (" + values[first].aval.str() + ") is on " +
                        Device::of_buffer_device(found).str() + ", argument " + std::to_string(i) +
                        " (" + v.aval.str() + ") on " + Device::of_buffer_device(d).str() +
                        ". Move them to one device with fj::device_put(x, device)");
    }
  }
  return Device::of_buffer_device(found);
}

void check_on_device(std::span<const backend::Value> values, Device d, const char* who) {
  const int want = d.is_gpu() ? d.id() : -1;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const int have = values[i].buf ? values[i].buf->device : -1;
    if (have == want || (have < 0 && values[i].aval.shape.rank() == 0)) continue;
    throw DeviceError(std::string(who) + ": argument " + std::to_string(i) + " (" +
                      values[i].aval.str() + ") is on " + Device::of_buffer_device(have).str() +
                      ", but the function was compiled for " + d.str() +
                      "; compile it for that device or move the argument with fj::device_put");
  }
}

backend::Value put_value(const backend::Value& v, Device d) {
  const int want = d.is_gpu() ? d.id() : -1;
  if (v.buf->device == want) return v;
  const std::size_t bytes =
      v.splat ? size_of(v.aval.dtype)
              : static_cast<std::size_t>(v.aval.shape.size()) * size_of(v.aval.dtype);
  runtime::BufferPtr host = v.buf->device >= 0 ? host_copy(*v.buf, bytes) : v.buf;
  backend::Value out = v;
  out.buf = want >= 0 ? backend::cuda::gpu_runtime(want).upload(host->data, bytes) : host;
  return out;
}

std::shared_ptr<const backend::Executable> compile_on(const ir::GraphPtr& graph, Device d) {
  if (d.is_gpu()) return backend::cuda::compile_for_gpu(graph, d.id());
  return backend::default_backend().compile(graph);
}

}  // namespace fj::detail

namespace fj {

Array device_put(const Array& x, Device device) {
  if (x.is_traced())
    throw NotImplementedError("fj::device_put: the argument is a tracer " + x.tracer_str() +
                              "; fusejit places arrays outside traces only: call it on the "
                              "jitted function's arguments instead");
  if (x.is_empty()) throw TypeError("fj::device_put: the array is empty");
  if (device.is_gpu()) gpu(device.id());  // raises fj::DeviceError for a GPU that is not there
  if (x.device() == device) return x;
  const backend::Value v = detail::put_value({x.buffer(), x.aval()}, device);
  return Array::from_buffer(v.buf, x.aval());
}

}  // namespace fj
