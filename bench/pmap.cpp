// fj::pmap's cost: the data-parallel training step of examples/data_parallel.cpp at 1, 2 and 4
// devices of one process (and at 2 processes under mpiexec), and psum's bandwidth against
// MPI_Allreduce alone on the same bytes.
//
// Rows:
//   pmap/step/devices:D      one SGD step of linear regression over 2^20 samples split over D
//                            devices (value_and_grad, pmean of the gradients, the update)
//   jit/step_full_batch      the same step on one device, jitted (the baseline)
//   pmap/psum/devices:D      psum of an f32[2^20] per device (B/s: bytes of one device's operand)
//   mpi/step                 under mpiexec only: the step over every process's devices
//   mpi/psum, mpi/allreduce  under mpiexec only: psum across the processes' devices, and
//                            MPI_Allreduce(MPI_SUM) of each process's f32[2^20] (fixed iteration
//                            counts, so every rank runs the same collectives)
// Run alone: FUSEJIT_CPU_DEVICES=4 (the default here). Across processes:
//   FUSEJIT_CPU_DEVICES=2 mpiexec -n 2 build/bench/bench_pmap
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <tuple>
#include <vector>

#ifdef FUSEJIT_BENCH_MPI
#include <mpi.h>
#endif

namespace {

using Params = std::tuple<fj::Array, fj::Array>;
constexpr std::int64_t kSamples = 1 << 20;
constexpr std::int64_t kPsumLength = 1 << 20;

fj::Array loss_fn(const Params& p, const fj::Array& x, const fj::Array& y) {
  const fj::Array d = std::get<0>(p) * x + std::get<1>(p) - y;
  return fj::mean(d * d);
}

Params sgd(const Params& p, const Params& g) {
  return fj::tree_map([](const fj::Array& w, const fj::Array& dw) { return w - 0.005f * dw; }, p,
                      g);
}

auto make_step(std::int64_t devices) {
  return fj::pmap(
      [](const Params& p, const fj::Array& x, const fj::Array& y) {
        const Params g = fj::grad(loss_fn)(p, x, y);
        return sgd(p, fj::tree_map([](const fj::Array& v) { return fj::lax::pmean(v, "b"); }, g));
      },
      fj::axis_name{"b"}, fj::in_axes{fj::none, 0, 0}, fj::out_axes{fj::none},
      fj::axis_size{devices});
}

void BM_pmap_step(benchmark::State& state) {
  const std::int64_t d = state.range(0);
  const fj::Array x =
      fj::Array(fj::random::normal(fj::random::key(0), {kSamples}).reshape({d, kSamples / d}));
  const fj::Array y = fj::Array(2.0f * x - 1.0f);
  auto step = make_step(d);
  Params p{fj::array(0.0f), fj::array(0.0f)};
  p = step(p, x, y);  // compile
  for (auto _ : state) benchmark::DoNotOptimize(p = step(p, x, y));
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_jit_step(benchmark::State& state) {
  const fj::Array x = fj::random::normal(fj::random::key(0), {kSamples});
  const fj::Array y = fj::Array(2.0f * x - 1.0f);
  auto step = fj::jit([](const Params& p, const fj::Array& a, const fj::Array& b) {
    return sgd(p, fj::grad(loss_fn)(p, a, b));
  });
  Params p{fj::array(0.0f), fj::array(0.0f)};
  p = step(p, x, y);
  for (auto _ : state) benchmark::DoNotOptimize(p = step(p, x, y));
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_pmap_psum(benchmark::State& state) {
  const std::int64_t d = state.range(0);
  const fj::Array x = fj::ones({d, kPsumLength});
  auto f = fj::pmap([](const fj::Array& v) { return fj::lax::psum(v, "i"); }, fj::axis_name{"i"},
                    fj::axis_size{d});
  (void)f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  state.SetBytesProcessed(state.iterations() * kPsumLength * 4);
}

#ifdef FUSEJIT_BENCH_MPI
// The step across every process's devices: each process holds its share of the samples.
void BM_mpi_step(benchmark::State& state) {
  const std::int64_t d = fj::local_device_count(), g = fj::device_count();
  const fj::Array x = fj::Array(
      fj::random::normal(fj::random::key(fj::process_index()), {kSamples / fj::process_count()})
          .reshape({d, kSamples / g}));
  const fj::Array y = fj::Array(2.0f * x - 1.0f);
  auto step = make_step(d);
  Params p{fj::array(0.0f), fj::array(0.0f)};
  p = step(p, x, y);
  for (auto _ : state) benchmark::DoNotOptimize(p = step(p, x, y));
  state.SetItemsProcessed(state.iterations() * kSamples);
}

void BM_mpi_psum(benchmark::State& state) {
  const int d = fj::local_device_count();
  const fj::Array x = fj::ones({d, kPsumLength});
  auto f = fj::pmap([](const fj::Array& v) { return fj::lax::psum(v, "i"); }, fj::axis_name{"i"});
  (void)f(x);
  for (auto _ : state) benchmark::DoNotOptimize(f(x));
  state.SetBytesProcessed(state.iterations() * kPsumLength * 4);
}

void BM_mpi_allreduce(benchmark::State& state) {
  std::vector<float> in(kPsumLength, 1.0f), out(kPsumLength);
  for (auto _ : state)
    MPI_Allreduce(in.data(), out.data(), static_cast<int>(kPsumLength), MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  state.SetBytesProcessed(state.iterations() * kPsumLength * 4);
}
#endif

// Ranks other than 0 run the same benchmarks (the collectives need them) and report nothing.
class Quiet : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  if (!std::getenv("FUSEJIT_CPU_DEVICES")) fj::set_cpu_device_count(4);
  fj::distributed::initialize();
  const bool several = fj::process_count() > 1;
  if (!several) {
    for (int d : {1, 2, 4}) {
      if (d > fj::local_device_count()) break;
      benchmark::RegisterBenchmark("pmap/step", BM_pmap_step)
          ->Arg(d)
          ->ArgName("devices")
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark("pmap/psum", BM_pmap_psum)
          ->Arg(d)
          ->ArgName("devices")
          ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark("jit/step_full_batch", BM_jit_step)->Unit(benchmark::kMicrosecond);
  }
#ifdef FUSEJIT_BENCH_MPI
  if (several) {
    // Fixed iteration counts: every rank must run the same collectives.
    benchmark::RegisterBenchmark("mpi/step", BM_mpi_step)
        ->Iterations(200)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("mpi/psum", BM_mpi_psum)
        ->Iterations(200)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("mpi/allreduce", BM_mpi_allreduce)
        ->Iterations(200)
        ->Unit(benchmark::kMicrosecond);
  }
#endif
  benchmark::Initialize(&argc, argv);
  if (fj::process_index() == 0)
    benchmark::RunSpecifiedBenchmarks();
  else {
    Quiet quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  fj::distributed::shutdown();
  return 0;
}
