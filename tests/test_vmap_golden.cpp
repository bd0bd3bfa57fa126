// Golden jaxprs of vmap over jits: a jit stays one jit of the same name over its batched graph, as
// JAX batches it (unbatched operands and literals stay as they are). Expected texts:
// tests/golden/vmap_goldens.txt, printed by JAX 0.10.2 from tests/golden/vmap_goldens.py.
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;

namespace {

constexpr fusejit_test::Golden kGolden{"vmap_goldens.txt"};

std::string golden(const std::string& name) {
  auto it = kGolden.all().find(name);
  REQUIRE_MESSAGE(it != kGolden.all().end(), "no golden named " << name);
  return it->second;
}

}  // namespace

TEST_CASE("vmap golden: a jit is batched into one jit of its batched graph, as in JAX") {
  const Array x = fj::ones({2, 3});
  auto sin_times = fj::jit([](Tracer v, Tracer w) { return Array(fj::sin(v) * w); });
  auto twice = fj::jit([](Tracer v) { return Array(v * 2.0f); });
  auto nested = fj::jit([twice](Tracer v) { return Array(twice(fj::cos(v)) + 1.0f); });
  const std::map<std::string, std::function<std::string()>> texts = {
      {"vmap_jit_unbatched_operand",
       [&] {
         return fj::make_jaxpr(fj::vmap(sin_times, fj::in_axes{0, fj::none}))(x, fj::array(2.0f))
             .str();
       }},
      {"vmap_jit_nested", [&] { return fj::make_jaxpr(fj::vmap(nested))(x).str(); }},
      {"vmap_clip",
       [&] {
         return fj::make_jaxpr(fj::vmap([](Tracer v) { return Array(fj::clip(v, 0.0f, 1.0f)); }))(x)
             .str();
       }},
      {"vmap_pad",
       [&] {
         return fj::make_jaxpr(fj::vmap([](Tracer v) {
                  return Array(fj::pad(v, {{1, 2}}));
                }))(x)
             .str();
       }},
      {"vmap_pad_edge",
       [&] {
         auto f = [](Tracer v) { return Array(fj::pad(v, {{1, 2}}, fj::PadMode::edge)); };
         return fj::make_jaxpr(fj::vmap(f))(x).str();
       }},
      {"vmap_broadcast_to",
       [&] {
         auto f = [](Tracer v) { return Array(fj::broadcast_to(v, fj::Shape{4, 3})); };
         return fj::make_jaxpr(fj::vmap(f))(x).str();
       }},
      // The reducer batching rule's axes are NumPy ints (np.where / np.add).
      {"vmap_reductions",
       [&] {
         auto f = [](Tracer v) {
           return std::tuple{Array(fj::sum(v, {0})),     Array(fj::max(v, {1})),
                             Array(fj::prod(v, {0, 1})), Array(fj::any(v > 0.0f, {1})),
                             Array(fj::argmax(v, 1)),    Array(fj::argmin(v, 0))};
         };
         return fj::make_jaxpr(fj::vmap(f))(fj::ones({2, 3, 4})).str();
       }},
  };
  for (const auto& [name, text] : texts) {
    CAPTURE(name);
    CHECK(text() == golden(name));
  }
}

// The values: a jit's result that the batch does not reach stays unbatched inside it, and vmap
// broadcasts it outside; the batched one is each row's.
TEST_CASE("vmap golden: values through a batched jit with an unbatched result") {
  auto pair = fj::jit([](Tracer v, Tracer w) { return std::make_tuple(v + 1.0f, w * 3.0f); });
  const Array x = fj::array(std::vector<float>{1, 2, 3, 4, 5, 6}, fj::Shape{2, 3});
  auto [a, b] = fj::vmap(pair, fj::in_axes{0, fj::none})(x, fj::array(2.0f));
  REQUIRE(a.shape() == fj::Shape{2, 3});
  REQUIRE(b.shape() == fj::Shape{2});
  for (int i = 0; i < 6; ++i) CHECK(a.data<float>()[i] == x.data<float>()[i] + 1.0f);
  for (int i = 0; i < 2; ++i) CHECK(b.data<float>()[i] == 6.0f);
}
