// The LLVM backend against the reference backend: every primitive, every dtype it takes, shapes
// of rank 0-4 with broadcasting, size-0 and size-1 dims, and lengths that exercise vector tails.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::check_close;
using fusejit_test::random_array;
using fusejit_test::run_both;
using Fn1 = std::function<fj::Array(const fj::Array&)>;
using Fn2 = std::function<fj::Array(const fj::Array&, const fj::Array&)>;

namespace {

const std::vector<fj::Shape> kShapes = {fj::Shape{},           fj::Shape{1},    fj::Shape{7},
                                        fj::Shape{1023},       fj::Shape{1025}, fj::Shape{1000003},
                                        fj::Shape{0},          fj::Shape{3, 0}, fj::Shape{3, 1, 5},
                                        fj::Shape{2, 3, 4, 5}, fj::Shape{1, 17}};

struct UnaryCase {
  const char* name;
  Fn1 f;
  double lo, hi;       // input domain
  std::uint64_t ulps;  // allowed distance between the two backends
  bool ints = false;   // also run on i32, i64 (and u32 when `unsigned_ok`)
  bool unsigned_ok = false;
};

// Transcendentals: each backend is within its documented bound of the exact result (reference:
// tests/test_reference_backend.cpp; llvm: docs/MATH.md), so the two may differ by the sum of
// the bounds, rounded up (the larger of the f32 and f64 bounds). Everything else is exact.
// sin, cos and tan keep their bounds over the whole finite range (docs/MATH.md), here sampled
// on small intervals; the special-values case below adds +-1e30.
std::vector<UnaryCase> unary_cases() {
  return {
      {"neg", [](const fj::Array& x) -> fj::Array { return -x; }, -100, 100, 0, true, true},
      {"abs", [](const fj::Array& x) -> fj::Array { return fj::abs(x); }, -100, 100, 0, true, true},
      {"sign", [](const fj::Array& x) -> fj::Array { return fj::sign(x); }, -3, 3, 0, true, true},
      {"floor", [](const fj::Array& x) -> fj::Array { return fj::floor(x); }, -50, 50, 0},
      {"ceil", [](const fj::Array& x) -> fj::Array { return fj::ceil(x); }, -50, 50, 0},
      {"round", [](const fj::Array& x) -> fj::Array { return fj::round(x); }, -50, 50, 0},
      {"sqrt", [](const fj::Array& x) -> fj::Array { return fj::sqrt(x); }, 0, 1e6, 0},
      {"rsqrt", [](const fj::Array& x) -> fj::Array { return fj::rsqrt(x); }, 1e-3, 1e6, 4},
      {"exp", [](const fj::Array& x) -> fj::Array { return fj::exp(x); }, -80, 80, 4},
      {"expm1", [](const fj::Array& x) -> fj::Array { return fj::expm1(x); }, -20, 20, 5},
      {"log", [](const fj::Array& x) -> fj::Array { return fj::log(x); }, 1e-6, 1e6, 3},
      {"log1p", [](const fj::Array& x) -> fj::Array { return fj::log1p(x); }, -0.99, 1e3, 3},
      {"sin", [](const fj::Array& x) -> fj::Array { return fj::sin(x); }, -100, 100, 6},
      {"cos", [](const fj::Array& x) -> fj::Array { return fj::cos(x); }, -100, 100, 6},
      {"tan", [](const fj::Array& x) -> fj::Array { return fj::tan(x); }, -1.5, 1.5, 8},
      {"tanh", [](const fj::Array& x) -> fj::Array { return fj::tanh(x); }, -10, 10, 4},
      {"logistic", [](const fj::Array& x) -> fj::Array { return fj::logistic(x); }, -30, 30, 6},
      {"erf", [](const fj::Array& x) -> fj::Array { return fj::erf(x); }, -4, 4, 5},
  };
}

}  // namespace

TEST_CASE("llvm backend: unary primitives match the reference on every shape and dtype") {
  if (!fusejit_test::has_backend("llvm")) return;
  unsigned seed = 1;
  for (const auto& c : unary_cases()) {
    std::vector<fj::DType> dtypes{fj::f32, fj::f64};
    if (c.ints) dtypes.insert(dtypes.end(), {fj::i32, fj::i64});
    if (c.unsigned_ok) dtypes.push_back(fj::u32);
    for (fj::DType d : dtypes)
      for (const auto& s : kShapes) {
        const double lo = d == fj::u32 ? 0 : c.lo;
        fj::Array x = random_array(d, s, lo, c.hi, seed++);
        auto [got, want] = run_both("llvm", c.f, x);
        check_close(got, want, c.ulps,
                    std::string(c.name) + " " + std::string(fj::short_name(d)) + s.str());
      }
  }
}

TEST_CASE("llvm backend: special values (NaN, inf, signed zeros) go through every float op") {
  if (!fusejit_test::has_backend("llvm")) return;
  const std::vector<double> specials{0.0,  -0.0, INFINITY, -INFINITY, NAN,    1e-40, -1e-40, 1.0,
                                     -1.0, 0.5,  88.7,     89.0,      -104.0, 710.0, 1e30,   -1e30};
  for (const auto& c : unary_cases())
    for (fj::DType d : {fj::f32, fj::f64}) {
      fj::Array x =
          fj::astype(fj::array(specials, fj::Shape{static_cast<std::int64_t>(specials.size())}), d);
      auto [got, want] = run_both("llvm", c.f, x);
      check_close(got, want, c.ulps,
                  std::string("special ") + c.name + " " + std::string(fj::short_name(d)));
    }
}

TEST_CASE("llvm backend: binary primitives, comparisons and logic match the reference") {
  if (!fusejit_test::has_backend("llvm")) return;
  struct BinaryCase {
    const char* name;
    Fn2 f;
    double lo, hi;
    std::uint64_t ulps;
    bool floats_only = false;
  };
  const std::vector<BinaryCase> cases{
      {"add", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a + b; }, -1e3, 1e3,
       0},
      {"sub", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a - b; }, -1e3, 1e3,
       0},
      {"mul", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a * b; }, -1e3, 1e3,
       0},
      {"div", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a / b; }, -1e3, 1e3,
       0},
      {"remainder", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a % b; }, -50,
       50, 0},
      {"maximum",
       [](const fj::Array& a, const fj::Array& b) -> fj::Array { return fj::maximum(a, b); }, -9, 9,
       0},
      {"minimum",
       [](const fj::Array& a, const fj::Array& b) -> fj::Array { return fj::minimum(a, b); }, -9, 9,
       0},
      {"pow", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return fj::pow(a, b); },
       0.1, 4, 4, true},
      {"lt", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a < b; }, -3, 3, 0},
      {"le", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a <= b; }, -3, 3, 0},
      {"eq", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a == b; }, -3, 3, 0},
      {"ne", [](const fj::Array& a, const fj::Array& b) -> fj::Array { return a != b; }, -3, 3, 0},
      {"where",
       [](const fj::Array& a, const fj::Array& b) -> fj::Array {
         return fj::where(a > b, a, b * 2);
       },
       -3, 3, 0},
      {"clip",
       [](const fj::Array& a, const fj::Array& b) -> fj::Array { return fj::clip(a, b, 2); }, -3, 3,
       0},
      {"logical",
       [](const fj::Array& a, const fj::Array& b) -> fj::Array {
         return fj::logical_or(fj::logical_and(a > 0, b < 1), fj::logical_not(a == b));
       },
       -2, 2, 0},
  };
  // Pairs of shapes that broadcast: equal, scalar against array, size-1 dims, lower rank.
  const std::vector<std::pair<fj::Shape, fj::Shape>> pairs{
      {fj::Shape{1025}, fj::Shape{1025}},    {fj::Shape{}, fj::Shape{7}},
      {fj::Shape{1000003}, fj::Shape{}},     {fj::Shape{3, 1}, fj::Shape{1, 5}},
      {fj::Shape{2, 3, 4, 5}, fj::Shape{5}}, {fj::Shape{4, 1, 6}, fj::Shape{3, 1}},
      {fj::Shape{0}, fj::Shape{1}},          {fj::Shape{2, 1, 3, 1}, fj::Shape{1, 4, 1, 9}}};
  unsigned seed = 1000;
  for (const auto& c : cases)
    for (fj::DType d : {fj::f32, fj::f64, fj::i32, fj::i64, fj::u32}) {
      if (c.floats_only && !fj::is_float(d)) continue;
      for (const auto& [sa, sb] : pairs) {
        const double lo = d == fj::u32 ? 0 : c.lo;
        fj::Array a = random_array(d, sa, lo, c.hi, seed++),
                  b = random_array(d, sb, lo, c.hi, seed++);
        auto [got, want] = run_both("llvm", c.f, a, b);
        check_close(
            got, want, c.ulps,
            std::string(c.name) + " " + std::string(fj::short_name(d)) + sa.str() + sb.str());
      }
    }
}

TEST_CASE("llvm backend: astype between every pair of dtypes, including out-of-range floats") {
  if (!fusejit_test::has_backend("llvm")) return;
  const std::vector<double> values{0.0,  -0.0,  1.5, -1.5,     2.5,       -7.9, 3e9, -3e9,
                                   1e20, -1e20, NAN, INFINITY, -INFINITY, 255,  1};
  const fj::Array src = fj::array(values, fj::Shape{static_cast<std::int64_t>(values.size())});
  for (fj::DType from : {fj::bool_, fj::i32, fj::i64, fj::u32, fj::f32, fj::f64})
    for (fj::DType to : {fj::bool_, fj::i32, fj::i64, fj::u32, fj::f32, fj::f64}) {
      fj::Array x;
      {
        fusejit_test::BackendScope s("reference");
        x = fj::astype(src, from);
      }
      auto [got, want] = run_both(
          "llvm", Fn1([to](const fj::Array& v) -> fj::Array { return fj::astype(v, to); }), x);
      check_close(got, want, 0,
                  std::string(fj::short_name(from)) + " -> " + std::string(fj::short_name(to)));
    }
}

TEST_CASE("llvm backend: outputs of several shapes, literals and passthrough outputs") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto f = [](Tracer x, Tracer y) { return std::make_tuple(x * y + 2, x, 3.5, fj::exp(y), y - 1); };
  fj::Array x = random_array(fj::f32, fj::Shape{3, 4}, -2, 2, 7),
            y = random_array(fj::f32, fj::Shape{4}, -2, 2, 8);
  auto want = [&] {
    fusejit_test::BackendScope s("reference");
    return fj::jit(f)(x, y);
  }();
  auto got = fj::jit(f)(x, y);
  // The llvm backend contracts x * y + 2 into one fma (one rounding instead of two), so the two
  // differ by at most half an ulp of the product: |x * y| < 4 here, so 2^-22 absolute.
  fusejit_test::check_abs(std::get<0>(got), std::get<0>(want), std::ldexp(1.0, -22), "x * y + 2");
  CHECK(std::get<1>(got).data<float>() == x.data<float>());  // an input returned is not copied
  check_close(std::get<2>(got), std::get<2>(want), 0, "literal");
  check_close(std::get<3>(got), std::get<3>(want), 4, "exp(y)");
  check_close(std::get<4>(got), std::get<4>(want), 0, "y - 1");
}

TEST_CASE("llvm backend: one compile serves a fresh lambda per iteration and every length") {
  if (!fusejit_test::has_backend("llvm")) return;
  fj::clear_caches();
  auto before = fj::cache_stats();
  for (int i = 0; i < 20; ++i) {
    auto f = fj::jit([](Tracer x) { return x + 1; });  // JAX compiles this 20 times
    CHECK(f(fj::ones({16})).to_vector<float>()[0] == 2.0f);
  }
  auto after = fj::cache_stats();
  CHECK(after.traces - before.traces == 20);
  CHECK(after.compiles - before.compiles == 1);
  CHECK(after.kernel_cache_hits - before.kernel_cache_hits == 19);

  auto g = fj::jit([](Tracer x) { return fj::where(x > 3, x * 2.5, -x); });
  const std::vector<fj::Array> inputs{fj::arange(10.0f), fj::arange(20.0f), fj::arange(30.0f)};
  before = fj::cache_stats();
  for (const fj::Array& x : inputs) {
    const std::int64_t n = x.size();
    auto v = g(x).to_vector<float>();
    REQUIRE(static_cast<std::int64_t>(v.size()) == n);
    CHECK(v[static_cast<std::size_t>(n - 1)] == static_cast<float>(n - 1) * 2.5f);
  }
  after = fj::cache_stats();
  CHECK(g.trace_count() == 3);                   // a new length retraces...
  CHECK(after.compiles - before.compiles == 1);  // ...but compiles once
  CHECK(after.kernel_cache_hits - before.kernel_cache_hits == 2);
}

TEST_CASE("llvm backend: 8 threads x 1000 calls with 4 shapes trace once per key") {
  if (!fusejit_test::has_backend("llvm")) return;
  std::atomic<int> traces{0};
  auto f = fj::jit([&](Tracer x) {
    ++traces;
    return x * 3 - 1;
  });
  const std::vector<fj::Array> inputs{fj::ones({1}), fj::ones({17}), fj::ones({4, 5}),
                                      fj::ones({100000})};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        const fj::Array& x = inputs[static_cast<std::size_t>((i + t) % 4)];
        fj::Array y = f(x);
        if (y.size() != x.size() || y.data<float>()[y.size() - 1] != 2.0f) ++wrong;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
  CHECK(traces == 4);
  CHECK(f.trace_count() == 4);
}

TEST_CASE("llvm backend: results do not depend on the number of threads used") {
  if (!fusejit_test::has_backend("llvm")) return;
  fj::Array x = random_array(fj::f32, fj::Shape{1 << 20}, -5, 5, 42);
  auto f = [](Tracer v) { return fj::sin(v) * v + fj::exp(-v * v); };
  auto [got, want] = run_both("llvm", f, x);
  check_close(got, want, 8, "threaded sin*x + exp(-x^2)");
}

TEST_CASE("llvm backend: a kernel over 2^31 + 5 bools indexes with 64-bit math") {
  if (!fusejit_test::has_backend("llvm")) return;
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  fj::Array flags = fj::zeros({n}, fj::bool_);  // about 2 GB
  fj::Array out = fj::jit([](Tracer x) { return fj::logical_not(x); })(flags);
  REQUIRE(out.size() == n);
  const bool* p = out.data<bool>();
  // A 32-bit index would wrap and leave the tail unwritten (fresh pages read as false).
  for (std::int64_t i = n - 8; i < n; ++i) CHECK(p[i]);
  CHECK(p[0]);
  CHECK(p[std::int64_t{1} << 31]);
}

TEST_CASE("llvm backend: an unsupported dtype raises an fj::Error naming the primitive and dtype") {
  if (!fusejit_test::has_backend("llvm")) return;
  fj::ir::Graph g;  // exp of an int32, which the front end never builds (it converts first)
  const auto x = g.new_var({fj::i32, fj::Shape{4}, false});
  g.invars.push_back(x);
  const auto y = g.new_var({fj::i32, fj::Shape{4}, false});
  g.eqns.push_back({fj::ir::Prim::exp, {fj::ir::Atom::of_var(x)}, {y}, {}});
  g.outvars.push_back(fj::ir::Atom::of_var(y));
  fusejit_test::BackendScope s("llvm");
  try {
    fj::backend::default_backend().compile(std::make_shared<const fj::ir::Graph>(g));
    FAIL("no error");
  } catch (const fj::DTypeError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("llvm backend") != std::string::npos);
    CHECK(msg.find("exp") != std::string::npos);
    CHECK(msg.find("i32") != std::string::npos);
  }
}

TEST_CASE("llvm backend: lower().as_text() shows the fused graph and LLVM IR, compile() runs") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto selu =
      fj::jit([](Tracer x) { return 1.05f * fj::where(x > 0, x, 1.67f * fj::exp(x) - 1.67f); });
  fj::Array x = fj::array({-1.0f, 0.5f, 2.0f});
  auto lowered = selu.lower(x);
  const std::string text = lowered.as_text();
  CHECK(text.find("# jaxpr") != std::string::npos);
  CHECK(text.find("fused[") != std::string::npos);
  CHECK(text.find("define void @fj_k_") != std::string::npos);
  CHECK(selu.trace_count() == 0);  // lowering does not fill the call cache
  auto compiled = lowered.compile();
  check_close(compiled(x), selu(x), 0, "compiled selu");
  CHECK_THROWS_AS(compiled(fj::array({1.0f})), fj::ShapeError);
}
