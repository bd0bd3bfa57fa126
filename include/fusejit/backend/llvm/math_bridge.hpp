// Where the kernel lowerings get transcendental functions: the inline polynomial library
// (math_ir), emitted at the kernel's vector width, so nothing calls libm lane by lane.
#pragma once
#include <llvm/IR/IRBuilder.h>

#include "fusejit/backend/llvm/math_bessel.hpp"
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_gamma.hpp"
#include "fusejit/backend/llvm/math_polygamma.hpp"
#include "fusejit/backend/llvm/math_hyperbolic.hpp"
#include "fusejit/backend/llvm/math_igamma.hpp"
#include "fusejit/backend/llvm/math_inverse_trig.hpp"
#include "fusejit/backend/llvm/math_special.hpp"
#include "fusejit/backend/llvm/math_trig.hpp"

namespace fj::backend::llvm_kernel::math {

using B = llvm::IRBuilderBase;
// The binary functions, operands in lax's order.
#define FUSEJIT_MATH_BRIDGE2(name)                                 \
  inline llvm::Value* name(B& b, llvm::Value* x, llvm::Value* y) { \
    return llvm_ir::emit_##name(b, x, y);                          \
  }
FUSEJIT_MATH_BRIDGE2(atan2)
FUSEJIT_MATH_BRIDGE2(polygamma)
FUSEJIT_MATH_BRIDGE2(zeta)
FUSEJIT_MATH_BRIDGE2(igamma)
FUSEJIT_MATH_BRIDGE2(igammac)
FUSEJIT_MATH_BRIDGE2(igamma_grad_a)
FUSEJIT_MATH_BRIDGE2(random_gamma_grad)
#undef FUSEJIT_MATH_BRIDGE2
inline llvm::Value* exp(B& b, llvm::Value* x) { return llvm_ir::emit_exp(b, x); }
inline llvm::Value* log(B& b, llvm::Value* x) { return llvm_ir::emit_log(b, x); }
inline llvm::Value* log1p(B& b, llvm::Value* x) { return llvm_ir::emit_log1p(b, x); }
inline llvm::Value* expm1(B& b, llvm::Value* x) { return llvm_ir::emit_expm1(b, x); }
inline llvm::Value* sin(B& b, llvm::Value* x) { return llvm_ir::emit_sin(b, x); }
inline llvm::Value* cos(B& b, llvm::Value* x) { return llvm_ir::emit_cos(b, x); }
inline llvm::Value* tan(B& b, llvm::Value* x) { return llvm_ir::emit_tan(b, x); }
inline llvm::Value* tanh(B& b, llvm::Value* x) { return llvm_ir::emit_tanh(b, x); }
inline llvm::Value* erf(B& b, llvm::Value* x) { return llvm_ir::emit_erf(b, x); }
inline llvm::Value* erf_inv(B& b, llvm::Value* x) { return llvm_ir::emit_erf_inv(b, x); }
inline llvm::Value* logistic(B& b, llvm::Value* x) { return llvm_ir::emit_logistic(b, x); }
inline llvm::Value* rsqrt(B& b, llvm::Value* x) { return llvm_ir::emit_rsqrt(b, x); }
inline llvm::Value* pow(B& b, llvm::Value* x, llvm::Value* y) { return llvm_ir::emit_pow(b, x, y); }
inline llvm::Value* asin(B& b, llvm::Value* x) { return llvm_ir::emit_asin(b, x); }
inline llvm::Value* acos(B& b, llvm::Value* x) { return llvm_ir::emit_acos(b, x); }
inline llvm::Value* atan(B& b, llvm::Value* x) { return llvm_ir::emit_atan(b, x); }
inline llvm::Value* sinh(B& b, llvm::Value* x) { return llvm_ir::emit_sinh(b, x); }
inline llvm::Value* cosh(B& b, llvm::Value* x) { return llvm_ir::emit_cosh(b, x); }
inline llvm::Value* asinh(B& b, llvm::Value* x) { return llvm_ir::emit_asinh(b, x); }
inline llvm::Value* acosh(B& b, llvm::Value* x) { return llvm_ir::emit_acosh(b, x); }
inline llvm::Value* atanh(B& b, llvm::Value* x) { return llvm_ir::emit_atanh(b, x); }
inline llvm::Value* cbrt(B& b, llvm::Value* x) { return llvm_ir::emit_cbrt(b, x); }
inline llvm::Value* exp2(B& b, llvm::Value* x) { return llvm_ir::emit_exp2(b, x); }
inline llvm::Value* erfc(B& b, llvm::Value* x) { return llvm_ir::emit_erfc(b, x); }
inline llvm::Value* lgamma(B& b, llvm::Value* x) { return llvm_ir::emit_lgamma(b, x); }
inline llvm::Value* digamma(B& b, llvm::Value* x) { return llvm_ir::emit_digamma(b, x); }
inline llvm::Value* bessel_i0e(B& b, llvm::Value* x) { return llvm_ir::emit_bessel_i0e(b, x); }
inline llvm::Value* bessel_i1e(B& b, llvm::Value* x) { return llvm_ir::emit_bessel_i1e(b, x); }

}  // namespace fj::backend::llvm_kernel::math
