// Issue 19's other rows: a scatter-add histogram, an einsum attention block and cholesky + solve
// under fj::jit, with Eigen's own LLT beside the last (bench/index_linalg_jax.py times JAX jit on
// the same inputs; bench/README.md puts them side by side as ratios).
//
// Rows (ms per call):
//   index_linalg/scatter_add_1M_64k/fusejit_jit  zeros(65536).at(idx).add(1) for 1M i32 indices
//   index_linalg/einsum_attention/fusejit_jit    softmax(einsum(bqd,bkd->bqk) / 8) then
//                                                einsum(bqk,bkd->bqd); q, k, v f32[8,512,64]
//   index_linalg/cholesky_solve_512/fusejit_jit  cho_solve(cho_factor(a), b), a SPD f64[512,512],
//                                                b f64[512]
//   index_linalg/cholesky_solve_512/eigen_llt    Eigen::LLT<MatrixXd>(a).solve(b), built
//   -march=native
//                                                (bench/index_linalg_eigen.cpp)
//   index_linalg/solve_shared_a_512/fusejit_jit  jnp.linalg.solve(a, b) with the same a and a
//                                                batch of right-hand sides b f64[16,512,4]: a
//                                                is factored once (as JAX's jnp.vectorize)
// FUSEJIT_BENCH_IL_SCALE divides the sizes, for the smoke test. Before timing, the histogram is
// checked against a plain loop and the solve's residual |a x - b| against b.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <vector>

#include "bench_common.hpp"

namespace {

std::int64_t scale() {
  const char* v = std::getenv("FUSEJIT_BENCH_IL_SCALE");
  return v && *v ? std::max<std::int64_t>(1, std::atoll(v)) : 1;
}
std::int64_t n_indices() { return (std::int64_t{1} << 20) / scale(); }
std::int64_t n_bins() { return 65536 / scale(); }
std::int64_t seq() { return 512 / scale(); }
std::int64_t mat() { return 512 / scale(); }

// The LCG of bench/sort_scan.cpp (and of the Python side): x_{k+1} = a x_k + c mod 2^64.
std::vector<std::uint64_t> lcg(std::int64_t n, std::uint64_t seed) {
  std::vector<std::uint64_t> v(static_cast<std::size_t>(n));
  std::uint64_t s = seed;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = s;
  }
  return v;
}

fj::Array indices() {
  std::vector<std::int32_t> v;
  for (auto x : lcg(n_indices(), 7)) v.push_back(static_cast<std::int32_t>((x >> 33) % n_bins()));
  return fj::array(v, fj::Shape{n_indices()});
}

// Floats in [-1, 1) from the top 24 bits.
fj::Array uniform(fj::Shape s, std::uint64_t seed) {
  std::vector<float> v;
  for (auto x : lcg(s.size(), seed)) v.push_back(static_cast<float>(x >> 40) * 0x1p-23f - 1.0f);
  return fj::array(v, s);
}

// a = m m^T / n + I (symmetric positive definite, well conditioned), b = the first column of m.
Eigen::MatrixXd spd(Eigen::VectorXd& b) {
  const std::int64_t n = mat();
  const auto r = lcg(n * n, 11);
  Eigen::MatrixXd m(n, n);
  for (std::int64_t i = 0; i < n * n; ++i)
    m(i / n, i % n) = static_cast<double>(r[static_cast<std::size_t>(i)] >> 11) * 0x1p-53 - 0.5;
  b = m.col(0);
  return m * m.transpose() / static_cast<double>(n) + Eigen::MatrixXd::Identity(n, n);
}
fj::Array as_array(const Eigen::MatrixXd& a) {
  std::vector<double> v(static_cast<std::size_t>(a.size()));
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      v[static_cast<std::size_t>(i * a.cols() + j)] = a(i, j);
  return fj::array(v, fj::Shape{a.rows(), a.cols()});
}

auto histogram = [](fj::Tracer zeros, fj::Tracer idx) { return zeros.at(idx).add(1.0f); };
auto attention = [](fj::Tracer q, fj::Tracer k, fj::Tracer v) {
  const fj::Array s = fj::einsum("bqd,bkd->bqk", q, k) / 8.0f;
  const fj::Array e = fj::exp(s - fj::max(s, {2}, true));
  return fj::Array(fj::einsum("bqk,bkd->bqd", e / fj::sum(e, {2}, true), v));
};
auto solve = [](fj::Tracer a, fj::Tracer b) { return fj::linalg::solve(a, b); };
auto cholesky_solve = [](fj::Tracer a, fj::Tracer b) {
  return fj::Array(fj::scipy::linalg::cho_solve(fj::scipy::linalg::cho_factor(a), b));
};

template <class F, class... A>
void BM_jit(benchmark::State& state, F fn, A... args) {
  auto f = fj::jit(fn);
  if (!fusejit_bench::warm_up(state, [&] { f(args...); })) return;
  for (auto _ : state) {
    fj::Array r = f(args...);
    benchmark::DoNotOptimize(r);
  }
}

}  // namespace
// bench/index_linalg_eigen.cpp, compiled for this CPU.
void BM_eigen_llt_native(benchmark::State& state, const double* a, const double* b, std::int64_t n);
namespace {

bool self_check() {
  const fj::Array idx = indices();
  const auto got = fj::jit(histogram)(fj::zeros({n_bins()}), idx).to_vector<float>();
  std::vector<float> want(static_cast<std::size_t>(n_bins()), 0.0f);
  for (auto i : idx.to_vector<std::int32_t>()) want[static_cast<std::size_t>(i)] += 1.0f;
  if (got != want) {
    std::fprintf(stderr, "index_linalg: the scatter-add histogram differs from a plain loop\n");
    return false;
  }
  Eigen::VectorXd b;
  const Eigen::MatrixXd a = spd(b);
  const auto xv = fj::jit(cholesky_solve)(
                      as_array(a), fj::array(std::vector<double>(b.data(), b.data() + b.size()),
                                             fj::Shape{b.size()}))
                      .to_vector<double>();
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(xv.data(), b.size());
  if ((a * x - b).norm() > 1e-10 * b.norm()) {
    std::fprintf(stderr, "index_linalg: cho_solve's residual is %g\n", (a * x - b).norm());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using fusejit_bench::row;
  const fj::Array idx = indices();
  const fj::Array zeros = fj::zeros({n_bins()});
  row("index_linalg/scatter_add_1M_64k/fusejit_jit", 0.5,
      BM_jit<decltype(histogram), fj::Array, fj::Array>, histogram, zeros, idx);
  const fj::Shape s{8, seq(), 64};
  row("index_linalg/einsum_attention/fusejit_jit", 0.5,
      BM_jit<decltype(attention), fj::Array, fj::Array, fj::Array>, attention, uniform(s, 1),
      uniform(s, 2), uniform(s, 3));
  Eigen::VectorXd b;
  const Eigen::MatrixXd a = spd(b);
  row("index_linalg/cholesky_solve_512/fusejit_jit", 0.5,
      BM_jit<decltype(cholesky_solve), fj::Array, fj::Array>, cholesky_solve, as_array(a),
      fj::array(std::vector<double>(b.data(), b.data() + b.size()), fj::Shape{b.size()}));
  row("index_linalg/cholesky_solve_512/eigen_llt", 0.5, BM_eigen_llt_native,
      static_cast<const double*>(a.data()), static_cast<const double*>(b.data()), a.rows());
  row("index_linalg/solve_shared_a_512/fusejit_jit", 0.5,
      BM_jit<decltype(solve), fj::Array, fj::Array>, solve, as_array(a),
      uniform(fj::Shape{16, mat(), 4}, 5).astype(fj::DType::f64));
  return fusejit_bench::checked_main(argc, argv, self_check);
}
