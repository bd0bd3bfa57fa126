// lax.linalg.lu against JAX 0.10.2 (tests/golden/solve_goldens.txt, printed by
// tests/golden/solve_goldens.py): the factors, LAPACK's pivots and the permutation (square,
// tall, wide, batched, singular, a 40x40 one Eigen factors in blocks), vmap, gradients (JAX's
// and central differences in f64), jaxpr text, and bad input, on both backends.
#include <doctest/doctest.h>

#include <algorithm>
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
// less for the small ones, so 1e-11 relative to the largest entry.
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

TEST_CASE("linalg solve golden: jaxpr text") {
  using T = Tracer;
  auto lu3 = [](T a) {
    auto [lu, piv, perm] = lax_la::lu(a);
    return std::tuple{lu, piv, perm};
  };
  CHECK(fj::make_jaxpr(lu3)(fj::ones({3, 3})).str() == kGolden.all().at("jaxpr lu"));
  CHECK(fj::make_jaxpr(lu3)(fj::ones({2, 3, 4})).str() ==
        kGolden.all().at("jaxpr lu_batched_wide"));
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
