// fj::debug::callback and fj::pure_callback: C++ functions called from compiled code with the
// concrete values, each call, in order; exceptions as fj::CallbackError; pure_callback's results
// used by the computation, under vmap (sequentially) and dropped when unused; jaxprs as JAX's.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <fusejit/fusejit.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "debug_capture.hpp"

using fj::Tracer;
using fusejit_test::backends;
using fusejit_test::BackendScope;
using fusejit_test::debug_golden;
using fusejit_test::mask_functions;

namespace {

// The callback a golden case stages: JAX's `lambda v: None`.
auto callback_one = [](Tracer x) {
  fj::debug::callback([](const fj::Array&) {}, x);
  return x;
};
// JAX's `lambda v: v` with its result declared.
auto pure_one = [](Tracer x) {
  return fj::pure_callback([](const fj::Array& v) { return v; },
                           fj::ShapeDtypeStruct{x.shape(), x.dtype()}, x);
};

// A C++ function jnp has no primitive for: the values sorted, descending.
fj::Array sorted_desc(const fj::Array& v) {
  std::vector<float> d = v.to_vector<float>();
  std::sort(d.begin(), d.end(), std::greater<>());
  return fj::array(d, v.shape());
}

}  // namespace

TEST_CASE("debug.callback / pure_callback golden: alone and under vmap") {
  CHECK(mask_functions(fj::make_jaxpr(callback_one)(fj::arange(3.0f)).str()) ==
        debug_golden("callback_one"));
  CHECK(mask_functions(fj::make_jaxpr(fj::vmap(callback_one))(fj::ones({2, 3})).str()) ==
        debug_golden("callback_vmap"));
  CHECK(mask_functions(fj::make_jaxpr(pure_one)(fj::arange(3.0f)).str()) ==
        debug_golden("pure_one"));
  CHECK(mask_functions(fj::make_jaxpr(fj::vmap(pure_one))(fj::ones({2, 3})).str()) ==
        debug_golden("pure_vmap"));
}

TEST_CASE("debug.callback: sees each call's values, in order with the prints around it") {
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    std::vector<std::string> events;
    auto prev = fj::debug::set_print_handler([&](std::string_view l) { events.emplace_back(l); });
    auto f = fj::jit([&events](Tracer x, Tracer y) {
      fj::debug::print("before");
      fj::debug::callback(
          [&events](const fj::Array& a, const std::tuple<fj::Array, fj::Array>& t) {
            events.push_back("cb " + fj::repr(a) + " " + fj::repr(std::get<0>(t)) + " " +
                             fj::repr(std::get<1>(t)));
          },
          x * y, std::make_tuple(y, x + 1.0f));
      fj::debug::print("after");
      return x + y;
    });
    for (float v : {1.0f, 3.0f}) {
      const fj::Array x = fj::array({v, 2 * v}), y = fj::array({0.5f, 4.0f});
      (void)f(x, y);
      const std::vector<std::string> want{"before",
                                          "cb " + fj::repr(fj::array({v * 0.5f, 2 * v * 4.0f})) +
                                              " " + fj::repr(y) + " " +
                                              fj::repr(fj::array({v + 1, 2 * v + 1})),
                                          "after"};
      CHECK(events == want);
      events.clear();
    }
    fj::debug::set_print_handler(std::move(prev));
    CHECK(f.trace_count() == 1);
  }
}

TEST_CASE("debug.callback: an exception from it is an fj::CallbackError naming it") {
  struct Boom {
    void operator()(const fj::Array&) const { throw std::invalid_argument("boom"); }
  };
  auto f = [](Tracer x) {
    fj::debug::callback(Boom{}, x);
    return x * 2.0f;
  };
  // The loop body's callback runs through the native loop driver's host trampoline.
  auto in_loop = [](Tracer x) {
    return fj::lax::fori_loop(
        0, 3,
        [](Tracer, Tracer c) {
          fj::debug::callback(Boom{}, c);
          return c + 1.0f;
        },
        x);
  };
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    const std::vector<std::function<fj::Array(const fj::Array&)>> jitted{
        [&](const fj::Array& x) { return fj::jit(f)(x); },
        [&](const fj::Array& x) { return fj::jit(in_loop)(x); }};
    for (const auto& g : jitted) {
      try {
        (void)g(fj::array(1.0f));
        FAIL("no exception");
      } catch (const fj::CallbackError& e) {
        CHECK(std::string(e.what()).find("fj::debug::callback: the callback") != std::string::npos);
        CHECK(std::string(e.what()).find("Boom") != std::string::npos);
        CHECK(std::string(e.what()).find("raised: boom") != std::string::npos);
        // The original exception is nested in it.
        CHECK_THROWS_AS(std::rethrow_if_nested(e), std::invalid_argument);
      }
    }
    // A failed call leaves nothing behind: the next call of the same loop runs cleanly.
    int calls = 0;
    auto counted = [&calls](Tracer x) {
      return fj::lax::fori_loop(
          0, 3,
          [&calls](Tracer, Tracer c) {
            fj::debug::callback([&calls](const fj::Array&) { ++calls; }, c);
            return c + 1.0f;
          },
          x);
    };
    CHECK(fj::jit(counted)(fj::array(1.0f)).item<float>() == 4.0f);
    CHECK(calls == 3);
  }
}

TEST_CASE("pure_callback: its results feed the computation, per call, on both backends") {
  auto f = [](Tracer x) {
    Tracer s = fj::pure_callback(sorted_desc, fj::ShapeDtypeStruct{x.shape(), x.dtype()}, x * 2.0f);
    return s + 1.0f;
  };
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    auto jf = fj::jit(f);
    CHECK(jf(fj::array({1.0f, 3.0f, 2.0f})).to_vector<float>() == std::vector<float>{7, 5, 3});
    CHECK(jf(fj::array({0.0f, -1.0f, 5.0f})).to_vector<float>() == std::vector<float>{11, 1, -1});
    CHECK(jf.trace_count() == 1);
    // Outside a trace it calls at once.
    CHECK(fj::Array(f(fj::array({2.0f, 4.0f}))).to_vector<float>() == std::vector<float>{9, 5});
  }
}

TEST_CASE("pure_callback: pytree results, vmap runs the examples one by one, unused is dropped") {
  auto two = [](Tracer x, Tracer k) {
    auto [lo, hi] = fj::pure_callback(
        [](const fj::Array& v, const fj::Array& kk) {
          const float k = kk.item<float>();
          std::vector<float> d = v.to_vector<float>();
          float mn = d[0], mx = d[0];
          for (float e : d) mn = std::min(mn, e), mx = std::max(mx, e);
          return std::make_pair(fj::array(mn * k), fj::array(mx * k));
        },
        std::make_pair(fj::ShapeDtypeStruct{{}, fj::DType::f32},
                       fj::ShapeDtypeStruct{{}, fj::DType::f32}),
        x, k);
    return hi - lo;
  };
  const fj::Array xs = fj::array({{1.0f, 5.0f, 2.0f}, {-3.0f, 0.0f, 4.0f}});
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    const fj::Array r = fj::jit(fj::vmap(two, fj::in_axes<2>{0, fj::none}))(xs, fj::array(2.0f));
    CHECK(r.to_vector<float>() == std::vector<float>{8.0f, 14.0f});
    int calls = 0;
    auto unused = [&calls](Tracer x) {
      (void)fj::pure_callback(
          [&calls](const fj::Array& v) {
            ++calls;
            return v;
          },
          fj::ShapeDtypeStruct{x.shape(), x.dtype()}, x);
      return x + 1.0f;
    };
    CHECK(fj::jit(unused)(fj::array({1.0f})).item<float>() == 2.0f);
    CHECK(calls == 0);  // no effect, nothing reads it: DCE drops it, as JAX does
  }
}

TEST_CASE("pure_callback: a result of the wrong shape or dtype, and grad, are errors") {
  auto wrong = [](Tracer x) {
    return fj::pure_callback(
        [](const fj::Array& v) {
          return fj::concatenate({v, v});
        },
        fj::ShapeDtypeStruct{x.shape(), x.dtype()}, x);
  };
  CHECK_THROWS_WITH_AS(
      fj::jit(wrong)(fj::array({1.0f})),
      doctest::Contains("result 0 is f32[2] where result_shape_dtypes declares f32[1]"),
      fj::CallbackError);
  auto as_int = [](Tracer x) {
    return fj::pure_callback([](const fj::Array& v) { return v; },
                             fj::ShapeDtypeStruct{x.shape(), fj::DType::i32}, x);
  };
  CHECK_THROWS_AS(fj::jit(as_int)(fj::array({1.0f})), fj::CallbackError);
  auto scalar = [](Tracer x) { return fj::sum(pure_one(x)); };
  CHECK_THROWS_WITH_AS(fj::grad(scalar)(fj::array({1.0f})),
                       doctest::Contains("rule for pure_callback"), fj::ValueError);
}
