// A shared library opened at run time (dlopen): how the CUDA driver, NVRTC and cuBLAS are reached
// without linking them, so that a build and a process without CUDA work unchanged.
#pragma once
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace fj::backend::cuda {

/// A library handle that is never closed: its function pointers live in process-wide tables.
class DynamicLibrary {
 public:
  /// Tries each name through the loader's own search (LD_LIBRARY_PATH, ldconfig), then each name
  /// in each of `dirs`; `error()` lists every attempt when none loads.
  DynamicLibrary(const std::vector<std::string>& names, const std::vector<std::string>& dirs) {
    for (const std::string& n : names)
      if (try_open(n)) return;
    for (const std::string& d : dirs)
      for (const std::string& n : names)
        if (try_open(d + "/" + n)) return;
  }
  bool loaded() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

  /// The symbol as a function pointer of type F, or nullptr.
  template <class F>
  F symbol(const char* name) const {
    return handle_ ? reinterpret_cast<F>(::dlsym(handle_, name)) : nullptr;
  }

 private:
  bool try_open(const std::string& name) {
    // RTLD_LOCAL: the library's symbols stay out of the global namespace of the host process.
    handle_ = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      path_ = name;
      return true;
    }
    const char* why = ::dlerror();
    error_ += (error_.empty() ? "" : "; ") + std::string(why ? why : name.c_str());
    return false;
  }

  void* handle_ = nullptr;
  std::string path_, error_;
};

/// Where a CUDA toolkit's libraries are looked for after the loader's own path: $CUDA_HOME's and
/// /usr/local/cuda's lib64 and lib.
inline std::vector<std::string> toolkit_library_dirs() {
  std::vector<std::string> dirs;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(var); home && *home)
      dirs.insert(dirs.end(), {std::string(home) + "/lib64", std::string(home) + "/lib"});
  dirs.insert(dirs.end(), {"/usr/local/cuda/lib64", "/usr/local/cuda/lib"});
  return dirs;
}

}  // namespace fj::backend::cuda
