// Native lax loops: a scan or while equation runs as one compiled driver function
// (`void loop(void** io)`) that holds the iteration loop with the body's kernels inlined (emitted
// into the driver's module, their parameters constants), its library calls made through a host
// trampoline (call_library), and any cond or loop nested in the body emitted in place (a switch
// over the branches, an inner loop), on buffers allocated once per call.
#pragma once
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <utility>
#include <string_view>
#include <map>

#include "fusejit/backend/llvm/codegen.hpp"
#include "fusejit/backend/llvm/executable.hpp"

namespace fj::backend::llvm_kernel {

/// void loop(void** io): io = [operands..., frame, ys outputs..., carry results...]; the driver
/// reads the operands, the frame (scratch for kernel and library outputs, two buffers each so that
/// a carry written this iteration never overwrites the one it reads) and the stacked ys outputs,
/// and writes a pointer to each final carry into its result slot (the host copies it out).
using LoopFn = void (*)(void* const*);

struct NativeLoop {
  LoopFn fn = nullptr;
  std::string name, ir;
  std::size_t frame_bytes = 0;
  std::size_t n_carry = 0, n_ys = 0;
  int kernels_inlined = 0;
  int library_calls = 0;        // host trampolines (call_library)
  int nested_control = 0;       // conds and loops emitted inside the body
  std::vector<Value> literals;  // sub-graph literal outputs, whose addresses the driver holds
  std::shared_ptr<const OrcSession::LoadedCode> code;  // the driver's code stays loaded while held
};

namespace native_detail {

// A control launch's sub-plans (from compile_graph(sub, false)), or null when one is not an LLVM
// plan or is not closed.
inline std::vector<const LlvmExecutable*> native_subs(const Launch& l) {
  std::vector<const LlvmExecutable*> subs;
  for (auto& x : l.control) {
    auto* sub = dynamic_cast<const LlvmExecutable*>(x.get());
    if (!sub || !sub->fused().constvars.empty()) return {};
    subs.push_back(sub);
  }
  return subs;
}

// Whether a control launch, and every cond or loop nested in its sub-graphs, can be emitted into
// a driver: each has plans of its sub-graphs.
inline bool drivable(const Launch& l) {
  const auto subs = native_subs(l);
  if (subs.empty()) return false;
  for (const LlvmExecutable* sub : subs)
    for (const Launch& inner : sub->launches())
      if (inner.library && ir::is_lax_control(inner.library->prim) && !drivable(inner))
        return false;
  return true;
}

// Where a loop equation's operands and results are: scan (consts, carry, xs) -> (carry, ys);
// while (cond consts, body consts, carry) -> carry.
struct LoopLayout {
  bool scan = false;
  std::size_t n_consts = 0, n_carry = 0, cn = 0, bn = 0, first_x = 0, first_carry = 0;
  std::int64_t length = 0;
  bool reverse = false;
  LoopLayout(const ir::Eqn& e, std::size_t n_in) : scan(e.prim == ir::Prim::scan) {
    if (scan) {
      n_consts = static_cast<std::size_t>(e.params.get<std::int64_t>("num_consts"));
      n_carry = static_cast<std::size_t>(e.params.get<std::int64_t>("num_carry"));
      length = e.params.get<std::int64_t>("length");
      reverse = e.params.get<bool>("reverse");
      first_x = n_consts + n_carry;
      first_carry = n_consts;
    } else {
      cn = static_cast<std::size_t>(e.params.get<std::int64_t>("cond_nconsts"));
      bn = static_cast<std::size_t>(e.params.get<std::int64_t>("body_nconsts"));
      n_carry = n_in - cn - bn;
      first_carry = cn + bn;
    }
  }
};

// The vars of sub-plan `x` that a nested cond or loop produces.
inline std::vector<ir::VarId> control_outputs(const LlvmExecutable& x) {
  std::vector<ir::VarId> vs;
  for (const Launch& l : x.launches())
    if (l.library && ir::is_lax_control(l.library->prim))
      vs.insert(vs.end(), l.outputs.begin(), l.outputs.end());
  return vs;
}

inline std::size_t bytes_of(const ir::Aval& a) {
  return static_cast<std::size_t>(a.shape.size()) * size_of(a.dtype);
}

// Called by a driver for a kernel big enough to split across the pool, as LlvmExecutable::run
// splits it: the kernel stays a function of the driver's module, called on each chunk.
inline void run_parallel(KernelFn fn, void* const* bufs, const std::int64_t* ip,
                         const std::int64_t* sc, std::int64_t size, std::int64_t work_per_item) {
  const std::int64_t min_items = std::max<std::int64_t>(1, (std::int64_t{1} << 15) / work_per_item);
  runtime::parallel_for(size, min_items, work_per_item > 1 ? 1 : 64,
                        [&](std::int64_t lo, std::int64_t hi) { fn(bufs, ip, sc, lo, hi); });
}

// Called by a driver after a reduction kernel that wrote block partials. The launch lives in a
// plan the loop's Launch holds, as long as the driver.
inline void combine(const Launch* l, const void* partials, void* out) {
  combine_partials(l->reduce, l->out_avals[0].dtype, partials, out, l->out_avals[0].shape.size(),
                   l->nblocks);
}

// Called by a driver for a library launch (dot_general, concatenate, dynamic_slice, ...):
// `bufs` holds a pointer per operand (a literal operand's is the launch's own value), then one
// per output, all in the driver's frame or the loop's operands. Runs the same routine as
// LlvmExecutable::run_library on non-owning Values over them. A dot's epilogue kernel is not
// run here: the driver runs it right after, inlined like any kernel.
// An exception must not unwind through the driver's JIT-compiled frames: call_library keeps the
// first one here, skips the calls after it, and run_native_loop raises it once the driver returns.
inline void run_library_call(const Launch* l, void* const* bufs);
inline std::exception_ptr& pending_error() {
  thread_local std::exception_ptr error;
  return error;
}

inline void call_library(const Launch* l, void* const* bufs) {
  if (pending_error()) return;
  try {
    run_library_call(l, bufs);
  } catch (...) {
    pending_error() = std::current_exception();
  }
}

inline void run_library_call(const Launch* l, void* const* bufs) {
  constexpr std::size_t kInline = 8;
  const std::size_t n_in = l->atoms.size(), n_out = l->outputs.size();
  runtime::Buffer raw[kInline];
  std::vector<runtime::Buffer> raw_heap(n_in + n_out > kInline ? n_in + n_out : 0);
  runtime::Buffer* rb = n_in + n_out > kInline ? raw_heap.data() : raw;
  std::vector<Value> in(n_in), out(n_out);
  // Non-owning views: the aliasing constructor points at a Buffer on this stack frame and
  // allocates no control block.
  auto view = [&](std::size_t k, void* data, const ir::Aval& av) {
    rb[k].data = data;
    rb[k].bytes = bytes_of(av);
    return Value{runtime::BufferPtr(runtime::BufferPtr(), &rb[k]), av};
  };
  for (std::size_t i = 0; i < n_in; ++i)
    in[i] = l->atoms[i].is_literal() ? l->literals[i] : view(i, bufs[i], l->in_avals[i]);
  for (std::size_t o = 0; o < n_out; ++o) out[o] = view(n_in + o, bufs[n_in + o], l->out_avals[o]);
  if (l->dot)
    l->dot->run(in[0], in[1], out[0], {});
  else
    l->host(*l->library, in.data(), out.data());
}

// The carries a loop body must copy into slots of its own at the end of each iteration: one
// whose new value is another carry's old one (a rotation, `(a, b) -> (b, a + b)`), and one a
// nested cond or loop produces (it may pass through a value from an earlier iteration). Passing
// such a pointer on could keep a buffer alive for more than one iteration, longer than its two
// frame slots allow.
inline std::vector<bool> carries_to_copy(const LlvmExecutable& body, std::size_t first_carry,
                                         std::size_t n_carry) {
  const ir::Graph& g = body.fused();
  const auto nested = control_outputs(body);
  std::vector<bool> r(n_carry, false);
  for (std::size_t i = 0; i < n_carry; ++i) {
    const ir::Atom& a = g.outvars.at(i);
    if (a.is_literal()) continue;
    r[i] = std::find(nested.begin(), nested.end(), a.var) != nested.end();
    for (std::size_t j = 0; j < n_carry; ++j)
      if (j != i && g.invars.at(first_carry + j) == a.var) r[i] = true;
  }
  return r;
}

class DriverBuilder {
 public:
  DriverBuilder(NativeLoop& out, llvm::LLVMContext& ctx, llvm::Module& m, const JitTarget& target)
      : out_(out), b_(ctx), m_(m), target_(target) {}

  llvm::IRBuilder<>& b() { return b_; }
  llvm::Type* ptr() { return b_.getPtrTy(); }
  llvm::Value* const_ptr(const void* p) {
    return b_.CreateIntToPtr(b_.getInt64(reinterpret_cast<std::uintptr_t>(p)), ptr());
  }
  // A private constant array holding `v` (a kernel's iparams or scalars).
  llvm::Value* const_i64s(const std::vector<std::int64_t>& v) {
    auto* i64 = b_.getInt64Ty();
    auto* ty = llvm::ArrayType::get(i64, std::max<std::size_t>(v.size(), 1));
    std::vector<llvm::Constant*> cs;
    for (std::int64_t x : v)
      cs.push_back(llvm::ConstantInt::get(i64, static_cast<std::uint64_t>(x), true));
    if (cs.empty()) cs.push_back(llvm::ConstantInt::get(i64, 0));
    return new llvm::GlobalVariable(m_, ty, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                    llvm::ConstantArray::get(ty, cs));
  }
  llvm::Value* io_slot(llvm::Value* io, std::size_t i) {
    return b_.CreateLoad(ptr(), b_.CreateConstInBoundsGEP1_64(ptr(), io, i));
  }
  llvm::Value* byte_gep(llvm::Value* base, llvm::Value* offset) {
    return b_.CreateInBoundsGEP(b_.getInt8Ty(), base, offset);
  }

  // A buffer of `bytes` in the frame, 64-byte aligned: one, or two selected by `parity`.
  llvm::Value* frame_slot(llvm::Value* frame, llvm::Value* parity, std::size_t bytes) {
    bytes = (bytes + 63) & ~std::size_t{63};
    llvm::Value* off = b_.getInt64(out_.frame_bytes);
    out_.frame_bytes += bytes;
    if (parity) {
      off = b_.CreateSelect(parity, b_.getInt64(out_.frame_bytes), off);
      out_.frame_bytes += bytes;
    }
    return byte_gep(frame, off);
  }

  // Emits one run of sub-executable `x` at the insert point: binds its invars to `args`, runs
  // its kernels in order (calls, inlined by the driver's pipeline), and returns a pointer to each
  // of its outvars. A kernel output listed in `direct` is written there; any other gets a frame
  // buffer, or two when `parity` is given (selected by it).
  std::vector<llvm::Value*> emit_sub(const LlvmExecutable& x, const std::vector<llvm::Value*>& args,
                                     llvm::Value* frame, llvm::Value* parity,
                                     const std::map<ir::VarId, llvm::Value*>& direct,
                                     llvm::BasicBlock* entry) {
    const ir::Graph& g = x.fused();
    std::map<ir::VarId, llvm::Value*> at;
    for (std::size_t i = 0; i < g.invars.size(); ++i) at[g.invars[i]] = args.at(i);
    auto* i64 = b_.getInt64Ty();
    auto* kfty = llvm::FunctionType::get(b_.getVoidTy(), {ptr(), ptr(), ptr(), i64, i64}, false);
    for (std::size_t li = 0; li < x.launches().size(); ++li) {
      const Launch& l = x.launches()[li];
      if (l.library && ir::is_lax_control(l.library->prim)) {
        // A nested cond or loop, emitted in place; its results stay where it leaves them.
        std::vector<llvm::Value*> ins;
        for (std::size_t i = 0; i < l.atoms.size(); ++i)
          ins.push_back(l.atoms[i].is_literal() ? const_ptr(l.literals[i].buf->data)
                                                : at.at(l.atoms[i].var));
        std::vector<llvm::Value*> res;
        if (l.library->prim == ir::Prim::cond) {
          res = emit_cond(l, ins, frame, parity, entry);
        } else {
          // Its stacked ys are consumed (or copied) in this iteration: one slot each.
          std::vector<llvm::Value*> ys;
          const LoopLayout lay(*l.library, l.atoms.size());
          for (std::size_t k = lay.n_carry; k < l.out_avals.size(); ++k)
            ys.push_back(frame_slot(frame, nullptr, bytes_of(l.out_avals[k])));
          res = emit_loop(l, ins, ys, frame, entry);
          res.insert(res.end(), ys.begin(), ys.end());
        }
        for (std::size_t o = 0; o < l.outputs.size(); ++o) at[l.outputs[o]] = res.at(o);
        ++out_.nested_control;
        continue;
      }
      for (std::size_t o = 0; o < l.outputs.size(); ++o) {
        const ir::VarId v = l.outputs[o];
        if (auto d = direct.find(v); d != direct.end()) {
          at[v] = d->second;
          continue;
        }
        at[v] = frame_slot(frame, parity, native_detail::bytes_of(l.out_avals[o]));
      }
      if (l.library) {
        // A library call: the host trampoline, on the operands' and outputs' buffers.
        const std::size_t n = l.atoms.size() + l.outputs.size();
        llvm::IRBuilder<> eb(entry, entry->begin());
        llvm::Value* arr = eb.CreateAlloca(ptr(), b_.getInt64(std::max<std::size_t>(n, 1)));
        std::size_t k = 0;
        for (std::size_t i = 0; i < l.atoms.size(); ++i)
          b_.CreateStore(
              l.atoms[i].is_literal() ? const_ptr(l.literals[i].buf->data) : at.at(l.atoms[i].var),
              b_.CreateConstInBoundsGEP1_64(ptr(), arr, k++));
        for (ir::VarId v : l.outputs)
          b_.CreateStore(at.at(v), b_.CreateConstInBoundsGEP1_64(ptr(), arr, k++));
        auto* lfty = llvm::FunctionType::get(b_.getVoidTy(), {ptr(), ptr()}, false);
        b_.CreateCall(
            lfty,
            b_.CreateIntToPtr(
                b_.getInt64(reinterpret_cast<std::uintptr_t>(&native_detail::call_library)), ptr()),
            {const_ptr(&l), arr});
        ++out_.library_calls;
        continue;
      }
      // A reduction in block partials writes them to a scratch slot; the host's combine (the
      // same tree as LlvmExecutable::run's) then writes the output.
      llvm::Value* partials = nullptr;
      if (l.nblocks > 1)
        partials = frame_slot(frame, nullptr,
                              static_cast<std::size_t>(l.size) * size_of(l.out_avals[0].dtype));
      if (l.size == 0) continue;
      // The kernel's buffer array: an entry-block alloca, filled before each call.
      const std::size_t n = l.inputs.size() + l.outputs.size();
      llvm::IRBuilder<> eb(entry, entry->begin());
      llvm::Value* arr = eb.CreateAlloca(ptr(), b_.getInt64(std::max<std::size_t>(n, 1)));
      std::size_t k = 0;
      for (ir::VarId v : l.inputs)
        b_.CreateStore(at.at(v), b_.CreateConstInBoundsGEP1_64(ptr(), arr, k++));
      for (ir::VarId v : l.outputs)
        b_.CreateStore(partials ? partials : at.at(v),
                       b_.CreateConstInBoundsGEP1_64(ptr(), arr, k++));
      // The kernel, emitted into this module and inlined, its parameters constants: LLVM
      // folds the extents and strides, so a scalar body is a few instructions in the loop.
      const Plan plan = Planner(*g.eqns.at(li).params.get<ir::GraphPtr>("jaxpr")).run();
      llvm::Function* kfn = build_kernel_into(m_, plan, target_.info.lanes,
                                              "fj_inlined_k" + std::to_string(out_.kernels_inlined),
                                              target_.info.cpu, target_.info.features);
      kfn->setLinkage(llvm::GlobalValue::InternalLinkage);
      const std::int64_t min_items =
          std::max<std::int64_t>(1, (std::int64_t{1} << 15) / l.work_per_item);
      if (l.size < 2 * min_items) {
        kfn->addFnAttr(llvm::Attribute::AlwaysInline);
        b_.CreateCall(kfty, kfn,
                      {arr, const_i64s(l.iparams), const_i64s(l.scalars), b_.getInt64(0),
                       b_.getInt64(l.size)});
      } else {
        // Big: split across the pool by the host, each chunk a call of the kernel.
        kfn->addFnAttr(llvm::Attribute::NoInline);
        auto* pfty =
            llvm::FunctionType::get(b_.getVoidTy(), {ptr(), ptr(), ptr(), ptr(), i64, i64}, false);
        b_.CreateCall(
            pfty,
            b_.CreateIntToPtr(
                b_.getInt64(reinterpret_cast<std::uintptr_t>(&native_detail::run_parallel)), ptr()),
            {kfn, arr, const_i64s(l.iparams), const_i64s(l.scalars), b_.getInt64(l.size),
             b_.getInt64(l.work_per_item)});
      }
      ++out_.kernels_inlined;
      if (partials) {
        auto* cfty = llvm::FunctionType::get(b_.getVoidTy(), {ptr(), ptr(), ptr()}, false);
        b_.CreateCall(
            cfty,
            b_.CreateIntToPtr(
                b_.getInt64(reinterpret_cast<std::uintptr_t>(&native_detail::combine)), ptr()),
            {const_ptr(&l), partials, at.at(l.outputs[0])});
      }
    }
    std::vector<llvm::Value*> outs;
    for (const ir::Atom& a : g.outvars) {
      if (a.is_literal()) {
        out_.literals.push_back(literal_value(a.lit));
        outs.push_back(const_ptr(out_.literals.back().buf->data));
      } else {
        outs.push_back(at.at(a.var));
      }
    }
    return outs;
  }

  // A cond: a switch on the clamped index (XLA's Conditional clamps, as run_control does) over
  // one block per branch, each emitting its branch; the results are phis of the branches'.
  std::vector<llvm::Value*> emit_cond(const Launch& l, const std::vector<llvm::Value*>& ins,
                                      llvm::Value* frame, llvm::Value* parity,
                                      llvm::BasicBlock* entry) {
    const auto subs = native_subs(l);
    const auto n = static_cast<std::int64_t>(subs.size());
    llvm::Function* fn = b_.GetInsertBlock()->getParent();
    auto& ctx = fn->getContext();
    llvm::Value* k = b_.CreateSExt(b_.CreateLoad(b_.getInt32Ty(), ins.at(0)), b_.getInt64Ty());
    k = b_.CreateSelect(b_.CreateICmpSLT(k, b_.getInt64(0)), b_.getInt64(0), k);
    k = b_.CreateSelect(b_.CreateICmpSGT(k, b_.getInt64(n - 1)), b_.getInt64(n - 1), k);
    auto* merge = llvm::BasicBlock::Create(ctx, "cond.merge", fn);
    std::vector<llvm::BasicBlock*> blocks;
    for (std::int64_t j = 0; j < n; ++j)
      blocks.push_back(llvm::BasicBlock::Create(ctx, "cond.branch" + std::to_string(j), fn, merge));
    llvm::SwitchInst* sw = b_.CreateSwitch(k, blocks.back(), static_cast<unsigned>(n - 1));
    for (std::int64_t j = 0; j + 1 < n; ++j) sw->addCase(b_.getInt64(j), blocks[j]);
    const std::vector<llvm::Value*> args(ins.begin() + 1, ins.end());
    std::vector<std::pair<llvm::BasicBlock*, std::vector<llvm::Value*>>> results;
    for (std::int64_t j = 0; j < n; ++j) {
      b_.SetInsertPoint(blocks[j]);
      auto outs = emit_sub(*subs[static_cast<std::size_t>(j)], args, frame, parity, {}, entry);
      results.emplace_back(b_.GetInsertBlock(), std::move(outs));
      b_.CreateBr(merge);
    }
    b_.SetInsertPoint(merge);
    std::vector<llvm::Value*> res;
    for (std::size_t o = 0; o < l.out_avals.size(); ++o) {
      llvm::PHINode* phi = b_.CreatePHI(ptr(), static_cast<unsigned>(n));
      for (auto& [bb, outs] : results) phi->addIncoming(outs.at(o), bb);
      res.push_back(phi);
    }
    return res;
  }

  // A scan or while loop at the insert point, on operand pointers `ops`, writing its stacked ys
  // into `ys`; returns a pointer to each final carry. Carries alternate between two slots by
  // the iteration's parity, so a carry written this iteration never overwrites the one it reads.
  std::vector<llvm::Value*> emit_loop(const Launch& l, const std::vector<llvm::Value*>& ops,
                                      const std::vector<llvm::Value*>& ys, llvm::Value* frame,
                                      llvm::BasicBlock* entry) {
    const auto subs = native_subs(l);
    const LoopLayout lay(*l.library, ops.size());
    const std::size_t n_carry = lay.n_carry, n_ys = ys.size();
    llvm::Function* fn = b_.GetInsertBlock()->getParent();
    auto& ctx = fn->getContext();
    auto* i64 = b_.getInt64Ty();
    auto* header = llvm::BasicBlock::Create(ctx, "loop.header", fn);
    auto* body = llvm::BasicBlock::Create(ctx, "loop.body", fn);
    auto* exit = llvm::BasicBlock::Create(ctx, "loop.exit", fn);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    b_.CreateBr(header);

    b_.SetInsertPoint(header);
    llvm::PHINode* it = b_.CreatePHI(i64, 2, "it");
    it->addIncoming(b_.getInt64(0), pre);
    std::vector<llvm::PHINode*> carry;
    for (std::size_t i = 0; i < n_carry; ++i) {
      carry.push_back(b_.CreatePHI(ptr(), 2));
      carry.back()->addIncoming(ops[lay.first_carry + i], pre);
    }
    if (lay.scan) {
      b_.CreateCondBr(b_.CreateICmpSLT(it, b_.getInt64(lay.length)), body, exit);
    } else {
      std::vector<llvm::Value*> cargs(ops.begin(),
                                      ops.begin() + static_cast<std::ptrdiff_t>(lay.cn));
      cargs.insert(cargs.end(), carry.begin(), carry.end());
      auto p = emit_sub(*subs[0], cargs, frame, nullptr, {}, entry);
      llvm::Value* pred = b_.CreateLoad(b_.getInt8Ty(), p.at(0));
      b_.CreateCondBr(b_.CreateICmpNE(pred, b_.getInt8(0)), body, exit);
    }

    b_.SetInsertPoint(body);
    llvm::Value* parity = b_.CreateTrunc(it, b_.getInt1Ty());
    std::vector<llvm::Value*> args;
    std::map<ir::VarId, llvm::Value*> direct;
    std::vector<llvm::Value*> yrow;
    std::vector<std::size_t> y_bytes;
    const LlvmExecutable& bx = *subs.back();
    const ir::Graph& bg = bx.fused();
    const auto nested = control_outputs(bx);
    auto row_bytes = [&](const ir::Aval& stacked) {
      return lay.length ? bytes_of(stacked) / static_cast<std::size_t>(lay.length) : 0;
    };
    if (lay.scan) {
      llvm::Value* row = lay.reverse ? b_.CreateSub(b_.getInt64(lay.length - 1), it) : it;
      args.assign(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(lay.n_consts));
      args.insert(args.end(), carry.begin(), carry.end());
      for (std::size_t j = lay.first_x; j < ops.size(); ++j)
        args.push_back(
            byte_gep(ops[j], b_.CreateMul(row, b_.getInt64(row_bytes(l.in_avals.at(j))))));
      for (std::size_t k = 0; k < n_ys; ++k) {
        y_bytes.push_back(row_bytes(l.out_avals[n_carry + k]));
        yrow.push_back(byte_gep(ys[k], b_.CreateMul(row, b_.getInt64(y_bytes.back()))));
        // A y a kernel or library call computes is written straight into its row (once, if it
        // is two ys).
        const ir::Atom& a = bg.outvars.at(n_carry + k);
        if (a.is_literal() || direct.count(a.var)) continue;
        if (std::find(bg.invars.begin(), bg.invars.end(), a.var) != bg.invars.end()) continue;
        if (std::find(nested.begin(), nested.end(), a.var) != nested.end()) continue;
        direct[a.var] = yrow.back();
      }
    } else {
      args.assign(ops.begin() + static_cast<std::ptrdiff_t>(lay.cn),
                  ops.begin() + static_cast<std::ptrdiff_t>(lay.cn + lay.bn));
      args.insert(args.end(), carry.begin(), carry.end());
    }
    auto outs = emit_sub(bx, args, frame, parity, direct, entry);
    for (std::size_t k = 0; k < n_ys; ++k) {
      const ir::Atom& a = bg.outvars.at(n_carry + k);
      if (y_bytes[k] == 0 ||
          (!a.is_literal() && direct.count(a.var) && direct.at(a.var) == yrow[k]))
        continue;
      b_.CreateMemCpy(yrow[k], llvm::MaybeAlign(1), outs[n_carry + k], llvm::MaybeAlign(1),
                      y_bytes[k]);
    }
    const auto copy = carries_to_copy(bx, lay.scan ? lay.n_consts : lay.bn, n_carry);
    for (std::size_t i = 0; i < n_carry; ++i) {
      if (!copy[i]) continue;
      const std::size_t bytes = bytes_of(l.out_avals[i]);
      llvm::Value* slot = frame_slot(frame, parity, bytes);
      if (bytes) b_.CreateMemCpy(slot, llvm::MaybeAlign(1), outs[i], llvm::MaybeAlign(1), bytes);
      outs[i] = slot;
    }
    for (std::size_t i = 0; i < n_carry; ++i) carry[i]->addIncoming(outs[i], b_.GetInsertBlock());
    it->addIncoming(b_.CreateAdd(it, b_.getInt64(1)), b_.GetInsertBlock());
    b_.CreateBr(header);
    b_.SetInsertPoint(exit);
    return std::vector<llvm::Value*>(carry.begin(), carry.end());
  }

 private:
  NativeLoop& out_;
  llvm::IRBuilder<> b_;
  llvm::Module& m_;
  const JitTarget& target_;  // the inlined kernels' width and ISA
};

}  // namespace native_detail

inline std::shared_ptr<const NativeLoop> make_native_loop(const ir::Graph&, const ir::Eqn& e,
                                                          const Launch& l) {
  using namespace native_detail;
  if (e.prim != ir::Prim::scan && e.prim != ir::Prim::while_) return nullptr;
  // FUSEJIT_NATIVE_LOOPS=0 keeps every loop on the dispatching path (for comparisons).
  if (const char* env = std::getenv("FUSEJIT_NATIVE_LOOPS"); env && std::string_view(env) == "0")
    return nullptr;
  if (!drivable(l)) return nullptr;
  const std::size_t n_in = e.in.size();
  auto loop = std::make_shared<NativeLoop>();
  const LoopLayout lay(e, n_in);
  loop->n_carry = lay.n_carry;
  loop->n_ys = l.out_avals.size() - lay.n_carry;
  // Named after its content by OrcSession::load (loop->name is set from it below).
  const std::string entry_name = OrcSession::kEntryName;

  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto m = std::make_unique<llvm::Module>(entry_name, *ctx);
  OrcSession& session = OrcSession::get();
  const std::shared_ptr<const JitTarget> target = session.target();
  DriverBuilder db(*loop, *ctx, *m, *target);
  auto& b = db.b();
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {db.ptr()}, false),
                                    llvm::Function::ExternalLinkage, entry_name, *m);
  fn->addFnAttr("target-cpu", target->info.cpu);
  fn->addFnAttr("target-features", target->info.features);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  // The inlined kernels keep 64-byte vectors on the stack; without a realigned frame their
  // speed depended on the caller's stack alignment (f32[1024] sin body: 390 or 700 ns per
  // iteration, switching with the environment's size).
  fn->addFnAttr("stackrealign");
  llvm::Value* io = fn->getArg(0);
  auto* entry = llvm::BasicBlock::Create(*ctx, "entry", fn);
  b.SetInsertPoint(entry);
  std::vector<llvm::Value*> ops;
  for (std::size_t i = 0; i < n_in; ++i) ops.push_back(db.io_slot(io, i));
  llvm::Value* frame = db.io_slot(io, n_in);
  std::vector<llvm::Value*> ys;
  for (std::size_t k = 0; k < loop->n_ys; ++k) ys.push_back(db.io_slot(io, n_in + 1 + k));
  const auto carries = db.emit_loop(l, ops, ys, frame, entry);
  for (std::size_t i = 0; i < lay.n_carry; ++i)
    b.CreateStore(carries[i],
                  b.CreateConstInBoundsGEP1_64(db.ptr(), io, n_in + 1 + loop->n_ys + i));
  b.CreateRetVoid();

  auto loaded =
      session.load(std::move(m), std::move(ctx), entry_name, *target, OrcSession::kDriverPipeline);
  loop->name = loaded.symbol;
  loop->fn = reinterpret_cast<LoopFn>(loaded.addr);
  loop->ir = std::move(loaded.ir);
  loop->code = std::move(loaded.code);
  detail::stat_counters().compiles.fetch_add(1, std::memory_order_relaxed);
  return loop;
}

inline std::vector<Value> run_native_loop(const Launch& l, std::span<const Value> in) {
  const NativeLoop& loop = *l.native;
  const std::size_t n_in = in.size();
  std::vector<void*> io(n_in + 1 + loop.n_ys + loop.n_carry, nullptr);
  for (std::size_t i = 0; i < n_in; ++i) io[i] = in[i].buf->data;
  auto frame = runtime::allocate(loop.frame_bytes);
  io[n_in] = frame->data;
  std::vector<Value> out(l.out_avals.size());
  for (std::size_t k = 0; k < loop.n_ys; ++k) {
    const ir::Aval& av = l.out_avals[loop.n_carry + k];
    out[loop.n_carry + k] = {runtime::allocate(native_detail::bytes_of(av)), av};
    io[n_in + 1 + k] = out[loop.n_carry + k].buf->data;
  }
  native_detail::pending_error() = nullptr;
  loop.fn(io.data());
  if (std::exception_ptr error = std::exchange(native_detail::pending_error(), nullptr))
    std::rethrow_exception(error);
  for (std::size_t i = 0; i < loop.n_carry; ++i) {
    const ir::Aval& av = l.out_avals[i];
    const std::size_t bytes = native_detail::bytes_of(av);
    out[i] = {runtime::allocate(bytes), av};
    if (bytes) std::memcpy(out[i].buf->data, io[n_in + 1 + loop.n_ys + i], bytes);
  }
  return out;
}

inline std::string describe_native_loop(const Launch& l) {
  const NativeLoop& loop = *l.native;
  return " (native loop: " + loop.name + ", " + std::to_string(loop.kernels_inlined) +
         " kernels inlined, " +
         (loop.library_calls ? std::to_string(loop.library_calls) + " library calls, "
                             : std::string()) +
         (loop.nested_control ? std::to_string(loop.nested_control) + " nested conds or loops, "
                              : std::string()) +
         std::to_string(loop.frame_bytes) + " frame bytes)\n" + loop.ir;
}

}  // namespace fj::backend::llvm_kernel
