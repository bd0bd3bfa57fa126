// The LLVM ORC backend's factory: fused, vectorized, multithreaded CPU kernels.
#pragma once
#include <memory>

#include "fusejit/backend/backend.hpp"

namespace fj::backend {
/// The CPU backend that compiles fused kernels with LLVM ORC; registered as "llvm".
std::unique_ptr<Backend> make_llvm_backend();
}  // namespace fj::backend
