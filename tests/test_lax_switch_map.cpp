// fj::lax::switch_, fj::lax::map and fj::lax::associative_scan against JAX 0.10.2
// (tests/golden/lax_switch_map_goldens.txt, printed by tests/golden/lax_switch_map_goldens.py),
// eagerly and under fj::jit, on every backend; associative_scan also against a sequential
// fj::lax::scan of the same fn; and bad input.
//
// Tolerances: the golden inputs are small integers and dyadic fractions whose sums and products
// are exact in f64 in any order (JAX's tree, a sequential scan, either backend's kernels), and
// switch's clamp and cond select: every golden case is compared bit for bit (zeros' signs
// included, except gradients', where a zero's sign depends on which product rounds first). The
// random f32 comparisons with a sequential scan state their bound where they are made.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <fusejit/fusejit.hpp>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend_compare.hpp"
#include "golden_file.hpp"
#include "throws_with.hpp"

using fj::Array;
using fj::Tracer;
using fusejit_test::BackendScope;

namespace {

constexpr fusejit_test::Golden kGolden{"lax_switch_map_goldens.txt"};

Array input(const std::string& name) { return fusejit_test::golden_input(kGolden, name); }

// `got` against the golden section `name`: equal shapes and values, bit for bit as doubles (a
// zero's sign too unless `any_zero_sign`).
void check_golden(const Array& got, const std::string& name, bool any_zero_sign = false) {
  CAPTURE(name);
  const auto [g, w] = fusejit_test::golden_values(got, kGolden.lines(name));
  for (std::size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    CHECK(g[i] == w[i]);
    if (!any_zero_sign) CHECK(std::signbit(g[i]) == std::signbit(w[i]));
  }
}

// The golden switch's branches, as a tuple of lambdas and as a vector of std::function.
auto switch_branches() {
  return std::tuple{[](Tracer a, Tracer b) { return a + b; },
                    [](Tracer a, Tracer b) { return a * b; },
                    [](Tracer a, Tracer b) { return a - 2 * b; }};
}
std::vector<std::function<Array(Array, Array)>> switch_branch_vector() {
  return {[](Array a, Array b) { return Array(a + b); },
          [](Array a, Array b) { return Array(a * b); },
          [](Array a, Array b) { return Array(a - 2 * b); }};
}

const int kIndices[] = {-5, 0, 1, 2, 7};

// The k-th running combination of a sequential fj::lax::scan, the associative scan's
// independent reference: init the first (or, reversed, the last) element, carry = fn(carry, x).
template <class Fn>
Array sequential_scan(Fn fn, const Array& x, bool reverse) {
  const std::int64_t n = x.shape()[0];
  if (n == 0) return x;
  const Array first = reverse ? Array(x(fj::range(n - 1, n))) : Array(x(fj::range(0, 1)));
  const Array rest = reverse ? Array(x(fj::range(0, n - 1))) : Array(x(fj::range(1, n)));
  auto step = [&](Tracer c, Tracer e) {
    Array next = fn(c, e);
    return std::make_pair(next, next);
  };
  const auto [last, ys] = fj::lax::scan(step, Array(first(0)), rest, reverse);
  (void)last;
  return reverse ? Array(fj::concatenate({ys, first}, 0)) : Array(fj::concatenate({first, ys}, 0));
}

// 2 x 2 matrix product of stacks (..., 2, 2), written out (no dot_general: its accumulation
// order would be a kernel's choice).
Array matmul22(const Array& a, const Array& b) {
  auto at = [](const Array& m, int i, int j) { return Array(m(fj::ellipsis, i, j)); };
  std::vector<Array> rows;
  for (int i = 0; i < 2; ++i) {
    std::vector<Array> row;
    for (int j = 0; j < 2; ++j)
      row.push_back(Array(at(a, i, 0) * at(b, 0, j) + at(a, i, 1) * at(b, 1, j)));
    rows.push_back(Array(fj::stack(row, -1)));
  }
  return Array(fj::stack(rows, -2));
}

}  // namespace

TEST_CASE("lax.switch golden: clamped indices, tuple and vector branches, eager and jit") {
  const Array x = input("x"), y = input("y");
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (int i : kIndices) {
      CAPTURE(i);
      const std::string name = "switch " + std::to_string(i);
      check_golden(fj::lax::switch_(i, switch_branches(), x, y), name);
      check_golden(fj::lax::switch_(i, switch_branch_vector(), x, y), name);
      std::array<std::function<Array(Array, Array)>, 3> arr;
      std::copy_n(switch_branch_vector().begin(), 3, arr.begin());
      check_golden(fj::lax::switch_(i, arr, x, y), name);
      // A traced index (i32 and i64) under jit: the clamp and the conds are staged.
      auto jitted = fj::jit([](Tracer k, Tracer a, Tracer b) {
        return fj::lax::switch_(k, switch_branches(), a, b);
      });
      check_golden(jitted(fj::array(i), x, y), name);
      check_golden(jitted(fj::array(static_cast<std::int64_t>(i)), x, y), name);
    }
    // A pytree result: (vector, scalar).
    auto tree_branches =
        std::tuple{[](Tracer a) { return std::make_tuple(Array(a + 1), Array(fj::sum(a))); },
                   [](Tracer a) { return std::make_tuple(Array(a * a), Array(fj::max(a))); },
                   [](Tracer a) { return std::make_tuple(Array(-a), Array(fj::min(a))); }};
    for (int i : {-1, 1, 9}) {
      CAPTURE(i);
      auto jitted =
          fj::jit([&](Tracer k, Tracer a) { return fj::lax::switch_(k, tree_branches, a); });
      const std::tuple<Array, Array> eager = fj::lax::switch_(i, tree_branches, x),
                                     staged = jitted(fj::array(i), x);
      for (const auto& [v, s] : {eager, staged}) {
        check_golden(v, "switch_tree " + std::to_string(i) + " 0");
        check_golden(s, "switch_tree " + std::to_string(i) + " 1");
      }
    }
  }
}

TEST_CASE("lax.switch: one branch, many branches, vmap over the index, staged as nested conds") {
  const Array x = input("x");
  // One branch is called directly (JAX: branches[0](*operands)); any index selects it.
  auto one = std::vector<std::function<Array(Array)>>{[](Array a) { return Array(a * 3); }};
  CHECK(fj::lax::switch_(12, one, x).to_vector<double>() == Array(x * 3).to_vector<double>());
  // 7 branches (a tree of depth 3): branch k adds k; every index, in and out of range, under jit.
  std::vector<std::function<Array(Array)>> seven;
  for (int k = 0; k < 7; ++k) seven.push_back([k](Array a) { return Array(a + k); });
  auto f7 = fj::jit([&](Tracer k, Tracer a) { return fj::lax::switch_(k, seven, a); });
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (int i = -2; i < 10; ++i) {
      CAPTURE(i);
      const int k = std::clamp(i, 0, 6);
      CHECK(f7(fj::array(i), x).to_vector<double>() == Array(x + k).to_vector<double>());
    }
    // vmap over a batch of indices (cond's batching rule turns the conds into selects).
    const Array idx = fj::array({-3, 0, 1, 2, 3, 4, 5, 6, 8});
    const Array rows = fj::ones({9, 4});
    const Array got =
        fj::vmap([&](Tracer k, Tracer a) { return fj::lax::switch_(k, seven, a); })(idx, rows);
    const auto gv = got.to_vector<float>();
    const int want_k[] = {0, 0, 1, 2, 3, 4, 5, 6, 6};
    for (int r = 0; r < 9; ++r)
      for (int c = 0; c < 4; ++c) CHECK(gv[static_cast<std::size_t>(r * 4 + c)] == 1.0 + want_k[r]);
  }
  // The jaxpr: i32 conversion, clamp into [0, 6], and 6 binary conds (JAX: one 7-way cond).
  const std::string text = fj::make_jaxpr([&](Tracer k, Tracer a) {
                             return fj::lax::switch_(k, seven, a);
                           })(fj::array(std::int64_t{1}), x)
                               .str();
  CAPTURE(text);
  // JAX's first two equations, then the root cond's predicate (branch index < 3).
  CHECK(text.rfind("{ lambda ; a:i64[] b:f64[4]. let\n"
                   "    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a\n"
                   "    d:i32[] = clamp 0:i32[] c 6:i32[]\n"
                   "    e:bool[] = lt d 3:i32[]\n",
                   0) == 0);
  std::size_t conds = 0;
  for (std::size_t p = text.find("cond["); p != std::string::npos; p = text.find("cond[", p + 1))
    ++conds;
  CHECK(conds == 6);
}

TEST_CASE("lax.switch golden: gradients through the selected branch, traced index too") {
  const Array x = input("x"), w = input("w");
  auto branches =
      std::tuple{[](Tracer a) { return Array(a * a); }, [](Tracer a) { return Array(3 * a); },
                 [](Tracer a) { return Array(a * a * a); }};
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (int i : kIndices) {
      CAPTURE(i);
      const std::string name = "switch_grad " + std::to_string(i);
      auto loss = [&](Tracer a) { return fj::sum(w * fj::lax::switch_(i, branches, a)); };
      check_golden(fj::grad(loss)(x), name, true);
      // The index an argument of the jitted gradient (not differentiated).
      auto loss_k = [&](Tracer a, Tracer k) {
        return fj::sum(w * fj::lax::switch_(k, branches, a));
      };
      check_golden(fj::jit(fj::grad(loss_k))(x, fj::array(i)), name, true);
    }
  }
}

TEST_CASE("lax.map golden: without and with batch_size (remainders included), pytrees, grad") {
  const Array rows = input("rows"), col = input("col");
  auto f = [](Tracer r) { return Array(r * r + fj::sum(r)); };
  auto g = [](const std::tuple<Array, Array>& t) {
    const auto& [r, c] = t;
    return std::make_tuple(Array(r * c), Array(fj::sum(r) - c));
  };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    check_golden(fj::lax::map(f, rows), "map");
    check_golden(fj::jit([&](Tracer r) { return fj::lax::map(f, r); })(rows), "map");
    for (int b : {1, 3, 4, 5, 10, 20, 0}) {
      CAPTURE(b);
      const std::string name = "map batch " + std::to_string(b);
      check_golden(fj::lax::map(f, rows, b), name);
      check_golden(fj::jit([&](Tracer r) { return fj::lax::map(f, r, b); })(rows), name);
    }
    for (std::optional<std::int64_t> b :
         {std::optional<std::int64_t>{}, std::optional<std::int64_t>{4}}) {
      CAPTURE(b.value_or(-1));
      const std::string name = "map_tree " + (b ? std::to_string(*b) : std::string("None"));
      const auto [p, q] = fj::lax::map(g, std::make_tuple(rows, col), b);
      check_golden(p, name + " 0");
      check_golden(q, name + " 1");
    }
    auto cube = [](Tracer r) { return Array(r * r * r); };
    check_golden(fj::grad([&](Tracer a) { return fj::sum(fj::lax::map(cube, a) * a); })(rows),
                 "map_grad", true);
    check_golden(fj::grad([&](Tracer a) { return fj::sum(fj::lax::map(cube, a, 4) * a); })(rows),
                 "map_grad batch 4", true);
  }
}

TEST_CASE("lax.associative_scan golden: add, max, or, matmul, affine maps, reverse, axis, dicts") {
  auto add = [](Tracer a, Tracer b) { return Array(a + b); };
  auto mx = [](Tracer a, Tracer b) { return Array(fj::maximum(a, b)); };
  auto lor = [](Tracer a, Tracer b) { return Array(fj::logical_or(a, b)); };
  // (Each product staged in turn, as Python evaluates JAX's tuple: C++ may evaluate
  // make_tuple's arguments in any order.)
  auto compose = [](const std::tuple<Array, Array>& p, const std::tuple<Array, Array>& q) {
    const Array a(std::get<0>(p) * std::get<0>(q));
    const Array b(std::get<0>(q) * std::get<1>(p) + std::get<1>(q));
    return std::make_tuple(a, b);
  };
  using Dict = std::map<std::string, Array>;
  auto dict_fn = [](const Dict& a, const Dict& b) {
    return Dict{{"s", Array(a.at("s") + b.at("s"))}, {"p", Array(a.at("p") * b.at("p"))}};
  };
  const Array v11 = input("v11"), v8 = input("v8"), m37 = input("m37"), mats = input("mats");
  const auto aff = std::make_tuple(input("aff_a"), input("aff_b"));
  using fj::lax::associative_scan;
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    for (bool jitted : {false, true}) {
      CAPTURE(jitted);
      // Each case eagerly, and as one jitted function of its input.
      auto run = [&](auto fn, const Array& x) {
        return jitted ? fj::jit([&](Tracer t) { return fn(t); })(x) : fn(x);
      };
      check_golden(run([&](Array t) { return associative_scan(add, t); }, v11), "ascan add 11");
      check_golden(run([&](Array t) { return associative_scan(add, t); }, v8), "ascan add 8");
      check_golden(run([&](Array t) { return associative_scan(add, t, true); }, v11),
                   "ascan add 11 reverse");
      check_golden(run([&](Array t) { return associative_scan(mx, t); }, v11), "ascan max 11");
      check_golden(run([&](Array t) { return associative_scan(add, t, false, 1); }, m37),
                   "ascan add axis 1");
      check_golden(run([&](Array t) { return associative_scan(add, t, true, 1); }, m37),
                   "ascan add axis 1 reverse");
      // Negative axes, reversed too (JAX 0.10.2 raises there; the result is axis 1's).
      check_golden(run([&](Array t) { return associative_scan(add, t, true, -1); }, m37),
                   "ascan add axis 1 reverse");
      check_golden(run([&](Array t) { return associative_scan(add, t, false, 0); }, m37),
                   "ascan add axis 0");
      check_golden(
          run([&](Array t) { return associative_scan(add, t); }, Array(v11.astype(fj::DType::i32))),
          "ascan int32");
      check_golden(
          run([&](Array t) { return associative_scan(lor, t); }, Array(input("flags") > 0)),
          "ascan or");
      check_golden(run([&](Array t) { return associative_scan(matmul22, t); }, mats),
                   "ascan matmul");
      check_golden(run([&](Array t) { return associative_scan(matmul22, t, true); }, mats),
                   "ascan matmul reverse");
    }
    for (bool rev : {false, true}) {
      CAPTURE(rev);
      const std::string name = std::string("ascan affine ") + (rev ? "True" : "False");
      const auto [a, b] = associative_scan(compose, aff, rev);
      check_golden(a, name + " a");
      check_golden(b, name + " b");
    }
    const Dict d = associative_scan(dict_fn, Dict{{"s", v8}, {"p", Array(v8 / 2)}});
    check_golden(d.at("p"), "ascan dict p");
    check_golden(d.at("s"), "ascan dict s");
    const double w0 = input("w").to_vector<double>()[0];
    auto mul = [](Tracer a, Tracer b) { return Array(a * b); };
    check_golden(
        fj::grad([&](Tracer a) { return fj::sum(w0 * associative_scan(mul, a)); })(Array(v8 / 2)),
        "ascan grad", true);
  }
}

TEST_CASE("lax.associative_scan and lax.map golden: jaxpr text as JAX stages it") {
  using T = Tracer;
  auto add = [](T a, T b) { return Array(a + b); };
  // (Each product staged in turn, as Python evaluates JAX's tuple: C++ may evaluate
  // make_tuple's arguments in any order.)
  auto compose = [](const std::tuple<Array, Array>& p, const std::tuple<Array, Array>& q) {
    const Array a(std::get<0>(p) * std::get<0>(q));
    const Array b(std::get<0>(q) * std::get<1>(p) + std::get<1>(q));
    return std::make_tuple(a, b);
  };
  auto twice = [](T r) { return Array(r * 2); };
  const Array v5 = fj::ones({5}), v6 = fj::ones({6}), m23 = fj::ones({2, 3}),
              rows = fj::ones({10, 3});
  auto map_b = [&](std::optional<std::int64_t> b) {
    return [&, b] {
      return fj::make_jaxpr([&](T a) { return fj::lax::map(twice, a, b); })(rows).str();
    };
  };
  fusejit_test::check_jaxpr_texts(
      kGolden,
      {
          {"ascan add 5",
           [&] {
             return fj::make_jaxpr([&](T a) { return fj::lax::associative_scan(add, a); })(v5)
                 .str();
           }},
          {"ascan add 6",
           [&] {
             return fj::make_jaxpr([&](T a) { return fj::lax::associative_scan(add, a); })(v6)
                 .str();
           }},
          {"ascan add reverse axis 1",
           [&] {
             return fj::make_jaxpr([&](T a) { return fj::lax::associative_scan(add, a, true, 1); })(
                        m23)
                 .str();
           }},
          {"ascan affine",
           [&] {
             return fj::make_jaxpr([&](T a, T b) {
                      return fj::lax::associative_scan(compose, std::make_tuple(a, b));
                    })(v5, v5)
                 .str();
           }},
          {"ascan or",
           [&] {
             return fj::make_jaxpr([&](T a) {
                      return fj::lax::associative_scan(
                          [](T x, T y) { return Array(fj::logical_or(x, y)); }, Array(a > 0));
                    })(v5)
                 .str();
           }},
          {"map", map_b(std::nullopt)},
          {"map batch 4", map_b(4)},
          {"map batch 5", map_b(5)},
          {"map batch 0", map_b(0)},
      });
}

TEST_CASE("lax.associative_scan against a sequential lax.scan of the same fn, every length") {
  auto add = [](Tracer a, Tracer b) { return Array(a + b); };
  for (const std::string& backend : fusejit_test::backends_to_test()) {
    BackendScope scope(backend.c_str());
    CAPTURE(backend);
    // Lengths 0 to 17 reach every shape of the recursion (odd, even, 1, 0); integer-valued f64
    // data and integer matrices keep both orders exact: compared bit for bit.
    for (std::int64_t n = 0; n <= 17; ++n) {
      CAPTURE(n);
      for (bool rev : {false, true}) {
        CAPTURE(rev);
        const Array v =
            fusejit_test::random_array(fj::DType::i32, {n}, -9, 9, 7).astype(fj::DType::f64);
        fusejit_test::check_close(fj::lax::associative_scan(add, v, rev),
                                  sequential_scan(add, v, rev), 0, "add");
        const Array m =
            fusejit_test::random_array(fj::DType::i32, {n, 2, 2}, -1, 1, 11).astype(fj::DType::f64);
        fusejit_test::check_close(fj::lax::associative_scan(matmul22, m, rev),
                                  sequential_scan(matmul22, m, rev), 0, "matmul");
      }
    }
    // Random positive f32 2 x 2 matrices: no cancellation, so each product's entries carry a
    // relative error of at most 2u (u = 2^-24: a product and a sum) on top of its operands'
    // (to first order), whatever the parenthesization: k products of k + 1 matrices stay within
    // 2uk of the exact product, two orders within 4uk of each other, i.e. 4k ulps.
    const std::int64_t n = 33;
    const Array m = fusejit_test::random_array(fj::DType::f32, {n, 2, 2}, 0.5, 1.5, 3);
    for (bool rev : {false, true}) {
      CAPTURE(rev);
      fusejit_test::check_close(fj::lax::associative_scan(matmul22, m, rev),
                                sequential_scan(matmul22, m, rev),
                                static_cast<std::uint64_t>(4 * (n - 1)), "f32 matmul");
    }
  }
}

TEST_CASE("lax.switch, lax.map, lax.associative_scan: bad input raises, naming the function") {
  using fusejit_test::check_throws_with;
  const Array x = input("x"), rows = input("rows"), m37 = input("m37");
  auto id = [](Tracer a) { return a; };
  // switch
  check_throws_with<fj::ValueError>(
      [&] { (void)fj::lax::switch_(0, std::vector<std::function<Array(Array)>>{}, x); },
      {"fj::lax::switch", "branches is empty"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::switch_(1, std::tuple{id, [](Tracer a) { return std::make_tuple(a, a); }},
                               x);
      },
      {"fj::lax::switch", "branch 1 returns structure", "branch 0"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::switch_(0, std::tuple{id, id, [](Tracer a) { return Array(fj::sum(a)); }},
                               x);
      },
      {"fj::lax::switch", "output 0 of branch 2 is f64[]", "branch 0 is f64[4]"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::switch_(
            0, std::tuple{id, [](Tracer a) { return Array(a.astype(fj::DType::f32)); }}, x);
      },
      {"fj::lax::switch", "branch 1 is f32[4]", "branch 0 is f64[4]"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::switch_(fj::array(1.0), std::tuple{id, id}, x);
      },
      {"fj::lax::switch", "integer", "f64[]"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::switch_(fj::array({0, 1}), std::tuple{id, id}, x);
      },
      {"fj::lax::switch", "scalar", "i32[2]"});
  // map
  auto f = [](Tracer r) { return Array(r * 2); };
  check_throws_with<fj::ValueError>([&] { (void)fj::lax::map(f, rows, -1); },
                                    {"fj::lax::map", "batch_size", "-1"});
  check_throws_with<fj::ValueError>(
      [&] {
        (void)fj::lax::map([](const std::tuple<Array, Array>& t) { return std::get<0>(t); },
                           std::make_tuple(rows, x), 2);
      },
      {"fj::lax::map", "leading axis", "f64[10,3]", "f64[4]"});
  check_throws_with<fj::ValueError>([&] { (void)fj::lax::map(f, fj::array(2.0)); },
                                    {"fj::lax::map", "f64[]", "no leading axis"});
  // associative_scan
  auto add = [](Tracer a, Tracer b) { return Array(a + b); };
  check_throws_with<fj::ShapeError>([&] { (void)fj::lax::associative_scan(add, m37, false, 2); },
                                    {"fj::lax::associative_scan", "axis 2", "f64[3,7]"});
  check_throws_with<fj::ShapeError>([&] { (void)fj::lax::associative_scan(add, m37, true, -3); },
                                    {"fj::lax::associative_scan", "axis -3", "f64[3,7]"});
  check_throws_with<fj::ValueError>(
      [&] {
        auto add2 = [](const std::tuple<Array, Array>& a, const std::tuple<Array, Array>& b) {
          return std::make_tuple(Array(std::get<0>(a) + std::get<0>(b)),
                                 Array(std::get<1>(a) + std::get<1>(b)));
        };
        (void)fj::lax::associative_scan(add2, std::make_tuple(m37, x), false, 1);
      },
      {"fj::lax::associative_scan", "length of axis 1", "f64[3,7]", "f64[4]"});
  check_throws_with<fj::ShapeError>(
      [&] {
        (void)fj::lax::associative_scan([](Tracer a, Tracer b) { return Array(fj::sum(a + b)); },
                                        x);
      },
      {"fj::lax::associative_scan", "f64[]", "shape"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::associative_scan(
            [](Tracer a, Tracer b) { return Array((a + b).astype(fj::DType::f32)); }, x);
      },
      {"fj::lax::associative_scan", "f32[2]", "dtype"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)fj::lax::associative_scan([](Tracer a, Tracer b) { return std::make_tuple(a, b); },
                                        x);
      },
      {"fj::lax::associative_scan", "structure"});
}
