// fj::custom_vjp (jax.custom_vjp + defvjp) against JAX 0.10.2 (tests/golden/custom_vjp_goldens.txt,
// printed by tests/golden/custom_vjp_goldens.py): the staged custom_vjp_call's text, and
// gradients through a bwd that deliberately differs from the true derivative (so a test using
// the true one fails), under grad, jit, vmap and jacrev, with pytree outputs and residuals and
// nondiff_argnums, on every backend; forward mode and bad bwd results raise.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_close.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"custom_vjp_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// A few f64 products and one sin or cos (each within 1 ulp of JAX's) per entry, summed over at
// most three terms in an order that may differ: within 8 ulps of the array's largest entry.
void check_leaves(const std::vector<Array>& got, const std::string& section) {
  for (std::size_t k = 0; k < got.size(); ++k)
    fusejit_test::check_close_to_golden(kGolden, got[k], section + " " + std::to_string(k), 8);
}

Array f_impl(Tracer x, Tracer y) { return fj::sin(x) * y; }
std::pair<Array, std::tuple<Array, Array, Array>> f_fwd(Tracer x, Tracer y) {
  Array c = fj::cos(x);  // staged in Python's order: a std::tuple builds its last element first
  Array s = fj::sin(x);
  return {f_impl(x, y), {c, s, y}};
}
std::tuple<Array, Array> f_bwd(const std::tuple<Array, Array, Array>& res, Tracer g) {
  const auto& [cos_x, sin_x, y] = res;
  // Twice the true d/dx, as the golden script; x's cotangent first, as Python evaluates them
  // (a std::tuple's elements are constructed last to first).
  Array gx = 2.0 * cos_x * g * y;
  Array gy = sin_x * g;
  return {gx, gy};
}
const auto f = fj::custom_vjp(f_impl, f_fwd, f_bwd, "f");

Array loss(Tracer x, Tracer y) { return fj::sum(fj::square(f(x, y))); }

std::tuple<Array, Array> pair_impl(Tracer x) { return {x * x, fj::sum(x)}; }
std::pair<std::tuple<Array, Array>, std::map<std::string, Array>> pair_fwd(Tracer x) {
  return {pair_impl(x), {{"x", x}}};
}
std::tuple<Array> pair_bwd(const std::map<std::string, Array>& res,
                           const std::tuple<Array, Array>& g) {
  return {3.0 * res.at("x") * std::get<0>(g) + std::get<1>(g)};  // 3x where the truth has 2x
}
const auto pair = fj::custom_vjp(pair_impl, pair_fwd, pair_bwd, "pair");

Array clip_impl(double, Tracer x) { return x; }
std::pair<Array, std::tuple<>> clip_fwd(double, Tracer x) { return {x, {}}; }
std::tuple<Array> clip_bwd(double hi, const std::tuple<>&, Tracer g) {
  return {fj::clip(g, -hi, hi)};
}
const auto clip_gradient =
    fj::custom_vjp(clip_impl, clip_fwd, clip_bwd, fj::nondiff_argnums<0>, "clip_gradient");

}  // namespace

TEST_CASE("custom_vjp: staged as one custom_vjp_call, its gradient as JAX's (fwd, then bwd)") {
  const Array m = fj::ones({3}, fj::f32);
  fusejit_test::check_jaxpr_texts(
      kGolden, {{"call", [&] { return fj::make_jaxpr(f)(m, m).str(); }},
                {"grad", [&] {
                   return fj::make_jaxpr(fj::grad(
                       [](Tracer x, Tracer y) { return fj::sum(f(x, y)); }, fj::argnums{0, 1}))(m,
                                                                                                m)
                       .str();
                 }}});
}

TEST_CASE("custom_vjp golden: gradients run fwd and bwd, under grad, jit, vmap and jacrev") {
  const Array x = input("x"), y = input("y"), b = input("b");
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check_leaves({f(x, y)}, "value");
    const auto [gx, gy] = fj::grad(loss, fj::argnums{0, 1})(x, y);
    check_leaves({gx, gy}, "grad");
    check_leaves({fj::jit(fj::grad(loss))(x, y)}, "grad_jit");
    check_leaves({fj::vmap(f, fj::in_axes{0, fj::none})(b, y)}, "vmap");
    check_leaves({fj::vmap(fj::grad(loss), fj::in_axes{0, fj::none})(b, y)}, "vmap_grad");
    const auto [vb, vy] = fj::grad(
        [](Tracer bb, Tracer yy) {
          return fj::sum(fj::vmap(f, fj::in_axes{0, fj::none})(bb, yy));
        },
        fj::argnums{0, 1})(b, y);
    check_leaves({vb, vy}, "grad_vmap");
    const Array w = y;
    check_leaves({fj::grad([w](Tracer v) {
                   auto [sq, s] = pair(v);
                   return fj::sum(sq * w) + s * 2.0;
                 })(x)},
                 "pair_grad");
    const Array scale = fj::array(std::vector<double>{3.0, -0.2, -4.0}, fj::Shape{3});
    check_leaves(
        {fj::grad([scale](Tracer v) { return fj::sum(clip_gradient(0.5, v) * scale); })(x)},
        "clip_grad");
    check_leaves({fj::jacrev(f)(x, y)}, "jacrev");
  }
}

TEST_CASE("custom_vjp: forward mode raises as JAX's; bwd of the wrong shape names bwd") {
  const Array x = input("x"), y = input("y");
  fusejit_test::check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::jvp(f, std::array{x, y}, std::array{x, y});
      },
      {"can't apply forward-mode autodiff (jvp) to a custom_vjp function", "(f)"});
  fusejit_test::check_throws_with<fj::TypeError>([&] { (void)fj::jacfwd(f)(x, y); },
                                                 {"forward-mode autodiff", "custom_vjp"});
  auto bad =
      fj::custom_vjp([](Tracer v) { return Array(v * 2.0); },
                     [](Tracer v) { return std::make_pair(Array(v * 2.0), v); },
                     [](Tracer, Tracer g) { return std::make_tuple(Array(fj::sum(g))); }, "bad");
  fusejit_test::check_throws_with<fj::TypeError>(
      [&] { (void)fj::grad([&](Tracer v) { return fj::sum(bad(v)); })(x); },
      {"bad_bwd", "cotangent", "f64[]", "f64[3]"});
}
