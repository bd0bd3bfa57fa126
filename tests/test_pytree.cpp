// Pytrees (fj::tree_*): the seeds' trees, JAX's printed structures, tree_map's checks, and
// pytrees through jit (cache key), grad / value_and_grad (checked against finite differences),
// vmap (in_axes pytrees) and every lax loop (pytree carries, structure errors).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fusejit/fusejit.hpp>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "throws_with.hpp"

namespace nn {
/// A dense layer, registered in its own namespace.
struct Layer {
  fj::Array weights, biases;
};
FUSEJIT_PYTREE(Layer, weights, biases)
/// Registered at global scope instead (below).
struct Pair {
  fj::Array a;
  double b = 0;
};
}  // namespace nn
FUSEJIT_PYTREE(nn::Pair, a, b)

namespace {

using fj::Array;
using nn::Layer;
using Params = std::vector<Layer>;

std::vector<double> doubles(const Array& a) {
  return Array(a.astype(fj::DType::f64)).to_vector<double>();
}

using fusejit_test::check_throws_with;

std::string shape_text(const fj::Shape& s) {  // the seed prints shapes as (1,128) and (128,)
  std::string r = "(";
  for (int d = 0; d < s.rank(); ++d) r += (d ? "," : "") + std::to_string(s[d]);
  return r + (s.rank() == 1 ? ",)" : ")");
}

/// Deterministic, varied values in [-0.5, 0.5) (a linear congruential sequence).
std::vector<double> pseudo(std::size_t n, std::uint32_t seed) {
  std::vector<double> v(n);
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (auto& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<double>(x >> 8) / static_cast<double>(1u << 24) - 0.5;
  }
  return v;
}

Params init_params(const std::vector<std::int64_t>& sizes, fj::DType dt, std::uint32_t seed) {
  Params p;
  for (std::size_t i = 0; i + 1 < sizes.size(); ++i) {
    const std::int64_t m = sizes[i], n = sizes[i + 1];
    p.push_back(
        {fj::array(pseudo(static_cast<std::size_t>(m * n), seed + 2 * i), {m, n}).astype(dt),
         fj::array(pseudo(static_cast<std::size_t>(n), seed + 2 * i + 1), {n}).astype(dt)});
  }
  return p;
}

/// The MLP: tanh hidden layers, a linear last layer.
template <class P>
Array predict(const P& params, const Array& x) {
  Array h = x;
  for (std::size_t i = 0; i < params.size(); ++i) {
    Array z = fj::matmul(h, params[i].weights) + params[i].biases;
    h = i + 1 < params.size() ? Array(fj::tanh(z)) : z;
  }
  return h;
}

/// The same MLP in plain C++ (row-major x: rows x in), as the independent reference.
std::vector<double> predict_ref(const Params& params, const std::vector<double>& x,
                                std::int64_t rows) {
  std::vector<double> h = x;
  std::int64_t width = static_cast<std::int64_t>(x.size()) / rows;
  for (std::size_t l = 0; l < params.size(); ++l) {
    const auto w = doubles(params[l].weights), b = doubles(params[l].biases);
    const std::int64_t n = params[l].biases.shape()[0];
    std::vector<double> z(static_cast<std::size_t>(rows * n));
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = b[static_cast<std::size_t>(j)];
        for (std::int64_t k = 0; k < width; ++k)
          s += h[static_cast<std::size_t>(r * width + k)] * w[static_cast<std::size_t>(k * n + j)];
        z[static_cast<std::size_t>(r * n + j)] = l + 1 < params.size() ? std::tanh(s) : s;
      }
    h = z;
    width = n;
  }
  return h;
}

}  // namespace

TEST_CASE("pytree seeds: leaf counts and JAX's printed structures") {
  // (1, (2, 3), ()): tuples, with the empty tuple a node without children.
  const std::tuple<int, std::tuple<int, int>, std::tuple<>> t{1, {2, 3}, {}};
  CHECK(fj::tree_leaves(t) == std::vector<int>{1, 2, 3});
  CHECK(fj::tree_structure(t).str() == "PyTreeDef((*, (*, *), ()))");
  CHECK(fj::tree_structure(t).num_leaves() == 3);

  // [1, {'k1': 2, 'k2': (3, 4)}, 5]: a list (std::vector) of mixed values and a dict whose
  // values differ in structure, so both hold std::variant values (transparent in the tree).
  using DictValue = std::variant<int, std::tuple<int, int>>;
  using Dict = std::map<std::string, DictValue>;
  const std::vector<std::variant<int, Dict>> l{1, Dict{{"k2", std::tuple{3, 4}}, {"k1", 2}}, 5};
  CHECK(fj::tree_leaves(l) == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(fj::tree_structure(l).str() == "PyTreeDef([*, {'k1': *, 'k2': (*, *)}, *])");

  // Printed by JAX 0.10.2 for None, (None, 1), 1, [], {}, (1,).
  CHECK(fj::tree_structure(std::monostate{}).str() == "PyTreeDef(None)");
  CHECK(fj::tree_structure(std::tuple<std::monostate, int>{}).str() == "PyTreeDef((None, *))");
  CHECK(fj::tree_structure(1).str() == "PyTreeDef(*)");
  CHECK(fj::tree_structure(std::vector<int>{}).str() == "PyTreeDef([])");
  CHECK(fj::tree_structure(std::map<std::string, int>{}).str() == "PyTreeDef({})");
  CHECK(fj::tree_structure(std::tuple<int>{}).str() == "PyTreeDef((*,))");
  // std::pair and std::array are tuples.
  CHECK(fj::tree_structure(std::pair<int, std::array<float, 2>>{}).str() ==
        "PyTreeDef((*, (*, *)))");
  // A registered struct prints as JAX prints a register_dataclass node.
  const Params two = init_params({1, 2, 1}, fj::DType::f32, 1);
  CHECK(fj::tree_structure(two).str() ==
        "PyTreeDef([CustomNode(Layer[()], [*, *]), CustomNode(Layer[()], [*, *])])");
  // JAX prints a class's name without its module, so the namespace is left out.
  CHECK(fj::tree_structure(nn::Pair{}).str() == "PyTreeDef(CustomNode(Pair[()], [*, *]))");
}

TEST_CASE("tree_map: the seed's nested lists, several trees, struct fields of new types") {
  const std::vector<std::vector<int>> x{{1, 2, 3}, {1, 2}, {1, 2, 3, 4}};
  const auto y = fj::tree_map([](int v) { return v * 2; }, x);
  CHECK(y == std::vector<std::vector<int>>{{2, 4, 6}, {2, 4}, {2, 4, 6, 8}});

  // Several trees: f sees corresponding leaves.
  const std::map<std::string, std::pair<double, int>> a{{"u", {1.5, 2}}, {"v", {3.0, 4}}};
  const std::map<std::string, std::pair<double, int>> b{{"u", {0.5, 1}}, {"v", {1.0, 1}}};
  const auto s = fj::tree_map([](auto p, auto q) { return p - q; }, a, b);
  CHECK(s.at("u") == std::pair<double, int>{1.0, 1});
  CHECK(s.at("v") == std::pair<double, int>{2.0, 3});

  // The seed: the shapes of init_mlp_params({1, 128, 128, 1}).
  const Params params = init_params({1, 128, 128, 1}, fj::DType::f32, 0);
  const auto shapes = fj::tree_map([](const Array& p) { return p.shape(); }, params);
  std::vector<std::string> printed;
  for (const auto& layer : shapes)
    printed.push_back(shape_text(layer.get<0>()) + " " + shape_text(layer.get<1>()));
  CHECK(printed == std::vector<std::string>{"(1,128) (128,)", "(128,128) (128,)", "(128,1) (1,)"});
  // The mapped tree keeps the structure.
  CHECK(fj::tree_structure(shapes) == fj::tree_structure(params));

  // Expressions are evaluated: the SGD step gives arrays, in Layer structs again.
  const Params grads = init_params({1, 128, 128, 1}, fj::DType::f32, 7);
  const Params next =
      fj::tree_map([](const Array& p, const Array& g) { return p - 0.5f * g; }, params, grads);
  const auto p0 = doubles(params[1].weights), g0 = doubles(grads[1].weights),
             n0 = doubles(next[1].weights);
  for (std::size_t i = 0; i < n0.size(); i += 97)
    CHECK(n0[i] == doctest::Approx(p0[i] - 0.5 * g0[i]));

  // A leaf of the first tree takes the whole subtree of the others.
  const std::vector<int> counts{1, 2};
  const std::vector<std::vector<int>> lists{{5}, {6, 7}};
  const auto sizes =
      fj::tree_map([](int c, const std::vector<int>& v) { return c * v.size(); }, counts, lists);
  CHECK(sizes == std::vector<std::size_t>{1, 4});
}

TEST_CASE("tree_flatten / tree_unflatten round trip, and their errors") {
  using T = std::tuple<std::vector<double>, std::map<std::string, std::array<double, 2>>>;
  const T t{{1, 2}, {{"b", {5, 6}}, {"a", {3, 4}}}};
  auto [leaves, def] = fj::tree_flatten(t);
  CHECK(leaves == std::vector<double>{1, 2, 3, 4, 5, 6});  // dict keys sorted
  CHECK(def.str() == "PyTreeDef(([*, *], {'a': (*, *), 'b': (*, *)}))");
  for (auto& v : leaves) v *= 10;
  const T back = fj::tree_unflatten<T>(def, leaves);
  CHECK(std::get<0>(back) == std::vector<double>{10, 20});
  CHECK(std::get<1>(back).at("b") == std::array<double, 2>{50, 60});
  leaves.pop_back();
  CHECK_THROWS_AS(fj::tree_unflatten<T>(def, leaves), fj::ValueError);
  CHECK_THROWS_AS(
      fj::tree_unflatten<std::vector<double>>(fj::tree_structure(1.0), std::vector<double>{1.0}),
      fj::ValueError);
}

TEST_CASE("tree_map: a runtime structure mismatch raises fj::ValueError showing both") {
  const std::vector<std::vector<int>> x{{1, 2}, {3}};
  const std::vector<std::vector<int>> y{{1, 2}, {3, 4}};
  check_throws_with<fj::ValueError>(
      [&] { (void)fj::tree_map([](int a, int b) { return a + b; }, x, y); },
      {"PyTreeDef([[*, *], [*, *]])", "PyTreeDef([[*, *], [*]])"});
  const std::map<std::string, int> a{{"a", 1}}, b{{"b", 1}};
  check_throws_with<fj::Error>(
      [&] { (void)fj::tree_map([](int p, int q) { return p + q; }, a, b); },
      {"PyTreeDef({'a': *})", "PyTreeDef({'b': *})"});
}

TEST_CASE("jit over a std::vector<Layer> and a std::map, the structure is in the cache key") {
  auto f = fj::jit([](const Params& p, const std::map<std::string, Array>& io) {
    return std::map<std::string, Array>{{"out", predict(p, io.at("x"))},
                                        {"shift", io.at("x") + 1.0f}};
  });
  const auto xs = pseudo(4, 3);
  const Array x = fj::array(std::vector<float>(xs.begin(), xs.end()), {4, 1});
  const std::map<std::string, Array> io{{"x", x}};
  const Params p2 = init_params({1, 8, 1}, fj::DType::f32, 11);
  const Params p3 = init_params({1, 8, 8, 1}, fj::DType::f32, 11);

  const auto r = f(p2, io);
  CHECK(fj::tree_structure(r).str() == "PyTreeDef({'out': *, 'shift': *})");
  const auto ref = predict_ref(p2, doubles(x), 4);
  const auto got = doubles(r.at("out"));
  REQUIRE(got.size() == ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i)
    CHECK(got[i] == doctest::Approx(ref[i]).epsilon(1e-5));
  CHECK(f.trace_count() == 1);

  const Params other = init_params({1, 8, 1}, fj::DType::f32, 12);
  const auto hits0 = fj::cache_stats().cache_hits, misses0 = fj::cache_stats().cache_misses;
  f(other, io);  // same structure and avals: a hit
  CHECK(f.trace_count() == 1);
  CHECK(fj::cache_stats().cache_hits == hits0 + 1);
  CHECK(fj::cache_stats().cache_misses == misses0);

  const auto r3 = f(p3, io);  // three layers: a new structure, a new trace
  CHECK(f.trace_count() == 2);
  const auto ref3 = predict_ref(p3, doubles(x), 4);
  const auto got3 = doubles(r3.at("out"));
  for (std::size_t i = 0; i < ref3.size(); ++i)
    CHECK(got3[i] == doctest::Approx(ref3[i]).epsilon(1e-5));

  // Other map keys: another structure, though the avals are the same.
  f(p2, std::map<std::string, Array>{{"x", x}, {"y", x}});
  CHECK(f.trace_count() == 3);
  f(p2, std::map<std::string, Array>{{"x", x}, {"z", x}});
  CHECK(f.trace_count() == 4);
  f(p2, std::map<std::string, Array>{{"x", x}, {"z", x}});
  CHECK(f.trace_count() == 4);
  CHECK(f.cache_size() == 4);

  // A nested jit with pytree arguments, inside another jit.
  auto inner = fj::jit([](const Params& p, const Array& v) { return predict(p, v); });
  auto outer = fj::jit([&](const Params& p, const Array& v) { return inner(p, v) * 2.0f; });
  const auto o = doubles(outer(p2, x));
  for (std::size_t i = 0; i < ref.size(); ++i)
    CHECK(o[i] == doctest::Approx(2 * ref[i]).epsilon(1e-5));
}

TEST_CASE("grad over a std::vector<Layer> has its structure and matches finite differences") {
  const Params params = init_params({1, 3, 4, 1}, fj::DType::f64, 5);
  const auto xv = pseudo(6, 9);
  std::vector<double> yv;
  for (double x : xv) yv.push_back(std::sin(3 * x));
  const Array x = fj::array(xv, {6, 1}), y = fj::array(yv, {6, 1});
  auto loss = [](const Params& p, const Array& xs, const Array& ys) {
    const Array d = predict(p, xs) - ys;
    return fj::sum(d * d);
  };
  const Params g = fj::grad(loss)(params, x, y);
  REQUIRE(fj::tree_structure(g) == fj::tree_structure(params));

  // Central differences on the plain C++ reference loss, every parameter.
  auto ref_loss = [&](const Params& p) {
    const auto pred = predict_ref(p, xv, 6);
    double s = 0;
    for (std::size_t i = 0; i < pred.size(); ++i) s += (pred[i] - yv[i]) * (pred[i] - yv[i]);
    return s;
  };
  auto [leaves, def] = fj::tree_flatten(params);
  const auto g_leaves = fj::tree_leaves(g);
  REQUIRE(g_leaves.size() == leaves.size());
  const double h = 1e-6;
  for (std::size_t k = 0; k < leaves.size(); ++k) {
    CHECK(g_leaves[k].shape() == leaves[k].shape());
    CHECK(g_leaves[k].dtype() == fj::DType::f64);
    const auto base = doubles(leaves[k]), gk = doubles(g_leaves[k]);
    for (std::size_t i = 0; i < base.size(); ++i) {
      auto plus = leaves, minus = leaves;
      auto vp = base, vm = base;
      vp[i] += h;
      vm[i] -= h;
      plus[k] = fj::array(vp, leaves[k].shape());
      minus[k] = fj::array(vm, leaves[k].shape());
      const double fd = (ref_loss(fj::tree_unflatten<Params>(def, plus)) -
                         ref_loss(fj::tree_unflatten<Params>(def, minus))) /
                        (2 * h);
      CHECK(gk[i] == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
    }
  }

  // value_and_grad, jitted: the value is the loss, the gradient the same tree.
  auto vg = fj::jit(fj::value_and_grad(loss));
  const auto [value, g2] = vg(params, x, y);
  CHECK(value.item<double>() == doctest::Approx(ref_loss(params)).epsilon(1e-12));
  const auto l1 = fj::tree_leaves(g), l2 = fj::tree_leaves(g2);
  for (std::size_t k = 0; k < l1.size(); ++k) CHECK(doubles(l1[k]) == doubles(l2[k]));

  // Gradients of several pytree arguments, argnums at compile time.
  const std::map<std::string, Array> shift{{"s", fj::array(0.25)}};
  auto loss2 = [&](const Params& p, const std::map<std::string, Array>& m) {
    return loss(p, x, y + m.at("s"));
  };
  const auto [gp, gm] = fj::grad(loss2, fj::argnums_v<0, 1>)(params, shift);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(gm)>, std::map<std::string, Array>>);
  CHECK(fj::tree_structure(gp) == fj::tree_structure(params));
  double dshift = 0;  // d/ds sum((pred - y - s)^2) = -2 sum(pred - y - s)
  const auto pred = predict_ref(params, xv, 6);
  for (std::size_t i = 0; i < pred.size(); ++i) dshift += -2 * (pred[i] - yv[i] - 0.25);
  CHECK(gm.at("s").item<double>() == doctest::Approx(dshift).epsilon(1e-10));
}

TEST_CASE("vmap with an in_axes pytree: a prefix per argument, none for broadcast leaves") {
  // f(params dict, x): params {"w": matrix shared by all, "b": one bias row per example}.
  auto f = [](const std::map<std::string, Array>& p, const Array& v) {
    return std::make_pair(fj::matmul(v, p.at("w")) + p.at("b"), fj::sum(v));
  };
  const auto wv = pseudo(6, 1), bv = pseudo(4 * 3, 2), xv = pseudo(4 * 2, 3);
  const std::map<std::string, Array> p{{"w", fj::array(wv, {2, 3})}, {"b", fj::array(bv, {4, 3})}};
  const Array x = fj::array(xv, {4, 2});
  const std::map<std::string, std::optional<int>> axes{{"w", std::nullopt}, {"b", 0}};
  const auto [out, sums] = fj::vmap(f, fj::in_axes{axes, 0})(p, x);
  REQUIRE(out.shape() == fj::Shape{4, 3});
  const auto o = doubles(out), s = doubles(sums);
  for (std::size_t r = 0; r < 4; ++r) {
    double rs = 0;
    for (std::size_t k = 0; k < 2; ++k) rs += xv[r * 2 + k];
    CHECK(s[r] == doctest::Approx(rs));
    for (std::size_t j = 0; j < 3; ++j) {
      double e = bv[r * 3 + j];
      for (std::size_t k = 0; k < 2; ++k) e += xv[r * 2 + k] * wv[k * 3 + j];
      CHECK(o[r * 3 + j] == doctest::Approx(e));
    }
  }
  // An int for a whole pytree argument maps every leaf over that axis.
  const std::vector<Array> pair{fj::array(xv, {4, 2}), fj::array(bv, {4, 3})};
  const Array tot =
      fj::vmap([](const std::vector<Array>& v) { return fj::sum(v[0]) + fj::sum(v[1]); },
               fj::in_axes{0})(pair);
  const auto t = doubles(tot);
  for (std::size_t r = 0; r < 4; ++r) {
    double e = 0;
    for (std::size_t k = 0; k < 2; ++k) e += xv[r * 2 + k];
    for (std::size_t k = 0; k < 3; ++k) e += bv[r * 3 + k];
    CHECK(t[r] == doctest::Approx(e));
  }
  // An axes tree of another structure is an error naming both.
  const std::map<std::string, int> bad{{"w", 0}};
  check_throws_with<fj::ValueError>([&] { (void)fj::vmap(f, fj::in_axes{bad, 0})(p, x); },
                                    {"PyTreeDef({'w': *})", "PyTreeDef({'b': *, 'w': *})"});
}

TEST_CASE("lax loops with pytree carries: scan, fori_loop, while_loop, cond") {
  namespace lax = fj::lax;
  // scan: carry {"sum", "count"} and a struct; xs a list of two arrays; ys a tuple.
  const auto av = pseudo(5, 4), bv = pseudo(5 * 2, 5);
  const std::vector<Array> xs{fj::array(av, {5}), fj::array(bv, {5, 2})};
  const std::map<std::string, Array> init{{"count", fj::array(0.0)}, {"sum", fj::array(0.0)}};
  auto [carry, ys] = lax::scan(
      [](const std::map<std::string, Array>& c, const std::vector<Array>& x) {
        std::map<std::string, Array> next{{"count", c.at("count") + 1.0},
                                          {"sum", c.at("sum") + x[0] + fj::sum(x[1])}};
        return std::make_pair(next, std::make_tuple(Array(x[0] * 2.0), next.at("sum")));
      },
      init, xs);
  double sum = 0;
  std::vector<double> sums;
  for (std::size_t i = 0; i < 5; ++i) {
    sum += av[i] + bv[2 * i] + bv[2 * i + 1];
    sums.push_back(sum);
  }
  CHECK(carry.at("count").item<double>() == 5.0);
  CHECK(carry.at("sum").item<double>() == doctest::Approx(sum));
  CHECK(std::get<0>(ys).shape() == fj::Shape{5});
  const auto ys1 = doubles(std::get<1>(ys));
  for (std::size_t i = 0; i < 5; ++i) CHECK(ys1[i] == doctest::Approx(sums[i]));

  // fori_loop over a std::vector<Layer> carry (concrete bounds: a scan), and in a jit with
  // traced bounds (a while loop).
  const Params p = init_params({2, 3}, fj::DType::f64, 8);
  auto body = [](const Array& i, const Params& c) {
    return fj::tree_map([&](const Array& a) { return a * 2.0 + i; }, c);
  };
  const Params q = lax::fori_loop(0, 3, body, p);
  auto ref_leaf = [](double v) { return ((v * 2 + 0) * 2 + 1) * 2 + 2; };
  const auto w0 = doubles(p[0].weights), w3 = doubles(q[0].weights);
  for (std::size_t i = 0; i < w0.size(); ++i) CHECK(w3[i] == doctest::Approx(ref_leaf(w0[i])));
  auto traced =
      fj::jit([&](const Array& n, const Params& c) { return lax::fori_loop(0, n, body, c); });
  const Params q2 = traced(fj::array(3), p);
  const auto b0 = doubles(p[0].biases), b3 = doubles(q2[0].biases);
  for (std::size_t i = 0; i < b0.size(); ++i) CHECK(b3[i] == doctest::Approx(ref_leaf(b0[i])));

  // while_loop over a registered struct with a scalar field (weakly typed like a Python scalar):
  // traced, its double field is an Array, so the functions see a MappedStruct of Pair.
  using TracedPair = fj::MappedStruct<nn::Pair, Array, Array>;
  const nn::Pair start{fj::array(1.0f), 0.0};
  const auto end =
      lax::while_loop([](const TracedPair& s) { return s.get<0>() < 100.0f; },
                      [](const TracedPair& s) {
                        return TracedPair{{Array(s.get<0>() * 3.0f), Array(s.get<1>() + 1.0f)}};
                      },
                      start);
  CHECK(end.get<0>().item<float>() == 243.0f);
  CHECK(end.get<1>().item<float>() == 5.0f);

  // cond with pytree operands and result.
  const std::map<std::string, Array> ops{{"x", fj::array(2.0f)}, {"y", fj::array(5.0f)}};
  auto pick = [&](bool which) {
    return lax::cond(
        which,
        [](const std::map<std::string, Array>& m) {
          return std::vector<Array>{m.at("x") + m.at("y"), m.at("x")};
        },
        [](const std::map<std::string, Array>& m) {
          return std::vector<Array>{m.at("x") * m.at("y"), m.at("y")};
        },
        ops);
  };
  const auto t = pick(true), f = pick(false);
  CHECK(t[0].item<float>() == 7.0f);
  CHECK(t[1].item<float>() == 2.0f);
  CHECK(f[0].item<float>() == 10.0f);
  CHECK(f[1].item<float>() == 5.0f);
}

TEST_CASE("lax: a carry or branch whose structure changes raises fj::TypeError with both") {
  namespace lax = fj::lax;
  const std::vector<Array> init{fj::array(1.0f), fj::array(2.0f)};
  auto grow = [](const std::vector<Array>& c) {
    std::vector<Array> r = c;
    r.push_back(c[0]);
    return r;
  };
  check_throws_with<fj::TypeError>(
      [&] {
        (void)lax::while_loop([](const std::vector<Array>& c) { return c[0] < 10.0f; }, grow, init);
      },
      {"PyTreeDef([*, *, *])", "PyTreeDef([*, *])"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)lax::fori_loop(
            0, 3, [&](const Array&, const std::vector<Array>& c) { return grow(c); }, init);
      },
      {"lax.fori_loop", "PyTreeDef([*, *, *])", "PyTreeDef([*, *])"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)lax::scan(
            [&](const std::vector<Array>& c, const Array& x) { return std::make_pair(grow(c), x); },
            init, fj::arange(3));
      },
      {"PyTreeDef([*, *, *])", "PyTreeDef([*, *])"});
  check_throws_with<fj::TypeError>(
      [&] {
        (void)lax::cond(
            true, [&](const std::vector<Array>& c) { return grow(c); },
            [](const std::vector<Array>& c) { return c; }, init);
      },
      {"PyTreeDef([*, *, *])", "PyTreeDef([*, *])"});
}

TEST_CASE("make_jaxpr and lower over pytrees: leaves in JAX's order (golden from JAX 0.10.2)") {
  using Dict = std::map<std::string, Array>;
  auto f = [](const Dict& p, const Array& x) {
    return std::map<std::string, std::variant<Array, std::vector<Array>>>{
        {"out", Array((p.at("a") + p.at("b")) * x)},
        {"n", std::vector<Array>{fj::sum(x), p.at("b")}}};
  };
  const Dict p{{"b", fj::ones({2})}, {"a", fj::zeros({2})}};
  const Array x = fj::ones({2});
  // jax.make_jaxpr(lambda p, x: {'out': (p['a'] + p['b']) * x, 'n': [x.sum(), p['b']]})
  CHECK(fj::make_jaxpr(f)(p, x).str() ==
        "{ lambda ; a:f32[2] b:f32[2] c:f32[2]. let\n"
        "    d:f32[2] = add a b\n"
        "    e:f32[2] = mul d c\n"
        "    f:f32[] = reduce_sum[axes=(0,) out_sharding=None] c\n"
        "  in (f, b, e) }");
  // Ahead of time: the compiled function takes the same pytrees and rebuilds the result.
  const auto compiled = fj::jit(f).lower(p, x).compile();
  const auto r = compiled(Dict{{"a", fj::array({1.0f, 2.0f})}, {"b", fj::array({3.0f, 4.0f})}},
                          fj::array({2.0f, 0.5f}));
  CHECK(doubles(std::get<Array>(r.at("out"))) == std::vector<double>{8.0, 3.0});
  const auto& n = std::get<std::vector<Array>>(r.at("n"));
  CHECK(n[0].item<float>() == 2.5f);
  CHECK(doubles(n[1]) == std::vector<double>{3.0, 4.0});
  check_throws_with<fj::ValueError>([&] { (void)compiled(Dict{{"a", x}}, x); },
                                    {"PyTreeDef({'a': *})", "PyTreeDef({'a': *, 'b': *})"});
}

TEST_CASE("jit: FUSEJIT_LOG_COMPILES names a changed structure and the leaf whose shape changed") {
  ::setenv("FUSEJIT_LOG_COMPILES", "1", 1);
  std::ostringstream log;
  auto* old = std::cerr.rdbuf(log.rdbuf());
  auto f = fj::jit([](const Array& s, const std::vector<Array>& v) { return s + fj::sum(v[0]); },
                   "tree");
  const Array s = fj::array(1.0f);
  f(s, std::vector<Array>{fj::ones({2})});
  f(s, std::vector<Array>{fj::ones({2}), fj::ones({2})});
  f(s, std::vector<Array>{fj::ones({2}), fj::ones({3})});
  std::cerr.rdbuf(old);
  ::unsetenv("FUSEJIT_LOG_COMPILES");
  const std::string t = log.str();
  CHECK(t.find("arg 1 structure changed PyTreeDef([*]) -> PyTreeDef([*, *])") != std::string::npos);
  CHECK(t.find("arg 1 leaf 1 shape changed (2,) -> (3,)") != std::string::npos);
}

TEST_CASE("vmap of grad over a std::vector<Layer>: per-example gradients, params broadcast") {
  const Params params = init_params({1, 4, 1}, fj::DType::f32, 21);
  auto loss = [](const Params& p, const Array& x, const Array& y) {
    const Array d = predict(p, x) - y;
    return fj::sum(d * d);
  };
  const auto xv = pseudo(3 * 2, 22), yv = pseudo(3 * 2, 23);
  const Array xs = fj::array(std::vector<float>(xv.begin(), xv.end()), {3, 2, 1});
  const Array ys = fj::array(std::vector<float>(yv.begin(), yv.end()), {3, 2, 1});
  const Params per_example = fj::vmap(fj::grad(loss), fj::in_axes{fj::none, 0, 0})(params, xs, ys);
  REQUIRE(fj::tree_structure(per_example) == fj::tree_structure(params));
  CHECK(per_example[0].weights.shape() == fj::Shape{3, 1, 4});
  CHECK(per_example[1].biases.shape() == fj::Shape{3, 1});
  for (std::int64_t e = 0; e < 3; ++e) {
    const Params one = fj::grad(loss)(params, Array(xs(e)), Array(ys(e)));
    const auto batched = fj::tree_leaves(per_example), single = fj::tree_leaves(one);
    for (std::size_t k = 0; k < single.size(); ++k) {
      const auto b = doubles(Array(batched[k](e))), s = doubles(single[k]);
      REQUIRE(b.size() == s.size());
      for (std::size_t i = 0; i < s.size(); ++i) CHECK(b[i] == doctest::Approx(s[i]).epsilon(1e-5));
    }
  }
}

TEST_CASE("jit: a std::variant argument's alternative is part of the structure in the key") {
  using V = std::variant<Array, std::vector<Array>>;
  auto f = fj::jit([](const std::variant<Array, std::vector<Array>>& v) {
    return std::holds_alternative<Array>(v) ? std::get<Array>(v) * 2.0f
                                            : Array(std::get<1>(v)[0] + std::get<1>(v)[1]);
  });
  const Array a = fj::array({1.0f, 2.0f}), b = fj::array({10.0f, 20.0f});
  CHECK(doubles(f(V{a})) == std::vector<double>{2, 4});
  CHECK(doubles(f(V{std::vector<Array>{a, b}})) == std::vector<double>{11, 22});
  CHECK(f.trace_count() == 2);
  CHECK(doubles(f(V{b})) == std::vector<double>{20, 40});
  CHECK(doubles(f(V{std::vector<Array>{b, a}})) == std::vector<double>{11, 22});
  CHECK(f.trace_count() == 2);
  CHECK(doubles(f(V{std::vector<Array>{a, b, a}})) == std::vector<double>{11, 22});
  CHECK(f.trace_count() == 3);
}
