// Transcendental functions (exp, log, sin, erf, pow, ...) emitted as inline, vectorizable LLVM IR.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Value.h>

// Every function takes a float or double scalar or fixed vector and returns a value of the same
// type. The code is straight-line, built from arithmetic, compares, selects, integer bit
// operations and the llvm.fma / llvm.fabs / llvm.floor / llvm.copysign intrinsics, so it
// vectorizes at any width. The one exception is sin/cos/tan of huge arguments: a branch, taken
// only when some lane needs it, runs a scalar Payne-Hanek reduction over the lanes, inline (no
// call: math_trig_reduce.hpp says why), reading a table. The functions save and restore the
// builder's fast-math flags and emit their own instructions with none: results are the same
// whatever flags the caller uses, and fused multiply-adds are requested explicitly (llvm.fma).
// Accuracy bounds and domains: docs/MATH.md.
namespace fj::backend::llvm_ir {

llvm::Value* emit_exp(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_expm1(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_log(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_log1p(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_sin(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_cos(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_tan(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_tanh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_erf(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_erf_inv(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_logistic(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_rsqrt(llvm::IRBuilderBase& b, llvm::Value* x);
// C99 Annex F pow, elementwise; x and y have the same type.
llvm::Value* emit_pow(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y);

}  // namespace fj::backend::llvm_ir
