// Where the LLVM majors fusejit supports (19 and 22) differ in API, in one place: the rest of the
// backend calls these and never tests LLVM_VERSION_MAJOR itself.
#pragma once
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

#include <string>

#if LLVM_VERSION_MAJOR < 19
#error "fusejit needs LLVM 19 or 22 (CMake's find_package(LLVM) accepts only those)"
#endif

namespace fj::backend::llvm_kernel {

/// Module::setTargetTriple takes a Triple from LLVM 21 on, a string before.
inline void set_target_triple(llvm::Module& m, const std::string& triple) {
#if LLVM_VERSION_MAJOR >= 21
  m.setTargetTriple(llvm::Triple(triple));
#else
  m.setTargetTriple(triple);
#endif
}

}  // namespace fj::backend::llvm_kernel
