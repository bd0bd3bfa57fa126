// Native lax loops on the LLVM backend: a scan or while whose body is only small fused kernels
// and library calls (dot_general, concatenate, dynamic_slice, ...) runs as one compiled driver
// (lower().as_text() says "native loop"), a cond or loop nested in the body included (emitted into
// the same driver). Every program is checked against the reference interpreter.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::BackendScope;
using fusejit_test::random_array;
namespace lax = fj::lax;

namespace {

void flatten_into(std::vector<fj::Array>& out, const fj::Array& a) { out.push_back(a); }
template <class... T>
void flatten_into(std::vector<fj::Array>& out, const std::tuple<T...>& t) {
  std::apply([&](const auto&... x) { (flatten_into(out, x), ...); }, t);
}
template <class A, class B>
void flatten_into(std::vector<fj::Array>& out, const std::pair<A, B>& p) {
  flatten_into(out, p.first);
  flatten_into(out, p.second);
}

std::vector<double> as_doubles(const fj::Array& a) {
  const fj::Array d = a.astype(fj::f64);
  return d.to_vector<double>();
}

// Runs `f` jitted on the reference backend and on llvm, compares every output (floats within a
// relative 1e-4: llvm contracts multiply-adds), and returns llvm's lower().as_text().
template <class F, class... Args>
std::string check_against_reference(F f, const Args&... args) {
  std::vector<fj::Array> want, got;
  {
    BackendScope s("reference");
    flatten_into(want, fj::jit(f)(args...));
  }
  BackendScope s("llvm");
  auto jf = fj::jit(f);
  flatten_into(got, jf(args...));
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    CAPTURE(k);
    CHECK(got[k].dtype() == want[k].dtype());
    CHECK(got[k].shape() == want[k].shape());
    const auto g = as_doubles(got[k]), w = as_doubles(want[k]);
    REQUIRE(g.size() == w.size());
    for (std::size_t i = 0; i < g.size(); ++i) {
      CAPTURE(i);
      CHECK(std::abs(g[i] - w[i]) <= 1e-4 * (1 + std::abs(w[i])));
    }
  }
  return jf.lower(args...).as_text();
}

bool native(const std::string& text) { return text.find("native loop") != std::string::npos; }

}  // namespace

TEST_CASE("native loops: scan forward and reverse, several carries, xs and ys") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array a = random_array(fj::f32, {9, 8}, -1, 1, 1);
  const fj::Array b = random_array(fj::i32, {9}, -3, 3, 2);
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    auto f = [reverse](Tracer a, Tracer b) {
      using C = std::tuple<Tracer, Tracer, Tracer>;
      using X = std::tuple<Tracer, Tracer>;
      auto [c, ys] = lax::scan(
          [](const C& c, const X& x) {
            auto [acc, n, m] = c;
            auto [row, k] = x;
            Tracer next = acc * 0.5f + row * k.astype(fj::f32);
            Tracer total = fj::sum(next);
            // ys: the new accumulator, the old count, and the row itself (an x).
            return std::make_pair(std::make_tuple(next, n + k, fj::maximum(m, total)),
                                  std::make_tuple(next, n, row));
          },
          std::make_tuple(fj::zeros({8}), fj::array(0), fj::array(-1e9f)), std::make_tuple(a, b),
          reverse);
      auto [acc, n, m] = c;
      auto [y0, y1, y2] = ys;
      return std::make_tuple(acc, n, m, y0, y1, y2);
    };
    const std::string text = check_against_reference(f, a, b);
    CAPTURE(text);
    CHECK(native(text));
  }
}

TEST_CASE("native loops: while with a data-dependent trip count") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto f = [](Tracer x, Tracer limit) {
    auto [i, v] = lax::while_loop(
        [&](const std::tuple<Tracer, Tracer>& c) { return fj::sum(std::get<1>(c)) < limit; },
        [](const std::tuple<Tracer, Tracer>& c) {
          return std::make_tuple(std::get<0>(c) + 1, std::get<1>(c) * 1.5f + 0.25f);
        },
        std::make_tuple(fj::array(0), x));
    return std::make_tuple(i, v);
  };
  const fj::Array x = random_array(fj::f32, {16}, 0.1, 1, 3);
  for (float limit : {-1.0f, 10.0f, 1000.0f, 1e6f}) {
    CAPTURE(limit);
    const std::string text = check_against_reference(f, x, fj::array(limit));
    CAPTURE(text);
    CHECK(native(text));
  }
  // The trip count itself.
  BackendScope s("llvm");
  auto [i, v] = fj::jit(f)(fj::ones({4}), fj::array(100.0f));
  int n = 0;
  for (float e = 1; 4 * e < 100; e = e * 1.5f + 0.25f) ++n;
  CHECK(i.item<int>() == n);
}

TEST_CASE("native loops: fori_loop with static and traced bounds, empty ranges") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto body = [](Tracer i, Tracer c) { return fj::sin(c) * 0.5f + i.astype(fj::f32) * 0.01f; };
  const fj::Array x = random_array(fj::f32, {33}, -2, 2, 4);
  for (auto [lo, hi] : {std::pair{0, 50}, std::pair{3, 4}, std::pair{5, 1}, std::pair{2, 2}}) {
    CAPTURE(lo);
    CAPTURE(hi);
    auto stat = [&, lo, hi](Tracer x) { return lax::fori_loop(lo, hi, body, x); };
    CHECK(native(check_against_reference(stat, x)));
    auto traced = [&](Tracer x, Tracer lo, Tracer hi) { return lax::fori_loop(lo, hi, body, x); };
    CHECK(native(check_against_reference(traced, x, fj::array(lo), fj::array(hi))));
  }
}

TEST_CASE("native loops: pass-through carries, a literal counter and a carry swap") {
  if (!fusejit_test::has_backend("llvm")) return;
  // while: n is passed through (the cond reads it, so it stays a carry).
  auto count = [](Tracer x, Tracer n) {
    auto [i, m, v] = lax::while_loop(
        [](const std::tuple<Tracer, Tracer, Tracer>& c) { return std::get<0>(c) < std::get<1>(c); },
        [](const std::tuple<Tracer, Tracer, Tracer>& c) {
          return std::make_tuple(std::get<0>(c) + 1, std::get<1>(c), std::get<2>(c) * 2.0f);
        },
        std::make_tuple(fj::array(0), n, x));
    return std::make_tuple(i, m, v);
  };
  for (int n : {0, 1, 7}) {
    CAPTURE(n);
    CHECK(native(check_against_reference(count, fj::array(1.5f), fj::array(n))));
  }
  // scan: the second carry passes through untouched, the third is the y of the step.
  const fj::Array xs = random_array(fj::f32, {12, 3}, -1, 1, 5);
  auto pass = [](Tracer xs) {
    using C = std::tuple<Tracer, Tracer>;
    auto [c, ys] = lax::scan(
        [](const C& c, Tracer x) {
          Tracer s = std::get<0>(c) + x * std::get<1>(c);
          return std::make_pair(std::make_tuple(s, std::get<1>(c)), s);
        },
        std::make_tuple(fj::zeros({3}), fj::full({3}, 2.0f)), xs);
    return std::make_tuple(std::get<0>(c), std::get<1>(c), ys);
  };
  CHECK(native(check_against_reference(pass, xs)));
  // A rotation of carries (a, b) -> (b, a + b): b is copied into a's own slots.
  auto fib = [](Tracer a, Tracer b) {
    auto [x, y] = lax::fori_loop(
        0, 20,
        [](Tracer, const std::tuple<Tracer, Tracer>& c) {
          return std::make_tuple(std::get<1>(c), std::get<0>(c) + std::get<1>(c));
        },
        std::make_tuple(a, b));
    return std::make_tuple(x, y);
  };
  CHECK(native(check_against_reference(fib, fj::array(0), fj::array(1))));
  // A three-way rotation with a delay line: c -> b -> a, while the kernel writes c.
  auto delay = [](Tracer x) {
    using C = std::tuple<Tracer, Tracer, Tracer>;
    auto [c, ys] = lax::scan(
        [](const C& c, Tracer x) {
          auto [a, b, d] = c;
          return std::make_pair(std::make_tuple(b, d, Tracer(d * 0.5f + x)), a);
        },
        std::make_tuple(fj::zeros({2}), fj::ones({2}), fj::full({2}, 2.0f)), x);
    auto [a, b, d] = c;
    return std::make_tuple(a, b, d, ys);
  };
  CHECK(native(check_against_reference(delay, random_array(fj::f32, {10, 2}, -1, 1, 14))));
}

TEST_CASE("native loops: zero-length scan") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto f = [](Tracer c0, Tracer xs) {
    auto [c, ys] = lax::scan(
        [](Tracer c, Tracer x) { return std::make_pair(Tracer(c + x), Tracer(c * x)); }, c0, xs);
    return std::make_tuple(c, ys);
  };
  const std::string text = check_against_reference(
      f, fj::array(std::vector<float>{1, 2}, fj::Shape{2}), fj::zeros({0, 2}));
  CHECK(native(text));
}

TEST_CASE("native loops: bodies with reductions, small and big, dot_general runs natively") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto f = [](Tracer xs) {
    auto [c, ys] = lax::scan(
        [](Tracer c, Tracer x) {
          Tracer m = fj::max(x);
          return std::make_pair(Tracer(c + fj::sum(x - m)), m);
        },
        0.0f, xs);
    return std::make_tuple(c, ys);
  };
  CHECK(native(check_against_reference(f, random_array(fj::f32, {20, 100}, -1, 1, 6))));
  // Rows of 10000 points reduce in block partials, which the driver has the host combine.
  CHECK(native(check_against_reference(f, random_array(fj::f32, {3, 10000}, -1, 1, 7))));
  // Rows of 100000 points: the driver has the pool split the reduction, then combines.
  CHECK(native(check_against_reference(f, random_array(fj::f32, {2, 100000}, -1, 1, 7))));
  // A dot_general in the body: a library call, which the driver makes through a host
  // trampoline (products within the relative 1e-4: the GEMM sums in another order).
  auto g = [](Tracer w, Tracer v) {
    return lax::fori_loop(
        0, 5, [&](Tracer, Tracer c) { return fj::tanh(fj::matmul(w, c)); }, v);
  };
  const std::string dot = check_against_reference(g, random_array(fj::f32, {6, 6}, -1, 1, 8),
                                                  random_array(fj::f32, {6}, -1, 1, 9));
  CAPTURE(dot);
  CHECK(native(dot));
  CHECK(dot.find("1 library calls") != std::string::npos);
}

TEST_CASE("native loops: a dot_general body with a bias + relu epilogue") {
  if (!fusejit_test::has_backend("llvm")) return;
  // h = relu(h @ W + b + x_t): the add/relu kernel is the dot's epilogue in the sub-executable;
  // the driver runs it inlined right after the trampoline's GEMM. ys are the hidden states.
  auto f = [](Tracer h0, Tracer w, Tracer bias, Tracer xs) {
    auto [h, ys] = lax::scan(
        [&](Tracer h, Tracer x) {
          Tracer n = fj::maximum(fj::matmul(h, w) + bias + x, 0.0f);
          return std::make_pair(n, Tracer(n * 2.0f));
        },
        h0, xs);
    return std::make_tuple(h, ys);
  };
  for (std::int64_t n : {1, 8, 24}) {
    CAPTURE(n);
    const std::string text = check_against_reference(
        f, random_array(fj::f32, {1, n}, -1, 1, 20), random_array(fj::f32, {n, n}, -0.5, 0.5, 21),
        random_array(fj::f32, {n}, -0.1, 0.1, 22), random_array(fj::f32, {12, 1, n}, -1, 1, 23));
    CAPTURE(text);
    CHECK(native(text));
  }
  // The product itself as the new carry and as a y (written by the GEMM straight into its row of
  // the stacked output: 12-byte rows, not aligned).
  auto g = [](Tracer h0, Tracer w, Tracer xs) {
    auto [h, ys] = lax::scan(
        [&](Tracer h, Tracer x) {
          Tracer p = fj::matmul(h + x, w);
          return std::make_pair(p, p);
        },
        h0, xs);
    return std::make_tuple(h, ys);
  };
  CHECK(native(check_against_reference(g, random_array(fj::f32, {1, 3}, -1, 1, 26),
                                       random_array(fj::f32, {3, 3}, -0.7, 0.7, 27),
                                       random_array(fj::f32, {9, 1, 3}, -1, 1, 28))));
}

TEST_CASE("native loops: a while body with concatenate and dynamic_slice") {
  if (!fusejit_test::has_backend("llvm")) return;
  // A window of 4 at a moving start (traced, clamped), concatenated back to 8 with a literal
  // operand's broadcast neighbour; the cond reads a sum.
  auto f = [](Tracer x, Tracer limit) {
    using C = std::tuple<Tracer, Tracer>;
    auto [i, v] = lax::while_loop(
        [&](const C& c) { return std::get<0>(c) < limit; },
        [](const C& c) {
          auto [i, v] = c;
          Tracer w = lax::dynamic_slice(v, {Tracer(i % 5)}, {4});
          Tracer next = fj::concatenate({Tracer(w * 0.5f + 1.0f), Tracer(fj::sin(w))});
          return std::make_tuple(Tracer(i + 1), next);
        },
        std::make_tuple(fj::array(0), x));
    return std::make_tuple(i, v);
  };
  const fj::Array x = random_array(fj::f32, {8}, -1, 1, 24);
  for (int limit : {0, 1, 9}) {
    CAPTURE(limit);
    const std::string text = check_against_reference(f, x, fj::array(limit));
    CAPTURE(text);
    CHECK(native(text));
    CHECK(text.find("2 library calls") != std::string::npos);
  }
  // dynamic_update_slice of a scan's x into a carried buffer, at the step's index.
  auto g = [](Tracer buf, Tracer xs) {
    using C = std::tuple<Tracer, Tracer>;
    auto [c, ys] = lax::scan(
        [](const C& c, Tracer x) {
          auto [k, b] = c;
          Tracer nb = lax::dynamic_update_slice(b, x, {k});
          return std::make_pair(std::make_tuple(Tracer(k + 2), nb), Tracer(fj::sum(nb)));
        },
        std::make_tuple(fj::array(0), buf), xs);
    return std::make_tuple(std::get<0>(c), std::get<1>(c), ys);
  };
  CHECK(native(
      check_against_reference(g, fj::zeros({10}), random_array(fj::f32, {6, 2}, -1, 1, 25))));
}

TEST_CASE("native loops: a captured constant and a pass-through y") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array k = random_array(fj::f32, {4}, -1, 1, 10);
  auto f = [&](Tracer xs) {
    auto [c, ys] = lax::scan(
        [&](Tracer c, Tracer x) {
          return std::make_pair(Tracer(c * 0.9f + x * k),
                                std::make_tuple(c, Tracer(fj::exp(x)), Tracer(x * 0.0f + 1.0f)));
        },
        fj::zeros({4}), xs, true);
    auto [y0, y1, y2] = ys;
    return std::make_tuple(c, y0, y1, y2);
  };
  CHECK(native(check_against_reference(f, random_array(fj::f32, {7, 4}, -1, 1, 11))));
}

TEST_CASE("native loops: a carry as the while predicate, nested loops, big bodies") {
  if (!fusejit_test::has_backend("llvm")) return;
  // The cond sub-graph is its own invar: no kernel, the predicate is read from the carry.
  auto flag = [](Tracer x) {
    auto [go, v] =
        lax::while_loop([](const std::tuple<Tracer, Tracer>& c) { return std::get<0>(c); },
                        [](const std::tuple<Tracer, Tracer>& c) {
                          Tracer next = std::get<1>(c) * 2.0f + 1.0f;
                          return std::make_tuple(Tracer(next < 100.0f), next);
                        },
                        std::make_tuple(Tracer(x < 100.0f), x));
    return std::make_tuple(go, v);
  };
  for (float x : {0.5f, 99.0f, 150.0f}) {
    CAPTURE(x);
    CHECK(native(check_against_reference(flag, fj::array(x))));
  }
  // A fori_loop inside a scan body: both loops are in one driver.
  auto nested = [](Tracer xs) {
    auto [c, ys] = lax::scan(
        [](Tracer c, Tracer x) {
          Tracer inner = lax::fori_loop(
              0, 4, [&](Tracer, Tracer v) { return Tracer(v * 0.5f + x); }, c);
          return std::make_pair(inner, Tracer(inner * 2.0f));
        },
        fj::zeros({3}), xs);
    return std::make_tuple(c, ys);
  };
  const std::string text =
      check_against_reference(nested, random_array(fj::f32, {5, 3}, -1, 1, 12));
  CAPTURE(text);
  CHECK(native(text));
  CHECK(text.find("1 nested conds or loops") != std::string::npos);
  CHECK(text.find("sub-executables") == std::string::npos);
  // A body kernel big enough for the pool: the driver has the pool split it.
  auto big = [](Tracer x) {
    return lax::fori_loop(
        0, 3, [](Tracer, Tracer c) { return Tracer(c * 0.5f + 1.0f); }, x);
  };
  CHECK(native(check_against_reference(big, random_array(fj::f32, {100000}, -1, 1, 13))));
}

TEST_CASE("native loops: a body with no kernel (a shift register)") {
  if (!fusejit_test::has_backend("llvm")) return;
  auto f = [](Tracer c0, Tracer xs) {
    auto [c, ys] = lax::scan([](Tracer c, Tracer x) { return std::make_pair(x, c); }, c0, xs);
    return std::make_tuple(c, ys);
  };
  CHECK(
      native(check_against_reference(f, fj::zeros({3}), random_array(fj::f32, {6, 3}, -1, 1, 15))));
}

// Nested control in a native body: every program is one driver (no sub-executables), and each is
// built so that a buffer reused too early would show: a carry that one branch passes through and
// the other recomputes with a GEMM (which reads all of its operand), rotations through a cond,
// inner loops that run zero times (their result is the outer carry itself), and stacked inner ys.
TEST_CASE("native loops: conds and loops nested in the body") {
  if (!fusejit_test::has_backend("llvm")) return;
  std::string program;
  CAPTURE(program);
  auto one_driver = [](const std::string& text) {
    CAPTURE(text);
    CHECK(native(text));
    CHECK(text.find("nested conds or loops") != std::string::npos);
    CHECK(text.find("sub-executables") == std::string::npos);
  };
  // A cond in a scan body: keep c, or c <- M flip(c) / 64 + flip(c) / 2 + x (a GEMM, then a
  // kernel that reads c reversed: written over c in place it would read values it wrote).
  auto gemm_or_keep = [](Tracer m, Tracer c0, Tracer xs) {
    auto [c, ys] = lax::scan(
        [&](Tracer c, Tracer x) {
          Tracer next = lax::cond(
              fj::sum(x) > 0,
              [&](Tracer c) {
                return Tracer(fj::matmul(m, c.flip()) * (1.0f / 64) + c.flip() * 0.5f + x);
              },
              [](Tracer c) { return c; }, c);
          return std::make_pair(next, Tracer(next.flip() - c));
        },
        c0, xs);
    return std::make_tuple(c, ys);
  };
  // Signs chosen so that the branches alternate: compute, keep, compute, keep, keep, compute...
  std::vector<float> rows;
  const float signs[] = {1, -1, 1, -1, -1, 1, 1, -1, 1, 1};
  for (float sgn : signs)
    for (int j = 0; j < 64; ++j) rows.push_back(sgn * (0.25f + 0.01f * static_cast<float>(j)));
  const fj::Array xs = fj::array(rows, {10, 64});
  program = "gemm_or_keep";
  one_driver(check_against_reference(gemm_or_keep, random_array(fj::f32, {64, 64}, -1, 1, 31),
                                     random_array(fj::f32, {64}, -1, 1, 32), xs));

  // A rotation through a cond: (a, b) -> (b, a) or (a, b) -> (a + b, b), by the step's sign.
  auto rotate = [](Tracer xs) {
    auto [c, ys] = lax::scan(
        [](const std::tuple<Tracer, Tracer>& c, Tracer x) {
          auto [a, b] = c;
          auto next = lax::cond(
              x > 0, [&] { return std::make_tuple(b, a); },
              [&] { return std::make_tuple(Tracer(a + b), b); });
          return std::make_pair(next, Tracer(std::get<0>(next) * x));
        },
        std::make_tuple(fj::zeros({3}) + 1.0f, fj::zeros({3}) + 2.0f), xs);
    return std::make_tuple(std::get<0>(c), std::get<1>(c), ys);
  };
  program = "rotate";
  one_driver(check_against_reference(rotate, fj::array({1.0f, 1.0f, -1.0f, 1.0f, -1.0f, -1.0f})));

  // A while in a while; the inner one runs zero times whenever v >= limit already.
  auto inner_while = [](Tracer v, Tracer n) {
    auto [k, w] =
        lax::while_loop([&](const std::tuple<Tracer, Tracer>& c) { return std::get<0>(c) < n; },
                        [](const std::tuple<Tracer, Tracer>& c) {
                          auto [k, w] = c;
                          Tracer limit = k.astype(fj::f32) * 3.0f;
                          Tracer grown = lax::while_loop(
                              [&](Tracer u) { return fj::sum(u) < limit; },
                              [](Tracer u) { return Tracer(u.flip() * 1.5f + 1.0f); }, w);
                          return std::make_tuple(Tracer(k + 1), grown);
                        },
                        std::make_tuple(fj::array(0), v));
    return std::make_tuple(k, w);
  };
  program = "inner_while";
  one_driver(check_against_reference(inner_while, fj::array({0.5f, -0.25f, 1.0f}), fj::array(9)));

  // A scan in a scan whose stacked ys are the outer ys, and a cond in a cond.
  auto scan_scan = [](Tracer xss) {
    auto [c, ys] = lax::scan(
        [](Tracer c, Tracer xs) {
          auto [ic, iys] = lax::scan(
              [](Tracer ic, Tracer x) {
                Tracer y = lax::cond(
                    x > 0,
                    [&] {
                      return lax::cond(
                          x > 0.5f, [&] { return Tracer(ic * x); }, [&] { return Tracer(ic + x); });
                    },
                    [&] { return Tracer(ic - x); });
                return std::make_pair(y, Tracer(y * 2.0f));
              },
              c, xs);
          return std::make_pair(ic, iys);
        },
        fj::array(1.0f), xss);
    return std::make_tuple(c, ys);
  };
  program = "scan_scan";
  one_driver(check_against_reference(scan_scan, random_array(fj::f32, {5, 6}, -1, 1, 33)));

  // A cond in a while's predicate.
  auto cond_pred = [](Tracer x) {
    return lax::while_loop(
        [](Tracer v) {
          return lax::cond(
              v < 0.0f, [&] { return Tracer(v > -50.0f); }, [&] { return Tracer(v < 50.0f); });
        },
        [](Tracer v) { return Tracer(v * 2.0f + (v < 0.0f).astype(fj::f32) * -1.0f + 0.5f); }, x);
  };
  for (float x : {-3.0f, 0.25f, 60.0f}) {
    CAPTURE(x);
    program = "cond_pred";
    one_driver(check_against_reference(cond_pred, fj::array(x)));
  }
}
