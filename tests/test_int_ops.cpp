// Bitwise operators and shifts on i32, i64, u32 and bool, on every backend, against plain loops
// (128-bit arithmetic for the shifts) and values printed by JAX 0.10.2; their dtype errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "int_ops_check.hpp"

using fj::Tracer;
using namespace fusejit_int_test;

namespace {

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

template <class T>
std::string ty() {
  return std::string(fj::short_name(fj::dtype_of_v<T>));
}

template <class T>
constexpr int kBits = static_cast<int>(sizeof(T) * 8);

// XLA's shifts, written as arithmetic on exact 128-bit values rather than with C++ shifts: the
// amount is read as unsigned, so negative amounts are huge, and huge amounts shift everything
// out (shift_left, logical) or leave the sign (arithmetic).
template <class T>
std::uint64_t amount(T s) {
  return static_cast<std::make_unsigned_t<T>>(s);
}
template <class T>
T shl(T x, T s) {
  if (amount(s) >= kBits<T>) return T(0);
  const U128 v = static_cast<std::make_unsigned_t<T>>(x);
  const U128 mod = U128(1) << kBits<T>;
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>((v * (U128(1) << amount(s))) % mod));
}
template <class T>
T sra(T x, T s) {
  using S = std::make_signed_t<T>;
  const I128 v = static_cast<S>(x);  // the bit pattern as a signed value, for u32 too
  const std::uint64_t n = std::min<std::uint64_t>(amount(s), kBits<T> - 1);
  const I128 d = I128(1) << n;
  I128 q = v / d;
  if (v % d != 0 && v < 0) --q;  // floor division
  return static_cast<T>(static_cast<S>(q));
}
template <class T>
T srl(T x, T s) {
  if (amount(s) >= kBits<T>) return T(0);
  const U128 v = static_cast<std::make_unsigned_t<T>>(x);
  return static_cast<T>(v / (U128(1) << amount(s)));
}

template <class T>
std::vector<T> reversed(std::vector<T> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

template <class T>
void check_bitwise(unsigned seed) {
  for (std::int64_t n : {37, 1030}) {
    const auto a = int_values<T>(static_cast<std::size_t>(n), seed);
    const auto b = reversed(int_values<T>(static_cast<std::size_t>(n), seed + 1));
    const fj::Array x = vec(a), y = vec(b);
    const std::string what = ty<T>() + "[" + std::to_string(n) + "]";
    const auto band = broadcast_map<T>(a, b, [](T p, T q) { return T(p & q); });
    const auto bor = broadcast_map<T>(a, b, [](T p, T q) { return T(p | q); });
    const auto bxor = broadcast_map<T>(a, b, [](T p, T q) { return T(p ^ q); });
    std::vector<T> bnot(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) bnot[i] = static_cast<T>(~a[i]);
    check_backends(
        "& " + what, vec(band), [](Tracer p, Tracer q) { return p & q; }, x, y);
    check_backends(
        "| " + what, vec(bor), [](Tracer p, Tracer q) { return p | q; }, x, y);
    check_backends(
        "^ " + what, vec(bxor), [](Tracer p, Tracer q) { return p ^ q; }, x, y);
    check_backends(
        "~ " + what, vec(bnot), [](Tracer p) { return ~p; }, x);
    check_backends(
        "bitwise_and " + what, vec(band), [](Tracer p, Tracer q) { return fj::bitwise_and(p, q); },
        x, y);
    check_backends(
        "bitwise_or " + what, vec(bor), [](Tracer p, Tracer q) { return fj::bitwise_or(p, q); }, x,
        y);
    check_backends(
        "bitwise_xor " + what, vec(bxor), [](Tracer p, Tracer q) { return fj::bitwise_xor(p, q); },
        x, y);
    check_backends(
        "bitwise_not " + what, vec(bnot), [](Tracer p) { return fj::bitwise_not(p); }, x);
  }
  // Broadcasting: a lower-rank operand, a rank-0 array, C++ scalars (weak: the result keeps T)
  // as literals and as dynamic jit arguments.
  const auto a = int_values<T>(4 * 37, seed + 2);
  const auto b = int_values<T>(37, seed + 3);
  const fj::Array x = vec(a, fj::Shape{4, 37}), y = vec(b);
  check_backends(
      "(4,37) & (37,) " + ty<T>(),
      vec(broadcast_map<T>(a, b, [](T p, T q) { return T(p & q); }), fj::Shape{4, 37}),
      [](Tracer p, Tracer q) { return p & q; }, x, y);
  check_backends(
      "(37,) ^ (4,37) " + ty<T>(),
      vec(broadcast_map<T>(a, b, [](T p, T q) { return T(q ^ p); }), fj::Shape{4, 37}),
      [](Tracer p, Tracer q) { return q ^ p; }, x, y);
  const T k = static_cast<T>(0x0F0F3C3C);
  check_backends(
      "x | rank-0 " + ty<T>(),
      vec(broadcast_map<T>(b, std::vector<T>{k}, [](T p, T q) { return T(p | q); })),
      [](Tracer p, Tracer q) { return p | q; }, y, fj::array(k));
  check_backends(
      "x & literal " + ty<T>(),
      vec(broadcast_map<T>(b, std::vector<T>{T(0x0F0F)}, [](T p, T q) { return T(p & q); })),
      [](Tracer p) { return p & 0x0F0F; }, y);
  check_backends(
      "literal ^ x " + ty<T>(),
      vec(broadcast_map<T>(b, std::vector<T>{T(77)}, [](T p, T q) { return T(q ^ p); })),
      [](Tracer p) { return 77 ^ p; }, y);
  check_backends(
      "x | dynamic scalar " + ty<T>(),
      vec(broadcast_map<T>(b, std::vector<T>{T(1234)}, [](T p, T q) { return T(p | q); })),
      [](Tracer p, Tracer q) { return p | q; }, y, 1234);
}

template <class T>
void check_shifts(unsigned seed) {
  constexpr bool is_signed = std::is_signed_v<T>;
  for (std::int64_t n : {37, 1030}) {
    const auto a = int_values<T>(static_cast<std::size_t>(n), seed);
    const auto s = shift_amounts<T>(static_cast<std::size_t>(n), seed + 1);
    const fj::Array x = vec(a), y = vec(s);
    const std::string what = ty<T>() + "[" + std::to_string(n) + "]";
    const auto left = broadcast_map<T>(a, s, shl<T>);
    // jnp.right_shift: arithmetic on signed integers, logical on unsigned ones.
    const auto right = broadcast_map<T>(a, s, is_signed ? sra<T> : srl<T>);
    check_backends(
        "<< " + what, vec(left), [](Tracer p, Tracer q) { return p << q; }, x, y);
    check_backends(
        ">> " + what, vec(right), [](Tracer p, Tracer q) { return p >> q; }, x, y);
    check_backends(
        "left_shift " + what, vec(left), [](Tracer p, Tracer q) { return fj::left_shift(p, q); }, x,
        y);
    check_backends(
        "right_shift " + what, vec(right), [](Tracer p, Tracer q) { return fj::right_shift(p, q); },
        x, y);
  }
  const auto a = int_values<T>(4 * 37, seed + 2);
  const auto s = shift_amounts<T>(37, seed + 3);
  const fj::Array x = vec(a, fj::Shape{4, 37}), y = vec(s);
  check_backends(
      "(4,37) >> (37,) " + ty<T>(),
      vec(broadcast_map<T>(a, s, is_signed ? sra<T> : srl<T>), fj::Shape{4, 37}),
      [](Tracer p, Tracer q) { return p >> q; }, x, y);
  check_backends(
      "x << 3 " + ty<T>(), vec(broadcast_map<T>(a, std::vector<T>{3}, shl<T>), fj::Shape{4, 37}),
      [](Tracer p) { return p << 3; }, x);
  std::vector<T> ones_shifted(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) ones_shifted[i] = shl<T>(T(1), s[i]);
  check_backends(
      "1 << s " + ty<T>(), vec(ones_shifted), [](Tracer q) { return 1 << q; }, y);
  check_backends(
      "x >> dynamic scalar " + ty<T>(),
      vec(broadcast_map<T>(a, std::vector<T>{T(5)}, is_signed ? sra<T> : srl<T>), fj::Shape{4, 37}),
      [](Tracer p, Tracer q) { return p >> q; }, x, 5);
}

/// One primitive applied to two arrays, on the named backend: reaches the shifts that no
/// jnp function stages (shift_right_logical of a signed integer, arithmetic of an unsigned).
fj::Array run_primitive(const char* backend, fj::ir::Prim p, const fj::Array& x,
                        const fj::Array& y) {
  fusejit_test::BackendScope scope(backend);
  fj::ir::GraphBuilder g;
  const auto a = fj::ir::Atom::of_var(g.add_invar(x.aval()));
  const auto b = fj::ir::Atom::of_var(g.add_invar(y.aval()));
  g.graph.outvars.push_back(g.emit1(p, {a, b}));
  auto exe = fj::backend::default_backend().compile(std::make_shared<const fj::ir::Graph>(g.graph));
  const std::vector<fj::backend::Value> in{{x.buffer(), x.aval()}, {y.buffer(), y.aval()}};
  const auto out = exe->run(in);
  return fj::Array::from_buffer(out[0].buf, out[0].aval);
}

template <class T>
void check_shift_primitives(unsigned seed) {
  const auto a = int_values<T>(37, seed);
  const auto s = shift_amounts<T>(37, seed + 1);
  const fj::Array x = vec(a), y = vec(s);
  for (const char* name : kBackends) {
    if (!fusejit_test::has_backend(name)) continue;
    const std::string what = ty<T>() + " [" + name + "]";
    fusejit_test::check_close(run_primitive(name, fj::ir::Prim::shift_left, x, y),
                              vec(broadcast_map<T>(a, s, shl<T>)), 0, "shift_left " + what);
    fusejit_test::check_close(run_primitive(name, fj::ir::Prim::shift_right_arithmetic, x, y),
                              vec(broadcast_map<T>(a, s, sra<T>)), 0,
                              "shift_right_arithmetic " + what);
    fusejit_test::check_close(run_primitive(name, fj::ir::Prim::shift_right_logical, x, y),
                              vec(broadcast_map<T>(a, s, srl<T>)), 0,
                              "shift_right_logical " + what);
  }
}

}  // namespace

TEST_CASE("int ops: &, |, ^, ~ on i32, i64, u32 match plain loops on every backend") {
  check_bitwise<std::int32_t>(10);
  check_bitwise<std::int64_t>(20);
  check_bitwise<std::uint32_t>(30);
}

TEST_CASE("int ops: &, |, ^, ~ on bools are logical, bool & int promotes to int") {
  std::vector<bool> a, b;
  for (int i = 0; i < 37; ++i) a.push_back(i % 3 == 0), b.push_back(i % 2 == 0);
  const fj::Array x = vec(a), y = vec(b);
  std::vector<bool> band, bor, bxor, bnot;
  for (std::size_t i = 0; i < a.size(); ++i) {
    band.push_back(a[i] && b[i]);
    bor.push_back(a[i] || b[i]);
    bxor.push_back(a[i] != b[i]);
    bnot.push_back(!a[i]);
  }
  check_backends(
      "bool &", vec(band), [](Tracer p, Tracer q) { return p & q; }, x, y);
  check_backends(
      "bool |", vec(bor), [](Tracer p, Tracer q) { return p | q; }, x, y);
  check_backends(
      "bool ^", vec(bxor), [](Tracer p, Tracer q) { return p ^ q; }, x, y);
  check_backends(
      "bool ~", vec(bnot), [](Tracer p) { return ~p; }, x);
  check_backends(
      "bool ^ true", vec(bnot), [](Tracer p) { return p ^ true; }, x);
  check_backends(
      "bitwise_not bool", vec(bnot), [](Tracer p) { return fj::bitwise_not(p); }, x);
  // A weak int makes the bools i32 (JAX: convert_element_type[new_dtype=int32 weak_type=True]).
  std::vector<std::int32_t> plus;
  for (bool v : a) plus.push_back(v ? 3 : 2);
  check_backends(
      "bool | 2", vec(plus), [](Tracer p) { return p | 2; }, x);
}

TEST_CASE("int ops: shifts by amounts >= the width or negative follow XLA, every backend") {
  check_shifts<std::int32_t>(40);
  check_shifts<std::int64_t>(50);
  check_shifts<std::uint32_t>(60);
  check_shift_primitives<std::int32_t>(70);
  check_shift_primitives<std::int64_t>(80);
  check_shift_primitives<std::uint32_t>(90);
}

TEST_CASE("int ops: shifts of edge values equal JAX's") {
  // jax.lax.shift_* on int32 [5, -7, INT_MIN, INT_MAX, 1], printed by JAX 0.10.2 on CPU.
  const std::vector<std::int32_t> x{5, -7, INT32_MIN, INT32_MAX, 1};
  struct Row {
    std::int32_t s;
    std::vector<std::int32_t> left, right;
  };
  const std::vector<Row> rows{
      {1, {10, -14, 0, -2, 2}, {2, -4, -1073741824, 1073741823, 0}},
      {31, {INT32_MIN, INT32_MIN, 0, INT32_MIN, INT32_MIN}, {0, -1, -1, 0, 0}},
      {32, {0, 0, 0, 0, 0}, {0, -1, -1, 0, 0}},
      {100, {0, 0, 0, 0, 0}, {0, -1, -1, 0, 0}},
      {-1, {0, 0, 0, 0, 0}, {0, -1, -1, 0, 0}},
  };
  for (const auto& r : rows) {
    const std::string what = "shift by " + std::to_string(r.s);
    const fj::Array s = fj::full(fj::Shape{5}, r.s, fj::i32);
    check_backends(
        "<< " + what, vec(r.left), [](Tracer p, Tracer q) { return p << q; }, vec(x), s);
    check_backends(
        ">> " + what, vec(r.right), [](Tracer p, Tracer q) { return p >> q; }, vec(x), s);
  }
  // uint32 0xF000000F: >> is logical; shifted by 1 and by 32.
  const fj::Array u = fj::array({0xF000000Fu});
  check_backends(
      "u32 >> 1", fj::array({2013265927u}), [](Tracer p) { return p >> 1; }, u);
  check_backends(
      "u32 << 1", fj::array({3758096414u}), [](Tracer p) { return p << 1; }, u);
  check_backends(
      "u32 >> 32", fj::array({0u}), [](Tracer p) { return p >> 32; }, u);
}

TEST_CASE("int ops: floats raise DTypeError naming the function and the dtype") {
  const fj::Array f = fj::arange(3.0f), i = fj::arange(3);
  auto expect = [](auto fn, const fj::Array& a, const fj::Array& b, const char* name,
                   const char* dtype) {
    try {
      fj::jit(fn)(a, b);
      FAIL("no error from " << name);
    } catch (const fj::DTypeError& e) {
      const std::string msg = e.what();
      CAPTURE(msg);
      CHECK(msg.find(name) != std::string::npos);
      CHECK(msg.find(dtype) != std::string::npos);
    }
  };
  expect([](Tracer a, Tracer b) { return a & b; }, f, i, "fj::bitwise_and", "f32");
  expect([](Tracer a, Tracer b) { return a | b; }, i, f, "fj::bitwise_or", "f32");
  expect([](Tracer a, Tracer b) { return a ^ b; }, f, f, "fj::bitwise_xor", "f32");
  expect([](Tracer a, Tracer) { return ~a; }, f, i, "fj::bitwise_not", "f32");
  expect([](Tracer a, Tracer b) { return a << b; }, f, i, "fj::left_shift", "f32");
  expect([](Tracer a, Tracer b) { return a >> b; }, i, f, "fj::right_shift", "f32");
  expect([](Tracer a, Tracer) { return a & 1.5; }, i, i, "fj::bitwise_and", "f32");
  expect([](Tracer a, Tracer) { return fj::bitwise_xor(a, 2); }, fj::astype(f, fj::f64), i,
         "fj::bitwise_xor", "f64");
  expect([](Tracer a, Tracer) { return fj::right_shift(a, 2); }, fj::astype(f, fj::f64), i,
         "fj::right_shift", "f64");
  // Eagerly too, outside any trace.
  CHECK_THROWS_AS(fj::Array(f & i), fj::DTypeError);
  CHECK_THROWS_AS(fj::Array(~f), fj::DTypeError);
}

TEST_CASE(
    "int ops: hand-built shifts of floats or bools, negative integer powers fail the shape rule") {
  fj::ir::GraphBuilder g;
  const auto f = fj::ir::Atom::of_var(g.add_invar(fj::ir::Aval{fj::f32, fj::Shape{3}, false}));
  const auto b = fj::ir::Atom::of_var(g.add_invar(fj::ir::Aval{fj::bool_, fj::Shape{3}, false}));
  CHECK_THROWS_AS(g.emit1(fj::ir::Prim::shift_left, {f, f}), fj::DTypeError);
  CHECK_THROWS_AS(g.emit1(fj::ir::Prim::shift_right_logical, {b, b}), fj::DTypeError);
  CHECK_THROWS_AS(g.emit1(fj::ir::Prim::xor_, {f, f}), fj::DTypeError);
  // integer_pow: a negative y on integers, a missing y.
  const auto i = fj::ir::Atom::of_var(g.add_invar(fj::ir::Aval{fj::i32, fj::Shape{3}, false}));
  const fj::ir::Params neg{{fj::ir::Param{"y", std::int64_t{-2}}}};
  CHECK_THROWS_AS(g.emit1(fj::ir::Prim::integer_pow, {i}, neg), fj::DTypeError);
  CHECK_THROWS_AS(g.emit1(fj::ir::Prim::integer_pow, {f}), fj::ValueError);
  CHECK(g.aval(g.emit1(fj::ir::Prim::integer_pow, {f}, neg)).dtype == fj::f32);
}
