// fj::checkpoint / fj::remat and fj::checkpoint_name (jax.checkpoint) against JAX 0.10.2
// (tests/golden/checkpoint_goldens.txt, printed by tests/golden/checkpoint_goldens.py): the
// remat2 equation's text and its gradient's (the recomputation inside differentiated=True),
// gradient values under each policy on every backend, the same values as without checkpoint,
// the saved values' effect on the backward pass, and composition with jvp, vmap and jit.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_close.hpp"
#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"checkpoint_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

Array g(Tracer x) { return fj::sin(fj::sin(x)); }

Array net(Tracer w1, Tracer w2, Tracer x) {
  const Array h = fj::checkpoint_name(fj::tanh(fj::matmul(w1, x)), "hidden");
  return fj::sum(fj::square(fj::sin(fj::matmul(w2, h))));
}

// Matrix products of three terms and a few f64 transcendentals per entry (each within 1 ulp
// of JAX's), summed in an order that may differ: within 16 ulps of the block's largest entry.
void check_close(const Array& got, const std::string& section) {
  fusejit_test::check_close_to_golden(kGolden, got, section, 16);
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("checkpoint: staged as remat2, its gradient recomputes inside remat2, as JAX's") {
  const Array m = fj::ones({3}, fj::f32);
  const auto grad_text =
      fj::make_jaxpr(fj::grad([](Tracer x) { return fj::sum(fj::checkpoint(g)(x)); }))(m).str();
  fusejit_test::check_jaxpr_texts(
      kGolden,
      {{"call", [&] { return fj::make_jaxpr(fj::checkpoint(g))(m).str(); }},
       {"grad", [&] { return grad_text; }},
       {"dots",
        [&] {
          return fj::make_jaxpr(
                     fj::checkpoint(g, {.policy = fj::checkpoint_policies::dots_saveable}))(m)
              .str();
        }},
       {"name", [&] {
          return fj::make_jaxpr([](Tracer x) { return fj::checkpoint_name(x, "hidden") * 2.0f; })(m)
              .str();
        }}});
  // The recomputed sin is in the backward remat2: two sins in the forward pass, one more there.
  CHECK(count(grad_text, "= sin") == 3);
}

TEST_CASE("checkpoint golden: gradients under each policy as JAX's and as without checkpoint") {
  const Array w1 = input("w1"), w2 = input("w2"), x = input("x");
  const std::vector<std::pair<std::string, fj::CheckpointPolicy>> policies = {
      {"none", fj::checkpoint_policies::nothing_saveable},
      {"dots", fj::checkpoint_policies::dots_saveable},
      {"names", fj::checkpoint_policies::save_only_these_names({"hidden"})},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    const auto [p1, p2] = fj::grad(net, fj::argnums{0, 1})(w1, w2, x);
    for (const auto& [name, policy] : policies) {
      CAPTURE(name);
      const auto [g1, g2] =
          fj::grad(fj::checkpoint(net, {.policy = policy}), fj::argnums{0, 1})(w1, w2, x);
      check_close(g1, "grad " + name + " 0");
      check_close(g2, "grad " + name + " 1");
      // The recomputation runs the same equations on the same values: the same bits.
      const auto a = fusejit_test::as_doubles(g1), b = fusejit_test::as_doubles(p1);
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
    }
  }
}

TEST_CASE("checkpoint: a policy's saved values are read, not recomputed, by the backward pass") {
  const Array w1 = input("w1"), w2 = input("w2"), x = input("x");
  // The whole gradient's text: the forward pass (two products, one tanh, one name) and the
  // backward remat2 (hoisted as `let jaxpr = ...` once it is long, as JAX hoists).
  auto grad_text = [&](const fj::CheckpointPolicy& p) {
    return fj::make_jaxpr(fj::grad(fj::checkpoint(net, {.policy = p})))(w1, w2, x).str();
  };
  const std::string none = grad_text(fj::checkpoint_policies::nothing_saveable);
  const std::string dots = grad_text(fj::checkpoint_policies::dots_saveable);
  const std::string names = grad_text(fj::checkpoint_policies::save_only_these_names({"hidden"}));
  const std::string all = grad_text(fj::checkpoint_policies::everything_saveable);
  // Nothing saved: both products, tanh and the name are computed again in the backward pass.
  CHECK(count(none, "= tanh") == 2);
  CHECK(count(none, "name[name=hidden]") == 2);
  // Dots saved: the backward pass keeps only the transposes' products (two fewer).
  CHECK(count(dots, "= dot_general") == count(none, "= dot_general") - 2);
  // `hidden` saved: read as an input (tanh is still recomputed for its own derivative, as JAX
  // does); everything saved: nothing is recomputed.
  CHECK(count(names, "name[name=hidden]") == 1);
  CHECK(count(names, "= tanh") == 2);
  CHECK(count(all, "= tanh") == 1);
  CHECK(count(all, "= dot_general") == count(dots, "= dot_general"));
}

TEST_CASE("checkpoint composes with jvp, vmap, jit and remat") {
  const Array x = input("x");
  const auto [y, t] = fj::jvp(fj::checkpoint(g), std::array{x}, std::array{x});
  // A plain function name: jvp takes f by value, so it decays to a pointer (clang 19 could not
  // deduce a reference to a function type from it).
  const auto [y0, t0] = fj::jvp(g, std::array{x}, std::array{x});
  CHECK(fusejit_test::as_doubles(t) == fusejit_test::as_doubles(t0));
  CHECK(fusejit_test::as_doubles(y) == fusejit_test::as_doubles(y0));
  const Array b = fj::stack({x, x * 2.0});
  CHECK(fusejit_test::as_doubles(fj::vmap(fj::remat(g))(b)) ==
        fusejit_test::as_doubles(fj::vmap(g)(b)));
  CHECK(fusejit_test::as_doubles(fj::jit(fj::grad([](Tracer v) {
          return fj::sum(fj::checkpoint(g)(v));
        }))(x)) == fusejit_test::as_doubles(fj::grad([](Tracer v) { return fj::sum(g(v)); })(x)));
}
