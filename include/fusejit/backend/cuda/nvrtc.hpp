// NVRTC, loaded with dlopen on first use: CUDA C++ source to PTX or a cubin, no GPU needed.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "fusejit/backend/cuda/dynamic_library.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::cuda {

/// The NVRTC entry points fusejit uses, declared here (not from nvrtc.h) so that nothing of the
/// toolkit is needed to build. nvrtcResult is an int enum; 0 is NVRTC_SUCCESS.
struct Nvrtc {
  using Program = struct _nvrtcProgram*;
  int (*version)(int*, int*) = nullptr;
  const char* (*get_error_string)(int) = nullptr;
  int (*create_program)(Program*, const char*, const char*, int, const char* const*,
                        const char* const*) = nullptr;
  int (*compile_program)(Program, int, const char* const*) = nullptr;
  int (*destroy_program)(Program*) = nullptr;
  int (*get_program_log_size)(Program, std::size_t*) = nullptr;
  int (*get_program_log)(Program, char*) = nullptr;
  int (*get_ptx_size)(Program, std::size_t*) = nullptr;
  int (*get_ptx)(Program, char*) = nullptr;
  int (*get_cubin_size)(Program, std::size_t*) = nullptr;
  int (*get_cubin)(Program, char*) = nullptr;
  std::string path;     // the library that was loaded
  std::string missing;  // why NVRTC is unavailable; empty when it loaded
};

/// The process's NVRTC table, loaded once; `missing` says why when it could not be.
inline const Nvrtc& nvrtc() {
  static const Nvrtc table = [] {
    Nvrtc t;
    // CUDA 13's and 12's sonames, then the development symlink.
    const DynamicLibrary lib({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"},
                             toolkit_library_dirs());
    if (!lib.loaded()) {
      t.missing = "NVRTC (libnvrtc.so) was not found: " + lib.error();
      return t;
    }
    t.path = lib.path();
    bool all = true;
    auto get = [&](auto& fn, const char* name) {
      fn = lib.symbol<std::remove_reference_t<decltype(fn)>>(name);
      if (!fn) all = false, t.missing += std::string(t.missing.empty() ? "" : ", ") + name;
    };
    get(t.version, "nvrtcVersion");
    get(t.get_error_string, "nvrtcGetErrorString");
    get(t.create_program, "nvrtcCreateProgram");
    get(t.compile_program, "nvrtcCompileProgram");
    get(t.destroy_program, "nvrtcDestroyProgram");
    get(t.get_program_log_size, "nvrtcGetProgramLogSize");
    get(t.get_program_log, "nvrtcGetProgramLog");
    get(t.get_ptx_size, "nvrtcGetPTXSize");
    get(t.get_ptx, "nvrtcGetPTX");
    get(t.get_cubin_size, "nvrtcGetCUBINSize");
    get(t.get_cubin, "nvrtcGetCUBIN");
    if (!all) t.missing = t.path + " lacks " + t.missing;
    return t;
  }();
  return table;
}

/// What NVRTC produced for one source.
struct NvrtcOutput {
  std::string ptx;    // always
  std::string cubin;  // when a real architecture was asked for (sm_XY)
  std::string log;
};

/// Compiles `source` for `arch` ("sm_90" gives PTX and a cubin, "compute_90" PTX only). Raises
/// fj::CompileError with NVRTC's log and the source when it fails, or fj::DeviceError when NVRTC
/// is not available.
inline NvrtcOutput nvrtc_compile(const std::string& source, const std::string& name,
                                 const std::string& arch) {
  const Nvrtc& n = nvrtc();
  if (!n.missing.empty()) throw DeviceError("fj cuda backend: " + n.missing);
  auto check = [&](int rc, const char* what) {
    if (rc != 0)
      throw CompileError(std::string("fj cuda backend: ") + what +
                         " failed: " + n.get_error_string(rc));
  };
  Nvrtc::Program prog = nullptr;
  check(n.create_program(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  struct Guard {
    const Nvrtc& n;
    Nvrtc::Program& p;
    ~Guard() { n.destroy_program(&p); }
  } guard{n, prog};
  // IEEE division and square root, no flush of subnormals, and no contraction: a * b + c is two
  // roundings, as the reference computes it; fused multiply-adds only where the source calls one
  // (the generated math, kernel_math.hpp, as the CPU's polynomials do). __int128: that math's
  // Payne-Hanek reduction multiplies 64-bit words, as the CPU's IR does.
  const std::string arch_opt = "--gpu-architecture=" + arch;
  const std::vector<const char*> opts = {arch_opt.c_str(), "--std=c++17",     "-ftz=false",
                                         "-prec-div=true", "-prec-sqrt=true", "-fmad=false",
                                         "--device-int128"};
  const int rc = n.compile_program(prog, static_cast<int>(opts.size()), opts.data());
  NvrtcOutput out;
  std::size_t size = 0;
  if (n.get_program_log_size(prog, &size) == 0 && size > 1) {
    out.log.resize(size);
    n.get_program_log(prog, out.log.data());
    out.log.resize(size - 1);
  }
  if (rc != 0)
    throw CompileError("fj cuda backend: NVRTC could not compile kernel " + name + " for " + arch +
                       ": " + n.get_error_string(rc) + "\n" + out.log + "\n--- source ---\n" +
                       source);
  check(n.get_ptx_size(prog, &size), "nvrtcGetPTXSize");
  out.ptx.resize(size);
  check(n.get_ptx(prog, out.ptx.data()), "nvrtcGetPTX");
  if (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  if (arch.rfind("sm_", 0) == 0) {
    check(n.get_cubin_size(prog, &size), "nvrtcGetCUBINSize");
    out.cubin.resize(size);
    check(n.get_cubin(prog, out.cubin.data()), "nvrtcGetCUBIN");
  }
  return out;
}

}  // namespace fj::backend::cuda
