// The CUDA backend's parts that need no GPU (issue 7): device discovery without a GPU, and every
// fusable primitive's kernel generated as CUDA C++ and compiled by NVRTC for sm_90.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <fusejit/backend/cuda/cuda_codegen.hpp>
#include <fusejit/fusejit.hpp>
#include "fuzz/generator.hpp"

namespace cuda = fj::backend::cuda;

namespace {

// The architecture the tests compile for: Hopper, the GPUs of the project's device machines.
const char* const kArch = "sm_90";

bool has_nvrtc() {
  if (cuda::nvrtc_missing().empty()) return true;
  MESSAGE("skipped: NVRTC is not available (" << cuda::nvrtc_missing() << ")");
  return false;
}

// Whether primitive p can be computed inside a fused kernel (the rest run between kernels:
// library calls, callbacks and control flow; platform_index never reaches a kernel, inline_jit
// folds it to its default branch's index).
bool is_fusable(fj::ir::Prim p) {
  const auto kind = fj::ir::info(p).kind;
  return kind != fj::ir::PrimKind::library && kind != fj::ir::PrimKind::control &&
         kind != fj::ir::PrimKind::callback && p != fj::ir::Prim::platform_index;
}

}  // namespace

TEST_CASE("devices: the CPU devices first, without a GPU, fj::gpu says what is missing") {
  const std::vector<fj::Device> all = fj::devices();
  const int cpus = fj::local_device_count();
  REQUIRE(static_cast<int>(all.size()) >= cpus);
  CHECK(all.front() == fj::cpu());
  for (int i = 0; i < cpus; ++i) {
    CHECK(!all[static_cast<std::size_t>(i)].is_gpu());
    CHECK(all[static_cast<std::size_t>(i)].str() == "CpuDevice(id=" + std::to_string(i) + ")");
  }
  CHECK(fj::cpu().str() == "CpuDevice(id=0)");
  CHECK(fj::cpu().name() == "cpu");
  CHECK(fj::cpu().arch().empty());
  const int gpus = static_cast<int>(all.size()) - cpus;
  for (int i = 0; i < gpus; ++i) {
    CHECK(all[static_cast<std::size_t>(i + cpus)] == fj::gpu(i));
    CHECK(fj::gpu(i).str() == "CudaDevice(id=" + std::to_string(i) + ")");
    CHECK(fj::gpu(i).arch().rfind("sm_", 0) == 0);
  }
  if (gpus == 0) {
    MESSAGE("no GPU here: devices() lists only the CPU devices");
    // The message names the call and why there is no GPU (no driver, or none reported).
    CHECK_THROWS_WITH_AS(fj::gpu(0), doctest::Contains("fj::gpu(0): no CUDA GPU is available: "),
                         fj::DeviceError);
  }
  const std::string past = "fj::gpu(" + std::to_string(gpus + 3) + ")";
  CHECK_THROWS_WITH_AS(fj::gpu(gpus + 3), doctest::Contains(past.c_str()), fj::DeviceError);
}

TEST_CASE("cuda codegen: a fused elementwise chain is one grid-stride kernel") {
  auto f = [](fj::Tracer x, fj::Tracer y) { return fj::exp(x) * 2.0f + y.T(); };
  const auto jaxpr = fj::make_jaxpr(f)(fj::ones({3, 4}), fj::ones({4, 3}));
  const auto kernels = cuda::generate_kernels(jaxpr.graph());
  REQUIRE(kernels.size() == 1);
  const std::string& s = kernels[0].source;
  CHECK(s.find("extern \"C\" __global__") != std::string::npos);
  CHECK(s.find(" * stride) {") != std::string::npos);  // grid-stride loop, several points a trip
  CHECK(s.find("fj_exp(") != std::string::npos);
  // Extents, strides and the constant 2 are parameters, not baked in: other shapes and another
  // constant give the same source, so one compiled kernel serves them all.
  CHECK(s.find("P.s[0]") != std::string::npos);
  auto g = [](fj::Tracer x, fj::Tracer y) { return fj::exp(x) * 3.0f + y.T(); };
  CHECK(cuda::generate_kernels(fj::make_jaxpr(g)(fj::ones({50, 7}), fj::ones({7, 50})).graph())
            .at(0)
            .source == s);
  if (!has_nvrtc()) return;
  const cuda::CompiledModule m = cuda::compile_module(cuda::module_text(kernels), kArch);
  CHECK(m.ptx.find(".entry fj_cuda_k0") != std::string::npos);
  CHECK(!m.cubin.empty());
}

TEST_CASE("cuda codegen: a reduction is a block tree plus an in-order combine, no atomics") {
  auto f = [](fj::Tracer x) { return fj::sum(x * x + fj::sin(x), {1}); };
  const auto kernels = cuda::generate_kernels(fj::make_jaxpr(f)(fj::ones({8, 100000})).graph());
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].reduction);
  const std::string& s = kernels[0].source;
  CHECK(s.find("__syncthreads()") != std::string::npos);
  CHECK(s.find("fj_cuda_k0_combine") != std::string::npos);
  CHECK(s.find("atomic") == std::string::npos);
  if (!has_nvrtc()) return;
  const cuda::CompiledModule m = cuda::compile_module(cuda::module_text(kernels), kArch);
  CHECK(m.ptx.find(".entry fj_cuda_k0_combine") != std::string::npos);
  CHECK(m.ptx.find("atom.") == std::string::npos);
}

TEST_CASE("cuda codegen: NVRTC's errors are fj::CompileError with its log and the source") {
  if (!has_nvrtc()) return;
  const std::string bad = "extern \"C\" __global__ void k() { undeclared_thing = 1; }\n";
  try {
    (void)cuda::compile_module(bad, kArch, "broken");
    FAIL("no error");
  } catch (const fj::CompileError& e) {
    const std::string what = e.what();
    CHECK(what.find("NVRTC could not compile kernel broken for sm_90") != std::string::npos);
    CHECK(what.find("undeclared_thing") != std::string::npos);  // the log names it
    CHECK(what.find("--- source ---") != std::string::npos);
  }
}

namespace {

// The fuzzer's programs draw every primitive of the table at random dtypes, ranks 0-4, size-0
// and size-1 dims, broadcasts and index maps, and control flow whose bodies hold kernels too.
// The kernels of programs [first, end) are generated and compiled, 60 programs to an NVRTC
// module. A kernel whose code (its name aside) was compiled before is not compiled again: NVRTC's
// time goes per kernel (about 90 ms each on the 2-vCPU AMD EPYC, however they are grouped).
class NvrtcCoverage {
 public:
  void compile_programs(std::uint64_t first, std::uint64_t end) {
    for (std::uint64_t from = first; from < end; from += kPerModule) {
      std::vector<cuda::GeneratedKernel> module;
      for (std::uint64_t seed = from; seed < std::min(end, from + kPerModule); ++seed)
        add(fusejit_fuzz::generate(seed), "fj_s" + std::to_string(seed) + "_k", module);
      CAPTURE(from);
      compile(module);
    }
    MESSAGE(compiled_kernels_ << " kernels from programs " << first << "-" << end - 1
                              << " compiled (" << repeats_ << " repeated ones skipped)");
  }

  // For each fusable primitive no kernel has computed yet (the draws shift whenever the table
  // grows), programs drawn from that primitive alone, until one of their kernels computes it;
  // then every fusable primitive must have been compiled, so a new one needs a CUDA lowering.
  void compile_every_missing_primitive() {
    std::vector<cuda::GeneratedKernel> module;
    for (int i = 0; i < fj::ir::kNumPrims; ++i) {
      const auto p = static_cast<fj::ir::Prim>(i);
      if (!is_fusable(p) || computed_.count(p)) continue;
      fusejit_fuzz::GenConfig only_p;
      only_p.only = {p};
      for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const std::string prefix = "fj_" + std::string(fj::ir::name(p)) + std::to_string(seed);
        if (add(fusejit_fuzz::generate(seed, only_p), prefix + "_k", module, p)) break;
      }
      MESSAGE("drawn alone: ", fj::ir::name(p));
    }
    compile(module);
    for (int i = 0; i < fj::ir::kNumPrims; ++i) {
      const auto p = static_cast<fj::ir::Prim>(i);
      if (is_fusable(p))
        CHECK_MESSAGE(computed_.count(p), "no compiled kernel computed ", fj::ir::name(p));
    }
  }

 private:
  static constexpr std::uint64_t kPerModule = 60;

  // Adds the program's kernels whose code is new to the module; with `wanted`, only those that
  // compute it. Returns whether one computing `wanted` was added.
  bool add(const fusejit_fuzz::Program& program, const std::string& prefix,
           std::vector<cuda::GeneratedKernel>& module,
           std::optional<fj::ir::Prim> wanted = std::nullopt) {
    bool added_wanted = false;
    for (auto& k : cuda::generate_kernels(*program.graph, prefix)) {
      const bool computes_wanted =
          wanted && std::find(k.prims.begin(), k.prims.end(), *wanted) != k.prims.end();
      if (wanted && !computes_wanted) continue;
      std::string code = k.source;
      for (std::size_t at = code.find(k.name); at != std::string::npos;
           at = code.find(k.name, at + 1))
        code.replace(at, k.name.size(), "k");
      if (!seen_.insert(std::move(code)).second) {
        ++repeats_;
        continue;
      }
      added_wanted = added_wanted || computes_wanted;
      module.push_back(std::move(k));
    }
    return added_wanted;
  }

  void compile(std::vector<cuda::GeneratedKernel>& module) {
    if (module.empty()) return;
    const cuda::CompiledModule m = cuda::compile_module(cuda::module_text(module), kArch);
    for (const auto& k : module) {
      CHECK_MESSAGE(m.ptx.find(".entry " + k.name + "(") != std::string::npos, k.name);
      computed_.insert(k.prims.begin(), k.prims.end());
    }
    compiled_kernels_ += module.size();
    module.clear();
  }

  std::set<fj::ir::Prim> computed_;
  std::set<std::string> seen_;  // each compiled kernel's code, its name replaced
  std::size_t compiled_kernels_ = 0, repeats_ = 0;
};

}  // namespace

// The default tier compiles programs 0-239, then draws each fusable primitive they missed alone;
// the full tier (tests/ctest_properties.cmake) compiles programs 240-479 too.
TEST_CASE("cuda codegen: every fusable primitive of the table compiles with NVRTC for sm_90") {
  if (!has_nvrtc()) return;
  NvrtcCoverage coverage;
  coverage.compile_programs(0, 240);
  coverage.compile_every_missing_primitive();
}

TEST_CASE("cuda codegen: the kernels of fuzz programs 240-479 compile with NVRTC for sm_90") {
  if (!has_nvrtc()) return;
  NvrtcCoverage().compile_programs(240, 480);
}
