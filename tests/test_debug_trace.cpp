// Issue 23, seeing inside traced code: an error raised while tracing names the function and the
// file:line where fj::jit (grad, vmap, a lax loop) was called, as JAX's "The error occurred
// while tracing the function f at file:line"; fj::checking_leaks reports tracers that outlive
// their trace, as jax.checking_leaks. Lines are taken with __LINE__ at the call, never written.
#include <doctest/doctest.h>

#include <functional>
#include <fusejit/fusejit.hpp>
#include <source_location>
#include <string>
#include <typeinfo>
#include <vector>

using fj::Array;
using fj::Tracer;
namespace lax = fj::lax;

namespace {

// "file:line" of a line of this file, as std::source_location spells the file.
std::string here(int line) {
  return std::string(std::source_location::current().file_name()) + ":" + std::to_string(line);
}

// The message of the exception `run` raises, which must be exactly an E.
template <class E, class F>
std::string message_of(F&& run) {
  try {
    run();
  } catch (const std::exception& e) {
    CHECK_MESSAGE(typeid(e) == typeid(E), "raised ", std::string(typeid(e).name()), ": ",
                  std::string(e.what()));
    return e.what();
  }
  FAIL("nothing was thrown");
  return "";
}

// How many times `what` occurs in `s`.
std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

using Leak = fj::UnexpectedTracerError;

// Checks on a message, which is shown when they fail.
#define CHECK_HAS(m, s) CHECK_MESSAGE((m).find(s) != std::string::npos, "message: ", m)
#define CHECK_LACKS(m, s) CHECK_MESSAGE((m).find(s) == std::string::npos, "message: ", m)
#define CHECK_STARTS(m, s) CHECK_MESSAGE((m).find(s) == 0, "message: ", m)

const char* const kNote = "The error occurred while tracing ";

// Tracers leaked on purpose, in globals.
Array g_leaked;
std::function<Array()> g_escaped;

void forget_leaks() {
  g_leaked = Array();
  g_escaped = nullptr;
}

// fj::set_check_tracer_leaks(on) for a scope, then the setting as it was (the whole suite may
// run with FUSEJIT_CHECK_TRACER_LEAKS=1).
struct LeakCheckingEverywhere {
  bool before = fj::check_tracer_leaks();
  explicit LeakCheckingEverywhere(bool on) { fj::set_check_tracer_leaks(on); }
  ~LeakCheckingEverywhere() { fj::set_check_tracer_leaks(before); }
};

}  // namespace

// --- Where an error came from ----------------------------------------------------------------

namespace {
// Functions that raise while traced: shapes (3,) and (4,) do not broadcast.
auto add_four = [](Tracer x) { return Tracer(x + fj::ones({4})); };
auto sum_add_four = [](Tracer x) { return fj::sum(x + fj::ones({4})); };
}  // namespace

TEST_CASE("trace notes: a shape error in a jitted function names it and the jit's line") {
  const Array f3 = fj::ones({3});
  const int line = __LINE__ + 1;
  auto f = fj::jit(add_four, "add_four");
  const std::string m = message_of<fj::ShapeError>([&] { (void)f(f3); });
  // The original message first, then the note, once.
  CHECK_STARTS(m, "add: incompatible shapes for broadcasting: (3,) and (4,)");
  CHECK_HAS(m, std::string(kNote) + "the function add_four for fj::jit at " + here(line) + ".");
  CHECK(count(m, kNote) == 1);
  // The default name, and a second jit of the same code: its own line.
  const int line2 = __LINE__ + 1;
  auto anon = fj::jit(add_four);
  const std::string m2 = message_of<fj::ShapeError>([&] { (void)anon(f3); });
  CHECK_HAS(m2, "the function <lambda> for fj::jit at " + here(line2));
  // .lower() traces through the same path; so does make_jaxpr.
  CHECK(message_of<fj::ShapeError>([&] { (void)f.lower(f3); }).find(here(line)) !=
        std::string::npos);
  const int line3 = __LINE__ + 1;
  auto mk = fj::make_jaxpr(add_four, "square");
  const std::string m3 = message_of<fj::ShapeError>([&] { (void)mk(f3); });
  CHECK_HAS(m3, "the function square for fj::make_jaxpr at " + here(line3));
}

TEST_CASE("trace notes: a concretization error keeps its type and gains the note") {
  auto needs_value = [](Tracer x) { return x * x.item<float>(); };
  const int line = __LINE__ + 1;
  auto f = fj::jit(needs_value, "needs_value");
  const std::string m = message_of<fj::ConcretizationError>([&] { (void)f(fj::array(1.0f)); });
  CHECK_STARTS(m, "fj::Array::item: the array is a tracer");
  CHECK_HAS(m, "the function needs_value for fj::jit at " + here(line));
}

TEST_CASE("trace notes: grad, value_and_grad and vmap name the function they trace") {
  const Array f3 = fj::ones({3});
  const int line = __LINE__ + 1;
  auto g = fj::grad(sum_add_four);
  std::string m = message_of<fj::ShapeError>([&] { (void)g(f3); });
  CHECK_HAS(m, std::string(kNote) + "the function grad for fj::grad at " + here(line));
  CHECK(count(m, kNote) == 1);
  // grad's own checks run in the trace of grad itself (the jit it runs through).
  auto identity = [](Tracer x) { return x; };
  const int line2 = __LINE__ + 1;
  auto vg = fj::value_and_grad(identity);
  m = message_of<fj::ShapeError>([&] { (void)vg(f3); });
  CHECK_STARTS(m, "fj::value_and_grad: gradient only defined for scalar-output functions");
  CHECK_HAS(m, "for fj::value_and_grad at " + here(line2));
  const int line3 = __LINE__ + 1;
  auto v = fj::vmap(add_four);
  m = message_of<fj::ShapeError>([&] { (void)v(fj::ones({2, 3})); });
  CHECK_HAS(m, "the function vmap for fj::vmap at " + here(line3));
  // Inside a jit, the innermost trace is named, once: grad's, not the jit's.
  int line4 = 0;
  auto outer = fj::jit([&](Tracer x) {
    line4 = __LINE__ + 1;
    return fj::grad(sum_add_four)(x);
  });
  m = message_of<fj::ShapeError>([&] { (void)outer(f3); });
  CHECK_HAS(m, "the function grad for fj::grad at " + here(line4));
  CHECK_LACKS(m, "fj::jit");
  CHECK(count(m, kNote) == 1);
}

TEST_CASE("trace notes: a lax loop body names the loop's line, inside a jit or eagerly") {
  const Array f3 = fj::ones({3}), xs = fj::ones({2, 4});
  auto scan_body = [](Tracer c, Tracer r) { return std::make_pair(Tracer(c + r), c); };
  int line = 0;
  auto scan_in_jit = fj::jit([&](Tracer x) {
    line = __LINE__ + 1;
    return lax::scan(scan_body, x, xs).first;
  });
  std::string m = message_of<fj::ShapeError>([&] { (void)scan_in_jit(f3); });
  CHECK_HAS(m, "the function scan_body for fj::lax::scan at " + here(line));
  CHECK(count(m, kNote) == 1);
  // Eager: no jit around the loop.
  auto below_ten = [](Tracer c) { return fj::sum(c) < 10.0f; };
  line = __LINE__ + 1;
  m = message_of<fj::ShapeError>([&] { (void)lax::while_loop(below_ten, add_four, f3); });
  CHECK_HAS(m, "the function while_body for fj::lax::while_loop at " + here(line));
  auto fori_body = [](Tracer, Tracer c) { return add_four(c); };
  line = __LINE__ + 1;
  m = message_of<fj::ShapeError>([&] { (void)lax::fori_loop(0, 3, fori_body, f3); });
  CHECK_HAS(m, "for fj::lax::fori_loop at " + here(line));
  auto identity = [](Tracer x) { return x; };
  line = __LINE__ + 1;
  m = message_of<fj::ShapeError>([&] { (void)lax::cond(true, identity, add_four, f3); });
  CHECK_HAS(m, "the function cond_false for fj::lax::cond at " + here(line));
  // The loop's own check (carry structure) is raised in the loop's trace: the loop is named.
  auto grows = [](Tracer, const std::vector<Tracer>& c) { return std::vector<Tracer>{c[0], c[0]}; };
  const std::vector<Array> init{f3};
  line = __LINE__ + 1;
  m = message_of<fj::TypeError>([&] { (void)lax::fori_loop(0, 3, grows, init); });
  CHECK_STARTS(m, "lax.fori_loop: body_fun returns a carry of structure");
  CHECK_HAS(m, "for fj::lax::fori_loop at " + here(line));
}

TEST_CASE("trace notes: errors outside any trace have none") {
  const std::string m = message_of<fj::ShapeError>([] { (void)add_four(fj::ones({3})); });
  CHECK_LACKS(m, kNote);
  auto f = fj::jit([](Tracer x) { return x; });
  CHECK(message_of<fj::TypeError>([&] { (void)f(Array()); }).find(kNote) == std::string::npos);
}

// --- Leaked tracers --------------------------------------------------------------------------

namespace {
// Functions leaking their argument (or a value computed from it) into the globals.
auto leak_to_global = [](Tracer x) {
  g_leaked = x * 2;
  return Tracer(x + 1);
};
auto leak_in_lambda = [](Tracer x) {
  g_escaped = [x] { return x; };
  return Tracer(x * 2);
};
}  // namespace

TEST_CASE("checking_leaks: a tracer stored in a global is reported when the jit's trace ends") {
  forget_leaks();
  const Array f3 = fj::ones({3});
  const int line = __LINE__ + 1;
  auto leaky = fj::jit(leak_to_global, "leaky");
  {
    fj::checking_leaks guard;
    const std::string m = message_of<Leak>([&] { (void)leaky(f3); });
    CHECK_STARTS(m, "Found 1 leaked tracer(s) of the trace of the function leaky for fj::jit at " +
                        here(line));
    CHECK_HAS(m, "stored in a global");
    CHECK(fj::detail::current_trace() == nullptr);  // the trace stack unwound
    // Nothing was cached: the next call traces (and reports) again.
    CHECK(leaky.cache_size() == 0);
    CHECK_THROWS_AS((void)leaky(f3), fj::UnexpectedTracerError);
    // Two leaks are counted as two.
    auto two = fj::jit([](Tracer x) {
      leak_to_global(x);
      return leak_in_lambda(x);
    });
    const std::string m2 = message_of<Leak>([&] { (void)two(f3); });
    CHECK_STARTS(m2, "Found 2 leaked tracer(s)");
  }
  forget_leaks();
}

TEST_CASE("checking_leaks: a lambda or an output argument taking a tracer out is reported") {
  forget_leaks();
  fj::checking_leaks guard;
  auto f = fj::jit(leak_in_lambda);
  CHECK_THROWS_AS((void)f(fj::ones({3})), fj::UnexpectedTracerError);
  forget_leaks();
  // Through an output argument (a side channel), in make_jaxpr's trace.
  std::vector<Array> side;
  auto mk = fj::make_jaxpr([&side](Tracer x) {
    side.push_back(x);
    return x;
  });
  CHECK(message_of<Leak>([&] { (void)mk(fj::ones({3})); }).find("for fj::make_jaxpr") !=
        std::string::npos);
}

TEST_CASE("checking_leaks: leaks inside grad, vmap and lax bodies name that trace") {
  forget_leaks();
  const Array f3 = fj::ones({3});
  fj::checking_leaks guard;
  auto leak_sum = [](Tracer x) { return fj::sum(leak_to_global(x)); };
  int line = __LINE__ + 1;
  auto g = fj::grad(leak_sum);
  std::string m = message_of<Leak>([&] { (void)g(f3); });
  CHECK_STARTS(m, "Found 1 leaked tracer(s) of the trace of the function grad for fj::grad at " +
                      here(line));
  forget_leaks();
  line = __LINE__ + 1;
  auto v = fj::vmap(leak_in_lambda);
  m = message_of<Leak>([&] { (void)v(fj::ones({2, 3})); });
  CHECK_HAS(m, "the function vmap for fj::vmap at " + here(line));
  forget_leaks();
  // A scan body inside a jit: the body's trace is named; the jit's note follows (the leak was
  // found while the jit's function was being traced).
  auto scan_body = [](Tracer c, Tracer r) {
    return std::make_pair(Tracer(c + r), leak_to_global(c));
  };
  auto in_jit = fj::jit([&](Tracer x) {
    line = __LINE__ + 1;
    return lax::scan(scan_body, x, fj::ones({2, 3})).first;
  });
  m = message_of<Leak>([&] { (void)in_jit(f3); });
  CHECK_HAS(m, "of the trace of the function scan_body for fj::lax::scan at " + here(line));
  CHECK_HAS(m, std::string(kNote) + "the function <lambda> for fj::jit");
  forget_leaks();
  // while_loop and fori_loop bodies and a cond branch, eagerly.
  auto below_ten = [](Tracer c) { return fj::sum(c) < 10.0f; };
  line = __LINE__ + 1;
  m = message_of<Leak>([&] { (void)lax::while_loop(below_ten, leak_to_global, f3); });
  CHECK_HAS(m, "the function while_body for fj::lax::while_loop at " + here(line));
  forget_leaks();
  auto fori_body = [](Tracer i, Tracer c) { return leak_in_lambda(i) + c; };
  line = __LINE__ + 1;
  m = message_of<Leak>([&] { (void)lax::fori_loop(0, 3, fori_body, f3); });
  CHECK_HAS(m, "for fj::lax::fori_loop at " + here(line));
  forget_leaks();
  auto identity = [](Tracer x) { return x; };
  m = message_of<Leak>([&] { (void)lax::cond(true, leak_to_global, identity, f3); });
  CHECK_HAS(m, "the function cond_true for fj::lax::cond");
  forget_leaks();
  // From inside a loop body, a tracer of the enclosing jit stored as it is outlives the jit's
  // trace, not the body's; a value computed from it in the body is the body's (omnistaging).
  auto store_outer = [](Tracer x) {
    auto body = [&](Tracer, Tracer c) {
      g_leaked = x;
      return Tracer(c + x);
    };
    return lax::fori_loop(0, 2, body, x);
  };
  m = message_of<Leak>([&] { (void)fj::jit(store_outer, "store_outer")(f3); });
  CHECK_STARTS(m, "Found 1 leaked tracer(s) of the trace of the function store_outer for fj::jit");
  forget_leaks();
  auto store_computed = [](Tracer x) {
    auto body = [&](Tracer, Tracer c) { return Tracer(c + leak_to_global(x)); };
    return lax::fori_loop(0, 2, body, x);
  };
  m = message_of<Leak>([&] { (void)fj::jit(store_computed)(f3); });
  CHECK_STARTS(m, "Found 1 leaked tracer(s) of the trace of the function fori_loop_body");
  forget_leaks();
}

TEST_CASE("checking_leaks: nothing is reported for code that keeps its tracers inside") {
  fj::checking_leaks guard;
  const std::vector<float> xv{1.0f, 2.0f, 3.0f};
  const Array x = fj::array(xv, {3});
  // Nested traces closing over outer tracers, a nested jit's shared sub-graph, expressions
  // returned unevaluated: none of it outlives its trace.
  auto inner = fj::jit([](Tracer a, Tracer b) { return a * b; }, "inner");
  auto f = fj::jit([&](Tracer a) {
    Array g = fj::grad([&](Tracer y) { return fj::sum(inner(y, a)); })(a);             // = a
    Array v = fj::vmap([&](Tracer r) { return Tracer(r * a(0)); })(fj::ones({2, 3}));  // ones
    Array l = lax::fori_loop(
        0, 3, [&](Tracer, Tracer c) { return Tracer(c + a); }, a);  // 4a
    auto plus_g = [&](Tracer t) { return Tracer(t + g); };
    auto same = [](Tracer t) { return t; };
    Array c = lax::cond(fj::sum(a) > 0.0f, plus_g, same, l);  // 5a
    return c + fj::sum(v) + inner(a, a);
  });
  Array r;
  CHECK_NOTHROW(r = f(x));
  std::vector<float> want;
  for (float a : xv) want.push_back(5 * a + 6 + a * a);
  CHECK(r.to_vector<float>() == want);
  CHECK_NOTHROW((void)fj::grad([](Tracer a) { return fj::sum(a * a); })(x));
  CHECK_NOTHROW((void)fj::make_jaxpr([](Tracer a) { return a + 1; })(x));
}

TEST_CASE("checking_leaks: outside the guard a leak raises only when the tracer is used") {
  LeakCheckingEverywhere off(false);
  forget_leaks();
  const Array f3 = fj::ones({3});
  auto leaky = fj::jit([](Tracer x) { return leak_in_lambda(leak_to_global(x)); });
  {
    fj::checking_leaks guard;
    CHECK_THROWS_AS((void)leaky(f3), fj::UnexpectedTracerError);
  }
  forget_leaks();
  // The guard has ended: the same call traces and runs; (x + 1) * 2.
  Array r;
  CHECK_NOTHROW(r = leaky(f3));
  CHECK(r.to_vector<float>() == std::vector<float>{4, 4, 4});
  // ... and the leaked tracers raise as before, when used.
  const std::string m = message_of<Leak>([] { (void)Array(g_leaked * 2); });
  CHECK_HAS(m, "was used after that trace ended");
  CHECK_THROWS_AS((void)Array(g_escaped() + 1), fj::UnexpectedTracerError);
  forget_leaks();
  // Guards nest; the outer one still checks after the inner one ends.
  {
    fj::checking_leaks a;
    { fj::checking_leaks b; }
    CHECK_THROWS_AS((void)fj::jit(leak_to_global)(f3), fj::UnexpectedTracerError);
  }
  forget_leaks();
}

TEST_CASE("checking_leaks: fj::set_check_tracer_leaks turns checking on everywhere") {
  forget_leaks();
  auto leak = [] { (void)fj::jit(leak_to_global)(fj::ones({2})); };
  {
    LeakCheckingEverywhere on(true);
    CHECK(fj::check_tracer_leaks());
    CHECK_THROWS_AS(leak(), fj::UnexpectedTracerError);
    forget_leaks();
  }
  LeakCheckingEverywhere off(false);
  CHECK_NOTHROW(leak());
  forget_leaks();
}
