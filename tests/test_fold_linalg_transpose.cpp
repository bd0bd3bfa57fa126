// The LLVM backend folds a transpose of a matrix's last two axes into triangular_solve's flags
// and into cholesky's hidden operand_transposed (ir/passes/fold_linalg_transpose.hpp), and
// JAX's tril mask after a cholesky into its hidden upper_zeroed (fold_cholesky_tril.hpp), and
// stores a factor that only triangular solves read transposed (its hidden result_transposed,
// fold_cholesky_result_transpose.hpp): the results must equal the reference backend's, which
// runs the graph as traced.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/passes/fold_cholesky_result_transpose.hpp>
#include <fusejit/ir/passes/fold_cholesky_tril.hpp>
#include <fusejit/ir/passes/fold_dot_transpose.hpp>
#include <fusejit/ir/passes/fold_linalg_transpose.hpp>
#include <fusejit/ir/passes/inline_jit.hpp>
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
// A one-vector left-side solve is Eigen's vector routine, whose loop follows the storage: dot
// products along rows of a row-major L, updates along columns of a column-major one (L^T stored
// row-major). The same n-term sums in another order: 48 ulp as above (measured: 3).
constexpr std::uint64_t kVectorSolve = 48;

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
      [](Tracer m) {
        return fj::lax::linalg::cholesky(fj::transpose(m, {0, 2, 1}), false);
      },
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

TEST_CASE("fold cholesky tril: the mask after cholesky is dropped, failures still look masked") {
  if (!fusejit_test::has_backend("llvm")) return;
  // The first matrix is positive definite, the second has a negative pivot at (3, 3).
  Array a = spd_batch(24);
  std::vector<double> v = a.to_vector<double>();
  v[static_cast<std::size_t>(24 * 24 + 3 * 24 + 3)] = -50;
  a = fj::array(v, fj::Shape{2, 24, 24});
  auto chol = [](Tracer m) { return fj::linalg::cholesky(m); };
  auto upper = [](Tracer m) { return fj::linalg::cholesky(m, true); };
  auto [got, want] = fusejit_test::run_both("llvm", chol, a);
  auto [got_u, want_u] = fusejit_test::run_both("llvm", upper, a);
  // Bit for bit, NaN for NaN: the routine's lower triangle is what it was, its upper one the
  // mask's zeros, for the failed matrix too (NaN below and on the diagonal, 0 above).
  for (const auto& [g, w] : {std::pair{got, want}, std::pair{got_u, want_u}}) {
    const std::vector<double> gv = g.to_vector<double>(), wv = w.to_vector<double>();
    REQUIRE(gv.size() == wv.size());
    int differ = 0;
    for (std::size_t i = 0; i < gv.size(); ++i)
      differ += std::isnan(wv[i])
                    ? !std::isnan(gv[i])
                    : std::bit_cast<std::uint64_t>(gv[i]) != std::bit_cast<std::uint64_t>(wv[i]);
    CHECK(differ == 0);
  }
  const std::vector<double> failed = want.to_vector<double>();
  CHECK(std::isnan(failed[24 * 24 + 5 * 24 + 2]));  // the failed matrix, below the diagonal
  CHECK(failed[24 * 24 + 2 * 24 + 5] == 0.0);       // and above it
  BackendScope s("llvm");
  const std::string text = fj::jit(chol).lower(a).as_text();
  const std::string fused = text.substr(text.find("# fused graph"));
  // No mask kernel: no select, no iota (the hidden upper_zeroed is not printed).
  CHECK(fused.find("select_n") == std::string::npos);
  CHECK(fused.find("iota[") == std::string::npos);
}

namespace {

// The LLVM backend's linear-algebra folds, in llvm_backend.cpp's order, on a traced graph.
fj::ir::Graph linalg_folds(const fj::ir::Graph& g) {
  using namespace fj::ir;
  return fold_cholesky_result_transpose(
      fold_linalg_transpose(fold_cholesky_tril(fold_dot_transpose(inline_jit(g)))));
}

// Per cholesky equation of g, whether it stores its factor transposed; per triangular_solve,
// its (lower, transpose_a).
std::vector<bool> stored_transposed(const fj::ir::Graph& g) {
  std::vector<bool> r;
  for (const fj::ir::Eqn& e : g.eqns)
    if (e.prim == fj::ir::Prim::cholesky) r.push_back(e.params.find("result_transposed"));
  return r;
}
std::vector<std::pair<bool, bool>> solve_flags(const fj::ir::Graph& g) {
  std::vector<std::pair<bool, bool>> r;
  for (const fj::ir::Eqn& e : g.eqns)
    if (e.prim == fj::ir::Prim::triangular_solve)
      r.emplace_back(e.params.get<bool>("lower"), e.params.get<bool>("transpose_a"));
  return r;
}

}  // namespace

TEST_CASE("fold cholesky result transpose: a factor only solves read is stored as L^T") {
  const Array a = spd_batch(24), b = fusejit_test::random_array(fj::f64, {2, 24, 3}, -1, 1, 8);
  using fj::scipy::linalg::cho_factor;
  using fj::scipy::linalg::cho_solve;
  // cho_factor(lower=False) stages U = transpose(cholesky(transpose(a))); once both transposes
  // are folded, the solves read L, and then L^T (= U: JAX's own flags come back).
  auto upper = [](Tracer m, Tracer r) { return cho_solve(cho_factor(m), r); };
  const fj::ir::Graph g = linalg_folds(fj::make_jaxpr(upper)(a, b).graph());
  CHECK(stored_transposed(g) == std::vector<bool>{true});
  CHECK(solve_flags(g) == std::vector<std::pair<bool, bool>>{{false, true}, {false, false}});
  auto lower = [](Tracer m, Tracer r) { return cho_solve(cho_factor(m, true), r); };
  const fj::ir::Graph gl = linalg_folds(fj::make_jaxpr(lower)(a, b).graph());
  CHECK(stored_transposed(gl) == std::vector<bool>{true});
  CHECK(solve_flags(gl) == std::vector<std::pair<bool, bool>>{{false, true}, {false, false}});
  // The factor also read elsewhere (here summed), or returned: stored as L.
  auto also_summed = [](Tracer m, Tracer r) {
    const Array l = fj::linalg::cholesky(m);
    return Array(fj::lax::linalg::triangular_solve(l, r, true, true) + fj::sum(l));
  };
  CHECK(stored_transposed(linalg_folds(fj::make_jaxpr(also_summed)(a, b).graph())) ==
        std::vector<bool>{false});
  auto returned = [](Tracer m, Tracer r) {
    const Array l = fj::linalg::cholesky(m);
    return std::vector<Array>{l, Array(fj::lax::linalg::triangular_solve(l, r, true, true))};
  };
  CHECK(stored_transposed(linalg_folds(fj::make_jaxpr(returned)(a, b).graph())) ==
        std::vector<bool>{false});
}

TEST_CASE("fold cholesky result transpose: solves with L^T give the reference's numbers") {
  if (!fusejit_test::has_backend("llvm")) return;
  // The second matrix fails at pivot 3: its factor is NaN where read, and so is its solution.
  Array a = spd_batch(24);
  std::vector<double> v = a.to_vector<double>();
  const Array good = a;
  v[static_cast<std::size_t>(24 * 24 + 3 * 24 + 3)] = -50;
  const Array failing = fj::array(v, fj::Shape{2, 24, 24});
  const Array b = fusejit_test::random_array(fj::f64, {2, 24, 3}, -1, 1, 9);
  const Array bv = fusejit_test::random_array(fj::f64, {2, 24}, -1, 1, 10);
  const Array bt = fusejit_test::random_array(fj::f64, {2, 3, 24}, -1, 1, 11);
  using fj::scipy::linalg::cho_factor;
  using fj::scipy::linalg::cho_solve;
  for (const Array& m : {good, failing}) {
    for (bool lower : {false, true}) {
      CAPTURE(lower);
      check_llvm_against_reference(
          [=](Tracer x, Tracer r) { return cho_solve(cho_factor(x, lower), r); },
          "cho_solve(cho_factor(a, lower), b)", kExact, m, b);
      check_llvm_against_reference(
          [=](Tracer x, Tracer r) { return cho_solve(cho_factor(x, lower), r); },
          "cho_solve(cho_factor(a, lower), batch of vectors)", kVectorSolve, m, bv);
    }
    // jnp.linalg.cholesky and lax's solves on either side, every flag.
    for (bool transpose_a : {false, true}) {
      CAPTURE(transpose_a);
      check_llvm_against_reference(
          [=](Tracer x, Tracer r) {
            return fj::lax::linalg::triangular_solve(fj::linalg::cholesky(x), r, true, true,
                                                     transpose_a);
          },
          "left side", kExact, m, b);
      check_llvm_against_reference(
          [=](Tracer x, Tracer r) {
            return fj::lax::linalg::triangular_solve(fj::linalg::cholesky(x), r, false, true,
                                                     transpose_a);
          },
          "right side", kRightSide, m, bt);
    }
  }
}
