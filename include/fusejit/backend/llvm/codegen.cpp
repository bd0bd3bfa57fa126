// The LLVM code generator, compiled once: codegen.hpp's entry points over KernelBuilder.
#include "fusejit/backend/llvm/codegen.hpp"

#include "fusejit/backend/llvm/kernel_builder.hpp"

namespace fj::backend::llvm_kernel {

std::pair<std::unique_ptr<llvm::Module>, std::unique_ptr<llvm::LLVMContext>> build_kernel_module(
    const kernel::Plan& plan, int lanes, const std::string& name, const std::string& cpu,
    const std::string& features) {
  return KernelBuilder(plan, lanes, name).build(cpu, features);
}

llvm::Function* build_kernel_into(llvm::Module& m, const kernel::Plan& plan, int lanes,
                                  const std::string& name, const std::string& cpu,
                                  const std::string& features) {
  return KernelBuilder(plan, lanes, name).build_in(m, cpu, features);
}

}  // namespace fj::backend::llvm_kernel
