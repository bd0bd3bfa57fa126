// The LLVM backend folds a transpose of a matrix's last two axes into triangular_solve's flags
// and into cholesky's hidden operand_transposed (ir/passes/fold_linalg_transpose.hpp): the
// results must equal the reference backend's, which runs the transposes as traced.
#include <doctest/doctest.h>

#include <string>
#include <vector>
#include <fusejit/fusejit.hpp>
#include "backend_compare.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

// A batch of symmetric positive definite matrices, (2, n, n) f64, not symmetric in storage:
// the upper triangle holds other values, so reading the wrong triangle shows.
Array spd_batch(std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(2 * n * n));
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        v[static_cast<std::size_t>((b * n + i) * n + j)] =
            i == j ? static_cast<double>(n + b)
                   : (i > j ? 0.5 : -0.25) / static_cast<double>(1 + i + j);
  return fj::array(v, fj::Shape{2, n, n});
}

// Within `ulps` of the reference backend, which runs the transposes as traced.
template <class F, class... A>
void check_llvm_against_reference(F f, const std::string& what, std::uint64_t ulps,
                                  const A&... args) {
  auto [got, want] = fusejit_test::run_both("llvm", f, args...);
  fusejit_test::check_close(got, want, ulps, what);
}

// The Cholesky routine factors the same column-major matrix either way, and a left-side solve
// with op(k^T) and one with op(k) and the other flags run Eigen's same loops on the same
// numbers: bit for bit (measured: 0 ulp, at every GEMM ISA). A right-side solve through a
// transposed view sums each x_j's at most n = 24 products in another order: two orders of an
// n-term sum differ by at most about 2n ulp of the terms, on these diagonally dominant matrices
// (condition number below 2) without amplification: 48 ulp (measured: 4 to 6).
constexpr std::uint64_t kExact = 0, kRightSide = 48;

}  // namespace

TEST_CASE("fold linalg transpose: cho_factor and cho_solve compute no transposed copy") {
  if (!fusejit_test::has_backend("llvm")) return;
  const Array a = spd_batch(40)(0), b = fusejit_test::random_array(fj::f64, {40, 3}, -1, 1, 5);
  auto f = [](Tracer m, Tracer r) {
    return Array(fj::scipy::linalg::cho_solve(fj::scipy::linalg::cho_factor(m), r));
  };
  BackendScope s("llvm");
  const std::string text = fj::jit(f).lower(a, b).as_text();
  const std::string fused = text.substr(text.find("# fused graph"));
  CHECK(fused.find("transpose[") == std::string::npos);
  check_llvm_against_reference(f, "cho_solve(cho_factor(a), b)", kExact, a, b);
}

TEST_CASE("fold linalg transpose: cholesky and every triangular_solve flag on a transpose") {
  if (!fusejit_test::has_backend("llvm")) return;
  const Array a = spd_batch(24);
  check_llvm_against_reference(
      [](Tracer m) { return fj::lax::linalg::cholesky(fj::transpose(m, {0, 2, 1}), false); },
      "cholesky(a^T), batched", kExact, a);
  check_llvm_against_reference(
      [](Tracer m) {
        // Folded twice: the flag is toggled back.
        return fj::lax::linalg::cholesky(fj::transpose(fj::transpose(m, {0, 2, 1}), {0, 2, 1}),
                                         false);
      },
      "cholesky((a^T)^T)", kExact, a);
  const Array b = fusejit_test::random_array(fj::f64, {2, 24, 5}, -1, 1, 6);
  const Array bt = fusejit_test::random_array(fj::f64, {2, 5, 24}, -1, 1, 7);
  for (bool lower : {false, true})
    for (bool transpose_a : {false, true}) {
      CAPTURE(lower);
      CAPTURE(transpose_a);
      check_llvm_against_reference(
          [=](Tracer m, Tracer r) {
            return fj::lax::linalg::triangular_solve(fj::transpose(m, {0, 2, 1}), r, true, lower,
                                                     transpose_a);
          },
          "left side", kExact, a, b);
      check_llvm_against_reference(
          [=](Tracer m, Tracer r) {
            return fj::lax::linalg::triangular_solve(fj::transpose(m, {0, 2, 1}), r, false, lower,
                                                     transpose_a);
          },
          "right side", kRightSide, a, bt);
    }
}
