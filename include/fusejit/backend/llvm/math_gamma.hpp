// erfc, lgamma, digamma as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::llvm_ir {

// Placeholders until the polynomials land: compiling a kernel that uses one fails cleanly.
inline llvm::Value* emit_erfc(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: erfc is not implemented yet");
}
inline llvm::Value* emit_lgamma(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: lgamma is not implemented yet");
}
inline llvm::Value* emit_digamma(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: digamma is not implemented yet");
}

}  // namespace fj::backend::llvm_ir
