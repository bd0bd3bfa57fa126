// fj::lax::clamp against JAX 0.10.2 (tests/golden/clamp_goldens.txt, printed by
// tests/golden/clamp_goldens.py): values on every backend bit for bit (clamp picks one of its
// operands: NaNs, signed zeros and infinities included), gradients (JAX's and central
// differences, f64), the jaxpr text of the primitive, its JVP, transpose and batching rules, and
// bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"
#include "weighted_grad.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"clamp_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// Bit for bit as doubles: NaN against NaN, and a zero's sign.
bool same_value(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

}  // namespace

TEST_CASE("clamp golden: values as JAX's on every backend, NaNs and signed zeros included") {
  const auto f32 = fj::DType::f32;
  const std::map<std::string, std::function<Array()>> cases = {
      {"scalar_bounds", [] { return fj::lax::clamp(0.0, input("x"), 1.0); }},
      {"array_bounds", [] { return fj::lax::clamp(input("lo"), input("x"), input("hi")); }},
      {"mixed_bounds", [] { return fj::lax::clamp(input("lo"), input("x"), 0.6); }},
      {"f32",
       [&] {
         return fj::lax::clamp(input("lo").astype(f32), input("x").astype(f32),
                               input("hi").astype(f32));
       }},
      {"int", [] { return fj::lax::clamp(-2, input("xi").astype(fj::DType::i32), 4); }},
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (const auto& [name, f] : cases) {
      CAPTURE(backend);
      CAPTURE(name);
      const auto [got, want] = fusejit_test::golden_values(f(), kGolden.lines("values " + name));
      for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(same_value(got[i], want[i]));
      }
    }
  }
}

TEST_CASE("clamp golden: gradients wrt min, x and max as JAX's and central differences") {
  const Array lo = input("glo"), x = input("g"), hi = input("ghi");
  const std::vector<std::function<Array(Tracer)>> fs = {
      [&](Tracer v) { return Array(fj::lax::clamp(v, x, hi)); },
      [&](Tracer v) { return Array(fj::lax::clamp(lo, v, hi)); },
      [&](Tracer v) { return Array(fj::lax::clamp(lo, x, v)); },
  };
  const char* names[] = {"lo", "x", "hi"};
  const Array at[] = {lo, x, hi};
  for (std::string backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    for (int k = 0; k < 3; ++k) {
      CAPTURE(backend);
      CAPTURE(names[k]);
      const auto want =
          fusejit_test::golden_numbers(kGolden.lines(std::string("grad ") + names[k]).at(1));
      // Element 10 has min 3 > max 2.5, so the result is max, but no mask holds there (x < max):
      // JAX's rules give max no gradient, and neither do fusejit's; differences see one.
      fusejit_test::check_weighted_grad(fs[static_cast<std::size_t>(k)], at[k], want,
                                        [k](std::size_t n) { return k == 2 && n == 10; });
    }
  }
}

TEST_CASE("clamp golden: jaxpr text of the primitive and its JVP, transpose and batching rules") {
  using T = Tracer;
  const Array m = fj::ones({2, 3}), v3 = fj::ones({3}), v2 = fj::ones({2});
  const Array s1 = fj::ones({}), s2 = fj::full({}, 2.0f), s0 = fj::zeros({});
  auto clamp3 = [](T a, T x, T c) { return T(fj::lax::clamp(a, x, c)); };
  auto sum_clamp = [](T a, T x, T c) { return fj::sum(fj::lax::clamp(a, x, c)); };
  const std::map<std::string, std::function<std::string()>> texts = {
      {"clamp",
       [&] { return fj::make_jaxpr([](T x) { return fj::lax::clamp(0.0, x, 1.0); })(m).str(); }},
      {"clamp_arrays", [&] { return fj::make_jaxpr(clamp3)(m, m, m).str(); }},
      {"grad_x",
       [&] {
         return fj::make_jaxpr(fj::grad([](T x) { return fj::sum(fj::lax::clamp(0.0, x, 1.0)); }))(
                    m)
             .str();
       }},
      {"grad_all",
       [&] {
         return fj::make_jaxpr(fj::grad(sum_clamp, fj::argnums{0, 1, 2}))(m, m, m).str();
       }},
      {"grad_lo_hi",
       [&] {
         return fj::make_jaxpr(fj::grad(sum_clamp, fj::argnums{0, 2}))(m, m, m).str();
       }},
      {"jvp",
       [&] {
         return fj::make_jaxpr([&](T a, T x, T c) {
                  auto [y, t] =
                      fj::jvp(clamp3, std::array<Array, 3>{a, x, c}, std::array<Array, 3>{a, x, c});
                  return std::vector<T>{y, t};
                })(m, m, m)
             .str();
       }},
      {"jvp_x",
       [&] {
         return fj::make_jaxpr([](T x, T t) {
                  auto [y, d] = fj::jvp([](T v) { return T(fj::lax::clamp(0.0, v, 1.0)); },
                                        std::array<Array, 1>{x}, std::array<Array, 1>{t});
                  return std::vector<T>{y, d};
                })(m, m)
             .str();
       }},
      {"vmap_x",
       [&] {
         return fj::make_jaxpr(fj::vmap([](T x) { return T(fj::lax::clamp(0.0, x, 1.0)); }))(m)
             .str();
       }},
      {"vmap_x_unbatched_bounds",
       [&] {
         return fj::make_jaxpr(fj::vmap(clamp3, fj::in_axes{fj::none, 0, fj::none}))(v3, m, v3)
             .str();
       }},
      {"vmap_all", [&] { return fj::make_jaxpr(fj::vmap(clamp3))(m, m, m).str(); }},
      {"vmap_scalar_bounds_batched",
       [&] { return fj::make_jaxpr(fj::vmap(clamp3))(v2, m, v2).str(); }},
      {"vmap_lo_only",
       [&] {
         return fj::make_jaxpr(fj::vmap(clamp3, fj::in_axes{0, fj::none, fj::none}))(v2, v3, s2)
             .str();
       }},
      {"vmap_lo_scalar_x_scalar",
       [&] {
         return fj::make_jaxpr(fj::vmap(clamp3, fj::in_axes{0, fj::none, fj::none}))(v2, s1, s2)
             .str();
       }},
      {"vmap_hi_batched_x",
       [&] {
         return fj::make_jaxpr(fj::vmap(clamp3, fj::in_axes{fj::none, 0, 0}))(s0, m, m).str();
       }},
  };
  fusejit_test::check_jaxpr_texts(kGolden, texts);
}

TEST_CASE("clamp golden: bad input names the function, the operand and the shapes") {
  using fusejit_test::check_throws_with;
  check_throws_with<fj::ShapeError>(
      [] {
        (void)Array(fj::lax::clamp(fj::zeros({3}), fj::ones({2, 3}), 1.0));
      },
      {"fj::lax::clamp", "min f32[3]", "f32[2,3]"});
  check_throws_with<fj::DTypeError>(
      [] { (void)Array(fj::lax::clamp(fj::zeros({}, fj::DType::f64), fj::ones({2}), 1.0)); },
      {"fj::lax::clamp", "min f64[]", "f32[2]"});
  check_throws_with<fj::DTypeError>([] { (void)Array(fj::lax::clamp(0, fj::ones({2}), 1.0)); },
                                    {"fj::lax::clamp", "min", "f32[2]"});
}
