// jax.nn's functions, jnp.var/std and jnp.linalg.norm against JAX 0.10.2
// (tests/golden/nn_goldens.txt, printed by tests/golden/nn_goldens.py): jaxpr text byte for byte,
// f64 values and gradients against JAX's, gradients against central differences, the -inf cases
// of softmax and logsumexp, and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"nn_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;
Array mat(const std::vector<double>& v) { return fj::array(v, fj::Shape{2, 3}); }
constexpr auto values = fusejit_test::as_doubles;

using Fn = std::function<Array(Tracer)>;

// fusejit's spelling of each golden case (the first result where JAX returns two).
const std::map<std::string, Fn>& functions() {
  namespace nn = fj::nn;
  static const std::map<std::string, Fn> m = {
      {"relu", [](Tracer x) { return Array(nn::relu(x)); }},
      {"softplus", [](Tracer x) { return Array(nn::softplus(x)); }},
      {"gelu", [](Tracer x) { return Array(nn::gelu(x)); }},
      {"gelu_exact", [](Tracer x) { return Array(nn::gelu(x, false)); }},
      {"silu", [](Tracer x) { return Array(nn::silu(x)); }},
      {"sigmoid", [](Tracer x) { return Array(nn::sigmoid(x)); }},
      {"log_softmax", [](Tracer x) { return Array(nn::log_softmax(x)); }},
      {"log_softmax_axis0", [](Tracer x) { return Array(nn::log_softmax(x, 0)); }},
      {"softmax", [](Tracer x) { return Array(nn::softmax(x)); }},
      {"softmax_axis0", [](Tracer x) { return Array(nn::softmax(x, 0)); }},
      {"softmax_all", [](Tracer x) { return Array(nn::softmax(x, fj::none)); }},
      {"logsumexp", [](Tracer x) { return Array(nn::logsumexp(x)); }},
      {"logsumexp_axis1_keepdims", [](Tracer x) { return Array(nn::logsumexp(x, 1, true)); }},
      {"logsumexp_b", [](Tracer x) { return Array(nn::logsumexp(x, x + 2, 1)); }},
      {"logsumexp_b_sign", [](Tracer x) { return std::get<0>(nn::logsumexp_with_sign(x, x)); }},
      {"logaddexp", [](Tracer x) { return Array(fj::logaddexp(x, 1.0)); }},
      {"logaddexp2", [](Tracer x) { return Array(fj::logaddexp2(x, x(0))); }},
      {"var", [](Tracer x) { return Array(fj::var(x)); }},
      {"var_axis1_ddof1", [](Tracer x) { return Array(fj::var(x, 1, 1)); }},
      {"std", [](Tracer x) { return Array(fj::std(x)); }},
      {"std_axis1_ddof1_keepdims", [](Tracer x) { return Array(fj::std(x, 1, 1, true)); }},
      {"norm", [](Tracer x) { return Array(fj::linalg::norm(x)); }},
      {"norm_axis1", [](Tracer x) { return Array(fj::linalg::norm(x, fj::none, 1)); }},
      {"norm_ord1_axis1", [](Tracer x) { return Array(fj::linalg::norm(x, 1, 1)); }},
      {"norm_inf_axis1", [](Tracer x) { return Array(fj::linalg::norm(x, INFINITY, 1)); }},
      {"norm_neginf_axis1", [](Tracer x) { return Array(fj::linalg::norm(x, -INFINITY, 1)); }},
      {"norm_ord0_axis1", [](Tracer x) { return Array(fj::linalg::norm(x, 0, 1)); }},
      {"norm_ord3_axis0_keepdims", [](Tracer x) { return Array(fj::linalg::norm(x, 3, 0, true)); }},
      {"norm_fro",
       [](Tracer x) {
         return Array(fj::linalg::norm(x, "fro", {0, 1}));
       }},
      {"norm_mat1",
       [](Tracer x) {
         return Array(fj::linalg::norm(x, 1, {0, 1}));
       }},
      {"norm_matinf",
       [](Tracer x) {
         return Array(fj::linalg::norm(x, INFINITY, {0, 1}));
       }},
      {"norm_matneg1",
       [](Tracer x) {
         return Array(fj::linalg::norm(x, -1, {0, 1}));
       }},
      {"norm_matneginf",
       [](Tracer x) {
         return Array(fj::linalg::norm(x, -INFINITY, {0, 1}));
       }},
  };
  return m;
}

std::vector<const char*> backends() {
  std::vector<const char*> b{"reference"};
  if (fusejit_test::has_backend("llvm")) b.push_back("llvm");
  return b;
}

// f64 results of a few roundings each (the transcendentals within 2-4 ulps): 1e-13 relative,
// or absolute below 1; NaN only where JAX has NaN, infinities equal.
bool close(double got, double want, double tol = 1e-13) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

const std::vector<double>& input(const std::string& which) {
  static std::map<std::string, std::vector<double>> m;
  auto& v = m[which];
  if (v.empty()) v = numbers(kGolden.lines("input " + which)[0]);
  return v;
}

// sum(f(x) * w) with w's first elements in f(x)'s shape: the scalar the goldens differentiate.
Fn weighted(const Fn& f, const Array& x0) {
  const Array y = fj::jit(f)(x0);
  std::vector<double> w(input("w").begin(), input("w").begin() + y.size());
  const Array wa = fj::array(w, y.shape());
  return [f, wa](Tracer x) { return Array(fj::sum(f(x) * wa)); };
}

// Points where the function is not differentiable (|x| or max at 0), or where JAX's
// formulation is not (logsumexp masks a zero weight b = x to -inf, so its derivative there is
// 0): no central difference.
bool kink_at_zero(const std::string& fn) {
  return fn == "relu" || fn == "logsumexp_b_sign" || fn == "norm_ord1_axis1" ||
         fn == "norm_neginf_axis1" || fn.rfind("norm_mat", 0) == 0;
}

}  // namespace

TEST_CASE("nn golden: jaxpr text") {
  const Array x = fj::zeros({2, 3});
  const Array i = fj::zeros({4}, fj::i32);
  for (const auto& [name, text] : kGolden.all()) {
    if (name.rfind("jaxpr ", 0) != 0) continue;
    const std::string fn = name.substr(6);
    CAPTURE(fn);
    std::string got;
    if (fn == "one_hot")
      got = fj::make_jaxpr([](Tracer v) { return Array(fj::nn::one_hot(v, 3)); })(i).str();
    else if (fn == "one_hot_axis0")
      got = fj::make_jaxpr([](Tracer v) { return Array(fj::nn::one_hot(v, 3, fj::f32, 0)); })(i)
                .str();
    else if (fn == "relu_int")
      got = fj::make_jaxpr([](Tracer v) { return Array(fj::nn::relu(v)); })(i).str();
    else if (fn == "softplus_int")
      got = fj::make_jaxpr([](Tracer v) { return Array(fj::nn::softplus(v)); })(i).str();
    else if (fn == "logsumexp_b_sign")
      got = fj::make_jaxpr([](Tracer v) { return fj::nn::logsumexp_with_sign(v, v); })(x).str();
    else
      got = fj::make_jaxpr(functions().at(fn))(x).str();
    CHECK(got == text);
  }
}

TEST_CASE("nn golden: f64 values against JAX") {
  const Array x = mat(input("x"));
  for (const std::string backend : backends()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (const auto& [fn, f] : functions()) {
      CAPTURE(fn);
      const auto lines = kGolden.lines("values " + fn);
      const auto got = values(fj::jit(f)(x));
      const auto want = numbers(lines[0]);
      REQUIRE(got.size() == want.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        CAPTURE(got[k]);
        CAPTURE(want[k]);
        CHECK(close(got[k], want[k]));
      }
    }
    // return_sign's second result.
    const auto sign = std::get<1>(fj::nn::logsumexp_with_sign(x, x));
    CHECK(values(sign) == numbers(kGolden.lines("values logsumexp_b_sign")[1]));
  }
}

TEST_CASE("nn golden: gradients against JAX and central differences") {
  const Array x = mat(input("x"));
  for (const std::string backend : backends()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (const auto& [fn, f] : functions()) {
      if (!kGolden.all().count("grad " + fn)) continue;
      CAPTURE(fn);
      const Fn g = weighted(f, x);
      const auto got = values(fj::jit(fj::grad(g))(x));
      const auto want = numbers(kGolden.lines("grad " + fn)[0]);
      const auto& xv = input("x");
      for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        CAPTURE(got[k]);
        CAPTURE(want[k]);
        CHECK(close(got[k], want[k], 1e-12));
        if (xv[k] == 0 && kink_at_zero(fn)) continue;
        // Central difference, h = 1e-6: truncation and rounding both well below 1e-6.
        const double h = 1e-6;
        auto at = [&](double d) {
          std::vector<double> p = xv;
          p[k] += d;
          return values(fj::jit(g)(mat(p)))[0];
        };
        const double fd = (at(h) - at(-h)) / (2 * h);
        CAPTURE(fd);
        CHECK(std::fabs(got[k] - fd) <= 1e-6 * std::max(1.0, std::fabs(fd)));
      }
    }
  }
}

// Values and gradients at the golden input `in` (infinite entries) against the sections
// "values_<suffix> fn" and "grad_<suffix> fn", on each backend.
void check_infinite_inputs(const std::string& in, const std::string& suffix,
                           const std::vector<std::string>& fns) {
  const Array x = mat(input(in));
  for (const std::string backend : backends()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (const std::string& fn : fns) {
      CAPTURE(fn);
      const Fn& f = functions().at(fn);
      const auto v = values(fj::jit(f)(x));
      const auto g = values(fj::jit(fj::grad(weighted(f, x)))(x));
      const auto wv = numbers(kGolden.lines("values_" + suffix + " " + fn)[0]);
      const auto wg = numbers(kGolden.lines("grad_" + suffix + " " + fn)[0]);
      for (std::size_t k = 0; k < v.size(); ++k) CHECK(close(v[k], wv[k]));
      for (std::size_t k = 0; k < g.size(); ++k) {
        CAPTURE(k);
        CAPTURE(g[k]);
        CAPTURE(wg[k]);
        CHECK(close(g[k], wg[k], 1e-12));
      }
    }
  }
}

TEST_CASE("nn golden: -inf inputs keep softmax, logsumexp and softplus finite where JAX's are") {
  check_infinite_inputs("x_inf", "inf",
                        {"softmax", "log_softmax", "logsumexp", "softplus", "logaddexp", "relu"});
}

TEST_CASE("nn golden: +inf inputs give logaddexp and softplus JAX's derivative 1, not NaN") {
  check_infinite_inputs("x_pinf", "pinf", {"logaddexp", "softplus"});
}

TEST_CASE("nn golden: norm gradients at zero as JAX's (NaN for the 2-norm)") {
  const Array z = fj::zeros({2, 3}, fj::f64);
  for (const std::string fn : {"norm", "norm_ord1_axis1", "norm_inf_axis1"}) {
    CAPTURE(fn);
    const auto g = values(fj::jit(fj::grad(weighted(functions().at(fn), z)))(z));
    const auto want = numbers(kGolden.lines("grad_zero " + fn)[0]);
    for (std::size_t k = 0; k < g.size(); ++k) {
      CAPTURE(k);
      CAPTURE(g[k]);
      CAPTURE(want[k]);
      CHECK(close(g[k], want[k]));
    }
  }
}

TEST_CASE("nn golden: one_hot values") {
  const Array idx = fj::array(std::vector<std::int32_t>{0, 2, -1, 3}, fj::Shape{4});
  CHECK(values(fj::astype(fj::nn::one_hot(idx, 3, fj::f64), fj::f64)) ==
        numbers(kGolden.lines("values one_hot")[0]));
  CHECK(values(fj::astype(fj::nn::one_hot(idx, 3, fj::f64, 0), fj::f64)) ==
        numbers(kGolden.lines("values one_hot_axis0")[0]));
}

TEST_CASE("nn: an axis out of range names the function, the axis and the shape") {
  const Array x = fj::zeros({2, 3});
  auto bad = [&](auto f, const char* fn) {
    CAPTURE(fn);
    CHECK_THROWS_WITH_AS(fj::make_jaxpr(f)(x), doctest::Contains(fn), fj::ShapeError);
    CHECK_THROWS_WITH_AS(fj::make_jaxpr(f)(x), doctest::Contains("axis 2"), fj::ShapeError);
    CHECK_THROWS_WITH_AS(fj::make_jaxpr(f)(x), doctest::Contains("(2, 3)"), fj::ShapeError);
  };
  bad([](Tracer v) { return Array(fj::nn::softmax(v, 2)); }, "fj::nn::softmax");
  bad([](Tracer v) { return Array(fj::nn::log_softmax(v, 2)); }, "fj::nn::log_softmax");
  bad([](Tracer v) { return Array(fj::nn::logsumexp(v, 2)); }, "fj::nn::logsumexp");
  bad([](Tracer v) { return Array(fj::var(v, 2)); }, "fj::var");
  bad([](Tracer v) { return Array(fj::std(v, 2)); }, "fj::std");
  bad([](Tracer v) { return Array(fj::linalg::norm(v, 1, 2)); }, "fj::linalg::norm");
  CHECK_THROWS_AS(fj::make_jaxpr([](Tracer v) { return Array(fj::nn::one_hot(v, 3, fj::f32, 3)); })(
                      fj::zeros({4}, fj::i32)),
                  fj::ShapeError);
}

// The matrix orders 2, -2 and "nuc" (singular values): tests/test_linalg_spectral.cpp.
TEST_CASE("nn: invalid matrix norms raise") {
  const Array x = fj::ones({2, 3});
  CHECK_THROWS_AS(Array(fj::linalg::norm(x, "bad", {0, 1})), fj::ValueError);
  CHECK_THROWS_AS(Array(fj::linalg::norm(x, 1, {0, 1, 1})), fj::ShapeError);
}
