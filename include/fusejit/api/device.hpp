// Devices: the CPU and each CUDA GPU, as jax.devices() lists them.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace fj {

/// Where arrays live and kernels run: the CPU, or one CUDA GPU (by its driver ordinal).
class Device {
 public:
  enum class Kind { cpu, cuda };
  Device() = default;  // the CPU
  Kind kind() const { return kind_; }
  int id() const { return id_; }
  bool is_gpu() const { return kind_ == Kind::cuda; }
  /// "cpu", or the GPU's name as the driver reports it ("NVIDIA H100 80GB HBM3").
  std::string name() const;
  /// The GPU's architecture ("sm_90"); empty for the CPU.
  std::string arch() const;
  /// JAX's repr: CpuDevice(id=0), CudaDevice(id=0).
  std::string str() const {
    return std::string(is_gpu() ? "CudaDevice" : "CpuDevice") + "(id=" + std::to_string(id_) + ")";
  }
  /// The device a buffer's `device` field names: -1 the CPU, else that GPU ordinal.
  static Device of_buffer_device(int ordinal) {
    return ordinal < 0 ? Device() : Device(Kind::cuda, ordinal);
  }
  friend bool operator==(const Device&, const Device&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

 private:
  friend Device gpu(int);
  Device(Kind k, int id) : kind_(k), id_(id) {}
  Kind kind_ = Kind::cpu;
  int id_ = 0;
};

/// Every device: the CPU first, then each CUDA GPU the driver reports (none without a driver).
std::vector<Device> devices();
/// The CPU.
inline Device cpu() { return Device(); }
/// GPU `index`; raises fj::DeviceError saying what is missing (no driver, no GPU) or how many
/// GPUs there are.
Device gpu(int index = 0);

}  // namespace fj
