// The LLVM backend: fuses a graph, compiles each kernel once per structure (global kernel cache
// keyed by an xxHash of its signature and the target; compiles go through OrcSession, and so
// through the on-disk cache), and launches kernels on the thread pool.
#include "fusejit/backend/llvm/executable.hpp"
#include "fusejit/backend/llvm/llvm_backend.hpp"
#include "fusejit/backend/llvm/native_loop.hpp"
#include "fusejit/ir/passes/fold_cholesky_result_transpose.hpp"
#include "fusejit/ir/passes/fold_cholesky_tril.hpp"
#include "fusejit/ir/passes/fold_linalg_transpose.hpp"
#include "fusejit/ir/passes/verify.hpp"

namespace fj::backend {

class LlvmBackend final : public Backend {
 public:
  std::string_view name() const override { return "llvm"; }
  bool supports(ir::Prim p) const override {
    return p != ir::Prim::jit && p != ir::Prim::custom_jvp_call && p != ir::Prim::custom_vjp_call &&
           p != ir::Prim::remat2 && p != ir::Prim::shard_map &&
           p != ir::Prim::custom_linear_solve && p != ir::Prim::fused;
  }
  std::shared_ptr<const Executable> compile(const ir::GraphPtr& graph) override {
    ir::verify(*graph, "llvm backend");
    return llvm_kernel::compile_graph(graph);
  }
};

namespace llvm_kernel {
std::shared_ptr<const Executable> compile_graph(const ir::GraphPtr& graph, bool kernels) {
  const ir::FuseOptions options{.row_groups = ir::row_fusion_enabled().load(),
                                .max_kernel_weight = ir::kernel_weight_limit().load()};
  auto fused = std::make_shared<const ir::Graph>(
      ir::fuse(ir::fold_cholesky_result_transpose(ir::fold_linalg_transpose(
                   ir::fold_cholesky_tril(ir::fold_dot_transpose(ir::inline_jit(*graph))))),
               options));
  return std::make_shared<LlvmExecutable>(std::move(fused), kernels);
}
}  // namespace llvm_kernel

std::unique_ptr<Backend> make_llvm_backend() { return std::make_unique<LlvmBackend>(); }

}  // namespace fj::backend
