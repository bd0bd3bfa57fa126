// Golden jaxprs of gradients: fusejit's make_jaxpr text of grad (and jvp) must equal JAX's byte
// for byte. Expected texts: tests/golden/grad_goldens.txt, printed by JAX 0.10.2 from
// tests/golden/grad_goldens.py (same case names).
#include <doctest/doctest.h>

#include <array>
#include <fusejit/fusejit.hpp>
#include <map>
#include <string>

#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;

namespace {

const std::string& golden(const std::string& name) {
  static const auto g = fusejit_test::read_goldens("grad_goldens.txt");
  auto it = g.find(name);
  REQUIRE_MESSAGE(it != g.end(), "no golden named " << name);
  return it->second;
}

}  // namespace

TEST_CASE("grad golden: grad_tanh") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(x); });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh"));
}

TEST_CASE("grad golden: grad_sum_tanh_times_x") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::tanh(x) * x); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_sum_tanh_times_x"));
}

TEST_CASE("grad golden: grad_tanh_times_const") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(x) * 2.0; });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh_times_const"));
}

TEST_CASE("grad golden: grad_tanh_of_sin") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(fj::sin(x)); });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh_of_sin"));
}

TEST_CASE("grad golden: grad_sin_times_x") {
  auto f = fj::grad([](Tracer x) { return fj::sin(x) * x; });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_sin_times_x"));
}

TEST_CASE("grad golden: grad_sum_exp") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::exp(x)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_sum_exp"));
}

TEST_CASE("grad golden: jvp_tanh") {
  auto f = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer a) { return fj::tanh(a); }, std::array<Array, 1>{x},
                           std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(f)(1.0, 1.0).str() == golden("jvp_tanh"));
}
