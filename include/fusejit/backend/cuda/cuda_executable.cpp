// Definitions of cuda_executable.hpp: launches with their parameters, cuBLAS GEMMs, control flow.
#include "fusejit/backend/cuda/cuda_executable.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

#include "fusejit/backend/control_flow.hpp"
#include "fusejit/backend/cuda/cublas.hpp"
#include "fusejit/backend/cuda/gemm_plan.hpp"
#include "fusejit/backend/cuda/gpu_runtime.hpp"
#include "fusejit/backend/cuda/kernel_cache.hpp"
#include "fusejit/backend/cuda/kernel_source.hpp"
#include "fusejit/backend/launch_params.hpp"
#include "fusejit/ir/passes/fuse.hpp"
#include "fusejit/ir/passes/inline_jit.hpp"
#include "fusejit/ir/passes/verify.hpp"
#include "fusejit/ir/printer.hpp"

namespace fj::backend::cuda {

namespace {

[[noreturn]] void not_on_gpu(ir::Prim p, const Gpu& g, const std::string& why = {}) {
  throw NotImplementedError(
      "fj cuda backend: " + std::string(ir::name(p)) + " has no GPU implementation yet" +
      (why.empty() ? "" : " (" + why + ")") + "; it was asked to run on " + g.where() +
      ". Run it on the CPU: fj::device_put(x, fj::cpu()) for its arguments");
}

// dot_general through cuBLAS (gemm_plan.hpp), on one handle per GPU bound to its stream.
struct CublasGemm {
  GemmPlan plan;

  void run(Gpu& gpu, const void* a, const void* b, void* c) const {
    const Cublas& cb = cublas();
    Cublas::Handle h = handle(gpu);
    const GemmCall g = plan.call();
    int rc = 0;
    if (plan.dtype == DType::f32) {
      const float one = 1, zero = 0;
      rc = cb.sgemm_strided_batched(h, g.op_first, g.op_second, g.m, g.n, g.k, &one,
                                    static_cast<const float*>(b), g.ld_first, g.stride_first,
                                    static_cast<const float*>(a), g.ld_second, g.stride_second,
                                    &zero, static_cast<float*>(c), g.ldc, g.stride_c, g.batch);
    } else {
      const double one = 1, zero = 0;
      rc = cb.dgemm_strided_batched(h, g.op_first, g.op_second, g.m, g.n, g.k, &one,
                                    static_cast<const double*>(b), g.ld_first, g.stride_first,
                                    static_cast<const double*>(a), g.ld_second, g.stride_second,
                                    &zero, static_cast<double*>(c), g.ldc, g.stride_c, g.batch);
    }
    if (rc != 0)
      throw DeviceError("fj cuda backend: cuBLAS GEMM failed on " + gpu.where() + ": " +
                        (cb.status_string ? cb.status_string(rc) : "") + " (" + std::to_string(rc) +
                        ")");
  }

  // One cuBLAS handle per GPU, bound to its stream.
  static Cublas::Handle handle(Gpu& gpu) {
    static std::mutex mu;
    static std::map<int, Cublas::Handle> handles;
    std::lock_guard lock(mu);
    Cublas::Handle& h = handles[gpu.ordinal()];
    if (!h) {
      const Cublas& cb = cublas();
      if (!cb.missing.empty()) throw DeviceError("fj cuda backend: " + cb.missing);
      gpu.make_current();
      if (cb.create(&h) != 0 || cb.set_stream(h, gpu.stream()) != 0)
        throw DeviceError("fj cuda backend: cublasCreate failed on " + gpu.where());
    }
    return h;
  }
};

// run_control's memory on a GPU: predicates and indices are copied to the host (the loop's
// decision is the host's), rows are views, stacked outputs are written by copies on the stream.
struct GpuMemory {
  Gpu& gpu;
  std::int64_t read_index(const Value& v) const {
    std::int32_t i = 0;
    gpu.download(*v.buf, &i, sizeof i);
    return i;
  }
  bool read_bool(const Value& v) const {
    unsigned char b = 0;
    gpu.download(*v.buf, &b, 1);
    return b != 0;
  }
  runtime::BufferPtr view(const Value& v, std::size_t offset, std::size_t bytes) const {
    auto b = runtime::wrap(static_cast<char*>(v.buf->data) + offset, bytes, v.buf);
    b->device = gpu.ordinal();
    return b;
  }
  runtime::BufferPtr allocate(std::size_t bytes) const { return gpu.allocate(bytes); }
  void copy(const runtime::Buffer& dst, std::size_t offset, const runtime::Buffer& src,
            std::size_t bytes) const {
    gpu.copy(reinterpret_cast<std::uintptr_t>(dst.data) + offset,
             reinterpret_cast<std::uintptr_t>(src.data), bytes);
  }
};

// One step of an executable: a kernel launch, a GEMM, or a control equation.
struct GpuStep : kernel::LaunchParams {
  std::shared_ptr<const LoadedKernel> kernel;
  // The kernel's parameter as kernel_source.hpp lays it out (buffers, iparams, scalars, the
  // work count), filled at compile time but for the buffer pointers, which each call writes.
  std::vector<std::int64_t> blob;
  unsigned grid = 1, combine_grid = 1;  // blocks of the kernel and of a reduction's combine
  std::vector<ir::VarId> inputs, outputs;
  const ir::Eqn* library = nullptr;
  std::optional<CublasGemm> gemm;
  std::vector<ir::Atom> atoms;
  std::vector<ir::Aval> in_avals;
  std::vector<Value> literals;  // per operand, a literal operand's value on the GPU
  std::vector<std::shared_ptr<const Executable>> control;
};

// A literal as a one-element buffer on `gpu`.
Value literal_on(Gpu& gpu, const ir::Literal& lit) {
  alignas(8) unsigned char bytes[8] = {};
  visit_dtype(lit.dtype, [&](auto x) {
    using T = decltype(x);
    const T v = is_float(lit.dtype) ? static_cast<T>(lit.f) : static_cast<T>(lit.i);
    std::memcpy(bytes, &v, sizeof v);
  });
  return {gpu.upload(bytes, size_of(lit.dtype)), ir::Aval{lit.dtype, Shape{}, lit.weak}};
}

class CudaExecutable final : public AppendingExecutable {
 public:
  CudaExecutable(const ir::GraphPtr& graph, int ordinal)
      : gpu_(gpu_runtime(ordinal)),
        fused_(std::make_shared<const ir::Graph>(ir::fuse(ir::inline_jit(*graph)))) {
    for (const ir::Eqn& e : fused_->eqns)
      steps_.push_back(e.prim == ir::Prim::fused ? kernel_step(e) : library_step(e));
    for (const ir::Atom& o : fused_->outvars)
      out_literals_.push_back(o.is_literal() ? literal_on(gpu_, o.lit) : Value{});
  }

  void run_into(std::span<const Value> inputs, ValueList& out) const override {
    const ir::Graph& g = *fused_;
    gpu_.make_current();
    SmallVector<runtime::BufferPtr, 16> env;
    env.resize(g.avals.size());
    std::size_t next = 0;
    auto bind_input = [&](ir::VarId v) {
      const Value& in = inputs[next++];
      env[static_cast<std::size_t>(v)] = on_gpu(in);
    };
    for (ir::VarId v : g.constvars) bind_input(v);
    for (ir::VarId v : g.invars) bind_input(v);
    for (const GpuStep& s : steps_) {
      if (s.library)
        run_library(s, env);
      else
        launch(s, env);
    }
    for (std::size_t k = 0; k < g.outvars.size(); ++k) {
      const ir::Atom& o = g.outvars[k];
      out.push_back(o.is_literal() ? out_literals_[k]
                                   : Value{env[static_cast<std::size_t>(o.var)], g.aval(o.var)});
    }
  }

  std::string describe() const override {
    std::string s = "# fused graph (" + gpu_.where() + ", " + gpu_.info().arch() + ")\n" +
                    ir::print_jaxpr(*fused_) + "\n";
    for (std::size_t k = 0; k < steps_.size(); ++k) {
      const GpuStep& st = steps_[k];
      if (st.library)
        s += "\n# call " + std::to_string(k) + ": " + std::string(ir::name(st.library->prim)) +
             (st.gemm ? " (cuBLAS GEMM)" : "") + "\n";
      else
        s += "\n# kernel " + std::to_string(k) + " (CUDA C++, NVRTC)\n" + st.kernel->source;
    }
    return s;
  }

 private:
  runtime::BufferPtr on_gpu(const Value& v) const {
    if (v.buf->device == gpu_.ordinal()) return v.buf;
    if (v.buf->device >= 0)
      throw DeviceError("fj cuda backend: an input of " + std::string(long_name(v.aval.dtype)) +
                        v.aval.shape.str() + " is on CudaDevice(id=" +
                        std::to_string(v.buf->device) + "), the computation on " + gpu_.where());
    const std::size_t bytes = static_cast<std::size_t>(v.aval.shape.size()) * size_of(v.aval.dtype);
    return gpu_.upload(v.buf->data, v.splat ? size_of(v.aval.dtype) : bytes);
  }

  GpuStep kernel_step(const ir::Eqn& e) {
    const ir::Graph& sub = *e.params.get<ir::GraphPtr>("jaxpr");
    const kernel::Plan plan = kernel::Planner(sub).run();
    GpuStep s;
    static_cast<kernel::LaunchParams&>(s) = kernel::launch_params(plan, sub);
    const ParamLayout layout = param_layout(plan);
    s.blob.assign(static_cast<std::size_t>(layout.buffers + std::max(layout.iparams, 1) +
                                           std::max(layout.scalars, 1) + 1),
                  0);
    auto at = s.blob.begin() + layout.buffers;
    std::copy(s.iparams.begin(), s.iparams.end(), at);
    at += std::max(layout.iparams, 1);
    std::copy(s.scalars.begin(), s.scalars.end(), at);
    s.blob.back() = s.size;
    // Enough blocks to fill every SM several times; the kernels stride over the rest.
    const long long full = 16LL * gpu_.info().multiprocessors;
    auto blocks = [&](long long items, long long per_block) {
      return static_cast<unsigned>(std::clamp((items + per_block - 1) / per_block, 1LL, full));
    };
    const bool reduction = s.reduce != ir::Prim::fused;
    s.grid = reduction ? blocks(s.size, 1) : blocks(s.size, kThreadsPerBlock * kPointsPerTrip);
    if (reduction && s.size > 0) s.combine_grid = blocks(s.size / s.nblocks, 1);
    s.kernel = load_kernel(module_source({kernel_source(plan, kKernelEntry)}), plan.reduction,
                           gpu_.ordinal());
    for (const ir::Atom& a : e.in) s.inputs.push_back(a.var);
    s.outputs = e.out;
    return s;
  }

  GpuStep library_step(const ir::Eqn& e) {
    GpuStep s;
    s.library = &e;
    s.atoms = e.in;
    s.outputs = e.out;
    for (ir::VarId v : e.out) s.out_avals.push_back(fused_->aval(v));
    for (const ir::Atom& a : e.in) {
      s.literals.push_back(a.is_literal() ? literal_on(gpu_, a.lit) : Value{});
      s.in_avals.push_back(a.is_literal() ? s.literals.back().aval : fused_->aval(a.var));
    }
    if (ir::is_lax_control(e.prim)) {
      for (const ir::GraphPtr& sub : control_subgraphs(e)) {
        if (!sub || !sub->constvars.empty())
          throw ValueError(std::string(ir::name(e.prim)) +
                           ": sub-graphs must be non-null and closed (no constvars)");
        s.control.push_back(compile_for_gpu(sub, gpu_.ordinal()));
      }
    } else if (e.prim == ir::Prim::dot_general) {
      std::string why;
      const auto plan = GemmPlan::from(e, s.in_avals[0], s.in_avals[1], s.out_avals[0], why);
      if (!plan) not_on_gpu(e.prim, gpu_, why);
      s.gemm = CublasGemm{*plan};
      if (!cublas().missing.empty()) throw DeviceError("fj cuda backend: " + cublas().missing);
    } else {
      not_on_gpu(e.prim, gpu_);
    }
    return s;
  }

  // Parameters as kernel_source.hpp lays them out: buffers, iparams, scalars, the work count.
  void launch(const GpuStep& s, SmallVector<runtime::BufferPtr, 16>& env) const {
    if (s.size == 0) {  // nothing to compute; outputs still need (empty) buffers
      for (std::size_t o = 0; o < s.outputs.size(); ++o)
        env[static_cast<std::size_t>(s.outputs[o])] = gpu_.allocate(0);
      return;
    }
    SmallVector<std::int64_t, 64> blob;
    blob.append(s.blob.begin(), s.blob.end());
    std::size_t at = 0;
    auto ptr = [](const runtime::BufferPtr& b) {
      return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(b->data));
    };
    for (ir::VarId v : s.inputs) blob[at++] = ptr(env[static_cast<std::size_t>(v)]);
    const bool reduction = s.reduce != ir::Prim::fused;
    for (std::size_t o = 0; o < s.outputs.size(); ++o) {
      const ir::Aval& av = s.out_avals[o];
      auto buf = gpu_.allocate(static_cast<std::size_t>(av.shape.size()) * size_of(av.dtype));
      blob[at++] = ptr(buf);
      env[static_cast<std::size_t>(s.outputs[o])] = std::move(buf);
    }
    runtime::BufferPtr partials;
    if (reduction) {
      partials = gpu_.allocate(static_cast<std::size_t>(s.size) * size_of(s.out_avals[0].dtype));
      blob[at++] = ptr(partials);
    }
    void* args[] = {blob.data()};
    gpu_.check(driver().launch_kernel(s.kernel->main, s.grid, 1, 1, kThreadsPerBlock, 1, 1, 0,
                                      gpu_.stream(), args, nullptr),
               "cuLaunchKernel");
    if (reduction)
      gpu_.check(driver().launch_kernel(s.kernel->combine, s.combine_grid, 1, 1, kThreadsPerBlock,
                                        1, 1, 0, gpu_.stream(), args, nullptr),
                 "cuLaunchKernel (combine)");
    // `partials` goes back to the allocator here; the next user is queued after the combine.
  }

  void run_library(const GpuStep& s, SmallVector<runtime::BufferPtr, 16>& env) const {
    std::vector<Value> in;
    for (std::size_t i = 0; i < s.atoms.size(); ++i)
      in.push_back(s.atoms[i].is_literal()
                       ? s.literals[i]
                       : Value{env[static_cast<std::size_t>(s.atoms[i].var)], s.in_avals[i]});
    if (!s.control.empty()) {
      std::vector<Value> out = run_control(
          *s.library, in, s.out_avals,
          [&](std::size_t k, std::span<const Value> args) { return s.control[k]->run(args); },
          GpuMemory{gpu_});
      for (std::size_t o = 0; o < s.outputs.size(); ++o)
        env[static_cast<std::size_t>(s.outputs[o])] = std::move(out[o].buf);
      return;
    }
    const ir::Aval& av = s.out_avals[0];
    auto c = gpu_.allocate(static_cast<std::size_t>(av.shape.size()) * size_of(av.dtype));
    if (av.shape.size() > 0) s.gemm->run(gpu_, in[0].buf->data, in[1].buf->data, c->data);
    env[static_cast<std::size_t>(s.outputs[0])] = std::move(c);
  }

  Gpu& gpu_;
  ir::GraphPtr fused_;
  std::vector<GpuStep> steps_;
  std::vector<Value> out_literals_;  // per outvar, a literal one's value, uploaded once
};

}  // namespace

std::shared_ptr<const Executable> compile_for_gpu(const ir::GraphPtr& graph, int ordinal) {
  ir::verify(*graph, "fj cuda backend");
  return std::make_shared<const CudaExecutable>(graph, ordinal);
}

}  // namespace fj::backend::cuda
