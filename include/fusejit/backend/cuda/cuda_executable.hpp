// The CUDA backend's executables: a graph compiled for one GPU, its fused kernels launched on
// that GPU's stream, dot_general through cuBLAS, lax control flow between them.
#pragma once
#include <memory>

#include "fusejit/backend/backend.hpp"

namespace fj::backend::cuda {

/// Compiles `graph` for GPU `ordinal` (verify, inline_jit, fuse, CUDA source, NVRTC or the
/// caches). A primitive with no GPU implementation yet raises fj::NotImplementedError naming it
/// and the device, here, before anything runs: a GPU run never gives a wrong result instead.
/// The executable's inputs and outputs are device buffers of that GPU; host inputs (scalars,
/// captured constants) are copied there as they come.
std::shared_ptr<const Executable> compile_for_gpu(const ir::GraphPtr& graph, int ordinal);

}  // namespace fj::backend::cuda
