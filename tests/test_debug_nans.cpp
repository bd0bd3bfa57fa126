// fj::set_debug_nans (jax_debug_nans): a NaN in a compiled call's outputs raises
// fj::FloatingPointError naming the primitive that made it and its jaxpr line, as JAX does.
#include <doctest/doctest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <limits>
#include <string>
#include <vector>

#include "backend_compare.hpp"

extern char** environ;

using fj::Tracer;
namespace lax = fj::lax;

namespace {

// Sets the flag for a scope and restores the previous state.
struct DebugNans {
  bool prev = fj::debug_nans();
  explicit DebugNans(bool on) { fj::set_debug_nans(on); }
  ~DebugNans() { fj::set_debug_nans(prev); }
};

// The FloatingPointError's message, or a note that none was raised.
template <class F>
std::string nan_error(F&& fn) {
  try {
    fn();
  } catch (const fj::FloatingPointError& e) {
    return e.what();
  }
  return "(no fj::FloatingPointError)";
}

template <class F>
void on_each_backend(F&& fn) {
  for (const char* b : {"reference", "llvm"}) {
    if (!fusejit_test::has_backend(b)) continue;
    const std::string backend = b;
    CAPTURE(backend);
    fusejit_test::BackendScope scope(b);
    fn();
  }
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// The example: only the log makes a NaN (x = 1: log(-7)).
Tracer steps(Tracer x) {
  Tracer y = x * 2.0f + 1.0f;
  Tracer z = fj::log(y - 10.0f);
  return fj::sin(z) * 3.0f;
}
double steps_ref(double x) { return std::sin(std::log(x * 2 + 1 - 10)) * 3; }

// JAX 0.10.2's make_jaxpr(steps)(1.), the reference for the line and its text:
//   { lambda ; a:f32[]. let
//       b:f32[] = mul a 2.0:f32[]
//       c:f32[] = add b 1.0:f32[]
//       d:f32[] = sub c 10.0:f32[]
//       e:f32[] = log d
//       f:f32[] = sin e
//       g:f32[] = mul f 3.0:f32[]
//     in (g,) }
const char* const kStepsLog = "\n  e:f32[] = log d\nat line 5 of the jaxpr";

}  // namespace

TEST_CASE("debug_nans: off by default, set_debug_nans switches it, the getter reads it") {
  // The test process runs without FUSEJIT_DEBUG_NANS (the child case below sets it).
  if (!std::getenv("FUSEJIT_DEBUG_NANS")) CHECK_FALSE(fj::debug_nans());
  {
    DebugNans on(true);
    CHECK(fj::debug_nans());
    {
      DebugNans off(false);
      CHECK_FALSE(fj::debug_nans());
    }
    CHECK(fj::debug_nans());
  }
  // JAX's spellings of true (jax.config's bool flags); anything else is off.
  for (const char* v : {"1", "true", "True", "TRUE", "t", "yes", "y", "on", "ON"}) {
    CAPTURE(v);
    CHECK(fj::detail::parse_debug_nans(v));
  }
  for (const char* v : {"0", "false", "no", "off", "", "2", "nan"}) {
    CAPTURE(v);
    CHECK_FALSE(fj::detail::parse_debug_nans(v));
  }
  CHECK_FALSE(fj::detail::parse_debug_nans(nullptr));
}

TEST_CASE("debug_nans: a NaN made by log deep in a jitted function is attributed to that log") {
  on_each_backend([] {
    auto f = fj::jit([](Tracer x) { return steps(x); }, "steps");
    const fj::Array one = fj::array(1.0f);
    // Off: the NaN is returned, nothing is raised.
    {
      DebugNans off(false);
      CHECK(std::isnan(f(one).item<float>()));
    }
    DebugNans on(true);
    CHECK_THROWS_AS(f(one), fj::FloatingPointError);
    const std::string msg = nan_error([&] { f(one); });
    CHECK(msg.rfind("fj::jit(steps): invalid value (nan) encountered in log\n", 0) == 0);
    CHECK(msg.find(kStepsLog) != std::string::npos);
    // A NaN-free call with the flag on gives what float64 gives.
    for (float x : {10.0f, 7.0f, 100.0f}) {
      CAPTURE(x);
      CHECK(f(fj::array(x)).item<float>() == doctest::Approx(steps_ref(x)).epsilon(1e-5));
    }
    // Ahead of time: lower().compile()'s function is checked too.
    const auto compiled = f.lower(one).compile();
    CHECK(nan_error([&] {
            compiled(one);
          }).rfind("fj::jit(steps): invalid value (nan) encountered in log\n", 0) == 0);
    // The entry compiled while the flag was on serves calls with it off.
    DebugNans off(false);
    CHECK(std::isnan(f(one).item<float>()));
    CHECK(f.trace_count() == 1);
  });
}

TEST_CASE("debug_nans: grad and vmap at top level are checked (they run through a jit)") {
  on_each_backend([] {
    auto g = fj::grad([](Tracer x) { return steps(x); });
    {
      DebugNans off(false);
      CHECK(std::isnan(g(fj::array(1.0f)).item<float>()));
    }
    DebugNans on(true);
    // JAX: grad(f)(1.) raises "invalid value (nan) encountered in log" (its forward log).
    const std::string msg = nan_error([&] { g(fj::array(1.0f)); });
    CHECK(msg.rfind("fj::jit(grad): invalid value (nan) encountered in log\n", 0) == 0);
    CHECK(msg.find("= log d\nat line 5 of the jaxpr") != std::string::npos);
    // NaN-free: d/dx 3 sin(log(2x - 9)) = 6 cos(log(2x - 9)) / (2x - 9).
    const double x = 10, want = 6 * std::cos(std::log(2 * x - 9)) / (2 * x - 9);
    CHECK(g(fj::array(10.0f)).item<float>() == doctest::Approx(want).epsilon(1e-5));

    auto v = fj::vmap([](Tracer x) { return steps(x); });
    const fj::Array xs = fj::array({10.0f, 1.0f, 20.0f});
    CHECK(nan_error([&] {
            v(xs);
          }).rfind("fj::jit(vmap): invalid value (nan) encountered in log", 0) == 0);
  });
}

TEST_CASE("debug_nans: a NaN made inside a loop body names the primitive in the body") {
  // log(c) * 2 from c = 1: 0, then log(0) = -inf, then log(-inf) = NaN in the third iteration.
  auto body = [](Tracer, Tracer c) { return fj::log(c) * 2.0f; };
  on_each_backend([&] {
    auto f = fj::jit([&](Tracer x) { return lax::fori_loop(0, 3, body, x); }, "loop");
    {
      DebugNans off(false);
      CHECK(std::isnan(f(fj::array(1.0f)).item<float>()));
    }
    DebugNans on(true);
    // JAX 0.10.2 prints the scan with its body on lines 3-7, `f:f32[] = log d` on line 5 (JAX
    // itself names only the scan here: its de-optimized run calls scan as one primitive).
    const std::string msg = nan_error([&] { f(fj::array(1.0f)); });
    CHECK(msg.rfind("fj::jit(loop): invalid value (nan) encountered in log\n", 0) == 0);
    CHECK(msg.find("\n  f:f32[] = log d\nat line 5 of the jaxpr (as fj::make_jaxpr prints it), the "
                   "3rd time it ran, in the body of the scan at line 2.") != std::string::npos);
    // Two iterations stay finite.
    auto two = fj::jit([&](Tracer x) { return lax::fori_loop(0, 2, body, x); });
    CHECK(two(fj::array(1.0f)).item<float>() == -std::numeric_limits<float>::infinity());

    // Called outside a trace, a lax loop compiles and runs too, through the same path.
    const std::string top = nan_error([&] { lax::fori_loop(0, 3, body, fj::array(1.0f)); });
    CHECK(top.rfind("fj::lax.fori_loop: invalid value (nan) encountered in log\n", 0) == 0);
    CHECK(top.find("in the body of the scan at line") != std::string::npos);
  });
}

TEST_CASE("debug_nans: ir::locate_eqn gives an equation's line and text as make_jaxpr prints it") {
  // JAX 0.10.2's make_jaxpr(lambda x: fori_loop(0, 3, lambda i, c: jnp.log(c) * 2., x))(1.):
  const std::vector<std::string> jax = {"{ lambda ; a:f32[]. let",
                                        "    _:i32[] b:f32[] = scan[",
                                        "      jaxpr={ lambda ; c:i32[] d:f32[]. let",
                                        "          e:i32[] = add c 1:i32[]",
                                        "          f:f32[] = log d",
                                        "          g:f32[] = mul f 2.0:f32[]",
                                        "        in (e, g) }",
                                        "      length=3",
                                        "      num_carry=2",
                                        "      num_consts=0",
                                        "      reverse=False",
                                        "      unroll=1",
                                        "    ] 0:i32[] a",
                                        "  in (b,) }"};
  const fj::Jaxpr j = fj::make_jaxpr([](Tracer x) {
    return lax::fori_loop(
        0, 3, [](Tracer, Tracer c) { return fj::log(c) * 2.0f; }, x);
  })(fj::array(1.0f));
  const fj::ir::Graph& top = j.graph();
  REQUIRE(top.eqns.size() == 1);
  // The scan spans lines 2-13; its text keeps its lines, less its own indent of 4.
  const fj::ir::PrintedEqn scan = fj::ir::locate_eqn(top, top.eqns[0]);
  CHECK(scan.line == 2);
  std::string want;
  for (std::size_t i = 1; i <= 12; ++i) want += (i > 1 ? "\n" : "") + jax[i].substr(4);
  CHECK(scan.text == want);
  const fj::ir::Graph& body = *top.eqns[0].params.get<fj::ir::GraphPtr>("jaxpr");
  REQUIRE(body.eqns.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const fj::ir::PrintedEqn at = fj::ir::locate_eqn(top, body.eqns[k]);
    CHECK(at.line == static_cast<int>(4 + k));
    CHECK(at.text == jax[3 + k].substr(10));
  }
  // An equation of another graph is not found.
  CHECK(fj::ir::locate_eqn(body, top.eqns[0]).line == 0);
}

TEST_CASE("debug_nans: cond branches and nested jits are searched") {
  on_each_backend([] {
    DebugNans on(true);
    // JAX 0.10.2's make_jaxpr: branch 0 (false) is `{ lambda ; e:f32[]. let f:f32[] = log e in
    // (f,) }` on line 6; the cond equation starts on line 4.
    auto c = fj::jit(
        [](Tracer x) {
          return lax::cond(
              x > 0.0f, [](Tracer v) { return v * 2.0f; }, [](Tracer v) { return fj::log(v); }, x);
        },
        "branchy");
    const std::string msg = nan_error([&] { c(fj::array(-1.0f)); });
    CHECK(msg.find("encountered in log\n  f:f32[] = log e\nat line 6 of the jaxpr (as "
                   "fj::make_jaxpr prints it), in branch 0 of the cond at line 4.") !=
          std::string::npos);
    CHECK(c(fj::array(2.0f)).item<float>() == 4.0f);

    // JAX 0.10.2: `b:f32[] = jit[name=inner jaxpr={ lambda ; a:f32[]. let b:f32[] = log a in
    // (b,) }] a` on lines 2-5, the log on line 4.
    auto inner = fj::jit([](Tracer y) { return fj::log(y); }, "inner");
    auto outer = fj::jit([&](Tracer x) { return inner(x) * 2.0f; }, "outer");
    const std::string nested = nan_error([&] { outer(fj::array(-1.0f)); });
    CHECK(nested.find("fj::jit(outer): invalid value (nan) encountered in log\n  b:f32[] = log "
                      "a\nat line 4 of the jaxpr (as fj::make_jaxpr prints it), in the jit "
                      "'inner' at line 2.") != std::string::npos);

    // A shared sub-graph: the holder named is the call that made the NaN, the second one.
    // JAX 0.10.2 prints `let inner = { lambda ; a:f32[]. let b:f32[] = log a in (b,) } in`,
    // then the calls on lines 3 (inner(x)) and 6 (inner(x - 5)).
    auto twice = fj::jit(
        [&](Tracer x) {
          Tracer d = inner(x);  // sequenced: C++ leaves the order of `+`'s operands open
          Tracer e = d * 2.0f;
          Tracer f = x - 5.0f;
          return e + inner(f);
        },
        "twice");
    const std::string shared = nan_error([&] { twice(fj::array(1.0f)); });
    INFO(shared);
    CHECK(shared.find("encountered in log\n  b:f32[] = log a\nat line 1 of the jaxpr (as "
                      "fj::make_jaxpr prints it), the 2nd time it ran, in the jit 'inner' at line "
                      "6.") != std::string::npos);
  });
}

TEST_CASE("debug_nans: NaN inputs follow JAX (the first primitive whose result holds a NaN)") {
  on_each_backend([] {
    DebugNans on(true);
    const fj::Array nan = fj::array(kNaN);
    // JAX: jit(lambda x: x * 2)(nan) raises "invalid value (nan) encountered in mul".
    auto twice = fj::jit([](Tracer x) { return x * 2.0f; }, "twice");
    CHECK(nan_error([&] {
            twice(nan);
          }).rfind("fj::jit(twice): invalid value (nan) encountered in mul\n", 0) == 0);
    // JAX: jit(lambda x: jnp.sum(x))(array with a NaN) raises in reduce_sum.
    auto total = fj::jit([](Tracer x) { return fj::sum(x); }, "total");
    CHECK(nan_error([&] {
            total(fj::array({1.0f, kNaN, 3.0f}));
          }).find("encountered in reduce_sum") != std::string::npos);
    // JAX: an identity jit of a NaN raises too, saying no primitive produced it.
    auto same = fj::jit([](Tracer x) { return x; }, "same");
    const std::string msg = nan_error([&] { same(nan); });
    CHECK(msg.rfind("fj::jit(same): invalid value (nan) in output 0 (f32[]), but no equation", 0) ==
          0);
    // Only floating outputs are checked: JAX's jit of (x * 2).astype(int32) returns 0 for NaN.
    auto as_int = fj::jit([](Tracer x) { return (x * 2.0f).astype(fj::i32); });
    CHECK_NOTHROW(as_int(nan));
    // A NaN that does not reach the output raises nothing (JAX checks the outputs first).
    auto masked = fj::jit([](Tracer x) { return fj::where(x > 0.0f, fj::log(x), 0.0f); });
    CHECK(masked(fj::array(-1.0f)).item<float>() == 0.0f);
    // f64 is checked too.
    auto f64 = fj::jit([](Tracer x) { return fj::sqrt(x); }, "root");
    CHECK(nan_error([&] {
            f64(fj::array(-2.0));
          }).rfind("fj::jit(root): invalid value (nan) encountered in sqrt\n", 0) == 0);
  });
}

TEST_CASE("debug_nans: eager expressions are checked (JAX's op-by-op mode raises too)") {
  DebugNans on(true);
  const fj::Array x = fj::array(-1.0f);
  // JAX: jnp.log(-1.) raises "invalid value (nan) encountered in log".
  const std::string msg = nan_error([&] { fj::Array y = fj::log(x) + 1.0f; });
  CHECK(msg.rfind("fj: invalid value (nan) encountered in log\n", 0) == 0);
  CHECK(msg.find("of the expression's jaxpr") != std::string::npos);
  fj::Array y = fj::log(fj::array(std::exp(1.0f)));
  CHECK(y.item<float>() == doctest::Approx(1.0));
}

TEST_CASE("debug_nans: FUSEJIT_DEBUG_NANS=1 turns the check on at first use") {
  // The variable is read once, at first use: a child process of this test executable sees it
  // from its start.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string_view s(*e);
    if (s.rfind("FUSEJIT_DEBUG_NANS=", 0) != 0 && s.rfind("FUSEJIT_NANS_TEST_CHILD=", 0) != 0)
      env_strings.emplace_back(s);
  }
  for (const char* value : {"1", "0"}) {
    CAPTURE(value);
    std::vector<std::string> env = env_strings;
    env.push_back(std::string("FUSEJIT_DEBUG_NANS=") + value);
    env.push_back(std::string("FUSEJIT_NANS_TEST_CHILD=") + value);
    std::vector<char*> envp;
    for (auto& s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string exe = "/proc/self/exe", filter = "--test-case=debug_nans: child process*",
                minimal = "--minimal";
    char* argv[] = {exe.data(), filter.data(), minimal.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
}

TEST_CASE("debug_nans: child process started with FUSEJIT_DEBUG_NANS") {
  const char* want = std::getenv("FUSEJIT_NANS_TEST_CHILD");
  if (!want) return;  // runs in the child only
  const bool on = std::string(want) == "1";
  auto f = fj::jit([](Tracer x) { return fj::log(x); }, "child");
  if (on)
    CHECK(nan_error([&] {
            f(fj::array(-1.0f));
          }).rfind("fj::jit(child): invalid value (nan) encountered in log", 0) == 0);
  else
    CHECK(std::isnan(f(fj::array(-1.0f)).item<float>()));
  CHECK(fj::debug_nans() == on);
}
