// dot/matmul/dot_general, argmax/argmin, concatenate/stack and dynamic slices: JAX's jaxpr text
// (tests/golden/library_goldens.txt, printed by JAX 0.10.2), values against computations done
// here (float64 for products), and the LLVM backend against the same references.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "../examples/seed_functions.hpp"
#include "backend_compare.hpp"
#include "golden_file.hpp"

using fj::Tracer;
using fusejit_test::BackendScope;
using fusejit_test::random_array;
namespace seeds = fusejit_seeds;

namespace {

// The `=== name` sections of the golden file, each the text JAX printed.
const std::map<std::string, std::string>& goldens() {
  static const auto g = fusejit_test::read_goldens("library_goldens.txt");
  return g;
}

std::string golden(const std::string& name) {
  auto it = goldens().find(name);
  REQUIRE_MESSAGE(it != goldens().end(), "no golden " << name);
  return it->second;
}

std::vector<const char*> backends() {
  std::vector<const char*> b{"reference"};
  if (fusejit_test::has_backend("llvm")) b.push_back("llvm");
  return b;
}

std::vector<double> as_doubles(const fj::Array& a) {
  return fj::visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    std::vector<double> v;
    for (std::int64_t i = 0; i < a.size(); ++i) v.push_back(static_cast<double>(a.data<T>()[i]));
    return v;
  });
}

// C[b, i, j] = sum_k A[b, i, k] B[b, k, j] in float64, with the bound on a float computation in
// any summation order: gamma_K * sum_k |A B| (Higham, Accuracy and Stability, 3.1), where
// gamma_K = K u / (1 - K u) and u is the unit roundoff of the dtype. FMA only tightens it.
struct Product64 {
  std::vector<double> value, bound;
};
Product64 matmul64(const std::vector<double>& a, const std::vector<double>& b, std::int64_t batch,
                   std::int64_t m, std::int64_t k, std::int64_t n, double u) {
  Product64 p;
  const double gamma = static_cast<double>(k) * u / (1 - static_cast<double>(k) * u);
  for (std::int64_t t = 0; t < batch; ++t)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0, abs_sum = 0;
        for (std::int64_t q = 0; q < k; ++q) {
          const double x = a[static_cast<std::size_t>((t * m + i) * k + q)] *
                           b[static_cast<std::size_t>((t * k + q) * n + j)];
          s += x;
          abs_sum += std::fabs(x);
        }
        p.value.push_back(s);
        p.bound.push_back(gamma * abs_sum);
      }
  return p;
}

void check_product(const fj::Array& got, const Product64& want, const std::string& what) {
  CAPTURE(what);
  const auto g = as_doubles(got);
  REQUIRE(g.size() == want.value.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!(std::fabs(g[i] - want.value[i]) <= want.bound[i])) bad += (bad == 0 ? (first = i, 1) : 1);
  if (bad)
    INFO("element " << first << ": got " << g[first] << ", want " << want.value[first] << " +- "
                    << want.bound[first]);
  CHECK(bad == 0);
}

// Row-major data of x permuted so that axis order becomes `perm` (for building references).
std::vector<double> permuted(const fj::Array& x, const std::vector<int>& perm) {
  const auto v = as_doubles(x);
  const fj::Shape& s = x.shape();
  fj::Shape ps;
  for (int p : perm) ps.push_back(s[p]);
  std::vector<double> out(v.size());
  std::vector<std::int64_t> idx(perm.size(), 0);
  for (std::size_t o = 0; o < v.size(); ++o) {
    std::int64_t src = 0, stride = 1;
    std::vector<std::int64_t> full(perm.size());
    for (std::size_t d = 0; d < perm.size(); ++d) full[static_cast<std::size_t>(perm[d])] = idx[d];
    for (int d = s.rank() - 1; d >= 0; --d)
      src += full[static_cast<std::size_t>(d)] * stride, stride *= s[d];
    out[o] = v[static_cast<std::size_t>(src)];
    for (int d = static_cast<int>(perm.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < ps[d]) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("library ops: jaxpr text matches JAX") {
  const auto o = [](fj::Shape s, fj::DType d = fj::f32) { return fj::ones(s, d); };
  const fj::Array x5 = fj::arange(5.0f), w3 = fj::array({2.f, 3.f, 4.f});
  auto jaxpr = [](auto f, const auto&... a) { return fj::make_jaxpr(f)(a...).str(); };
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::dot(a, b); }, o({2, 3}), o({3, 4})) ==
        golden("dot"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::dot(a, b); }, o({3}), o({3})) ==
        golden("dot_vec"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::dot(a, b); }, o({2, 2, 3}), o({4, 3, 5})) ==
        golden("dot_nd_md"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::dot(a, b); }, o({2, 3}), o({3, 4}, fj::i32)) ==
        golden("dot_mixed"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({5, 2, 3}), o({5, 3, 4})) ==
        golden("matmul_batched"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({5, 2, 3}), o({3, 4})) ==
        golden("matmul_bcast_rhs"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({3}), o({5, 3, 4})) ==
        golden("matmul_vec_mat"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({2, 3}, fj::i32),
              o({3, 4}, fj::i32)) == golden("matmul_int"));
  CHECK(jaxpr([](Tracer a) { return fj::matmul(fj::transpose(a), a); }, o({3, 2})) ==
        golden("xT_x"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::dot_general(a, b, {0}, {1}, {2}, {0}); },
              o({3, 2, 4}), o({4, 3, 5})) == golden("lax_dot_general"));
  CHECK(jaxpr([](Tracer a, Tracer w, Tracer b) { return fj::maximum(fj::matmul(a, w) + b, 0); },
              o({2, 3}), o({3, 4}), o({4})) == golden("linear_relu"));
  CHECK(jaxpr([](Tracer a) { return fj::argmax(a); }, o({2, 3})) == golden("argmax"));
  CHECK(jaxpr([](Tracer a) { return fj::argmax(a, 1); }, o({2, 3})) == golden("argmax_axis"));
  CHECK(jaxpr([](Tracer a) { return fj::argmin(a, 0, true); }, o({2, 3})) ==
        golden("argmin_keepdims"));
  CHECK(jaxpr(
            [](Tracer a, Tracer b) {
              return fj::concatenate({a, b});
            },
            x5, w3) == golden("concatenate"));
  CHECK(jaxpr(
            [](Tracer a, Tracer b) {
              return fj::concatenate({a, b}, -1);
            },
            o({2, 2}, fj::i32), o({2, 3})) == golden("concatenate_promote"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::stack({a, b}); }, w3, w3) == golden("stack"));
  CHECK(jaxpr(
            [](Tracer a, Tracer b) {
              return fj::stack({a, b}, 1);
            },
            w3, w3) == golden("stack_axis1"));
  CHECK(jaxpr([](Tracer a, Tracer i) { return fj::lax::dynamic_slice(a, {i}, {2}); }, x5,
              fj::array(1)) == golden("dynamic_slice"));
  CHECK(jaxpr(
            [](Tracer a, Tracer i, Tracer j) {
              return fj::lax::dynamic_slice(a, {i, j}, {1, 2});
            },
            o({2, 3}), fj::array(1), fj::array(0)) == golden("dynamic_slice_2d"));
  CHECK(jaxpr([](Tracer a, Tracer u, Tracer i) { return fj::lax::dynamic_update_slice(a, u, {i}); },
              x5, fj::array({2.f, 3.f}), fj::array(1)) == golden("dynamic_update_slice"));
  CHECK(jaxpr([](Tracer a) { return fj::mean(a); }, fj::arange(4)) == golden("mean_int"));
  CHECK(jaxpr(seeds::convolve, x5, w3) == golden("convolve"));
  CHECK(jaxpr(seeds::sum_of_squares_plus_sin, x5) == golden("sum_of_squares_plus_sin"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({5, 2, 3}), o({1, 3, 4})) ==
        golden("matmul_squeeze_b1"));
  CHECK(jaxpr([](Tracer a, Tracer b) { return fj::matmul(a, b); }, o({2, 1, 2, 3}), o({5, 3, 4})) ==
        golden("matmul_broadcast_batch"));
  CHECK(jaxpr(seeds::manually_vectorized_convolve, fj::Array(fj::stack({x5, x5})),
              fj::Array(fj::stack({w3, w3}))) == golden("manually_vectorized_convolve"));
}

TEST_CASE("library ops: the seeds' convolutions give the seeds' numbers on every backend") {
  const fj::Array x = fj::arange(5.0f), w = fj::array({2.f, 3.f, 4.f});
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    fj::Array y = fj::jit(seeds::convolve)(x, w);
    CHECK(y.shape() == fj::Shape{3});
    CHECK(y.to_vector<float>() == std::vector<float>{11, 20, 29});
    fj::Array ys = fj::jit(seeds::manually_vectorized_convolve)(fj::Array(fj::stack({x, x})),
                                                                fj::Array(fj::stack({w, w})));
    CHECK(ys.shape() == fj::Shape{2, 3});
    CHECK(ys.to_vector<float>() == std::vector<float>{11, 20, 29, 11, 20, 29});
  }
}

TEST_CASE("library ops: sum(x**2 + sin(x)) over arange(1e6) within 1e-6 of float64") {
  const fj::Array x = fj::arange(1'000'000.0f);
  double want = 0;  // float64 of the same float32 inputs (every integer below 2^24 is exact)
  for (int i = 0; i < 1'000'000; ++i) want += static_cast<double>(i) * i + std::sin(double(i));
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    const double got = fj::jit(seeds::sum_of_squares_plus_sin)(x).item<double>();
    CHECK(std::fabs(got - want) <= 1e-6 * std::fabs(want));
  }
}

TEST_CASE("dot_general: every operand layout, batched, threaded, against float64") {
  // (name, lhs shape, rhs shape, contracting, batch, perm of lhs to (B,M,K), rhs to (B,K,N))
  struct Case {
    const char* name;
    fj::Shape ls, rs;
    std::vector<std::int64_t> lc, rc, lb, rb;
    std::vector<int> lperm, rperm;  // axis orders giving lhs as (B, M, K) and rhs as (B, K, N)
    std::int64_t batch, m, k, n;
  };
  const std::vector<Case> cases{
      {"A B", {67, 45}, {45, 33}, {1}, {0}, {}, {}, {0, 1}, {0, 1}, 1, 67, 45, 33},
      {"A^T B", {45, 67}, {45, 33}, {0}, {0}, {}, {}, {1, 0}, {0, 1}, 1, 67, 45, 33},
      {"A B^T", {67, 45}, {33, 45}, {1}, {1}, {}, {}, {0, 1}, {1, 0}, 1, 67, 45, 33},
      {"A^T B^T", {45, 67}, {33, 45}, {0}, {1}, {}, {}, {1, 0}, {1, 0}, 1, 67, 45, 33},
      {"batched",
       {5, 33, 17},
       {5, 17, 29},
       {2},
       {1},
       {0},
       {0},
       {0, 1, 2},
       {0, 1, 2},
       5,
       33,
       17,
       29},
      {"batch last (copied)",
       {33, 17, 5},
       {17, 29, 5},
       {1},
       {0},
       {2},
       {2},
       {2, 0, 1},
       {2, 0, 1},
       5,
       33,
       17,
       29},
      {"threaded panels",
       {300, 200},
       {200, 250},
       {1},
       {0},
       {},
       {},
       {0, 1},
       {0, 1},
       1,
       300,
       200,
       250},
      {"empty contraction", {4, 0}, {0, 3}, {1}, {0}, {}, {}, {0, 1}, {0, 1}, 1, 4, 0, 3},
  };
  unsigned seed = 700;
  for (const Case& c : cases)
    for (fj::DType d : {fj::f32, fj::f64}) {
      CAPTURE(c.name);
      const fj::Array a = random_array(d, c.ls, -1, 1, seed++),
                      b = random_array(d, c.rs, -1, 1, seed++);
      const double u = d == fj::f32 ? 0x1p-24 : 0x1p-53;
      const Product64 want =
          matmul64(permuted(a, c.lperm), permuted(b, c.rperm), c.batch, c.m, c.k, c.n, u);
      for (const char* backend : backends()) {
        CAPTURE(std::string(backend));
        BackendScope scope(backend);
        auto f = [&](Tracer x, Tracer y) {
          return fj::lax::dot_general(x, y, c.lc, c.rc, c.lb, c.rb);
        };
        check_product(fj::jit(f)(a, b), want, std::string(c.name) + " " + fj::short_name(d).data());
      }
    }
}

TEST_CASE("dot_general: integers wrap, mixed dtypes convert first, GEMM ISAs agree") {
  // int32: products chosen to overflow, reference value computed in wrapping uint32 here.
  const fj::Array a = random_array(fj::i32, {7, 9}, -70000, 70000, 1),
                  b = random_array(fj::i32, {9, 5}, -70000, 70000, 2);
  std::vector<std::int32_t> want(35);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) {
      std::uint32_t s = 0;
      for (int q = 0; q < 9; ++q)
        s += static_cast<std::uint32_t>(a.data<std::int32_t>()[i * 9 + q]) *
             static_cast<std::uint32_t>(b.data<std::int32_t>()[q * 5 + j]);
      want[static_cast<std::size_t>(i * 5 + j)] = static_cast<std::int32_t>(s);
    }
  const fj::Array f = random_array(fj::f32, {6, 4}, -1, 1, 3);
  const fj::Array g = random_array(fj::i32, {4, 3}, -5, 5, 4);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    CHECK(fj::Array(fj::matmul(a, b)).to_vector<std::int32_t>() == want);
    fj::Array mixed = fj::dot(f, g);  // f32 x i32 -> f32, as jnp.dot
    REQUIRE(mixed.dtype() == fj::f32);
    check_product(mixed, matmul64(as_doubles(f), as_doubles(g), 1, 6, 4, 3, 0x1p-24), "f32 . i32");
  }
}

TEST_CASE(
    "matmul: fused epilogue relu(x @ W + b) and a non-pointwise consumer, llvm vs reference") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, {260, 130}, -1, 1, 11),
                  w = random_array(fj::f32, {130, 190}, -1, 1, 12),
                  bias = random_array(fj::f32, {190}, -1, 1, 13),
                  sq = random_array(fj::f32, {190, 190}, -1, 1, 14);
  auto relu_linear = [](Tracer a, Tracer ww, Tracer bb) {
    return fj::maximum(fj::matmul(a, ww) + bb, 0);
  };
  // The consumer reads the product transposed, so it must wait for the whole product.
  auto transposed_use = [](Tracer s) {
    fj::Tracer p = fj::matmul(s, s);
    return p + fj::transpose(p);
  };
  const auto lowered = fj::jit(relu_linear).lower(x, w, bias).as_text();
  CHECK(lowered.find("fused as its epilogue") != std::string::npos);
  // FUSEJIT_GEMM_ISA (ctest's gemm_isa.* runs) picks the GEMM build these tests exercise.
  if (const char* isa = std::getenv("FUSEJIT_GEMM_ISA"); isa && std::string(isa) != "avx512")
    CHECK(lowered.find(std::string("Eigen GEMM, ") + isa) != std::string::npos);
  const Product64 p = matmul64(as_doubles(x), as_doubles(w), 1, 260, 130, 190, 0x1p-24);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    fj::Array got = fj::jit(relu_linear)(x, w, bias);
    // relu(v + b): the bound on v carries over (adding b and relu do not enlarge it beyond one
    // rounding of the sum, |v + b| u, added here).
    const auto g = as_doubles(got);
    const auto bv = as_doubles(bias);
    bool ok = true;
    for (std::size_t i = 0; i < g.size(); ++i) {
      const double v = p.value[i] + bv[i % 190];
      const double tol = p.bound[i] + std::fabs(v) * 0x1p-24 + 1e-30;
      ok = ok && std::fabs(g[i] - std::max(v, 0.0)) <= tol;
    }
    CHECK(ok);
    fj::Array t = fj::jit(transposed_use)(sq);
    const Product64 q = matmul64(as_doubles(sq), as_doubles(sq), 1, 190, 190, 190, 0x1p-24);
    const auto tv = as_doubles(t);
    bool ok2 = true;
    for (int i = 0; i < 190; ++i)
      for (int j = 0; j < 190; ++j) {
        const auto ij = static_cast<std::size_t>(i * 190 + j),
                   ji = static_cast<std::size_t>(j * 190 + i);
        const double v = q.value[ij] + q.value[ji];
        ok2 = ok2 && std::fabs(tv[ij] - v) <= q.bound[ij] + q.bound[ji] + std::fabs(v) * 0x1p-24;
      }
    CHECK(ok2);
  }
}

TEST_CASE("argmax/argmin: first extreme, NaN wins, axes and keepdims, on every backend") {
  const float nan = NAN;
  const fj::Array v = fj::array({1.f, 5.f, 5.f, nan, 2.f, nan});
  const fj::Array m = random_array(fj::f32, {37, 41}, -3, 3, 21);
  const fj::Array mi = random_array(fj::i32, {37, 41}, -4, 4, 22);  // many ties
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    // JAX: argmax([1, nan, 3]) == 1, argmax([1, 3, 3]) == 1, argmin([nan, 0, -1]) == 0.
    CHECK(fj::Array(fj::argmax(fj::array({1.f, nan, 3.f}))).item<int>() == 1);
    CHECK(fj::Array(fj::argmax(fj::array({1.f, 3.f, 3.f}))).item<int>() == 1);
    CHECK(fj::Array(fj::argmin(fj::array({nan, 0.f, -1.f}))).item<int>() == 0);
    CHECK(fj::Array(fj::argmax(v)).item<int>() == 3);
    for (const fj::Array* a : {&m, &mi})
      for (int axis : {0, 1, -1}) {
        CAPTURE(axis);
        const int ax = axis < 0 ? axis + 2 : axis;
        fj::Array got_max = fj::jit([axis](Tracer t) { return fj::argmax(t, axis); })(*a);
        fj::Array got_min = fj::argmin(*a, axis, true);
        const auto x = as_doubles(*a);
        const std::int64_t n0 = 37, n1 = 41, len = ax == 0 ? n0 : n1, outer = ax == 0 ? n1 : n0;
        REQUIRE(got_max.dtype() == fj::i32);
        CHECK(got_min.shape() == (ax == 0 ? fj::Shape{1, 41} : fj::Shape{37, 1}));
        for (std::int64_t o = 0; o < outer; ++o) {
          auto at = [&](std::int64_t i) {
            return x[static_cast<std::size_t>(ax == 0 ? i * n1 + o : o * n1 + i)];
          };
          std::int64_t best_max = 0, best_min = 0;
          for (std::int64_t i = 1; i < len; ++i) {
            if (at(i) > at(best_max)) best_max = i;
            if (at(i) < at(best_min)) best_min = i;
          }
          CHECK(got_max.data<std::int32_t>()[o] == best_max);
          CHECK(got_min.data<std::int32_t>()[o] == best_min);
        }
      }
    CHECK_THROWS_AS(fj::Array(fj::argmax(fj::zeros({0}))), fj::ValueError);
    CHECK_THROWS_AS(fj::Array(fj::argmin(fj::zeros({3, 0}), 1)), fj::ValueError);
  }
}

TEST_CASE("concatenate and stack: placement, promotion, on every backend") {
  const fj::Array a = random_array(fj::i32, {3, 4}, -9, 9, 31),
                  b = random_array(fj::f32, {3, 2}, -9, 9, 32);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    fj::Array c = fj::jit([](Tracer x, Tracer y) { return fj::concatenate({x, y, x}, 1); })(a, b);
    REQUIRE(c.shape() == fj::Shape{3, 10});
    REQUIRE(c.dtype() == fj::f32);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 10; ++j) {
        const float want = j < 4   ? static_cast<float>(a.data<std::int32_t>()[i * 4 + j])
                           : j < 6 ? b.data<float>()[i * 2 + j - 4]
                                   : static_cast<float>(a.data<std::int32_t>()[i * 4 + j - 6]);
        CHECK(c.data<float>()[i * 10 + j] == want);
      }
    for (int axis : {0, 1, 2, -1}) {
      CAPTURE(axis);
      fj::Array s = fj::stack({a, a * 2}, axis);
      const int ax = axis < 0 ? axis + 3 : axis;
      const fj::Shape want_shape = ax == 0   ? fj::Shape{2, 3, 4}
                                   : ax == 1 ? fj::Shape{3, 2, 4}
                                             : fj::Shape{3, 4, 2};
      REQUIRE(s.shape() == want_shape);
      for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 4; ++j) {
            const std::int64_t at = ax == 0   ? (k * 3 + i) * 4 + j
                                    : ax == 1 ? (i * 2 + k) * 4 + j
                                              : (i * 4 + j) * 2 + k;
            CHECK(s.data<std::int32_t>()[at] == (k + 1) * a.data<std::int32_t>()[i * 4 + j]);
          }
    }
  }
}

TEST_CASE("dynamic_slice and dynamic_update_slice clamp starts as JAX does") {
  const fj::Array x = fj::arange(5.0f);
  auto ds = [](Tracer a, Tracer i) { return fj::lax::dynamic_slice(a, {i}, {2}); };
  auto dus = [](Tracer a, Tracer u, Tracer i) { return fj::lax::dynamic_update_slice(a, u, {i}); };
  const fj::Array m = random_array(fj::f64, {6, 7}, -1, 1, 41);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    // JAX: starts 1, 4, -1, -9 give [1, 2], [3, 4] (clamped), [3, 4] (wrapped, clamped), [0, 1].
    const std::vector<std::pair<int, std::vector<float>>> slices{
        {1, {1, 2}}, {4, {3, 4}}, {-1, {3, 4}}, {-9, {0, 1}}};
    for (const auto& [start, want] : slices) {
      CAPTURE(start);
      CHECK(fj::jit(ds)(x, fj::array(start)).to_vector<float>() == want);
    }
    const fj::Array u = fj::array({10.f, 20.f});
    CHECK(fj::jit(dus)(x, u, fj::array(2)).to_vector<float>() ==
          std::vector<float>{0, 1, 10, 20, 4});
    CHECK(fj::jit(dus)(x, u, fj::array(9)).to_vector<float>() ==
          std::vector<float>{0, 1, 2, 10, 20});
    CHECK(fj::jit(dus)(x, u, fj::array(-1)).to_vector<float>() ==
          std::vector<float>{0, 1, 2, 10, 20});
    // 2-D, with a C++ int start and a traced one, computed before and used after in kernels.
    fj::Array s = fj::jit([](Tracer a, Tracer j) {
      return fj::lax::dynamic_slice(a * 2, {1, j}, {3, 4}) + 1;
    })(m, fj::array(5));
    REQUIRE(s.shape() == fj::Shape{3, 4});
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)  // column start 5 clamps to 7 - 4 = 3
        CHECK(s.data<double>()[i * 4 + j] == m.data<double>()[(1 + i) * 7 + 3 + j] * 2 + 1);
  }
}

TEST_CASE("library ops: bad input raises ShapeError / DTypeError naming the shapes") {
  auto message = [](auto f) -> std::string {
    try {
      f();
    } catch (const fj::ShapeError& e) {
      return e.what();
    }
    return "no ShapeError";
  };
  const std::string mm = message([] {
    fj::Array r = fj::matmul(fj::ones({2, 3}), fj::ones({4, 5}));
  });
  CHECK(mm.find("fj::matmul") != std::string::npos);
  CHECK(mm.find("f32[2,3]") != std::string::npos);
  CHECK(mm.find("f32[4,5]") != std::string::npos);
  const std::string dt = message([] { fj::Array r = fj::dot(fj::ones({3}), fj::ones({4})); });
  CHECK(dt.find("f32[3] and f32[4]") != std::string::npos);
  const std::string cc = message([] {
    fj::Array r = fj::concatenate({fj::ones({2, 3}), fj::ones({3})});
  });
  CHECK(cc.find("f32[2,3], f32[3]") != std::string::npos);
  CHECK_THROWS_AS(fj::Array(fj::stack({fj::ones({2}), fj::ones({3})})), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array(fj::matmul(fj::ones({5, 2, 3}), fj::ones({4, 3, 2}))), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array(fj::lax::dynamic_slice(fj::ones({4}), {0}, {5})), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array(fj::lax::dynamic_slice(fj::ones({4}), {fj::array(1.5f)}, {2})),
                  fj::DTypeError);
  CHECK_THROWS_AS(fj::Array(fj::dot(fj::ones({2}, fj::bool_), fj::ones({2}, fj::bool_))),
                  fj::DTypeError);
}

TEST_CASE("matmul: broadcast batch dims (squeeze, dot_general, transpose) against float64") {
  const fj::Array a = random_array(fj::f32, {2, 1, 4, 3}, -1, 1, 51),
                  b = random_array(fj::f32, {5, 3, 6}, -1, 1, 52);
  const auto av = as_doubles(a), bv = as_doubles(b);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    fj::Array c = fj::jit([](Tracer x, Tracer y) { return fj::matmul(x, y); })(a, b);
    REQUIRE(c.shape() == fj::Shape{2, 5, 4, 6});
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 5; ++j) {
        // c[i, j] = a[i, 0] @ b[j]
        const std::vector<double> ai(av.begin() + i * 12, av.begin() + (i + 1) * 12),
            bj(bv.begin() + j * 18, bv.begin() + (j + 1) * 18);
        const Product64 want = matmul64(ai, bj, 1, 4, 3, 6, 0x1p-24);
        const fj::Array cij = fj::Array(c(i, j));
        check_product(cij, want, "c[" + std::to_string(i) + ", " + std::to_string(j) + "]");
      }
  }
}

TEST_CASE("matmul: a transposed operand is read in place (folded into the GEMM's flags)") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array x = random_array(fj::f32, {70, 40}, -1, 1, 61),
                  y = random_array(fj::f32, {70, 30}, -1, 1, 62),
                  bx = random_array(fj::f32, {3, 20, 10}, -1, 1, 63);
  auto xt_y = [](Tracer a, Tracer b) { return fj::matmul(fj::transpose(a), b); };
  // Batched, transposing the last two dims of the rhs: folds too.
  auto batched = [](Tracer a) { return fj::matmul(a, fj::transpose(a, {0, 2, 1})); };
  // Reverses the batch and free dims of the lhs: its free dims would change order, no fold.
  auto no_fold = [](Tracer a, Tracer c) { return fj::dot(fj::transpose(a, {2, 1, 0}), c); };
  const fj::Array c = random_array(fj::f32, {4, 3, 5}, -1, 1, 64);
  BackendScope scope("llvm");
  const std::string text = fj::jit(xt_y).lower(x, y).as_text();
  const auto fused_graph = text.substr(text.find("# fused graph"));
  CHECK(fused_graph.find("transpose") == std::string::npos);  // no transposed copy is made
  check_product(fj::jit(xt_y)(x, y),
                matmul64(permuted(x, {1, 0}), as_doubles(y), 1, 40, 70, 30, 0x1p-24), "x.T @ y");
  const fj::Array bt = fj::jit(batched)(bx);
  REQUIRE(bt.shape() == fj::Shape{3, 20, 20});
  check_product(bt, matmul64(as_doubles(bx), permuted(bx, {0, 2, 1}), 3, 20, 10, 20, 0x1p-24),
                "a @ a^T batched");
  BackendScope ref("reference");
  const fj::Array want = fj::jit(no_fold)(bx, c);
  BackendScope llvm("llvm");
  const fj::Array got = fj::jit(no_fold)(bx, c);
  REQUIRE(got.shape() == fj::Shape{10, 20, 4, 5});
  // Three terms each below 1 in magnitude: each side within 3 u of the exact sum (gamma_3).
  fusejit_test::check_abs(got, want, 2 * 3 * 3 * 0x1p-24, "dot(transpose(a, (2, 1, 0)), c)");
}

TEST_CASE("array methods work on expressions too: matmul(a, b).T(), (x + 1)(i), ...") {
  const fj::Array a = random_array(fj::f32, {4, 3}, -1, 1, 71),
                  b = random_array(fj::f32, {3, 5}, -1, 1, 72);
  for (const char* backend : backends()) {
    CAPTURE(std::string(backend));
    BackendScope scope(backend);
    const fj::Array p = fj::matmul(a, b);
    const fj::Array pt = fj::jit([](Tracer x, Tracer y) { return fj::matmul(x, y).T(); })(a, b);
    REQUIRE(pt.shape() == fj::Shape{5, 4});
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j) CHECK(pt.data<float>()[j * 4 + i] == p.data<float>()[i * 5 + j]);
    const fj::Array row = (a + 1)(2);  // (a + 1)[2]
    REQUIRE(row.shape() == fj::Shape{3});
    for (int j = 0; j < 3; ++j) CHECK(row.data<float>()[j] == a.data<float>()[2 * 3 + j] + 1);
    const fj::Array flat = (a * 2).reshape({-1}).astype(fj::f64);
    REQUIRE(flat.shape() == fj::Shape{12});
    CHECK(flat.dtype() == fj::f64);
    CHECK(flat.data<double>()[7] == static_cast<double>(a.data<float>()[7] * 2));
    const fj::Array col = fj::concatenate({a, a}).slice({0, 1}, {8, 2});
    REQUIRE(col.shape() == fj::Shape{8, 1});
    CHECK(col.data<float>()[5] == a.data<float>()[1 * 3 + 1]);
  }
}
