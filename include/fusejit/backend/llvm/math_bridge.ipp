// Where the kernel lowerings get transcendental functions from. Until the inline polynomial
// library (math_ir) is wired in, these call libm lane by lane: correct, but not vectorized.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>

namespace fj::backend::llvm_kernel::math {

inline bool is_f32(llvm::Value* x) { return x->getType()->getScalarType()->isFloatTy(); }

// Calls `name` (libm, f suffix for float) on every lane.
inline llvm::Value* libm(llvm::IRBuilderBase& b, const std::string& name,
                         std::initializer_list<llvm::Value*> args) {
  llvm::Value* first = *args.begin();
  llvm::Type* st = first->getType()->getScalarType();
  llvm::Module* m = b.GetInsertBlock()->getModule();
  std::vector<llvm::Type*> params(args.size(), st);
  auto callee = m->getOrInsertFunction(is_f32(first) ? name + "f" : name,
                                       llvm::FunctionType::get(st, params, false));
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(first->getType());
  if (!vt) return b.CreateCall(callee, std::vector<llvm::Value*>(args));
  llvm::Value* out = llvm::PoisonValue::get(vt);
  for (unsigned i = 0; i < vt->getNumElements(); ++i) {
    std::vector<llvm::Value*> lane;
    for (auto* a : args) lane.push_back(b.CreateExtractElement(a, i));
    out = b.CreateInsertElement(out, b.CreateCall(callee, lane), i);
  }
  return out;
}

inline llvm::Value* exp(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "exp", {x}); }
inline llvm::Value* log(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "log", {x}); }
inline llvm::Value* log1p(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "log1p", {x}); }
inline llvm::Value* expm1(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "expm1", {x}); }
inline llvm::Value* sin(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "sin", {x}); }
inline llvm::Value* cos(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "cos", {x}); }
inline llvm::Value* tan(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "tan", {x}); }
inline llvm::Value* tanh(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "tanh", {x}); }
inline llvm::Value* erf(llvm::IRBuilderBase& b, llvm::Value* x) { return libm(b, "erf", {x}); }
inline llvm::Value* pow(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y) {
  return libm(b, "pow", {x, y});
}
inline llvm::Value* rsqrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  auto* one = llvm::ConstantFP::get(x->getType(), 1.0);
  return b.CreateFDiv(one, b.CreateIntrinsic(llvm::Intrinsic::sqrt, {x->getType()}, {x}));
}
// 1 / (1 + exp(-x)): exp(-x) overflows to inf for very negative x, giving 0, never NaN.
inline llvm::Value* logistic(llvm::IRBuilderBase& b, llvm::Value* x) {
  auto* one = llvm::ConstantFP::get(x->getType(), 1.0);
  return b.CreateFDiv(one, b.CreateFAdd(one, exp(b, b.CreateFNeg(x))));
}

}  // namespace fj::backend::llvm_kernel::math
