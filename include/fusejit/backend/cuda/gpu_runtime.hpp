// One CUDA GPU at run time: its primary context, its one stream, its caching allocator, and
// copies between host and device through pinned staging memory. Arrays on a GPU are
// runtime::Buffers whose `device` is the GPU's ordinal and whose `data` is a device pointer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "fusejit/backend/cuda/caching_allocator.hpp"
#include "fusejit/backend/cuda/driver.hpp"
#include "fusejit/runtime/buffer.hpp"

namespace fj::backend::cuda {

/// "CUDA_ERROR_OUT_OF_MEMORY (2)": the driver's name of a result code.
std::string error_string(int rc);

class Gpu;

/// cuMemAlloc and cuMemFree in the GPU's context.
class DriverMemory final : public RawMemory {
 public:
  explicit DriverMemory(Gpu& gpu) : gpu_(gpu) {}
  std::uintptr_t allocate(std::size_t bytes) override;
  void release(std::uintptr_t p, std::size_t bytes) noexcept override;

 private:
  Gpu& gpu_;
};

class Gpu {
 public:
  explicit Gpu(int ordinal);
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  int ordinal() const { return ordinal_; }
  const GpuInfo& info() const { return driver().gpus.at(static_cast<std::size_t>(ordinal_)); }
  /// "CudaDevice(id=0)", as errors name the device.
  const std::string& where() const { return where_; }
  Driver::Handle stream() const { return stream_; }

  /// Makes this GPU's context the calling thread's (free when it already is).
  void make_current() const;
  /// Raises fj::DeviceError naming `what`, this device and the driver's error, unless rc is 0.
  void check(int rc, const char* what) const;

  /// A new device buffer of `bytes` from the caching allocator; it goes back there when the
  /// last reference is dropped.
  runtime::BufferPtr allocate(std::size_t bytes);
  CachingAllocator& allocator() { return alloc_; }

  /// Host memory into a new device buffer; returns once the host memory may be reused.
  runtime::BufferPtr upload(const void* host, std::size_t bytes);
  /// A device buffer's bytes into host memory, after all work queued on the stream.
  void download(const runtime::Buffer& src, void* host, std::size_t bytes);
  /// A device-to-device copy, queued on the stream.
  void copy(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes);
  /// Waits for everything queued on this GPU's stream.
  void synchronize();

 private:
  // Pinned host memory that copies go through, in chunks of at most kStagingBytes.
  static constexpr std::size_t kStagingBytes = std::size_t{32} << 20;
  void* staging(std::size_t bytes);

  int ordinal_;
  std::string where_;
  Driver::Handle ctx_ = nullptr, stream_ = nullptr;
  DriverMemory raw_;
  CachingAllocator alloc_;
  std::mutex staging_mu_;
  void* staging_ = nullptr;
  std::size_t staging_bytes_ = 0;
};

/// The GPU of driver ordinal `ordinal`, set up on first use (never torn down: its blocks may be
/// released by arrays that outlive static destruction). Raises fj::DeviceError without one.
Gpu& gpu_runtime(int ordinal);

}  // namespace fj::backend::cuda
