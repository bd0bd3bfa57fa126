// The typed IR helper (Fp) that the math library's functions (math_exp_log.hpp, math_trig.hpp,
// math_special.hpp) are written with.
#pragma once
#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <llvm/ADT/STLFunctionalExtras.h>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/TargetParser/X86TargetParser.h>

#include "fusejit/backend/llvm/math_ir.hpp"

namespace fj::backend::llvm_ir::detail {

// The function attribute that asks the math library to call its shared helpers instead of
// inlining them (Fp::outlined): set by gpu_math_source.cpp, never by the CPU kernels.
inline constexpr const char* kOutlineHelpers = "fj-math-outline-helpers";

// The builder at one float format (f32 or f64) and one shape (scalar or <N x T>): constants
// splat to the shape, and the matching integer type (i32/i64 with the same lane count) is at
// hand for bit manipulation. Every kernel is written once against this and serves both formats;
// where the formats need different constants the call site passes both (`k(f32, f64)`).
//
// Instructions are created with no fast-math flags (see Fp's constructor): the error-free
// transformations used below (Cody-Waite reductions, double-word sums) rely on each operation
// being rounded exactly as written, and a contracted a*b+c would silently change them.
struct Fp {
  llvm::IRBuilderBase& b;
  llvm::IRBuilderBase::FastMathFlagGuard guard;
  llvm::Type* ty;
  llvm::Type* ity;
  bool f64;
  int mant;             // explicit significand bits: 23 or 52
  int bias;             // exponent bias: 127 or 1023
  bool avx512 = false;  // the function being built may use AVX-512F instructions

  Fp(llvm::IRBuilderBase& builder, llvm::Type* t) : b(builder), guard(builder), ty(t) {
    b.setFastMathFlags(llvm::FastMathFlags());
    llvm::Type* s = t->getScalarType();
    assert((s->isFloatTy() || s->isDoubleTy()) && "math_ir: float or double only");
    f64 = s->isDoubleTy();
    mant = f64 ? 52 : 23;
    bias = f64 ? 1023 : 127;
    llvm::Type* is = b.getIntNTy(f64 ? 64 : 32);
    if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t))
      ity = llvm::FixedVectorType::get(is, v->getNumElements());
    else
      ity = is;
    if (llvm::BasicBlock* bb = b.GetInsertBlock(); bb && bb->getParent())
      avx512 = has_avx512f(*bb->getParent());
  }

  // From the function's target attributes: the explicit feature list when it names avx512f
  // (native targets list every feature), else what the named CPU implies (x86-64-v4, ...).
  static bool has_avx512f(const llvm::Function& fn) {
    const llvm::StringRef features = fn.getFnAttribute("target-features").getValueAsString();
    if (features.contains("+avx512f")) return true;
    if (features.contains("-avx512f")) return false;
    const llvm::StringRef cpu = fn.getFnAttribute("target-cpu").getValueAsString();
    if (cpu.empty()) return false;
    llvm::SmallVector<llvm::StringRef, 64> implied;
    llvm::X86::getFeaturesForCPU(cpu, implied, /*NeedPlus=*/false);
    return llvm::is_contained(implied, "avx512f");
  }

  // Constants, rounded to the format by ConstantFP::get. Polynomial coefficients and split
  // constants for f32 are written with at most 24 significant bits, so that rounding is exact;
  // for thresholds (88.8, 0.625, ...) it does not matter.
  llvm::Value* k(double v) const { return llvm::ConstantFP::get(ty, v); }
  llvm::Value* k(double v32, double v64) const { return k(f64 ? v64 : v32); }
  llvm::Value* ki(std::int64_t v) const {
    return llvm::ConstantInt::get(ity, static_cast<std::uint64_t>(v), true);
  }
  llvm::Value* inf() const { return llvm::ConstantFP::getInfinity(ty); }
  llvm::Value* nan() const { return llvm::ConstantFP::getQNaN(ty); }

  llvm::Value* add(llvm::Value* x, llvm::Value* y) { return b.CreateFAdd(x, y); }
  llvm::Value* sub(llvm::Value* x, llvm::Value* y) { return b.CreateFSub(x, y); }
  llvm::Value* mul(llvm::Value* x, llvm::Value* y) { return b.CreateFMul(x, y); }
  llvm::Value* div(llvm::Value* x, llvm::Value* y) { return b.CreateFDiv(x, y); }
  llvm::Value* neg(llvm::Value* x) { return b.CreateFNeg(x); }
  llvm::Value* fma(llvm::Value* x, llvm::Value* y, llvm::Value* z) {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {ty}, {x, y, z});
  }
  llvm::Value* abs(llvm::Value* x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  llvm::Value* floor(llvm::Value* x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x); }
  llvm::Value* sqrt(llvm::Value* x) { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x); }
  llvm::Value* copysign(llvm::Value* mag, llvm::Value* sgn) {
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, mag, sgn);
  }

  // Ordered compares: false when either side is NaN, so a NaN lane keeps the computed value
  // (itself NaN) through every `sel(special_case, ...)` below.
  llvm::Value* lt(llvm::Value* x, llvm::Value* y) { return b.CreateFCmpOLT(x, y); }
  llvm::Value* gt(llvm::Value* x, llvm::Value* y) { return b.CreateFCmpOGT(x, y); }
  llvm::Value* ge(llvm::Value* x, llvm::Value* y) { return b.CreateFCmpOGE(x, y); }
  llvm::Value* eq(llvm::Value* x, llvm::Value* y) { return b.CreateFCmpOEQ(x, y); }
  llvm::Value* ne(llvm::Value* x, llvm::Value* y) { return b.CreateFCmpONE(x, y); }
  llvm::Value* isnan(llvm::Value* x) { return b.CreateFCmpUNO(x, x); }
  llvm::Value* sel(llvm::Value* c, llvm::Value* x, llvm::Value* y) {
    return b.CreateSelect(c, x, y);
  }
  llvm::Value* both(llvm::Value* c, llvm::Value* d) { return b.CreateAnd(c, d); }
  llvm::Value* either(llvm::Value* c, llvm::Value* d) { return b.CreateOr(c, d); }

  llvm::Value* as_int(llvm::Value* x) { return b.CreateBitCast(x, ity); }
  llvm::Value* as_fp(llvm::Value* i) { return b.CreateBitCast(i, ty); }
  llvm::Value* iadd(llvm::Value* x, llvm::Value* y) { return b.CreateAdd(x, y); }
  llvm::Value* isub(llvm::Value* x, llvm::Value* y) { return b.CreateSub(x, y); }
  llvm::Value* iand(llvm::Value* x, llvm::Value* y) { return b.CreateAnd(x, y); }
  llvm::Value* ixor(llvm::Value* x, llvm::Value* y) { return b.CreateXor(x, y); }
  llvm::Value* shl(llvm::Value* x, int n) { return b.CreateShl(x, n); }
  llvm::Value* lshr(llvm::Value* x, int n) { return b.CreateLShr(x, n); }
  llvm::Value* ashr(llvm::Value* x, int n) { return b.CreateAShr(x, n); }
  llvm::Value* imin(llvm::Value* x, llvm::Value* y) {
    return b.CreateSelect(b.CreateICmpSLT(x, y), x, y);
  }
  llvm::Value* igt(llvm::Value* x, llvm::Value* y) { return b.CreateICmpSGT(x, y); }

  // Horner's rule with fused multiply-adds; c[0] is the constant term.
  llvm::Value* poly(llvm::Value* x, std::span<const double> c) {
    llvm::Value* r = k(c.back());
    for (std::size_t i = c.size() - 1; i-- > 0;) r = fma(r, x, k(c[i]));
    return r;
  }
  llvm::Value* poly(llvm::Value* x, std::span<const double> c32, std::span<const double> c64) {
    return poly(x, f64 ? c64 : c32);
  }

  // Round to the nearest integer with the "shifter" trick: adding 1.5 * 2^mant pushes the
  // fraction bits out of the significand. Returns the integer as a float and as an int (the
  // low significand bits of the shifted value). Valid for |v| < 2^(mant-1); beyond that both are
  // meaningless but well defined (no fptosi, whose out-of-range result would be poison), and
  // the callers (exp, expm1) replace what such lanes produce.
  struct Rounded {
    llvm::Value* f;
    llvm::Value* i;
  };
  Rounded round_mul(llvm::Value* x, llvm::Value* scale) {
    llvm::Value* shifter = k(0x1.8p23, 0x1.8p52);
    llvm::Value* t = fma(x, scale, shifter);
    return {sub(t, shifter), isub(as_int(t), as_int(shifter))};
  }

  // p * 2^kf for an integral float kf, rounded once, overflowing to inf and underflowing to 0:
  // AVX-512's vscalefps/pd, one instruction where the portable form (scale_2k) takes eight.
  // Null unless the function may use AVX-512F and the shape is whole 512-bit registers
  // (<16 x float>, <8 x double>, or <16 x double> as two halves).
  llvm::Value* scalef(llvm::Value* p, llvm::Value* kf) {
    auto* v = llvm::dyn_cast<llvm::FixedVectorType>(ty);
    if (!avx512 || !v) return nullptr;
    const unsigned n = v->getNumElements();
    auto one_register = [&](llvm::Value* x, llvm::Value* e) -> llvm::Value* {
      const auto id = f64 ? llvm::Intrinsic::x86_avx512_mask_scalef_pd_512
                          : llvm::Intrinsic::x86_avx512_mask_scalef_ps_512;
      llvm::Type* mask = b.getIntNTy(f64 ? 8 : 16);
      // All lanes written (mask of ones); rounding 4: the current direction (MXCSR).
      return b.CreateIntrinsic(id, {},
                               {x, e, x, llvm::Constant::getAllOnesValue(mask), b.getInt32(4)});
    };
    if (n == (f64 ? 8u : 16u)) return one_register(p, kf);
    if (!(f64 && n == 16)) return nullptr;
    auto half = [&](llvm::Value* x, int lo) {
      llvm::SmallVector<int, 8> idx;
      for (int i = 0; i < 8; ++i) idx.push_back(lo + i);
      return b.CreateShuffleVector(x, idx);
    };
    llvm::SmallVector<int, 16> all;
    for (int i = 0; i < 16; ++i) all.push_back(i);
    return b.CreateShuffleVector(one_register(half(p, 0), half(kf, 0)),
                                 one_register(half(p, 8), half(kf, 8)), all);
  }

  // body(this, args): inline, which is what the CPU kernels get (straight-line code at the
  // kernel's vector width); or, in a function marked kOutlineHelpers (the GPU's C translation,
  // gpu_math_source.cpp), a call to fjm_<name>_<f32|f64>, built in the module once with body, so
  // that a helper several functions share is written once. The arguments and result have this
  // builder's type; a body may read constant tables and use its own stack, nothing else (the
  // call is marked as touching no memory, which keeps it out of the C's memory order). A helper
  // named like a math function (digamma, polygamma at f64) must compute exactly that function,
  // since the generated C has one definition per name and format; inside that function itself
  // the body is inlined.
  llvm::Value* outlined(const std::string& name, std::initializer_list<llvm::Value*> args,
                        llvm::function_ref<llvm::Value*(Fp&, std::span<llvm::Value* const>)> body) {
    return outlined_n(name, args, {ty}, [&](Fp& g, std::span<llvm::Value* const> a) {
      return std::vector<llvm::Value*>{body(g, a)};
    })[0];
  }
  // The same for a helper with several results of the types `results` (this builder's float
  // and integer types): outlined, it returns them as one struct ({fp, int}: the C's fjm_pair).
  std::vector<llvm::Value*> outlined_n(
      const std::string& name, std::initializer_list<llvm::Value*> args,
      std::initializer_list<llvm::Type*> results,
      llvm::function_ref<std::vector<llvm::Value*>(Fp&, std::span<llvm::Value* const>)> body) {
    const std::vector<llvm::Value*> in(args);
    const std::vector<llvm::Type*> types(results);
    llvm::Function* caller = b.GetInsertBlock() ? b.GetInsertBlock()->getParent() : nullptr;
    const std::string fname = "fjm_" + name + (f64 ? "_f64" : "_f32");
    if (!caller || !caller->hasFnAttribute(kOutlineHelpers) || caller->getName() == fname)
      return body(*this, in);
    llvm::Module& m = *caller->getParent();
    llvm::Type* ret = types.size() == 1 ? types[0] : llvm::StructType::get(m.getContext(), types);
    llvm::Function* fn = m.getFunction(fname);
    if (!fn) {
      auto* type = llvm::FunctionType::get(ret, std::vector<llvm::Type*>(in.size(), ty), false);
      fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, fname, m);
      fn->addFnAttr(kOutlineHelpers);
      fn->setDoesNotAccessMemory();  // its own stack and constant tables only, as LLVM counts
      fn->setDoesNotThrow();
      fn->setWillReturn();
      llvm::IRBuilder<> hb(llvm::BasicBlock::Create(m.getContext(), "entry", fn));
      Fp g(hb, ty);
      std::vector<llvm::Value*> params;
      for (llvm::Argument& a : fn->args()) params.push_back(&a);
      const std::vector<llvm::Value*> r = body(g, params);
      llvm::Value* packed = r[0];
      if (types.size() > 1) {
        packed = llvm::UndefValue::get(ret);
        for (unsigned i = 0; i < r.size(); ++i) packed = hb.CreateInsertValue(packed, r[i], {i});
      }
      hb.CreateRet(packed);
    }
    llvm::Value* call = b.CreateCall(fn, in);
    if (types.size() == 1) return {call};
    std::vector<llvm::Value*> out;
    for (unsigned i = 0; i < types.size(); ++i) out.push_back(b.CreateExtractValue(call, {i}));
    return out;
  }

  // 2^n for an integer n in the normal exponent range.
  llvm::Value* pow2i(llvm::Value* n) { return as_fp(shl(iadd(n, ki(bias)), mant)); }
  // A small integer (|n| < 2^22) to the float format, without sitofp: AVX2 has no packed
  // i64 -> f64 conversion, so the f64 path uses the shifter trick in reverse.
  llvm::Value* small_int_to_fp(llvm::Value* n) {
    llvm::Value* shifter = k(0x1.8p23, 0x1.8p52);
    return sub(as_fp(iadd(n, as_int(shifter))), shifter);
  }
};

}  // namespace fj::backend::llvm_ir::detail
