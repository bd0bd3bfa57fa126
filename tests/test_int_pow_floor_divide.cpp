// integer_pow, floor_divide and float -> int astype on every backend, against plain loops and
// values printed by JAX 0.10.2 on CPU.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "int_ops_check.hpp"

using fj::Tracer;
using namespace fusejit_int_test;

namespace {

__extension__ typedef __int128 I128;

template <class T>
std::string ty() {
  return std::string(fj::short_name(fj::dtype_of_v<T>));
}

// x**y on integers: y wrapping multiplications (exact modulo 2^bits, so any order agrees).
template <class T>
T int_power(T x, int y) {
  using U = std::make_unsigned_t<T>;
  U r = 1;
  for (int k = 0; k < y; ++k) r = static_cast<U>(r * static_cast<U>(x));
  return static_cast<T>(r);
}

// x**y on floats in XLA's order for JAX's integer_pow: square the base per bit of |y|, multiply
// it into the result for each set bit, lowest first; a negative y takes the reciprocal at the
// end. `volatile` keeps the compiler from contracting or reordering anything.
template <class F>
F float_power(F x, int y) {
  if (y == 0) return F(1);
  unsigned n = static_cast<unsigned>(y < 0 ? -y : y);
  volatile F base = x, result = 0;
  bool any = false;
  for (; n != 0; n >>= 1) {
    if (n & 1) {
      result = any ? result * base : F(base);
      any = true;
    }
    if (n > 1) base = base * base;
  }
  return y < 0 ? F(1) / result : F(result);
}

template <class T>
void check_integer_pow_ints(unsigned seed) {
  const auto a = int_values<T>(37, seed);
  const fj::Array x = vec(a);
  for (int y : {0, 1, 2, 3, 4, 5, 13, 31, 40, 63, 64}) {
    std::vector<T> want;
    for (T v : a) want.push_back(int_power(v, y));
    const std::string what = "integer_pow " + ty<T>() + " y=" + std::to_string(y);
    check_backends(
        what, vec(want), [y](Tracer p) { return fj::integer_pow(p, y); }, x);
    check_backends(
        "pow " + what, vec(want), [y](Tracer p) { return fj::pow(p, y); }, x);
  }
}

template <class F>
std::vector<F> float_values(std::size_t n, unsigned seed) {
  using L = std::numeric_limits<F>;
  std::vector<F> v{
      F(0),           -F(0),          F(1),    F(-1),    F(2),     F(0.5),          L::infinity(),
      -L::infinity(), L::quiet_NaN(), F(1e30), F(-1e30), F(1e-30), L::denorm_min(), L::max(),
      F(1.1),         F(-2.5),        F(3)};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-3, 3);
  while (v.size() < n) v.push_back(static_cast<F>(u(rng)));
  v.resize(n);
  return v;
}

template <class F>
void check_integer_pow_floats(unsigned seed) {
  const auto a = float_values<F>(37, seed);
  const auto b = float_values<F>(1030, seed + 1);
  for (int y : {0, 1, 2, 3, 4, 5, 7, 13, 17, 31, -1, -2, -3, -7, -17, 100, -100}) {
    for (const auto* v : {&a, &b}) {
      std::vector<F> want;
      for (F p : *v) want.push_back(float_power(p, y));
      const std::string what =
          "integer_pow " + ty<F>() + "[" + std::to_string(v->size()) + "] y=" + std::to_string(y);
      check_backends_bits(
          what, vec(want), [y](Tracer p) { return fj::pow(p, y); }, vec(*v));
    }
  }
  // Bit-identical also inside a fused expression: the LLVM backend must not contract x*x + c
  // into an fma, which would round once where the reference rounds twice.
  std::vector<F> want;
  for (F p : b) {
    volatile F sq = p * p;
    want.push_back(sq + F(0.375));
  }
  check_backends_bits(
      "x**2 + 0.375 " + ty<F>(), vec(want), [](Tracer p) { return fj::pow(p, 2) + 0.375; }, vec(b));
}

}  // namespace

TEST_CASE("int ops: integer_pow on integers wraps, every backend") {
  check_integer_pow_ints<std::int32_t>(1);
  check_integer_pow_ints<std::int64_t>(2);
  check_integer_pow_ints<std::uint32_t>(3);
  // jax.lax.integer_pow(x, 13) and (x, 64), printed by JAX 0.10.2.
  const fj::Array x = fj::array({3, 7, 12345, 2, 0, 1, -3, -12345});
  check_backends(
      "JAX int32 y=13",
      fj::array({1594323, -1895237401, -1655061927, 8192, 0, 1, -1594323, 1655061927}),
      [](Tracer p) { return fj::integer_pow(p, 13); }, x);
  check_backends(
      "JAX int32 y=64",
      fj::array({2038349057, -1061456383, -1299577343, 0, 0, 1, 2038349057, -1299577343}),
      [](Tracer p) { return fj::integer_pow(p, 64); }, x);
  check_backends(
      "JAX uint32 y=13", fj::array({1594323u, 2399729895u, 2639905369u, 8192u, 0u, 1u}),
      [](Tracer p) { return fj::integer_pow(p, 13); }, fj::array({3u, 7u, 12345u, 2u, 0u, 1u}));
  check_backends(
      "JAX int64 y=13",
      fj::array(std::vector<std::int64_t>{1594323, 96889010407, -7317902629339020711, 8192, 0, 1,
                                          -1594323, 7317902629339020711},
                fj::Shape{8}),
      [](Tracer p) { return fj::integer_pow(p, 13); }, fj::astype(x, fj::i64));
  // Bools become i32 first, as jnp.power does.
  check_backends(
      "bool ** 2", fj::array({1, 0}), [](Tracer p) { return fj::pow(p, 2); },
      fj::array({true, false}));
}

TEST_CASE("int ops: pow of integer arrays is JAX's integer exponentiation, every backend") {
  // jnp.power of two integer arrays: only the exponent's low 6 bits count (read as unsigned),
  // the result wraps, and 0 to a nonzero power is 0 even when those bits are 0.
  const auto jax_pow = [](auto x, auto y) {
    using T = decltype(x);
    if (x == 0 && y != 0) return T(0);
    return int_power(x, static_cast<int>(static_cast<std::uint64_t>(y) & 63));
  };
  auto fn = [](Tracer p, Tracer q) { return fj::pow(p, q); };
  const auto xs = int_values<std::int32_t>(37, 31), ys = shift_amounts<std::int32_t>(37, 32);
  check_backends("pow i32", vec(broadcast_map<std::int32_t>(xs, ys, jax_pow)), fn, vec(xs),
                 vec(ys));
  const auto xl = int_values<std::int64_t>(4 * 37, 33), yl = shift_amounts<std::int64_t>(37, 34);
  check_backends("pow (4,37) i64 by (37,)",
                 vec(broadcast_map<std::int64_t>(xl, yl, jax_pow), fj::Shape{4, 37}), fn,
                 vec(xl, fj::Shape{4, 37}), vec(yl));
  const auto xu = int_values<std::uint32_t>(37, 35), yu = shift_amounts<std::uint32_t>(37, 36);
  check_backends("pow u32", vec(broadcast_map<std::uint32_t>(xu, yu, jax_pow)), fn, vec(xu),
                 vec(yu));
  std::vector<std::int32_t> two_to;
  for (std::int32_t y : ys) two_to.push_back(jax_pow(std::int32_t{2}, y));
  check_backends(
      "2 ** y", vec(two_to), [](Tracer q) { return fj::pow(2, q); }, vec(ys));
  // Printed by JAX 0.10.2 on CPU.
  const fj::Array x = fj::array({3, -3, 0, 0, 2, 2, 7, -1, 5, 2, 0, 1});
  const fj::Array y = fj::array({4, 3, 0, 5, 31, 32, 64, 65, -1, -2, -3, 100});
  check_backends("JAX int32", fj::array({81, -27, 1, 0, INT32_MIN, 0, 1, -1, 1501274061, 0, 0, 1}),
                 fn, x, y);
  check_backends("JAX uint32",
                 fj::array({81u, 4294967269u, 1u, 0u, 2147483648u, 0u, 1u, 4294967295u, 1501274061u,
                            0u, 0u, 1u}),
                 fn, fj::astype(x, fj::u32), fj::astype(y, fj::u32));
  check_backends("JAX bool", fj::array({1, 0, 1, 1}), fn, fj::array({true, false, true, false}),
                 fj::array({true, true, false, false}));
}

TEST_CASE("int ops: integer_pow on floats is bit-identical across backends and equals JAX") {
  check_integer_pow_floats<float>(4);
  check_integer_pow_floats<double>(5);
  // jax.lax.integer_pow on float32, printed by JAX 0.10.2 (every value exact in f32).
  const float inf = INFINITY, nan = NAN;
  const fj::Array x = fj::array({1.1f, -2.5f, 0.0f, -0.0f, inf, -inf, nan, 1e30f, 1e-30f, 3.0f});
  struct Row {
    int y;
    std::vector<double> want;
  };
  const std::vector<Row> rows{
      {2, {1.2100000381469727, 6.25, 0.0, 0.0, inf, inf, nan, inf, 0.0, 9.0}},
      {3, {1.3310000896453857, -15.625, 0.0, -0.0, inf, -inf, nan, inf, 0.0, 27.0}},
      {-1,
       {0.9090908765792847, -0.4000000059604645, inf, -inf, 0.0, -0.0, nan, 1.0000000031710769e-30,
        1.0000000150474662e+30, 0.3333333432674408}},
      {-2,
       {0.8264462351799011, 0.1599999964237213, inf, inf, 0.0, 0.0, nan, 0.0, inf,
        0.1111111119389534}},
      {7, {1.9487173557281494, -610.3515625, 0.0, -0.0, inf, -inf, nan, inf, 0.0, 2187.0}},
      {17, {5.05447244644165, -5820766.0, 0.0, -0.0, inf, -inf, nan, inf, 0.0, 129140160.0}},
      {-17,
       {0.19784457981586456, -1.7179868905259355e-07, inf, -inf, 0.0, -0.0, nan, 0.0, inf,
        7.743524932379842e-09}},
      {0, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
  };
  for (const auto& r : rows) {
    std::vector<float> want(r.want.begin(), r.want.end());
    check_backends_bits(
        "JAX f32 y=" + std::to_string(r.y), vec(want),
        [y = r.y](Tracer p) { return fj::integer_pow(p, y); }, x);
  }
}

TEST_CASE("int ops: integer_pow errors, weak scalars and the eager cache key") {
  const fj::Array i = fj::arange(3);
  for (auto* name : {"integer_pow", "pow"}) {
    CAPTURE(name);
    try {
      if (std::string(name) == "pow")
        fj::jit([](Tracer p) { return fj::pow(p, -2); })(i);
      else
        fj::jit([](Tracer p) { return fj::integer_pow(p, -1); })(i);
      FAIL("no error");
    } catch (const fj::DTypeError& e) {
      const std::string msg = e.what();
      CAPTURE(msg);
      CHECK(msg.find("fj::integer_pow") != std::string::npos);
      CHECK(msg.find("negative powers") != std::string::npos);
      CHECK(msg.find("i32[3]") != std::string::npos);
    }
  }
  // A float exponent still stages pow; a float base with a negative int exponent is fine.
  const fj::Array f = fj::array({2.0f, 4.0f});
  CHECK(fj::make_jaxpr([](Tracer p) { return fj::pow(p, 0.5); })(f).str().find(
            "= pow a 0.5:f32[]") != std::string::npos);
  check_backends(
      "pow(x, -1)", fj::array({0.5f, 0.25f}), [](Tracer p) { return fj::pow(p, -1); }, f);
  // A weak scalar stays weak: f32 with an f32 array, not f64.
  check_backends(
      "pow(2.0, 3) * x", fj::array({16.0f, 32.0f}),
      [](Tracer p) { return fj::integer_pow(2.0, 3) * p; }, f);
  // Eagerly, one expression type with two exponents: the cache keys on y.
  for (const char* name : kBackends) {
    if (!fusejit_test::has_backend(name)) continue;
    fusejit_test::BackendScope scope(name);
    const fj::Array p2 = fj::integer_pow(f, 2), p3 = fj::integer_pow(f, 3);
    fusejit_test::check_close(p2, fj::array({4.0f, 16.0f}), 0, std::string("eager y=2 ") + name);
    fusejit_test::check_close(p3, fj::array({8.0f, 64.0f}), 0, std::string("eager y=3 ") + name);
  }
}

namespace {

// Python's // on integers: the exact quotient rounded toward -inf, wrapped to T (so
// INT_MIN // -1 == INT_MIN); x // 0 is what JAX gives on CPU: -1 for 0 // 0, else -2 (signed),
// UINT_MAX (unsigned).
template <class T>
T floor_div(T x, T y) {
  if (y == 0) return std::is_signed_v<T> && x != 0 ? T(-2) : T(-1);
  const I128 a = x, b = y;
  I128 q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return static_cast<T>(static_cast<std::make_unsigned_t<T>>(q));
}

// CPython's float_floor_div (Objects/floatobject.c), for finite x and nonzero finite y.
template <class F>
F py_floor_div(F x, F y) {
  F mod = std::fmod(x, y);
  F div = (x - mod) / y;
  if (mod != 0 && ((y < 0) != (mod < 0))) div -= F(1);
  if (div == 0) return std::copysign(F(0), x / y);
  F fl = std::floor(div);
  if (div - fl > F(0.5)) fl += F(1);
  return fl;
}

template <class T>
void check_floor_divide_ints(unsigned seed) {
  const auto a = int_values<T>(37, seed);
  const auto b = int_values<T>(37, seed + 1);
  std::vector<T> divisors(b.rbegin(), b.rend());  // edges meet other edges
  const fj::Array x = vec(a), y = vec(divisors);
  check_backends(
      "floor_divide " + ty<T>(), vec(broadcast_map<T>(a, divisors, floor_div<T>)),
      [](Tracer p, Tracer q) { return fj::floor_divide(p, q); }, x, y);
  // Small divisors, so that quotients are not mostly 0 and -1; a lower-rank divisor.
  std::vector<T> small;
  std::mt19937_64 rng(seed + 2);
  std::uniform_int_distribution<int> d(std::is_signed_v<T> ? -9 : 0, 9);
  for (int k = 0; k < 37; ++k) small.push_back(static_cast<T>(d(rng)));
  const auto big = int_values<T>(5 * 37, seed + 3);
  check_backends(
      "floor_divide (5,37) by (37,) " + ty<T>(),
      vec(broadcast_map<T>(big, small, floor_div<T>), fj::Shape{5, 37}),
      [](Tracer p, Tracer q) { return fj::floor_divide(p, q); }, vec(big, fj::Shape{5, 37}),
      vec(small));
  check_backends(
      "floor_divide by 3 " + ty<T>(), vec(broadcast_map<T>(a, std::vector<T>{T(3)}, floor_div<T>)),
      [](Tracer p) { return fj::floor_divide(p, 3); }, x);
  std::vector<T> seven_by;
  for (T v : small) seven_by.push_back(floor_div<T>(T(7), v));
  check_backends(
      "7 // x " + ty<T>(), vec(seven_by), [](Tracer q) { return fj::floor_divide(7, q); },
      vec(small));
}

template <class F>
void check_floor_divide_floats(unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> ux(-50, 50), uy(-7, 7);
  std::vector<F> a, b;
  for (int k = 0; k < 1030; ++k) {
    a.push_back(static_cast<F>(k % 5 == 0 ? std::round(ux(rng)) : ux(rng)));
    F y = static_cast<F>(k % 3 == 0 ? std::round(uy(rng)) : uy(rng));
    b.push_back(y == 0 ? F(1.5) : y);
  }
  check_backends(
      "floor_divide " + ty<F>(),
      vec(broadcast_map<F>(a, b, [](F p, F q) { return py_floor_div(p, q); })),
      [](Tracer p, Tracer q) { return fj::floor_divide(p, q); }, vec(a), vec(b));
  check_backends(
      "floor_divide by 0.75 " + ty<F>(),
      vec(broadcast_map<F>(a, std::vector<F>{F(0.75)},
                           [](F p, F q) { return py_floor_div(p, q); })),
      [](Tracer p) { return fj::floor_divide(p, 0.75); }, vec(a));
}

}  // namespace

TEST_CASE("int ops: floor_divide rounds toward -inf, x // 0 does not trap") {
  check_floor_divide_ints<std::int32_t>(11);
  check_floor_divide_ints<std::int64_t>(12);
  check_floor_divide_ints<std::uint32_t>(13);
  check_floor_divide_floats<float>(14);
  check_floor_divide_floats<double>(15);
  auto fd = [](Tracer p, Tracer q) { return fj::floor_divide(p, q); };
  // jnp.floor_divide, printed by JAX 0.10.2 on CPU.
  const std::int32_t mn = INT32_MIN, mx = INT32_MAX;
  check_backends("JAX int32", fj::array({3, -4, -4, 3, -2, -2, -1, mn, mn, -mx, 2, -2, 0, -2}), fd,
                 fj::array({7, -7, 7, -7, 7, -7, 0, mn, mn, mx, 6, -6, 0, mn}),
                 fj::array({2, 2, -2, -2, 0, 0, 0, -1, 1, -1, 3, 3, -3, 0}));
  const std::int64_t mn64 = INT64_MIN, mx64 = INT64_MAX;
  check_backends(
      "JAX int64",
      fj::array(
          std::vector<std::int64_t>{3, -4, -4, 3, -2, -2, -1, mn64, mn64, -mx64, 2, -2, 0, -2},
          fj::Shape{14}),
      fd,
      fj::array(std::vector<std::int64_t>{7, -7, 7, -7, 7, -7, 0, mn64, mn64, mx64, 6, -6, 0, mn64},
                fj::Shape{14}),
      fj::array(std::vector<std::int64_t>{2, 2, -2, -2, 0, 0, 0, -1, 1, -1, 3, 3, -3, 0},
                fj::Shape{14}));
  check_backends("JAX uint32",
                 fj::array({3u, 4294967295u, 4294967295u, 0u, 4294967295u, 2147483647u, 3u}), fd,
                 fj::array({7u, 7u, 0u, 5u, 4294967295u, 4294967295u, 9u}),
                 fj::array({2u, 0u, 0u, 7u, 1u, 2u, 3u}));
  const float inf = INFINITY, nan = NAN;
  check_backends_bits("JAX float32",
                      fj::array({3.0f, -4.0f, -4.0f, 3.0f, inf, -inf, nan, 0.0f, 0.0f, nan, nan,
                                 nan, nan, 3.333333383491554e+29f, -1.0f, -1.0f}),
                      fd,
                      fj::array({7.f, -7.f, 7.f, -7.f, 7.f, -7.f, 0.f, -0.f, 1.f, inf, -inf, nan,
                                 5.f, 1e30f, 0.5f, -0.5f}),
                      fj::array({2.f, 2.f, -2.f, -2.f, 0.f, 0.f, 0.f, 1.f, inf, 2.f, 2.f, 1.f, nan,
                                 3.f, -inf, inf}));
  // Bools divide as i32; a float operand makes it a float division.
  check_backends("bool // bool", fj::array({1, -2}), fd, fj::array({true, true}),
                 fj::array({true, false}));
  check_backends("int // float", fj::array({2.0f, -3.0f}), fd, fj::array({7, -7}),
                 fj::array({2.5f, 2.5f}));
  CHECK_THROWS_AS(fj::jit(fd)(fj::arange(3), fj::arange(4)), fj::ShapeError);
}

TEST_CASE("int ops: % takes the divisor's sign, by zero gives 0, lower-rank divisors") {
  // Python's % with JAX's x % 0 == 0 (it divides by 1 instead): exact in 128 bits.
  const auto py_mod = [](auto x, auto y) {
    using T = decltype(x);
    if (y == 0) return T(0);
    const I128 a = x, b = y;
    I128 r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return static_cast<T>(r);
  };
  const auto big = int_values<std::int32_t>(5 * 37, 21);
  std::vector<std::int32_t> small;
  for (int k = 0; k < 37; ++k) small.push_back(k % 19 - 9);  // zeros and both signs
  check_backends(
      "(5,37) % (37,)", vec(broadcast_map<std::int32_t>(big, small, py_mod), fj::Shape{5, 37}),
      [](Tracer p, Tracer q) { return p % q; }, vec(big, fj::Shape{5, 37}), vec(small));
  // jnp.remainder, printed by JAX 0.10.2 on CPU.
  check_backends(
      "JAX int32 % 0", fj::array({0, 0, 0, 0}), [](Tracer p, Tracer q) { return p % q; },
      fj::array({7, -7, 0, INT32_MIN}), fj::array({0, 0, 0, -1}));
  check_backends(
      "JAX uint32 % 0", fj::array({0u, 0u}), [](Tracer p, Tracer q) { return p % q; },
      fj::array({7u, 0u}), fj::array({0u, 0u}));
}

TEST_CASE("int ops: astype float -> int saturates and maps NaN to 0, as JAX on CPU") {
  // x.astype(...) under jax.jit on CPU, JAX 0.10.2. The f32 column is the f64 values rounded to
  // f32 (1e300 becomes inf; 2147483647.0 becomes 2^31).
  const double inf = INFINITY;
  const std::vector<double> values{
      NAN,           inf,           -inf,         3e9,          -3e9, 2147483647.0, 2147483648.0,
      -2147483648.0, -2147483649.0, 4294967296.0, 4294967295.0, -1.0, -0.5,         1e19,
      -1e19,         9.3e18,        2.7,          -2.7,         1e300};
  std::vector<float> values32;
  for (double v : values) values32.push_back(v > 3.5e38 ? INFINITY : static_cast<float>(v));
  const std::int32_t mn = INT32_MIN, mx = INT32_MAX;
  const std::int64_t mn64 = INT64_MIN, mx64 = INT64_MAX;
  const std::vector<std::int32_t> to_i32{0,  mx, mn, mx, mn, mx, mx, mn, mn, mx,
                                         mx, -1, 0,  mx, mn, mx, 2,  -2, mx};
  const std::vector<std::uint32_t> u32_from_f32{
      0, 4294967295u, 0,           3000000000u, 0,          2147483648u, 2147483648u,
      0, 0,           4294967295u, 4294967295u, 0,          0,           4294967295u,
      0, 4294967295u, 2,           0,           4294967295u};
  const std::vector<std::uint32_t> u32_from_f64{
      0, 4294967295u, 0,           3000000000u, 0,          2147483647u, 2147483648u,
      0, 0,           4294967295u, 4294967295u, 0,          0,           4294967295u,
      0, 4294967295u, 2,           0,           4294967295u};
  const std::vector<std::int64_t> i64_from_f32{
      0,           mx64,        mn64,       3000000000, -3000000000, 2147483648, 2147483648,
      -2147483648, -2147483648, 4294967296, 4294967296, -1,          0,          mx64,
      mn64,        mx64,        2,          -2,         mx64};
  const std::vector<std::int64_t> i64_from_f64{
      0,           mx64,        mn64,       3000000000, -3000000000, 2147483647, 2147483648,
      -2147483648, -2147483649, 4294967296, 4294967295, -1,          0,          mx64,
      mn64,        mx64,        2,          -2,         mx64};
  const std::vector<bool> to_bool(values.size(), true);  // NaN != 0 too
  for (bool f64 : {false, true}) {
    const fj::Array x = f64 ? vec(values) : vec(values32);
    const std::string from = f64 ? "f64" : "f32";
    check_backends(
        from + " -> i32", vec(to_i32), [](Tracer p) { return fj::astype(p, fj::i32); }, x);
    check_backends(
        from + " -> u32", vec(f64 ? u32_from_f64 : u32_from_f32),
        [](Tracer p) { return fj::astype(p, fj::u32); }, x);
    check_backends(
        from + " -> i64", vec(f64 ? i64_from_f64 : i64_from_f32),
        [](Tracer p) { return fj::astype(p, fj::i64); }, x);
    check_backends(
        from + " -> bool", vec(to_bool), [](Tracer p) { return fj::astype(p, fj::bool_); }, x);
  }
}
