// make_jaxpr of fj::pmap: JAX 0.10.2's text, jit[name=_fun] around a shard_map whose body is
// one device's view (tests/golden/pmap_goldens.txt, printed by JAX 0.10.2 on 4 CPU devices), and
// the values of the staged pmap (its `lowered` graph) against the pmap that runs on the devices.
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "../examples/seed_functions.hpp"
#include "golden_file.hpp"

using fj::Array;

namespace {

std::vector<float> values(const Array& a) {
  return Array(a.astype(fj::DType::f32)).to_vector<float>();
}

Array iota(std::int64_t n, std::initializer_list<std::int64_t> shape) {
  return fj::arange(static_cast<float>(n)).reshape(shape);
}

// JAX's text for case `name`.
const std::string& golden(const std::string& name) {
  static const fusejit_test::Golden g{"pmap_goldens.txt"};
  return g.all().at("jaxpr " + name);
}

}  // namespace

TEST_CASE("pmap jaxpr: x / psum(x) is a shard_map with the collective in its body") {
  auto f = fj::pmap([](const Array& x) { return x / fj::lax::psum(x, "i"); }, fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(f)(fj::arange(4.0f)).str() == golden("normalize"));
}

TEST_CASE("pmap jaxpr: grad inside pmap differentiates the device body (psum's transpose)") {
  auto g = fj::pmap(fj::grad([](const Array& v) { return fj::lax::psum(v * v, "i"); }),
                    fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(g)(fj::arange(4.0f)).str() == golden("grad_psum"));
}

TEST_CASE("pmap jaxpr: in_axes and out_axes 1, and the unnamed axis's internal name") {
  auto f = fj::pmap([](const Array& a) { return a * 2.f; }, fj::in_axes{1}, fj::out_axes{1});
  CHECK(fj::make_jaxpr(f)(iota(12, {3, 4})).str() == golden("axes_1"));
}

TEST_CASE("pmap jaxpr: out_axes none returns the device value whole, P() in out_specs") {
  auto f = fj::pmap(
      [](const Array& a) {
        const Array doubled = a * 2.f;  // staged first, as in the JAX function
        return std::make_tuple(doubled, fj::lax::psum(a, "i"));
      },
      fj::axis_name{"i"}, fj::out_axes{0, fj::none});
  CHECK(fj::make_jaxpr(f)(iota(12, {4, 3})).str() == golden("out_none"));
}

TEST_CASE("pmap jaxpr: a pmap inside a traced function, and axis_index without operands") {
  auto inside = [](const Array& z) {
    return fj::pmap([](const Array& a) { return a + 1.f; })(z) * 2.f;
  };
  CHECK(fj::make_jaxpr(inside)(iota(12, {4, 3})).str() == golden("inside"));
  auto index = fj::pmap([](const Array&) { return fj::lax::axis_index("i"); }, fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(index)(iota(12, {4, 3})).str() == golden("axis_index"));
}

TEST_CASE("pmap jaxpr: a body of more than 10 equations is printed once on top, as JAX does") {
  auto f = fj::pmap(
      [](const Array& a, const Array& b) {
        Array y = a * b;
        for (int k = 1; k <= 10; ++k) y = y + static_cast<float>(k);
        return y;
      },
      fj::in_axes{0, fj::none});
  CHECK(fj::make_jaxpr(f)(iota(12, {4, 3}), fj::array({2.f, 3.f, 4.f})).str() == golden("chain"));
}

TEST_CASE("grad jaxpr: x * x sums operand 1's cotangent first, as JAX's transpose does") {
  auto g = fj::grad([](const Array& v) { return fj::sin(v * v); });
  CHECK(fj::make_jaxpr(g)(fj::array(1.f)).str() == golden("grad_sin_square"));
}

TEST_CASE("pmap jaxpr: the collectives' params in the body") {
  auto f = fj::pmap(
      [](const Array& v) {
        const Array d = fj::lax::all_gather(v, "i", 1, true);
        const Array g = fj::lax::ppermute(v, "i", {{0, 1}, {1, 2}});
        return std::make_tuple(fj::lax::pmax(v, "i"), d, g);
      },
      fj::axis_name{"i"});
  CHECK(fj::make_jaxpr(f)(iota(24, {4, 2, 3})).str() == golden("collectives"));
}

TEST_CASE("pmap staged under jit runs its lowered graph: the devices' values") {
  const Array x = iota(12, {4, 3}), w = fj::array({2.f, 3.f, 4.f});
  auto conv = fj::pmap(fusejit_seeds::convolve, fj::in_axes{0, fj::none});
  const Array xs = iota(20, {4, 5});
  CHECK(values(fj::jit(conv)(xs, w)) == values(conv(xs, w)));
  auto cols = fj::pmap([](const Array& a) { return a * 2.f + fj::lax::psum(a, "i"); },
                       fj::axis_name{"i"}, fj::in_axes{1}, fj::out_axes{1});
  const Array xt = iota(12, {3, 4});
  CHECK(values(fj::jit(cols)(xt)) == values(cols(xt)));
  auto halves = fj::pmap(
      [](const Array& a) {
        return std::make_tuple(a * 2.f, fj::lax::psum(a, "i"), fj::lax::axis_index("i"));
      },
      fj::axis_name{"i"}, fj::out_axes{0, fj::none, 0});
  const auto [a0, s0, i0] = halves(x);
  const auto [a1, s1, i1] = fj::jit(halves)(x);
  CHECK(values(a1) == values(a0));
  CHECK(s1.shape() == s0.shape());
  CHECK(values(s1) == values(s0));
  CHECK(i1.to_vector<std::int32_t>() == i0.to_vector<std::int32_t>());
  // A captured array is an operand of the shard_map, whole on every device.
  const Array bias = fj::array({1.f, 10.f, 100.f});
  auto shifted = fj::pmap([&bias](const Array& a) { return a + bias; });
  CHECK(values(fj::jit(shifted)(x)) == values(shifted(x)));
  auto g = fj::pmap(fj::grad([](const Array& v) { return fj::lax::psum(v * v, "i"); }),
                    fj::axis_name{"i"});
  CHECK(values(fj::jit(g)(fj::arange(4.0f))) == std::vector<float>{0, 8, 16, 24});
  // Transforms of a pmap see its lowered graph: d/dx sum(pmap(v*v + psum(v))(x)) = 2x + 4,
  // and vmap over another axis maps the whole pmap.
  auto square_plus_total =
      fj::pmap([](const Array& v) { return v * v + fj::lax::psum(v, "i"); }, fj::axis_name{"i"});
  const Array dx =
      fj::grad([&](const Array& x) { return fj::sum(square_plus_total(x)); })(fj::arange(4.0f));
  CHECK(values(dx) == std::vector<float>{4, 6, 8, 10});
  const Array rows = iota(8, {2, 4});
  const Array mapped = fj::vmap(square_plus_total)(rows);
  CHECK(values(mapped) == std::vector<float>{6, 7, 10, 15, 38, 47, 58, 71});
}
