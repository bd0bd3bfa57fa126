// fj::custom_jvp (jax.custom_jvp + defjvp): the call is staged as one custom_jvp_call equation,
// and grad, jvp and vmap use the user's rule rather than differentiating the function.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

using fj::Array;
using fj::Tracer;

namespace {

// sin(x) with a rule that is deliberately not its derivative: 2 * t, so a test can tell whether
// the rule or the body was differentiated.
auto fake_sin() {
  return fj::custom_jvp([](Tracer x) { return Array(fj::sin(x)); },
                        [](const std::vector<Array>& p, const std::vector<Array>& t) {
                          return std::make_pair(Array(fj::sin(p[0])), Array(t[0] * 2.0));
                        },
                        "fake_sin");
}

// x * y with its true rule.
auto product() {
  return fj::custom_jvp([](Tracer x, Tracer y) { return Array(x * y); },
                        [](const std::vector<Array>& p, const std::vector<Array>& t) {
                          return std::make_pair(Array(p[0] * p[1]),
                                                Array(t[0] * p[1] + p[0] * t[1]));
                        },
                        "product");
}

}  // namespace

TEST_CASE("custom_jvp: the value is the function's, the derivative the rule's") {
  const auto f = fake_sin();
  CHECK(f(fj::array(0.5f)).item<float>() == doctest::Approx(std::sin(0.5f)));
  // grad uses the rule (2), not cos(0.5).
  CHECK(fj::grad(f)(0.5f).item<float>() == 2.0f);
  auto [y, t] = fj::jvp([&](Tracer x) { return f(x); }, std::array<Array, 1>{fj::array(0.5f)},
                        std::array<Array, 1>{fj::array(3.0f)});
  CHECK(t.item<float>() == 6.0f);
  CHECK(y.item<float>() == doctest::Approx(std::sin(0.5f)));
}

TEST_CASE("custom_jvp: staged as custom_jvp_call with the rule's name") {
  const auto f = fake_sin();
  const std::string text = fj::make_jaxpr([&](Tracer x) { return f(x); })(fj::ones({3})).str();
  CHECK(text ==
        "{ lambda ; a:f32[3]. let\n"
        "    b:f32[3] = custom_jvp_call[\n"
        "      name=fake_sin\n"
        "      call_jaxpr={ lambda ; c:f32[3]. let d:f32[3] = sin c in (d,) }\n"
        "      jvp=fake_sin_jvp\n"
        "      symbolic_zeros=False\n"
        "    ] a\n"
        "  in (b,) }");
}

TEST_CASE("custom_jvp: gradients of two arguments, under vmap, and of second order") {
  const auto f = product();
  const Array x = fj::array(std::vector<float>{1, 2, 3}, fj::Shape{3});
  const Array y = fj::array(std::vector<float>{4, 5, 6}, fj::Shape{3});
  auto loss = [&](Tracer a, Tracer b) { return Array(fj::sum(f(a, b))); };
  auto [gx, gy] = fj::grad(loss, fj::argnums{0, 1})(x, y);
  for (int i = 0; i < 3; ++i) {
    CHECK(gx.data<float>()[i] == y.data<float>()[i]);
    CHECK(gy.data<float>()[i] == x.data<float>()[i]);
  }
  // vmap of grad and grad of vmap: the rule sees per-example values either way.
  auto per = fj::vmap(fj::grad([&](Tracer a, Tracer b) { return f(a, b); }));
  const Array g1 = per(x, y);
  auto g2 = fj::grad([&](Tracer a, Tracer b) {
    return Array(fj::sum(fj::vmap([&](Tracer u, Tracer v) { return f(u, v); })(a, b)));
  })(x, y);
  for (int i = 0; i < 3; ++i) {
    CHECK(g1.data<float>()[i] == y.data<float>()[i]);
    CHECK(g2.data<float>()[i] == y.data<float>()[i]);
  }
  // d/dx (d/dx x*x) through the rule: 2.
  auto sq = [&](Tracer a) { return f(a, a); };
  CHECK(fj::grad(fj::grad(sq))(1.5f).item<float>() == 2.0f);
}

TEST_CASE("custom_jvp: relu's rule gives 0 at 0 where max's derivative would give 1/2") {
  auto g = fj::grad([](Tracer x) { return Array(fj::nn::relu(x)); });
  CHECK(g(0.0f).item<float>() == 0.0f);
  CHECK(g(1.0f).item<float>() == 1.0f);
  CHECK(g(-1.0f).item<float>() == 0.0f);
  // vmap over relu's custom_jvp_call, then its gradient.
  const Array x = fj::array(std::vector<float>{-1, 0, 2}, fj::Shape{3});
  const Array v = fj::vmap(g)(x);
  CHECK(v.data<float>()[0] == 0.0f);
  CHECK(v.data<float>()[1] == 0.0f);
  CHECK(v.data<float>()[2] == 1.0f);
}

TEST_CASE("custom_jvp: a pytree of results, each with the rule's tangent") {
  // (sin x, x * x) with a rule that is deliberately not the derivative: (3 t, 5 t).
  const auto f = fj::custom_jvp(
      [](Tracer x) { return std::make_tuple(Array(fj::sin(x)), Array(x * x)); },
      [](const std::vector<Array>& p, const std::vector<Array>& t) {
        return std::make_pair(std::make_tuple(Array(fj::sin(p[0])), Array(p[0] * p[0])),
                              std::make_tuple(Array(t[0] * 3.0f), Array(t[0] * 5.0f)));
      },
      "pair");
  const auto [s, q] = f(fj::array(0.5f));
  CHECK(s.item<float>() == doctest::Approx(std::sin(0.5f)));
  CHECK(q.item<float>() == 0.25f);
  // The gradient of the sum sees 3 + 5, not cos(0.5) + 1.
  CHECK(fj::grad([&](Tracer x) {
          auto [a, b] = f(x);
          return Array(a + b);
        })(0.5f)
            .item<float>() == 8.0f);
  // Each result's tangent, under jvp (jit around it) and vmap.
  auto [y, t] =
      fj::jvp([&](Tracer x) { return std::get<1>(f(x)); }, std::array<Array, 1>{fj::array(0.5f)},
              std::array<Array, 1>{fj::array(2.0f)});
  CHECK(t.item<float>() == 10.0f);
  const Array xs = fj::array(std::vector<float>{0, 1, 2}, fj::Shape{3});
  const auto [vs, vq] = fj::vmap(f)(xs);
  CHECK(vq.data<float>()[2] == 4.0f);
  CHECK(vs.shape() == fj::Shape{3});
}
