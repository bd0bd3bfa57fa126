// Reductions: JAX's jaxpr text, values against float64 references, the LLVM backend against
// the reference backend, identities of empty reductions, and thread-count independence.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::check_close;
using fusejit_test::random_array;
using fusejit_test::run_both;

TEST_CASE("reductions: jaxpr text matches JAX") {
  // Expected strings printed by JAX 0.10.2 for the same jnp calls.
  const fj::Array x = fj::ones({2, 3});
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::sum(a); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a\n  "
        "in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::sum(a, {1}, true); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a\n"
        "    c:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b\n  in (c,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::max(a, {0}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let b:f32[3] = reduce_max[axes=(0,)] a in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::min(a, {-1}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let b:f32[2] = reduce_min[axes=(1,)] a in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::prod(a, {0}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let b:f32[3] = reduce_prod[axes=(0,)] a in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::mean(a, {0}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a\n"
        "    c:f32[3] = div b 2.0:f32[]\n  in (c,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::sum(a * a + fj::sin(a)); })(fj::arange(4.0f))
            .str() ==
        "{ lambda ; a:f32[4]. let\n    b:f32[4] = mul a a\n    c:f32[4] = sin a\n    d:f32[4] = "
        "add b c\n"
        "    e:f32[] = reduce_sum[axes=(0,) out_sharding=None] d\n  in (e,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::sum(a); })(fj::array({true, false})).str() ==
        "{ lambda ; a:bool[2]. let\n    b:i32[2] = convert_element_type[new_dtype=int32 "
        "weak_type=False] a\n"
        "    c:i32[] = reduce_sum[axes=(0,) out_sharding=None] b\n  in (c,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::any(a > 1); })(fj::arange(4.0f)).str() ==
        "{ lambda ; a:f32[4]. let\n    b:bool[4] = gt a 1.0:f32[]\n    c:bool[] = "
        "reduce_or[axes=(0,)] b\n  in (c,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::mean(a); })(fj::arange(4)).str() ==
        "{ lambda ; a:i32[4]. let\n    b:f32[4] = convert_element_type[new_dtype=float32 "
        "weak_type=False] a\n"
        "    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] b\n    d:f32[] = div c 4.0:f32[]\n  "
        "in (d,) }");
  CHECK(fj::make_jaxpr([](Tracer a) {
          return fj::all(a > 0, {0, 1}, true);
        })(x)
            .str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:bool[2,3] = gt a 0.0:f32[]\n    c:bool[] = "
        "reduce_and[axes=(0, 1)] b\n"
        "    d:bool[1,1] = broadcast_in_dim c\n  in (d,) }");
}

TEST_CASE("reductions: values against float64 references on every backend") {
  for (const char* backend : {"reference", "llvm"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    CAPTURE(std::string(backend));
    fusejit_test::BackendScope scope(backend);
    std::vector<double> v(24);
    std::iota(v.begin(), v.end(), -5.0);
    const fj::Array x = fj::array(v, fj::Shape{2, 3, 4});
    auto at = [&](int i, int j, int k) { return v[static_cast<std::size_t>(i * 12 + j * 4 + k)]; };
    // Row sums over the last axis, column maxima over the first, a middle-axis product.
    auto s = fj::Array(fj::sum(x, {2})).to_vector<double>();
    auto m = fj::Array(fj::max(x, {0})).to_vector<double>();
    auto p = fj::Array(fj::prod(x, {1})).to_vector<double>();
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        CHECK(s[static_cast<std::size_t>(i * 3 + j)] ==
              at(i, j, 0) + at(i, j, 1) + at(i, j, 2) + at(i, j, 3));
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k)
        CHECK(m[static_cast<std::size_t>(j * 4 + k)] == std::max(at(0, j, k), at(1, j, k)));
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k)
        CHECK(p[static_cast<std::size_t>(i * 4 + k)] == at(i, 0, k) * at(i, 1, k) * at(i, 2, k));
    CHECK(fj::Array(fj::min(x)).item<double>() == -5.0);
    CHECK(fj::Array(fj::sum(x, {0, 2}, true)).shape() == fj::Shape{1, 3, 1});
    CHECK(fj::Array(fj::mean(fj::arange(4))).item<float>() == 1.5f);
    CHECK(fj::Array(fj::any(x > 17.5)).item<bool>());
    CHECK_FALSE(fj::Array(fj::all(x > -5)).item<bool>());
    CHECK(fj::Array(fj::sum(fj::array({true, true, false}))).item<int>() == 2);
    // Empty reductions give the identity.
    const fj::Array e = fj::zeros({0, 3});
    CHECK(fj::Array(fj::sum(e, {0})).to_vector<float>() == std::vector<float>{0, 0, 0});
    CHECK(fj::Array(fj::prod(e, {0})).to_vector<float>() == std::vector<float>{1, 1, 1});
    CHECK(fj::Array(fj::max(e)).item<float>() == -INFINITY);
    CHECK(fj::Array(fj::min(fj::zeros({0}, fj::i32))).item<int>() ==
          std::numeric_limits<int>::max());
    CHECK(std::isnan(fj::Array(fj::max(fj::array({1.0f, NAN, 3.0f}))).item<float>()));
  }
}

TEST_CASE("reductions: sum(x*x + sin(x)) over arange(1'000'000.) under jit matches the reference") {
  // The seeds' check: jit against the reference backend, in float32, within 1e-6 relative.
  // Both sum pairwise (the reference as NumPy does; llvm in lane-blocks combined as a tree), so
  // each is within about 1e-7 of the float64 value, which is checked too.
  auto f = [](Tracer x) { return fj::sum(x * x + fj::sin(x)); };
  const fj::Array x = fj::arange(1'000'000.0f);
  long double exact = 0;
  for (int i = 0; i < 1'000'000; ++i)
    exact +=
        static_cast<long double>(i) * i + std::sin(static_cast<long double>(static_cast<float>(i)));
  float ref = 0;
  {
    fusejit_test::BackendScope scope("reference");
    ref = fj::jit(f)(x).item<float>();
  }
  CHECK(std::fabs(static_cast<double>(ref - exact)) <= 1e-6 * static_cast<double>(exact));
  if (!fusejit_test::has_backend("llvm")) return;
  const float got = fj::jit(f)(x).item<float>();
  CHECK(std::fabs(static_cast<double>(got) - ref) <= 1e-6 * std::fabs(static_cast<double>(ref)));
  CHECK(std::fabs(static_cast<double>(got - exact)) <= 1e-6 * static_cast<double>(exact));
}

TEST_CASE("reductions: the llvm backend matches the reference over axes, shapes and dtypes") {
  if (!fusejit_test::has_backend("llvm")) return;
  struct Case {
    const char* name;
    std::function<fj::Array(const fj::Array&)> f;
  };
  const std::vector<Case> cases{
      {"sum all", [](const fj::Array& x) -> fj::Array { return fj::sum(x); }},
      {"sum last", [](const fj::Array& x) -> fj::Array { return fj::sum(x, {-1}); }},
      {"sum first keepdims", [](const fj::Array& x) -> fj::Array { return fj::sum(x, {0}, true); }},
      {"max first", [](const fj::Array& x) -> fj::Array { return fj::max(x, {0}); }},
      {"min all", [](const fj::Array& x) -> fj::Array { return fj::min(x); }},
      {"prod last", [](const fj::Array& x) -> fj::Array { return fj::prod(x * 0 + 1, {-1}); }},
      {"fused then reduced then used",
       [](const fj::Array& x) -> fj::Array { return x - fj::max(x * 2, {-1}, true); }},
  };
  const std::vector<fj::Shape> shapes{fj::Shape{1000003}, fj::Shape{7},      fj::Shape{1},
                                      fj::Shape{3, 1025}, fj::Shape{257, 3}, fj::Shape{2, 3, 4, 5},
                                      fj::Shape{0, 4},    fj::Shape{4, 0}};
  unsigned seed = 77;
  for (const auto& c : cases)
    for (fj::DType d : {fj::f32, fj::f64, fj::i32, fj::i64, fj::u32})
      for (const auto& s : shapes) {
        fj::Array x = random_array(d, s, d == fj::u32 ? 0 : -3, 3, seed++);
        auto [got, want] = run_both("llvm", c.f, x);
        const std::string what =
            std::string(c.name) + " " + std::string(fj::short_name(d)) + s.str();
        if (fj::is_float(d) && std::string(c.name).find("sum") != std::string::npos) {
          // Float sums accumulate in vector lanes and blocks on llvm, in one chain on the
          // reference: each result is within (n - 1) eps sum|x| of the exact sum (recursive
          // summation bound), so they differ by at most twice that. |x| <= 3 here.
          const double n = static_cast<double>(std::max<std::int64_t>(s.size(), 1));
          const double eps = d == fj::f32 ? 0x1p-24 : 0x1p-53;
          fusejit_test::check_abs(got, want, 2 * n * eps * 3 * n, what);
        } else {
          check_close(got, want, 0, what);
        }
      }
}

TEST_CASE("reductions: results do not depend on the number of threads") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, fj::Shape{3 << 20}, -1, 1, 5);
  const fj::Array m = random_array(fj::f32, fj::Shape{50, 70001}, -1, 1, 6);
  auto f = fj::jit([](Tracer v, Tracer w) {
    return std::make_tuple(fj::sum(v * v), fj::sum(w, {1}), fj::sum(w, {0}));
  });
  std::vector<std::vector<float>> results;
  for (int threads : {1, 2, 3, 64}) {
    fj::runtime::set_thread_limit(threads);
    auto [a, b, c] = f(x, m);
    std::vector<float> r = a.to_vector<float>();
    for (float e : b.to_vector<float>()) r.push_back(e);
    for (float e : c.to_vector<float>()) r.push_back(e);
    results.push_back(r);
  }
  fj::runtime::set_thread_limit(1 << 30);
  for (std::size_t k = 1; k < results.size(); ++k) CHECK(results[k] == results[0]);  // bit for bit
}
