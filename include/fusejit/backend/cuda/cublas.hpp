// cuBLAS, loaded with dlopen on first use like the driver and NVRTC: the GPU's dot_general.
#pragma once
#include <string>
#include <type_traits>

#include "fusejit/backend/cuda/dynamic_library.hpp"

namespace fj::backend::cuda {

/// The cuBLAS entry points fusejit uses, declared here (not from cublas_api.h). cublasStatus_t
/// and cublasOperation_t are int enums (0: success; 0: N, 1: T); a handle and a stream are
/// opaque pointers.
struct Cublas {
  using Handle = void*;
  int (*create)(Handle*) = nullptr;
  int (*set_stream)(Handle, void*) = nullptr;
  const char* (*status_string)(int) = nullptr;
  int (*sgemm_strided_batched)(Handle, int, int, int, int, int, const float*, const float*, int,
                               long long, const float*, int, long long, const float*, float*, int,
                               long long, int) = nullptr;
  int (*dgemm_strided_batched)(Handle, int, int, int, int, int, const double*, const double*, int,
                               long long, const double*, int, long long, const double*, double*,
                               int, long long, int) = nullptr;
  std::string path;
  std::string missing;  // why cuBLAS cannot be used; empty when it loaded
};

/// The process's cuBLAS table, loaded once (CUDA 13's soname, then 12's).
inline const Cublas& cublas() {
  static const Cublas table = [] {
    Cublas t;
    const DynamicLibrary lib({"libcublas.so.13", "libcublas.so.12", "libcublas.so"},
                             toolkit_library_dirs());
    if (!lib.loaded()) {
      t.missing = "cuBLAS (libcublas.so.13 or .12) was not found: " + lib.error();
      return t;
    }
    t.path = lib.path();
    auto get = [&](auto& fn, const char* name) {
      fn = lib.symbol<std::remove_reference_t<decltype(fn)>>(name);
      if (!fn) t.missing += std::string(t.missing.empty() ? "" : ", ") + name;
    };
    get(t.create, "cublasCreate_v2");
    get(t.set_stream, "cublasSetStream_v2");
    get(t.status_string, "cublasGetStatusString");
    get(t.sgemm_strided_batched, "cublasSgemmStridedBatched");
    get(t.dgemm_strided_batched, "cublasDgemmStridedBatched");
    if (!t.missing.empty()) t.missing = t.path + " lacks " + t.missing;
    return t;
  }();
  return table;
}

}  // namespace fj::backend::cuda
