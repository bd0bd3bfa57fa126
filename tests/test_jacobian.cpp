// fj::jacfwd, jacrev, jacobian and hessian against JAX 0.10.2 (tests/golden/jacobian_goldens.txt,
// printed by tests/golden/jacobian_goldens.py): values, shapes and structures with pytrees,
// several argnums and has_aux, on every backend; central differences in f64 as an independent
// reference; composition with jit and vmap; bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_close.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"jacobian_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// The Jacobians' entries are short sums of products of f64 transcendentals (JAX's and
// fusejit's math libraries agree within 1 ulp on each) that the two systems may associate
// differently: each entry within 16 ulps of the largest entry of its block, or of `floor` where
// an entry is a difference of terms near `floor` (tanh's 1 - y^2 near |y| = 1, times x).
void check_leaves(const std::vector<Array>& got, const std::string& section, double floor = 0) {
  for (std::size_t k = 0; k < got.size(); ++k)
    fusejit_test::check_close_to_golden(kGolden, got[k], section + " " + std::to_string(k), 16,
                                        floor);
  CHECK(kGolden.all().count(section + " " + std::to_string(got.size())) == 0);  // none left out
}

template <class T>
std::vector<Array> leaves(const T& tree) {
  std::vector<Array> r;
  fj::detail::pytree::for_each_leaf(tree, [&](const Array& a) { r.push_back(a); });
  return r;
}

Array f_vec(Tracer x) { return fj::sin(x) * fj::sum(x * x); }
Array f_two(Tracer x, Tracer y) { return fj::outer(fj::cos(y), x) * fj::sum(y); }
std::tuple<Array, Array> f_tree_out(Tracer x) { return {x * x, fj::sum(fj::exp(x))}; }
Array f_tree_in(const std::map<std::string, Array>& d) {
  return fj::sum(d.at("a") * d.at("a")) * d.at("b") + fj::log1p(d.at("b") * d.at("b"));
}
std::pair<Array, Array> f_aux(Tracer x) { return {fj::sin(x) * 2.0, fj::sum(x)}; }
Array f_scalar(Tracer x) { return fj::sum(x * x * x * fj::sin(x)); }
Array f_scalar2(Tracer x, Tracer y) {
  return fj::sum(fj::exp(x)) * fj::sum(y * y) + fj::dot(fj::slice(x, {0}, {2}), y);
}

}  // namespace

TEST_CASE("jacfwd and jacrev golden: values, shapes and structures as JAX's on every backend") {
  const Array x = input("x"), y = input("y"), w = input("w");
  auto f_mat = [x](Tracer m) { return Array(fj::tanh(fj::matmul(m, x))); };
  const std::map<std::string, Array> d{{"a", x}, {"b", y}};
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    auto run = [&](auto jac, const std::string& mode) {
      check_leaves({jac(f_vec)(x)}, mode + " vec");
      check_leaves({jac(f_mat)(w)}, mode + " mat", 2.0);  // max |x|: (1 - tanh^2) x
      check_leaves(leaves(jac(f_two, fj::argnums{0, 1})(x, y)), mode + " two");
      check_leaves({jac(f_two, fj::argnums{1})(x, y)}, mode + " two1");
      check_leaves(leaves(jac(f_tree_out)(x)), mode + " tree_out");
      const std::map<std::string, Array> jd = jac(f_tree_in)(d);
      check_leaves(leaves(jd), mode + " tree_in");
      CHECK(jd.at("a").shape() == fj::Shape{2, 3});
      CHECK(jd.at("b").shape() == fj::Shape{2, 2});
      const auto [j, aux] = jac(f_aux, fj::has_aux)(x);
      check_leaves({j, aux}, mode + " aux");
    };
    run([](auto f, auto... o) { return fj::jacfwd(f, o...); }, "fwd");
    run([](auto f, auto... o) { return fj::jacrev(f, o...); }, "rev");
    run([](auto f, auto... o) { return fj::jacobian(f, o...); }, "rev");
    check_leaves({fj::hessian(f_scalar)(x)}, "hessian scalar");
    check_leaves(leaves(fj::hessian(f_scalar2, fj::argnums{0, 1})(x, y)), "hessian two");
    const auto [h, aux] = fj::hessian(
        [](Tracer v) { return std::make_pair(f_scalar(v), Array(v * 2.0)); }, fj::has_aux)(x);
    check_leaves({h, aux}, "hessian aux");
  }
}

TEST_CASE("jacfwd and jacrev agree with central differences in f64") {
  // Central differences of step h err by h^2 |f'''| / 6 (about 1e-11 here) plus rounding
  // eps |f| / h (about 1e-10): 1e-8 relative to the block's scale leaves a wide margin, and a
  // transposed or misplaced block is off by O(1).
  const Array x = input("x");
  const double h = 1e-5;
  const std::vector<double> xv = fusejit_test::as_doubles(x);
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const std::vector<double> fwd = fusejit_test::as_doubles(fj::jacfwd(f_vec)(x));
    const std::vector<double> rev = fusejit_test::as_doubles(fj::jacrev(f_vec)(x));
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<double> up = xv, dn = xv;
      up[k] += h, dn[k] -= h;
      const auto fu = fusejit_test::as_doubles(f_vec(fj::array(up, fj::Shape{3})));
      const auto fd = fusejit_test::as_doubles(f_vec(fj::array(dn, fj::Shape{3})));
      for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CAPTURE(k);
        const double want = (fu[i] - fd[i]) / (2 * h);
        CHECK(std::abs(fwd[i * 3 + k] - want) <= 1e-8 * 10);
        CHECK(std::abs(rev[i * 3 + k] - want) <= 1e-8 * 10);
      }
    }
  }
}

TEST_CASE("hessian agrees with central differences of the gradient in f64") {
  // d/dx_k of grad f by central differences (h = 1e-5): truncation h^2 |f''''| / 6 plus rounding
  // eps |grad f| / h, about 1e-10 here; 1e-7 absolute leaves a wide margin. sum(x^3 sin x) has a
  // diagonal Hessian with entries of order 1-10, so a misplaced entry is off by O(1).
  const Array x = input("x");
  const std::vector<double> xv = fusejit_test::as_doubles(x);
  const double h = 1e-5;
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const std::vector<double> hs = fusejit_test::as_doubles(fj::hessian(f_scalar)(x));
    REQUIRE(hs.size() == 9);
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<double> up = xv, dn = xv;
      up[k] += h, dn[k] -= h;
      const auto gu = fusejit_test::as_doubles(fj::grad(f_scalar)(fj::array(up, fj::Shape{3})));
      const auto gd = fusejit_test::as_doubles(fj::grad(f_scalar)(fj::array(dn, fj::Shape{3})));
      for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CAPTURE(k);
        CHECK(std::abs(hs[i * 3 + k] - (gu[i] - gd[i]) / (2 * h)) <= 1e-7);
      }
    }
  }
}

TEST_CASE("jacobians compose with jit and vmap, and run inside other traces") {
  const Array x = input("x");
  const Array want = fj::jacrev(f_vec)(x);
  auto jitted = fj::jit([](Tracer v) { return fj::jacfwd(f_vec)(v) * 2.0; });
  const auto got = fusejit_test::as_doubles(jitted(x));
  const auto ref = fusejit_test::as_doubles(want);
  for (std::size_t i = 0; i < ref.size(); ++i) CHECK(got[i] == doctest::Approx(2 * ref[i]));
  // A batch of Jacobians: vmap over rows of a matrix of points.
  const Array pts = fj::stack({x, x * 0.5});
  const Array batch = fj::vmap(fj::jacrev(f_vec))(pts);
  CHECK(batch.shape() == fj::Shape{2, 3, 3});
  const auto second = fusejit_test::as_doubles(fj::jacfwd(f_vec)(Array(x * 0.5)));
  const auto b = fusejit_test::as_doubles(batch);
  for (std::size_t i = 0; i < 9; ++i) CHECK(b[9 + i] == doctest::Approx(second[i]));
  // f32 in, f32 out.
  const Array j32 = fj::jacfwd(f_vec)(x.astype(fj::f32));
  CHECK(j32.dtype() == fj::f32);
  CHECK(j32.shape() == fj::Shape{3, 3});
}

TEST_CASE("jacobians: bad input raises the error JAX raises, naming the function") {
  const Array x = input("x");
  fusejit_test::check_throws_with<fj::DTypeError>(
      [&] {
        (void)fj::jacfwd(f_vec)(fj::array(std::vector<int>{1, 2, 3}, fj::Shape{3}));
      },
      {"fj::jacfwd", "argument 0", "int32", "floating"});
  fusejit_test::check_throws_with<fj::DTypeError>(
      [&] { (void)fj::jacrev([](Tracer v) { return Array(fj::floor(v).astype(fj::i32)); })(x); },
      {"fj::jacrev", "output 0", "i32[3]", "real-valued outputs"});
  fusejit_test::check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::jacfwd(f_two, fj::argnums{0, 2})(x, x);
      },
      {"fj::jacfwd", "argnums entry 2", "2 arguments"});
}
