// transpose, reshape and slice: JAX's jaxpr text, values against index arithmetic done here, and
// the LLVM backend (where they are index maps fused into kernels) against the reference.
#include <doctest/doctest.h>

#include <fusejit/backend/kernel_plan.hpp>
#include <fusejit/ir/passes/fuse.hpp>
#include <functional>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::check_close;
using fusejit_test::random_array;
using fusejit_test::run_both;

TEST_CASE("index maps: jaxpr text matches JAX") {
  // Expected strings printed by JAX 0.10.2 for x.T, x.reshape(3, 2), x[:, 1:3], lax.slice.
  const fj::Array x = fj::ones({2, 3});
  CHECK(
      fj::make_jaxpr([](Tracer a) { return fj::transpose(a); })(x).str() ==
      "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n  in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::reshape(a, {3, 2}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = reshape[dimensions=None new_sizes=(3, 2) "
        "sharding=None] a\n"
        "  in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::reshape(a, {-1}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[6] = reshape[dimensions=None new_sizes=(6,) "
        "sharding=None] a\n"
        "  in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::slice(a, {0, 1}, {2, 3}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[2,2] = slice[limit_indices=(2, 3) start_indices=(0, "
        "1) strides=None] a\n"
        "  in (b,) }");
  CHECK(fj::make_jaxpr([](Tracer a) { return fj::slice(a, {0, 1}, {2, 3}, {1, 2}); })(x).str() ==
        "{ lambda ; a:f32[2,3]. let\n    b:f32[2,1] = slice[limit_indices=(2, 3) start_indices=(0, "
        "1) strides=(1, 2)] a\n"
        "  in (b,) }");
}

TEST_CASE("index maps: values on every backend") {
  std::vector<int> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<std::size_t>(i)] = i;
  for (const char* backend : {"reference", "llvm"}) {
    if (!fusejit_test::has_backend(backend)) continue;
    CAPTURE(std::string(backend));
    fusejit_test::BackendScope scope(backend);
    const fj::Array x = fj::array(v, fj::Shape{2, 3, 4});  // x[i, j, k] = 12 i + 4 j + k
    fj::Array t = fj::transpose(x, {2, 0, 1});             // t[k, i, j] = x[i, j, k]
    REQUIRE(t.shape() == fj::Shape{4, 2, 3});
    auto tv = t.to_vector<int>();
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
          CHECK(tv[static_cast<std::size_t>(k * 6 + i * 3 + j)] == 12 * i + 4 * j + k);
    fj::Array s = fj::slice(x, {1, 0, 1}, {2, 3, 4}, {1, 2, 2});  // x[1:2, 0:3:2, 1:4:2]
    REQUIRE(s.shape() == fj::Shape{1, 2, 2});
    CHECK(s.to_vector<int>() == std::vector<int>{12 + 1, 12 + 3, 12 + 8 + 1, 12 + 8 + 3});
    fj::Array r = fj::reshape(x * 2, {4, -1});  // a computed value, then viewed in a new shape
    REQUIRE(r.shape() == fj::Shape{4, 6});
    auto rv = r.to_vector<int>();
    for (int i = 0; i < 24; ++i) CHECK(rv[static_cast<std::size_t>(i)] == 2 * i);
    fj::Array neg = fj::slice(fj::arange(10), {-3}, {10});  // negative bounds count from the end
    CHECK(neg.to_vector<int>() == std::vector<int>{7, 8, 9});
  }
}

TEST_CASE("index maps: fused with elementwise ops and reductions, llvm against the reference") {
  if (!fusejit_test::has_backend("llvm")) return;
  using Fn = std::function<fj::Array(const fj::Array&)>;
  const std::vector<std::pair<const char*, Fn>> cases{
      {"x + x.T", [](const fj::Array& x) -> fj::Array { return x + fj::transpose(x); }},
      {"exp of a strided slice",
       [](const fj::Array& x) -> fj::Array {
         return fj::exp(fj::slice(x, {1, 0}, {65, 65}, {2, 3}));
       }},
      {"sum over a transposed axis",
       [](const fj::Array& x) -> fj::Array { return fj::sum(fj::transpose(x) * 2, {1}); }},
      {"reshape of a computed value, reduced",
       [](const fj::Array& x) -> fj::Array {
         return fj::max(fj::reshape(fj::sin(x), {-1, 5}), {1});
       }},
      {"slice of a transpose of a broadcast",
       [](const fj::Array& x) -> fj::Array {
         return fj::slice(fj::transpose(x + fj::slice(x, {0, 0}, {1, 65})), {3, 2}, {60, 9},
                          {1, 3});
       }},
  };
  unsigned seed = 300;
  for (const auto& [name, f] : cases)
    for (fj::DType d : {fj::f32, fj::f64}) {
      fj::Array x = random_array(d, fj::Shape{65, 65}, -2, 2, seed++);
      auto [got, want] = run_both("llvm", f, x);
      // exp/sin within both backends' bounds (docs/MATH.md and the reference's tests); the rest
      // exact.
      const bool sum = std::string(name).find("sum") != std::string::npos;
      if (sum)
        fusejit_test::check_abs(got, want, 65 * 2 * (d == fj::f32 ? 0x1p-24 : 0x1p-53) * 4 * 65,
                                name);
      else
        check_close(got, want, 6, std::string(name) + " " + std::string(fj::short_name(d)));
    }
}

TEST_CASE("index maps: bad bounds and permutations raise ShapeError") {
  const fj::Array x = fj::ones({2, 3});
  CHECK_THROWS_AS(fj::Array(fj::transpose(x, {0, 0})), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array(fj::reshape(x, {4, 2})), fj::ShapeError);
  CHECK_THROWS_AS(fj::Array(fj::slice(x, {0, 0}, {3, 3})), fj::ShapeError);
  try {
    fj::Array y = fj::reshape(x, {5, -1});
    FAIL("no error");
  } catch (const fj::ShapeError& e) {
    CHECK(std::string(e.what()).find("(2, 3)") != std::string::npos);
  }
}

TEST_CASE("index maps: an elementwise kernel leaves its output's unit dims out of its loops") {
  // Dims of extent 1 always index 0, so the kernel iterates over the others only (kernel_plan.hpp
  // space_dims): an (n, 1) operand of a library call, as jnp stages scatter indices, is one
  // vector loop. The values must not change, whatever index map feeds a unit dim: a slice's
  // offset on it, a flip of it, a transpose moving it, a broadcast into it, a reshape's view.
  if (!fusejit_test::has_backend("llvm")) return;
  using Fn = std::function<fj::Array(const fj::Array&)>;
  const std::vector<std::pair<const char*, Fn>> cases{
      {"a slice of width 1 at an offset",
       [](const fj::Array& x) -> fj::Array { return fj::sin(fj::slice(x, {0, 5}, {65, 6})); }},
      {"a flipped unit dim of a reshape",
       [](const fj::Array& x) -> fj::Array {
         return fj::Array(fj::reshape(fj::cos(x), {65, 1, 65, 1}).flip({1, 3})) * 3;
       }},
      {"a transpose moving a unit dim",
       [](const fj::Array& x) -> fj::Array {
         const fj::Array r = fj::reshape(x * 2, {65, 1, 65});
         return fj::transpose(r, {2, 1, 0}) + fj::transpose(r, {1, 0, 2}).reshape({65, 1, 65});
       }},
      {"a column broadcast into a unit row",
       [](const fj::Array& x) -> fj::Array {
         return fj::slice(x, {3, 0}, {4, 65}) + fj::slice(x, {0, 7}, {1, 8});
       }},
      {"all dims unit",
       [](const fj::Array& x) -> fj::Array { return fj::exp(fj::slice(x, {9, 4}, {10, 5})); }},
  };
  unsigned seed = 400;
  for (const auto& [name, f] : cases) {
    fj::Array x = random_array(fj::f32, fj::Shape{65, 65}, -2, 2, seed++);
    auto [got, want] = run_both("llvm", f, x);
    check_close(got, want, 6, name);
  }
  // The plan of an (n, 1) result iterates over n points in one dim.
  const fj::Array x = random_array(fj::f32, fj::Shape{65, 1}, -2, 2, 1);
  const fj::ir::Graph fused =
      fj::ir::fuse(fj::make_jaxpr([](Tracer a) { return fj::Array(a * 2 + 1); })(x).graph());
  REQUIRE(fused.eqns.size() == 1);
  const auto& sub = *fused.eqns[0].params.get<fj::ir::GraphPtr>("jaxpr");
  const fj::backend::kernel::Plan plan = fj::backend::kernel::Planner(sub).run();
  CHECK(plan.rank == 1);
  CHECK(plan.space_dims == std::vector<int>{0});
}
