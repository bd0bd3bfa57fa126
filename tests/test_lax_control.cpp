// fj::lax control flow (cond, while_loop, fori_loop, scan): values under fj::jit on every backend
// against plain C++ loops, the two backends against each other, eager calls, captured values,
// nesting, and the errors of mismatched branches and carries.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"

using fj::Tracer;
using fusejit_test::BackendScope;
using fusejit_test::random_array;
namespace lax = fj::lax;

namespace {

// Runs `body` once per backend, each with that backend as the default (fresh jits inside).
template <class F>
void on_each_backend(F body) {
  for (const std::string& b : fusejit_test::backends_to_test()) {
    CAPTURE(b);
    BackendScope s(b.c_str());
    body();
  }
}

// Floats computed by the jitted program against a C++ loop: equal on the reference backend;
// within a few ulps on LLVM, which may contract a * b + c into one fused multiply-add.
void check_floats(const fj::Array& got, const std::vector<float>& want) {
  REQUIRE(got.dtype() == fj::f32);
  const auto g = got.to_vector<float>();
  REQUIRE(g.size() == want.size());
  const bool exact = fj::backend::default_backend().name() == "reference";
  for (std::size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    if (exact)
      CHECK(g[i] == want[i]);
    else
      CHECK(g[i] == doctest::Approx(want[i]).epsilon(1e-5));
  }
}

// The seed: f(x) = x > 0 ? x : 2 * x, with the predicate traced (no static arguments).
fj::Array seed_f(Tracer x) {
  return lax::cond(
      x > 0, [](Tracer x) { return x; }, [](Tracer x) { return 2 * x; }, x);
}

// The seed: g(x, n) counts i up to n with a while loop, then returns x + i.
fj::Array seed_g(Tracer x, Tracer n) {
  auto i = lax::while_loop([&](Tracer i) { return i < n; }, [](Tracer i) { return i + 1; }, 0);
  return x + i;
}

}  // namespace

TEST_CASE("lax: cond seed f(x) = x > 0 ? x : 2x under jit, both branches") {
  on_each_backend([] {
    auto f = fj::jit(seed_f);
    for (float x : {3.0f, -4.0f, 0.0f, 2.5f, -0.5f}) {
      CAPTURE(x);
      const float want = x > 0 ? x : 2 * x;
      CHECK(f(fj::array(x)).item<float>() == want);
    }
    CHECK(f.trace_count() == 1);  // the predicate is traced: one compile serves both branches
    // Vector operands with a scalar predicate.
    auto h = fj::jit([](Tracer p, Tracer v) {
      return lax::cond(
          p, [](Tracer v) { return v * v; }, [](Tracer v) { return -v; }, v);
    });
    const fj::Array v = fj::array({1.0f, -2.0f, 3.0f});
    CHECK(h(fj::array(true), v).to_vector<float>() == std::vector<float>{1, 4, 9});
    CHECK(h(fj::array(false), v).to_vector<float>() == std::vector<float>{-1, 2, -3});
    // An integer predicate is compared with 0.
    CHECK(h(fj::array(7), v).to_vector<float>() == std::vector<float>{1, 4, 9});
    CHECK(h(fj::array(0), v).to_vector<float>() == std::vector<float>{-1, 2, -3});
  });
}

TEST_CASE("lax: while_loop seed g(10, 20) = 30 with n dynamic") {
  on_each_backend([] {
    auto g = fj::jit(seed_g);
    CHECK(g(10, 20).item<int>() == 30);
    CHECK(g(10, 5).item<int>() == 15);
    CHECK(g(1, -3).item<int>() == 1);  // zero iterations
    CHECK(g(fj::array(2), fj::array(100)).item<int>() == 102);
    CHECK(g.trace_count() <= 2);  // weak scalars and strong arrays are two keys, n is never one
  });
}

TEST_CASE("lax: fori_loop with static and traced bounds against a C++ loop") {
  auto reference = [](float x, int lo, int hi) {
    for (int i = lo; i < hi; ++i) x = x * 0.5f + static_cast<float>(i);
    return x;
  };
  auto body = [](Tracer i, Tracer c) { return c * 0.5f + i.astype(fj::f32); };
  on_each_backend([&] {
    auto stat = fj::jit([&](Tracer x) { return lax::fori_loop(2, 9, body, x); });
    CHECK(stat(fj::array(3.0f)).item<float>() == reference(3.0f, 2, 9));
    auto empty = fj::jit([&](Tracer x) { return lax::fori_loop(5, 1, body, x); });
    CHECK(empty(fj::array(3.0f)).item<float>() == 3.0f);
    auto traced =
        fj::jit([&](Tracer x, Tracer lo, Tracer hi) { return lax::fori_loop(lo, hi, body, x); });
    for (auto [lo, hi] : {std::pair{0, 10}, std::pair{3, 4}, std::pair{7, 2}, std::pair{-5, 5}}) {
      CAPTURE(lo);
      CAPTURE(hi);
      CHECK(traced(fj::array(1.5f), fj::array(lo), fj::array(hi)).item<float>() ==
            reference(1.5f, lo, hi));
    }
    CHECK(traced.trace_count() == 1);
    // A tuple carry: (sum, product) of i over [1, 6).
    auto tup = fj::jit([](Tracer s, Tracer p) {
      return lax::fori_loop(
          1, 6,
          [](Tracer i, const std::tuple<Tracer, Tracer>& c) {
            return std::make_tuple(std::get<0>(c) + i, std::get<1>(c) * i);
          },
          std::make_tuple(s, p));
    });
    auto [s, p] = tup(fj::array(0), fj::array(1));
    CHECK(s.item<int>() == 15);
    CHECK(p.item<int>() == 120);
  });
}

TEST_CASE("lax: scan cumulative sum against a loop, forward and reverse") {
  const fj::Array xs = random_array(fj::f32, {37}, -2, 2, 11);
  const auto xv = xs.to_vector<float>();
  std::vector<float> fwd(xv.size()), rev(xv.size());
  float acc = 0;
  for (std::size_t i = 0; i < xv.size(); ++i) fwd[i] = acc += xv[i];
  const float total_fwd = acc;
  acc = 0;
  for (std::size_t i = xv.size(); i-- > 0;) rev[i] = acc += xv[i];
  const float total_rev = acc;
  on_each_backend([&] {
    for (bool reverse : {false, true}) {
      CAPTURE(reverse);
      auto f = fj::jit([reverse](Tracer xs) {
        return lax::scan(
            [](Tracer c, Tracer x) {
              Tracer s = c + x;
              return std::make_pair(s, s);
            },
            0.0f, xs, reverse);
      });
      auto [total, ys] = f(xs);
      CHECK(total.item<float>() == (reverse ? total_rev : total_fwd));
      CHECK(ys.to_vector<float>() == (reverse ? rev : fwd));
    }
  });
}

TEST_CASE("lax: scan over matrix rows with a tuple of xs and a tuple carry") {
  const fj::Array a = random_array(fj::f32, {6, 5}, -1, 1, 3);
  const fj::Array b = random_array(fj::i32, {6}, -3, 3, 4);
  const auto av = a.to_vector<float>();
  const auto bv = b.to_vector<int>();
  std::vector<float> row_sum(5, 0), ys(6 * 5);
  int count = 0;
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 5; ++c) {
      row_sum[c] += av[r * 5 + c] * static_cast<float>(bv[r]);
      ys[r * 5 + c] = row_sum[c];
    }
    count += bv[r];
  }
  on_each_backend([&] {
    using C = std::tuple<Tracer, Tracer>;
    using X = std::tuple<Tracer, Tracer>;
    auto f = [](Tracer a, Tracer b) {
      return lax::scan(
          [](const C& c, const X& x) {
            auto [acc, n] = c;
            auto [row, k] = x;
            Tracer next = acc + row * k.astype(fj::f32);
            return std::make_pair(std::make_tuple(next, n + k), next);
          },
          std::make_tuple(fj::zeros({5}), fj::array(0)), std::make_tuple(a, b));
    };
    // jit flattens outputs: return the nested (carry, ys) as one flat tuple.
    auto g = fj::jit([&](Tracer a, Tracer b) {
      auto [carry, ys] = f(a, b);
      return std::make_tuple(std::get<0>(carry), std::get<1>(carry), ys);
    });
    auto [acc, n, out] = g(a, b);
    check_floats(acc, row_sum);
    CHECK(n.item<int>() == count);
    CHECK(out.shape() == fj::Shape{6, 5});
    check_floats(out, ys);
  });
}

TEST_CASE("lax: nested control flow: cond inside scan, scan inside while") {
  const fj::Array xs = random_array(fj::f32, {20}, -3, 3, 5);
  const auto xv = xs.to_vector<float>();
  float c = 0;
  std::vector<float> want_ys;
  for (float x : xv) {
    want_ys.push_back(c);
    c = x > 0 ? c + x : c - 2 * x;
  }
  on_each_backend([&] {
    auto f = fj::jit([](Tracer xs) {
      return lax::scan(
          [](Tracer c, Tracer x) {
            Tracer y = lax::cond(
                x > 0, [&] { return c + x; }, [&] { return c - 2 * x; });
            return std::make_pair(y, c);
          },
          0.0f, xs);
    });
    auto [total, ys] = f(xs);
    CHECK(total.item<float>() == c);
    CHECK(ys.to_vector<float>() == want_ys);

    // while (sum(v) < limit) v = v + cumsum(v) by a scan: a loop whose body loops.
    auto g = fj::jit([](Tracer v, Tracer limit) {
      return lax::while_loop([&](Tracer v) { return fj::sum(v) < limit; },
                             [](Tracer v) {
                               auto [_, cs] = lax::scan(
                                   [](Tracer c, Tracer x) {
                                     Tracer s = c + x;
                                     return std::make_pair(s, s);
                                   },
                                   0.0f, v);
                               return Tracer(v + cs);
                             },
                             v);
    });
    std::vector<float> v{1, 2, 3};
    auto sum = [](const std::vector<float>& a) { return a[0] + a[1] + a[2]; };
    while (sum(v) < 1000) {
      float s = 0;
      std::vector<float> n(3);
      for (int i = 0; i < 3; ++i) n[i] = v[i] + (s += v[i]);
      v = n;
    }
    CHECK(g(fj::array({1.0f, 2.0f, 3.0f}), fj::array(1000.0f)).to_vector<float>() == v);
  });
}

TEST_CASE("lax: captured outer tracers and concrete arrays") {
  const fj::Array w = fj::array({1.0f, 2.0f, 3.0f});
  on_each_backend([&] {
    auto f = fj::jit([&](Tracer x, Tracer s) {
      // cond captures s (a tracer) and w (a concrete array); the scan body captures both too.
      Tracer y = lax::cond(
          fj::sum(x) > 0, [&](Tracer x) { return x * s + w; }, [&](Tracer x) { return x - w; }, x);
      auto [c, ys] = lax::scan(
          [&](Tracer c, Tracer r) { return std::make_pair(Tracer(c + r * s), Tracer(r * w)); },
          fj::zeros({3}), fj::stack({y, y}));
      Tracer n = lax::while_loop([&](Tracer k) { return k < s * 10; },
                                 [&](Tracer k) { return k + s; }, fj::array(0.0f));
      return std::make_tuple(y, c, ys, n);
    });
    auto [y, c, ys, n] = f(fj::array({1.0f, 1.0f, 2.0f}), fj::array(2.0f));
    CHECK(y.to_vector<float>() == std::vector<float>{3, 4, 7});
    CHECK(c.to_vector<float>() == std::vector<float>{12, 16, 28});
    CHECK(ys.to_vector<float>() == std::vector<float>{3, 8, 21, 3, 8, 21});
    CHECK(n.item<float>() == 20.0f);
    auto [y2, c2, ys2, n2] = f(fj::array({-1.0f, -1.0f, -2.0f}), fj::array(0.5f));
    CHECK(y2.to_vector<float>() == std::vector<float>{-2, -3, -5});
    CHECK(n2.item<float>() == 5.0f);
  });
}

TEST_CASE("lax: a cond inside a scan body captures a tracer two traces up") {
  on_each_backend([] {
    auto f = fj::jit([](Tracer xs, Tracer s) {
      return lax::scan(
          [&](Tracer c, Tracer x) {
            Tracer y = lax::cond(
                x > s, [&] { return Tracer(c + x * s); }, [&] { return c; });
            return std::make_pair(y, Tracer(x + s));
          },
          0.0f, xs);
    });
    auto [c, ys] = f(fj::array({1.0f, 3.0f, 5.0f}), fj::array(2.0f));
    CHECK(c.item<float>() == 16.0f);  // 3*2 + 5*2
    CHECK(ys.to_vector<float>() == std::vector<float>{3, 5, 7});
  });
}

TEST_CASE("lax: eager calls outside a trace") {
  on_each_backend([] {
    const fj::Array w = fj::array({1.0f, 2.0f});
    CHECK(lax::cond(
              true, [&](Tracer v) { return Tracer(v * w); }, [](Tracer v) { return v; },
              fj::array({3.0f, 4.0f}))
              .to_vector<float>() == std::vector<float>{3, 8});
    fj::Array x = fj::array(-3.0f);
    CHECK(seed_f(x).item<float>() == -6.0f);
    CHECK(seed_f(fj::array(4.0f)).item<float>() == 4.0f);
    CHECK(seed_g(fj::array(10), fj::array(20)).item<int>() == 30);
    auto [total, ys] =
        lax::scan([](Tracer c, Tracer x) { return std::make_pair(Tracer(c * x), c); }, 1.0f,
                  fj::array({2.0f, 3.0f, 4.0f}));
    CHECK(total.item<float>() == 24.0f);
    CHECK(ys.to_vector<float>() == std::vector<float>{1, 2, 6});
    CHECK(lax::fori_loop(
              0, 4, [](Tracer i, Tracer c) { return c + i; }, 0)
              .item<int>() == 6);
  });
}

TEST_CASE("lax: weakly typed carries are promoted as JAX does") {
  on_each_backend([] {
    // A Python-like 0 carry that the body turns into a float: the init becomes f32.
    auto f = fj::jit([](Tracer xs) {
      return lax::scan([](Tracer c, Tracer x) { return std::make_pair(Tracer(c + x), c); }, 0, xs);
    });
    auto [total, ys] = f(fj::array({0.5f, 1.5f}));
    CHECK(total.dtype() == fj::f32);
    CHECK(total.item<float>() == 2.0f);
    CHECK(ys.to_vector<float>() == std::vector<float>{0.0f, 0.5f});
  });
}

TEST_CASE("lax: zero-length scan and loops whose results are unused") {
  on_each_backend([] {
    auto f = fj::jit([](Tracer xs) {
      return lax::scan([](Tracer c, Tracer x) { return std::make_pair(Tracer(c + x), x); }, 1.0f,
                       xs);
    });
    auto [c, ys] = f(fj::zeros({0}));
    CHECK(c.item<float>() == 1.0f);
    CHECK(ys.shape() == fj::Shape{0});
    // Only ys is used: DCE keeps the scan and its operands.
    auto g = fj::jit([](Tracer xs, Tracer s) {
      auto [c, ys] = lax::scan(
          [&](Tracer c, Tracer x) { return std::make_pair(Tracer(c + x), Tracer(x * s)); }, 0.0f,
          xs);
      auto unused = lax::while_loop([](Tracer k) { return k < 3; }, [](Tracer k) { return k + 1; },
                                    fj::array(0));
      (void)unused;
      return ys;
    });
    CHECK(g(fj::array({1.0f, 2.0f}), fj::array(3.0f)).to_vector<float>() ==
          std::vector<float>{3, 6});
  });
}

TEST_CASE("lax: lower().as_text() shows control equations as calls between kernels") {
  if (!fusejit_test::has_backend("llvm")) return;
  BackendScope s("llvm");
  auto f = fj::jit([](Tracer xs) {
    return lax::scan([](Tracer c, Tracer x) { return std::make_pair(Tracer(c + x), c); }, 0.0f,
                     xs * 2);
  });
  const std::string text = f.lower(fj::ones({4})).as_text();
  CAPTURE(text);
  CHECK(text.find("scan[") != std::string::npos);
  CHECK(text.find("call 1: scan (native loop") != std::string::npos);
}

TEST_CASE("lax: reference and llvm backends agree on a larger program") {
  if (!fusejit_test::has_backend("llvm")) return;
  const fj::Array xs = random_array(fj::f32, {300, 257}, -1, 1, 21);
  auto prog = [](Tracer xs) {
    auto [c, ys] = lax::scan(
        [](Tracer c, Tracer row) {
          Tracer m = fj::max(row);
          Tracer next = lax::cond(
              m > 0.99f, [&] { return Tracer(c * 0.5f + row); },
              [&] { return Tracer(c + row * row); });
          return std::make_pair(next, Tracer(fj::sum(next * row)));
        },
        fj::zeros({257}), xs);
    Tracer k = lax::fori_loop(
        0, 5, [](Tracer, Tracer v) { return v * 0.9f + 1.0f; }, c);
    return std::make_tuple(k, ys);
  };
  std::tuple<fj::Array, fj::Array> want, got;
  {
    BackendScope s("reference");
    want = fj::jit(prog)(xs);
  }
  {
    BackendScope s("llvm");
    got = fj::jit(prog)(xs);
  }
  fusejit_test::check_close(std::get<0>(got), std::get<0>(want), 4, "carry after fori_loop");
  // Sums are reduced in a different order by the two backends: a few ulps.
  fusejit_test::check_abs(std::get<1>(got), std::get<1>(want), 1e-3, "ys");
}

TEST_CASE("lax: cond branch mismatches name both branches' types") {
  auto shape_mismatch = fj::jit([](Tracer x) {
    return lax::cond(
        x(0) > 0, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x(fj::range(0, 2))); },
        x);
  });
  CHECK_THROWS_WITH_AS(
      shape_mismatch(fj::ones({3})),
      doctest::Contains("lax.cond: true_fn output 0 is f32[3] but false_fn output 0 is f32[2]"),
      fj::ShapeError);
  auto dtype_mismatch = fj::jit([](Tracer x) {
    return lax::cond(
        x > 0, [](Tracer x) { return x; }, [](Tracer x) { return Tracer(x.astype(fj::i32)); }, x);
  });
  CHECK_THROWS_WITH_AS(
      dtype_mismatch(fj::array(1.0f)),
      doctest::Contains("lax.cond: true_fn output 0 is f32[] but false_fn output 0 is i32[]"),
      fj::DTypeError);
  auto count_mismatch = fj::jit([](Tracer x) {
    return lax::cond(
        x > 0, [](Tracer x) { return x; }, [](Tracer x) { return x + 1; }, x);
  });
  CHECK(count_mismatch(fj::array(1.0f)).item<float>() == 1.0f);  // not an error: same types
}

TEST_CASE("lax: a while body that changes the carry's type is an error naming both types") {
  auto f = fj::jit([](Tracer x) {
    return lax::while_loop([](Tracer c) { return c < 10; },
                           [](Tracer c) { return Tracer(c.astype(fj::f32)); }, x);
  });
  CHECK_THROWS_WITH_AS(f(fj::array(1)),
                       doctest::Contains("lax.while_loop: body_fn output carry 0 is f32[] but the "
                                         "input carry 0 is i32[]; the carry must keep its shape "
                                         "and dtype"),
                       fj::Error);
  auto g = fj::jit([](Tracer x) {
    return lax::scan(
        [](Tracer c, Tracer r) {
          return std::make_pair(Tracer(fj::concatenate({c, r})), r);
        },
        x, fj::ones({2, 2}));
  });
  CHECK_THROWS_AS(g(fj::ones({2})), fj::ShapeError);
  auto h = fj::jit([](Tracer x) {
    return lax::while_loop([](Tracer c) { return c; }, [](Tracer c) { return c; }, x);
  });
  CHECK_THROWS_AS(h(fj::array(1.0f)), fj::TypeError);  // cond_fn must return a bool scalar
}

TEST_CASE("lax: a hand-built cond of three branches clamps its index on both backends") {
  namespace ir = fj::ir;
  // branch k computes x + 1, x * 2, x - 3
  auto branch = [](ir::Prim p, float c) {
    ir::GraphBuilder b;
    const ir::Atom x = ir::Atom::of_var(b.add_invar({fj::f32, {2}, false}));
    b.graph.outvars.push_back(b.emit1(p, {x, ir::Atom::of_literal(ir::Literal::of(c, false))}));
    return std::make_shared<const ir::Graph>(std::move(b.graph));
  };
  ir::GraphBuilder b;
  const ir::Atom k = ir::Atom::of_var(b.add_invar({fj::i32, {}, false}));
  const ir::Atom x = ir::Atom::of_var(b.add_invar({fj::f32, {2}, false}));
  ir::Params p;
  p.items.push_back({"branches", std::vector<ir::GraphPtr>{branch(ir::Prim::add, 1.0f),
                                                           branch(ir::Prim::mul, 2.0f),
                                                           branch(ir::Prim::sub, 3.0f)}});
  b.graph.outvars = b.emit(ir::Prim::cond, {k, x}, std::move(p));
  CHECK(fj::ir::print_jaxpr(b.graph).find("branches=(") != std::string::npos);
  auto graph = std::make_shared<const ir::Graph>(std::move(b.graph));
  const fj::Array xv = fj::array({1.0f, -4.0f});
  for (const std::string& be : fusejit_test::backends_to_test()) {
    CAPTURE(be);
    BackendScope s(be.c_str());
    auto exe = fj::backend::default_backend().compile(graph);
    auto run = [&](int index) {
      const fj::Array ki = fj::array(index);
      std::vector<fj::backend::Value> in{{ki.buffer(), ki.aval()}, {xv.buffer(), xv.aval()}};
      auto out = exe->run(in);
      REQUIRE(out.size() == 1);
      return fj::Array::from_buffer(out[0].buf, out[0].aval).to_vector<float>();
    };
    CHECK(run(0) == std::vector<float>{2, -3});
    CHECK(run(1) == std::vector<float>{2, -8});
    CHECK(run(2) == std::vector<float>{-2, -7});
    CHECK(run(-5) == std::vector<float>{2, -3});  // clamped to 0
    CHECK(run(9) == std::vector<float>{-2, -7});  // clamped to 2
  }
}
