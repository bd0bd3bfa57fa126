// cholesky, triangular_solve, cho_factor / cho_solve / solve_triangular and a Gaussian-process
// log-likelihood against JAX 0.10.2 (tests/golden/linalg_goldens.txt, printed by
// tests/golden/linalg_goldens.py): jaxpr text byte for byte, values and gradients in f64 (JAX's
// and central differences), vmap, NaNs for a matrix that is not positive definite, and bad
// input, on both backends.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "linalg_check.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;
namespace lax_la = fj::lax::linalg;

namespace {

constexpr fusejit_test::Golden kGolden{"linalg_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;
std::vector<double> doubles(const Array& a) {
  return std::vector<double>(a.data<double>(), a.data<double>() + a.size());
}
Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }
// The inputs are well conditioned (SPD matrices m m^T + n I, condition numbers below 30; their
// Cholesky factors): Eigen's and LAPACK's orders of operations differ by rounding only, each
// result within (condition number) * n * eps of the exact one; 1e-12 relative to the largest
// entry bounds that (30 * 4 * 2.2e-16 = 2.7e-14) with room.
constexpr double kRel = 1e-12;
using fusejit_test::check_close;

using Fn0 = std::function<Array()>;

}  // namespace

TEST_CASE("linalg golden: values against JAX, NaNs where the matrix is not positive definite") {
  const Array a4 = input("a4"), ab = input("ab"), l4 = input("lower4"), u4 = input("upper4"),
              b42 = input("b42"), b24 = input("b24"), b4 = input("b4"), bb = input("bb");
  const Array not_pd = fj::array(std::vector<double>{1, 2, 2, 1}, fj::Shape{2, 2});
  const Array lower_ab = fj::jit([](Tracer v) { return fj::linalg::cholesky(v); })(ab);
  using T = Tracer;
  const std::map<std::string, Fn0> cases = {
      {"cholesky", [&] { return fj::jit([](T a) { return fj::linalg::cholesky(a); })(a4); }},
      {"cholesky_batched",
       [&] { return fj::jit([](T a) { return fj::linalg::cholesky(a); })(ab); }},
      {"cholesky_upper",
       [&] { return fj::jit([](T a) { return fj::linalg::cholesky(a, true); })(a4); }},
      {"cholesky_not_pd",
       [&] { return fj::jit([](T a) { return fj::linalg::cholesky(a); })(not_pd); }},
      {"lax_cholesky_nosym",
       [&] {
         std::vector<double> t = doubles(a4);  // np.tril(a4): the upper triangle is not read
         for (std::size_t i = 0; i < 16; ++i)
           if (i % 4 > i / 4) t[i] = 0;
         return fj::jit([](T a) { return lax_la::cholesky(a, false); })(
             fj::array(t, fj::Shape{4, 4}));
       }},
      {"ts_left_lower",
       [&] {
         return fj::jit([](T a, T b) { return lax_la::triangular_solve(a, b, true, true); })(l4,
                                                                                             b42);
       }},
      {"ts_left_lower_t",
       [&] {
         return fj::jit([](T a, T b) { return lax_la::triangular_solve(a, b, true, true, true); })(
             l4, b42);
       }},
      {"ts_right_upper",
       [&] { return fj::jit([](T a, T b) { return lax_la::triangular_solve(a, b); })(u4, b24); }},
      {"ts_right_upper_unit_t",
       [&] {
         return fj::jit([](T a, T b) {
           return lax_la::triangular_solve(a, b, false, false, true, false, true);
         })(u4, b24);
       }},
      {"ts_vector",
       [&] {
         return fj::jit([](T a, T b) { return lax_la::triangular_solve(a, b, true, true); })(l4,
                                                                                             b4);
       }},
      {"ts_batched",
       [&] {
         return fj::jit([](T a, T b) { return lax_la::triangular_solve(a, b, true, true); })(
             lower_ab, bb);
       }},
      {"cho_solve",
       [&] {
         return fj::jit([](T a, T b) {
           return fj::scipy::linalg::cho_solve(fj::scipy::linalg::cho_factor(a, true), b);
         })(a4, b42);
       }},
      {"cho_solve_upper_vec",
       [&] {
         return fj::jit([](T a, T b) {
           return fj::scipy::linalg::cho_solve(fj::scipy::linalg::cho_factor(a), b);
         })(a4, b4);
       }},
      {"solve_triangular_t",
       [&] {
         return fj::jit(
             [](T a, T b) { return fj::scipy::linalg::solve_triangular(a, b, 1, true); })(l4, b42);
       }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto lines = kGolden.lines("values " + name);
      const Array out = f();
      const auto shape = numbers(lines[0]);
      REQUIRE(out.shape().rank() == static_cast<int>(shape.size()));
      check_close(doubles(out), numbers(lines[1]), kRel);
    }
    // vmap: cholesky over a batch of matrices; a triangular solve with b batched and a shared
    // (the batch folded into b's columns).
    const Array vc = fj::vmap([](Tracer a) { return Array(fj::linalg::cholesky(a)); })(ab);
    check_close(doubles(vc), numbers(kGolden.lines("values vmap_cholesky")[0]), kRel);
    const Array b341 = fj::reshape(bb, {3, 4, 1});
    const Array vs = fj::vmap(
        [l4](Tracer b) { return Array(lax_la::triangular_solve(l4, b, true, true)); })(b341);
    check_close(doubles(vs), numbers(kGolden.lines("values vmap_ts_b")[0]), kRel);
  }
}

// d/dx sum(w * f(x)): compared with JAX's gradient (the same conditioning bound, 1e-11 for the
// two solves and a product more) and with central differences (h = 1e-6: truncation h^2 |f'''|
// and rounding eps |f| / h, both below 1e-8 of the largest entry for these O(1) functions).
// cholesky's input is perturbed symmetrically (each off-diagonal pair together), the
// derivative JAX's rule defines; the central difference then checks g_ij + g_ji.
TEST_CASE("linalg golden: gradients as JAX's and as central differences") {
  const Array a4 = input("a4"), l4 = input("lower4"), u4 = input("upper4"), b42 = input("b42"),
              b24 = input("b24");
  using F = std::function<Array(Tracer)>;
  struct G {
    F f;
    Array x;
    bool symmetric;
  };
  const std::map<std::string, G> cases = {
      {"cholesky", {[](Tracer a) { return Array(fj::linalg::cholesky(a)); }, a4, true}},
      {"ts_a",
       {[b42](Tracer a) { return Array(lax_la::triangular_solve(a, b42, true, true)); }, l4,
        false}},
      {"ts_b",
       {[l4](Tracer b) { return Array(lax_la::triangular_solve(l4, b, true, true, true)); }, b42,
        false}},
      {"ts_right_a",
       {[b24](Tracer a) {
          return Array(lax_la::triangular_solve(a, b24, false, false, false, false, true));
        },
        u4, false}},
      {"cho_solve_a",
       {[b42](Tracer a) {
          return Array(fj::scipy::linalg::cho_solve(fj::scipy::linalg::cho_factor(a, true), b42));
        },
        a4, true}},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const Array y = fj::jit(c.f)(c.x);
      std::vector<double> wv(static_cast<std::size_t>(y.size()));
      for (std::size_t i = 0; i < wv.size(); ++i) wv[i] = (1.0 + static_cast<double>(i)) / 10;
      const Array w = fj::array(wv, y.shape());
      const F f = c.f;
      auto loss = [f, w](Tracer v) { return fj::sum(w * f(v)); };
      const auto g = doubles(fj::jit(fj::grad(loss))(c.x));
      check_close(g, numbers(kGolden.lines("grad " + name)[0]), 1e-11);
      const auto xs = doubles(c.x);
      const std::int64_t n = c.x.shape()[1];
      for (std::size_t i = 0; i < g.size(); ++i) {
        CAPTURE(i);
        const std::size_t r = i / static_cast<std::size_t>(n), q = i % static_cast<std::size_t>(n);
        const std::size_t t = q * static_cast<std::size_t>(n) + r;  // the mirror entry
        if (c.symmetric && q > r) continue;
        auto at = [&](double d) {
          std::vector<double> v = xs;
          v[i] += d;
          if (c.symmetric && t != i) v[t] += d;
          return fj::jit(loss)(fj::array(v, c.x.shape())).item<double>();
        };
        const double want = c.symmetric && t != i ? g[i] + g[t] : g[i];
        CHECK(std::fabs((at(1e-6) - at(-1e-6)) / 2e-6 - want) <=
              1e-7 * std::max(1.0, std::fabs(want)));
      }
    }
  }
}

// The Gaussian process's negative log marginal likelihood (RBF kernel plus noise; cholesky, two
// triangular solves, the log-determinant from L's diagonal) and its gradient with respect to
// the log hyperparameters. K's condition number is about 1e3 (noise 0.05): 1e-10 relative.
TEST_CASE("linalg golden: Gaussian-process log-likelihood and its gradient as JAX's") {
  const Array x = fj::array(numbers(kGolden.lines("gp x")[0]), fj::Shape{12});
  const Array y = fj::array(numbers(kGolden.lines("gp y")[0]), fj::Shape{12, 1});
  const Array theta = fj::array(numbers(kGolden.lines("gp theta")[0]), fj::Shape{3});
  const Array d2 = fj::jit([](Tracer v) {
    return Array(fj::square(fj::reshape(v, {12, 1}) - fj::reshape(v, {1, 12})));
  })(x);
  const Array eye = fj::eye(12, -1, 0, fj::DType::f64);
  auto nll = [d2, eye, y](Tracer t) {
    const Array ell = fj::exp(t(0)), sf2 = fj::exp(t(1)), sn2 = fj::exp(t(2));
    const Array k = sf2 * fj::exp(-0.5 * d2 / (ell * ell)) + sn2 * eye;
    const Array l = fj::linalg::cholesky(k);
    const Array z = lax_la::triangular_solve(l, y, true, true);
    const Array alpha = lax_la::triangular_solve(l, z, true, true, true);
    const Array logdet = 2.0 * fj::sum(fj::log(fj::sum(l * eye, {1})));
    return Array(0.5 * fj::sum(y * alpha) + 0.5 * logdet + 6.0 * std::log(2 * M_PI));
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check_close({fj::jit(nll)(theta).item<double>()}, numbers(kGolden.lines("gp nll")[0]), 1e-10);
    check_close(doubles(fj::jit(fj::grad(nll))(theta)), numbers(kGolden.lines("gp grad")[0]),
                1e-10);
  }
}

TEST_CASE("linalg golden: jaxpr text") {
  const Array o = fj::ones({3, 3}), ob = fj::ones({2, 3, 3}), r = fj::ones({3, 2}),
              rt = fj::ones({2, 3}), v = fj::ones({3});
  using T = Tracer;
  auto one = [](auto f, const Array& a) { return fj::make_jaxpr(f)(a).str(); };
  auto two = [](auto f, const Array& a, const Array& b) { return fj::make_jaxpr(f)(a, b).str(); };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"cholesky", [&] { return one([](T a) { return fj::linalg::cholesky(a); }, o); }},
      {"cholesky_batched", [&] { return one([](T a) { return fj::linalg::cholesky(a); }, ob); }},
      {"cholesky_upper", [&] { return one([](T a) { return fj::linalg::cholesky(a, true); }, o); }},
      {"lax_cholesky", [&] { return one([](T a) { return lax_la::cholesky(a); }, o); }},
      {"ts",
       [&] {
         return two([](T a, T b) { return lax_la::triangular_solve(a, b, true, true); }, o, r);
       }},
      {"ts_right_unit_t",
       [&] {
         return two(
             [](T a, T b) {
               return lax_la::triangular_solve(a, b, false, false, true, false, true);
             },
             o, rt);
       }},
      {"ts_vector",
       [&] {
         return two([](T a, T b) { return lax_la::triangular_solve(a, b, true, true); }, o, v);
       }},
      {"cho_factor",
       [&] { return one([](T a) { return fj::scipy::linalg::cho_factor(a, true).first; }, o); }},
      {"cho_factor_upper",
       [&] { return one([](T a) { return fj::scipy::linalg::cho_factor(a).first; }, o); }},
      {"cho_solve",
       [&] {
         return two(
             [](T a, T b) {
               return fj::scipy::linalg::cho_solve({Array(a), true}, b);
             },
             o, r);
       }},
      {"cho_solve_vector_upper",
       [&] {
         return two(
             [](T a, T b) {
               return fj::scipy::linalg::cho_solve({Array(a), false}, b);
             },
             o, v);
       }},
      {"solve_triangular",
       [&] {
         return two([](T a, T b) { return fj::scipy::linalg::solve_triangular(a, b, 1, true); }, o,
                    r);
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    auto it = kGolden.all().find("jaxpr " + name);
    REQUIRE(it != kGolden.all().end());
    CHECK(text() == it->second);
  }
}

// cho_solve and solve_triangular over batches, staged as jnp.vectorize's vmaps: b a vector
// shared by every matrix, a matrix shared, batched along a's inner axis, along both, a batch of
// vectors; a shared triangular a; a size-1 batch axis (squeezed, expanded back). Values within
// kRel (the factors' condition numbers are below 30: SPD m m^T + n I, and tril + 3 I), gradients
// against JAX's within 1e-10 relative and central differences.
TEST_CASE("linalg golden: cho_solve and solve_triangular over batches as JAX's") {
  using T = Tracer;
  using F2 = std::function<Array(T, T)>;
  const F2 cho = [](T c, T b) { return Array(fj::scipy::linalg::cho_solve({Array(c), true}, b)); };
  const F2 tri = [](T a, T b) { return Array(fj::scipy::linalg::solve_triangular(a, b, 0, true)); };
  const F2 tri_t = [](T a, T b) {
    return Array(fj::scipy::linalg::solve_triangular(a, b, 1, true));
  };
  const std::vector<std::tuple<std::string, F2, const char*, const char*>> cases = {
      {"cho_solve_c243_v3", cho, "c243", "v3"},
      {"cho_solve_c243_m32", cho, "c243", "m32"},
      {"cho_solve_c243_m432", cho, "c243", "m432"},
      {"cho_solve_c243_m2432", cho, "c243", "m2432"},
      {"cho_solve_c243_v243", cho, "c243", "v243"},
      {"solve_triangular_t43_m2432", tri, "t43", "m2432"},
      {"solve_triangular_t43_m1432", tri_t, "t43", "m1432"},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f, a_name, b_name] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      fusejit_test::check_solve_golden(kGolden, f, input(a_name), input(b_name), name, kRel);
    }
  }
}

TEST_CASE("linalg golden: scipy solves over batches print as JAX's jnp.vectorize") {
  using T = Tracer;
  auto two = [](auto f, fj::Shape a, fj::Shape b) {
    return fj::make_jaxpr(f)(fj::ones(a), fj::ones(b)).str();
  };
  auto cho = [](bool lower) {
    return [lower](T c, T b) { return fj::scipy::linalg::cho_solve({Array(c), lower}, b); };
  };
  auto tri = [](int trans, bool lower, bool unit) {
    return [=](T a, T b) { return fj::scipy::linalg::solve_triangular(a, b, trans, lower, unit); };
  };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"cho_solve_batched",
       [&] {
         return two(cho(true), {2, 3, 3}, {2, 3, 2});
       }},
      {"cho_solve_batched_shared_vector",
       [&] {
         return two(cho(true), {2, 3, 3}, {3});
       }},
      {"cho_solve_batched_shared_b",
       [&] {
         return two(cho(true), {2, 3, 3}, {3, 2});
       }},
      {"cho_solve_batched_vectors_upper",
       [&] {
         return two(cho(false), {2, 3, 3}, {2, 3});
       }},
      {"cho_solve_batch2_inner_b",
       [&] {
         return two(cho(true), {2, 4, 3, 3}, {4, 3, 2});
       }},
      {"solve_triangular_shared_a",
       [&] {
         return two(tri(0, true, false), {3, 3}, {2, 3, 2});
       }},
      {"solve_triangular_batched_vectors",
       [&] {
         return two(tri(1, false, false), {2, 3, 3}, {2, 3});
       }},
      {"solve_triangular_batch2_shared_outer",
       [&] {
         return two(tri(0, true, true), {4, 3, 3}, {2, 4, 3, 2});
       }},
      {"solve_triangular_size1",
       [&] {
         return two(tri(1, true, false), {4, 3, 3}, {1, 4, 3, 2});
       }},
      {"solve_triangular_size1_both",
       [&] {
         return two(tri(0, false, false), {1, 3, 3}, {1, 3, 2});
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    CHECK(text() == kGolden.all().at("jaxpr " + name));
  }
}

TEST_CASE("linalg golden: bad input names the function, the argument and the shapes") {
  using T = Tracer;
  const Array rect = fj::ones({2, 3}), vec = fj::ones({3}), sq = fj::ones({3, 3}),
              b = fj::ones({2, 2});
  CHECK_THROWS_WITH_AS(
      fj::jit([](T a) { return fj::linalg::cholesky(a); })(rect),
      doctest::Contains("fj::linalg::cholesky: argument a must be a (batch of) square matrices, "
                        "got an array of shape (2, 3)"),
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::jit([](T a) { return lax_la::cholesky(a); })(vec),
                       doctest::Contains("fj::lax::linalg::cholesky: argument a"), fj::ShapeError);
  CHECK_THROWS_WITH_AS(
      fj::jit([](T a, T c) { return lax_la::triangular_solve(a, c, true, true); })(sq, b),
      doctest::Contains("fj::lax::linalg::triangular_solve: triangular_solve: incompatible "
                        "shapes a f32[3,3] and b f32[2,2]"),
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(
      fj::jit([](T a, T c) { return lax_la::triangular_solve(a, c, true, true); })(rect, b),
      doctest::Contains("triangular_solve: argument a must be a (batch of) square matrices"),
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::jit([](T a, T c) { return lax_la::triangular_solve(a, c); })(
                           sq, fj::ones({3}, fj::DType::i32)),
                       doctest::Contains("must be float32 or float64"), fj::DTypeError);
}
