// The LLVM code generator's entry points: a fused kernel's plan in, its LLVM function out.
// codegen.cpp compiles the emitters (kernel_builder.hpp, emit_ops.hpp, the math library) in a
// translation unit of their own, so the JIT session's code and the code generator's rebuild apart.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "fusejit/backend/kernel_plan.hpp"

namespace llvm {
class Function;
class LLVMContext;
class Module;
}  // namespace llvm

namespace fj::backend::llvm_kernel {

using kernel::Dim;
using kernel::Map;
using kernel::Node;
using kernel::Phase;
using kernel::Plan;
using kernel::Planner;

/// void kernel(void** buffers /* inputs, then outputs */, const int64_t* iparams /* extents,
/// each load's strides and base, each iota's step and offset, then a reduction's blocking */,
/// const int64_t* scalars /* one 8-byte slot per constant */,
/// int64_t begin, int64_t end /* flat range of the iteration space */)
using KernelFn = void (*)(void* const*, const std::int64_t*, const std::int64_t*, std::int64_t,
                          std::int64_t);

/// A module of its own (with its context) holding the kernel as an external function `name`,
/// built for `cpu` with `features` at `lanes` vector lanes of the widest element type.
std::pair<std::unique_ptr<llvm::Module>, std::unique_ptr<llvm::LLVMContext>> build_kernel_module(
    const kernel::Plan& plan, int lanes, const std::string& name, const std::string& cpu,
    const std::string& features);

/// The kernel emitted into `m` as an external function `name` (a native loop driver inlines it).
llvm::Function* build_kernel_into(llvm::Module& m, const kernel::Plan& plan, int lanes,
                                  const std::string& name, const std::string& cpu,
                                  const std::string& features);

}  // namespace fj::backend::llvm_kernel
