// The CUDA backend's code generation, as far as it runs without a GPU: each fused kernel of a
// graph as CUDA C++, and NVRTC compiling it. (The launch runtime comes with a GPU: issue 7.)
#pragma once
#include <string>
#include <vector>

#include "fusejit/ir/graph.hpp"

namespace fj::backend::cuda {

/// One fused kernel as CUDA C++ (without the shared prelude), with the primitives it computes.
struct GeneratedKernel {
  std::string name;    // its extern "C" entry; a reduction also has <name>_combine
  std::string source;  // the kernel's own code; module_text() prepends the prelude
  bool reduction = false;
  std::vector<ir::Prim> prims;  // every primitive of its fused sub-graph
};

/// The kernels of `graph` after the shared passes (verify, inline_jit, fuse), those of its
/// control equations' sub-graphs included, named <prefix>0, <prefix>1, ...
std::vector<GeneratedKernel> generate_kernels(const ir::Graph& graph,
                                              const std::string& prefix = "fj_cuda_k");

/// The CUDA C++ of one NVRTC compilation unit holding `kernels`: the prelude, then each.
std::string module_text(const std::vector<GeneratedKernel>& kernels);

/// What NVRTC made of a module.
struct CompiledModule {
  std::string ptx;    // always
  std::string cubin;  // for an sm_XY architecture
  std::string log;    // NVRTC's warnings, if any
};

/// Compiles `source` with NVRTC for `arch` ("sm_90": a cubin and PTX, "compute_90": PTX).
/// Raises fj::CompileError with NVRTC's log and the source, fj::DeviceError without NVRTC.
CompiledModule compile_module(const std::string& source, const std::string& arch,
                              const std::string& name = "fusejit_module");

/// Why NVRTC cannot be used (not found, an entry point missing); empty when it can.
std::string nvrtc_missing();
/// NVRTC's version as "major.minor", or empty without NVRTC.
std::string nvrtc_version();

}  // namespace fj::backend::cuda
