// The cumulative reductions, sort, argsort and top_k against JAX 0.10.2
// (tests/golden/sort_goldens.txt, printed by tests/golden/sort_goldens.py): jaxpr text byte for
// byte, values bit for bit on inputs with NaNs of both signs, signed zeros and ties (integer-
// valued, so that every sum and product is exact in any order), gradients of weighted sums
// (JAX's and central differences), and cumprod's, cummax's and cummin's JVP, gradient, vmap of
// gradient and second derivative through JAX's associative scan, on both backends.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"sort_goldens.txt"};
constexpr auto numbers = fusejit_test::golden_numbers;
using fusejit_test::as_doubles;
// Bit-equal doubles, NaN's sign included (a sort moves the operand's own bits).
// nan_sign_matters is false for cummax/cummin: which of two NaNs a max or min returns is
// left open by IEEE 754 (and XLA's answer depends on its scan tree and its CPU lowering of
// llvm.maximum), so there only NaN-ness is compared; sort and top_k order NaNs by sign.
bool same_bits(double a, double b, bool nan_sign_matters = true) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) &&
           (!nan_sign_matters || std::signbit(a) == std::signbit(b));
  return a == b && std::signbit(a) == std::signbit(b);
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
Array m() {
  return fj::array(std::vector<double>{3, -1, 2, 0, 5, 1, 4, -2, 7, 1, 0, 2, 2, -3, 6},
                   fj::Shape{3, 5});
}
Array special() {
  return fj::array(std::vector<double>{0.0, -0.0, kNaN, -kNaN, 1, -1, -0.0, 0.0, 2, 2, -kInf, kInf,
                                       kNaN, 2, -2, 2},
                   fj::Shape{2, 8});
}
Array ints() {
  return fj::array(std::vector<std::int32_t>{3, -1, 2, 0, 1, 4, -2, 7}, fj::Shape{2, 4});
}

using Fn = std::function<Array(Tracer)>;
struct Case {
  Fn f;
  Array (*input)();
};
const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> c = {
      {"cumsum_axis1", {[](Tracer v) { return Array(fj::cumsum(v, 1)); }, m}},
      {"cumsum_flat", {[](Tracer v) { return Array(fj::cumsum(v)); }, m}},
      {"cumsum_int", {[](Tracer v) { return Array(fj::cumsum(v, 0)); }, ints}},
      {"cumsum_bool", {[](Tracer v) { return Array(fj::cumsum(v > 0, 1)); }, m}},
      {"lax_cumsum_rev", {[](Tracer v) { return Array(fj::lax::cumsum(v, 0, true)); }, m}},
      {"cumprod_axis0", {[](Tracer v) { return Array(fj::cumprod(v, 0)); }, m}},
      {"lax_cummax", {[](Tracer v) { return Array(fj::lax::cummax(v, 1)); }, special}},
      {"lax_cummin_rev", {[](Tracer v) { return Array(fj::lax::cummin(v, 1, true)); }, special}},
      {"lax_cumprod_int_rev", {[](Tracer v) { return Array(fj::lax::cumprod(v, 1, true)); }, ints}},
      {"sort", {[](Tracer v) { return Array(fj::sort(v)); }, special}},
      {"sort_axis0", {[](Tracer v) { return Array(fj::sort(v, 0)); }, m}},
      {"sort_desc", {[](Tracer v) { return Array(fj::sort(v, -1, true, true)); }, special}},
      {"sort_flat", {[](Tracer v) { return Array(fj::sort(v, std::nullopt)); }, m}},
      {"sort_int", {[](Tracer v) { return Array(fj::sort(v)); }, ints}},
      {"argsort", {[](Tracer v) { return Array(fj::argsort(v)); }, special}},
      {"argsort_desc", {[](Tracer v) { return Array(fj::argsort(v, -1, true, true)); }, special}},
      {"argsort_axis0", {[](Tracer v) { return Array(fj::argsort(v, 0)); }, m}},
      {"top_k_values", {[](Tracer v) { return fj::lax::top_k(v, 5)[0]; }, special}},
      {"top_k_indices", {[](Tracer v) { return fj::lax::top_k(v, 5)[1]; }, special}},
  };
  return c;
}

}  // namespace

TEST_CASE("sort golden: values bit for bit, NaNs, signed zeros and ties as JAX orders them") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, c] : cases()) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto [got, want] =
          fusejit_test::golden_values(fj::jit(c.f)(c.input()), kGolden.lines("values " + name));
      for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CAPTURE(got[i]);
        CAPTURE(want[i]);
        CHECK(same_bits(
            got[i], want[i],
            name.find("cummax") == std::string::npos && name.find("cummin") == std::string::npos));
      }
    }
  }
}

// d/dx sum(w * f(x)): a permutation (sort, top_k) or a prefix sum of the weights, so every
// entry is a sum of at most 15 small integers: exact, compared bit for bit with JAX's. The
// central differences (h = 1e-6, f piecewise linear away from ties) agree to 1e-6.
TEST_CASE("sort golden: gradients of sort, cumsum and top_k as JAX's") {
  const auto in = kGolden.lines("grad_input");
  const Array x = fj::array(numbers(in[1]), fj::Shape{3, 5});
  const std::map<std::string, Fn> fns = {
      {"sort", [](Tracer v) { return Array(fj::sort(v, 1)); }},
      {"sort_axis0_desc", [](Tracer v) { return Array(fj::sort(v, 0, true, true)); }},
      {"cumsum", [](Tracer v) { return Array(fj::cumsum(v, 1)); }},
      {"lax_cumsum_rev", [](Tracer v) { return Array(fj::lax::cumsum(v, 0, true)); }},
      {"top_k", [](Tracer v) { return fj::lax::top_k(v, 3)[0]; }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f] : fns) {
      CAPTURE(backend);
      CAPTURE(name);
      // x[1] == x[3] tie: sort and top_k are not differentiable there (JAX picks one side).
      const bool ties = name == "sort" || name == "top_k";
      fusejit_test::check_weighted_grad(
          f, x, numbers(kGolden.lines("grad " + name)[0]),
          [ties](std::size_t i) { return ties && (i == 1 || i == 3); });
    }
  }
}

TEST_CASE("sort golden: jaxpr text") {
  const Array o = fj::ones({2, 3});
  const std::map<std::string, std::function<std::string()>> texts = {
      {"cumsum",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::cumsum(v, 1); })(o).str(); }},
      {"cumsum_flat",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::cumsum(v); })(o).str(); }},
      {"cumsum_bool",
       [&] {
         return fj::make_jaxpr([](Tracer v) { return fj::cumsum(v, 1); })(Array(o > 0)).str();
       }},
      {"lax_cumsum_rev",
       [&] {
         return fj::make_jaxpr([](Tracer v) { return fj::lax::cumsum(v, 0, true); })(o).str();
       }},
      {"cumprod",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::cumprod(v, 0); })(o).str(); }},
      {"lax_cummax",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::lax::cummax(v, 1); })(o).str(); }},
      {"lax_cummin_rev",
       [&] {
         return fj::make_jaxpr([](Tracer v) { return fj::lax::cummin(v, 1, true); })(o).str();
       }},
      {"sort", [&] { return fj::make_jaxpr([](Tracer v) { return fj::sort(v); })(o).str(); }},
      {"sort_axis0",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::sort(v, 0); })(o).str(); }},
      {"sort_desc",
       [&] {
         return fj::make_jaxpr([](Tracer v) { return fj::sort(v, -1, true, true); })(o).str();
       }},
      {"sort_unstable",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::sort(v, -1, false); })(o).str(); }},
      {"argsort", [&] { return fj::make_jaxpr([](Tracer v) { return fj::argsort(v); })(o).str(); }},
      {"argsort_desc",
       [&] {
         return fj::make_jaxpr([](Tracer v) { return fj::argsort(v, -1, true, true); })(o).str();
       }},
      {"argsort_axis0",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::argsort(v, 0); })(o).str(); }},
      {"top_k",
       [&] { return fj::make_jaxpr([](Tracer v) { return fj::lax::top_k(v, 2); })(o).str(); }},
      {"lax_sort_2",
       [&] {
         return fj::make_jaxpr([](Tracer v) {
                  return fj::lax::sort({v, Array(v * 2)}, 0, true, 1);
                })(o)
             .str();
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    auto it = kGolden.all().find("jaxpr " + name);
    REQUIRE(it != kGolden.all().end());
    CHECK(text() == it->second);
  }
}

TEST_CASE("sort golden: bad input names the function, the axis and the shape") {
  const Array x = fj::ones({2, 3});
  CHECK_THROWS_WITH_AS(
      fj::jit([](Tracer v) { return fj::cumsum(v, 2); })(x),
      doctest::Contains("fj::cumsum: axis 2 is out of range for an array of shape (2, 3)"),
      fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::jit([](Tracer v) { return fj::sort(v, -3); })(x),
                       doctest::Contains("fj::sort: axis -3"), fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::lax::top_k(x, 4), doctest::Contains("k=4"), fj::ValueError);
  CHECK_THROWS_WITH_AS(fj::jit([](Tracer v) { return fj::lax::cumsum(v > 0, 0); })(x),
                       doctest::Contains("cumsum: does not accept dtype bool"), fj::DTypeError);
}

// cumprod, cummax and cummin differentiated as JAX does, through their associative scan (the
// cases of sort_goldens.py: each length's parity at each level of the recursion, both axes,
// reverse, f32 and f64, a zero in cumprod's input, ties in cummax's and cummin's).
namespace {

struct CumCase {
  std::string prim;
  fj::Shape shape;
  int axis;
  bool reverse;
  bool f32;
  std::string name() const {
    return prim + "_n" + std::to_string(shape[axis]) + "_axis" + std::to_string(axis) +
           (reverse ? "_rev" : "") + (f32 ? "_float32" : "_float64");
  }
  Fn f() const {
    const int a = axis;
    const bool r = reverse;
    if (prim == "cumprod") return [=](Tracer v) { return Array(fj::lax::cumprod(v, a, r)); };
    if (prim == "cummax") return [=](Tracer v) { return Array(fj::lax::cummax(v, a, r)); };
    return [=](Tracer v) { return Array(fj::lax::cummin(v, a, r)); };
  }
};
std::vector<CumCase> cum_cases() {
  const std::vector<std::tuple<fj::Shape, int, bool, bool>> shapes = {
      {{1, 3}, 0, false, false}, {{3, 2}, 1, true, false},   {{5, 3}, 0, false, false},
      {{2, 8}, 1, true, false},  {{2, 13}, 1, false, false}, {{13, 2}, 0, true, true},
      {{3, 8}, 1, false, true},  {{5, 2}, 0, true, true}};
  std::vector<CumCase> c;
  for (const char* prim : {"cumprod", "cummax", "cummin"})
    for (const auto& [shape, axis, reverse, f32] : shapes)
      c.push_back({prim, shape, axis, reverse, f32});
  return c;
}
// The case's golden section as an array of its dtype (the file holds exact f32 values for f32).
Array cum_golden(const std::string& section, const CumCase& c) {
  const Array a = fj::array(numbers(kGolden.lines(section + " " + c.name()).back()), c.shape);
  return c.f32 ? Array(a.astype(fj::f32)) : a;
}
// Relative to max(1, |JAX's|). The reference backend evaluates the scan's equations as XLA
// does, one rounding each: bit for bit. cummax's and cummin's derivatives are sums of halved
// weights, exact in any order: bit for bit too. The LLVM backend fuses cumprod's tangent
// terms (t_a * b + a * t_b) into multiply-adds: up to 6e-15 (f64) and 7e-7 (f32) seen on
// these cases, from cancellation in the weighted sums.
double cum_tol(const CumCase& c, const std::string& backend) {
  if (backend == "reference" || c.prim != "cumprod") return 0;
  return c.f32 ? 1e-5 : 1e-13;
}
// The weights 1, 2, ... of the golden gradients' sum(w * f(x)), f64.
Array weights(const fj::Shape& s) {
  std::vector<double> w(static_cast<std::size_t>(s.size()));
  std::iota(w.begin(), w.end(), 1.0);
  return fj::array(w, s);
}

}  // namespace

// The JVP's tangent and the weighted gradient against JAX's; in f64 the gradient also against
// central differences, except at the tied elements (there it is JAX's even split, not a
// derivative).
TEST_CASE("sort golden: jvp and grad of cumprod, cummax and cummin as JAX's") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const CumCase& c : cum_cases()) {
      CAPTURE(backend);
      CAPTURE(c.name());
      const Array x = cum_golden("input", c), t = cum_golden("tangent", c);
      const double tol = cum_tol(c, backend);
      const auto [y, ty] = fj::jvp(c.f(), std::array<Array, 1>{x}, std::array<Array, 1>{t});
      CHECK(ty.dtype() == x.dtype());
      CHECK(ty.shape() == x.shape());
      const auto tv = as_doubles(ty), twant = numbers(kGolden.lines("cumjvp " + c.name())[0]);
      REQUIRE(tv.size() == twant.size());
      for (std::size_t i = 0; i < tv.size(); ++i) {
        CAPTURE(i);
        CHECK(std::fabs(tv[i] - twant[i]) <= tol * std::max(1.0, std::fabs(twant[i])));
      }
      const auto gwant = numbers(kGolden.lines("cumgrad " + c.name())[0]);
      if (!c.f32) {
        const auto xs = as_doubles(x);
        fusejit_test::check_weighted_grad(
            c.f(), x, gwant,
            [&](std::size_t i) {
              return c.prim != "cumprod" && std::count(xs.begin(), xs.end(), xs[i]) > 1;
            },
            tol);
        continue;
      }
      const Array wm = weights(c.shape).astype(fj::f32);
      const Fn f = c.f();
      const auto g = as_doubles(fj::jit(fj::grad([&](Tracer v) { return fj::sum(wm * f(v)); }))(x));
      REQUIRE(g.size() == gwant.size());
      for (std::size_t i = 0; i < g.size(); ++i) {
        CAPTURE(i);
        CHECK(std::fabs(g[i] - gwant[i]) <= tol * std::max(1.0, std::fabs(gwant[i])));
      }
    }
  }
}

// vmap of grad: the (2, 13) cases along axis 1 as a batch of rows, each row's gradient of
// sum(w_row * f(row)) with its own weights; together they are the 2-D case's gradient. And
// grad of grad (the VJP's own equations differentiated): d/dx <grad(sum(w * f))(x), t>.
TEST_CASE("sort golden: vmap of grad, and grad of grad, of cumprod, cummax and cummin") {
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const CumCase& c : cum_cases()) {
      if (c.shape[1] != 13) continue;
      CAPTURE(backend);
      CAPTURE(c.name());
      const Array x = cum_golden("input", c), t = cum_golden("tangent", c);
      const Array w = weights(c.shape);
      const CumCase row{c.prim, fj::Shape{13}, 0, c.reverse, false};
      const Fn f = row.f(), f2 = c.f();
      const Array g =
          fj::vmap(fj::grad([f](Tracer v, Tracer wr) { return fj::sum(wr * f(v)); }))(x, w);
      const auto gv = as_doubles(g), want = numbers(kGolden.lines("cumgrad " + c.name())[0]);
      REQUIRE(gv.size() == want.size());
      for (std::size_t i = 0; i < gv.size(); ++i) {
        CAPTURE(i);
        CHECK(std::fabs(gv[i] - want[i]) <=
              cum_tol(c, backend) * std::max(1.0, std::fabs(want[i])));
      }
      auto loss = [f2, w](Tracer v) { return fj::sum(w * f2(v)); };
      const auto hv =
          as_doubles(fj::grad([&](Tracer v) { return fj::sum(fj::grad(loss)(v) * t); })(x));
      const auto hwant = numbers(kGolden.lines("cumgrad2 " + c.name())[0]);
      REQUIRE(hv.size() == hwant.size());
      // Second order: fusejit's VJP equations are not JAX's transposition, so the rounding
      // differs (the products of up to 13 factors, summed): 1e-13 of the largest.
      for (std::size_t i = 0; i < hv.size(); ++i) {
        CAPTURE(i);
        CHECK(std::fabs(hv[i] - hwant[i]) <= 1e-13 * std::max(1.0, std::fabs(hwant[i])));
      }
    }
  }
}

// The realistic program: top-5 accuracy of f32 logits (64 x 100) against labels whose
// rank in each row is 0..7 (so 5/8 are hits), and the mean top-5 softmax mass, against JAX's
// numbers. The accuracy is exact. The mass is within (100 + 64) f32 epsilons, relative: the
// softmax sums 100 terms and the mean 64, each a reassociated sum on the LLVM backend, on top of
// exp's 1-ulp error (docs/MATH.md).
TEST_CASE("sort golden: a top-k accuracy program, as JAX computes it") {
  constexpr int n = 64, c = 100;
  std::vector<float> logits(n * c);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < c; ++j)
      logits[static_cast<std::size_t>(i * c + j)] = static_cast<float>(
          static_cast<double>((i * 7919 + j * 104729 + i * j * 31) % 1009) / 100.0 - 5.0);
  std::vector<std::int32_t> labels(n);
  for (int k = 0; k < n; ++k) {
    std::vector<int> order(c);
    std::iota(order.begin(), order.end(), 0);
    const float* row = logits.data() + static_cast<std::ptrdiff_t>(k) * c;
    // Stable by the index tiebreak (std::stable_sort trips clang 19's deprecation warning).
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return row[a] != row[b] ? row[a] > row[b] : a < b; });
    labels[static_cast<std::size_t>(k)] = order[static_cast<std::size_t>(k % 8)];
  }
  auto program = [](Tracer lg, Tracer lb) {
    const auto top = fj::lax::top_k(lg, 5);
    const Array hit = fj::any(top[1] == fj::expand_dims(lb, {1}), {1});
    const Array e = fj::exp(lg - fj::max(lg, {1}, true));
    const Array p = e / fj::sum(e, {1}, true);
    const Array top_p = fj::lax::top_k(p, 5)[0];
    return std::make_tuple(Array(fj::mean(hit.astype(fj::f32))),
                           Array(fj::mean(fj::sum(top_p, {1}))));
  };
  const auto want = numbers(kGolden.lines("topk_accuracy")[0]);
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const auto [acc, mass] =
        fj::jit(program)(fj::array(logits, fj::Shape{n, c}), fj::array(labels, fj::Shape{n}));
    CHECK(acc.item<float>() == static_cast<float>(want[0]));
    CHECK(std::fabs(mass.item<float>() - want[1]) <= (100 + 64) * 0x1p-24 * want[1]);
  }
}
