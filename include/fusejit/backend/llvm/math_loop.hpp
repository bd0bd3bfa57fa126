// A data-dependent loop over the lanes of a math function (math_igamma.hpp): JAX's while_loop
// over an array, emitted as IR blocks where the function is being built.
#pragma once
#include <vector>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/IRBuilder.h>

#include "fusejit/backend/llvm/math_fp.hpp"

namespace fj::backend::llvm_ir::detail {

using LoopValues = std::vector<llvm::Value*>;

// Moves what follows the builder's insert point in its block into a new block `name` right after
// it, and returns that block: the code emitted next can then end the first block with a branch,
// and the function goes on in the new one (its successors' phis now come from it).
inline llvm::BasicBlock* split_after_insert_point(llvm::IRBuilderBase& b, const char* name) {
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* rest =
      llvm::BasicBlock::Create(b.getContext(), name, pre->getParent(), pre->getNextNode());
  if (b.GetInsertPoint() != pre->end()) {
    rest->splice(rest->end(), pre, b.GetInsertPoint(), pre->end());
    rest->replaceSuccessorsPhiUsesWith(pre, rest);
  }
  return rest;
}

// Runs `body` on `values`, starting from `init`, while any lane of `cond(values)` holds; returns
// the values after the last iteration. A lane the condition leaves must be kept by the body
// itself (select on its own mask, as JAX's loops do), since the others go on. The rest of the
// current block continues after the loop, as trig_reduce_large does with its slow path.
inline LoopValues while_any(Fp& f, const LoopValues& init,
                            llvm::function_ref<llvm::Value*(Fp&, const LoopValues&)> cond,
                            llvm::function_ref<LoopValues(Fp&, const LoopValues&)> body) {
  llvm::IRBuilderBase& b = f.b;
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::Function* fn = pre->getParent();
  llvm::BasicBlock* exit = split_after_insert_point(b, "loop.exit");
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, "loop.head", fn, exit);
  llvm::BasicBlock* loop = llvm::BasicBlock::Create(ctx, "loop.body", fn, exit);
  b.SetInsertPoint(pre);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  std::vector<llvm::PHINode*> phis;
  LoopValues now;
  for (llvm::Value* v : init) {
    llvm::PHINode* p = b.CreatePHI(v->getType(), 2);
    p->addIncoming(v, pre);
    phis.push_back(p);
    now.push_back(p);
  }
  llvm::Value* go = cond(f, now);
  if (go->getType()->isVectorTy()) go = b.CreateOrReduce(go);
  b.CreateCondBr(go, loop, exit);
  b.SetInsertPoint(loop);
  const LoopValues next = body(f, now);
  for (std::size_t i = 0; i < phis.size(); ++i) phis[i]->addIncoming(next[i], b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(exit, exit->begin());
  return now;
}

}  // namespace fj::backend::llvm_ir::detail
