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
// Inverse trigonometric functions (math_inverse_trig.hpp); atan2(y, x) as lax.atan2.
llvm::Value* emit_asin(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_acos(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_atan(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_atan2(llvm::IRBuilderBase& b, llvm::Value* y, llvm::Value* x);
// Hyperbolic functions and their inverses, cube root, base-2 exponential (math_hyperbolic.hpp).
llvm::Value* emit_sinh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_cosh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_asinh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_acosh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_atanh(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_cbrt(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_exp2(llvm::IRBuilderBase& b, llvm::Value* x);
// The complementary error function, log|Gamma| and its derivative digamma (math_gamma.hpp).
llvm::Value* emit_erfc(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_lgamma(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_digamma(llvm::IRBuilderBase& b, llvm::Value* x);
// polygamma(m, x), lax.polygamma's operand order (math_polygamma.hpp).
llvm::Value* emit_polygamma(llvm::IRBuilderBase& b, llvm::Value* m, llvm::Value* x);
// zeta(x, q), lax.zeta's operand order (math_polygamma.hpp).
llvm::Value* emit_zeta(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* q);
// exp(-|x|) I0(x) and exp(-|x|) I1(x) (math_bessel.hpp).
llvm::Value* emit_bessel_i0e(llvm::IRBuilderBase& b, llvm::Value* x);
llvm::Value* emit_bessel_i1e(llvm::IRBuilderBase& b, llvm::Value* x);
// The incomplete gamma family, operands (a, x) (math_igamma.hpp): loops over the lanes, not
// straight-line code.
llvm::Value* emit_igamma(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x);
llvm::Value* emit_igammac(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x);
llvm::Value* emit_igamma_grad_a(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x);
llvm::Value* emit_random_gamma_grad(llvm::IRBuilderBase& b, llvm::Value* a, llvm::Value* x);

}  // namespace fj::backend::llvm_ir
