// Row groups: a reduction over trailing axes fused with the kernels that use its result back
// over the row (fuse.hpp, row_groups.hpp, row_phases.cpp, the LLVM row kernel). Fused results
// must equal the unfused kernels' bit for bit, and must not depend on the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include <fusejit/backend/kernel_plan.hpp>
#include <fusejit/ir/passes/fuse.hpp>

#include "../bench/row_workloads.hpp"
#include "backend_compare.hpp"

namespace {

using fj::Tracer;
using fusejit_test::has_backend;
using fusejit_test::random_array;

// Runs a fresh fj::jit of f with row fusion on or off, at a thread limit; restores both.
template <class F, class... Args>
auto run_with(F f, bool rows, int threads, const Args&... args) {
  fj::ir::row_fusion_enabled() = rows;
  fj::runtime::set_thread_limit(threads);
  auto out = fj::jit(f)(args...);
  fj::ir::row_fusion_enabled() = true;
  fj::runtime::set_thread_limit(1 << 30);
  return out;
}

std::vector<std::uint64_t> bits(const fj::Array& a) {
  std::vector<std::uint64_t> out;
  fj::visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    for (std::int64_t i = 0; i < a.size(); ++i) {
      std::uint64_t b = 0;
      std::memcpy(&b, a.data<T>() + i, sizeof(T));
      out.push_back(b);
    }
  });
  return out;
}

// Fused at 1 and at 3 threads, and unfused: the same bits, and the same shape and dtype.
template <class F, class... Args>
void check_fused_equals_unfused(const std::string& what, F f, const Args&... args) {
  CAPTURE(what);
  const fj::Array fused1 = run_with(f, true, 1, args...);
  const fj::Array fused3 = run_with(f, true, 3, args...);
  const fj::Array unfused = run_with(f, false, 3, args...);
  REQUIRE(fused1.shape() == unfused.shape());
  REQUIRE(fused1.dtype() == unfused.dtype());
  CHECK(bits(fused1) == bits(unfused));
  CHECK(bits(fused3) == bits(unfused));
}

// The fused graph the LLVM backend runs, as jit(f).lower(x).as_text() prints it.
template <class F>
std::string fused_text(F f, const fj::Array& x) {
  return fj::jit(f).lower(x).as_text();
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

using fjbench::layernorm;
using fjbench::softmax;
// logsumexp with its per-row result and the row's softmax from it: outputs of both shapes.
auto logsumexp_and_probs = [](Tracer x) {
  Tracer m = fj::max(x, {1}, true);
  Tracer lse = fj::log(fj::sum(fj::exp(x - m), {1}, true)) + m;
  return std::make_tuple(lse, fj::exp(x - lse));
};

}  // namespace

TEST_CASE("row fusion: softmax, layernorm and logsumexp run as one kernel each") {
  if (!has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, fj::Shape{8, 32}, -3, 3, 1);
  // Unfused, softmax is three kernels (max; sum of exp; exp / sum) and layernorm three.
  for (auto [name, text] : {std::pair{"softmax", fused_text(softmax, x)},
                            std::pair{"layernorm", fused_text(layernorm, x)},
                            std::pair{"logsumexp", fused_text(logsumexp_and_probs, x)}}) {
    CAPTURE(name);
    CHECK(count(text, "# kernel ") == 1);
  }
  fj::ir::row_fusion_enabled() = false;
  const std::string unfused = fused_text(softmax, x);
  fj::ir::row_fusion_enabled() = true;
  CHECK(count(unfused, "# kernel ") == 3);
}

TEST_CASE("row fusion: the plan reads x once per phase from the row and computes exp once") {
  // softmax's row kernel: max over the row, then sum of exp (exp kept in scratch), then the
  // row's outputs from scratch: exp is evaluated in one phase only.
  const fj::Array x = random_array(fj::f32, fj::Shape{8, 32}, -3, 3, 2);
  const fj::ir::Graph g = fj::make_jaxpr(softmax)(x).graph();
  const fj::ir::Graph fused = fj::ir::fuse(g, {.row_groups = true});
  REQUIRE(fused.eqns.size() == 1);
  const auto& sub = *fused.eqns[0].params.get<fj::ir::GraphPtr>("jaxpr");
  const fj::backend::kernel::Plan plan = fj::backend::kernel::Planner(sub).run();
  REQUIRE(plan.rows);
  REQUIRE(plan.phases.size() == 4);  // max, sum, the row's outputs, the per-row outputs
  CHECK(plan.num_scratch == 1);
  int exp_evaluations = 0;
  for (const auto& ph : plan.phases)
    for (int k : ph.eval) {
      const auto& n = plan.nodes[static_cast<std::size_t>(k)];
      if (n.kind == fj::backend::kernel::Node::op && n.prim == fj::ir::Prim::exp &&
          plan.scratch[static_cast<std::size_t>(k)] >= 0 &&
          std::find(ph.store.begin(), ph.store.end(), k) == ph.store.end())
        continue;  // read back from scratch
      if (n.kind == fj::backend::kernel::Node::op && n.prim == fj::ir::Prim::exp) ++exp_evaluations;
    }
  CHECK(exp_evaluations == 1);
  CHECK(plan.phases[3].eval.empty());  // no per-row output
}

TEST_CASE("row fusion: fused results equal unfused ones bit for bit, at any thread count") {
  if (!has_backend("llvm")) return;
  // Row lengths around the vector width, the unrolled step (4 vectors) and the fusion limit.
  for (std::int64_t cols : {1, 7, 16, 37, 64, 65, 1000, 4096}) {
    const fj::Array x = random_array(fj::f32, fj::Shape{97, cols}, -30, 30, 3);
    const std::string c = " cols=" + std::to_string(cols);
    check_fused_equals_unfused("softmax" + c, softmax, x);
    check_fused_equals_unfused("layernorm" + c, layernorm, x);
    check_fused_equals_unfused(
        "logsumexp" + c, [](Tracer v) { return std::get<0>(logsumexp_and_probs(v)); }, x);
    check_fused_equals_unfused(
        "probs from logsumexp" + c, [](Tracer v) { return std::get<1>(logsumexp_and_probs(v)); },
        x);
  }
  const fj::Array d = random_array(fj::f64, fj::Shape{33, 300}, -5, 5, 4);
  check_fused_equals_unfused("softmax f64", softmax, d);
  check_fused_equals_unfused(
      "var (two reductions, a per-row result)",
      [](Tracer v) {
        Tracer m = fj::mean(v, {1}, true);
        return fj::mean((v - m) * (v - m), {1});
      },
      d);
  // Two trailing axes form the row; an input broadcast over rows (a bias) and one per row.
  const fj::Array t = random_array(fj::f32, fj::Shape{5, 6, 70}, -2, 2, 5);
  const fj::Array bias = random_array(fj::f32, fj::Shape{70}, -1, 1, 6);
  const fj::Array scale = random_array(fj::f32, fj::Shape{5, 1, 1}, 1, 2, 7);
  check_fused_equals_unfused(
      "rows of two axes",
      [](Tracer v, Tracer b, Tracer s) {
        Tracer y = v * s + b;
        return y / fj::sum(fj::abs(y), {1, 2}, true);
      },
      t, bias, scale);
  // Integers and the max of a comparison.
  const fj::Array i = random_array(fj::i32, fj::Shape{40, 50}, -100, 100, 8);
  check_fused_equals_unfused(
      "int: x - min(x)", [](Tracer v) { return v - fj::min(v, {1}, true); }, i);
}

TEST_CASE("row fusion: results match the reference interpreter within the sums' bound") {
  if (!has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, fj::Shape{64, 1024}, -8, 8, 9);
  auto [got, want] = fusejit_test::run_both("llvm", softmax, x);
  // A softmax value is e_j / s with s a sum of 1024 positive terms, folded as 4 accumulators x
  // 16 lanes (16 terms each) and a 6-level tree on llvm, in one chain on the reference: each sum
  // is within (n - 1) eps of the exact sum, so they differ by < 2 * 1023 * 2^-24 relative, plus
  // exp's 1 ulp (docs/MATH.md) on each side and the division's half ulp: 2100 ulp bounds it.
  fusejit_test::check_close(got, want, 2100, "softmax f32[64,1024]");
  auto [lgot, lwant] = fusejit_test::run_both("llvm", layernorm, x);
  // mean and variance: the same sums' bound (each mean within 1023 eps relative of the exact),
  // then d * rsqrt(var + eps): rsqrt's 1 ulp; |d| can cancel to near 0, so the bound is in
  // absolute terms of the row's scale: |x| <= 8, var ~ 21, checked as 1e-4 absolute.
  fusejit_test::check_abs(lgot, lwant, 1e-4, "layernorm f32[64,1024]");
}

TEST_CASE("row fusion: what does not qualify keeps the separate kernels and their results") {
  if (!has_backend("llvm")) return;
  // Rows longer than the fused limit (4096) and a per-row value read transposed.
  const fj::Array big = random_array(fj::f32, fj::Shape{3, 5000}, -3, 3, 10);
  CHECK(count(fused_text(softmax, big), "# kernel ") == 3);
  check_fused_equals_unfused("softmax rows of 5000", softmax, big);
  const fj::Array sq = random_array(fj::f32, fj::Shape{40, 40}, -3, 3, 11);
  auto transposed = [](Tracer v) { return v - fj::sum(v, {1}, true).T(); };
  CHECK(count(fused_text(transposed, sq), "# kernel ") == 2);
  check_fused_equals_unfused("x - sum(x).T", transposed, sq);
  auto [got, want] = fusejit_test::run_both("llvm", transposed, sq);
  fusejit_test::check_abs(got, want, 40 * 2 * 40 * 0x1p-24 * 3, "x - sum(x).T");
}

TEST_CASE("row fusion: inside a lax loop body and under grad") {
  if (!has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, fj::Shape{16, 100}, -3, 3, 12);
  auto looped = [](Tracer v) {
    return fj::lax::fori_loop(
        0, 3, [](Tracer, Tracer c) { return softmax(c) * 2.0f; }, v);
  };
  check_fused_equals_unfused("softmax in fori_loop", looped, x);
  auto grad_of = [](Tracer v) {
    return fj::grad([](Tracer w) { return fj::sum(softmax(w) * w); })(v);
  };
  check_fused_equals_unfused("grad of sum(softmax(x) * x)", grad_of, x);
  auto [got, want] = fusejit_test::run_both("llvm", grad_of, x);
  fusejit_test::check_abs(got, want, 1e-5, "grad of sum(softmax(x) * x)");
}
