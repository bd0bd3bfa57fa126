// The bad-input matrix's rows for random keys, vmap, grad, lax control flow, pytrees and integer
// division by zero.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>
#include <doctest/doctest.h>
#include <fusejit/fusejit.hpp>
#include "row.hpp"

namespace bad_input {

// Integer division by zero follows XLA on CPU, not C++: no trap. Checked eagerly and under jit on
// every registered backend (the LLVM one and the reference interpreter).
inline void check_int_division_by_zero() {
  const std::string prev(fj::backend::default_backend().name());
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  using fj::Array;
  using fj::Tracer;
  const Array x = fj::array({7, -7, 0, kMin}), zero = fj::array({0, 0, 0, -1});
  const Array u = fj::array(std::vector<std::uint32_t>{7, 0}, {2}), uzero = fj::zeros({2}, fj::u32);
  auto fd = [](Tracer a, Tracer b) { return fj::floor_divide(a, b); };
  auto rem = [](Tracer a, Tracer b) { return a % b; };
  for (const std::string& backend : fj::backend::backend_names()) {
    fj::set_default_backend(backend);
    for (int jitted = 0; jitted < 2; ++jitted) {
      CAPTURE(backend);
      CAPTURE(jitted);
      auto run = [&](auto f, const Array& a, const Array& b) {
        return jitted ? fj::jit(f)(a, b) : f(a, b);
      };
      // jnp.floor_divide: lax.div(x, 0) = -1, minus one where the signs differ and rem != 0;
      // INT_MIN / -1 wraps to INT_MIN (x86's idiv would trap). Values from JAX 0.10.2.
      CHECK(values<std::int32_t>(run(fd, x, zero)) == std::vector<std::int32_t>{-2, -2, -1, kMin});
      // jnp.remainder divides by 1 where the divisor is 0.
      CHECK(values<std::int32_t>(run(rem, x, zero)) == std::vector<std::int32_t>{0, 0, 0, 0});
      CHECK(values<std::uint32_t>(run(fd, u, uzero)) ==
            std::vector<std::uint32_t>{4294967295u, 4294967295u});
      CHECK(values<std::uint32_t>(run(rem, u, uzero)) == std::vector<std::uint32_t>{0, 0});
    }
  }
  fj::set_default_backend(prev);
}

inline std::vector<Row> transform_rows() {
  using fj::Array;
  using fj::Tracer;
  namespace lax = fj::lax;
  namespace rnd = fj::random;
  const Array f3 = fj::ones({3}), f4 = fj::ones({4});
  const Array m23 = fj::ones({2, 3});
  const Array key = rnd::key(0);
  auto vm = [](auto f, auto... axes) { return fj::vmap(f, fj::in_axes{axes...}); };
  return {
      // fj::random.
      {"a float key", [=] { (void)rnd::split(fj::zeros({2})); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::split: the key must be a uint32[2] array"},
      {"a key of the wrong shape",
       [=] {
         (void)rnd::normal(fj::array(std::vector<std::uint32_t>{1, 2, 3}, {3}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::normal: the key must be a uint32[2] array"},
      {"`split` into a negative count", [=] { (void)rnd::split(key, -1); },
       raises<fj::ValueError>("fj::ValueError"), "fj::random::split: n must be >= 0, got -1"},
      {"a negative dimension in a random shape",
       [=] {
         (void)rnd::normal(key, {2, -1});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::normal: shape (2, -1) has a negative dimension"},
      {"`uniform` of an integer dtype", [=] { (void)rnd::uniform(key, {3}, fj::i32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::uniform: dtype must be float32 or float64, got int32"},
      {"`uniform` with minval > maxval", [=] { (void)rnd::uniform(key, {3}, fj::f32, 2.0, 1.0); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::random::uniform: minval 2.000000 must not exceed maxval 1.000000"},
      {"`randint` of a float dtype", [=] { (void)rnd::randint(key, {3}, 0, 5, fj::f32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::randint: dtype must be int32 or uint32, got float32"},
      {"`bits` of a float dtype", [=] { (void)rnd::bits(key, {3}, fj::f32); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::bits: dtype must be uint32, or int64 for JAX's uint64 bits"},
      {"`fold_in` with non-scalar data",
       [=] {
         (void)rnd::fold_in(key, fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::fold_in: data must be an integer scalar, got i32[2]"},
      {"a float seed for `key`", [=] { (void)rnd::key(fj::array(1.5f)); },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::key: the seed must be an integer scalar, got f32[]"},
      {"`permutation` of a negative count", [=] { (void)rnd::permutation(key, -3); },
       raises<fj::ValueError>("fj::ValueError"), "fj::random::permutation: n must be >= 0, got -3"},
      {"`permutation` along an axis out of range", [=] { (void)rnd::permutation(key, m23, 5); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::permutation: axis 5 is out of range for f32[2,3]"},
      {"`categorical` of integer logits",
       [=] {
         (void)rnd::categorical(key, fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::categorical: logits must be float32 or float64, got int32"},
      {"`categorical` along an axis out of range",
       [=] {
         (void)rnd::categorical(key, fj::zeros({3, 4}), 2);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::categorical: axis 2 is out of range for logits f32[3,4]"},
      {"`categorical` with a shape not ending in the logits' batch shape",
       [=] {
         (void)rnd::categorical(key, fj::zeros({3, 4}), -1, std::vector<std::int64_t>{2});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::categorical: shape (2,) must end with the logits' batch shape (3,)"},
      {"`bernoulli` with integer probabilities",
       [=] {
         (void)rnd::bernoulli(key, fj::array({1, 0}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::random::bernoulli: p must be float32 or float64, got int32"},
      {"`bernoulli` with a shape that `p` does not broadcast to",
       [=] { (void)rnd::bernoulli(key, fj::full({3}, 0.5), std::vector<std::int64_t>{2}); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::random::bernoulli: incompatible shapes for broadcasting: (2,) and (3,)"},

      // vmap.
      {"`vmap` with inconsistent sizes of the mapped axes",
       [=] { (void)fj::vmap([](Tracer a, Tracer b) { return a + b; })(f3, f4); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: inconsistent sizes for the mapped axes: argument 0 has size 3, argument 1 has "
       "size 4 (shape (4,), axis 0)"},
      {"`vmap` with an `in_axes` out of range",
       [=] { (void)vm([](Tracer a) { return a; }, 2)(m23); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes 2 is out of range for argument 0 of shape (2, 3)"},
      {"`vmap` over a rank-0 argument",
       [=] { (void)fj::vmap([](Tracer a) { return a; })(fj::array(1.0f)); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes 0 is out of range for argument 0 of shape ()"},
      {"`vmap` with no mapped argument",
       [=] { (void)vm([](Tracer a) { return a; }, fj::none)(f3); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: at least one argument must be mapped (in_axes are all none)"},
      {"`vmap` with more `in_axes` than arguments",
       [=] { (void)vm([](Tracer a) { return a; }, 0, 0)(f3); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes must be one axis for every argument (fj::vmap(f, 0)) or have one entry "
       "per positional argument, but got len(in_axes)=2, len(args)=1"},
      {"`vmap` with one `in_axes` entry for two arguments (JAX raises; fj::vmap(f, 0) maps all)",
       [=] { (void)vm([](Tracer a, Tracer b) { return a + b; }, 0)(f3, f3); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes must be one axis for every argument (fj::vmap(f, 0)) or have one entry "
       "per positional argument, but got len(in_axes)=1, len(args)=2"},
      {"`vmap` with an `out_axes` out of range",
       [=] { (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{3})(m23); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: out_axes 3 is out of range for output 0 of rank 2"},
      {"`vmap` with more `out_axes` than outputs",
       [=] {
         (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{0, 0})(m23);
       },
       raises<fj::ValueError>("fj::ValueError"), "fj::vmap: out_axes has 2 entries for 1 outputs"},
      {"`vmap` with `out_axes` none for a mapped output",
       [=] {
         (void)fj::vmap([](Tracer a) { return a; }, fj::in_axes{0}, fj::out_axes{fj::none})(f3);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: output 0 depends on a mapped argument but its out_axes is none"},
      {"`vmap` with an `in_axes` pytree that is not a prefix of the argument",
       [=] {
         const std::vector<Array> xs{f3, f3};
         (void)fj::vmap([](const std::vector<Tracer>& v) { return v[0]; },
                        fj::in_axes{std::vector<int>{0, 0, 0}})(xs);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::vmap: in_axes for argument 0 has structure PyTreeDef([*, *, *]) but the argument has "
       "PyTreeDef([*, *])"},

      // grad.
      {"`grad` of a function whose output is not a scalar",
       [=] {
         (void)fj::grad([](Tracer x) { return x * 2.0f; })(fj::array({1.0f, 2.0f}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::grad: gradient only defined for scalar-output functions; the output has shape (2,)"},
      {"`grad` with respect to an integer argument",
       [=] {
         (void)fj::grad([](Tracer x) { return fj::sum(x); })(fj::array({1, 2}));
       },
       raises<fj::DTypeError>("fj::DTypeError"), "fj::grad: argument 0 has dtype int32"},
      {"`grad` with an argnum out of range",
       [=] {
         (void)fj::grad([](Tracer x, Tracer) { return fj::sum(x); }, fj::argnums{2})(
             fj::array(1.0f), fj::array(1.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::grad: argnums entry 2 is out of range for a call with 2 arguments"},
      {"`grad` of a function with an integer output",
       [=] {
         (void)fj::grad([](Tracer x) { return fj::sum(x).astype(fj::i32); })(fj::array({1.0f}));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "fj::grad: the output must be floating, got i32[]"},
      {"`grad` through a `while_loop`",
       [=] {
         (void)fj::grad([](Tracer x) {
           return lax::while_loop([](Tracer c) { return c < 10.0; },
                                  [](Tracer c) { return c * 2.0; }, x);
         })(1.0);
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::grad: reverse-mode differentiation does not work for lax.while_loop"},
      {"`jvp` with a tangent of another shape than its primal",
       [=] {
         (void)fj::jvp([](Tracer x) { return x * 2; }, std::array<Array, 1>{f3},
                       std::array<Array, 1>{f4});
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::jvp: tangent 0 is f32[4] but its primal is f32[3]"},
      {"`vjp` with a cotangent of another shape than the output",
       [=] {
         auto [y, back] = fj::vjp([](Tracer x) { return x * 2; }, std::array<Array, 1>{f3});
         (void)back(f4);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::vjp: the cotangent of output 0 is f32[4] but the output is f32[3]"},

      // lax control flow.
      {"`cond` branches returning different shapes",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x(fj::range(0, 2))); },
             f3);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.cond: true_fn output 0 is f32[3] but false_fn output 0 is f32[2]"},
      {"`cond` branches returning different dtypes",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x.astype(fj::i32)); },
             f3);
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.cond: true_fn output 0 is f32[3] but false_fn output 0 is i32[3]"},
      {"`cond` branches returning different pytree structures",
       [=] {
         (void)lax::cond(
             true, [](Tracer x) { return std::vector<Tracer>{x}; },
             [](Tracer x) {
               return std::vector<Tracer>{x, x};
             },
             f3);
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.cond: false_fn returns structure PyTreeDef([*, *]) but true_fn returns PyTreeDef([*])"},
      {"`cond` with a predicate that is not a scalar",
       [=] {
         (void)lax::cond(
             fj::ones({3}, fj::bool_), [](Tracer x) { return x; }, [](Tracer x) { return x; }, f3);
       },
       raises<fj::TypeError>("fj::TypeError"), "lax.cond: pred must be a scalar, got bool[3]"},
      // fusejit has no lax.switch, so a branch index of the wrong dtype is not reachable; a
      // non-bool cond predicate is compared with 0, as JAX 0.10.2 does.
      {"`cond` with a float or integer predicate",
       [=] {
         auto pick = [](auto pred) {
           return lax::cond(
               pred, [] { return Array(fj::array(1.0f)); }, [] { return Array(fj::array(0.0f)); });
         };
         CHECK(pick(fj::array(0.5f)).item<float>() == 1.0f);
         CHECK(pick(fj::array(-3)).item<float>() == 1.0f);
         CHECK(pick(fj::array(0.0f)).item<float>() == 0.0f);
       },
       no_error, "the predicate is compared with 0 (`0.5` and `-3` pick `true_fn`), as in JAX"},
      {"a `while_loop` body that changes the carry's shape",
       [=] {
         (void)lax::while_loop([](Tracer c) { return fj::sum(c) < 10.0f; },
                               [](Tracer c) {
                                 return Tracer(fj::concatenate({c, c}));
                               },
                               f3);
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.while_loop: body_fn output carry 0 is f32[6] but the input carry 0 is f32[3]"},
      {"a `while_loop` body that changes the carry's dtype",
       [=] {
         (void)lax::while_loop([](Tracer c) { return c < 10; },
                               [](Tracer c) { return Tracer(c.astype(fj::f32)); }, fj::array(1));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.while_loop: body_fn output carry 0 is f32[] but the input carry 0 is i32[]"},
      {"a `while_loop` body that changes the carry's pytree structure",
       [=] {
         (void)lax::while_loop([](const std::vector<Tracer>& c) { return c[0] < 10.0f; },
                               [](const std::vector<Tracer>& c) {
                                 return std::vector<Tracer>{c[0], c[0], c[0]};
                               },
                               std::vector<Array>{fj::array(1.0f), fj::array(1.0f)});
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.while_loop: body_fn returns a carry of structure PyTreeDef([*, *, *]) but the init "
       "has PyTreeDef([*, *])"},
      {"a `while_loop` condition that is not a bool scalar",
       [=] {
         (void)lax::while_loop([](Tracer c) { return c; }, [](Tracer c) { return c; },
                               fj::array(1.0f));
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.while_loop: cond_fn must return a bool scalar, got (f32[])"},
      {"`scan` over xs of different lengths",
       [=] {
         (void)lax::scan(
             [](Tracer c, const std::pair<Tracer, Tracer>& x) {
               return std::make_pair(c + x.first + x.second, c);
             },
             fj::array(0.0f), std::make_pair(f3, f4));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "lax.scan: xs have leading axes of different lengths: 3 and 4"},
      {"`scan` over a rank-0 x",
       [=] {
         (void)lax::scan([](Tracer c, Tracer x) { return std::make_pair(c + x, c); },
                         fj::array(0.0f), fj::array(1.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "lax.scan: got a value with no leading axis to scan over: f32[]"},
      {"a `scan` body that changes the carry's shape",
       [=] {
         (void)lax::scan(
             [](Tracer c, Tracer r) {
               return std::make_pair(Tracer(fj::concatenate({c, r})), r);
             },
             fj::ones({2}), fj::ones({2, 2}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "lax.scan: f output carry 0 is f32[4] but the input carry 0 is f32[2]"},
      {"`scan` over no xs",
       [=] {
         (void)lax::scan([](Tracer c, std::tuple<>) { return std::make_pair(c, c); },
                         fj::array(0.0f), std::tuple<>{});
       },
       raises<fj::ValueError>("fj::ValueError"), "lax.scan: xs must hold at least one array"},
      {"`fori_loop` with float array bounds",
       [=] {
         (void)lax::fori_loop(
             fj::array(0.0f), fj::array(3.0f), [](Tracer, Tracer c) { return c + 1.0f; },
             fj::array(0.0f));
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.fori_loop: bounds must be integer scalars, got f32[] and f32[]"},
      {"a `fori_loop` body that changes the carry's pytree structure",
       [=] {
         (void)lax::fori_loop(
             0, 3, [](Tracer, const std::vector<Tracer>& c) { return std::vector<Tracer>{c[0]}; },
             std::vector<Array>{f3, f3});
       },
       raises<fj::TypeError>("fj::TypeError"),
       "lax.fori_loop: body_fun returns a carry of structure PyTreeDef([*]) but init_val has "
       "PyTreeDef([*, *])"},
      {"a `fori_loop` body that changes the carry's dtype",
       [=] {
         (void)lax::fori_loop(
             0, 3, [](Tracer, Tracer c) { return Tracer(c.astype(fj::i32)); }, fj::array(0.0f));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.fori_loop: body_fun output carry 0 is i32[] but the input carry 0 is f32[]"},
      {"a `fori_loop` with a traced bound whose body changes the carry's dtype",
       [=] {
         (void)fj::jit([](Tracer n) {
           return lax::fori_loop(
               0, n, [](Tracer, Tracer c) { return Tracer(c.astype(fj::i32)); }, fj::array(0.0f));
         })(fj::array(3));
       },
       raises<fj::DTypeError>("fj::DTypeError"),
       "lax.fori_loop: body_fun output carry 0 is i32[] but the input carry 0 is f32[]"},

      // Where an error came from, and leaked tracers (issue 23). Each message ends with the
      // file:line of the call of fj::jit, here this file's.
      {"a shape error while tracing a jitted function: the note names it",
       [=] { (void)fj::jit([](Tracer x) { return x + fj::ones({4}); }, "f")(f3); },
       raises<fj::ShapeError>("fj::ShapeError"),
       "The error occurred while tracing the function f for fj::jit at "},
      {"a tracer stored outside its function, inside `fj::checking_leaks`",
       [=] {
         Array leak;
         fj::checking_leaks guard;
         (void)fj::jit(
             [&](Tracer x) {
               leak = x;
               return x;
             },
             "f")(f3);
       },
       raises<fj::UnexpectedTracerError>("fj::UnexpectedTracerError"),
       "Found 1 leaked tracer(s) of the trace of the function f for fj::jit at "},

      // Pytrees.
      {"`tree_map` over vectors of different lengths",
       [=] {
         (void)fj::tree_map([](int a, int b) { return a + b; }, std::vector<int>{1, 2},
                            std::vector<int>{1, 2, 3});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_map: tree 1 has structure PyTreeDef([*, *, *]) but the first tree has "
       "PyTreeDef([*, *])"},
      {"`tree_map` over maps with different keys",
       [=] {
         (void)fj::tree_map([](int a, int b) { return a + b; },
                            std::map<std::string, int>{{"a", 1}},
                            std::map<std::string, int>{{"b", 1}});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_map: tree 1 has structure PyTreeDef({'b': *}) but the first tree has "
       "PyTreeDef({'a': *})"},
      {"`tree_unflatten` with the wrong number of leaves",
       [=] {
         const auto def = fj::tree_structure(std::vector<double>{1, 2});
         (void)fj::tree_unflatten<std::vector<double>>(def, std::vector<double>{1});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_unflatten: the structure PyTreeDef([*, *]) has 2 leaves but 1 were given"},
      {"`tree_unflatten` with a structure that does not fit the C++ type",
       [=] {
         (void)fj::tree_unflatten<std::vector<double>>(fj::tree_structure(1.0),
                                                       std::vector<double>{1.0});
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::tree_unflatten: the structure PyTreeDef(*) does not fit the C++ type"},

      // Integer division by zero is no error: XLA's results, no SIGFPE.
      {"integer `floor_divide` and `%` by zero, eager and under `jit`, on every backend",
       [] { check_int_division_by_zero(); }, no_error,
       "i32: `x // 0 == -2` (`0 // 0 == -1`), `x % 0 == 0`, `INT_MIN // -1 == INT_MIN`, "
       "`INT_MIN % -1 == 0`; u32: `x // 0 == 4294967295`, `x % 0 == 0` (JAX's values)"},

      // Host callbacks. A print format is checked when traced; a result of another shape than
      // declared is found when the function runs, inside the compiled call.
      {"`fj::debug::print` whose format names an argument that was not given",
       [] {
         (void)fj::jit([](fj::Tracer x) {
           fj::debug::print("{} {}", x);
           return x;
         })(fj::array(1.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::debug::print: format \"{} {}\" refers to argument 1 but 1 argument was given"},
      {"`fj::pure_callback` whose function returns another shape than declared",
       [] {
         (void)fj::jit([](fj::Tracer x) {
           return fj::pure_callback(
               [](const fj::Array& v) {
                 return fj::concatenate({v, v});
               },
               fj::ShapeDtypeStruct{x.shape(), x.dtype()}, x);
         })(fj::array({1.0f}));
       },
       raises<fj::CallbackError>("fj::CallbackError"),
       "result 0 is f32[2] where result_shape_dtypes declares f32[1]"},

      // NaN checks: off by default; on, the first primitive that made a NaN is named.
      {"a NaN made by `log` of a negative number, with `fj::set_debug_nans(true)`",
       [] {
         struct Restore {
           bool was = fj::debug_nans();
           ~Restore() { fj::set_debug_nans(was); }
         } restore;
         fj::set_debug_nans(true);
         (void)fj::jit([](fj::Tracer x) { return fj::log(x - 2.0f); }, "f")(fj::array(1.0f));
       },
       raises<fj::FloatingPointError>("fj::FloatingPointError"),
       "fj::jit(f): invalid value (nan) encountered in log"},

      // Devices. A GPU that is not there: without a driver or GPU the message says which is
      // missing, with GPUs it gives their count; both name the call. Arrays of another device
      // get a row once device arrays exist (issue 7): every array is a host array so far.
      {"`fj::gpu(i)` of a GPU that is not there", [] { (void)fj::gpu(1000); },
       raises<fj::DeviceError>("fj::DeviceError"), "fj::gpu(1000): "},

      // pmap over the 4 CPU devices tests/main.cpp splits the host into, and its collectives.
      {"`fj::pmap` over a mapped axis whose size is not the device count",
       [] { (void)fj::pmap([](fj::Tracer x) { return x; })(fj::arange(3.0f)); },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::pmap: the mapped axis has size 3 but pmap runs on fj::local_device_count() = 4 "
       "devices"},
      {"a collective over an axis name no pmap or vmap binds",
       [] {
         (void)fj::pmap([](fj::Tracer x) { return fj::lax::psum(x, "j"); },
                        fj::axis_name{"i"})(fj::arange(4.0f));
       },
       raises<fj::NameError>("fj::NameError"),
       "fj::lax::psum: unbound axis name 'j'; the names in scope are 'i'"},
      {"`fj::lax::ppermute` with a device outside the axis",
       [] {
         (void)fj::pmap(
             [](fj::Tracer x) {
               return fj::lax::ppermute(x, "i", {{0, 4}});
             },
             fj::axis_name{"i"})(fj::arange(4.0f));
       },
       raises<fj::ValueError>("fj::ValueError"),
       "fj::lax::ppermute: the pair (0, 4) is out of range for axis 'i' of size 4"},
      {"`fj::lax::all_to_all` whose split axis is not the axis size",
       [] {
         (void)fj::pmap([](fj::Tracer x) { return fj::lax::all_to_all(x, "i", 0, 0); },
                        fj::axis_name{"i"})(fj::zeros({4, 3}));
       },
       raises<fj::ShapeError>("fj::ShapeError"),
       "fj::lax::all_to_all: split_axis 0 of shape (3,) has size 3, not equal to the size 4 of "
       "axis 'i'"},

      // CPU targets (FUSEJIT_CPU, fj::set_cpu_target). A CPU the host cannot run depends on the
      // host, so its row is in tests/test_cpu_widths.cpp; an unknown name is the same anywhere.
      {"`fj::set_cpu_target` with a CPU name LLVM does not know",
       [] { fj::set_cpu_target("pentium-9000"); }, raises<fj::ValueError>("fj::ValueError"),
       "fj::set_cpu_target(\"pentium-9000\"): \"pentium-9000\" is not an x86-64 CPU LLVM knows"},
  };
}

}  // namespace bad_input
