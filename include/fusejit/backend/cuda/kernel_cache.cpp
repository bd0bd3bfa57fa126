// Definitions of kernel_cache.hpp: NVRTC, the on-disk entries (backend/llvm/disk_cache.hpp's
// format, which holds no LLVM), and cuModuleLoadData.
#include "fusejit/backend/cuda/kernel_cache.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>

#include "fusejit/backend/cuda/cuda_codegen.hpp"
#include "fusejit/backend/cuda/gpu_runtime.hpp"
#include "fusejit/backend/llvm/disk_cache.hpp"
#include "fusejit/core/warning.hpp"
#include "fusejit/runtime/cache_stats.hpp"
#include "fusejit/version.hpp"

namespace fj::backend::cuda {

namespace {

struct Counters {
  std::atomic<std::uint64_t> memory_hits{0}, disk_hits{0}, nvrtc_compiles{0}, disk_load_ns{0},
      module_load_ns{0};
};
Counters& counters() {
  static Counters c;
  return c;
}

namespace disk = llvm_kernel::disk;

// The cubin of `source` for `arch`: a valid disk entry, else NVRTC's (then written to disk).
// An entry is keyed by the source, the architecture and NVRTC's version, and checksummed: a
// damaged or foreign file is a miss, compiled again and overwritten.
std::string cubin_for(const std::string& source, const std::string& arch) {
  const std::string nvrtc = "nvrtc " + nvrtc_version();
  const disk::Meta meta = {FUSEJIT_VERSION, nvrtc, arch,
                           disk::key_of(arch + "\n" + nvrtc + "\n" + source)};
  const std::string dir = fj::cache_dir();
  const std::string path = dir.empty() ? std::string() : disk::entry_path(dir, meta.key);
  if (!path.empty()) {
    std::string bytes;
    if (disk::read_file(path, bytes)) {
      disk::Decoded d = disk::decode(bytes, meta);
      if (d.verdict == disk::Verdict::ok && !d.entry.object.empty()) {
        counters().disk_hits.fetch_add(1, std::memory_order_relaxed);
        disk::touch(path);
        return std::move(d.entry.object);
      }
    }
  }
  CompiledModule m = compile_module(source, arch, kKernelEntry);
  counters().nvrtc_compiles.fetch_add(1, std::memory_order_relaxed);
  if (!path.empty()) {
    const std::string bytes = disk::encode({meta, disk::kFormat, m.cubin, {}});
    if (const std::string err = disk::write_atomic(dir, path, bytes); err.empty())
      disk::account_write(dir, bytes.size(), fj::cache_dir_limit());
    else if (!fj::detail::turn_off_default_cache_dir(dir))
      fj::detail::warn_once(fj::detail::WarningKind::disk_unwritable,
                            "kernel cache directory " + dir + " is not writable (" + err +
                                "); GPU kernels are compiled but not saved");
  }
  return std::move(m.cubin);
}

}  // namespace

std::shared_ptr<const LoadedKernel> load_kernel(const std::string& source, bool reduction,
                                                int ordinal) {
  static std::mutex mu;
  static std::map<std::pair<int, std::string>, std::shared_ptr<const LoadedKernel>> loaded;
  std::lock_guard lock(mu);  // held while compiling: a kernel is compiled once
  auto key = std::make_pair(ordinal, source);
  if (auto it = loaded.find(key); it != loaded.end()) {
    counters().memory_hits.fetch_add(1, std::memory_order_relaxed);
    return it->second;
  }
  Gpu& gpu = gpu_runtime(ordinal);
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t disk_hits_before = counters().disk_hits.load();
  const std::string cubin = cubin_for(source, gpu.info().arch());
  auto k = std::make_shared<LoadedKernel>();
  k->source = source;
  gpu.make_current();
  const auto load_start = std::chrono::steady_clock::now();
  gpu.check(driver().module_load_data(&k->module, cubin.data()), "cuModuleLoadData");
  gpu.check(driver().module_get_function(&k->main, k->module, kKernelEntry), "cuModuleGetFunction");
  if (reduction)
    gpu.check(driver().module_get_function(&k->combine, k->module,
                                           (std::string(kKernelEntry) + "_combine").c_str()),
              "cuModuleGetFunction");
  const auto now = std::chrono::steady_clock::now();
  counters().module_load_ns.fetch_add(
      static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(now - load_start).count()),
      std::memory_order_relaxed);
  if (counters().disk_hits.load() != disk_hits_before)
    counters().disk_load_ns.fetch_add(
        static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(now - start).count()),
        std::memory_order_relaxed);
  loaded.emplace(std::move(key), k);
  return k;
}

GpuKernelStats gpu_kernel_stats() {
  const Counters& c = counters();
  return {c.memory_hits.load(), c.disk_hits.load(), c.nvrtc_compiles.load(), c.disk_load_ns.load(),
          c.module_load_ns.load()};
}

}  // namespace fj::backend::cuda
