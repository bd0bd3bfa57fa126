// Definitions of api/device.hpp, from the CUDA driver's device list (backend/cuda/driver.hpp).
#include "fusejit/api/device.hpp"
#include "fusejit/backend/cuda/driver.hpp"
#include "fusejit/core/error.hpp"

namespace fj {

std::vector<Device> devices() {
  std::vector<Device> all{cpu()};
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
