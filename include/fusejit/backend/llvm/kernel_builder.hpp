// Kernel code generation (codegen.cpp only): one LLVM function per fused kernel, a row loop around
// an explicit vector loop and a scalar tail. Extents, strides and constants are parameters, so one
// compiled function serves every length of the same rank and every value of a constant.
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <array>
#include <functional>
#include <memory>
#include <string>

#include "fusejit/backend/llvm/codegen.hpp"
#include "fusejit/backend/llvm/emit_ops.hpp"

namespace fj::backend::llvm_kernel {

class KernelBuilder {
 public:
  KernelBuilder(const Plan& plan, int lanes, std::string name)
      : plan_(plan), lanes_(static_cast<unsigned>(lanes)), name_(std::move(name)) {}

  std::pair<std::unique_ptr<llvm::Module>, std::unique_ptr<llvm::LLVMContext>> build(
      const std::string& cpu, const std::string& features) {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto m = std::make_unique<llvm::Module>(name_, *ctx);
    build_in(*m, cpu, features);
    return {std::move(m), std::move(ctx)};
  }

  /// Emits the kernel as a function of `m` (external, named as given) and returns it; a native
  /// loop driver (native_loop.hpp) emits its body's kernels into its own module this way.
  llvm::Function* build_in(llvm::Module& m, const std::string& cpu, const std::string& features) {
    llvm::LLVMContext& ctx = m.getContext();
    llvm::IRBuilder<> b(ctx);
    llvm::FastMathFlags fmf;
    fmf.setAllowContract(
        true);  // fused multiply-adds; no nnan/ninf: NaN and Inf keep their meaning
    b.setFastMathFlags(fmf);
    auto* i64 = b.getInt64Ty();
    auto* ptr = b.getPtrTy();
    auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, i64, i64}, false);
    fn_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name_, m);
    fn_->addFnAttr("target-cpu", cpu);
    fn_->addFnAttr("target-features", features);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    for (unsigned i = 0; i < 3; ++i) fn_->addParamAttr(i, llvm::Attribute::NoAlias);
    Emitter e{ctx, b};
    emit_body(e);
    return fn_;
  }

 private:
  llvm::Value* arg(unsigned i) { return fn_->getArg(i); }
  llvm::Value* load_i64(llvm::IRBuilder<>& b, llvm::Value* base, std::size_t idx) {
    return b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), base, idx));
  }

  void emit_body(Emitter& e) {
    auto& b = e.b;
    auto* entry = llvm::BasicBlock::Create(e.ctx, "entry", fn_);
    b.SetInsertPoint(entry);
    const int r = plan_.rank;
    const auto n_inputs = static_cast<std::size_t>(plan_.num_inputs);
    node_param_.assign(plan_.nodes.size(), 0);
    for (std::size_t li = 0; li < plan_.loads.size(); ++li)
      node_param_[static_cast<std::size_t>(plan_.loads[li])] = li;
    for (std::size_t ii = 0; ii < plan_.iotas.size(); ++ii)
      node_param_[static_cast<std::size_t>(plan_.iotas[ii])] = ii;
    for (int k = 0; k < r; ++k)
      extents_.push_back(load_i64(b, arg(1), static_cast<std::size_t>(k)));
    // Constants: loaded once, converted from their 8-byte slots to their dtype.
    for (std::size_t s = 0; s < plan_.literals.size(); ++s) {
      const DType d = plan_.literals[s].dtype;
      llvm::Value* raw = load_i64(b, arg(2), s);
      llvm::Value* v;
      if (is_float(d))
        v = b.CreateFPTrunc(b.CreateBitCast(raw, b.getDoubleTy()), e.scalar_type(d));
      else
        v = b.CreateTrunc(raw, e.scalar_type(d));
      literal_values_.push_back(v);
    }
    // Each load's base pointer and its stride along every iteration dim.
    for (std::size_t li = 0; li < plan_.loads.size(); ++li) {
      const Node& n = plan_.nodes[static_cast<std::size_t>(plan_.loads[li])];
      load_ptr_.push_back(load_ptr(b, static_cast<std::size_t>(n.input)));
      std::vector<llvm::Value*> st;
      for (int k = 0; k < r; ++k)
        st.push_back(load_i64(
            b, arg(1), static_cast<std::size_t>(r) + (static_cast<std::size_t>(r) + 1) * li + k));
      load_strides_.push_back(st);
      load_base_.push_back(load_i64(b, arg(1),
                                    static_cast<std::size_t>(r) +
                                        (static_cast<std::size_t>(r) + 1) * li +
                                        static_cast<std::size_t>(r)));
    }
    const std::size_t iota_params =
        static_cast<std::size_t>(r) + (static_cast<std::size_t>(r) + 1) * plan_.loads.size();
    for (std::size_t ii = 0; ii < plan_.iotas.size(); ++ii) {
      iota_step_.push_back(load_i64(b, arg(1), iota_params + 2 * ii));
      iota_offset_.push_back(load_i64(b, arg(1), iota_params + 2 * ii + 1));
    }
    for (std::size_t o = 0; o < plan_.outputs.size(); ++o)
      out_ptr_.push_back(load_ptr(b, n_inputs + o));
    auto* done = llvm::BasicBlock::Create(e.ctx, "done", fn_);
    if (plan_.rows) {
      emit_rows(e, iota_params + 2 * plan_.iotas.size());
    } else if (!plan_.reduction) {
      emit_range(e, arg(3), arg(4));
    } else {
      // Work item t reduces block t % nblocks of output t / nblocks into out[t].
      const std::size_t extra = iota_params + 2 * plan_.iotas.size();
      llvm::Value* red_size = load_i64(b, arg(1), extra);
      llvm::Value* nblocks = load_i64(b, arg(1), extra + 1);
      llvm::Value* block = load_i64(b, arg(1), extra + 2);
      const DType d = plan_.output_dtypes[0];
      folds_.push_back(make_fold(e, plan_.reduce, d, plan_.outputs[0]));
      counted_loop(e, arg(3), arg(4), 1, [&](llvm::Value* t) {
        llvm::Value* out_index = b.CreateUDiv(t, nblocks);
        llvm::Value* lo = b.CreateMul(b.CreateURem(t, nblocks), block);
        llvm::Value* hi = b.CreateAdd(lo, block);
        hi = b.CreateSelect(b.CreateICmpULT(hi, red_size), hi, red_size);
        start_fold(e, folds_[0]);
        llvm::Value* base = b.CreateMul(out_index, red_size);
        emit_range(e, b.CreateAdd(base, lo), b.CreateAdd(base, hi));
        llvm::Value* acc = finish_fold(e, folds_[0]);
        store_element(e, d, out_ptr_[0], t, acc);
      });
    }
    b.CreateBr(done);
    b.SetInsertPoint(done);
    // Non-temporal stores are weakly ordered: a fence makes them visible before the kernel
    // returns, and so before another thread reads the output.
    if (plan_.stream) b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    b.CreateRetVoid();
  }

  // Visits the points [start, end) of the iteration space, a row of the innermost dim at a time.
  void emit_range(Emitter& e, llvm::Value* start, llvm::Value* end) {
    auto& b = e.b;
    auto* row_head = llvm::BasicBlock::Create(e.ctx, "row", fn_);
    auto* row_body = llvm::BasicBlock::Create(e.ctx, "row.body", fn_);
    auto* exit = llvm::BasicBlock::Create(e.ctx, "range.exit", fn_);
    auto* setup = llvm::BasicBlock::Create(e.ctx, "range", fn_);
    b.CreateCondBr(b.CreateICmpSLT(start, end), setup, exit);  // also guards a zero extent
    b.SetInsertPoint(setup);
    const int r = plan_.rank;
    llvm::Value* ncols = extents_.back();
    llvm::Value* row0 = b.CreateUDiv(start, ncols);
    llvm::Value* col0 = b.CreateURem(start, ncols);
    b.CreateBr(row_head);

    b.SetInsertPoint(row_head);
    auto* pos = b.CreatePHI(b.getInt64Ty(), 2, "pos");
    auto* row = b.CreatePHI(b.getInt64Ty(), 2, "row");
    auto* col = b.CreatePHI(b.getInt64Ty(), 2, "col");
    pos->addIncoming(start, setup);
    row->addIncoming(row0, setup);
    col->addIncoming(col0, setup);
    b.CreateCondBr(b.CreateICmpSLT(pos, end), row_body, exit);

    b.SetInsertPoint(row_body);
    // The row's multi-index over the outer dims, then each load's offset at the row's start.
    std::vector<llvm::Value*> idx(static_cast<std::size_t>(std::max(0, r - 1)));
    llvm::Value* rest = row;
    for (int k = r - 2; k >= 0; --k) {
      idx[static_cast<std::size_t>(k)] = b.CreateURem(rest, extents_[static_cast<std::size_t>(k)]);
      rest = b.CreateUDiv(rest, extents_[static_cast<std::size_t>(k)]);
    }
    row_offset_.clear();
    broadcast_scalar_.clear();
    for (std::size_t li = 0; li < plan_.loads.size(); ++li) {
      llvm::Value* off = load_base_[li];
      for (int k = 0; k + 1 < r; ++k)
        off = b.CreateAdd(off, b.CreateMul(idx[static_cast<std::size_t>(k)],
                                           load_strides_[li][static_cast<std::size_t>(k)]));
      row_offset_.push_back(off);
      const Node& n = plan_.nodes[static_cast<std::size_t>(plan_.loads[li])];
      // A load broadcast along the innermost dim is one scalar per row.
      broadcast_scalar_.push_back(
          n.inner == Node::broadcast ? load_element(e, n.dtype, load_ptr_[li], off) : nullptr);
    }
    // Each iota's index at the row's first point: along the innermost dim it then grows by
    // `step` per point; along an outer dim, or none, it is constant over the row.
    row_iota_.clear();
    for (std::size_t ii = 0; ii < plan_.iotas.size(); ++ii) {
      const int it = plan_.nodes[static_cast<std::size_t>(plan_.iotas[ii])].map[0].iter;
      llvm::Value* pos_in_dim = it == r - 1 ? col
                                : it >= 0   ? idx[static_cast<std::size_t>(it)]
                                            : nullptr;
      row_iota_.push_back(
          pos_in_dim ? b.CreateAdd(iota_offset_[ii], b.CreateMul(pos_in_dim, iota_step_[ii]))
                     : iota_offset_[ii]);
    }
    llvm::Value* seg =
        b.CreateSelect(b.CreateICmpSLT(b.CreateSub(ncols, col), b.CreateSub(end, pos)),
                       b.CreateSub(ncols, col), b.CreateSub(end, pos));
    llvm::Value* vec_start = b.getInt64(0);
    if (streaming()) {
      // Single points until the output index is a multiple of the vector width, so that the
      // vector loop's stores are aligned, as non-temporal stores must be.
      llvm::Value* lanes = b.getInt64(lanes_);
      llvm::Value* to_aligned = b.CreateURem(b.CreateSub(lanes, b.CreateURem(pos, lanes)), lanes);
      vec_start = b.CreateSelect(b.CreateICmpULT(to_aligned, seg), to_aligned, seg);
      counted_loop(e, b.getInt64(0), vec_start, 1,
                   [&](llvm::Value* j) { emit_point(e, 1, col, pos, j); });
    }
    llvm::Value* vec_end =
        b.CreateSub(seg, b.CreateURem(b.CreateSub(seg, vec_start), b.getInt64(lanes_)));
    if (folding()) {
      // kAccumulators vectors a step, each into its own accumulator.
      const unsigned step = lanes_ * kAccumulators;
      vec_start = b.CreateSub(seg, b.CreateURem(seg, b.getInt64(step)));
      counted_loop(e, b.getInt64(0), vec_start, step, [&](llvm::Value* j) {
        for (unsigned a = 0; a < kAccumulators; ++a) {
          accumulator_ = a;
          emit_point(e, lanes_, col, pos, b.CreateAdd(j, b.getInt64(a * lanes_)));
        }
        accumulator_ = 0;
      });
    }
    counted_loop(e, vec_start, vec_end, lanes_,
                 [&](llvm::Value* j) { emit_point(e, lanes_, col, pos, j); });
    counted_loop(e, vec_end, seg, 1, [&](llvm::Value* j) { emit_point(e, 1, col, pos, j); });
    auto* row_latch = b.GetInsertBlock();
    pos->addIncoming(b.CreateAdd(pos, seg), row_latch);
    row->addIncoming(b.CreateAdd(row, b.getInt64(1)), row_latch);
    col->addIncoming(b.getInt64(0), row_latch);
    b.CreateBr(row_head);
    b.SetInsertPoint(exit);
  }

  // Accumulators live in the entry block, where SROA turns them into registers.
  llvm::Value* entry_alloca(llvm::Type* t) {
    llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    return eb.CreateAlloca(t);
  }

  // The reduction's identity at the emitter's width: 0, 1, -inf / lowest, +inf / highest, all ones.
  llvm::Value* identity(Emitter& e, DType d, ir::Prim reduce) {
    llvm::Type* st = e.scalar_type(d);
    llvm::Constant* c = nullptr;
    const bool f = is_float(d), sgn = d == DType::i32 || d == DType::i64;
    switch (reduce) {
      case ir::Prim::reduce_sum:
        c = llvm::Constant::getNullValue(st);
        break;
      case ir::Prim::reduce_prod:
        c = f ? llvm::ConstantFP::get(st, 1.0) : llvm::ConstantInt::get(st, 1);
        break;
      case ir::Prim::reduce_max:
        c = f     ? llvm::ConstantFP::getInfinity(st, true)
            : sgn ? llvm::ConstantInt::get(st,
                                           llvm::APInt::getSignedMinValue(st->getIntegerBitWidth()))
                  : llvm::ConstantInt::get(st, 0);
        break;
      case ir::Prim::reduce_min:
        c = f     ? llvm::ConstantFP::getInfinity(st, false)
            : sgn ? llvm::ConstantInt::get(st,
                                           llvm::APInt::getSignedMaxValue(st->getIntegerBitWidth()))
                  : llvm::Constant::getAllOnesValue(st);
        break;
      case ir::Prim::reduce_and:
        c = llvm::Constant::getAllOnesValue(st);
        break;
      default:
        c = llvm::Constant::getNullValue(st);
        break;
    }
    return e.splat(c);
  }

  // A reduction being folded: `kAccumulators` independent vector accumulators (so that the
  // vector loop is not one chain of dependent combines: a max, 5 instructions deep, held a
  // softmax's max pass at 1 ms over 16 MiB) and one for the scalar tail.
  static constexpr unsigned kAccumulators = 4;
  struct Fold {
    ir::Prim reduce{};
    DType dtype{};
    int node = -1;  // the node whose lowering combines (the reduction's output node)
    std::array<llvm::Value*, kAccumulators> vec{};
    llvm::Value* scalar = nullptr;
  };

  Fold make_fold(Emitter& e, ir::Prim reduce, DType d, int node) {
    Fold f{reduce, d, node, {}, nullptr};
    e.width = lanes_;
    for (auto& a : f.vec) a = entry_alloca(e.type(d));
    e.width = 1;
    f.scalar = entry_alloca(e.type(d));
    return f;
  }
  void start_fold(Emitter& e, const Fold& f) {
    e.width = lanes_;
    for (auto* a : f.vec) e.b.CreateStore(identity(e, f.dtype, f.reduce), a);
    e.width = 1;
    e.b.CreateStore(identity(e, f.dtype, f.reduce), f.scalar);
  }
  llvm::Value* combine(Emitter& e, const Fold& f, llvm::Value* acc, llvm::Value* x) {
    const Node& n = plan_.nodes[static_cast<std::size_t>(f.node)];
    return kLowerings[static_cast<int>(f.reduce)](e, n, {acc, x}, f.dtype);
  }
  // Accumulators pairwise, then lanes in order, then the tail: a fixed order whatever the
  // thread count.
  llvm::Value* finish_fold(Emitter& e, const Fold& f) {
    auto& b = e.b;
    e.width = lanes_;
    llvm::Type* vt = e.type(f.dtype);
    std::vector<llvm::Value*> accs;
    for (auto* a : f.vec) accs.push_back(b.CreateLoad(vt, a));
    for (std::size_t n = accs.size(); n > 1; n /= 2)
      for (std::size_t i = 0; i < n / 2; ++i) accs[i] = combine(e, f, accs[2 * i], accs[2 * i + 1]);
    llvm::Value* lanes = accs[0];
    e.width = 1;
    llvm::Value* acc = b.CreateExtractElement(lanes, std::uint64_t{0});
    for (unsigned i = 1; i < lanes_; ++i)
      acc = combine(e, f, acc, b.CreateExtractElement(lanes, std::uint64_t{i}));
    return combine(e, f, acc, b.CreateLoad(e.type(f.dtype), f.scalar));
  }
  // Folds `x` into the accumulator the current point uses.
  void accumulate(Emitter& e, const Fold& f, llvm::Value* x) {
    llvm::Value* p = e.width == 1 ? f.scalar : f.vec[accumulator_];
    e.b.CreateStore(combine(e, f, e.b.CreateLoad(e.type(f.dtype), p), x), p);
  }
  // Whether the current pass stores outputs non-temporally (a row kernel's row-shaped ones).
  bool streaming() const {
    return plan_.stream &&
           (!plan_.rows || static_cast<std::size_t>(phase_) + 2 == plan_.phases.size());
  }
  bool folding() const {
    return plan_.reduction ||
           (plan_.rows && static_cast<std::size_t>(phase_) + 2 < plan_.phases.size());
  }

  // A row kernel: work item t is row t, [t * row, (t + 1) * row) of the iteration space. Each
  // reduction phase folds its operand over the row exactly as a reduction kernel folds one block
  // (vector lanes, then the tail, lanes combined in order), so a row's result equals the unfused
  // kernel's bit for bit; later phases read it as a scalar, and costly values kept by an earlier
  // phase from the row's scratch. The row stays in cache between the phases.
  void emit_rows(Emitter& e, std::size_t row_param) {
    auto& b = e.b;
    llvm::Value* row = load_i64(b, arg(1), row_param);
    const std::size_t n_reduce = plan_.phases.size() - 2;
    for (std::size_t p = 0; p < n_reduce; ++p) {
      const Phase& ph = plan_.phases[p];
      folds_.push_back(make_fold(e, ph.reduce, ph.dtype, ph.node));
    }
    scratch_.assign(static_cast<std::size_t>(plan_.num_scratch), nullptr);
    for (std::size_t k = 0; k < plan_.nodes.size(); ++k)
      if (const int s = plan_.scratch[k]; s >= 0) {
        llvm::Type* t = llvm::ArrayType::get(e.scalar_type(plan_.nodes[k].dtype),
                                             static_cast<std::uint64_t>(ir::kMaxFusedRow));
        auto* a = llvm::cast<llvm::AllocaInst>(entry_alloca(t));
        a->setAlignment(llvm::Align(64));
        scratch_[static_cast<std::size_t>(s)] = a;
      }
    reduced_.assign(n_reduce, nullptr);
    const bool row_outputs =
        std::count(plan_.per_row_output.begin(), plan_.per_row_output.end(), false) > 0;
    const bool per_row_outputs =
        std::count(plan_.per_row_output.begin(), plan_.per_row_output.end(), true) > 0;
    counted_loop(e, arg(3), arg(4), 1, [&](llvm::Value* t) {
      row_index_ = t;
      row_base_ = b.CreateMul(t, row);
      llvm::Value* row_end = b.CreateAdd(row_base_, row);
      for (std::size_t p = 0; p < n_reduce; ++p) {
        phase_ = static_cast<int>(p);
        start_fold(e, folds_[p]);
        emit_range(e, row_base_, row_end);
        reduced_[p] = finish_fold(e, folds_[p]);
      }
      if (row_outputs) {
        phase_ = static_cast<int>(n_reduce);
        emit_range(e, row_base_, row_end);
      }
      if (per_row_outputs) {
        // Values with one element per row, taken at the row's first point.
        phase_ = static_cast<int>(n_reduce + 1);
        emit_range(e, row_base_, b.CreateAdd(row_base_, b.getInt64(1)));
      }
    });
  }

  // A store of the emitter's width; `stream`: a non-temporal one, at an index that is a multiple
  // of the width (the buffers are 64-byte aligned), bypassing the caches for outputs larger than
  // the last-level cache: no read of the line before the write, no eviction of the inputs.
  void store_element(Emitter& e, DType d, llvm::Value* base, llvm::Value* index, llvm::Value* x,
                     bool stream = false) {
    auto& b = e.b;
    llvm::Type* mt = e.vec(e.memory_type(d));
    if (d == DType::bool_) x = b.CreateZExt(x, mt);
    const std::uint64_t align = stream ? size_of(d) * e.width : size_of(d);
    auto* st = b.CreateAlignedStore(x, b.CreateInBoundsGEP(e.memory_type(d), base, index),
                                    llvm::Align(std::min<std::uint64_t>(align, 64)));
    if (stream)
      st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                      llvm::MDNode::get(e.ctx, llvm::ConstantAsMetadata::get(b.getInt32(1))));
  }

  llvm::Value* load_ptr(llvm::IRBuilder<>& b, std::size_t i) {
    return b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getPtrTy(), arg(0), i));
  }
  llvm::Value* load_element(Emitter& e, DType d, llvm::Value* base, llvm::Value* index) {
    auto& b = e.b;
    llvm::Type* mt = e.memory_type(d);
    llvm::Value* v = b.CreateLoad(mt, b.CreateInBoundsGEP(mt, base, index));
    return d == DType::bool_ ? b.CreateICmpNE(v, llvm::ConstantInt::get(mt, 0)) : v;
  }

  // for (j = lo; j < hi; j += step) body(j)
  void counted_loop(Emitter& e, llvm::Value* lo, llvm::Value* hi, unsigned step,
                    const std::function<void(llvm::Value*)>& body) {
    auto& b = e.b;
    auto* pre = b.GetInsertBlock();
    auto* head = llvm::BasicBlock::Create(e.ctx, "loop", fn_);
    auto* bodyb = llvm::BasicBlock::Create(e.ctx, "loop.body", fn_);
    auto* exit = llvm::BasicBlock::Create(e.ctx, "loop.exit", fn_);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    auto* j = b.CreatePHI(b.getInt64Ty(), 2, "j");
    j->addIncoming(lo, pre);
    b.CreateCondBr(b.CreateICmpSLT(j, hi), bodyb, exit);
    b.SetInsertPoint(bodyb);
    body(j);
    j->addIncoming(b.CreateAdd(j, b.getInt64(step)), b.GetInsertBlock());
    b.CreateBr(head);
    b.SetInsertPoint(exit);
  }

  // An iota's value at points [j, j + width) of the row: its row value, plus step * (j + lane)
  // along the innermost dim, converted from the 64-bit index to the node's dtype.
  llvm::Value* iota_value(Emitter& e, const Node& n, std::size_t ii, llvm::Value* j) {
    auto& b = e.b;
    const unsigned width = e.width;
    llvm::Value* x;
    if (n.map[0].iter == plan_.rank - 1) {
      x = e.splat(b.CreateAdd(row_iota_[ii], b.CreateMul(j, iota_step_[ii])));
      if (width > 1) {
        std::vector<llvm::Constant*> lanes;
        for (unsigned lane = 0; lane < width; ++lane) lanes.push_back(b.getInt64(lane));
        x = b.CreateAdd(x, b.CreateMul(e.splat(iota_step_[ii]), llvm::ConstantVector::get(lanes)));
      }
    } else {
      x = e.splat(row_iota_[ii]);
    }
    // In scalar code, a freeze (no instruction) hides the iota from ScalarEvolution: a counter
    // hashed by threefry is otherwise an affine function of the loop index through its first
    // adds, and Loop Strength Reduction spent 30 ms of a 50 ms cold random.normal weighing
    // rewrites of two dozen such "induction variable users" in the scalar tail.
    if (width == 1) x = b.CreateFreeze(x);
    llvm::Type* t = e.type(n.dtype);
    if (is_float(n.dtype)) return b.CreateSIToFP(x, t);
    return n.dtype == DType::i64 ? x : b.CreateTrunc(x, t);
  }

  // Computes every node at points [pos + j, pos + j + width) and stores the outputs (in a row
  // kernel, the nodes of the current phase, and that phase's accumulation or outputs).
  void emit_point(Emitter& e, unsigned width, llvm::Value* col, llvm::Value* pos, llvm::Value* j) {
    auto& b = e.b;
    e.width = width;
    std::vector<llvm::Value*> v(plan_.nodes.size());
    if (plan_.rows) return emit_row_point(e, v, col, pos, j);
    for (std::size_t k = 0; k < plan_.nodes.size(); ++k) v[k] = node_value(e, k, v, col, j);
    if (plan_.reduction)
      return accumulate(e, folds_[0], v[static_cast<std::size_t>(plan_.outputs[0])]);
    llvm::Value* flat = b.CreateAdd(pos, j);
    for (std::size_t o = 0; o < plan_.outputs.size(); ++o)
      store_element(e, plan_.output_dtypes[o], out_ptr_[o], flat,
                    v[static_cast<std::size_t>(plan_.outputs[o])], plan_.stream && e.width > 1);
  }

  void emit_row_point(Emitter& e, std::vector<llvm::Value*>& v, llvm::Value* col, llvm::Value* pos,
                      llvm::Value* j) {
    auto& b = e.b;
    const Phase& ph = plan_.phases[static_cast<std::size_t>(phase_)];
    llvm::Value* flat = b.CreateAdd(pos, j);
    llvm::Value* in_row = b.CreateSub(flat, row_base_);
    for (int k : ph.eval) {
      const auto ku = static_cast<std::size_t>(k);
      const int s = plan_.scratch[ku];
      const bool kept_here = std::find(ph.store.begin(), ph.store.end(), k) != ph.store.end();
      llvm::Value* slot = nullptr;
      if (s >= 0)
        slot = b.CreateInBoundsGEP(e.scalar_type(plan_.nodes[ku].dtype),
                                   scratch_[static_cast<std::size_t>(s)], in_row);
      if (s >= 0 && !kept_here) {
        v[ku] = b.CreateAlignedLoad(e.type(plan_.nodes[ku].dtype), slot,
                                    llvm::Align(size_of(plan_.nodes[ku].dtype)));
        continue;
      }
      v[ku] = node_value(e, ku, v, col, j);
      if (kept_here) b.CreateAlignedStore(v[ku], slot, llvm::Align(size_of(plan_.nodes[ku].dtype)));
    }
    const std::size_t n_reduce = plan_.phases.size() - 2;
    const auto p = static_cast<std::size_t>(phase_);
    if (p < n_reduce) return accumulate(e, folds_[p], v[static_cast<std::size_t>(ph.root)]);
    for (std::size_t o = 0; o < plan_.outputs.size(); ++o)
      if (plan_.per_row_output[o] == (p == n_reduce + 1))
        store_element(e, plan_.output_dtypes[o], out_ptr_[o],
                      plan_.per_row_output[o] ? row_index_ : flat,
                      v[static_cast<std::size_t>(plan_.outputs[o])], streaming() && e.width > 1);
  }

  // Node k's value at points [pos + j, pos + j + width), its operands' values in `v`.
  llvm::Value* node_value(Emitter& e, std::size_t k, const std::vector<llvm::Value*>& v,
                          llvm::Value* col, llvm::Value* j) {
    auto& b = e.b;
    const unsigned width = e.width;
    const Node& n = plan_.nodes[k];
    if (n.kind == Node::literal) return e.splat(literal_values_[static_cast<std::size_t>(n.slot)]);
    if (n.kind == Node::reduced) return e.splat(reduced_[static_cast<std::size_t>(n.result)]);
    if (n.kind == Node::iota) return iota_value(e, n, node_param_[k], j);
    if (n.kind == Node::part)
      return b.CreateExtractValue(v[static_cast<std::size_t>(n.args[0])],
                                  {static_cast<unsigned>(n.result)});
    if (n.kind == Node::load) {
      const std::size_t li = node_param_[k];
      if (n.inner == Node::broadcast) return e.splat(broadcast_scalar_[li]);
      if (n.inner == Node::contiguous) {
        llvm::Value* index = b.CreateAdd(row_offset_[li], b.CreateAdd(col, j));
        llvm::Type* mt = e.vec(e.memory_type(n.dtype));
        llvm::Value* p = b.CreateInBoundsGEP(e.memory_type(n.dtype), load_ptr_[li], index);
        llvm::Value* x = b.CreateAlignedLoad(mt, p, llvm::Align(size_of(n.dtype)));
        return n.dtype == DType::bool_ ? b.CreateICmpNE(x, llvm::Constant::getNullValue(mt)) : x;
      }
      if (n.inner == Node::reversed) {
        // A rev along the innermost dim: the lanes' elements are adjacent, backwards in
        // memory; one vector load from the lowest address, then the lanes reversed.
        llvm::Value* index = b.CreateSub(row_offset_[li], b.CreateAdd(col, j));
        if (width > 1) index = b.CreateSub(index, b.getInt64(width - 1));
        llvm::Type* mt = e.vec(e.memory_type(n.dtype));
        llvm::Value* p = b.CreateInBoundsGEP(e.memory_type(n.dtype), load_ptr_[li], index);
        llvm::Value* x = b.CreateAlignedLoad(mt, p, llvm::Align(size_of(n.dtype)));
        if (width > 1) {
          std::vector<int> rev_mask;
          for (unsigned lane = 0; lane < width; ++lane)
            rev_mask.push_back(static_cast<int>(width - 1 - lane));
          x = b.CreateShuffleVector(x, rev_mask);
        }
        return n.dtype == DType::bool_ ? b.CreateICmpNE(x, llvm::Constant::getNullValue(mt)) : x;
      }
      // A strided walk (a reduction over a non-last axis): one scalar load per lane.
      llvm::Value* stride = load_strides_[li].back();
      llvm::Value* x = width == 1 ? nullptr : llvm::PoisonValue::get(e.type(n.dtype));
      for (unsigned lane = 0; lane < width; ++lane) {
        llvm::Value* c = b.CreateAdd(col, b.CreateAdd(j, b.getInt64(lane)));
        llvm::Value* s = load_element(e, n.dtype, load_ptr_[li],
                                      b.CreateAdd(row_offset_[li], b.CreateMul(c, stride)));
        x = width == 1 ? s : b.CreateInsertElement(x, s, std::uint64_t{lane});
      }
      return x;
    }
    std::vector<llvm::Value*> args;
    for (int a : n.args) args.push_back(v[static_cast<std::size_t>(a)]);
    const DType arg_dtype = plan_.nodes[static_cast<std::size_t>(n.args.at(0))].dtype;
    const DType operand_dtype = n.prim == ir::Prim::select_n
                                    ? plan_.nodes[static_cast<std::size_t>(n.args.at(1))].dtype
                                    : arg_dtype;
    return kLowerings[static_cast<int>(n.prim)](e, n, args, operand_dtype);
  }

  const Plan& plan_;
  unsigned lanes_;
  std::string name_;
  llvm::Function* fn_ = nullptr;
  std::vector<llvm::Value*> load_base_;
  std::vector<llvm::Value*> extents_, literal_values_, load_ptr_, out_ptr_, row_offset_,
      broadcast_scalar_;
  std::vector<llvm::Value*> iota_step_, iota_offset_, row_iota_;
  std::vector<Fold> folds_;   // the reduction kernel's one, or a row kernel's per phase
  unsigned accumulator_ = 0;  // which vector accumulator the point being emitted folds into
  std::vector<std::vector<llvm::Value*>> load_strides_;
  std::vector<std::size_t> node_param_;  // per load or iota node: its index among them
  // Row kernels: the current phase, the row's index and first point, each reduction phase's
  // accumulators and result, and each kept node's row of scratch.
  int phase_ = 0;
  llvm::Value* row_index_ = nullptr;
  llvm::Value* row_base_ = nullptr;
  std::vector<llvm::Value*> reduced_, scratch_;
};

}  // namespace fj::backend::llvm_kernel
