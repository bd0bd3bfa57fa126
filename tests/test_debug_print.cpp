// fj::debug::print: runtime values on every call of compiled code (not only while tracing), in
// program order, per loop iteration and per vmap example, on both backends; and its jaxpr, which
// must equal JAX 0.10.2's text (tests/golden/debug_goldens.txt, from debug_goldens.py).
#include <doctest/doctest.h>

#include <fusejit/fusejit.hpp>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "debug_capture.hpp"

using fj::Tracer;
using fusejit_test::backends;
using fusejit_test::BackendScope;
using fusejit_test::CapturePrints;
using fusejit_test::debug_golden;
using fusejit_test::repr_of;

namespace {

auto print_one = [](Tracer x) {
  fj::debug::print("x = {}", x);
  return x * 2.0f;
};

}  // namespace

TEST_CASE("debug.print golden: a print, two arguments, a pytree argument") {
  CHECK(fj::make_jaxpr(print_one)(fj::arange(3.0f)).str() == debug_golden("print_one"));
  auto two = [](Tracer x) {
    fj::debug::print("x = {} y = {}", x, x + 1.0f);
    return x * 2.0f;
  };
  CHECK(fj::make_jaxpr(two)(fj::arange(3.0f)).str() == debug_golden("print_two"));
  auto tree = [](Tracer x) {
    fj::debug::print("{} {}", x, std::make_tuple(x, x + 1.0f));
    return x;
  };
  CHECK(fj::make_jaxpr(tree)(fj::array(2.0f)).str() == debug_golden("print_tree"));
}

TEST_CASE("debug.print golden: under vmap (per example), in a fori_loop, under grad") {
  CHECK(fj::make_jaxpr(fj::vmap(print_one))(fj::ones({2, 3})).str() == debug_golden("print_vmap"));
  auto loop = [](Tracer x) {
    return fj::lax::fori_loop(
        0, 3,
        [](Tracer i, Tracer c) {
          fj::debug::print("i={} c={}", i, c);
          return c + 1.0f;
        },
        x);
  };
  CHECK(fj::make_jaxpr(loop)(fj::array(1.0f)).str() == debug_golden("print_in_loop"));
  auto then_sin = [](Tracer x) {
    fj::debug::print("x = {}", x);
    return fj::sin(x);
  };
  CHECK(fj::make_jaxpr(fj::grad(then_sin))(fj::array(1.0f)).str() == debug_golden("print_grad"));
}

TEST_CASE("debug.print: a jitted print prints each call's values, traced once") {
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    auto f = fj::jit(print_one);
    CapturePrints prints;
    std::vector<std::string> want;
    for (float v : {1.5f, -2.0f, 7.25f}) {
      const fj::Array x = fj::array({v, v + 1});
      const fj::Array y = f(x);
      CHECK(y.to_vector<float>() == std::vector<float>{2 * v, 2 * (v + 1)});
      want.push_back("x = " + fj::repr(x));
    }
    CHECK(prints.lines == want);
    CHECK(f.trace_count() == 1);
  }
}

TEST_CASE("debug.print: a print inside a fori_loop prints once per iteration, in order") {
  auto loop = [](Tracer x) {
    return fj::lax::fori_loop(
        0, 4,
        [](Tracer i, Tracer c) {
          fj::debug::print("i={} c={}", i, c);
          return c * 2.0f;
        },
        x);
  };
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    CapturePrints prints;
    const fj::Array r = fj::jit(loop)(fj::array(1.0f));
    CHECK(r.item<float>() == 16.0f);
    std::vector<std::string> want;
    float c = 1.0f;
    // The counter is a weak i32, as JAX's fori_loop counter (a Python int) is.
    for (int i = 0; i < 4; ++i, c *= 2)
      want.push_back("i=" + fj::repr(fj::detail::as_array(i)) + " c=" + repr_of(c));
    CHECK(prints.lines == want);
  }
}

TEST_CASE("debug.print: under vmap each example's values are printed") {
  const fj::Array xs = fj::arange(6.0f).reshape({2, 3});
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    CapturePrints prints;
    const fj::Array y = fj::jit(fj::vmap(print_one))(xs);
    CHECK(y.to_vector<float>() == std::vector<float>{0, 2, 4, 6, 8, 10});
    CHECK(prints.lines == std::vector<std::string>{"x = " + fj::repr(fj::array({0.f, 1.f, 2.f})),
                                                   "x = " + fj::repr(fj::array({3.f, 4.f, 5.f}))});
  }
}

TEST_CASE("debug.print: program order, computed operands, an unused result, pytrees") {
  // Prints of values a reduction and an elementwise chain compute, around a value nobody returns:
  // DCE keeps every print, fusion keeps their order.
  auto f = [](Tracer x) {
    Tracer s = fj::sum(x * x);
    fj::debug::print("first {}", s);
    Tracer unused = x * 3.0f;
    fj::debug::print("second {1} {0}", x + 1.0f, std::make_tuple(unused(0), s));
    fj::debug::print("braces {{}} {}", fj::max(x));
    return x - 1.0f;
  };
  const fj::Array x = fj::array({1.0f, 2.0f});
  for (const std::string& backend : backends()) {
    CAPTURE(backend);
    BackendScope scope(backend.c_str());
    CapturePrints prints;
    const fj::Array y = fj::jit(f)(x);
    CHECK(y.to_vector<float>() == std::vector<float>{0.0f, 1.0f});
    const std::string e1 = repr_of(3.0f), s = repr_of(5.0f);
    REQUIRE(prints.lines.size() == 3);
    CHECK(prints.lines[0] == "first " + s);
    CHECK(prints.lines[1] == "second (" + e1 + ", " + s + ") " + fj::repr(fj::array({2.0f, 3.0f})));
    CHECK(prints.lines[2] == "braces {} " + repr_of(2.0f));
  }
}

TEST_CASE("debug.print: outside a trace it prints at once, the handler can be replaced") {
  std::vector<std::string> got;
  auto prev = fj::debug::set_print_handler([&](std::string_view l) { got.emplace_back(l); });
  fj::debug::print("eager {} {}", fj::array({1, 2}), 3.5f);
  auto mine = fj::debug::set_print_handler(std::move(prev));
  CHECK(got == std::vector<std::string>{"eager " + fj::repr(fj::array({1, 2})) + " " +
                                        fj::repr(fj::detail::as_array(3.5f))});
  CHECK(static_cast<bool>(mine));
}

TEST_CASE("debug.print: the default handler writes to stdout") {
  std::ostringstream out;
  auto* old = std::cout.rdbuf(out.rdbuf());
  fj::jit(print_one)(fj::array({4.0f}));
  std::cout.rdbuf(old);
  CHECK(out.str() == "x = " + fj::repr(fj::array({4.0f})) + "\n");
}

TEST_CASE("debug.print: a bad format is an fj::ValueError when traced") {
  auto bad = [](const char* fmt) {
    return [fmt](Tracer x) {
      fj::debug::print(fmt, x);
      return x;
    };
  };
  const fj::Array x = fj::array({1.0f});
  CHECK_THROWS_WITH_AS(fj::jit(bad("{} {}"))(x),
                       doctest::Contains("refers to argument 1 but 1 argument was given"),
                       fj::ValueError);
  CHECK_THROWS_WITH_AS(fj::jit(bad("{x}"))(x), doctest::Contains("has the field {x}"),
                       fj::ValueError);
  CHECK_THROWS_WITH_AS(fj::jit(bad("a } b"))(x), doctest::Contains("single '}'"), fj::ValueError);
  CHECK_THROWS_WITH_AS(fj::jit(bad("{0} {}"))(x), doctest::Contains("mixes automatic"),
                       fj::ValueError);
}

TEST_CASE("debug.print: a handler that throws surfaces as fj::CallbackError") {
  auto prev =
      fj::debug::set_print_handler([](std::string_view) { throw std::runtime_error("full"); });
  CHECK_THROWS_WITH_AS(fj::jit(print_one)(fj::array({1.0f})),
                       doctest::Contains("print handler raised: full"), fj::CallbackError);
  fj::debug::set_print_handler(std::move(prev));
}
