// Golden jaxprs of lax control flow (cond, while_loop, fori_loop, scan) and nested jit: fusejit's
// make_jaxpr text must equal JAX's byte for byte. Expected texts: tests/golden/lax_goldens.txt,
// printed by JAX 0.10.2 from tests/golden/lax_goldens.py (same case names).
#include <doctest/doctest.h>

#include <fstream>
#include <fusejit/fusejit.hpp>

#include "golden_file.hpp"
#include <map>
#include <string>

using fj::Array;
using fj::Tracer;
namespace lax = fj::lax;

namespace {

const std::map<std::string, std::string>& lax_goldens() {
  static const auto g = fusejit_test::read_goldens("lax_goldens.txt");
  return g;
}

const std::string& golden(const std::string& name) {
  const auto& g = lax_goldens();
  auto it = g.find(name);
  REQUIRE_MESSAGE(it != g.end(), "no golden named " << name);
  return it->second;
}

const fj::Array y3 = fj::arange(3.0f);  // a concrete array the functions close over

}  // namespace

TEST_CASE("lax golden: cond") {
  auto f = [](Tracer x) {
    return lax::cond(
        x > 0, [](Tracer x) { return x; }, [](Tracer x) { return 2 * x; }, x);
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("cond"));
}

TEST_CASE("lax golden: cond_capture") {
  auto f = [](Tracer x, Tracer z) {
    return lax::cond(
        x(0) > 0, [&](Tracer x) { return x + z; }, [](Tracer x) { return x * y3; }, x);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3}), 2.0).str() == golden("cond_capture"));
}

TEST_CASE("lax golden: cond_int_pred") {
  auto f = [](Tracer n, Tracer x) {
    return lax::cond(
        n, [](Tracer x) { return x + 1.0; }, [](Tracer x) { return x - 1.0; }, x);
  };
  CHECK(fj::make_jaxpr(f)(fj::array(3), fj::array(1.0f)).str() == golden("cond_int_pred"));
}

TEST_CASE("lax golden: cond_concrete_pred") {
  auto f = [](Tracer x) {
    return lax::cond(
        3, [](Tracer x) { return x; }, [](Tracer x) { return 2 * x; }, x);
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("cond_concrete_pred"));
}

TEST_CASE("lax golden: cond_two_operands") {
  auto f = [](Tracer a, Tracer b) {
    return lax::cond(
        a > b, [](Tracer a, Tracer b) { return std::make_tuple(a - b, b); },
        [](Tracer a, Tracer b) { return std::make_tuple(b - a, a); }, a, b);
  };
  CHECK(fj::make_jaxpr(f)(fj::array(1.0f), fj::array(2.0f)).str() == golden("cond_two_operands"));
}

TEST_CASE("lax golden: cond_passthrough") {
  auto f = [](Tracer a, Tracer b) {
    return lax::cond(
        a > 0, [](Tracer a, Tracer b) { return std::make_tuple(a, b * 2); },
        [](Tracer a, Tracer b) { return std::make_tuple(a, b); }, a, b);
  };
  CHECK(fj::make_jaxpr(f)(fj::array(1.0f), fj::array(2.0f)).str() == golden("cond_passthrough"));
}

TEST_CASE("lax golden: while_seed") {
  auto g = [](Tracer x, Tracer n) {
    auto i = lax::while_loop([&](Tracer i) { return i < n; }, [](Tracer i) { return i + 1; }, 0);
    return x + i;
  };
  CHECK(fj::make_jaxpr(g)(10, 20).str() == golden("while_seed"));
}

TEST_CASE("lax golden: while_forwarded") {
  auto g = [](Tracer x, Tracer n) {
    auto [i, x2] =
        lax::while_loop([&](const std::tuple<Tracer, Tracer>& c) { return std::get<0>(c) < n; },
                        [](const std::tuple<Tracer, Tracer>& c) {
                          return std::make_tuple(std::get<0>(c) + 1, std::get<1>(c));
                        },
                        std::make_tuple(0, x));
    return x2 + i;
  };
  CHECK(fj::make_jaxpr(g)(10, 20).str() == golden("while_forwarded"));
}

TEST_CASE("lax golden: while_capture") {
  auto f = [](Tracer x, Tracer n) {
    return lax::while_loop([&](Tracer c) { return c < n; }, [&](Tracer c) { return c * x; },
                           fj::array(1.0f));
  };
  CHECK(fj::make_jaxpr(f)(fj::array(2.0f), fj::array(100.0f)).str() == golden("while_capture"));
}

TEST_CASE("lax golden: fori_static") {
  auto f = [](Tracer x) {
    return lax::fori_loop(
        0, 3, [](Tracer, Tracer c) { return c * 2.0; }, x);
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("fori_static"));
}

TEST_CASE("lax golden: fori_static_uses_i") {
  auto f = [](Tracer x) {
    return lax::fori_loop(
        2, 5, [](Tracer i, Tracer c) { return c + i; }, x);
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("fori_static_uses_i"));
}

TEST_CASE("lax golden: fori_traced") {
  auto f = [](Tracer x, Tracer n) {
    return lax::fori_loop(
        0, n, [](Tracer, Tracer c) { return c * 2.0; }, x);
  };
  CHECK(fj::make_jaxpr(f)(1.0, 3).str() == golden("fori_traced"));
}

// The bodies stage equations while they run (a named Tracer), so the counter's `i + 1` must be
// staged before the call, as JAX's `(i + 1, body_fun(i, x))` does.
TEST_CASE("lax golden: fori_static_body_eqns") {
  auto f = [](Tracer x) {
    return lax::fori_loop(
        0, 3,
        [](Tracer, Tracer c) {
          Tracer twice = c * 2.0;
          return twice + fj::sin(c);
        },
        x);
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("fori_static_body_eqns"));
}

TEST_CASE("lax golden: fori_traced_body_eqns") {
  auto f = [](Tracer x, Tracer n) {
    return lax::fori_loop(
        0, n,
        [](Tracer i, Tracer c) {
          Tracer twice = c * 2.0;
          return twice + i;
        },
        x);
  };
  CHECK(fj::make_jaxpr(f)(1.0, 3).str() == golden("fori_traced_body_eqns"));
}

TEST_CASE("lax golden: scan_cumsum") {
  auto f = [](Tracer xs) {
    return lax::scan([](Tracer c, Tracer x) { return std::make_pair(c + x, c * x); }, 0.0, xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("scan_cumsum"));
}

TEST_CASE("lax golden: scan_reverse") {
  auto f = [](Tracer xs) {
    return lax::scan([](Tracer c, Tracer x) { return std::make_pair(c + x, c); }, 0.0, xs, true);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("scan_reverse"));
}

TEST_CASE("lax golden: scan_tuple") {
  using P = std::tuple<Tracer, Tracer>;
  auto f = [](Tracer a, Tracer b) {
    return lax::scan(
        [](const P& c, const P& x) {
          auto [c0, c1] = c;
          auto [x0, x1] = x;
          return std::make_pair(std::make_tuple(c0 + x0, c1 * x1), x0 * x1);
        },
        std::make_tuple(0.0, 1.0), std::make_tuple(a, b));
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3}), fj::ones({3})).str() == golden("scan_tuple"));
}

TEST_CASE("lax golden: scan_forwarding") {
  auto f = [](Tracer xs) {
    return lax::scan([](Tracer c, Tracer x) { return std::make_pair(c, x); }, 0.0, xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("scan_forwarding"));
}

TEST_CASE("lax golden: scan_capture") {
  auto f = [](Tracer xs, Tracer s) {
    return lax::scan([&](Tracer c, Tracer x) { return std::make_pair(c + x * s, c * y3(0)); },
                     fj::array(0.0f), xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3}), 2.0).str() == golden("scan_capture"));
}

TEST_CASE("lax golden: scan_int_carry") {
  auto f = [](Tracer xs) {
    return lax::scan([](Tracer c, Tracer x) { return std::make_pair(c + 1, x * 2); }, 0, xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("scan_int_carry"));
}

TEST_CASE("lax golden: scan_long_body") {
  auto f = [](Tracer xs) {
    return lax::scan(
        [](Tracer c, Tracer x) {
          for (int i = 0; i < 6; ++i) x = x * 2.0 + 1.0;
          return std::make_pair(Tracer(c + x), x);
        },
        fj::array(0.0f), xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("scan_long_body"));
}

TEST_CASE("lax golden: cond_in_scan") {
  auto f = [](Tracer xs) {
    return lax::scan(
        [](Tracer c, Tracer x) {
          Tracer y = lax::cond(
              x > 0, [&] { return c + x; }, [&] { return c - x; });
          return std::make_pair(y, c);
        },
        0.0, xs);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("cond_in_scan"));
}

TEST_CASE("lax golden: nested_jit") {
  auto jsin = fj::jit([](Tracer x) { return fj::sin(x); }, "sin");
  auto f = [&](Tracer x) { return jsin(x) + 1; };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("nested_jit"));
}

TEST_CASE("lax golden: nested_jit_shared") {
  auto jg = fj::jit([](Tracer x) { return x * 3; }, "g");
  auto f = [&](Tracer x) {
    Tracer a = jg(x);  // two statements: the operands of + are evaluated in unspecified order
    Tracer b = jg(x);
    return a + b;
  };
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("nested_jit_shared"));
}

TEST_CASE("lax golden: nested_jit_capture") {
  auto f = [](Tracer x) { return fj::jit([&](Tracer y) { return y * y3 + x; })(x) + 1; };
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("nested_jit_capture"));
}

// A jit closing over concrete arrays only: JAX keeps them as constvars of its jaxpr (the outer
// jaxpr never names them), also in its JVP, its batched form and grad's forward part; grad's
// backward part takes them as operands.
TEST_CASE("lax golden: a nested jit's concrete captures are constvars of its jaxpr") {
  const auto times_y3 = fj::jit([](Tracer y) { return y * y3; }, "times_y3");
  auto body = [&](Tracer x) { return times_y3(x) + 1.0; };
  CHECK(fj::make_jaxpr(body)(fj::ones({3})).str() == golden("nested_jit_consts"));
  auto jvp = [&](Tracer x, Tracer t) {
    auto [y, dy] = fj::jvp(body, std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::vector<Tracer>{y, dy};
  };
  CHECK(fj::make_jaxpr(jvp)(fj::ones({3}), fj::ones({3})).str() == golden("nested_jit_consts_jvp"));
  const auto dot_y3 = fj::jit([](Tracer y) { return fj::dot(y, y3); }, "dot_y3");
  auto batched = fj::vmap([&](Tracer x) { return dot_y3(x) + 1.0; });
  CHECK(fj::make_jaxpr(batched)(fj::ones({2, 3})).str() == golden("nested_jit_consts_vmap"));
  auto grad = fj::grad([&](Tracer x) { return fj::sum(body(x)); });
  CHECK(fj::make_jaxpr(grad)(fj::ones({3})).str() == golden("nested_jit_consts_grad"));
  auto twice = [&](Tracer x) {
    Tracer a = times_y3(x);  // two statements: JAX's order
    Tracer b = times_y3(x * 2);
    return a + b;
  };
  CHECK(fj::make_jaxpr(twice)(fj::ones({3})).str() == golden("nested_jit_consts_twice"));
  // The values: the captured array is still passed to the compiled call.
  const Array got = fj::jit(twice)(fj::array(std::vector<float>{1, 2, 4}));
  CHECK(fusejit_test::as_doubles(got) == std::vector<double>{0, 6, 24});
}
