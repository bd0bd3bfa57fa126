// pmap across processes: run under `mpiexec -n 2` with FUSEJIT_CPU_DEVICES=2 (ctest does), so
// the axis has 4 devices, 2 per process. Each rank checks its own devices' values against plain
// loops over the global axis; doctest's exit status fails mpiexec when any rank fails. With
// --fault, rank 1 raises before a collective and rank 0 must get fj::Error, not hang.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

using fj::Array;

namespace {

// The devices of the axis, and this process's first one.
int global_devices() { return fj::device_count(); }
int first_local() { return fj::process_index() * fj::local_device_count(); }

// Global device g's operand: values no reduction order rounds alike.
float operand(int g, int k) {
  return std::sin(static_cast<float>(1 + g * 7 + k)) * 1e3f + 0.1f * static_cast<float>(g);
}

Array local_operands(int per) {
  std::vector<float> v;
  for (int d = 0; d < fj::local_device_count(); ++d)
    for (int k = 0; k < per; ++k) v.push_back(operand(first_local() + d, k));
  return fj::array(v, fj::Shape{fj::local_device_count(), per});
}

}  // namespace

TEST_CASE("mpi pmap: a global psum, the same bits on every rank, in device order") {
  REQUIRE(fj::process_count() == 2);
  const int per = 5;
  const Array r = fj::pmap([](const Array& v) { return fj::lax::psum(v, "i"); },
                           fj::axis_name{"i"})(local_operands(per));
  const std::vector<float> got = r.to_vector<float>();
  for (int k = 0; k < per; ++k) {
    float want = operand(0, k);  // every device's operand, in global device order
    for (int g = 1; g < global_devices(); ++g) want += operand(g, k);
    for (int d = 0; d < fj::local_device_count(); ++d) {
      const float v = got[static_cast<std::size_t>(d * per + k)];
      CHECK(std::memcmp(&v, &want, sizeof v) == 0);
    }
  }
}

TEST_CASE("mpi pmap: axis_index is global, devices ordered process by process") {
  const Array idx = fj::pmap([](const Array&) { return fj::lax::axis_index("i"); },
                             fj::axis_name{"i"})(fj::zeros({fj::local_device_count()}));
  std::vector<std::int32_t> want;
  for (int d = 0; d < fj::local_device_count(); ++d) want.push_back(first_local() + d);
  CHECK(idx.to_vector<std::int32_t>() == want);
  CHECK(fj::local_devices()[0].str() == "CpuDevice(id=" + std::to_string(first_local()) + ")");
  CHECK(fj::devices().size() >= static_cast<std::size_t>(global_devices()));
}

TEST_CASE("mpi pmap: a ring ppermute and all_gather cross the process boundary") {
  const int n = global_devices();
  std::vector<std::pair<int, int>> ring;
  for (int g = 0; g < n; ++g) ring.emplace_back(g, (g + 1) % n);
  auto f = fj::pmap(
      [ring](const Array& v) {
        return std::make_tuple(fj::lax::ppermute(v, "i", ring), fj::lax::all_gather(v, "i"));
      },
      fj::axis_name{"i"});
  const auto [shifted, gathered] = f(local_operands(3));
  const std::vector<float> s = shifted.to_vector<float>(), a = gathered.to_vector<float>();
  for (int d = 0; d < fj::local_device_count(); ++d) {
    const int from = (first_local() + d + n - 1) % n;
    for (int k = 0; k < 3; ++k) {
      CHECK(s[static_cast<std::size_t>(d * 3 + k)] == operand(from, k));
      for (int g = 0; g < n; ++g)
        CHECK(a[static_cast<std::size_t>((d * n + g) * 3 + k)] == operand(g, k));
    }
  }
}

// Rank 1's device raises before the psum; rank 0 must see fj::Error naming itself and the
// collective within FUSEJIT_MPI_TIMEOUT, and print it for ctest's PASS_REGULAR_EXPRESSION.
int run_fault() {
  auto f = fj::pmap(
      [](const Array& v) {
        const Array w = fj::pure_callback(
            [](const Array& a) {
              if (fj::process_index() == 1) throw std::runtime_error("rank 1 gives up");
              return a;
            },
            fj::ShapeDtypeStruct{fj::Shape{}, fj::DType::f32}, v);
        return fj::lax::psum(w, "i");
      },
      fj::axis_name{"i"});
  try {
    f(fj::zeros({fj::local_device_count()}));
  } catch (const fj::Error& e) {
    std::printf("rank %d raised fj::Error: %s\n", fj::process_index(), e.what());
    std::fflush(stdout);
    // Rank 1 stays until rank 0 has timed out (mpiexec ends the job when a rank leaves without
    // MPI_Finalize); rank 0, mid-collective, leaves without it.
    if (fj::process_index() == 1) std::this_thread::sleep_for(std::chrono::seconds(60));
    std::_Exit(0);
  }
  std::printf("rank %d: no error\n", fj::process_index());
  return 1;
}

int main(int argc, char** argv) {
  try {
    fj::distributed::initialize();
    if (argc > 1 && std::strcmp(argv[1], "--fault") == 0) return run_fault();
    const int rc = doctest::Context(argc, argv).run();
    fj::distributed::shutdown();
    return rc;
  } catch (const fj::Error& e) {
    std::fprintf(stderr, "fusejit_mpi_tests: %s\n", e.what());
    return 1;
  }
}
