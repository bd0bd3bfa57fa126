// lax.linalg.lu against JAX 0.10.2 (tests/golden/solve_goldens.txt, printed by
// tests/golden/solve_goldens.py): the factors, LAPACK's pivots and the permutation (square,
// tall, wide, batched, singular, a 40x40 one Eigen factors in blocks), vmap, gradients (JAX's
// and central differences in f64), jaxpr text, and bad input, on both backends.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <tuple>
#include <cmath>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "linalg_check.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::as_doubles;
using fusejit_test::BackendScope;
namespace lax_la = fj::lax::linalg;

namespace {

constexpr fusejit_test::Golden kGolden{"solve_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

using fusejit_test::check_close;

// The factors of a random normal matrix: the pivots (the same rows chosen, checked exactly)
// make L's entries at most 1 and U's a few times the input's; Eigen's and LAPACK's orders of
// operations then differ by rounding, n eps times the growth and the leading blocks' condition
// numbers (below 1e3 for these inputs): 40 * 2.2e-16 * 1e3 ~ 1e-11 for the 40x40 matrix, far
// less for the small ones, so 1e-11 relative to the largest entry. The same bounds solve and
// inv (condition numbers: 4.3 for a4, 12.5 at most for a4b, 44 at most for a243, 149 for big).
constexpr double kLuRel = 1e-11;

}  // namespace

TEST_CASE("linalg solve golden: lu's factors, pivots and permutation as JAX's") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const char* name : {"a4", "ab", "tall", "wide", "singular", "zeros", "big"}) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto want = kGolden.lines(std::string("lu ") + name);
      const Array x = input(name);
      const auto r = fj::jit([](Tracer a) {
        auto [lu, piv, perm] = lax_la::lu(a);
        return std::tuple{lu, piv, perm};
      })(x);
      const Array &lu = std::get<0>(r), &piv = std::get<1>(r), &perm = std::get<2>(r);
      CHECK(lu.shape() == x.shape());
      CHECK(piv.dtype() == fj::DType::i32);
      CHECK(perm.dtype() == fj::DType::i32);
      CHECK(as_doubles(piv) == numbers(want[1]));
      CHECK(as_doubles(perm) == numbers(want[2]));
      check_close(as_doubles(lu), numbers(want[0]), kLuRel);
    }
    // Eagerly (outside a trace), f32, and under vmap (the batch axis a batch of matrices).
    const auto eager = lax_la::lu(input("a4"));
    check_close(as_doubles(eager[0]), numbers(kGolden.lines("lu a4")[0]), kLuRel);
    // f32: the same factorization in single precision, 1e-5 relative (n eps_f32 times the
    // growth and conditioning above, 4 * 6e-8 * 1e2 ~ 2.4e-5 at worst for the 4x4).
    const auto f32 = lax_la::lu(input("a4").astype(fj::DType::f32));
    CHECK(f32[0].dtype() == fj::DType::f32);
    CHECK(as_doubles(f32[1]) == numbers(kGolden.lines("lu a4")[1]));
    check_close(as_doubles(f32[0]), numbers(kGolden.lines("lu a4")[0]), 1e-5);
    const Array v = fj::vmap([](Tracer a) { return lax_la::lu(a)[0]; })(input("ab"));
    check_close(as_doubles(v), numbers(kGolden.lines("lu vmap_ab")[0]), kLuRel);
  }
}

// Non-finite entries do not make lu fail in the middle of a batch: an infinite pivot factors
// as LAPACK's (1 / inf = 0 below it: [[inf, 1], [0, 2]], JAX's numbers); a NaN spreads NaNs, and
// every pivot stays in range.
TEST_CASE("linalg solve golden: lu of non-finite matrices") {
  const double inf = INFINITY, nan = NAN;
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const auto fi = lax_la::lu(fj::array(std::vector<double>{inf, 1, 1, 2}, fj::Shape{2, 2}));
    CHECK(as_doubles(fi[0]) == std::vector<double>{inf, 1, 0, 2});
    CHECK(as_doubles(fi[1]) == std::vector<double>{0, 1});
    const auto fn = lax_la::lu(
        fj::array(std::vector<double>{1, nan, 3, 2, 1, 0, 4, 1, 1, 5, 6, 7}, fj::Shape{2, 2, 3}));
    bool has_nan = false;
    for (double v : as_doubles(fn[0])) has_nan = has_nan || std::isnan(v);
    CHECK(has_nan);
    for (double p : as_doubles(fn[1])) CHECK((p >= 0 && p < 2));
  }
}

// d/dx sum(w * lu(x)): JAX's gradient to 1e-10 relative (the rule's two triangular solves and
// two products, each within n eps cond of exact, cond < 1e3 here) and central differences.
TEST_CASE("linalg solve golden: lu's gradient as JAX's and as central differences") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const char* name : {"a4", "ab", "tall", "wide"}) {
      CAPTURE(backend);
      CAPTURE(name);
      fusejit_test::check_weighted_grad([](Tracer a) { return lax_la::lu(a)[0]; }, input(name),
                                        numbers(kGolden.lines(std::string("grad lu_") + name)[0]),
                                        {}, 1e-10);
    }
  }
}

// Forward mode along t = (1, 2, ...) / 10: JAX's tangent (1e-10, as the gradients) and the
// central difference (f(x + h t) - f(x - h t)) / 2h, h = 1e-6 (truncation h^2 times the third
// derivative and rounding eps |f| / h, both below 1e-8 of these O(1) factors; 1e-7 relative).
TEST_CASE("linalg solve golden: lu's tangent as JAX's and as central differences") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const char* name : {"a4", "tall", "wide"}) {
      CAPTURE(backend);
      CAPTURE(name);
      const Array x = input(name);
      std::vector<double> tv(static_cast<std::size_t>(x.size()));
      for (std::size_t i = 0; i < tv.size(); ++i) tv[i] = (1.0 + static_cast<double>(i)) / 10;
      const Array t = fj::array(tv, x.shape());
      auto f = [](Tracer a) { return lax_la::lu(a)[0]; };
      const auto [y, ty] = fj::jvp(f, std::array<Array, 1>{x}, std::array<Array, 1>{t});
      const auto got = as_doubles(ty);
      check_close(got, numbers(kGolden.lines(std::string("jvp lu_") + name)[0]), 1e-10);
      const auto plus = as_doubles(fj::jit(f)(Array(x + 1e-6 * t)));
      const auto minus = as_doubles(fj::jit(f)(Array(x - 1e-6 * t)));
      std::vector<double> fd(got.size());
      for (std::size_t i = 0; i < fd.size(); ++i) fd[i] = (plus[i] - minus[i]) / 2e-6;
      check_close(got, fd, 1e-7);
    }
  }
}

// det and slogdet: the closed forms (1x1 to 3x3) and lu's diagonal (4x4, batched, 40x40, whose
// determinant is 2^75: relative to the value, as the bound above), singular matrices (0, and
// sign 0 with log|det| -inf, not NaN).
TEST_CASE("linalg solve golden: det and slogdet as JAX's") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (auto [name, x] : {std::pair{"a1", "a1"},
                           {"a2", "a2"},
                           {"a3", "singular"},
                           {"ab", "ab"},
                           {"a4", "a4"},
                           {"a4b", "a4b"},
                           {"big", "big"},
                           {"singular4", "singular4"},
                           {"zeros", "zeros"}}) {
      CAPTURE(backend);
      CAPTURE(name);
      const Array a = input(x);
      const Array d = fj::jit([](Tracer v) { return fj::linalg::det(v); })(a);
      CHECK(d.shape().rank() == a.shape().rank() - 2);
      const auto want_d = numbers(kGolden.lines(std::string("det ") + name)[0]);
      std::vector<double> got_d = as_doubles(d);
      if (std::string(name) == "big") {  // relative to the determinant itself
        got_d[0] /= want_d[0];
        check_close(got_d, {1.0}, kLuRel);
      } else {
        check_close(got_d, want_d, kLuRel);
      }
      const auto s = fj::jit([](Tracer v) {
        auto [sign, logdet] = fj::linalg::slogdet(v);
        return std::tuple{sign, logdet};
      })(a);
      const auto want_s = kGolden.lines(std::string("slogdet ") + name);
      CHECK(as_doubles(std::get<0>(s)) == numbers(want_s[0]));
      check_close(as_doubles(std::get<1>(s)), numbers(want_s[1]), kLuRel);
    }
    // vmap (custom_jvp_call batched, lu on the batch) and eagerly, and integers (float32, as
    // jnp promotes them).
    const Array vd = fj::vmap([](Tracer v) { return fj::linalg::det(v); })(input("a4b"));
    check_close(as_doubles(vd), numbers(kGolden.lines("det a4b")[0]), kLuRel);
    const Array vs = fj::vmap([](Tracer v) { return fj::linalg::slogdet(v)[0]; })(input("a4b"));
    CHECK(as_doubles(vs) == numbers(kGolden.lines("slogdet a4b")[0]));
    check_close(as_doubles(fj::linalg::det(input("a4"))), numbers(kGolden.lines("det a4")[0]),
                kLuRel);
    const Array di =
        fj::linalg::det(fj::array(std::vector<std::int32_t>{1, 2, 3, 4}, fj::Shape{2, 2}));
    CHECK(di.dtype() == fj::DType::f32);
    CHECK(di.item<float>() == -2.0f);
  }
}

// d/da sum(w * det(a)) and sum(w * log|det(a)|): JAX's gradients (the closed forms' own
// derivatives; for 4x4, a^-T through lu, within n eps cond of exact: 1e-10 relative) and
// central differences.
TEST_CASE("linalg solve golden: det's and slogdet's gradients as JAX's") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const char* name : {"a1", "a2", "ab", "a4", "a4b"}) {
      CAPTURE(backend);
      CAPTURE(name);
      fusejit_test::check_weighted_grad([](Tracer a) { return fj::linalg::det(a); }, input(name),
                                        numbers(kGolden.lines(std::string("grad det_") + name)[0]),
                                        {}, 1e-10);
      fusejit_test::check_weighted_grad(
          [](Tracer a) { return fj::linalg::slogdet(a)[1]; }, input(name),
          numbers(kGolden.lines(std::string("grad slogdet_") + name)[0]), {}, 1e-10);
    }
    // Singular matrices: JAX's cofactor solve. rank3 (its last column the sum of the others;
    // rank n - 1, U's last pivot 2^-52) has the adjugate as its gradient; singular4 (a zero
    // pivot before the last) and zeros get zeros from the solve's filter, as JAX's, where the
    // central difference sees the adjugate, so it is not compared there.
    fusejit_test::check_weighted_grad([](Tracer a) { return fj::linalg::det(a); }, input("rank3"),
                                      numbers(kGolden.lines("grad det_rank3")[0]), {}, 1e-10);
    for (const char* name : {"singular4", "zeros4"}) {
      CAPTURE(name);
      fusejit_test::check_weighted_grad([](Tracer a) { return fj::linalg::det(a); }, input(name),
                                        numbers(kGolden.lines(std::string("grad det_") + name)[0]),
                                        [](std::size_t) { return true; });
    }
  }
}

// solve (a vector b, a matrix b, b broadcast against a's batch) and inv, values and
// gradients; a singular matrix gives non-finite values, as JAX's, and does not raise.
TEST_CASE("linalg solve golden: solve and inv as JAX's") {
  const Array a4 = input("a4"), a4b = input("a4b"), b4 = input("b4"), b42 = input("b42");
  using T = Tracer;
  auto solve = [](T a, T b) { return fj::linalg::solve(a, b); };
  const std::vector<std::pair<const char*, std::function<Array()>>> values = {
      {"solve_vec", [&] { return fj::jit(solve)(a4, b4); }},
      {"solve_mat", [&] { return fj::jit(solve)(a4, b42); }},
      {"solve_batched_vec", [&] { return fj::jit(solve)(a4b, b4); }},
      {"solve_broadcast",
       [&] {
         return fj::jit(solve)(a4b, fj::reshape(b42, {1, 4, 2}));
       }},
      {"inv", [&] { return fj::jit([](T a) { return fj::linalg::inv(a); })(a4); }},
      {"inv_batched", [&] { return fj::linalg::inv(input("ab")); }},
      {"inv_big", [&] { return fj::jit([](T a) { return fj::linalg::inv(a); })(input("big")); }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (const auto& [name, f] : values) {
      CAPTURE(name);
      const auto [got, want] =
          fusejit_test::golden_values(f(), kGolden.lines(std::string("values ") + name));
      check_close(got, want, kLuRel);
    }
    const std::vector<std::tuple<const char*, std::function<Array(Tracer)>, Array>> grads = {
        {"solve_a", [b42](T a) { return fj::linalg::solve(a, b42); }, a4},
        {"solve_b", [a4](T b) { return fj::linalg::solve(a4, b); }, b42},
        {"solve_batched_a", [b4](T a) { return fj::linalg::solve(a, b4); }, a4b},
        {"inv_a4", [](T a) { return fj::linalg::inv(a); }, a4},
        {"inv_ab", [](T a) { return fj::linalg::inv(a); }, input("ab")},
    };
    for (const auto& [name, f, x] : grads) {
      CAPTURE(name);
      fusejit_test::check_weighted_grad(
          f, x, numbers(kGolden.lines(std::string("grad ") + name)[0]), {}, 1e-10);
    }
    // vmap over a's batch with b shared (lu batched, b broadcast), and float32: 1e-5 relative
    // (n eps_f32 cond = 4 * 6e-8 * 12.5 = 3e-6 at worst here).
    const Array vs = fj::vmap([b4](Tracer a) { return fj::linalg::solve(a, b4); })(a4b);
    check_close(as_doubles(vs), numbers(kGolden.lines("values solve_batched_vec")[1]), kLuRel);
    const Array f32 = fj::linalg::solve(a4b.astype(fj::DType::f32), b4.astype(fj::DType::f32));
    CHECK(f32.dtype() == fj::DType::f32);
    check_close(as_doubles(f32), numbers(kGolden.lines("values solve_batched_vec")[1]), 1e-5);
    check_close(as_doubles(fj::linalg::det(a4b.astype(fj::DType::f32))),
                numbers(kGolden.lines("det a4b")[0]), 1e-5);
    // Two batch axes: b a vector, unbatched, batched along a's inner axis, or along both.
    const Array a243 = input("a243");
    for (const char* b : {"b3", "b32", "b432", "b2432"}) {
      fusejit_test::check_solve_golden(kGolden, solve, a243, input(b),
                                       std::string("solve_a243_") + b, kLuRel);
    }
    const auto [inv_got, inv_want] =
        fusejit_test::golden_values(fj::linalg::inv(a243), kGolden.lines("values inv_a243"));
    check_close(inv_got, inv_want, kLuRel);
    const Array x = fj::jit(solve)(input("singular4"), b4);
    bool finite = true;
    for (double v : as_doubles(x)) finite = finite && std::isfinite(v);
    CHECK_FALSE(finite);
  }
}

TEST_CASE("linalg solve golden: jaxpr text") {
  using T = Tracer;
  auto lu3 = [](T a) {
    auto [lu, piv, perm] = lax_la::lu(a);
    return std::tuple{lu, piv, perm};
  };
  CHECK(fj::make_jaxpr(lu3)(fj::ones({3, 3})).str() == kGolden.all().at("jaxpr lu"));
  CHECK(fj::make_jaxpr(lu3)(fj::ones({2, 3, 4})).str() ==
        kGolden.all().at("jaxpr lu_batched_wide"));
  auto det = [](T a) { return fj::linalg::det(a); };
  auto slogdet = [](T a) {
    auto [sign, logdet] = fj::linalg::slogdet(a);
    return std::tuple{sign, logdet};
  };
  const std::vector<std::tuple<const char*, std::function<std::string()>>> texts = {
      {"det_1x1",
       [&] {
         return fj::make_jaxpr(det)(fj::ones({1, 1})).str();
       }},
      {"det_2x2",
       [&] {
         return fj::make_jaxpr(det)(fj::ones({2, 2})).str();
       }},
      {"det_3x3",
       [&] {
         return fj::make_jaxpr(det)(fj::ones({3, 3})).str();
       }},
      {"det_3x3_batched",
       [&] {
         return fj::make_jaxpr(det)(fj::ones({2, 3, 3})).str();
       }},
      {"det_int_2x2",
       [&] {
         return fj::make_jaxpr(det)(fj::ones({2, 2}, fj::DType::i32)).str();
       }},
      {"slogdet_1x1",
       [&] {
         return fj::make_jaxpr(slogdet)(fj::ones({1, 1})).str();
       }},
      {"slogdet_2x2",
       [&] {
         return fj::make_jaxpr(slogdet)(fj::ones({2, 2})).str();
       }},
      {"slogdet_2x2_batched",
       [&] {
         return fj::make_jaxpr(slogdet)(fj::ones({3, 2, 2})).str();
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    CHECK(text() == kGolden.all().at(std::string("jaxpr ") + name));
  }
  // lu's diagonal through jnp.diagonal: platform_index and its cond for one matrix, the gather
  // alone for a batch; an int matrix is made f32 first. float64: JAX's float32 text read as
  // float64 (JAX prints float64 only with x64 on, whose default ints are int64; fusejit's stay
  // int32, as x64 off).
  using D = fj::DType;
  const std::vector<std::tuple<std::string, bool, fj::Shape, D>> lu_texts = {
      {"det_4x4", true, {4, 4}, D::f32},
      {"det_4x4", true, {4, 4}, D::f64},
      {"det_5x5_batched", true, {2, 5, 5}, D::f32},
      {"slogdet_3x3", false, {3, 3}, D::f32},
      {"slogdet_4x4", false, {4, 4}, D::f64},
      {"slogdet_6x6", false, {6, 6}, D::f32},
      {"slogdet_int_3x3", false, {3, 3}, D::i32},
      {"slogdet_3x4x4_batched", false, {2, 3, 4, 4}, D::f32},
      {"slogdet_3x4x4_batched", false, {2, 3, 4, 4}, D::f64},
  };
  auto as_f64 = [](std::string t) {
    for (const auto& [from, to] : {std::pair{"f32", "f64"}, std::pair{"float32", "float64"}})
      for (std::size_t at = 0; (at = t.find(from, at)) != std::string::npos;
           at += std::string(to).size())
        t.replace(at, std::string(from).size(), to);
    return t;
  };
  for (const auto& [name, is_det, shape, dtype] : lu_texts) {
    const std::string what = name + (dtype == D::f64 ? " (f64)" : "");
    CAPTURE(what);
    const Array x = fj::ones(shape, dtype);
    const std::string text =
        is_det ? fj::make_jaxpr(det)(x).str() : fj::make_jaxpr(slogdet)(x).str();
    const std::string& want = kGolden.all().at("jaxpr " + name);
    CHECK(text == (dtype == D::f64 ? as_f64(want) : want));
  }
}

// grad(det) for a 1x1 matrix (the rule's a[..., 0, 0]) and past the closed forms: det's
// custom_jvp rule (_det_jvp: the cofactor solve, then jnp.trace) linearized inside det's jit as
// JAX's linearize does it: the rule's tangent-free part (lu, the filter, the permuted index, the
// modified U, the results) in the forward jit, the transposed tangent part (nested jits `trace` and
// `_where` split likewise, the two identical `_where` backward parts shared) in the backward jit.
TEST_CASE("linalg solve golden: grad(det) jaxpr text") {
  auto grad_det = fj::grad([](Tracer a) { return fj::linalg::det(a); });
  CHECK(fj::make_jaxpr(grad_det)(fj::ones({4, 4})).str() == kGolden.all().at("jaxpr grad_det_4x4"));
  CHECK(fj::make_jaxpr(grad_det)(fj::ones({1, 1})).str() == kGolden.all().at("jaxpr grad_det_1x1"));
  auto grad_sum_det = fj::grad([](Tracer a) { return fj::sum(fj::linalg::det(a)); });
  CHECK(fj::make_jaxpr(grad_sum_det)(fj::ones({2, 5, 5})).str() ==
        kGolden.all().at("jaxpr grad_det_5x5_batched"));
}

// jvp(det) and jvp(slogdet): JAX's JVP of a custom_jvp function runs only its rule, so the rule's
// results are the primal outputs (no custom_jvp_call), its jits kept, its dead jnp.ix_ iota too.
TEST_CASE("linalg solve golden: jvp(det) and jvp(slogdet) jaxpr text") {
  auto jvp_det = [](Tracer a, Tracer t) {
    auto [y, dy] = fj::jvp([](Tracer x) { return fj::linalg::det(x); }, std::array<Array, 1>{a},
                           std::array<Array, 1>{t});
    return std::vector<Tracer>{y, dy};
  };
  auto jvp_slogdet = [](Tracer a, Tracer t) {
    auto [y, dy] = fj::jvp(
        [](Tracer x) {
          auto r = fj::linalg::slogdet(x);
          return std::vector<Tracer>{r[0], r[1]};
        },
        std::array<Array, 1>{a}, std::array<Array, 1>{t});
    return std::vector<Tracer>{y[0], y[1], dy[0], dy[1]};
  };
  for (const fj::Shape& shape :
       {fj::Shape{1, 1}, fj::Shape{2, 2}, fj::Shape{3, 3}, fj::Shape{4, 4}, fj::Shape{2, 5, 5}}) {
    std::string n;
    for (int d = 0; d < shape.rank(); ++d) n += (d ? "x" : "") + std::to_string(shape[d]);
    CAPTURE(n);
    const Array x = fj::ones(shape);
    CHECK(fj::make_jaxpr(jvp_det)(x, x).str() == kGolden.all().at("jaxpr jvp_det_" + n));
    CHECK(fj::make_jaxpr(jvp_slogdet)(x, x).str() == kGolden.all().at("jaxpr jvp_slogdet_" + n));
  }
}

// grad(slogdet) likewise: _slogdet_small_jvp (1x1, 2x2: _slogdet_small's custom_jvp_call in the
// forward jit) and _slogdet_jvp (jnp.linalg.slogdet's jit and jnp.linalg.solve's inside the rule,
// solve's custom_linear_solve transposed in the backward jit).
TEST_CASE("linalg solve golden: grad(slogdet) jaxpr text") {
  auto grad_logdet = fj::grad([](Tracer a) { return fj::linalg::slogdet(a)[1]; });
  auto grad_sum_logdet = fj::grad([](Tracer a) { return fj::sum(fj::linalg::slogdet(a)[1]); });
  const std::vector<std::tuple<std::string, fj::Shape>> cases = {
      {"grad_slogdet_1x1", {1, 1}},
      {"grad_slogdet_2x2", {2, 2}},
      {"grad_slogdet_4x4", {4, 4}},
      {"grad_slogdet_2x2_batched", {3, 2, 2}},
      {"grad_slogdet_4x4_batched", {2, 4, 4}},
  };
  for (const auto& [name, shape] : cases) {
    CAPTURE(name);
    const Array x = fj::ones(shape);
    const std::string text = shape.rank() == 2 ? fj::make_jaxpr(grad_logdet)(x).str()
                                               : fj::make_jaxpr(grad_sum_logdet)(x).str();
    CHECK(text == kGolden.all().at("jaxpr " + name));
  }
}

// sign's tangent is the rule's zeros_like(sign): a symbolic zero, as in JAX, so the product
// sign * log|det| sends a cotangent into log|det| only, and slogdet's backward jit takes none
// for sign.
TEST_CASE("linalg solve golden: grad(sum(sign * logdet)) jaxpr text") {
  auto f = fj::grad([](Tracer a) {
    auto [sign, logdet] = fj::linalg::slogdet(a);
    return fj::sum(sign * logdet);
  });
  CHECK(fj::make_jaxpr(f)(fj::ones({4, 4})).str() ==
        kGolden.all().at("jaxpr grad_sign_times_logdet"));
}

namespace {

// The equations of a printed jaxpr outside custom_linear_solve's sub-jaxprs and outside the
// shared jaxprs hoisted on top, each as its results' types and its primitive: the staging
// around the solve. (For a matrix b the solve sub-jaxprs' texts are fusejit's own, and with
// them the hoisted jaxprs and so every variable name.)
std::vector<std::string> outer_eqns(std::string text) {
  for (std::size_t at; (at = text.find("jaxprs=_LinearSolveTuple(")) != std::string::npos;)
    text.erase(at, text.find("})\n", at) + 3 - at);
  if (const std::size_t main = text.rfind("\n{ lambda"); main != std::string::npos)
    text.erase(0, main + 1);
  std::vector<std::string> r;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    const std::size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string types;
    for (std::size_t c = line.find(':'); c != std::string::npos && c < eq;
         c = line.find(':', c + 1))
      types += line.substr(c + 1, line.find(' ', c) - c - 1) + " ";
    r.push_back(types + "= " + line.substr(eq + 3, line.find_first_of("[ ", eq + 3) - eq - 3));
  }
  return r;
}

}  // namespace

TEST_CASE("linalg solve golden: solve and inv stage lu and custom_linear_solve as JAX's") {
  using T = Tracer;
  auto solve = [](T a, T b) { return fj::linalg::solve(a, b); };
  const std::vector<std::tuple<const char*, std::function<std::string()>>> texts = {
      {"solve_vec",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({3, 3}), fj::ones({3})).str();
       }},
      {"solve_mat",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({3, 3}), fj::ones({3, 2})).str();
       }},
      {"solve_batched",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 3, 3}), fj::ones({3, 2})).str();
       }},
      {"inv",
       [&] {
         return fj::make_jaxpr([](T a) { return fj::linalg::inv(a); })(fj::ones({3, 3})).str();
       }},
      {"solve_mat_4x5",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({4, 4}), fj::ones({4, 5})).str();
       }},
      {"solve_mat_1x1",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({1, 1}), fj::ones({1, 1})).str();
       }},
      {"solve_vec_1x1",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({1, 1}), fj::ones({1})).str();
       }},
      {"solve_mat_1x3",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({1, 1}), fj::ones({1, 3})).str();
       }},
      {"solve_batched_1x1",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 1, 1}), fj::ones({2, 1, 3})).str();
       }},
      {"inv_5x5",
       [&] {
         return fj::make_jaxpr([](T a) { return fj::linalg::inv(a); })(fj::ones({5, 5})).str();
       }},
      {"solve_batched_both",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 3, 3}), fj::ones({2, 3, 2})).str();
       }},
      {"inv_batched",
       [&] {
         return fj::make_jaxpr([](T a) { return fj::linalg::inv(a); })(fj::ones({2, 3, 3})).str();
       }},
      {"solve_mat_f64",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({3, 3}, fj::DType::f64),
                                      fj::ones({3, 2}, fj::DType::f64))
             .str();
       }},
      // A vector b under a's batch, and two batch axes (jnp.vectorize's nested vmaps).
      {"solve_batched_vec",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 3, 3}), fj::ones({3})).str();
       }},
      {"solve_batch2_vec",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 4, 3, 3}), fj::ones({3})).str();
       }},
      {"solve_batch2_unbatched_b",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 4, 3, 3}), fj::ones({3, 2})).str();
       }},
      {"solve_batch2_inner_b",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 4, 3, 3}), fj::ones({4, 3, 2})).str();
       }},
      {"solve_batch2_full_b",
       [&] {
         return fj::make_jaxpr(solve)(fj::ones({2, 4, 3, 3}), fj::ones({2, 4, 3, 2})).str();
       }},
      {"inv_batch2",
       [&] {
         return fj::make_jaxpr([](T a) { return fj::linalg::inv(a); })(fj::ones({2, 4, 3, 3}))
             .str();
       }},
  };
  for (const auto& [name, text] : texts) {
    const std::string case_name = name;
    CAPTURE(case_name);
    const std::string got = text(), want = kGolden.all().at(std::string("jaxpr ") + name);
    CHECK(outer_eqns(got) == outer_eqns(want));
    // The const counts print as JAX's _LinearSolveTuple, at JAX's indentation.
    const std::size_t at = want.find("const_lengths=");
    const std::size_t line = want.rfind('\n', at) + 1;
    CHECK(got.find(want.substr(line, want.find('\n', at) - line)) != std::string::npos);
    CHECK(got.find("custom_linear_solve[") != std::string::npos);
    // The whole text is JAX's, byte for byte: for a matrix b, JAX's _lu_solve vmapped over b's
    // columns (and over a's batch axis, for jnp.vectorize's vmap); for a 1x1 a, a vecmat that
    // sums over the size-1 axis and broadcasts back (reduce_sum[axes=(np.int64(1),)]).
    CHECK(got == want);
  }
}

// a with fewer (or size-1) batch axes than b (r...: the right-hand sides), and b with size-1
// ones: jnp.vectorize squeezes
// size-1 axes and vmaps a only where it has an axis, so one factorization serves b's batch
// (triangular_solve's batching rule folds b's batch into its columns); b is broadcast where a
// alone is batched. Condition numbers at most 59 (a433), so kLuRel bounds the values as above.
TEST_CASE("linalg solve golden: a less batched than b, as JAX's jnp.vectorize stages it") {
  using T = Tracer;
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"a33", "r232"},   {"a133", "r232"},   {"a233", "r132"}, {"a4133", "r232"}, {"a433", "r2432"},
      {"a233", "r2132"}, {"a2133", "r1432"}, {"a33", "r2432"}, {"a11", "r213"}};
  auto solve = [](T a, T b) { return fj::linalg::solve(a, b); };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (const auto& [an, bn] : cases)
      fusejit_test::check_solve_golden(kGolden, solve, input(an), input(bn),
                                       std::string("solve_") + an + "_" + bn, kLuRel);
  }
  for (const auto& [an, bn] : cases) {
    const std::string name = std::string("solve_") + an + "_" + bn;
    CAPTURE(name);
    const Array a = input(an), b = input(bn);
    CHECK(fj::make_jaxpr(solve)(fj::ones(a.shape()), fj::ones(b.shape())).str() ==
          kGolden.all().at("jaxpr " + name));
  }
}

TEST_CASE("linalg solve: a 1x1 a's vecmat (sum and broadcast back) differentiates as a division") {
  // x = b / a; sum(x) = (1 + 2 + 3) / 2; d/db_j = 1 / a = 0.5; d/da = -sum(b) / a^2 = -1.5.
  // grad wrt b goes through custom_linear_solve's transpose, which runs the vecmat.
  auto loss = [](Tracer a, Tracer b) { return fj::sum(fj::linalg::solve(a, b)); };
  const Array a = fj::array(std::vector<double>{2.0}, fj::Shape{1, 1});
  const Array b = fj::array(std::vector<double>{1.0, 2.0, 3.0}, fj::Shape{1, 3});
  CHECK(fj::jit(loss)(a, b).item<double>() == 3.0);
  CHECK(fj::jit(fj::grad(loss, fj::argnums{1}))(a, b).to_vector<double>() ==
        std::vector<double>{0.5, 0.5, 0.5});
  CHECK(fj::jit(fj::grad(loss, fj::argnums{0}))(a, b).to_vector<double>() ==
        std::vector<double>{-1.5});
}

TEST_CASE("linalg solve golden: bad input names the function, the argument and the shapes") {
  using T = Tracer;
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return lax_la::lu(a)[0]; })(fj::ones({3})),
                       doctest::Contains("fj::lax::linalg::lu: argument a must be a (batch of) "
                                         "matrices (rank >= 2), got an array of shape (3,)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(
      fj::jit([](T a) { return lax_la::lu(a)[0]; })(fj::ones({3, 3}, fj::DType::i32)),
      doctest::Contains("fj::lax::linalg::lu: argument a must be float32 or "
                        "float64, got i32[3,3]"),
      fj::DTypeError);
}
