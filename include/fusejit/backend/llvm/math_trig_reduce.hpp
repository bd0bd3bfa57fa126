// Payne-Hanek reduction for sin, cos, tan at large arguments (part of math_trig.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/backend/llvm/math_loop.hpp"

namespace fj::backend::llvm_ir::detail {

// x = q*pi/2 + r with |r| <= pi/4 (up to the reductions' margins).
struct TrigReduced {
  llvm::Value* r;
  llvm::Value* q;  // integer; only its two low bits are used
};

// Where trig_reduce's Cody-Waite step stops being accurate enough (docs/MATH.md): lanes with
// |x| above this (infinities too) take the Payne-Hanek path below.
inline constexpr double kTrigLarge32 = 5e5;
inline constexpr double kTrigLarge64 = 5e12;

// The binary expansion of 2/pi, 64 bits a word, most significant first, after one word of zeros:
// bit k of 2/pi (k = 1, 2, ...; 2/pi = 0.101000101...) is bit 63 - (k-1) % 64 of word
// 1 + (k-1) / 64. 19 words (1216 bits) cover the largest double's exponent plus the 192-bit
// window the reduction reads. Computed with mpmath (floor(2/pi * 2^1216), 1600-bit precision).
inline constexpr std::uint64_t kTwoOverPiBits[20] = {0,
                                                     0xA2F9836E4E441529,
                                                     0xFC2757D1F534DDC0,
                                                     0xDB6295993C439041,
                                                     0xFE5163ABDEBBC561,
                                                     0xB7246E3A424DD2E0,
                                                     0x06492EEA09D1921C,
                                                     0xFE1DEB1CB129A73E,
                                                     0xE88235F52EBB4484,
                                                     0xE99C7026B45F7E41,
                                                     0x3991D639835339F4,
                                                     0x9C845F8BBDF9283B,
                                                     0x1FF897FFDE05980F,
                                                     0xEF2F118B5A0A6D1F,
                                                     0x6D367ECF27CB09B7,
                                                     0x4F463F669E5FEA2D,
                                                     0x7527BAC7EBE5F17B,
                                                     0x3D0739F78A5292EA,
                                                     0x6BFB5FB11F8D5D08,
                                                     0x56033046FC7B6BAB};

// The table as an internal constant of the module being built (one per module, shared by every
// sin/cos/tan in it).
inline llvm::GlobalVariable* two_over_pi_table(llvm::Module& m) {
  static constexpr const char* kName = "fj.math.two_over_pi";
  if (llvm::GlobalVariable* g = m.getNamedGlobal(kName)) return g;
  llvm::Constant* init =
      llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<std::uint64_t>(kTwoOverPiBits));
  auto* g = new llvm::GlobalVariable(m, init->getType(), /*isConstant=*/true,
                                     llvm::GlobalValue::InternalLinkage, init, kName);
  g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  g->setAlignment(llvm::Align(8));
  return g;
}

// One lane, in scalar integer arithmetic: a finite double x (|x| >= 2^-10 for the result to
// mean anything) to r in [-pi/4, pi/4] and q with x = q*pi/2 + r (q mod 4 is what counts).
//
// x = m * 2^e with m the 53-bit integer significand. Since m is an integer, only
// A = (2/pi * 2^e) mod 4 matters: x * 2/pi = m * A (mod 4). A's bits are those of 2/pi from bit
// e-1 on, read as a 192-bit window W (two integer bits, 190 fractional ones; A - W/2^190 <
// 2^-190) from the table: three words funnel-shifted out of four. Then m * W mod 2^192 is
// y = x * 2/pi mod 4 in fixed point, with error below m * 2^-190 <= 2^-137. Its two top bits
// (rounded by the next one) are q, and the bits below, as a signed number, are
// f = x * 2/pi - q in [-1/2, 1/2). No double has |f| below 2^-62 (the closest to a multiple of
// pi/2 is 6381956970095103 * 2^797, with r = 4.7e-19 ~ 2^-60.9; Muller, "Elementary
// Functions"), so the 128 bits of f below its point hold at least 66 significant bits; shifted
// left until normalized, their top 64 are |f| to within 2^-63 relative. They become a
// double-word fh + fl (exact), and r = f * pi/2 is formed in double-word arithmetic with a
// two-part pi/2 and rounded once: within half an ulp plus 2^-62 (relative) of the true r.
struct LaneReduced {
  llvm::Value* r;  // double
  llvm::Value* q;  // i64
};
inline LaneReduced payne_hanek_lane(llvm::IRBuilderBase& b, llvm::GlobalVariable* table,
                                    llvm::Value* x) {
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* dt = b.getDoubleTy();
  auto c64 = [&](std::uint64_t v) { return b.getInt64(v); };
  auto kd = [&](double v) { return llvm::ConstantFP::get(dt, v); };
  auto fma = [&](llvm::Value* p, llvm::Value* q, llvm::Value* s) {
    return b.CreateIntrinsic(llvm::Intrinsic::fma, {dt}, {p, q, s});
  };

  llvm::Value* u = b.CreateBitCast(x, i64);
  llvm::Value* ex = b.CreateAnd(b.CreateLShr(u, 52), c64(0x7ff));
  llvm::Value* m =
      b.CreateOr(b.CreateAnd(u, c64((std::uint64_t{1} << 52) - 1)), c64(std::uint64_t{1} << 52));
  // The window starts at bit e-1 of 2/pi, e = ex - 1075: table bit t = e - 2 + 64 counting from
  // the top of word 0 (bits before 2/pi's point are the zero word). t <= 2047 - 1013 = 1034
  // keeps the four words inside the table (word 16 + 3); t is clamped at 0 so that lanes that
  // do not need this path (small x) read inside it too.
  llvm::Value* t = b.CreateSub(ex, c64(1075 + 2 - 64));
  t = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, t, c64(0));
  llvm::Value* word = b.CreateLShr(t, 6);
  llvm::Value* shift = b.CreateAnd(t, c64(63));
  llvm::Value* w[4];
  for (unsigned k = 0; k < 4; ++k) {
    llvm::Value* p = b.CreateInBoundsGEP(i64, table, b.CreateAdd(word, c64(k)));
    w[k] = b.CreateAlignedLoad(i64, p, llvm::Align(8));
  }
  llvm::Value* a[3];
  for (unsigned k = 0; k < 3; ++k)
    a[k] = b.CreateIntrinsic(llvm::Intrinsic::fshl, {i64}, {w[k], w[k + 1], shift});

  // y = m * (a0:a1:a2) mod 2^192, as words y2:y1 (y0, below 2^-128, is not needed).
  llvm::Type* i128 = b.getInt128Ty();
  llvm::Value* m128 = b.CreateZExt(m, i128);
  llvm::Value* p2 = b.CreateMul(m128, b.CreateZExt(a[2], i128));
  llvm::Value* p1 = b.CreateMul(m128, b.CreateZExt(a[1], i128));
  llvm::Value* s = b.CreateAdd(b.CreateLShr(p2, 64), p1);  // < 2^118: no carry out
  llvm::Value* y1 = b.CreateTrunc(s, i64);
  llvm::Value* y2 = b.CreateAdd(b.CreateTrunc(b.CreateLShr(s, 64), i64), b.CreateMul(m, a[0]));

  // q: the two integer bits, rounded to nearest by the first fractional one (mod 4).
  llvm::Value* q = b.CreateLShr(b.CreateAdd(y2, c64(std::uint64_t{1} << 61)), 62);
  // f * 2^128 as a signed 128-bit number h:l (y's fractional bits 189..62), then its magnitude
  // in ones' complement (off by 2^-128, nothing next to |f| >= 2^-62).
  llvm::Value* h = b.CreateIntrinsic(llvm::Intrinsic::fshl, {i64}, {y2, y1, c64(2)});
  llvm::Value* l = b.CreateShl(y1, 2);
  llvm::Value* sign = b.CreateAShr(h, 63);
  h = b.CreateXor(h, sign);
  l = b.CreateXor(l, sign);
  // |f| >= 2^-62 makes h >= 4: normalized, its top word `top` holds 64 significant bits of f
  // (h = 0 happens only in lanes whose result is not used; fshl's shift is taken mod 64).
  llvm::Value* lz = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, h, b.getFalse());
  llvm::Value* top = b.CreateIntrinsic(llvm::Intrinsic::fshl, {i64}, {h, l, lz});
  // |f| = top 2^(-64-lz), split exactly into its upper 53 bits and the 11 below.
  llvm::Value* dhi = b.CreateUIToFP(b.CreateAnd(top, c64(~std::uint64_t{0x7ff})), dt);
  llvm::Value* dlo = b.CreateUIToFP(b.CreateAnd(top, c64(0x7ff)), dt);
  llvm::Value* scale = b.CreateBitCast(b.CreateShl(b.CreateSub(c64(1023 - 64), lz), 52), dt);
  llvm::Value* fh = b.CreateFMul(dhi, scale);
  llvm::Value* fl = b.CreateFMul(dlo, scale);
  // r = (fh + fl) * (ph + pl), the product's rounding error recovered with an fma.
  llvm::Value* ph = kd(0x1.921fb54442d18p+0);
  llvm::Value* pl = kd(0x1.1a62633145c07p-54);
  llvm::Value* rh = b.CreateFMul(fh, ph);
  llvm::Value* re = fma(fh, ph, b.CreateFNeg(rh));
  llvm::Value* rl = fma(fh, pl, fma(fl, ph, re));
  llvm::Value* r = b.CreateFAdd(rh, rl);
  r = b.CreateSelect(b.CreateICmpNE(sign, c64(0)), b.CreateFNeg(r), r);
  // x < 0: x = -(q pi/2 + r) = (-q) pi/2 + (-r). And x = +-inf gives r = NaN (x - x), as the
  // fast path does.
  llvm::Value* xneg = b.CreateICmpSLT(u, c64(0));
  r = b.CreateSelect(xneg, b.CreateFNeg(r), r);
  r = b.CreateFAdd(r, b.CreateFSub(x, x));
  q = b.CreateSelect(xneg, b.CreateNeg(q), q);
  return {r, q};
}

// Replaces, in the lanes where |x| > kTrigLarge (and only when there are some), the Cody-Waite
// result `fast` with the Payne-Hanek one. The check is one compare and, for vectors, an or-
// reduction and a branch (weighted as unlikely) around the slow path: x is stored to a buffer on
// the stack, a loop over its lanes reduces each with payne_hanek_lane (f32 lanes widened to
// double, r rounded back), and r and q are loaded back and selected in the large lanes.
//
// The slow path is code of the kernel itself, never a call. It used to call a helper with the
// preserve_all convention, so that the loop kept its vectors in registers; but on AVX2 the
// callee's vzeroupper (inserted after its own 256-bit code) cleared the upper halves of the
// caller's ymm registers that the convention claimed to preserve, and lanes 4-7 of every value
// live across the call came back zero (sin, cos, tan and whatever else the kernel computed).
// Inline, the register allocator sees every register the slow path uses: no calling convention
// can lose a lane. Blocks: pre -> trig.large -> trig.lane (loop) -> trig.done -> join, pre ->
// join; shared_trig_reduction below recognizes them by kSlowPathMd. The builder continues in the
// join block; an insertion point in the middle of a block is handled by moving what follows it
// into the join block.
inline constexpr const char* kSlowPathMd = "fj.trig.large";
inline TrigReduced trig_reduce_large(Fp& f, llvm::Value* x, TrigReduced fast) {
  llvm::IRBuilderBase& b = f.b;
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::Function* fn = pre->getParent();
  llvm::GlobalVariable* table = two_over_pi_table(*fn->getParent());

  llvm::Value* big = f.gt(f.abs(x), f.k(kTrigLarge32, kTrigLarge64));  // false for NaN
  auto* vty = llvm::dyn_cast<llvm::FixedVectorType>(f.ty);
  llvm::Value* any = vty ? b.CreateOrReduce(big) : big;

  llvm::BasicBlock* join = split_after_insert_point(b, "trig.join");
  llvm::BasicBlock* slow = llvm::BasicBlock::Create(ctx, "trig.large", fn, join);
  llvm::BasicBlock* lane = llvm::BasicBlock::Create(ctx, "trig.lane", fn, join);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "trig.done", fn, join);
  b.SetInsertPoint(pre);
  b.CreateCondBr(any, slow, join, llvm::MDBuilder(ctx).createBranchWeights(1, 1u << 20));

  // Buffers in the entry block (an alloca elsewhere would grow the stack at each iteration).
  const unsigned n = vty ? vty->getNumElements() : 1;
  llvm::Type* ft = f.ty->getScalarType();
  llvm::Type* it = f.ity->getScalarType();
  const llvm::Align align(f.f64 ? 8 : 4);
  llvm::Value* buf[3];
  {
    llvm::IRBuilder<> eb(&fn->getEntryBlock(), fn->getEntryBlock().begin());
    for (unsigned k = 0; k < 3; ++k)
      buf[k] = eb.CreateAlloca(llvm::ArrayType::get(k == 2 ? it : ft, n));
  }
  b.SetInsertPoint(slow);
  llvm::StoreInst* spill = b.CreateAlignedStore(x, buf[0], align);
  spill->setMetadata(kSlowPathMd, llvm::MDNode::get(ctx, {}));
  b.CreateBr(lane);

  b.SetInsertPoint(lane);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2);
  i->addIncoming(b.getInt64(0), slow);
  llvm::Value* xi = b.CreateAlignedLoad(ft, b.CreateInBoundsGEP(ft, buf[0], i), align);
  if (!f.f64) xi = b.CreateFPExt(xi, b.getDoubleTy());
  LaneReduced l = payne_hanek_lane(b, table, xi);
  if (!f.f64) l = {b.CreateFPTrunc(l.r, ft), b.CreateTrunc(l.q, it)};
  b.CreateAlignedStore(l.r, b.CreateInBoundsGEP(ft, buf[1], i), align);
  b.CreateAlignedStore(l.q, b.CreateInBoundsGEP(it, buf[2], i), align);
  llvm::Value* next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, lane);
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(n)), lane, done);

  b.SetInsertPoint(done);
  llvm::Value* r = f.sel(big, b.CreateAlignedLoad(f.ty, buf[1], align), fast.r);
  llvm::Value* q = f.sel(big, b.CreateAlignedLoad(f.ity, buf[2], align), fast.q);
  b.CreateBr(join);

  b.SetInsertPoint(join, join->begin());
  llvm::PHINode* rj = b.CreatePHI(f.ty, 2);
  llvm::PHINode* qj = b.CreatePHI(f.ity, 2);
  rj->addIncoming(fast.r, pre);
  rj->addIncoming(r, done);
  qj->addIncoming(fast.q, pre);
  qj->addIncoming(q, done);
  return {rj, qj};
}

// Sharing one reduction between sin, cos and tan of the same x. Straight-line code would be
// merged by CSE, but the slow paths' loops stop that, so each function would branch and loop on
// its own, and the fast path of sin(x) * cos(x) would pay twice. Instead, before reducing x,
// trig_reduce looks for an earlier reduction of x (a slow path storing x, marked kSlowPathMd)
// whose join block is sure to have run: the current block is reached from it only through blocks
// with a single predecessor and through other such joins (whose slow path always starts at the
// join's other predecessor). Anything else (a loop header, a join of someone else's) counts as
// "not sure", and x is reduced again.

// The slow path's first block, if `done` is the last block of one (trig.done: its single
// predecessor is the trig.lane loop, entered from a block holding a marked store).
inline llvm::BasicBlock* slow_path_start(llvm::BasicBlock* done) {
  llvm::BasicBlock* lane = done->getSinglePredecessor();
  if (!lane) return nullptr;
  for (llvm::BasicBlock* p : llvm::predecessors(lane)) {
    if (p == lane) continue;
    for (llvm::Instruction& i : *p)
      if (llvm::isa<llvm::StoreInst>(i) && i.getMetadata(kSlowPathMd)) return p;
  }
  return nullptr;
}
inline bool runs_before(llvm::BasicBlock* from, llvm::BasicBlock* to) {
  for (int steps = 0; steps < 1024; ++steps) {
    if (to == from) return true;
    if (llvm::BasicBlock* p = to->getSinglePredecessor()) {
      to = p;
      continue;
    }
    llvm::BasicBlock* slow = nullptr;
    llvm::BasicBlock* other = nullptr;
    int n = 0;
    for (llvm::BasicBlock* p : llvm::predecessors(to)) {
      ++n;
      llvm::BasicBlock* start = nullptr;
      if (!slow && p->getSingleSuccessor() == to && (start = slow_path_start(p)))
        slow = start;
      else
        other = p;
    }
    if (n != 2 || !slow || !other || slow->getSinglePredecessor() != other) return false;
    to = other;
  }
  return false;
}
inline std::optional<TrigReduced> shared_trig_reduction(Fp& f, llvm::Value* x) {
  llvm::BasicBlock* here = f.b.GetInsertBlock();
  for (llvm::User* u : x->users()) {
    auto* store = llvm::dyn_cast<llvm::StoreInst>(u);
    if (!store || store->getValueOperand() != x || !store->getMetadata(kSlowPathMd)) continue;
    llvm::BasicBlock* lane = store->getParent()->getSingleSuccessor();
    if (!lane) continue;
    llvm::BasicBlock* done = nullptr;
    for (llvm::BasicBlock* s : llvm::successors(lane))
      if (s != lane) done = s;
    llvm::BasicBlock* join = done ? done->getSingleSuccessor() : nullptr;
    if (!join || !runs_before(join, here)) continue;
    llvm::PHINode* r = nullptr;
    llvm::PHINode* q = nullptr;
    for (llvm::PHINode& p : join->phis()) {
      if (p.getBasicBlockIndex(done) < 0) continue;
      if (!r && p.getType() == f.ty) r = &p;
      if (!q && p.getType() == f.ity) q = &p;
    }
    if (r && q) return TrigReduced{r, q};
  }
  return std::nullopt;
}

}  // namespace fj::backend::llvm_ir::detail
