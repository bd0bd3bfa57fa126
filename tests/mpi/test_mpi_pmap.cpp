// pmap across processes: run under `mpiexec -n 2` with FUSEJIT_CPU_DEVICES=2 (ctest does), so
// the axis has 4 devices, 2 per process. Each rank checks its own devices' values, bit for bit,
// against plain loops over the global axis (so every rank holds the same bits); doctest's exit
// status fails mpiexec when any rank fails. With --fault, rank 1 raises before a collective and
// rank 0 must get fj::Error, not hang.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
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

// This process's devices' operands, [local device][k] = value(global device, k).
template <class T>
Array local_values(int per, const std::function<T(int, int)>& value) {
  std::vector<T> v;
  for (int d = 0; d < fj::local_device_count(); ++d)
    for (int k = 0; k < per; ++k) v.push_back(value(first_local() + d, k));
  return fj::array(v, fj::Shape{fj::local_device_count(), per});
}

Array local_operands(int per) { return local_values<float>(per, operand); }

// Whether a and b have the same bits (NaN included).
template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Checks each local device's row of r (per elements) against want(k), bit for bit.
template <class T>
void check_rows(const Array& r, int per, const std::function<T(int)>& want) {
  const std::vector<T> got = r.to_vector<T>();
  for (int d = 0; d < fj::local_device_count(); ++d)
    for (int k = 0; k < per; ++k) {
      INFO("device ", first_local() + d, ", element ", k);
      CHECK(same_bits(got[static_cast<std::size_t>(d * per + k)], want(k)));
    }
}

}  // namespace

TEST_CASE("mpi pmap: a global psum, the same bits on every rank, process by process") {
  REQUIRE(fj::process_count() == 2);
  const int per = 5;
  const Array r = fj::pmap([](const Array& v) { return fj::lax::psum(v, "i"); },
                           fj::axis_name{"i"})(local_operands(per));
  // Each process sums its devices' operands in device order, then the processes' sums are
  // added in process order: the grouping that MPI's allreduce of two processes gives.
  const int n = fj::local_device_count();
  check_rows<float>(r, per, [&](int k) {
    float want = 0;
    for (int p = 0; p < fj::process_count(); ++p) {
      float local = operand(p * n, k);
      for (int d = 1; d < n; ++d) local += operand(p * n + d, k);
      want = p == 0 ? local : want + local;
    }
    return want;
  });
}

TEST_CASE("mpi pmap: pmax and pmin across ranks, where a NaN on any device wins") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Element 1 is NaN on the last device (rank 1), element 2 on the first (rank 0).
  const auto value = [&](int g, int k) {
    if ((k == 1 && g == global_devices() - 1) || (k == 2 && g == 0)) return nan;
    return operand(g, k);
  };
  auto f = fj::pmap(
      [](const Array& v) { return std::make_tuple(fj::lax::pmax(v, "i"), fj::lax::pmin(v, "i")); },
      fj::axis_name{"i"});
  const auto [hi, lo] = f(local_values<float>(4, value));
  const auto fold = [&](int k, bool max) {
    float want = value(0, k);
    for (int g = 1; g < global_devices(); ++g) {
      const float x = value(g, k);
      want = std::isnan(want) || std::isnan(x) ? nan : max ? std::max(want, x) : std::min(want, x);
    }
    return want;
  };
  check_rows<float>(hi, 4, [&](int k) { return fold(k, true); });
  check_rows<float>(lo, 4, [&](int k) { return fold(k, false); });
}

TEST_CASE("mpi pmap: integer psum wraps, u32 pmin is unsigned, psum_scatter takes its part") {
  const int n = global_devices();
  const auto big = [](int g, int k) { return std::numeric_limits<std::int32_t>::max() - g - k; };
  // Above 2^31 on the devices of rank 1 only: a signed comparison would pick those.
  const auto high = [](int g, int k) { return static_cast<std::uint32_t>((g * 0x30000000u) + k); };
  auto f = fj::pmap(
      [](const Array& i, const Array& u) {
        return std::make_tuple(fj::lax::psum(i, "i"), fj::lax::pmin(u, "i"),
                               fj::lax::psum_scatter(i, "i", 0, true));
      },
      fj::axis_name{"i"});
  const auto [sum, least, scattered] =
      f(local_values<std::int32_t>(n, big), local_values<std::uint32_t>(3, high));
  const auto wrapped = [&](int k) {
    std::uint32_t want = 0;
    for (int g = 0; g < n; ++g) want += static_cast<std::uint32_t>(big(g, k));
    return static_cast<std::int32_t>(want);
  };
  check_rows<std::int32_t>(sum, n, wrapped);
  check_rows<std::uint32_t>(least, 3, [&](int k) { return high(0, k); });
  const std::vector<std::int32_t> part = scattered.to_vector<std::int32_t>();
  for (int d = 0; d < fj::local_device_count(); ++d)
    CHECK(part[static_cast<std::size_t>(d)] == wrapped(first_local() + d));
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

TEST_CASE("mpi pmap: a ppermute with local, crossing and missing pairs") {
  REQUIRE(global_devices() == 4);
  // 0 -> 3 and 2 -> 1 cross processes, 1 -> 0 stays in one; device 2 gets zeros.
  const std::vector<std::pair<int, int>> perm = {{0, 3}, {2, 1}, {1, 0}};
  const Array r = fj::pmap([perm](const Array& v) { return fj::lax::ppermute(v, "i", perm); },
                           fj::axis_name{"i"})(local_operands(3));
  const std::vector<float> got = r.to_vector<float>();
  const int from[] = {1, 2, -1, 0};  // each device's source
  for (int d = 0; d < fj::local_device_count(); ++d) {
    const int src = from[first_local() + d];
    for (int k = 0; k < 3; ++k)
      CHECK(got[static_cast<std::size_t>(d * 3 + k)] == (src < 0 ? 0.0f : operand(src, k)));
  }
}

TEST_CASE("mpi pmap: all_to_all across ranks, split along either axis") {
  const int n = global_devices(), rows = 3, cols = 2 * n;
  // Device g's operand is [rows, cols] with element (i, j) = operand(g, i * cols + j).
  auto f = fj::pmap(
      [](const Array& v) {
        return std::make_tuple(
            fj::lax::all_to_all(v, "i", 1, 0, true),
            fj::lax::all_to_all(Array(fj::transpose(v, {1, 0})), "i", 0, 1, true));
      },
      fj::axis_name{"i"});
  const auto [by_cols, by_rows] =
      f(Array(local_operands(rows * cols).reshape({fj::local_device_count(), rows, cols})));
  // Split 1, concat 0: device g's [n * rows, 2] holds (s * rows + i, j) = operand s's (i, 2g + j).
  // Split 0, concat 1 of the transpose: [2, n * rows] holds (j, s * rows + i), the same value.
  const std::vector<float> a = by_cols.to_vector<float>(), b = by_rows.to_vector<float>();
  const std::size_t size = static_cast<std::size_t>(n * rows * 2);
  for (int d = 0; d < fj::local_device_count(); ++d) {
    const int g = first_local() + d;
    const std::size_t at = static_cast<std::size_t>(d) * size;
    for (int s = 0; s < n; ++s)
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < 2; ++j) {
          const float want = operand(s, i * cols + 2 * g + j);
          CHECK(a[at + static_cast<std::size_t>((s * rows + i) * 2 + j)] == want);
          CHECK(b[at + static_cast<std::size_t>(j * n * rows + s * rows + i)] == want);
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
