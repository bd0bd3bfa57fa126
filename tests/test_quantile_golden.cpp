// fj::quantile, fj::percentile, fj::median and their nan-ignoring forms against JAX 0.10.2
// (tests/golden/quantile_goldens.txt, printed by tests/golden/quantile_goldens.py): values and
// gradients in f64 on every backend, jaxpr text, and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"
#include "weighted_grad.hpp"

namespace {

constexpr fusejit_test::Golden kQuantileGolden{"quantile_goldens.txt"};

fj::Array in(const std::string& name) { return fusejit_test::golden_input(kQuantileGolden, name); }

using M = fj::QuantileMethod;

}  // namespace

TEST_CASE("quantile golden: values as JAX's on every backend, NaN rows included") {
  const fj::Array m = in("m"), t = in("t"), n = in("n"), q = in("q"), p = in("p");
  const std::map<std::string, std::function<fj::Array()>> cases = {
      {"quantile_all", [&] { return fj::quantile(m, 0.3); }},
      {"quantile_axis1_linear", [&] { return fj::quantile(m, q, 1); }},
      {"quantile_axis1_lower", [&] { return fj::quantile(m, q, 1, M::lower); }},
      {"quantile_axis1_higher", [&] { return fj::quantile(m, q, 1, M::higher); }},
      {"quantile_axis1_midpoint", [&] { return fj::quantile(m, q, 1, M::midpoint); }},
      {"quantile_axis1_nearest", [&] { return fj::quantile(m, q, 1, M::nearest); }},
      {"quantile_axis0_keepdims", [&] { return fj::quantile(m, 0.6, 0, M::linear, true); }},
      {"quantile_all_keepdims_q", [&] { return fj::quantile(m, q, fj::none, M::linear, true); }},
      {"quantile_tuple02_keepdims",
       [&] {
         return fj::quantile(t, 0.3, {0, 2}, M::linear, true);
       }},
      {"quantile_tuple12",
       [&] {
         return fj::quantile(t, q, {1, 2});
       }},
      {"quantile_tuple20",
       [&] {
         return fj::quantile(t, 0.7, {2, 0}, M::nearest);
       }},
      {"quantile_nan_rows", [&] { return fj::quantile(n, 0.5, 1); }},
      {"percentile_axis0", [&] { return fj::percentile(m, 30.0, 0); }},
      {"percentile_p", [&] { return fj::percentile(m, p, -1); }},
      {"median_all", [&] { return fj::median(m); }},
      {"median_axis1_keepdims", [&] { return fj::median(m, 1, true); }},
      {"median_int", [&] { return fj::median(in("i").astype(fj::DType::i32)); }},
      {"nanquantile_axis1", [&] { return fj::nanquantile(n, q, 1); }},
      {"nanquantile_axis1_keepdims", [&] { return fj::nanquantile(n, 0.25, 1, M::linear, true); }},
      {"nanquantile_all_nearest", [&] { return fj::nanquantile(n, q, fj::none, M::nearest); }},
      {"nanpercentile_axis0", [&] { return fj::nanpercentile(n, 40.0, 0); }},
      {"nanmedian_all", [&] { return fj::nanmedian(n); }},
      {"nanmedian_axis1", [&] { return fj::nanmedian(n, 1); }},
      {"nanmedian_axis0_keepdims", [&] { return fj::nanmedian(n, 0, true); }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    fusejit_test::BackendScope scope(backend.c_str());
    for (const auto& [name, f] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto [got, want] =
          fusejit_test::golden_values(f(), kQuantileGolden.lines("values " + name));
      for (std::size_t k = 0; k < got.size(); ++k) {
        CAPTURE(k);
        // Exact but for linear interpolation, low * (1 - w) + high * w, whose two products the
        // LLVM backend may fuse into one multiply-add: one rounding of a product of magnitude
        // at most 9 (the inputs' range) removed, below 2^-52 * 16.
        if (std::isnan(want[k]))
          CHECK(std::isnan(got[k]));
        else
          CHECK(std::fabs(got[k] - want[k]) <= 4e-15);
      }
    }
  }
}

TEST_CASE("quantile golden: gradients as JAX's and central differences") {
  using T = fj::Tracer;
  const fj::Array q = in("q");
  const std::map<std::string, std::function<fj::Array(T)>> fs = {
      {"median_axis1", [](T x) { return fj::median(x, 1); }},
      {"quantile_q_axis0", [q](T x) { return fj::quantile(x, q, 0); }},
      {"nanmedian_all", [](T x) { return fj::nanmedian(x); }},
      {"percentile_nearest", [](T x) { return fj::percentile(x, 35.0, fj::none, M::nearest); }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    fusejit_test::BackendScope scope(backend.c_str());
    for (const auto& [name, f] : fs) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto want =
          fusejit_test::golden_numbers(kQuantileGolden.lines("values grad " + name).at(1));
      // The weights times the interpolation weights: products and sums of a few of them.
      fusejit_test::check_weighted_grad(f, in("m"), want, {}, 1e-14);
    }
  }
}

TEST_CASE("quantile golden: jaxpr text as JAX's") {
  using T = fj::Tracer;
  const fj::Array m35 = fj::ones({3, 5}), t = fj::ones({2, 3, 4});
  const fj::Array q2 = fj::ones({2}), q3 = fj::ones({3});
  auto text1 = [](auto f, const fj::Array& x) { return fj::make_jaxpr(f)(x).str(); };
  auto text2 = [](auto f, const fj::Array& x, const fj::Array& y) {
    return fj::make_jaxpr(f)(x, y).str();
  };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"median", [&] { return text1([](T x) { return fj::median(x); }, m35); }},
      {"median_axis1_keepdims",
       [&] { return text1([](T x) { return fj::median(x, 1, true); }, m35); }},
      {"median_int",
       [&] {
         return text1([](T x) { return fj::median(x); }, fj::ones({3, 5}, fj::DType::i32));
       }},
      {"quantile_q_axis1",
       [&] { return text2([](T x, T q) { return fj::quantile(x, q, 1); }, m35, q2); }},
      {"quantile_lower",
       [&] {
         return text1([](T x) { return fj::quantile(x, 0.3, fj::none, M::lower); }, fj::ones({4}));
       }},
      {"quantile_tuple_keepdims_nearest",
       [&] {
         return text1([](T x) { return fj::quantile(x, 0.3, {1, 2}, M::nearest, true); }, t);
       }},
      {"quantile_tuple_trailing",
       [&] {
         return text1([](T x) { return fj::quantile(x, 0.3, {1, 2}); }, t);
       }},
      {"quantile_all_keepdims_q",
       [&] {
         return text2([](T x, T q) { return fj::quantile(x, q, fj::none, M::higher, true); }, m35,
                      q2);
       }},
      {"percentile_axis0",
       [&] { return text1([](T x) { return fj::percentile(x, 30.0, 0); }, m35); }},
      {"percentile_q",
       [&] {
         return text2([](T x, T q) { return fj::percentile(x, q, 1, M::midpoint); }, m35, q3);
       }},
      {"nanmedian_axis0", [&] { return text1([](T x) { return fj::nanmedian(x, 0); }, m35); }},
      {"nanmedian_all", [&] { return text1([](T x) { return fj::nanmedian(x); }, m35); }},
      {"nanquantile_q_keepdims",
       [&] {
         return text2([](T x, T q) { return fj::nanquantile(x, q, 1, M::linear, true); }, m35, q2);
       }},
      {"nanpercentile_nearest",
       [&] { return text1([](T x) { return fj::nanpercentile(x, 75.0, 1, M::nearest); }, m35); }},
  };
  fusejit_test::check_jaxpr_texts(kQuantileGolden, texts);
}

TEST_CASE("quantile golden: bad input names the function, the argument and the shape") {
  using fusejit_test::check_throws_with;
  check_throws_with<fj::ValueError>(
      [] {
        fj::quantile(fj::ones({3}), fj::ones({2, 2}));
      },
      {"fj::quantile", "q must have rank <= 1", "f32[2,2]"});
  check_throws_with<fj::TypeError>(
      [] { fj::quantile(fj::ones({3}), fj::ones({2}, fj::DType::i32)); },
      {"fj::quantile", "q must be a float array", "i32[2]"});
  check_throws_with<fj::ShapeError>(
      [] {
        fj::median(fj::ones({3, 4}), 2);
      },
      {"fj::median", "2", "(3, 4)"});
}

TEST_CASE(
    "quantile golden: vmap over rows gives the per-axis results JAX's values were checked on") {
  using T = fj::Tracer;
  const fj::Array m = in("m"), n = in("n"), q = in("q");
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    fusejit_test::BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const auto vm = fj::vmap([](T x) { return T(fj::median(x)); })(m);
    CHECK(fusejit_test::as_doubles(vm) == fusejit_test::as_doubles(fj::median(m, 1)));
    const auto vn = fj::vmap([](T x) { return T(fj::nanmedian(x)); })(n);
    const auto want_n = fusejit_test::as_doubles(fj::nanmedian(n, 1));
    const auto got_n = fusejit_test::as_doubles(vn);
    REQUIRE(got_n.size() == want_n.size());
    for (std::size_t k = 0; k < got_n.size(); ++k)
      CHECK((std::isnan(want_n[k]) ? std::isnan(got_n[k]) : got_n[k] == want_n[k]));
    // q batched too: each row's quantiles at its own q.
    const fj::Array qs = fj::stack({q, q, q}, 0);
    const auto vq = fj::vmap([](T x, T p) { return T(fj::quantile(x, p)); })(m, qs);
    const auto want_q = fusejit_test::as_doubles(fj::quantile(m, q, 1).T());
    const auto got_q = fusejit_test::as_doubles(vq);
    REQUIRE(got_q.size() == want_q.size());
    for (std::size_t k = 0; k < got_q.size(); ++k) CHECK(std::fabs(got_q[k] - want_q[k]) <= 4e-15);
  }
}
