// Native lax loops: a scan or while equation whose sub-graphs fuse into kernels and library
// calls only (no nested control) runs as one compiled driver function (`void loop(void** io)`)
// that holds the iteration loop with the kernels inlined (emitted into the driver's module,
// their parameters constants) and the library calls made through a host trampoline
// (call_library), on buffers allocated once per call.
// Included by llvm_backend.ipp after LlvmExecutable.
#pragma once
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <cstdlib>
#include <string_view>
#include <map>

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
  int kernels_per_iteration = 0;
  int library_calls_per_iteration = 0;  // host trampolines (call_library)
  std::vector<Value> literals;  // sub-graph literal outputs, whose addresses the driver holds
};

namespace native_detail {

inline const LlvmExecutable* native_sub(const std::shared_ptr<const Executable>& x) {
  auto* sub = dynamic_cast<const LlvmExecutable*>(x.get());
  if (!sub || !sub->fused().constvars.empty()) return nullptr;
  for (const Launch& l : sub->launches())
    if (l.library && ir::is_lax_control(l.library->prim)) return nullptr;
  return sub;
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
inline void call_library(const Launch* l, void* const* bufs) {
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

class DriverBuilder {
 public:
  DriverBuilder(NativeLoop& out, llvm::LLVMContext& ctx, llvm::Module& m)
      : out_(out), b_(ctx), m_(m) {}

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
        ++out_.library_calls_per_iteration;
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
      KernelBuilder kb(plan, OrcSession::get().lanes(),
                       out_.name + ".k" + std::to_string(out_.kernels_per_iteration));
      llvm::Function* kfn = kb.build_in(m_, OrcSession::get().cpu(), OrcSession::get().features());
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
      ++out_.kernels_per_iteration;
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

 private:
  NativeLoop& out_;
  llvm::IRBuilder<> b_;
  llvm::Module& m_;
};

// The carries whose new value is another carry's old one (a rotation, `(a, b) -> (b, a + b)`).
// Passing that pointer on could keep a buffer alive for more than one iteration, longer than its
// two frame slots allow; the driver copies such a carry into slots of its own instead.
inline std::vector<bool> rotated_carries(const ir::Graph& g, std::size_t first_carry,
                                         std::size_t n_carry) {
  std::vector<bool> r(n_carry, false);
  for (std::size_t i = 0; i < n_carry; ++i) {
    const ir::Atom& a = g.outvars.at(i);
    if (a.is_literal()) continue;
    for (std::size_t j = 0; j < n_carry; ++j)
      if (j != i && g.invars.at(first_carry + j) == a.var) r[i] = true;
  }
  return r;
}

}  // namespace native_detail

inline std::shared_ptr<const NativeLoop> make_native_loop(const ir::Graph& outer, const ir::Eqn& e,
                                                          const Launch& l) {
  using namespace native_detail;
  if (e.prim != ir::Prim::scan && e.prim != ir::Prim::while_) return nullptr;
  // FUSEJIT_NATIVE_LOOPS=0 keeps every loop on the dispatching path (for comparisons).
  if (const char* env = std::getenv("FUSEJIT_NATIVE_LOOPS"); env && std::string_view(env) == "0")
    return nullptr;
  std::vector<const LlvmExecutable*> subs;
  for (auto& x : l.control) {
    subs.push_back(native_sub(x));
    if (!subs.back()) return nullptr;
  }
  const std::size_t n_in = e.in.size();
  auto loop = std::make_shared<NativeLoop>();
  std::size_t n_carry = 0, n_consts = 0, cn = 0, bn = 0, first_x = 0;
  std::int64_t length = 0;
  bool reverse = false;
  if (e.prim == ir::Prim::scan) {
    n_consts = static_cast<std::size_t>(e.params.get<std::int64_t>("num_consts"));
    n_carry = static_cast<std::size_t>(e.params.get<std::int64_t>("num_carry"));
    length = e.params.get<std::int64_t>("length");
    reverse = e.params.get<bool>("reverse");
    first_x = n_consts + n_carry;
  } else {
    cn = static_cast<std::size_t>(e.params.get<std::int64_t>("cond_nconsts"));
    bn = static_cast<std::size_t>(e.params.get<std::int64_t>("body_nconsts"));
    n_carry = n_in - cn - bn;
  }
  loop->n_carry = n_carry;
  loop->n_ys = l.out_avals.size() - n_carry;
  static std::atomic<std::uint64_t> next_id{0};
  loop->name = "fj_loop_" + std::to_string(next_id.fetch_add(1));

  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto m = std::make_unique<llvm::Module>(loop->name, *ctx);
  DriverBuilder db(*loop, *ctx, *m);
  auto& b = db.b();
  auto* i64 = b.getInt64Ty();
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {db.ptr()}, false),
                                    llvm::Function::ExternalLinkage, loop->name, *m);
  OrcSession& session = OrcSession::get();
  fn->addFnAttr("target-cpu", session.cpu());
  fn->addFnAttr("target-features", session.features());
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  // The inlined kernels keep 64-byte vectors on the stack; without a realigned frame their
  // speed depended on the caller's stack alignment (f32[1024] sin body: 390 or 700 ns per
  // iteration, switching with the environment's size).
  fn->addFnAttr("stackrealign");
  llvm::Value* io = fn->getArg(0);
  auto* entry = llvm::BasicBlock::Create(*ctx, "entry", fn);
  auto* header = llvm::BasicBlock::Create(*ctx, "header", fn);
  auto* body = llvm::BasicBlock::Create(*ctx, "body", fn);
  auto* exit = llvm::BasicBlock::Create(*ctx, "exit", fn);
  b.SetInsertPoint(entry);
  std::vector<llvm::Value*> ops;
  for (std::size_t i = 0; i < n_in; ++i) ops.push_back(db.io_slot(io, i));
  llvm::Value* frame = db.io_slot(io, n_in);
  std::vector<llvm::Value*> ys;
  for (std::size_t k = 0; k < loop->n_ys; ++k) ys.push_back(db.io_slot(io, n_in + 1 + k));
  const std::size_t first_carry = e.prim == ir::Prim::scan ? n_consts : cn + bn;
  b.CreateBr(header);

  b.SetInsertPoint(header);
  llvm::PHINode* it = b.CreatePHI(i64, 2, "it");
  it->addIncoming(b.getInt64(0), entry);
  std::vector<llvm::PHINode*> carry;
  for (std::size_t i = 0; i < n_carry; ++i) {
    carry.push_back(b.CreatePHI(db.ptr(), 2));
    carry.back()->addIncoming(ops[first_carry + i], entry);
  }
  if (e.prim == ir::Prim::scan) {
    b.CreateCondBr(b.CreateICmpSLT(it, b.getInt64(length)), body, exit);
  } else {
    std::vector<llvm::Value*> cargs(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(cn));
    cargs.insert(cargs.end(), carry.begin(), carry.end());
    auto p = db.emit_sub(*subs[0], cargs, frame, nullptr, {}, entry);
    llvm::Value* pred = b.CreateLoad(b.getInt8Ty(), p.at(0));
    b.CreateCondBr(b.CreateICmpNE(pred, b.getInt8(0)), body, exit);
  }

  b.SetInsertPoint(body);
  llvm::Value* parity = b.CreateTrunc(it, b.getInt1Ty());
  std::vector<llvm::Value*> args;
  std::map<ir::VarId, llvm::Value*> direct;
  std::vector<llvm::Value*> yrow;
  const LlvmExecutable& bx = *subs.back();
  const ir::Graph& bg = bx.fused();
  if (e.prim == ir::Prim::scan) {
    llvm::Value* row = reverse ? b.CreateSub(b.getInt64(length - 1), it) : it;
    args.assign(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(n_consts));
    args.insert(args.end(), carry.begin(), carry.end());
    for (std::size_t j = first_x; j < n_in; ++j) {
      const ir::Aval xs = outer.aval(e.in[j]);
      const std::size_t row_bytes = length ? bytes_of(xs) / static_cast<std::size_t>(length) : 0;
      args.push_back(db.byte_gep(ops[j], b.CreateMul(row, b.getInt64(row_bytes))));
    }
    for (std::size_t k = 0; k < loop->n_ys; ++k) {
      const std::size_t row_bytes =
          length ? bytes_of(l.out_avals[n_carry + k]) / static_cast<std::size_t>(length) : 0;
      yrow.push_back(db.byte_gep(ys[k], b.CreateMul(row, b.getInt64(row_bytes))));
      // A y computed by a kernel is written straight into its row (once, if it is two ys).
      const ir::Atom& a = bg.outvars.at(n_carry + k);
      if (a.is_literal() || direct.count(a.var)) continue;
      if (std::find(bg.invars.begin(), bg.invars.end(), a.var) != bg.invars.end()) continue;
      direct[a.var] = yrow.back();
    }
  } else {
    args.assign(ops.begin() + static_cast<std::ptrdiff_t>(cn),
                ops.begin() + static_cast<std::ptrdiff_t>(cn + bn));
    args.insert(args.end(), carry.begin(), carry.end());
  }
  auto outs = db.emit_sub(bx, args, frame, parity, direct, entry);
  for (std::size_t k = 0; k < loop->n_ys; ++k) {
    const std::size_t row_bytes =
        length ? bytes_of(l.out_avals[n_carry + k]) / static_cast<std::size_t>(length) : 0;
    const ir::Atom& a = bg.outvars.at(n_carry + k);
    if (row_bytes == 0 || (!a.is_literal() && direct.count(a.var) && direct.at(a.var) == yrow[k]))
      continue;
    b.CreateMemCpy(yrow[k], llvm::MaybeAlign(1), outs[n_carry + k], llvm::MaybeAlign(1), row_bytes);
  }
  const auto rotated = rotated_carries(bg, e.prim == ir::Prim::scan ? n_consts : bn, n_carry);
  for (std::size_t i = 0; i < n_carry; ++i) {
    if (!rotated[i]) continue;
    const std::size_t bytes = bytes_of(l.out_avals[i]);
    llvm::Value* slot = db.frame_slot(frame, parity, bytes);
    if (bytes) b.CreateMemCpy(slot, llvm::MaybeAlign(1), outs[i], llvm::MaybeAlign(1), bytes);
    outs[i] = slot;
  }
  for (std::size_t i = 0; i < n_carry; ++i) carry[i]->addIncoming(outs[i], b.GetInsertBlock());
  it->addIncoming(b.CreateAdd(it, b.getInt64(1)), b.GetInsertBlock());
  b.CreateBr(header);

  b.SetInsertPoint(exit);
  for (std::size_t i = 0; i < n_carry; ++i)
    b.CreateStore(carry[i], b.CreateConstInBoundsGEP1_64(db.ptr(), io, n_in + 1 + loop->n_ys + i));
  b.CreateRetVoid();

  auto [addr, ir] =
      session.load(std::move(m), std::move(ctx), loop->name, OrcSession::kDriverPipeline);
  loop->fn = reinterpret_cast<LoopFn>(addr);
  loop->ir = std::move(ir);
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
  loop.fn(io.data());
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
  return " (native loop: " + loop.name + ", " + std::to_string(loop.kernels_per_iteration) +
         " kernels inlined per iteration, " +
         (loop.library_calls_per_iteration
              ? std::to_string(loop.library_calls_per_iteration) + " library calls, "
              : std::string()) +
         std::to_string(loop.frame_bytes) + " frame bytes)\n" + loop.ir;
}

}  // namespace fj::backend::llvm_kernel
