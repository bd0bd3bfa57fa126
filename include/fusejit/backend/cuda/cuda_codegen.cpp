// Definitions of cuda_codegen.hpp: the shared passes, the planner and the CUDA source generator.
#include "fusejit/backend/cuda/cuda_codegen.hpp"
#include "fusejit/backend/cuda/kernel_source.hpp"
#include "fusejit/backend/cuda/nvrtc.hpp"
#include "fusejit/ir/passes/fuse.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/ir/passes/verify.hpp"

namespace fj::backend::cuda {

namespace detail {
inline void collect_kernels(const ir::Graph& fused, const std::string& prefix,
                            std::vector<GeneratedKernel>& out) {
  for (const ir::Eqn& e : fused.eqns) {
    if (e.prim == ir::Prim::fused) {
      const ir::Graph& sub = *e.params.get<ir::GraphPtr>("jaxpr");
      GeneratedKernel k;
      k.name = prefix + std::to_string(out.size());
      const Plan plan = kernel::Planner(sub).run();
      k.source = kernel_source(plan, k.name);
      k.reduction = plan.reduction;
      for (const ir::Eqn& s : sub.eqns) k.prims.push_back(s.prim);
      out.push_back(std::move(k));
    } else if (ir::is_lax_control(e.prim)) {
      // A control equation's sub-graphs are compiled with the outer graph, as on the CPU.
      ir::for_each_subgraph(e.params, [&](const ir::Graph& g) {
        collect_kernels(ir::fuse(ir::inline_jit(g)), prefix, out);
      });
    }
  }
}
}  // namespace detail

std::vector<GeneratedKernel> generate_kernels(const ir::Graph& graph, const std::string& prefix) {
  ir::verify(graph, "fj cuda backend");
  std::vector<GeneratedKernel> out;
  detail::collect_kernels(ir::fuse(ir::inline_jit(graph)), prefix, out);
  return out;
}

std::string module_text(const std::vector<GeneratedKernel>& kernels) {
  std::vector<std::string> sources;
  for (const GeneratedKernel& k : kernels) sources.push_back(k.source);
  return module_source(sources);
}

CompiledModule compile_module(const std::string& source, const std::string& arch,
                              const std::string& name) {
  NvrtcOutput o = nvrtc_compile(source, name, arch);
  return {std::move(o.ptx), std::move(o.cubin), std::move(o.log)};
}

std::string nvrtc_missing() { return nvrtc().missing; }

std::string nvrtc_version() {
  const Nvrtc& n = nvrtc();
  int major = 0, minor = 0;
  if (!n.missing.empty() || n.version(&major, &minor) != 0) return {};
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace fj::backend::cuda
