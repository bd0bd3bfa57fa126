// fj::grad, value_and_grad, jvp, vjp, vmap and stop_gradient from the user's side: the seed
// programs, composition with jit and with each other, and the errors.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>

#include "../examples/seed_functions.hpp"

namespace {

using fj::Array;
using fusejit_seeds::convolve;

std::vector<float> floats(const Array& a) {
  Array f = a.astype(fj::DType::f32);
  return f.to_vector<float>();
}

}  // namespace

TEST_CASE("vmap seed: auto_batch_convolve on stacked and on transposed inputs") {
  const Array x = fj::arange(5).astype(fj::DType::f32);
  const Array w = fj::array({2.0f, 3.0f, 4.0f});
  const Array xs = fj::stack({x, x}), ws = fj::stack({w, w});
  // The reference: the unbatched function on each row, which the seeds print as [11, 20, 29].
  CHECK(floats(convolve(x, w)) == std::vector<float>{11, 20, 29});
  const auto batched = fj::vmap([](Array a, Array b) { return convolve(a, b); });
  const Array r = batched(xs, ws);
  CHECK(r.shape() == fj::Shape{2, 3});
  CHECK(floats(r) == std::vector<float>{11, 20, 29, 11, 20, 29});

  const auto by_columns =
      fj::vmap([](Array a, Array b) { return convolve(a, b); }, fj::in_axes{1, 1}, fj::out_axes{1});
  const Array rt = by_columns(xs.T(), ws.T());
  CHECK(rt.shape() == fj::Shape{3, 2});
  CHECK(floats(rt) == std::vector<float>{11, 11, 20, 20, 29, 29});
}

TEST_CASE("grad seed: TD learning with and without stop_gradient, against the analytic gradient") {
  const std::vector<float> th{0.1f, -0.1f, 0.0f}, s0{1, 2, -1}, s1{2, 1, 0};
  const float r = 1.0f;
  const Array theta = fj::array({th[0], th[1], th[2]});
  const Array s_tm1 = fj::array({s0[0], s0[1], s0[2]}), s_t = fj::array({s1[0], s1[1], s1[2]});
  auto td_loss = [](Array theta, Array s_tm1, Array r_t, Array s_t) {
    return fusejit_seeds::td_loss(theta, s_tm1, r_t, s_t);
  };
  auto td_loss_stop = [](Array theta, Array s_tm1, Array r_t, Array s_t) {
    return fusejit_seeds::td_loss(theta, s_tm1, r_t, s_t, /*stop_target=*/true);
  };
  // Analytic: delta = r + theta.s_t - theta.s_tm1; loss = -delta^2 / 2, so the gradient is
  // -delta (s_t - s_tm1), or delta s_tm1 when the target is held constant.
  double delta = r;
  for (int i = 0; i < 3; ++i) delta += double(th[i]) * s1[i] - double(th[i]) * s0[i];
  const Array rt = fj::array(r);
  const auto g = floats(fj::grad(td_loss)(theta, s_tm1, rt, s_t));
  const auto gs = floats(fj::grad(td_loss_stop)(theta, s_tm1, rt, s_t));
  for (int i = 0; i < 3; ++i) {
    // f32 arithmetic on values of magnitude ~2: a few ulps of 2.4.
    CHECK(g[i] == doctest::Approx(-delta * (s1[i] - s0[i])).epsilon(1e-6));
    CHECK(gs[i] == doctest::Approx(delta * s0[i]).epsilon(1e-6));
  }
}

TEST_CASE("grad composes: grad(grad), jit(grad), grad(jit), vmap(grad), value_and_grad") {
  auto cube = [](Array x) { return x * x * x; };
  CHECK(fj::grad(cube)(2.0f).item<float>() == 12.0f);
  CHECK(fj::grad(fj::grad(cube))(2.0f).item<float>() == 12.0f);
  CHECK(fj::grad(fj::grad(fj::grad(cube)))(2.0f).item<float>() == 6.0f);
  auto f = [](Array x) { return fj::sum(fj::sin(x) * x); };
  const Array x = fj::array({0.5f, 1.0f, 2.0f});
  auto want = [&](float v) { return std::cos(v) * v + std::sin(v); };
  auto jg = fj::jit(fj::grad(f));
  auto gj = fj::grad(fj::jit(f));
  for (const Array& r : {fj::grad(f)(x), jg(x), gj(x)}) {
    const auto v = floats(r);
    for (int i = 0; i < 3; ++i) CHECK(v[i] == doctest::Approx(want(x.to_vector<float>()[i])));
  }
  jg(x);
  CHECK(jg.trace_count() == 1);  // a second call of jit(grad(f)) dispatches from the cache
  // vmap(grad(f)): per-example gradients of a scalar function.
  auto per_example = fj::vmap(fj::grad([](Array v) { return fj::sin(v) * v; }));
  const auto pv = floats(per_example(x));
  for (int i = 0; i < 3; ++i) CHECK(pv[i] == doctest::Approx(want(x.to_vector<float>()[i])));
  auto [value, grad] = fj::value_and_grad(f)(x);
  float sum = 0;
  for (float v : x.to_vector<float>()) sum += std::sin(v) * v;
  CHECK(value.item<float>() == doctest::Approx(sum));
  CHECK(floats(grad) == floats(fj::grad(f)(x)));
}

TEST_CASE("grad with several argnums, jvp and vjp agree with each other") {
  auto f = [](Array a, Array b) { return fj::sum(a * b + fj::exp(a)); };
  const Array a = fj::array({1.0f, 2.0f}), b = fj::array({3.0f, -1.0f});
  auto [ga, gb] = fj::grad(f, fj::argnums{0, 1})(a, b);
  auto [gb2, ga2] = fj::grad(f, fj::argnums{1, 0})(a, b);
  CHECK(floats(ga) == floats(ga2));
  CHECK(floats(gb) == floats(a));  // d/db sum(a * b + exp(a)) = a
  CHECK(floats(gb2) == floats(gb));
  // jvp along e_0 is the first gradient component; vjp with cotangent 1 is the gradient.
  auto [y, ty] = fj::jvp(f, std::array<Array, 2>{a, b},
                         std::array<Array, 2>{fj::array({1.0f, 0.0f}), fj::zeros({2})});
  CHECK(ty.item<float>() == doctest::Approx(floats(ga)[0]));
  CHECK(y.item<float>() == doctest::Approx(Array(f(a, b)).item<float>()));
  auto [out, pullback] = fj::vjp(f, std::array<Array, 2>{a, b});
  CHECK(out.item<float>() == y.item<float>());
  const auto cts = pullback(fj::array(1.0f));
  CHECK(floats(cts[0]) == floats(ga));
  CHECK(floats(cts[1]) == floats(gb));
}

TEST_CASE("vmap composes: nested, of jit, under jit, broadcast arguments, closures") {
  const Array m = fj::array({{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}});
  const Array v = fj::array({1.0f, 0.5f, -1.0f});
  // Row-wise dot by vmap with v broadcast (in_axes none) equals m @ v.
  auto rowdot = fj::vmap([](Array r, Array w) { return fj::dot(r, w); }, fj::in_axes{0, fj::none});
  CHECK(floats(rowdot(m, v)) == floats(fj::matmul(m, v)));
  // Nested vmap of a scalar product equals the elementwise product.
  auto outer = fj::vmap(fj::vmap([](Array a, Array b) { return a * b; }));
  CHECK(floats(outer(m, m)) == floats(m * m));
  // vmap of a jitted function, and jit of a vmapped one.
  auto jf = fj::jit([](Array r) { return fj::sum(r * r); });
  CHECK(floats(fj::vmap(jf)(m)) == std::vector<float>{14, 77});
  auto jv = fj::jit(fj::vmap([](Array r) { return fj::max(r); }));
  CHECK(floats(jv(m)) == std::vector<float>{3, 6});
  // A function closing over a concrete array, and over a tracer of the enclosing trace.
  auto shifted = fj::vmap([&](Array r) { return r + v; });
  CHECK(floats(shifted(m)) == floats(m + v));
  auto scaled =
      fj::jit([](Array mm, Array s) { return fj::vmap([&](Array r) { return r * s; })(mm); });
  CHECK(floats(scaled(m, fj::array(2.0f))) == floats(m * 2.0f));
  // Unbatched outputs are broadcast along out_axes.
  auto constant = fj::vmap([](Array r) { return std::make_tuple(r, fj::array(7.0f) + 0.0f); });
  auto [same, sevens] = constant(v);
  CHECK(floats(same) == floats(v));
  CHECK(floats(sevens) == std::vector<float>{7, 7, 7});
}

TEST_CASE("transformation errors name the function, the argument and the shapes") {
  auto vec = [](Array x) { return x * 2.0f; };
  CHECK_THROWS_WITH_AS(fj::grad(vec)(fj::array({1.0f, 2.0f})),
                       doctest::Contains("scalar-output functions; the output has shape (2,)"),
                       fj::ShapeError);
  CHECK_THROWS_WITH_AS(fj::grad([](Array x) { return fj::sum(x); })(fj::array({1, 2})),
                       doctest::Contains("argument 0 has dtype int32"), fj::DTypeError);
  CHECK_THROWS_WITH_AS(fj::grad([](Array x, Array) { return fj::sum(x); }, fj::argnums{2})(
                           fj::array(1.0f), fj::array(1.0f)),
                       doctest::Contains("argnums entry 2 is out of range"), fj::ValueError);
  auto add = fj::vmap([](Array a, Array b) { return a + b; });
  CHECK_THROWS_WITH_AS(add(fj::zeros({3}), fj::zeros({4})),
                       doctest::Contains("inconsistent sizes for the mapped axes"), fj::ValueError);
  auto bad_axis = fj::vmap([](Array a) { return a; }, fj::in_axes{2});
  CHECK_THROWS_WITH_AS(bad_axis(fj::zeros({3, 2})), doctest::Contains("in_axes 2 is out of range"),
                       fj::ValueError);
  auto none = fj::vmap([](Array a) { return a; }, fj::in_axes{fj::none});
  CHECK_THROWS_AS(none(fj::zeros({3})), fj::ValueError);
}
