// Devices: the CPU and each CUDA GPU, as jax.devices() lists them.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace fj {

/// Where arrays live and kernels run: the CPU, or one CUDA GPU (by its driver ordinal).
class Device {
 public:
  /// The platform: the CPU, or a CUDA GPU (device.platform "cpu" / "gpu").
  enum class Kind { cpu, cuda };
  /// The CPU (device 0 of process 0).
  Device() = default;  // the CPU
  /// The platform.
  Kind kind() const { return kind_; }
  /// device.id: the CPU device's index, or the GPU's driver ordinal.
  int id() const { return id_; }
  /// Whether it is a CUDA GPU.
  bool is_gpu() const { return kind_ == Kind::cuda; }
  /// "cpu", or the GPU's name as the driver reports it ("NVIDIA H100 80GB HBM3").
  std::string name() const;
  /// The GPU's architecture ("sm_90"); empty for the CPU.
  std::string arch() const;
  /// The process that owns it (fj::process_index()); 0 in a one-process program.
  int process_index() const { return process_; }
  /// CPU device `id` of the host's split into fj::local_device_count() devices, owned by
  /// `process` (ids run process by process, as JAX numbers them).
  static Device cpu_device(int id, int process = 0) { return Device(Kind::cpu, id, process); }
  /// JAX's repr: CpuDevice(id=0), CudaDevice(id=0).
  std::string str() const {
    return std::string(is_gpu() ? "CudaDevice" : "CpuDevice") + "(id=" + std::to_string(id_) + ")";
  }
  /// The device a buffer's `device` field names: -1 the CPU, else that GPU ordinal.
  static Device of_buffer_device(int ordinal) {
    return ordinal < 0 ? Device() : Device(Kind::cuda, ordinal);
  }
  /// The same platform, id and process.
  friend bool operator==(const Device&, const Device&) = default;
  /// Prints str().
  friend std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

 private:
  friend Device gpu(int);
  Device(Kind k, int id, int process = 0) : kind_(k), id_(id), process_(process) {}
  Kind kind_ = Kind::cpu;
  int id_ = 0;
  int process_ = 0;
};

/// Every device: the CPU devices of every process (one unless fj::set_cpu_device_count or
/// FUSEJIT_CPU_DEVICES split the host), then each CUDA GPU the driver reports (none without a
/// driver). fj::local_devices() and the counts (distributed/devices.hpp) are the CPU's.
std::vector<Device> devices();
/// The CPU.
inline Device cpu() { return Device(); }
/// GPU `index`; raises fj::DeviceError saying what is missing (no driver, no GPU) or how many
/// GPUs there are.
Device gpu(int index = 0);

}  // namespace fj
