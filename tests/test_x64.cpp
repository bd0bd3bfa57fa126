// x64 mode (fj::enable_x64, fj::x64_scope, FUSEJIT_ENABLE_X64): make_jaxpr text, dtypes and
// random draws against JAX 0.10.2 with jax_enable_x64 on (tests/golden/x64_goldens.txt, printed by
// tests/golden/x64_goldens.py), the jit and eager caches keyed on the mode, and the mode's scope.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <fusejit/fusejit.hpp>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;

namespace {

constexpr fusejit_test::Golden kGolden{"x64_goldens.txt"};

Array f64(const fj::Shape& s) { return fj::ones(s, fj::f64); }

}  // namespace

TEST_CASE("x64: make_jaxpr text as JAX's with jax_enable_x64") {
  using T = Tracer;
  const fj::x64_scope x64;
  auto det = [](T a) { return fj::linalg::det(a); };
  auto slogdet = [](T a) {
    auto [sign, logdet] = fj::linalg::slogdet(a);
    return std::tuple{sign, logdet};
  };
  auto vec = [](const std::vector<Array>& r) { return std::vector<T>(r.begin(), r.end()); };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"det_4x4",
       [&] {
         return fj::make_jaxpr(det)(f64({4, 4})).str();
       }},
      {"slogdet_4x4",
       [&] {
         return fj::make_jaxpr(slogdet)(f64({4, 4})).str();
       }},
      {"slogdet_3x4x4_batched",
       [&] {
         return fj::make_jaxpr(slogdet)(f64({2, 3, 4, 4})).str();
       }},
      {"inv_3x3",
       [] {
         return fj::make_jaxpr([](T a) { return fj::linalg::inv(a); })(f64({3, 3})).str();
       }},
      {"jvp_det_4x4",
       [&] {
         auto f = [&](T a, T t) {
           auto [y, dy] = fj::jvp(det, std::array<Array, 1>{a}, std::array<Array, 1>{t});
           return std::vector<T>{y, dy};
         };
         return fj::make_jaxpr(f)(f64({4, 4}), f64({4, 4})).str();
       }},
      {"grad_det_4x4",
       [&] {
         return fj::make_jaxpr(fj::grad(det))(f64({4, 4})).str();
       }},
      {"quantile",
       [] { return fj::make_jaxpr([](T x) { return fj::quantile(x, 0.3); })(f64({5})).str(); }},
      {"roll",
       [] { return fj::make_jaxpr([](T x, T s) { return fj::roll(x, s); })(f64({5}), 2).str(); }},
      {"argmax",
       [] {
         return fj::make_jaxpr([](T x) { return fj::argmax(x, 1); })(f64({3, 4})).str();
       }},
      {"argmin_f32",
       [] {
         return fj::make_jaxpr([](T x) { return fj::argmin(x); })(fj::ones({2, 3}, fj::f32)).str();
       }},
      {"eye",
       [] {
         return fj::make_jaxpr([](T x) { return x + fj::eye(3); })(f64({3, 3})).str();
       }},
      {"tril",
       [] {
         return fj::make_jaxpr([](T x) { return fj::tril(x); })(f64({3, 3})).str();
       }},
      {"argsort",
       [] { return fj::make_jaxpr([](T x) { return fj::argsort(x); })(f64({5})).str(); }},
      {"nonzero",
       [&] {
         return fj::make_jaxpr([&](T x) { return vec(fj::nonzero(x > 0.5, 3)); })(f64({5})).str();
       }},
      {"sum_bool",
       [] { return fj::make_jaxpr([](T x) { return fj::sum(x > 0.5); })(f64({5})).str(); }},
      {"sum_int32",
       [] { return fj::make_jaxpr([](T x) { return fj::sum(x); })(fj::ones({5}, fj::i32)).str(); }},
      {"cumsum_bool",
       [] { return fj::make_jaxpr([](T x) { return fj::cumsum(x > 0.5); })(f64({5})).str(); }},
      {"bincount",
       [] {
         return fj::make_jaxpr([](T x) { return fj::bincount(x, 4); })(fj::ones({3}, fj::i32))
             .str();
       }},
      {"int32_times_float",
       [] { return fj::make_jaxpr([](T x) { return x * 2.0; })(fj::ones({3}, fj::i32)).str(); }},
      {"bool_plus_int",
       [] { return fj::make_jaxpr([](T x) { return x + 1; })(fj::ones({3}, fj::bool_)).str(); }},
      {"f64_weak", [] { return fj::make_jaxpr([](T x) { return x * 2 + 1.5; })(f64({3})).str(); }},
      {"scalar_arg", [] { return fj::make_jaxpr([](T s) { return s * 3; })(2.0).str(); }},
      {"fori_loop",
       [] {
         auto f = [](T x) {
           return fj::lax::fori_loop(
               0, 3, [](T i, T c) { return c + i; }, x);
         };
         return fj::make_jaxpr(f)(f64({3})).str();
       }},
  };
  fusejit_test::check_jaxpr_texts(kGolden, texts);
}

TEST_CASE("x64: defaults of factories and random functions as JAX's") {
  const fj::x64_scope x64;
  const Array key = fj::random::key(0);
  const std::vector<std::pair<std::string, Array>> made = {
      {"zeros", fj::zeros({3})},
      {"ones", fj::ones({3})},
      {"full", fj::full({3}, 1.5)},
      {"eye", fj::eye(2)},
      {"linspace", fj::linspace(0, 1, 3)},
      {"arange_int", fj::arange(3)},
      {"arange_float", fj::arange(3.0)},
      {"uniform", fj::random::uniform(key, {3})},
      {"normal", fj::random::normal(key, {3})},
  };
  std::ostringstream got;
  for (std::size_t k = 0; k < made.size(); ++k)
    got << (k ? " " : "") << made[k].first << "=" << fj::long_name(made[k].second.dtype());
  CHECK(got.str() == kGolden.lines("dtypes").at(0));
  // Without the mode (and in a scope that turns it off inside one that turns it on): 32-bit.
  const fj::x64_scope off(false);
  CHECK(fj::zeros({3}).dtype() == fj::f32);
  CHECK(fj::arange(3).dtype() == fj::i32);
  CHECK(fj::arange(3.0).dtype() == fj::f32);
  CHECK(fj::random::uniform(key, {3}).dtype() == fj::f32);
}

// float64 draws, x64's default: uniform fills 52 mantissa bits from a 64-bit draw as JAX does,
// so it is exact on every backend; normal is sqrt(2) * erf_inv(u) with fusejit's own f64
// erf_inv (XLA's ErfInv64 is another polynomial, each a few ulps from the true value): within
// 4 ulps of JAX's (measured on these six: 1, 1, 2, 3, 1, 0 on both backends).
TEST_CASE("x64: float64 random draws as JAX's") {
  const fj::x64_scope x64;
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    CAPTURE(backend);
    const fusejit_test::BackendScope scope(backend.c_str());
    const Array key = fj::random::key(0);
    const std::vector<double> u = fusejit_test::as_doubles(fj::random::uniform(key, {6}));
    CHECK(u == fusejit_test::golden_numbers(kGolden.lines("uniform").at(0)));
    const std::vector<double> n = fusejit_test::as_doubles(fj::random::normal(key, {6}));
    const std::vector<double> want = fusejit_test::golden_numbers(kGolden.lines("normal").at(0));
    REQUIRE(n.size() == want.size());
    for (std::size_t k = 0; k < n.size(); ++k) {
      CAPTURE(k);
      CHECK(fusejit_test::ulp_distance(n[k], want[k]) <= 4);
    }
  }
}

// The mode is part of every cache key: a function traced in one mode is traced again in the
// other (its iota changes dtype), and each mode's entry is found again afterwards.
TEST_CASE("x64: the jit and eager caches keep each mode's trace apart") {
  auto count = fj::jit([](Tracer x) { return fj::argmax(x); });
  const Array x = fj::array(std::vector<float>{1, 5, 2});
  CHECK(count(x).dtype() == fj::i32);
  {
    const fj::x64_scope x64;
    CHECK(count(x).dtype() == fj::i64);
    CHECK(count.trace_count() == 2);
    CHECK(count(x).item<std::int64_t>() == 1);
  }
  CHECK(count(x).dtype() == fj::i32);
  CHECK(count.trace_count() == 2);  // both entries kept
  // Eager expressions go through a cache of their own, keyed the same way.
  CHECK(Array(fj::argmax(x)).dtype() == fj::i32);
  {
    const fj::x64_scope x64;
    CHECK(Array(fj::argmax(x)).dtype() == fj::i64);
    CHECK(Array(x * 2 + 1).dtype() == fj::f32);  // weak scalars follow the array
    CHECK(Array(fj::sum(x > 1.0f)).dtype() == fj::i64);
  }
  CHECK(Array(fj::argmax(x)).dtype() == fj::i32);
  CHECK(Array(fj::sum(x > 1.0f)).dtype() == fj::i32);
}

TEST_CASE("x64: scopes nest and fj::enable_x64 sets the process default") {
  CHECK_FALSE(fj::x64_enabled());
  {
    const fj::x64_scope on;
    CHECK(fj::x64_enabled());
    {
      const fj::x64_scope off(false);
      CHECK_FALSE(fj::x64_enabled());
    }
    CHECK(fj::x64_enabled());
  }
  CHECK_FALSE(fj::x64_enabled());
  fj::enable_x64();
  CHECK(fj::x64_enabled());
  CHECK(fj::default_int_dtype() == fj::i64);
  CHECK(fj::default_float_dtype() == fj::f64);
  {
    const fj::x64_scope off(false);  // a scope overrides the process setting on its thread
    CHECK(fj::default_int_dtype() == fj::i32);
  }
  fj::enable_x64(false);
  CHECK_FALSE(fj::x64_enabled());
  CHECK(fj::default_float_dtype() == fj::f32);
}

// The int64 programs run: each result equals the same program's without x64 (whose values the
// other golden tests check against JAX), converted, on every backend, under jit and vmap. The
// composites (argsort, cumsum) are shared sub-graphs: each mode must trace its own.
TEST_CASE("x64: int64 index programs give the 32-bit programs' values") {
  auto f = [](Tracer x) {
    const Tracer order = fj::argsort(x);
    const Tracer above = fj::cumsum(x > 0.0) + fj::argmax(x);
    const Tracer picked = fj::sum(fj::tril(fj::outer(x, x)) + fj::eye(5), {0});
    return std::tuple{order, above, picked, fj::nonzero(x > 0.0, 5, -1)[0]};
  };
  const Array x = fj::array(std::vector<double>{0.5, -1.0, 2.0, 0.0, 3.5});
  const Array batch = fj::stack({x, x * -1.0, x + 1.0});
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    CAPTURE(backend);
    const fusejit_test::BackendScope scope(backend.c_str());
    const auto narrow = fj::jit(f)(x);
    const auto narrow_batched = fj::vmap(f)(batch);
    const fj::x64_scope x64;
    const auto wide = fj::jit(f)(x);
    const auto wide_batched = fj::vmap(f)(batch);
    CHECK(std::get<0>(narrow).dtype() == fj::i32);  // whichever mode traced argsort first
    CHECK(std::get<0>(wide).dtype() == fj::i64);
    CHECK(std::get<1>(wide).dtype() == fj::i64);
    CHECK(std::get<3>(wide).dtype() == fj::i64);
    auto same = [](const auto& a, const auto& b) {
      CHECK(fusejit_test::as_doubles(std::get<0>(a)) == fusejit_test::as_doubles(std::get<0>(b)));
      CHECK(fusejit_test::as_doubles(std::get<1>(a)) == fusejit_test::as_doubles(std::get<1>(b)));
      CHECK(fusejit_test::as_doubles(std::get<2>(a)) == fusejit_test::as_doubles(std::get<2>(b)));
      CHECK(fusejit_test::as_doubles(std::get<3>(a)) == fusejit_test::as_doubles(std::get<3>(b)));
    };
    same(wide, narrow);
    same(wide_batched, narrow_batched);
  }
}
