// Definitions of gpu_runtime.hpp: contexts, the stream, device buffers and staged copies.
#include "fusejit/backend/cuda/gpu_runtime.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace fj::backend::cuda {

std::string error_string(int rc) {
  const char* s = nullptr;
  if (driver().get_error_string) driver().get_error_string(rc, &s);
  return std::string(s ? s : "unknown CUDA error") + " (" + std::to_string(rc) + ")";
}

std::uintptr_t DriverMemory::allocate(std::size_t bytes) {
  gpu_.make_current();
  Driver::DevicePtr p = 0;
  const int rc = driver().mem_alloc(&p, bytes);
  if (rc == kErrorOutOfMemory) return 0;
  gpu_.check(rc, "cuMemAlloc");
  return static_cast<std::uintptr_t>(p);
}

// Never throws (a release runs in destructors): a failure to free is left to the driver, which
// frees everything at exit.
void DriverMemory::release(std::uintptr_t p, std::size_t) noexcept {
  try {
    gpu_.make_current();
  } catch (...) {
    return;
  }
  driver().mem_free(static_cast<Driver::DevicePtr>(p));
}

Gpu::Gpu(int ordinal)
    : ordinal_(ordinal),
      where_("CudaDevice(id=" + std::to_string(ordinal) + ")"),
      raw_(*this),
      alloc_(raw_, where_) {
  const Driver& d = driver();
  int dev = 0;
  check(d.device_get(&dev, ordinal), "cuDeviceGet");
  check(d.primary_ctx_retain(&ctx_, dev), "cuDevicePrimaryCtxRetain");
  make_current();
  // Non-blocking: the stream does not wait for work other libraries put on the legacy stream.
  check(d.stream_create(&stream_, kStreamNonBlocking), "cuStreamCreate");
}

void Gpu::make_current() const {
  thread_local Driver::Handle current = nullptr;
  if (current == ctx_) return;
  check(driver().ctx_set_current(ctx_), "cuCtxSetCurrent");
  current = ctx_;
}

void Gpu::check(int rc, const char* what) const {
  if (rc != 0)
    throw DeviceError(std::string("fj cuda: ") + what + " failed on " + where_ + ": " +
                      error_string(rc));
}

runtime::BufferPtr Gpu::allocate(std::size_t bytes) {
  const std::uintptr_t p = alloc_.allocate(bytes);
  auto buf = std::make_shared<runtime::Buffer>();
  buf->data = reinterpret_cast<void*>(p);
  buf->bytes = bytes;
  buf->device = ordinal_;
  CachingAllocator* a = &alloc_;
  // Should the control block's allocation fail, shared_ptr runs the deleter: nothing leaks.
  buf->owner = std::shared_ptr<const void>(buf->data, [a, bytes](const void* q) {
    a->release(reinterpret_cast<std::uintptr_t>(q), bytes);
  });
  return buf;
}

void* Gpu::staging(std::size_t bytes) {
  if (staging_bytes_ < bytes) {
    make_current();
    if (staging_) driver().mem_free_host(staging_), staging_ = nullptr, staging_bytes_ = 0;
    check(driver().mem_host_alloc(&staging_, bytes, 0), "cuMemHostAlloc (pinned staging)");
    staging_bytes_ = bytes;
  }
  return staging_;
}

runtime::BufferPtr Gpu::upload(const void* host, std::size_t bytes) {
  runtime::BufferPtr buf = allocate(bytes);
  std::lock_guard lock(staging_mu_);
  make_current();
  const auto* src = static_cast<const char*>(host);
  const auto dst = reinterpret_cast<std::uintptr_t>(buf->data);
  void* pinned = staging(std::min(bytes, kStagingBytes));
  for (std::size_t at = 0; at < bytes; at += kStagingBytes) {
    const std::size_t n = std::min(kStagingBytes, bytes - at);
    std::memcpy(pinned, src + at, n);
    check(driver().memcpy_htod_async(dst + at, pinned, n, stream_), "cuMemcpyHtoDAsync");
    check(driver().stream_synchronize(stream_), "cuStreamSynchronize");  // staging is reused
  }
  return buf;
}

void Gpu::download(const runtime::Buffer& src, void* host, std::size_t bytes) {
  std::lock_guard lock(staging_mu_);
  make_current();
  auto* dst = static_cast<char*>(host);
  const auto from = reinterpret_cast<std::uintptr_t>(src.data);
  void* pinned = staging(std::min(bytes, kStagingBytes));
  for (std::size_t at = 0; at < bytes; at += kStagingBytes) {
    const std::size_t n = std::min(kStagingBytes, bytes - at);
    check(driver().memcpy_dtoh_async(pinned, from + at, n, stream_), "cuMemcpyDtoHAsync");
    check(driver().stream_synchronize(stream_), "cuStreamSynchronize");
    std::memcpy(dst + at, pinned, n);
  }
}

void Gpu::copy(std::uintptr_t dst, std::uintptr_t src, std::size_t bytes) {
  if (bytes == 0) return;
  make_current();
  check(driver().memcpy_dtod_async(dst, src, bytes, stream_), "cuMemcpyDtoDAsync");
}

void Gpu::synchronize() {
  make_current();
  check(driver().stream_synchronize(stream_), "cuStreamSynchronize");
}

Gpu& gpu_runtime(int ordinal) {
  const Driver& d = driver();
  const int n = static_cast<int>(d.gpus.size());
  if (n == 0) throw DeviceError("fj cuda: no CUDA GPU is available: " + d.missing);
  if (ordinal < 0 || ordinal >= n)
    throw DeviceError("fj cuda: no GPU of ordinal " + std::to_string(ordinal) + " (there are " +
                      std::to_string(n) + ")");
  static std::mutex mu;
  static std::vector<Gpu*> gpus(static_cast<std::size_t>(n), nullptr);
  std::lock_guard lock(mu);
  Gpu*& g = gpus[static_cast<std::size_t>(ordinal)];
  if (!g) g = new Gpu(ordinal);  // deliberately never deleted (see the header)
  return *g;
}

}  // namespace fj::backend::cuda
