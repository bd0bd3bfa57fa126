// GPU benchmarks (issue 24): selu at 64M f32 against a device-to-device copy of the same bytes,
// sum(x**2 + sin x) at 64M, matmul 4096 against cuBLAS alone, a warm call's launch latency, and
// a first call's compile with and without the disk cache (each in a fresh process). Kernel times
// are CUDA events on the GPU's stream; rows skip with the reason where there is no GPU.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <fusejit/backend/cuda/cublas.hpp>
#include <fusejit/backend/cuda/gpu_runtime.hpp>
#include <fusejit/backend/cuda/kernel_cache.hpp>
#include <fusejit/fusejit.hpp>

namespace cuda = fj::backend::cuda;
using fj::Array;
using fj::Tracer;

namespace {

bool skip_without_gpu(benchmark::State& state) {
  if (fj::devices().size() > 1) return false;
  state.SkipWithError("no CUDA GPU");
  return true;
}

// Milliseconds of `work` on GPU 0's stream, between two events.
template <class Work>
double event_ms(Work&& work) {
  cuda::Gpu& gpu = cuda::gpu_runtime(0);
  const cuda::Driver& d = cuda::driver();
  static cuda::Driver::Handle start = nullptr, stop = nullptr;
  gpu.make_current();
  if (!start)
    d.event_create(&start, cuda::kEventDefault), d.event_create(&stop, cuda::kEventDefault);
  d.event_record(start, gpu.stream());
  work();
  d.event_record(stop, gpu.stream());
  d.event_synchronize(stop);
  float ms = 0;
  d.event_elapsed_time(&ms, start, stop);
  return ms;
}

constexpr std::int64_t k64M = std::int64_t{64} << 20;

Array gpu_iota(std::int64_t n) {
  return fj::device_put(fj::arange(n).astype(fj::f32) * (1.0f / static_cast<float>(n)) - 0.5f,
                        fj::gpu(0));
}

// Device-to-device copy of 64M floats: the bandwidth floor for a kernel that reads and writes
// as many bytes.
void copy_64m(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array x = gpu_iota(k64M);
  cuda::Gpu& gpu = cuda::gpu_runtime(0);
  const auto out = gpu.allocate(static_cast<std::size_t>(k64M) * 4);
  for (auto _ : state)
    state.SetIterationTime(event_ms([&] {
                             gpu.copy(reinterpret_cast<std::uintptr_t>(out->data),
                                      reinterpret_cast<std::uintptr_t>(x.buffer()->data),
                                      static_cast<std::size_t>(k64M) * 4);
                           }) /
                           1e3);
  state.SetBytesProcessed(state.iterations() * k64M * 8);
}

void selu_64m(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array x = gpu_iota(k64M);
  auto selu =
      fj::jit([](Tracer t) { return 1.05f * fj::where(t > 0, t, 1.67f * fj::exp(t) - 1.67f); });
  selu(x).block_until_ready();
  for (auto _ : state)
    state.SetIterationTime(event_ms([&] { benchmark::DoNotOptimize(selu(x)); }) / 1e3);
  state.SetBytesProcessed(state.iterations() * k64M * 8);
}

void sum_sq_sin_64m(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array x = gpu_iota(k64M);
  auto f = fj::jit([](Tracer t) { return fj::sum(t * t + fj::sin(t)); });
  f(x).block_until_ready();
  for (auto _ : state)
    state.SetIterationTime(event_ms([&] { benchmark::DoNotOptimize(f(x)); }) / 1e3);
  state.SetBytesProcessed(state.iterations() * k64M * 4);
}

constexpr std::int64_t kN = 4096;

void matmul_fusejit(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array a = gpu_iota(kN * kN).reshape({kN, kN}), b = gpu_iota(kN * kN).reshape({kN, kN});
  auto mm = fj::jit([](Tracer x, Tracer y) { return fj::matmul(x, y); });
  mm(a, b).block_until_ready();
  for (auto _ : state)
    state.SetIterationTime(event_ms([&] { benchmark::DoNotOptimize(mm(a, b)); }) / 1e3);
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * kN * kN * kN * static_cast<double>(state.iterations()) / 1e12,
                         benchmark::Counter::kIsRate);
}

void matmul_cublas(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array a = gpu_iota(kN * kN), b = gpu_iota(kN * kN);
  cuda::Gpu& gpu = cuda::gpu_runtime(0);
  const auto c = gpu.allocate(static_cast<std::size_t>(kN * kN) * 4);
  const cuda::Cublas& cb = cuda::cublas();
  cuda::Cublas::Handle h = nullptr;
  gpu.make_current();
  cb.create(&h);
  cb.set_stream(h, gpu.stream());
  const float one = 1, zero = 0;
  const int n = static_cast<int>(kN);
  auto run = [&] {
    cb.sgemm_strided_batched(h, 0, 0, n, n, n, &one, static_cast<const float*>(b.buffer()->data), n,
                             kN * kN, static_cast<const float*>(a.buffer()->data), n, kN * kN,
                             &zero, static_cast<float*>(c->data), n, kN * kN, 1);
  };
  event_ms(run);
  for (auto _ : state) state.SetIterationTime(event_ms(run) / 1e3);
  state.counters["TFLOP/s"] =
      benchmark::Counter(2.0 * kN * kN * kN * static_cast<double>(state.iterations()) / 1e12,
                         benchmark::Counter::kIsRate);
}

// Host time of a warm jitted call on 1024 floats: the dispatch, the allocator and the launch,
// without waiting for the kernel (the stream runs behind), then the round trip with the wait.
void warm_launch(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const Array x = gpu_iota(1024);
  auto f = fj::jit([](Tracer t) { return t * 2.0f + 1.0f; });
  f(x).block_until_ready();
  const bool wait = state.range(0) != 0;
  for (auto _ : state) {
    Array y = f(x);
    if (wait) y.block_until_ready();
  }
  cuda::gpu_runtime(0).synchronize();
}

// The child: the first call of a jitted function that no other benchmark compiles, timed from
// call to result (trace, fusion, CUDA source, NVRTC or the disk cache, module load, launch).
int cold_child() {
  const Array x = gpu_iota(1 << 20);
  x.block_until_ready();
  auto f = fj::jit([](Tracer t) { return fj::tanh(t * 3.0f) * fj::cos(t) + fj::sqrt(fj::abs(t)); });
  const auto t0 = std::chrono::steady_clock::now();
  f(x).block_until_ready();
  const auto t1 = std::chrono::steady_clock::now();
  const cuda::GpuKernelStats k = cuda::gpu_kernel_stats();
  std::printf("%.6f %.6f %.6f\n", std::chrono::duration<double>(t1 - t0).count(),
              static_cast<double>(k.disk_load_ns) * 1e-9,
              static_cast<double>(k.module_load_ns) * 1e-9);
  return 0;
}

std::string self_path;

// What the child measured: its first call, and in it the loads from the disk cache (reading,
// checking, cuModuleLoadData) and the module loads alone.
struct ChildTimes {
  double first_call = -1, disk_load = 0, module_load = 0;
};

// Runs the child with FUSEJIT_CACHE_DIR=dir.
ChildTimes run_child(const std::string& dir) {
  const std::string cmd = "FUSEJIT_CACHE_DIR='" + dir + "' '" + self_path + "' --cold-child";
  ChildTimes t;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return t;
  if (std::fscanf(p, "%lf %lf %lf", &t.first_call, &t.disk_load, &t.module_load) != 3)
    t.first_call = -1;
  ::pclose(p);
  return t;
}

void cold_compile(benchmark::State& state) {
  if (skip_without_gpu(state)) return;
  const bool disk = state.range(0) != 0;
  const std::string dir =
      (std::filesystem::temp_directory_path() / "fusejit_bench_gpu_cache").string();
  std::filesystem::remove_all(dir);
  if (disk) run_child(dir);  // fills the disk cache
  double disk_load = 0, module_load = 0;
  for (auto _ : state) {
    if (!disk) std::filesystem::remove_all(dir);
    const ChildTimes t = run_child(dir);
    if (t.first_call < 0) return state.SkipWithError("the child process failed");
    state.SetIterationTime(t.first_call);
    disk_load += t.disk_load;
    module_load += t.module_load;
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["disk_load_ms"] = 1e3 * disk_load / n;
  state.counters["module_load_ms"] = 1e3 * module_load / n;
  std::filesystem::remove_all(dir);
}

}  // namespace

BENCHMARK(copy_64m)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(selu_64m)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(sum_sq_sin_64m)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(matmul_fusejit)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(matmul_cublas)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(warm_launch)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(cold_compile)
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  self_path = std::filesystem::canonical("/proc/self/exe").string();
  if (argc > 1 && std::string(argv[1]) == "--cold-child") return cold_child();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
