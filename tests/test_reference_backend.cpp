// Tests of the reference backend against independent long double / 128-bit integer computations.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "fusejit/backend/reference/reference_backend.hpp"

namespace {

using namespace fj;
using backend::Value;
using ir::Atom;
using ir::Prim;
using LD = long double;
__extension__ typedef __int128 I128;  // exact for every 32/64-bit sum and product
__extension__ typedef unsigned __int128 U128;

// bool data travels as bytes: std::vector<bool> has no contiguous storage.
template <class T>
using Elem = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

template <class T>
Value make(const Shape& s, const std::vector<Elem<T>>& data) {
  REQUIRE(static_cast<std::int64_t>(data.size()) == s.size());
  Value v{runtime::allocate(data.size() * sizeof(T)), ir::Aval{dtype_of_v<T>, s, false}};
  if (!data.empty()) std::memcpy(v.buf->data, data.data(), data.size() * sizeof(T));
  return v;
}
template <class T>
std::vector<Elem<T>> read(const Value& v) {
  REQUIRE(v.aval.dtype == dtype_of_v<T>);
  std::vector<Elem<T>> out(static_cast<std::size_t>(v.aval.shape.size()));
  if (!out.empty()) std::memcpy(out.data(), v.buf->data, out.size() * sizeof(T));
  return out;
}

/// Builds a graph by hand, without the shape rules, so these tests depend only on graph.hpp.
struct Maker {
  ir::Graph g;
  Atom in(DType d, Shape s) {
    const auto v = g.new_var(ir::Aval{d, s, false});
    g.invars.push_back(v);
    return Atom::of_var(v);
  }
  Atom eqn(Prim p, std::vector<Atom> ins, ir::Aval out, ir::Params params = {}) {
    const auto v = g.new_var(out);
    g.eqns.push_back(ir::Eqn{p, std::move(ins), {v}, std::move(params)});
    return Atom::of_var(v);
  }
  std::vector<Value> run(std::vector<Value> inputs) const {
    auto exe = backend::make_reference_backend()->compile(std::make_shared<const ir::Graph>(g));
    return exe->run(inputs);
  }
};

template <class T>
Atom lit(T v) {
  return Atom::of_literal(ir::Literal::of(v, false));
}
ir::Params params1(std::string name, ir::ParamValue v) {
  return ir::Params{{ir::Param{std::move(name), std::move(v)}}};
}

/// Distance from `got` to the exact value `want`, in units of T's last place at `want`.
/// Non-finite results must match exactly; zeros must match in sign when check_zero_sign.
template <class T>
double ulp_error(T got, LD want, bool check_zero_sign = true) {
  constexpr double bad = std::numeric_limits<double>::infinity();
  if (std::isnan(want)) return std::isnan(got) ? 0 : bad;
  const T w = static_cast<T>(want);
  if (std::isnan(got)) return bad;
  if (std::isinf(w) || std::isinf(got)) return got == w ? 0 : bad;
  if (want == 0 && got == 0)
    return !check_zero_sign || std::signbit(got) == std::signbit(want) ? 0 : bad;
  const LD tiny = std::numeric_limits<T>::denorm_min();
  const LD ulp =
      w == 0
          ? tiny
          : std::max(tiny, std::ldexp(LD(1), std::ilogb(w) - (std::numeric_limits<T>::digits - 1)));
  return static_cast<double>(std::fabs(static_cast<LD>(got) - want) / ulp);
}

template <class T>
std::vector<T> float_specials() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(), L::infinity(), -L::infinity(), T(0),  T(-0.0), L::denorm_min(), L::min(),
          L::max(),       -L::max(),     T(1),           T(-1), T(0.5),  T(-2.5)};
}

constexpr std::int64_t kLen = 1027;  // not a multiple of any SIMD width: every run has a tail

// ---- unary float ops -----------------------------------------------------------------------

struct UnaryRow {
  Prim prim;
  const char* label;
  LD (*ref)(LD);
  double lo, hi;             // uniform random inputs
  std::vector<double> edge;  // extra inputs at the edges of the domain
  double ulps_f32, ulps_f64;
  ir::Params params = {};
};

// Tolerances (ulps, f32 / f64). Measuring xsimd 8.1 against long double over 2e6 random inputs
// gave at most 1.5 (exp, log, log1p, tanh), 2.0 (expm1, sin, cos), 2.4 (f32 erf; sin and cos of
// f64 beyond 1e5) and 2.6 (tan); each row allows about one ulp more. sqrt is correctly rounded
// (0.5, plus slack for the reference's own rounding); rsqrt is 1/sqrt, two roundings: 2.
// logistic is exp plus an add and a division: 3. f64 erf is the C library's (< 1 ulp): 1.
// neg, abs, sign, floor, ceil and round are exact: 0.
LD sign_ref(LD x) { return x > 0 ? LD(1) : x < 0 ? LD(-1) : x; }
LD rsqrt_ref(LD x) { return 1 / std::sqrt(x); }
LD logistic_ref(LD x) { return 1 / (1 + std::exp(-x)); }
LD neg_ref(LD x) { return -x; }
ir::Params rounding(std::int64_t m) { return params1("rounding_method", m); }

const std::vector<UnaryRow>& unary_rows() {
  const std::vector<double> halves = {0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 8388609, -0.3, 1e17};
  // Forming a pointer to a std:: function is unspecified; F wraps each one in a lambda.
#define F(f) [](LD x) { return f(x); }
  // clang-format off
  static const std::vector<UnaryRow> rows = {
    // prim          label       reference         lo     hi    edges (both signs)            f32  f64
    {Prim::neg,      "neg",      neg_ref,          -1e3,  1e3,  {},                           0,   0},
    {Prim::exp,      "exp",      F(std::exp),      -110,  110,  {709.7, 708.5, 745.1, 88.7},  2.5, 2},
    {Prim::log,      "log",      F(std::log),      0,     1e6,  {1e-310, 5e-324, 1e-40, 1e30}, 2,  2},
    {Prim::log1p,    "log1p",    F(std::log1p),    -1,    10,   {0.999999, 1e-20, 1e30},      2,   2},
    {Prim::expm1,    "expm1",    F(std::expm1),    -20,   100,  {1e-10, 709.7, 88.5},         3,   2},
    {Prim::sin,      "sin",      F(std::sin),      -100,  100,  {1e6, 3e5, 1e-30},            3,   3.5},
    {Prim::cos,      "cos",      F(std::cos),      -100,  100,  {1e6, 3e5, 1e-30},            3,   3.5},
    {Prim::tan,      "tan",      F(std::tan),      -10,   10,   {1.5707963, 1e-30},           4,   4},
    {Prim::tanh,     "tanh",     F(std::tanh),     -20,   20,   {1e-30, 0.6},                 2.5, 2.5},
    {Prim::sqrt,     "sqrt",     F(std::sqrt),     0,     1e6,  {1e-310, 1e-40},              .51, .51},
    {Prim::rsqrt,    "rsqrt",    rsqrt_ref,        0,     1e6,  {1e-300, 1e-30},              2,   2},
    {Prim::logistic, "logistic", logistic_ref,     -120,  120,  {745, 1e4, 88},               3,   3},
    {Prim::erf,      "erf",      F(std::erf),      -6,    6,    {0.22, 2.2, 1e-30},           3.5, 1},
    {Prim::abs,      "abs",      F(std::fabs),     -1e3,  1e3,  {},                           0,   0},
    {Prim::sign,     "sign",     sign_ref,         -2,    2,    {1e-30},                      0,   0},
    {Prim::floor,    "floor",    F(std::floor),    -1e3,  1e3,  halves,                       0,   0},
    {Prim::ceil,     "ceil",     F(std::ceil),     -1e3,  1e3,  halves,                       0,   0},
    {Prim::round,    "round 0",  F(std::round),    -1e3,  1e3,  halves, 0, 0, rounding(0)},  // halves away
    {Prim::round,    "round 1",  F(std::nearbyint), -1e3, 1e3,  halves, 0, 0, rounding(1)},  // to even
  };
  // clang-format on
#undef F
  return rows;
}

template <class T>
void check_unary_float(const UnaryRow& row) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> dist(row.lo, row.hi);
  std::vector<T> x;
  for (double e : row.edge) x.push_back(static_cast<T>(e)), x.push_back(static_cast<T>(-e));
  const std::vector<T> sp = float_specials<T>();
  while (static_cast<std::int64_t>(x.size() + sp.size()) < kLen)
    x.push_back(static_cast<T>(dist(rng)));
  x.insert(x.end(), sp.begin(), sp.end());  // the specials land in the SIMD tail too

  Maker m;
  const Atom a = m.in(dtype_of_v<T>, Shape{kLen});
  m.g.outvars.push_back(
      m.eqn(row.prim, {a}, ir::Aval{dtype_of_v<T>, Shape{kLen}, false}, row.params));
  const auto got = read<T>(m.run({make<T>(Shape{kLen}, x)})[0]);

  const double tol = std::is_same_v<T, float> ? row.ulps_f32 : row.ulps_f64;
  double worst = 0;
  T worst_x = 0, worst_got = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = ulp_error<T>(got[i], row.ref(static_cast<LD>(x[i])));
    if (!(e <= worst)) worst = e, worst_x = x[i], worst_got = got[i];
  }
  INFO(std::string(row.label), " ", short_name(dtype_of_v<T>), ": worst input ", worst_x, " gave ",
       worst_got, " want ", static_cast<double>(row.ref(static_cast<LD>(worst_x))));
  CHECK(worst <= tol);
}

TEST_CASE("reference: unary float ops within their ulp bounds, specials and SIMD tails included") {
  for (const UnaryRow& row : unary_rows()) {
    check_unary_float<float>(row);
    check_unary_float<double>(row);
  }
}

// ---- integers ------------------------------------------------------------------------------

template <class T>
std::vector<T> int_values(std::size_t n) {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {L::min(), L::max(), T(0), T(1), T(L::max() - 1), T(L::min() + 1)};
  if constexpr (std::is_signed_v<T>) v.insert(v.end(), {T(-1), T(-7), T(7)});
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<T> full(L::min(), L::max());
  std::uniform_int_distribution<int> small(std::is_signed_v<T> ? -100 : 0, 100);
  while (v.size() < n) v.push_back(v.size() % 2 ? full(rng) : static_cast<T>(small(rng)));
  return v;
}

// Reduces an exact 128-bit result to T modulo 2^bits, which is how XLA's integer ops wrap.
template <class T>
T wrap(I128 x) {
  return static_cast<T>(static_cast<std::uint64_t>(static_cast<U128>(x)));
}

template <class T>
void check_int_unary() {
  const auto x = int_values<T>(kLen);
  for (Prim p : {Prim::neg, Prim::abs, Prim::sign}) {
    Maker m;
    const Atom a = m.in(dtype_of_v<T>, Shape{kLen});
    m.g.outvars.push_back(m.eqn(p, {a}, ir::Aval{dtype_of_v<T>, Shape{kLen}, false}));
    const auto got = read<T>(m.run({make<T>(Shape{kLen}, x)})[0]);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const I128 v = x[i];
      const T want = p == Prim::neg   ? wrap<T>(-v)
                     : p == Prim::abs ? wrap<T>(v < 0 ? -v : v)
                                      : T((v > 0) - (v < 0));
      INFO(ir::name(p), " ", short_name(dtype_of_v<T>), " of ", static_cast<long long>(x[i]));
      REQUIRE(got[i] == want);
    }
  }
}

TEST_CASE("reference: neg, abs, sign on integers (abs(INT_MIN) wraps)") {
  check_int_unary<std::int32_t>();
  check_int_unary<std::int64_t>();
  check_int_unary<std::uint32_t>();
}

// Integer division by zero gives -1 (all bits set), INT_MIN / -1 gives INT_MIN; x % 0 gives x and
// INT_MIN % -1 gives 0: XLA's CPU lowering, which the backend documents and follows.
template <class T>
T int_binary_ref(Prim p, T a, T b) {
  const I128 x = a, y = b;
  switch (p) {
    case Prim::add:
      return wrap<T>(x + y);
    case Prim::sub:
      return wrap<T>(x - y);
    case Prim::mul:
      return wrap<T>(x * y);
    case Prim::div:
      return y == 0 ? T(-1) : wrap<T>(x / y);
    case Prim::rem:
      return y == 0 ? a : wrap<T>(x % y);
    case Prim::max:
      return x > y ? a : b;
    case Prim::min:
      return x < y ? a : b;
    case Prim::and_:
      return static_cast<T>(a & b);
    case Prim::or_:
      return static_cast<T>(a | b);
    default:
      FAIL("no reference for ", ir::name(p));
      return T(0);
  }
}

template <class T>
void check_int_binary() {
  // Every pair of edge values, then random pairs.
  const auto base = int_values<T>(9);
  std::vector<T> a, b;
  for (T u : base)
    for (T v : base) a.push_back(u), b.push_back(v);
  const auto ra = int_values<T>(kLen), rb = int_values<T>(2 * kLen);
  for (std::size_t i = a.size(); i < static_cast<std::size_t>(kLen); ++i)
    a.push_back(ra[i]), b.push_back(rb[rb.size() - 1 - i]);
  for (Prim p : {Prim::add, Prim::sub, Prim::mul, Prim::div, Prim::rem, Prim::max, Prim::min,
                 Prim::and_, Prim::or_}) {
    Maker m;
    const Atom x = m.in(dtype_of_v<T>, Shape{kLen}), y = m.in(dtype_of_v<T>, Shape{kLen});
    m.g.outvars.push_back(m.eqn(p, {x, y}, ir::Aval{dtype_of_v<T>, Shape{kLen}, false}));
    const auto got = read<T>(m.run({make<T>(Shape{kLen}, a), make<T>(Shape{kLen}, b)})[0]);
    for (std::size_t i = 0; i < a.size(); ++i) {
      INFO(ir::name(p), " ", short_name(dtype_of_v<T>), " of ", static_cast<long long>(a[i]), ", ",
           static_cast<long long>(b[i]));
      REQUIRE(got[i] == int_binary_ref(p, a[i], b[i]));
    }
  }
}

TEST_CASE("reference: integer arithmetic wraps, div/rem by zero and INT_MIN/-1 follow XLA") {
  check_int_binary<std::int32_t>();
  check_int_binary<std::int64_t>();
  check_int_binary<std::uint32_t>();
}

// ---- binary float ops ----------------------------------------------------------------------

struct BinaryRow {
  Prim prim;
  LD (*ref)(LD, LD);
  double lo, hi;
  double ulps;            // add..div and fmod are exact (0.5 allows the long double reference's own
  bool zero_sign = true;  // rounding); pow is the C library's, within 1 ulp.
};

LD nan_max(LD a, LD b) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b); }
LD nan_min(LD a, LD b) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b); }

const std::vector<BinaryRow>& binary_rows() {
  static const std::vector<BinaryRow> rows = {
      {Prim::add, [](LD a, LD b) { return a + b; }, -1e3, 1e3, 0.501},
      {Prim::sub, [](LD a, LD b) { return a - b; }, -1e3, 1e3, 0.501},
      {Prim::mul, [](LD a, LD b) { return a * b; }, -1e3, 1e3, 0.501},
      {Prim::div, [](LD a, LD b) { return a / b; }, -1e3, 1e3, 0.501},
      {Prim::rem, [](LD a, LD b) { return std::fmod(a, b); }, -1e3, 1e3, 0},
      {Prim::pow, [](LD a, LD b) { return std::pow(a, b); }, 0, 30, 1},
      // lax leaves the sign of max(-0, +0) open, so zero signs are not compared here.
      {Prim::max, nan_max, -1e3, 1e3, 0, false},
      {Prim::min, nan_min, -1e3, 1e3, 0, false},
  };
  return rows;
}

template <class T>
void check_binary_float(const BinaryRow& row) {
  const auto sp = float_specials<T>();
  std::vector<T> a, b;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> dist(row.lo, row.hi);
  while (a.size() + sp.size() * sp.size() < static_cast<std::size_t>(kLen))
    a.push_back(static_cast<T>(dist(rng))), b.push_back(static_cast<T>(dist(rng)));
  for (T u : sp)
    for (T v : sp) a.push_back(u), b.push_back(v);

  Maker m;
  const Atom x = m.in(dtype_of_v<T>, Shape{kLen}), y = m.in(dtype_of_v<T>, Shape{kLen});
  m.g.outvars.push_back(m.eqn(row.prim, {x, y}, ir::Aval{dtype_of_v<T>, Shape{kLen}, false}));
  const auto got = read<T>(m.run({make<T>(Shape{kLen}, a), make<T>(Shape{kLen}, b)})[0]);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const LD want = row.ref(a[i], b[i]);
    INFO(ir::name(row.prim), " ", short_name(dtype_of_v<T>), " of ", a[i], ", ", b[i], " gave ",
         got[i], " want ", static_cast<double>(want));
    REQUIRE(ulp_error<T>(got[i], want, row.zero_sign) <= row.ulps);
  }
}

TEST_CASE("reference: binary float ops, every pair of special values") {
  for (const BinaryRow& row : binary_rows()) {
    check_binary_float<float>(row);
    check_binary_float<double>(row);
  }
}

// ---- broadcasting ----------------------------------------------------------------------------

// Row-major multi-index of flat index i in `s`, and the flat index of that point in a
// broadcast operand of shape `o` (extent-1 dims pinned to 0).
std::int64_t broadcast_index(std::int64_t i, const Shape& s, const Shape& o) {
  std::int64_t off = 0, stride = 1;
  for (int d = s.rank() - 1; d >= 0; --d) {
    const std::int64_t k = i % s[d];
    i /= s[d];
    if (o.rank() == s.rank()) off += (o[d] == 1 ? 0 : k) * stride, stride *= o[d];
  }
  return off;
}

template <class T>
void check_broadcast_sub(const Shape& sa, const Shape& sb, const Shape& so) {
  std::vector<T> a(static_cast<std::size_t>(sa.size())), b(static_cast<std::size_t>(sb.size()));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<T>(i * 3 + 1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<T>(i * 7 % 1000) / T(8);
  Maker m;
  const Atom x = m.in(dtype_of_v<T>, sa), y = m.in(dtype_of_v<T>, sb);
  m.g.outvars.push_back(m.eqn(Prim::sub, {x, y}, ir::Aval{dtype_of_v<T>, so, false}));
  const auto got = read<T>(m.run({make<T>(sa, a), make<T>(sb, b)})[0]);
  REQUIRE(static_cast<std::int64_t>(got.size()) == so.size());
  for (std::int64_t i = 0; i < so.size(); ++i) {
    const T want = a[static_cast<std::size_t>(broadcast_index(i, so, sa))] -
                   b[static_cast<std::size_t>(broadcast_index(i, so, sb))];
    INFO(sa.str(), " - ", sb.str(), " at ", i);
    REQUIRE(got[static_cast<std::size_t>(i)] == want);
  }
}

TEST_CASE("reference: broadcasting of rank-0 operands and size-1 dims, ranks 0 to 8") {
  const std::vector<std::array<Shape, 3>> cases = {
      {Shape{}, Shape{}, Shape{}},
      {Shape{}, Shape{kLen}, Shape{kLen}},
      {Shape{kLen}, Shape{}, Shape{kLen}},
      {Shape{1}, Shape{kLen}, Shape{kLen}},
      {Shape{7, 1}, Shape{1, 9}, Shape{7, 9}},
      {Shape{3, 1, 4}, Shape{1, 5, 4}, Shape{3, 5, 4}},
      {Shape{40, 1, 30}, Shape{1, 20, 30}, Shape{40, 20, 30}},  // many chunks, strided gathers
      {Shape{40, 20, 1}, Shape{40, 20, 30}, Shape{40, 20, 30}},
      {Shape{2, 1, 2, 1, 2, 1, 2, 1}, Shape{1, 2, 1, 2, 1, 2, 1, 2}, Shape{2, 2, 2, 2, 2, 2, 2, 2}},
      {Shape{0}, Shape{0}, Shape{0}},
      {Shape{3, 0}, Shape{1, 0}, Shape{3, 0}},
      {Shape{}, Shape{0, 4}, Shape{0, 4}},
  };
  for (const auto& c : cases) {
    check_broadcast_sub<float>(c[0], c[1], c[2]);
    check_broadcast_sub<double>(c[0], c[1], c[2]);
    check_broadcast_sub<std::int32_t>(c[0], c[1], c[2]);
  }
}

TEST_CASE("reference: literal operands broadcast, unary ops on zero-size and rank-0 arrays") {
  Maker m;
  const Atom x = m.in(f32, Shape{kLen});
  const ir::Aval out{f32, Shape{kLen}, false};
  const Atom y = m.eqn(Prim::mul, {x, lit(2.5f)}, out);
  m.g.outvars.push_back(m.eqn(Prim::sub, {lit(1.0f), y}, out));
  std::vector<float> a(static_cast<std::size_t>(kLen));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i) * 0.25f;
  const auto got = read<float>(m.run({make<float>(Shape{kLen}, a)})[0]);
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(got[i] == 1.0f - a[i] * 2.5f);

  for (const Shape& s : {Shape{0}, Shape{4, 0, 2}, Shape{}}) {
    Maker z;
    const Atom v = z.in(f64, s);
    z.g.outvars.push_back(z.eqn(Prim::exp, {v}, ir::Aval{f64, s, false}));
    const auto r =
        z.run({make<double>(s, std::vector<double>(static_cast<std::size_t>(s.size()), 1.0))});
    CHECK(r[0].aval.shape == s);
    if (s.size() == 1) CHECK(ulp_error<double>(read<double>(r[0])[0], std::exp(LD(1))) <= 1);
  }
}

// ---- compare, logical, select ----------------------------------------------------------------

template <class T>
void check_compare(const std::vector<Elem<T>>& vals) {
  std::vector<Elem<T>> a, b;
  for (auto u : vals)
    for (auto v : vals) a.push_back(u), b.push_back(v);
  const Shape s{static_cast<std::int64_t>(a.size())};
  for (Prim p : {Prim::lt, Prim::le, Prim::gt, Prim::ge, Prim::eq, Prim::ne}) {
    Maker m;
    const Atom x = m.in(dtype_of_v<T>, s), y = m.in(dtype_of_v<T>, s);
    m.g.outvars.push_back(m.eqn(p, {x, y}, ir::Aval{bool_, s, false}));
    const auto got = read<bool>(m.run({make<T>(s, a), make<T>(s, b)})[0]);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const T u = static_cast<T>(a[i]), v = static_cast<T>(b[i]);
      // NaN is unordered: every comparison with it is false except ne.
      const bool want = p == Prim::lt   ? u < v
                        : p == Prim::le ? u <= v
                        : p == Prim::gt ? u > v
                        : p == Prim::ge ? u >= v
                        : p == Prim::eq ? u == v
                                        : u != v;
      INFO(ir::name(p), " ", short_name(dtype_of_v<T>), " pair ", i);
      REQUIRE(static_cast<bool>(got[i]) == want);
    }
  }
}

TEST_CASE("reference: comparisons on every dtype, NaN unordered, unsigned order for u32") {
  check_compare<float>(float_specials<float>());
  check_compare<double>(float_specials<double>());
  check_compare<std::int32_t>(int_values<std::int32_t>(12));
  check_compare<std::int64_t>(int_values<std::int64_t>(12));
  check_compare<std::uint32_t>(int_values<std::uint32_t>(12));
  check_compare<bool>({0, 1});
}

TEST_CASE("reference: logical ops are logical on bool and bitwise on integers") {
  const Shape s{4};
  for (Prim p : {Prim::and_, Prim::or_}) {
    Maker m;
    const Atom x = m.in(bool_, s), y = m.in(bool_, s);
    m.g.outvars.push_back(m.eqn(p, {x, y}, ir::Aval{bool_, s, false}));
    const auto got =
        read<bool>(m.run({make<bool>(s, {0, 0, 1, 1}), make<bool>(s, {0, 1, 0, 1})})[0]);
    const std::vector<std::uint8_t> want = p == Prim::and_ ? std::vector<std::uint8_t>{0, 0, 0, 1}
                                                           : std::vector<std::uint8_t>{0, 1, 1, 1};
    CHECK(got == want);
  }
  Maker m;
  const Atom x = m.in(bool_, s), y = m.in(u32, s);
  m.g.outvars.push_back(m.eqn(Prim::not_, {x}, ir::Aval{bool_, s, false}));
  m.g.outvars.push_back(m.eqn(Prim::not_, {y}, ir::Aval{u32, s, false}));
  const auto r = m.run(
      {make<bool>(s, {0, 1, 1, 0}), make<std::uint32_t>(s, {0u, 1u, 0xF0F0F0F0u, 0xFFFFFFFFu})});
  CHECK(read<bool>(r[0]) == std::vector<std::uint8_t>{1, 0, 0, 1});
  CHECK(read<std::uint32_t>(r[1]) == std::vector<std::uint32_t>{~0u, ~1u, ~0xF0F0F0F0u, 0u});
}

template <class T>
void check_select(bool scalar_pred) {
  const Shape s{kLen};
  std::vector<std::uint8_t> pred(scalar_pred ? 1 : static_cast<std::size_t>(kLen));
  std::vector<Elem<T>> c0(static_cast<std::size_t>(kLen)), c1(c0.size());
  for (std::size_t i = 0; i < c0.size(); ++i) {
    c0[i] = static_cast<Elem<T>>(i % 2);
    c1[i] = static_cast<Elem<T>>(std::is_same_v<T, bool> ? (i % 3 == 0) : i + 5);
  }
  for (std::size_t i = 0; i < pred.size(); ++i) pred[i] = scalar_pred ? 1 : (i * 7) % 3 == 1;
  Maker m;
  const Atom p = m.in(bool_, scalar_pred ? Shape{} : s), x = m.in(dtype_of_v<T>, s),
             y = m.in(dtype_of_v<T>, s);
  m.g.outvars.push_back(m.eqn(Prim::select_n, {p, x, y}, ir::Aval{dtype_of_v<T>, s, false}));
  const auto got = read<T>(
      m.run({make<bool>(scalar_pred ? Shape{} : s, pred), make<T>(s, c0), make<T>(s, c1)})[0]);
  for (std::size_t i = 0; i < c0.size(); ++i)
    REQUIRE(got[i] == (pred[scalar_pred ? 0 : i] ? c1[i] : c0[i]));
}

TEST_CASE("reference: select_n picks case1 where the predicate is true, scalar predicate too") {
  for (bool scalar : {false, true}) {
    check_select<float>(scalar);
    check_select<double>(scalar);
    check_select<std::int64_t>(scalar);
    check_select<bool>(scalar);
  }
}

// ---- convert_element_type --------------------------------------------------------------------

// Float -> int truncates toward zero, NaN gives 0, out-of-range saturates (XLA's CPU conversion).
template <class From, class To>
To convert_ref(From x) {
  if constexpr (std::is_same_v<To, bool>) {
    return x != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(x)) return To(0);
    const LD t = std::trunc(static_cast<LD>(x));
    if (t < static_cast<LD>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (t > static_cast<LD>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(t);
  } else if constexpr (std::is_integral_v<From> && std::is_integral_v<To>) {
    return wrap<To>(static_cast<I128>(x));
  } else {
    return static_cast<To>(static_cast<LD>(x));  // to float: one rounding from the exact value
  }
}

template <class From, class To>
void check_convert(const std::vector<Elem<From>>& x) {
  const Shape s{static_cast<std::int64_t>(x.size())};
  Maker m;
  const Atom a = m.in(dtype_of_v<From>, s);
  ir::Params params{{ir::Param{"new_dtype", dtype_of_v<To>}, ir::Param{"weak_type", false}}};
  m.g.outvars.push_back(
      m.eqn(Prim::convert_element_type, {a}, ir::Aval{dtype_of_v<To>, s, false}, params));
  const auto got = read<To>(m.run({make<From>(s, x)})[0]);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const To want = convert_ref<From, To>(static_cast<From>(x[i]));
    INFO(short_name(dtype_of_v<From>), " -> ", short_name(dtype_of_v<To>), " of ",
         static_cast<double>(x[i]));
    if constexpr (std::is_floating_point_v<To>)
      REQUIRE(ulp_error<To>(got[i], want) == 0);
    else
      REQUIRE(got[i] == want);
  }
}

TEST_CASE(
    "reference: convert_element_type truncates, saturates, maps NaN to 0 and x != 0 to bool") {
  const auto f32s = [] {
    auto v = float_specials<float>();
    v.insert(v.end(), {2.7f, -2.7f, 3e9f, -3e9f, 2147483520.0f, -2147483648.0f, 4294967040.0f, 5e9f,
                       -0.5f, 1e19f, -1e19f, 9.2233715e18f, 16777217.0f});
    return v;
  }();
  auto f64s = float_specials<double>();
  f64s.insert(f64s.end(), {2.7, -2.7, 2147483647.9, -2147483648.9, 4294967295.5,
                           9223372036854774784.0, 9.3e18, -9.3e18, 1e300, 0.1, 1e-310, 16777217.0});
  check_convert<float, std::int32_t>(f32s);
  check_convert<float, std::int64_t>(f32s);
  check_convert<float, std::uint32_t>(f32s);
  check_convert<float, bool>(f32s);
  check_convert<float, double>(f32s);
  check_convert<double, std::int32_t>(f64s);
  check_convert<double, std::int64_t>(f64s);
  check_convert<double, std::uint32_t>(f64s);
  check_convert<double, float>(f64s);
  check_convert<double, bool>(f64s);
  check_convert<std::int32_t, float>(int_values<std::int32_t>(40));
  check_convert<std::int32_t, std::int64_t>(int_values<std::int32_t>(40));
  check_convert<std::int32_t, std::uint32_t>(int_values<std::int32_t>(40));
  check_convert<std::int32_t, bool>(int_values<std::int32_t>(40));
  check_convert<std::int64_t, std::int32_t>(int_values<std::int64_t>(40));
  check_convert<std::int64_t, double>(int_values<std::int64_t>(40));
  check_convert<std::uint32_t, std::int32_t>(int_values<std::uint32_t>(40));
  check_convert<std::uint32_t, float>(int_values<std::uint32_t>(40));
  check_convert<bool, float>({0, 1});
  check_convert<bool, std::int32_t>({0, 1});
  check_convert<std::int32_t, std::int32_t>({});  // zero-size
}

// ---- broadcast_in_dim ------------------------------------------------------------------------

template <class T>
void check_broadcast_in_dim(const Shape& from, const Shape& to,
                            const std::vector<std::int64_t>& dims) {
  std::vector<Elem<T>> x(static_cast<std::size_t>(from.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<Elem<T>>(std::is_same_v<T, bool> ? i % 2 : i + 1);
  Maker m;
  const Atom a = m.in(dtype_of_v<T>, from);
  ir::Params params{
      {ir::Param{"shape", to.to_vector(), false}, ir::Param{"broadcast_dimensions", dims}}};
  m.g.outvars.push_back(
      m.eqn(Prim::broadcast_in_dim, {a}, ir::Aval{dtype_of_v<T>, to, false}, params));
  const auto got = read<T>(m.run({make<T>(from, x)})[0]);
  REQUIRE(static_cast<std::int64_t>(got.size()) == to.size());
  for (std::int64_t i = 0; i < to.size(); ++i) {
    // Output multi-index -> operand flat index, pinning size-1 operand dims to 0.
    std::array<std::int64_t, kMaxRank> idx{};
    for (std::int64_t r = i, d = to.rank() - 1; d >= 0; --d)
      idx[static_cast<std::size_t>(d)] = r % to[static_cast<int>(d)], r /= to[static_cast<int>(d)];
    std::int64_t src = 0;
    for (int k = 0; k < from.rank(); ++k)
      src = src * from[k] +
            (from[k] == 1 ? 0 : idx[static_cast<std::size_t>(dims[static_cast<std::size_t>(k)])]);
    INFO(from.str(), " -> ", to.str(), " at ", i);
    REQUIRE(got[static_cast<std::size_t>(i)] == x[static_cast<std::size_t>(src)]);
  }
}

TEST_CASE("reference: broadcast_in_dim maps operand dims onto output dims") {
  check_broadcast_in_dim<float>(Shape{3}, Shape{2, 3}, {1});
  check_broadcast_in_dim<float>(Shape{3}, Shape{3, 2}, {0});
  check_broadcast_in_dim<double>(Shape{1, 3}, Shape{4, 3}, {0, 1});
  check_broadcast_in_dim<std::int32_t>(Shape{}, Shape{2, 2}, {});
  check_broadcast_in_dim<std::int64_t>(Shape{2, 1, 3}, Shape{2, 5, 3, 4}, {0, 1, 2});
  check_broadcast_in_dim<std::uint32_t>(Shape{3, 2}, Shape{2, 7, 3}, {2, 0});  // transposing map
  check_broadcast_in_dim<bool>(Shape{50}, Shape{50, 30}, {0});                 // several chunks
  check_broadcast_in_dim<float>(Shape{kLen}, Shape{kLen}, {0});
  check_broadcast_in_dim<float>(Shape{0}, Shape{3, 0}, {1});
}

// ---- graph structure ---------------------------------------------------------------------------

TEST_CASE("reference: nested jit sub-graphs, outputs that are inputs or literals") {
  // inner(p, q) = (exp(p) * q + 2, q); middle(p, q) = inner(p, q); outer: middle(a, 3) and
  // middle(a, b).
  Maker inner;
  const ir::Aval v3{f32, Shape{3}, false};
  const Atom p = inner.in(f32, Shape{3}), q = inner.in(f32, Shape{});
  const Atom e = inner.eqn(Prim::exp, {p}, v3);
  const Atom t = inner.eqn(Prim::mul, {e, q}, v3);
  inner.g.outvars = {inner.eqn(Prim::add, {t, lit(2.0f)}, v3), q};
  const auto inner_ptr = std::make_shared<const ir::Graph>(inner.g);

  Maker middle;
  const Atom mp = middle.in(f32, Shape{3}), mq = middle.in(f32, Shape{});
  const ir::Aval s0{f32, Shape{}, false};
  const auto mv0 = middle.g.new_var(v3), mv1 = middle.g.new_var(s0);
  middle.g.eqns.push_back(ir::Eqn{Prim::jit, {mp, mq}, {mv0, mv1}, params1("jaxpr", inner_ptr)});
  middle.g.outvars = {Atom::of_var(mv0), Atom::of_var(mv1)};
  const auto middle_ptr = std::make_shared<const ir::Graph>(middle.g);

  Maker outer;
  const Atom a = outer.in(f32, Shape{3}), b = outer.in(f32, Shape{});
  const auto o0 = outer.g.new_var(v3), o1 = outer.g.new_var(s0), o2 = outer.g.new_var(v3),
             o3 = outer.g.new_var(s0);
  outer.g.eqns.push_back(
      ir::Eqn{Prim::jit, {a, lit(3.0f)}, {o0, o1}, params1("jaxpr", middle_ptr)});
  outer.g.eqns.push_back(ir::Eqn{Prim::jit, {a, b}, {o2, o3}, params1("jaxpr", middle_ptr)});
  outer.g.outvars = {Atom::of_var(o0),    Atom::of_var(o1), Atom::of_var(o2), Atom::of_var(o3), a,
                     lit(std::int32_t{7})};

  const Value va = make<float>(Shape{3}, {0.0f, 1.0f, -2.0f}), vb = make<float>(Shape{}, {0.5f});
  const auto r = outer.run({va, vb});
  REQUIRE(r.size() == 6);
  const auto r0 = read<float>(r[0]), r2 = read<float>(r[2]);
  const std::vector<float> xs = {0.0f, 1.0f, -2.0f};
  for (std::size_t i = 0; i < 3; ++i) {
    // exp is within 2.5 ulp (see the unary table); the multiply and add add one rounding each.
    CHECK(ulp_error<float>(r0[i], std::exp(LD(xs[i])) * 3 + 2) <= 4);
    CHECK(ulp_error<float>(r2[i], std::exp(LD(xs[i])) * LD(0.5) + 2) <= 4);
  }
  CHECK(read<float>(r[1])[0] == 3.0f);
  CHECK(r[3].buf.get() == vb.buf.get());  // passed through two jit levels without a copy
  CHECK(r[4].buf.get() == va.buf.get());  // an output that is an input var is that input's buffer
  CHECK(r[5].aval.dtype == i32);
  CHECK(r[5].aval.shape == Shape{});
  CHECK(read<std::int32_t>(r[5])[0] == 7);
}

TEST_CASE("reference: a fused kernel runs its sub-graph, several outputs of one shape") {
  // kernel(x, s) = (x * s, sqrt(x * s) + 1) over f64[kLen], s a rank-0 operand.
  Maker sub;
  const ir::Aval vec{f64, Shape{kLen}, false};
  const Atom x = sub.in(f64, Shape{kLen}), s = sub.in(f64, Shape{});
  const Atom xs = sub.eqn(Prim::mul, {x, s}, vec);
  const Atom r = sub.eqn(Prim::add, {sub.eqn(Prim::sqrt, {xs}, vec), lit(1.0)}, vec);
  sub.g.outvars = {xs, r};

  Maker m;
  const Atom a = m.in(f64, Shape{kLen}), b = m.in(f64, Shape{});
  const auto o0 = m.g.new_var(vec), o1 = m.g.new_var(vec);
  m.g.eqns.push_back(ir::Eqn{
      Prim::fused, {a, b}, {o0, o1}, params1("jaxpr", std::make_shared<const ir::Graph>(sub.g))});
  m.g.outvars = {Atom::of_var(o1), Atom::of_var(o0)};
  std::vector<double> av(static_cast<std::size_t>(kLen));
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = static_cast<double>(i) * 0.5;
  const auto res = m.run({make<double>(Shape{kLen}, av), make<double>(Shape{}, {3.0})});
  const auto r1 = read<double>(res[0]), r0 = read<double>(res[1]);
  for (std::size_t i = 0; i < av.size(); ++i) {
    REQUIRE(r0[i] == av[i] * 3.0);                                         // exact products
    REQUIRE(ulp_error<double>(r1[i], std::sqrt(LD(av[i]) * 3) + 1) <= 1);  // two roundings
  }
}

TEST_CASE("reference: constvars come before invars, one executable serves threads at once") {
  Maker m;
  const auto c = m.g.new_var(ir::Aval{f64, Shape{kLen}, false});
  m.g.constvars.push_back(c);
  const Atom x = m.in(f64, Shape{kLen});
  m.g.outvars.push_back(m.eqn(Prim::sub, {Atom::of_var(c), x}, ir::Aval{f64, Shape{kLen}, false}));
  auto exe = backend::make_reference_backend()->compile(std::make_shared<const ir::Graph>(m.g));
  std::vector<double> cs(static_cast<std::size_t>(kLen), 10.0);
  std::vector<std::vector<double>> results(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::vector<double> xs(static_cast<std::size_t>(kLen), static_cast<double>(t));
      for (int rep = 0; rep < 20; ++rep) {
        std::vector<Value> in{make<double>(Shape{kLen}, cs), make<double>(Shape{kLen}, xs)};
        results[t] = read<double>(exe->run(in)[0]);
      }
    });
  for (auto& th : threads) th.join();
  for (std::size_t t = 0; t < 4; ++t)
    for (double v : results[t]) REQUIRE(v == 10.0 - static_cast<double>(t));
}

TEST_CASE("reference: unsupported dtypes and bad inputs raise fj errors") {
  struct Bad {
    Prim prim;
    DType dtype;
    int arity;
  };
  for (const Bad& bad :
       {Bad{Prim::exp, i32, 1}, Bad{Prim::neg, bool_, 1}, Bad{Prim::pow, i32, 2},
        Bad{Prim::and_, f32, 2}, Bad{Prim::add, bool_, 2}, Bad{Prim::floor, u32, 1}}) {
    Maker m;
    std::vector<Atom> ins;
    for (int k = 0; k < bad.arity; ++k) ins.push_back(m.in(bad.dtype, Shape{2}));
    m.g.outvars.push_back(m.eqn(bad.prim, ins, ir::Aval{bad.dtype, Shape{2}, false}));
    const std::string want =
        std::string(ir::name(bad.prim)) + " does not take " + std::string(short_name(bad.dtype));
    CHECK_THROWS_WITH_AS(
        backend::make_reference_backend()->compile(std::make_shared<const ir::Graph>(m.g)),
        doctest::Contains(want.c_str()), DTypeError);
  }
  Maker m;
  const Atom x = m.in(f32, Shape{2});
  m.g.outvars.push_back(m.eqn(Prim::neg, {x}, ir::Aval{f32, Shape{2}, false}));
  CHECK_THROWS_AS(m.run({}), ValueError);
  CHECK_THROWS_AS(m.run({make<float>(Shape{3}, {1, 2, 3})}), ShapeError);
  CHECK_THROWS_AS(m.run({make<double>(Shape{2}, {1, 2})}), DTypeError);
}

}  // namespace
