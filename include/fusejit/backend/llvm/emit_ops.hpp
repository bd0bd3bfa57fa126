// One IR lowering per primitive, in a table generated from primitives.def: a primitive without
// a lowering does not compile. Semantics match the reference backend bit for bit where exact.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include <vector>

#include "fusejit/backend/kernel_plan.hpp"
#include "fusejit/backend/llvm/codegen.hpp"
#include "fusejit/backend/llvm/math_bridge.hpp"
#include "fusejit/ir/integer_pow.hpp"
#include "fusejit/ir/threefry.hpp"

namespace fj::backend::llvm_kernel {

/// IR types and the builder for one kernel; `width` lanes per value (1: scalar code).
struct Emitter {
  llvm::LLVMContext& ctx;
  llvm::IRBuilder<>& b;
  unsigned width = 1;

  llvm::Type* scalar_type(DType d) const {
    switch (d) {
      case DType::bool_:
        return b.getInt1Ty();
      case DType::i32:
      case DType::u32:
        return b.getInt32Ty();
      case DType::i64:
        return b.getInt64Ty();
      case DType::f32:
        return b.getFloatTy();
      case DType::f64:
        break;
    }
    return b.getDoubleTy();
  }
  /// Bools are one byte in memory and i1 in registers.
  llvm::Type* memory_type(DType d) const {
    return d == DType::bool_ ? b.getInt8Ty() : scalar_type(d);
  }
  llvm::Type* type(DType d) const { return vec(scalar_type(d)); }
  llvm::Type* vec(llvm::Type* t) const {
    return width == 1 ? t : llvm::FixedVectorType::get(t, width);
  }
  llvm::Value* splat(llvm::Value* s) const {
    return width == 1 ? s : b.CreateVectorSplat(width, s);
  }
  llvm::Value* constant(DType d, double v) const {
    llvm::Type* t = scalar_type(d);
    llvm::Value* c = is_float(d)
                         ? llvm::ConstantFP::get(t, v)
                         : llvm::ConstantInt::get(
                               t, static_cast<std::uint64_t>(static_cast<std::int64_t>(v)), true);
    return splat(c);
  }
  llvm::Value* intrinsic(llvm::Intrinsic::ID id, std::vector<llvm::Value*> args) const {
    return b.CreateIntrinsic(id, {args[0]->getType()}, args);
  }
};

using Args = const std::vector<llvm::Value*>&;
using LowerFn = llvm::Value* (*)(Emitter&, const Node&, Args, DType arg_dtype);

namespace lower {

inline bool is_signed(DType d) { return d == DType::i32 || d == DType::i64; }
inline llvm::Value* isnan(Emitter& e, llvm::Value* x) { return e.b.CreateFCmpUNO(x, x); }

#define FUSEJIT_MATH(id, fn) \
  inline llvm::Value* id(Emitter& e, const Node&, Args a, DType) { return fn(e.b, a[0]); }
FUSEJIT_MATH(exp, math::exp)
FUSEJIT_MATH(log, math::log)
FUSEJIT_MATH(log1p, math::log1p)
FUSEJIT_MATH(expm1, math::expm1)
FUSEJIT_MATH(sin, math::sin)
FUSEJIT_MATH(cos, math::cos)
FUSEJIT_MATH(tan, math::tan)
FUSEJIT_MATH(tanh, math::tanh)
FUSEJIT_MATH(logistic, math::logistic)
FUSEJIT_MATH(erf, math::erf)
FUSEJIT_MATH(erf_inv, math::erf_inv)
FUSEJIT_MATH(rsqrt, math::rsqrt)
FUSEJIT_MATH(asin, math::asin)
FUSEJIT_MATH(acos, math::acos)
FUSEJIT_MATH(atan, math::atan)
FUSEJIT_MATH(sinh, math::sinh)
FUSEJIT_MATH(cosh, math::cosh)
FUSEJIT_MATH(asinh, math::asinh)
FUSEJIT_MATH(acosh, math::acosh)
FUSEJIT_MATH(atanh, math::atanh)
FUSEJIT_MATH(cbrt, math::cbrt)
FUSEJIT_MATH(exp2, math::exp2)
FUSEJIT_MATH(erfc, math::erfc)
FUSEJIT_MATH(lgamma, math::lgamma)
FUSEJIT_MATH(digamma, math::digamma)
FUSEJIT_MATH(bessel_i0e, math::bessel_i0e)
FUSEJIT_MATH(bessel_i1e, math::bessel_i1e)
#undef FUSEJIT_MATH
#define FUSEJIT_MATH2(id, fn) \
  inline llvm::Value* id(Emitter& e, const Node&, Args a, DType) { return fn(e.b, a[0], a[1]); }
FUSEJIT_MATH2(atan2, math::atan2)
FUSEJIT_MATH2(polygamma, math::polygamma)
FUSEJIT_MATH2(zeta, math::zeta)
FUSEJIT_MATH2(igamma, math::igamma)
FUSEJIT_MATH2(igammac, math::igammac)
FUSEJIT_MATH2(igamma_grad_a, math::igamma_grad_a)
FUSEJIT_MATH2(random_gamma_grad, math::random_gamma_grad)
#undef FUSEJIT_MATH2
// The next float after x toward y, read off the bit pattern: one step up or down in magnitude,
// or the smallest subnormal with y's sign from a zero; NaN when either is NaN, y when x == y.
inline llvm::Value* nextafter(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  llvm::Value *x = a[0], *y = a[1];
  llvm::Type* it = e.type(d == DType::f32 ? DType::i32 : DType::i64);
  llvm::Value* bits = b.CreateBitCast(x, it);
  llvm::Value* zero = e.constant(d, 0);
  llvm::Value* away = b.CreateICmpEQ(b.CreateFCmpOGT(y, x), b.CreateFCmpOGT(x, zero));
  llvm::Value* one = llvm::ConstantInt::get(it, 1);
  llvm::Value* step = b.CreateBitCast(
      b.CreateSelect(away, b.CreateAdd(bits, one), b.CreateSub(bits, one)), x->getType());
  llvm::Value* tiny =
      b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, b.CreateBitCast(one, x->getType()), y);
  llvm::Value* r = b.CreateSelect(b.CreateFCmpOEQ(x, zero), tiny, step);
  r = b.CreateSelect(b.CreateFCmpOEQ(x, y), y, r);
  return b.CreateSelect(b.CreateFCmpUNO(x, y), b.CreateFAdd(x, y), r);
}
inline llvm::Value* square(Emitter& e, const Node&, Args a, DType d) {
  return is_float(d) ? e.b.CreateFMul(a[0], a[0]) : e.b.CreateMul(a[0], a[0]);
}
// |x| < inf is false for both infinities and (ordered compare) for NaN.
inline llvm::Value* is_finite(Emitter& e, const Node&, Args a, DType d) {
  llvm::Value* inf = e.splat(llvm::ConstantFP::getInfinity(e.scalar_type(d)));
  return e.b.CreateFCmpOLT(e.intrinsic(llvm::Intrinsic::fabs, {a[0]}), inf);
}
inline llvm::Value* population_count(Emitter& e, const Node&, Args a, DType) {
  return e.intrinsic(llvm::Intrinsic::ctpop, {a[0]});
}
// ctlz with is_zero_poison = false: clz(0) is the bit width.
inline llvm::Value* clz(Emitter& e, const Node&, Args a, DType) {
  return e.b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, a[0], e.b.getFalse());
}

inline llvm::Value* stop_gradient(Emitter&, const Node&, Args a, DType) { return a[0]; }
inline llvm::Value* copy(Emitter&, const Node&, Args a, DType) { return a[0]; }
inline llvm::Value* checkpoint_name(Emitter&, const Node&, Args a, DType) { return a[0]; }
inline llvm::Value* neg(Emitter& e, const Node&, Args a, DType d) {
  return is_float(d) ? e.b.CreateFNeg(a[0]) : e.b.CreateNeg(a[0]);
}
inline llvm::Value* sqrt(Emitter& e, const Node&, Args a, DType) {
  return e.intrinsic(llvm::Intrinsic::sqrt, {a[0]});
}
inline llvm::Value* abs(Emitter& e, const Node&, Args a, DType d) {
  if (is_float(d)) return e.intrinsic(llvm::Intrinsic::fabs, {a[0]});
  if (!is_signed(d)) return a[0];
  return e.b.CreateSelect(e.b.CreateICmpSLT(a[0], e.constant(d, 0)), e.b.CreateNeg(a[0]),
                          a[0]);  // INT_MIN wraps
}
inline llvm::Value* sign(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  if (is_float(d)) {
    // -1 / +1, and x itself for ±0 and NaN, as lax.sign.
    auto* pos = b.CreateFCmpOGT(a[0], e.constant(d, 0));
    auto* negv = b.CreateFCmpOLT(a[0], e.constant(d, 0));
    return b.CreateSelect(pos, e.constant(d, 1), b.CreateSelect(negv, e.constant(d, -1), a[0]));
  }
  if (!is_signed(d)) return b.CreateZExt(b.CreateICmpNE(a[0], e.constant(d, 0)), e.type(d));
  auto* pos = b.CreateZExt(b.CreateICmpSGT(a[0], e.constant(d, 0)), e.type(d));
  auto* negv = b.CreateZExt(b.CreateICmpSLT(a[0], e.constant(d, 0)), e.type(d));
  return b.CreateSub(pos, negv);
}
inline llvm::Value* floor(Emitter& e, const Node&, Args a, DType) {
  return e.intrinsic(llvm::Intrinsic::floor, {a[0]});
}
inline llvm::Value* ceil(Emitter& e, const Node&, Args a, DType) {
  return e.intrinsic(llvm::Intrinsic::ceil, {a[0]});
}
inline llvm::Value* round(Emitter& e, const Node& n, Args a, DType) {
  const auto* m = n.eqn->params.find("rounding_method");
  const bool to_even = m && std::get<std::int64_t>(*m) == 1;
  return e.intrinsic(to_even ? llvm::Intrinsic::roundeven : llvm::Intrinsic::round, {a[0]});
}
// The reference's multiply order (ir/integer_pow.hpp), without fast-math flags: a contracted
// x*x + c would round differently from the reference's separate multiply and add.
inline llvm::Value* integer_pow(Emitter& e, const Node& n, Args a, DType d) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(e.b);
  e.b.setFastMathFlags(llvm::FastMathFlags());
  const auto y = n.eqn->params.get<std::int64_t>("y");
  return ir::integer_pow_by_squaring(
      a[0], y,
      [&](llvm::Value* p, llvm::Value* q) {
        return is_float(d) ? e.b.CreateFMul(p, q) : e.b.CreateMul(p, q);
      },
      [&](llvm::Value* p, llvm::Value* q) -> llvm::Value* {
        if (is_float(d)) return e.b.CreateFDiv(p, q);
        throw CompileError("llvm backend: integer_pow of an integer to a negative power");
      },
      [&] { return e.constant(d, 1); });
}

inline llvm::Value* add(Emitter& e, const Node&, Args a, DType d) {
  return is_float(d) ? e.b.CreateFAdd(a[0], a[1]) : e.b.CreateAdd(a[0], a[1]);
}
inline llvm::Value* add_any(Emitter& e, const Node& n, Args a, DType d) { return add(e, n, a, d); }
inline llvm::Value* sub(Emitter& e, const Node&, Args a, DType d) {
  return is_float(d) ? e.b.CreateFSub(a[0], a[1]) : e.b.CreateSub(a[0], a[1]);
}
inline llvm::Value* mul(Emitter& e, const Node&, Args a, DType d) {
  return is_float(d) ? e.b.CreateFMul(a[0], a[1]) : e.b.CreateMul(a[0], a[1]);
}
// Integer division never traps: x / 0 == -1 and INT_MIN / -1 == INT_MIN, as XLA's CPU lowering.
inline llvm::Value* div(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  if (is_float(d)) return b.CreateFDiv(a[0], a[1]);
  auto* zero = b.CreateICmpEQ(a[1], e.constant(d, 0));
  if (!is_signed(d)) {
    auto* q = b.CreateUDiv(a[0], b.CreateSelect(zero, e.constant(d, 1), a[1]));
    return b.CreateSelect(zero, e.constant(d, -1), q);
  }
  auto* minus_one = b.CreateICmpEQ(a[1], e.constant(d, -1));
  auto* q = b.CreateSDiv(a[0], b.CreateSelect(b.CreateOr(zero, minus_one), e.constant(d, 1), a[1]));
  return b.CreateSelect(zero, e.constant(d, -1), b.CreateSelect(minus_one, b.CreateNeg(a[0]), q));
}
// C fmod / % semantics; x % 0 == x and INT_MIN % -1 == 0.
inline llvm::Value* rem(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  if (is_float(d)) return b.CreateFRem(a[0], a[1]);
  auto* zero = b.CreateICmpEQ(a[1], e.constant(d, 0));
  if (!is_signed(d))
    return b.CreateSelect(zero, a[0],
                          b.CreateURem(a[0], b.CreateSelect(zero, e.constant(d, 1), a[1])));
  auto* minus_one = b.CreateICmpEQ(a[1], e.constant(d, -1));
  auto* r = b.CreateSRem(a[0], b.CreateSelect(b.CreateOr(zero, minus_one), e.constant(d, 1), a[1]));
  return b.CreateSelect(zero, a[0], b.CreateSelect(minus_one, e.constant(d, 0), r));
}
inline llvm::Value* pow(Emitter& e, const Node&, Args a, DType) {
  return math::pow(e.b, a[0], a[1]);
}
// lax.max/min as XLA emits them: llvm.maximum / llvm.minimum (IEEE 754-2019 maximum/minimum):
// a NaN on either side propagates, and -0 < +0, so max(+0, -0) = +0 and min(+0, -0) = -0 in
// either order. The reductions fold with these too (reduce_max below), so a max over mixed
// zeros is +0 whatever the lane split; the host's combine of thread partials is the reference
// backend's reduce_max::combine, which agrees.
inline llvm::Value* max(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  if (is_float(d)) return b.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, a[0], a[1]);
  return b.CreateSelect(is_signed(d) ? b.CreateICmpSGT(a[0], a[1]) : b.CreateICmpUGT(a[0], a[1]),
                        a[0], a[1]);
}
inline llvm::Value* min(Emitter& e, const Node&, Args a, DType d) {
  auto& b = e.b;
  if (is_float(d)) return b.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, a[0], a[1]);
  return b.CreateSelect(is_signed(d) ? b.CreateICmpSLT(a[0], a[1]) : b.CreateICmpULT(a[0], a[1]),
                        a[0], a[1]);
}

// XLA's shifts: the amount is unsigned, and one >= the bit width gives 0 (shift_left,
// shift_right_logical) or the sign fill (shift_right_arithmetic). LLVM's shl/lshr/ashr are
// poison there, so the amount is clamped first and the result selected.
inline llvm::Value* shift_amount(Emitter& e, llvm::Value* n, DType d, llvm::Value** too_big) {
  llvm::Value* last = e.constant(d, static_cast<double>(size_of(d) * 8 - 1));
  *too_big = e.b.CreateICmpUGT(n, last);
  return e.b.CreateSelect(*too_big, last, n);
}
inline llvm::Value* shift_left(Emitter& e, const Node&, Args a, DType d) {
  llvm::Value* too_big;
  llvm::Value* n = shift_amount(e, a[1], d, &too_big);
  return e.b.CreateSelect(too_big, e.constant(d, 0), e.b.CreateShl(a[0], n));
}
inline llvm::Value* shift_right_logical(Emitter& e, const Node&, Args a, DType d) {
  llvm::Value* too_big;
  llvm::Value* n = shift_amount(e, a[1], d, &too_big);
  return e.b.CreateSelect(too_big, e.constant(d, 0), e.b.CreateLShr(a[0], n));
}
inline llvm::Value* shift_right_arithmetic(Emitter& e, const Node&, Args a, DType d) {
  llvm::Value* too_big;
  return e.b.CreateAShr(a[0], shift_amount(e, a[1], d, &too_big));  // width-1: the sign fill
}

inline llvm::Value* compare(Emitter& e, Args a, DType d, llvm::CmpInst::Predicate f,
                            llvm::CmpInst::Predicate s, llvm::CmpInst::Predicate u) {
  if (is_float(d)) return e.b.CreateFCmp(f, a[0], a[1]);
  return e.b.CreateICmp(is_signed(d) ? s : u, a[0], a[1]);
}
using P = llvm::CmpInst::Predicate;
inline llvm::Value* lt(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_OLT, P::ICMP_SLT, P::ICMP_ULT);
}
inline llvm::Value* le(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_OLE, P::ICMP_SLE, P::ICMP_ULE);
}
inline llvm::Value* gt(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_OGT, P::ICMP_SGT, P::ICMP_UGT);
}
inline llvm::Value* ge(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_OGE, P::ICMP_SGE, P::ICMP_UGE);
}
inline llvm::Value* eq(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_OEQ, P::ICMP_EQ, P::ICMP_EQ);
}
inline llvm::Value* ne(Emitter& e, const Node&, Args a, DType d) {
  return compare(e, a, d, P::FCMP_UNE, P::ICMP_NE, P::ICMP_NE);
}

inline llvm::Value* and_(Emitter& e, const Node&, Args a, DType) {
  return e.b.CreateAnd(a[0], a[1]);
}
inline llvm::Value* or_(Emitter& e, const Node&, Args a, DType) { return e.b.CreateOr(a[0], a[1]); }
inline llvm::Value* xor_(Emitter& e, const Node&, Args a, DType) {
  return e.b.CreateXor(a[0], a[1]);
}
inline llvm::Value* not_(Emitter& e, const Node&, Args a, DType) { return e.b.CreateNot(a[0]); }
inline llvm::Value* select_n(Emitter& e, const Node&, Args a, DType) {
  return e.b.CreateSelect(a[0], a[2], a[1]);
}
// XLA's clamp is max then min, both propagating NaNs (an operand's or a bound's).
inline llvm::Value* clamp(Emitter& e, const Node& n, Args a, DType d) {
  return min(e, n, {max(e, n, {a[1], a[0]}, d), a[2]}, d);
}

// Float to int saturates and maps NaN to 0 (what JAX's CPU backend does); float to bool is x != 0.
inline llvm::Value* convert_element_type(Emitter& e, const Node& n, Args a, DType from) {
  auto& b = e.b;
  const DType to = n.dtype;
  llvm::Type* t = e.type(to);
  if (from == to) return a[0];
  if (to == DType::bool_)
    return is_float(from) ? b.CreateFCmpUNE(a[0], e.constant(from, 0))
                          : b.CreateICmpNE(a[0], e.constant(from, 0));
  if (is_float(from) && is_float(to)) return b.CreateFPCast(a[0], t);
  if (is_float(to)) return is_signed(from) ? b.CreateSIToFP(a[0], t) : b.CreateUIToFP(a[0], t);
  if (is_float(from))
    return b.CreateIntrinsic(
        is_signed(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
        {t, a[0]->getType()}, {a[0]});
  return b.CreateIntCast(a[0], t, is_signed(from));
}

// The same bits as another dtype of the same width (the shape rule checks the widths).
inline llvm::Value* bitcast_convert_type(Emitter& e, const Node& n, Args a, DType) {
  return e.b.CreateBitCast(a[0], e.type(n.dtype));
}

// threefry2x32's two results as one {y0, y1} aggregate; `part` nodes extract each (codegen).
inline llvm::Value* threefry2x32(Emitter& e, const Node&, Args a, DType) {
  struct Ops {
    Emitter& e;
    llvm::Value* add(llvm::Value* x, llvm::Value* y) { return e.b.CreateAdd(x, y); }
    llvm::Value* xor_(llvm::Value* x, llvm::Value* y) { return e.b.CreateXor(x, y); }
    llvm::Value* rotl(llvm::Value* x, int r) {
      return e.intrinsic(llvm::Intrinsic::fshl, {x, x, e.constant(DType::u32, r)});
    }
    llvm::Value* k(std::uint32_t c) { return e.constant(DType::u32, static_cast<double>(c)); }
  } ops{e};
  const auto [y0, y1] = ir::threefry2x32(a[0], a[1], a[2], a[3], ops);
  llvm::Type* t = y0->getType();
  llvm::Value* agg = llvm::PoisonValue::get(llvm::StructType::get(e.ctx, {t, t}));
  agg = e.b.CreateInsertValue(agg, y0, {0u});
  return e.b.CreateInsertValue(agg, y1, {1u});
}

// A reduction's lowering is its combine step: acc op x.
inline llvm::Value* reduce_sum(Emitter& e, const Node& n, Args a, DType d) {
  return add(e, n, a, d);
}
inline llvm::Value* reduce_prod(Emitter& e, const Node& n, Args a, DType d) {
  return mul(e, n, a, d);
}
inline llvm::Value* reduce_max(Emitter& e, const Node& n, Args a, DType d) {
  return max(e, n, a, d);
}
inline llvm::Value* reduce_min(Emitter& e, const Node& n, Args a, DType d) {
  return min(e, n, a, d);
}
inline llvm::Value* reduce_and(Emitter& e, const Node& n, Args a, DType d) {
  return and_(e, n, a, d);
}
inline llvm::Value* reduce_or(Emitter& e, const Node& n, Args a, DType d) {
  return or_(e, n, a, d);
}

// Index maps, iota and sub-graphs are resolved by the planner and the inliner, never lowered.
inline llvm::Value* structural(const char* what) {
  throw CompileError(std::string("llvm backend: ") + what + " reached code generation");
}
inline llvm::Value* broadcast_in_dim(Emitter&, const Node&, Args, DType) {
  return structural("broadcast_in_dim");
}
inline llvm::Value* transpose(Emitter&, const Node&, Args, DType) {
  return structural("transpose");
}
inline llvm::Value* slice(Emitter&, const Node&, Args, DType) { return structural("slice"); }
inline llvm::Value* reshape(Emitter&, const Node&, Args, DType) { return structural("reshape"); }
// Library and callback primitives are calls between kernels (fuse.hpp, llvm_backend.cpp), never
// in one.
#define FUSEJIT_LIBRARY(id) \
  inline llvm::Value* id(Emitter&, const Node&, Args, DType) { return structural(#id); }
FUSEJIT_LIBRARY(dot_general)
FUSEJIT_LIBRARY(argmax)
FUSEJIT_LIBRARY(argmin)
FUSEJIT_LIBRARY(concatenate)
FUSEJIT_LIBRARY(stack)
FUSEJIT_LIBRARY(split)
FUSEJIT_LIBRARY(dynamic_slice)
FUSEJIT_LIBRARY(dynamic_update_slice)
FUSEJIT_LIBRARY(cumsum)
FUSEJIT_LIBRARY(cumprod)
FUSEJIT_LIBRARY(cummax)
FUSEJIT_LIBRARY(cummin)
FUSEJIT_LIBRARY(sort)
FUSEJIT_LIBRARY(top_k)
FUSEJIT_LIBRARY(cholesky)
FUSEJIT_LIBRARY(triangular_solve)
FUSEJIT_LIBRARY(lu)
FUSEJIT_LIBRARY(eigh)
FUSEJIT_LIBRARY(qr)
FUSEJIT_LIBRARY(svd)
FUSEJIT_LIBRARY(gather)
FUSEJIT_LIBRARY(scatter_add)
FUSEJIT_LIBRARY(scatter)
FUSEJIT_LIBRARY(scatter_mul)
FUSEJIT_LIBRARY(scatter_min)
FUSEJIT_LIBRARY(scatter_max)
FUSEJIT_LIBRARY(pad)
FUSEJIT_LIBRARY(tile)
FUSEJIT_LIBRARY(debug_print)
FUSEJIT_LIBRARY(debug_callback)
FUSEJIT_LIBRARY(pure_callback)
FUSEJIT_LIBRARY(psum)
FUSEJIT_LIBRARY(pmax)
FUSEJIT_LIBRARY(pmin)
FUSEJIT_LIBRARY(all_gather)
FUSEJIT_LIBRARY(reduce_scatter)
FUSEJIT_LIBRARY(all_to_all)
FUSEJIT_LIBRARY(ppermute)
FUSEJIT_LIBRARY(axis_index)
#undef FUSEJIT_LIBRARY
inline llvm::Value* rev(Emitter&, const Node&, Args, DType) { return structural("rev"); }
inline llvm::Value* squeeze(Emitter&, const Node&, Args, DType) { return structural("squeeze"); }
// iota is a node of its own (Node::iota), emitted from the iteration indices.
inline llvm::Value* iota(Emitter&, const Node&, Args, DType) { return structural("iota"); }
// platform_index, and the cond on it, are folded by inline_jit before planning.
inline llvm::Value* platform_index(Emitter&, const Node&, Args, DType) {
  return structural("an unfolded platform_index");
}
inline llvm::Value* jit(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined jit");
}
inline llvm::Value* custom_jvp_call(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined custom_jvp_call");
}
inline llvm::Value* custom_vjp_call(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined custom_vjp_call");
}
inline llvm::Value* remat2(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined remat2");
}
inline llvm::Value* shard_map(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined shard_map");
}
inline llvm::Value* custom_linear_solve(Emitter&, const Node&, Args, DType) {
  return structural("an un-inlined custom_linear_solve");
}
inline llvm::Value* fused(Emitter&, const Node&, Args, DType) {
  return structural("a nested fused kernel");
}
// Control flow runs between kernels (llvm_backend.cpp's run loop), never inside one.
inline llvm::Value* cond(Emitter&, const Node&, Args, DType) {
  return structural("a cond inside a kernel");
}
inline llvm::Value* while_(Emitter&, const Node&, Args, DType) {
  return structural("a while inside a kernel");
}
inline llvm::Value* scan(Emitter&, const Node&, Args, DType) {
  return structural("a scan inside a kernel");
}

}  // namespace lower

inline constexpr LowerFn kLowerings[] = {
#define FUSEJIT_PRIMITIVE(id, name, arity, kind, flags) &lower::id,
#include "fusejit/ir/primitives.def"
#undef FUSEJIT_PRIMITIVE
};
static_assert(sizeof(kLowerings) / sizeof(kLowerings[0]) == ir::kNumPrims,
              "one lowering per primitive");

}  // namespace fj::backend::llvm_kernel
