// sinh, cosh, asinh, acosh, atanh, cbrt, exp2 as inline IR (definitions of math_ir.hpp, over
// math_fp.hpp).
#pragma once
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/core/error.hpp"

namespace fj::backend::llvm_ir {

// Placeholders until the polynomials land: compiling a kernel that uses one fails cleanly.
inline llvm::Value* emit_sinh(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: sinh is not implemented yet");
}
inline llvm::Value* emit_cosh(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: cosh is not implemented yet");
}
inline llvm::Value* emit_asinh(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: asinh is not implemented yet");
}
inline llvm::Value* emit_acosh(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: acosh is not implemented yet");
}
inline llvm::Value* emit_atanh(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: atanh is not implemented yet");
}
inline llvm::Value* emit_cbrt(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: cbrt is not implemented yet");
}
inline llvm::Value* emit_exp2(llvm::IRBuilderBase&, llvm::Value*) {
  throw CompileError("llvm backend: exp2 is not implemented yet");
}

}  // namespace fj::backend::llvm_ir
