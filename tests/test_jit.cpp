// fj::jit: tracing once per cache key, static arguments, side effects, outputs and caches.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <fusejit/fusejit.hpp>

#include "../examples/seed_functions.hpp"
#include "backend_compare.hpp"

using fj::Tracer;

namespace {
// Float64 reference of selu, the seeds' definition.
double selu_ref(double x) { return 1.05 * (x > 0 ? x : 1.67 * std::exp(x) - 1.67); }
}  // namespace

TEST_CASE("jit: the seeds' trace-count experiment gives 3") {
  int traces = 0;
  auto f = fj::jit([&](Tracer x) {
    ++traces;
    return fusejit_seeds::selu(x);
  });
  fj::Array a10 = fj::arange(10.0f);
  f(a10);
  f(a10);                                     // same key: no trace
  f(fj::arange(20.0f));                       // new shape: retrace
  f(fj::astype(fj::arange(20.0f), fj::f64));  // new dtype: retrace
  CHECK(f.trace_count() == 3);
  CHECK(traces == 3);
  CHECK(f.cache_size() == 3);
}

TEST_CASE("jit: selu matches a float64 reference") {
  auto f = fj::jit([](Tracer x) { return fusejit_seeds::selu(x); });
  fj::Array x = fj::astype(fj::arange(-5.0f, 5.0f, 0.25f), fj::f32);
  auto y = f(x).to_vector<float>();
  auto xs = x.to_vector<float>();
  REQUIRE(y.size() == xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    // f32 exp within a few ulps plus two f32 roundings of 1.67 and 1.05: 1e-5 relative covers it.
    CHECK(y[i] == doctest::Approx(selu_ref(xs[i])).epsilon(1e-5));
}

TEST_CASE("jit: side effects run only while tracing") {
  int prints = 0;
  auto f = fj::jit([&](Tracer x) {
    ++prints;
    return x * 2;
  });
  for (int i = 0; i < 5; ++i) f(fj::ones({4}));
  CHECK(prints == 1);
}

TEST_CASE("jit: static argument loop unrolls and retraces per value") {
  auto g = fj::jit(
      [](Tracer x, int n) {
        Tracer y = x;
        int i = 0;
        while (i < n) {  // n is a concrete int: a static argument
          y = y + x;
          ++i;
        }
        return y;
      },
      fj::static_argnums<1>);
  fj::Array x = fj::array({1.0f, 2.0f});
  CHECK(g(x, 3).to_vector<float>() == std::vector<float>{4.0f, 8.0f});
  CHECK(g(x, 3).to_vector<float>() == std::vector<float>{4.0f, 8.0f});
  CHECK(g.trace_count() == 1);
  CHECK(g(x, 5).to_vector<float>() == std::vector<float>{6.0f, 12.0f});
  CHECK(g.trace_count() == 2);
  auto jaxpr = fj::make_jaxpr(
      [](Tracer x, int n) {
        Tracer y = x;
        for (int i = 0; i < n; ++i) y = y + x;
        return y;
      },
      fj::static_argnums<1>)(x, 2);
  CHECK(jaxpr.str() == "{ lambda ; a:f32[2]. let b:f32[2] = add a a; c:f32[2] = add b a in (c,) }");
}

TEST_CASE("jit: a runtime-length loop reassigning a Tracer") {
  const int n = std::atoi("4");  // not known at compile time
  auto f = fj::jit([n](Tracer x) {
    Tracer y = x;
    for (int i = 0; i < n; ++i) y = y + x;
    return y;
  });
  CHECK(f(fj::array({1.5f})).to_vector<float>() == std::vector<float>{7.5f});
}

TEST_CASE("jit: C++ scalar arguments are dynamic and weakly typed") {
  auto f = fj::jit([](Tracer x, Tracer s) { return x * s; });
  fj::Array x = fj::array({1.0f, 2.0f});
  fj::Array y = f(x, 3.0);
  CHECK(y.dtype() == fj::f32);  // weak scalar keeps x's f32
  CHECK(y.to_vector<float>() == std::vector<float>{3.0f, 6.0f});
  CHECK(f(x, 4.0).to_vector<float>() == std::vector<float>{4.0f, 8.0f});
  CHECK(f.trace_count() == 1);  // a new value is not a new key
  fj::Array i = f(fj::array({1, 2}), 2);
  CHECK(i.dtype() == fj::i32);
}

TEST_CASE("jit: tuple outputs and scalar outputs") {
  auto f = fj::jit([](Tracer x) { return std::make_tuple(x + 1, x * 2.0, 7); });
  auto [a, b, c] = f(fj::array({1, 2}));
  CHECK(a.to_vector<int>() == std::vector<int>{2, 3});
  CHECK(b.dtype() == fj::f32);
  CHECK(b.to_vector<float>() == std::vector<float>{2.0f, 4.0f});
  CHECK(c.item<int>() == 7);
}

TEST_CASE("jit: nested jit calls are traced into the outer graph") {
  auto inner = fj::jit([](Tracer x) { return x * 3; });
  auto outer = fj::jit([&](Tracer x) { return inner(x) + 1; });
  CHECK(outer(fj::array({1, 2})).to_vector<int>() == std::vector<int>{4, 7});
  CHECK(inner.trace_count() == 0);
}

TEST_CASE("jit: cache stats and clear_caches") {
  auto f = fj::jit([](Tracer x) { return x - 1; });
  const auto before = fj::cache_stats();
  f(fj::ones({3}));
  f(fj::ones({3}));
  const auto mid = fj::cache_stats();
  CHECK(mid.traces - before.traces == 1);
  // The graph reached a backend once: compiled, or found in the global kernel cache.
  CHECK((mid.compiles - before.compiles) + (mid.kernel_cache_hits - before.kernel_cache_hits) >= 1);
  CHECK(mid.cache_hits - before.cache_hits >= 1);
  fj::clear_caches();
  f(fj::ones({3}));
  CHECK(f.trace_count() == 2);
  CHECK(f.cache_size() == 1);
}

TEST_CASE("jit: FUSEJIT_LOG_COMPILES explains each trace") {
  ::setenv("FUSEJIT_LOG_COMPILES", "1", 1);
  std::ostringstream log;
  auto* old = std::cerr.rdbuf(log.rdbuf());
  auto f = fj::jit([](Tracer x, int n) { return x * n; }, fj::static_argnums<1>, "scale");
  f(fj::arange(3.0f), 20);
  f(fj::arange(5.0f), 20);
  f(fj::arange(5.0f), 30);
  f(fj::astype(fj::arange(5.0f), fj::f64), 30);
  std::cerr.rdbuf(old);
  ::unsetenv("FUSEJIT_LOG_COMPILES");
  const std::string s = log.str();
  CHECK(s.find("tracing 'scale': new function") != std::string::npos);
  CHECK(s.find("arg 0 shape changed (3,) -> (5,)") != std::string::npos);
  CHECK(s.find("static arg 1 changed 20 -> 30") != std::string::npos);
  CHECK(s.find("arg 0 dtype changed float32 -> float64") != std::string::npos);
}

TEST_CASE("eager: assigning an expression evaluates it") {
  fj::Array x = fj::array({1.0f, 2.0f, 3.0f});
  fj::Array y = x * 2.0 + 1;
  CHECK(y.dtype() == fj::f32);
  CHECK(y.to_vector<float>() == std::vector<float>{3.0f, 5.0f, 7.0f});
  fj::Array d = fj::astype(x, fj::f64) * 0.1;  // the weak scalar keeps its double value
  CHECK(d.dtype() == fj::f64);
  CHECK(d.to_vector<double>()[2] == 3.0 * 0.1);
  fj::Array i = fj::arange(5) + 1.5;  // i32 + weak float -> f32
  CHECK(i.dtype() == fj::f32);
  fj::Array b = x > 1.5;
  CHECK(b.dtype() == fj::bool_);
  CHECK(b.to_vector<bool>() == std::vector<bool>{false, true, true});
  fj::Array m = fj::arange(-3, 4) % 3;  // Python sign semantics
  CHECK(m.to_vector<int>() == std::vector<int>{0, 1, 2, 0, 1, 2, 0});
}

TEST_CASE("errors: bad input raises fj::Error subclasses and the process continues") {
  fj::Array a = fj::ones({2, 3}), b = fj::ones({4});
  CHECK_THROWS_AS(fj::Array(a + b), fj::ShapeError);
  try {
    fj::Array c = a + b;
  } catch (const fj::ShapeError& e) {
    CHECK(std::string(e.what()).find("(2, 3)") != std::string::npos);
    CHECK(std::string(e.what()).find("(4,)") != std::string::npos);
  }
  CHECK_THROWS_AS(a.item<float>(), fj::ShapeError);
  CHECK_THROWS_AS(a.data<double>(), fj::DTypeError);
  auto jitted = fj::jit([](Tracer x) { return x + fj::ones({5}); });
  CHECK_THROWS_AS(jitted(fj::ones({3})), fj::ShapeError);
  auto returns_empty = fj::jit([](Tracer) { return fj::Array(); });
  CHECK_THROWS_AS(returns_empty(fj::ones({3})), fj::TypeError);
  auto reads_data = fj::jit([](Tracer x) {
    (void)x.data<float>();
    return x;
  });
  CHECK_THROWS_AS(reads_data(fj::ones({3})), fj::ConcretizationError);
}

TEST_CASE("errors: a tracer that escapes its trace raises UnexpectedTracerError") {
  fj::Array leaked;
  auto f = fj::jit([&](Tracer x) {
    leaked = x;
    return x * 2;
  });
  f(fj::ones({3}));
  CHECK(leaked.is_traced());
  CHECK_THROWS_AS(fj::Array(leaked + 1), fj::UnexpectedTracerError);
  auto g = fj::jit([&](Tracer x) { return x + leaked; });
  CHECK_THROWS_AS(g(fj::ones({3})), fj::UnexpectedTracerError);
  CHECK_THROWS_AS(f(leaked), fj::UnexpectedTracerError);
}

TEST_CASE("jit: a weak float scalar keeps its double value on f64 arrays, rounds on f32") {
  auto f = [](fj::Tracer x) { return x * 0.1 + 1.0 / 3; };
  const std::string f64_text = fj::make_jaxpr(f)(fj::ones({2}, fj::f64)).str();
  CHECK(f64_text.find("mul a 0.1:f64[]") != std::string::npos);  // JAX with x64 prints 0.1
  CHECK(fj::make_jaxpr(f)(fj::ones({2})).str().find("mul a 0.10000000149011612:f32[]") !=
        std::string::npos);  // JAX 0.10.2 prints the float32 value's double repr
  for (const char* backend : {"reference", "llvm"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    fusejit_test::BackendScope scope(backend);
    // x = 1: each product is exact, so one rounding of the sum either way (FMA or not).
    CHECK(fj::jit(f)(fj::ones({2}, fj::f64)).to_vector<double>()[0] == 1.0 * 0.1 + 1.0 / 3);
    CHECK(fj::jit(f)(fj::ones({2})).to_vector<float>()[0] ==
          static_cast<float>(0.1) + static_cast<float>(1.0 / 3));
  }
}
