// asin, acos, atan, atan2 as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::llvm_ir {

// Placeholders until the polynomials land: compiling a kernel that uses one fails cleanly.
inline llvm::Value* emit_asin(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: asin is not implemented yet");
}
inline llvm::Value* emit_acos(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: acos is not implemented yet");
}
inline llvm::Value* emit_atan(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: atan is not implemented yet");
}
inline llvm::Value* emit_atan2(llvm::IRBuilderBase&, llvm::Value*, llvm::Value*) {
  throw CompileError("llvm backend: atan2 is not implemented yet");
}

}  // namespace fj::backend::llvm_ir
