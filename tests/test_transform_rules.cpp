// Every transformation rule against an independent reference: each differentiable primitive's
// JVP against central finite differences in f64 and its VJP against its JVP (the transpose
// identity <vjp(u), v> = <u, jvp(v)>); each batching rule against stacking per-example results
// for in_axes 0, 1 and none; and a walk of the primitive table for missing rules. The cases
// are in transform_rule_cases.hpp.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/collective_params.hpp>
#include <fusejit/ir/passes/dce.hpp>
#include <fusejit/ir/prim_rules.hpp>
#include <functional>
#include <random>
#include <set>

#include "transform_rule_cases.hpp"

namespace {

using namespace transform_rule_cases;

Array make_array(const ir::Aval& a, const std::vector<double>& v) {
  return fj::visit_dtype(a.dtype, [&](auto x) {
    using T = decltype(x);
    std::unique_ptr<T[]> buf(new T[std::max<std::size_t>(v.size(), 1)]);
    for (std::size_t i = 0; i < v.size(); ++i) buf[i] = static_cast<T>(v[i]);
    return fj::detail::array_from<T>(buf.get(), a.shape);
  });
}

std::vector<double> values(const Array& a) {
  return fj::visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    const T* p = a.data<T>();
    return std::vector<double>(p, p + a.size());
  });
}

ir::Graph single_eqn_graph(const Case& c) {
  ir::GraphBuilder b;
  std::vector<ir::Atom> in;
  for (auto& a : c.ins) in.push_back(ir::Atom::of_var(b.add_invar(a)));
  b.graph.outvars = b.emit(c.prim, in, c.params);
  return std::move(b.graph);
}

std::vector<Array> run(const ir::Graph& g, const std::vector<Array>& ins) {
  auto exe = fj::backend::default_backend().compile(std::make_shared<const ir::Graph>(ir::dce(g)));
  std::vector<fj::backend::Value> vals;
  for (auto& a : ins) vals.push_back({a.buffer(), a.aval()});
  std::vector<Array> r;
  for (auto& o : exe->run(vals)) r.push_back(Array::from_buffer(o.buf, o.aval));
  return r;
}

std::vector<std::vector<double>> sample_inputs(const Case& c, std::mt19937& g) {
  std::vector<std::vector<double>> x;
  for (std::size_t k = 0; k < c.ins.size(); ++k) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < c.ins[k].shape.size(); ++i) v.push_back(c.sample(g, k, i));
    x.push_back(v);
  }
  return x;
}

std::vector<Array> arrays(const Case& c, const std::vector<std::vector<double>>& x) {
  std::vector<Array> r;
  for (std::size_t k = 0; k < x.size(); ++k) r.push_back(make_array(c.ins[k], x[k]));
  return r;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

TEST_CASE("transform rules: every primitive has its jvp, vjp and batching rule") {
  // The table's own check: a shape rule everywhere, a JVP and a transpose for every primitive
  // flagged differentiable, a batching rule for every one with operands.
  std::string missing;
  for (const std::string& m : ir::missing_rules(ir::rule_table())) missing += m + "\n";
  CHECK_MESSAGE(missing.empty(), missing);
  // The check names what a row lacks (it fails on an incomplete table).
  ir::RuleTable broken = ir::rule_table();
  broken[ir::Prim::exp].vjp = nullptr;
  broken[ir::Prim::gather].batch = nullptr;
  broken[ir::Prim::iota].shape = nullptr;
  CHECK(ir::missing_rules(broken) == std::vector<std::string>{"exp: no transpose (vjp) rule",
                                                              "iota: no shape rule",
                                                              "gather: no batching rule"});
  std::set<ir::Prim> tested;
  for (auto& c : differentiable_cases()) tested.insert(c.prim);
  for (auto& c : other_cases()) tested.insert(c.prim);
  for (int i = 0; i < ir::kNumPrims; ++i) {
    const auto p = static_cast<ir::Prim>(i);
    const auto& info = ir::info(p);
    if (ir::rules(p).transformed_whole) continue;
    CAPTURE(info.name);
    // A rule nobody exercises is a rule nobody checked: every primitive with operands has a case
    // (the callbacks' rules, which call C++ functions, in test_debug_print/callback.cpp; the
    // collectives', which need the devices of a pmap, in test_pmap.cpp).
    if (info.arity != 0 && info.kind != ir::PrimKind::control &&
        info.kind != ir::PrimKind::callback && !ir::collective::is_collective(p))
      CHECK(tested.count(p) == 1);
  }
}

TEST_CASE("transform rules: jvp matches central differences and vjp is its transpose (f64)") {
  std::mt19937 gen(1234);
  // Central differences with h = 1e-5 in f64 err by about h^2 |f'''| (1e-10) plus rounding
  // eps |f| / h (1e-11): 1e-6 of the largest derivative leaves a wide margin.
  const double h = 1e-5, fd_tol = 1e-6;
  for (const Case& c : differentiable_cases()) {
    CAPTURE(c.name);
    const ir::Graph g = single_eqn_graph(c);
    std::vector<bool> is_float;
    for (auto& a : c.ins) is_float.push_back(fj::is_float(a.dtype));
    const ir::Graph jg = fj::transforms::jvp_graph(g, is_float);
    const ir::Graph vg = fj::transforms::vjp_graph(g, is_float);
    for (int trial = 0; trial < 3; ++trial) {
      const auto x = sample_inputs(c, gen);
      std::vector<std::vector<double>> v(x.size());
      std::vector<Array> jin = arrays(c, x), xp, xm;
      for (std::size_t k = 0; k < x.size(); ++k) {
        if (!is_float[k]) {
          xp.push_back(make_array(c.ins[k], x[k]));
          xm.push_back(make_array(c.ins[k], x[k]));
          continue;
        }
        std::vector<double> p = x[k], m = x[k];
        for (std::size_t i = 0; i < p.size(); ++i)
          v[k].push_back(std::uniform_real_distribution<double>(-1, 1)(gen));
        if (c.tangent_space) c.tangent_space(k, v[k]);
        for (std::size_t i = 0; i < p.size(); ++i) {
          p[i] += h * v[k][i];
          m[i] -= h * v[k][i];
        }
        xp.push_back(make_array(c.ins[k], p));
        xm.push_back(make_array(c.ins[k], m));
      }
      for (std::size_t k = 0; k < x.size(); ++k)
        if (is_float[k]) jin.push_back(make_array(c.ins[k], v[k]));
      // Several outputs (sort's operands, top_k's values and indices): output 0 is checked;
      // the tangents follow all the primal outputs.
      const std::size_t n_out = g.outvars.size();
      const auto jout = run(jg, jin);
      const auto tangent = values(jout[n_out]);
      const auto fp = values(run(g, xp)[0]), fm = values(run(g, xm)[0]);
      double scale = 1, worst = 0;
      for (std::size_t i = 0; i < fp.size(); ++i) {
        const double fd = (fp[i] - fm[i]) / (2 * h);
        scale = std::max(scale, std::abs(fd));
        worst = std::max(worst, std::abs(fd - tangent[i]));
      }
      CHECK(worst <= fd_tol * scale);
      // The primal is untouched, but for cumprod: its JVP's primal is its associative scan's
      // product (JAX's _cumulative_jvp_rule), the same to rounding in another order (f64: a
      // few ulps of the largest product; max and min are exact in any order).
      const auto primal = values(jout[0]), direct = values(run(g, arrays(c, x))[0]);
      if (c.prim == ir::Prim::cumprod) {
        REQUIRE(primal.size() == direct.size());
        for (std::size_t i = 0; i < primal.size(); ++i)
          CHECK(std::abs(primal[i] - direct[i]) <= 1e-14 * std::max(1.0, std::abs(direct[i])));
      } else {
        CHECK(primal == direct);
      }

      // <u, jvp(v)> = <vjp(u), v>: both sides are exact linear maps, so they agree to rounding
      // (1e-12 relative to the magnitudes summed).
      std::vector<double> u;
      for (std::size_t i = 0; i < tangent.size(); ++i)
        u.push_back(std::uniform_real_distribution<double>(-1, 1)(gen));
      std::vector<Array> vin = arrays(c, x);
      vin.push_back(make_array(g.aval(g.outvars[0]), u));
      for (std::size_t o = 1; o < n_out; ++o) {  // the other outputs' cotangents are zero
        const ir::Aval a = g.aval(g.outvars[o]);
        vin.push_back(make_array(a, std::vector<double>(static_cast<std::size_t>(a.shape.size()))));
      }
      const auto vout = run(vg, vin);
      double lhs = 0, mag = std::abs(dot(u, tangent));
      std::size_t j = n_out;
      for (std::size_t k = 0; k < x.size(); ++k) {
        if (!is_float[k]) continue;
        const auto ct = values(vout[j++]);
        lhs += dot(ct, v[k]);
        mag = std::max(mag, std::abs(dot(ct, v[k])));
      }
      CHECK(std::abs(lhs - dot(u, tangent)) <= 1e-12 * std::max(1.0, mag) * 10);
    }
  }
}

namespace {

/// vmap of the single-equation graph, with axis `axis` for operands where `mapped` is set.
std::vector<Array> vmapped(const ir::Graph& g, const std::vector<Array>& xs,
                           const std::vector<std::optional<int>>& axes) {
  auto f = [&g](auto&... a) { return fj::detail::call_graph(g, {}, {a...})[0]; };
  auto call = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
    fj::in_axes<N> in{};
    for (std::size_t i = 0; i < N; ++i) in.v[i] = axes[i];
    return [&]<std::size_t... I>(std::index_sequence<I...>) { return fj::vmap(f, in)(xs[I]...); }
    (std::make_index_sequence<N>{});
  };
  switch (xs.size()) {
    case 1:
      return {call(std::integral_constant<std::size_t, 1>{})};
    case 2:
      return {call(std::integral_constant<std::size_t, 2>{})};
    case 3:
      return {call(std::integral_constant<std::size_t, 3>{})};
    case 4:
      return {call(std::integral_constant<std::size_t, 4>{})};
    default:  // custom_linear_solve: four consts and b
      return {call(std::integral_constant<std::size_t, 5>{})};
  }
}

}  // namespace

TEST_CASE("transform rules: vmap equals stacking per-example results, in_axes 0, 1 and none") {
  std::mt19937 gen(99);
  const std::int64_t B = 3;
  std::vector<Case> cases = differentiable_cases();
  for (auto& c : other_cases()) cases.push_back(c);
  for (const Case& c : cases) {
    const ir::Graph g = single_eqn_graph(c);
    const std::size_t n = c.ins.size();
    // Pattern 0: every operand mapped on axis 0; 1: on axis 1 where the operand has one (0
    // otherwise); 2: the first operand mapped, the rest broadcast (none).
    for (int pattern = 0; pattern < 3; ++pattern) {
      CAPTURE(c.name);
      CAPTURE(pattern);
      std::vector<std::optional<int>> axes(n);
      for (std::size_t k = 0; k < n; ++k) {
        if (pattern == 2 && k > 0) continue;
        axes[k] = pattern == 1 && c.ins[k].shape.rank() > 0 ? 1 : 0;
      }
      std::vector<std::vector<std::vector<double>>> per(static_cast<std::size_t>(B));
      for (auto& p : per) p = sample_inputs(c, gen);
      // Dynamic-slice starts differ per example (within range) to exercise batched indices.
      for (std::int64_t b = 0; b < B; ++b)
        for (std::size_t k = 0; k < n; ++k)
          if (!fj::is_float(c.ins[k].dtype) && c.ins[k].shape.rank() == 0 &&
              (c.prim == ir::Prim::dynamic_slice || c.prim == ir::Prim::dynamic_update_slice))
            per[static_cast<std::size_t>(b)][k] = {static_cast<double>(b % 2)};
      for (auto& p : per)
        for (std::size_t k = 0; k < n; ++k)
          if (!axes[k]) p[k] = per[0][k];
      std::vector<Array> xs;
      for (std::size_t k = 0; k < n; ++k) {
        if (!axes[k]) {
          xs.push_back(make_array(c.ins[k], per[0][k]));
          continue;
        }
        std::vector<Array> items;
        for (auto& p : per) items.push_back(make_array(c.ins[k], p[k]));
        xs.push_back(Array(fj::stack(items, *axes[k])));
      }
      const Array got = vmapped(g, xs, axes)[0];
      for (std::int64_t b = 0; b < B; ++b) {
        const Array want = run(g, arrays(c, per[static_cast<std::size_t>(b)]))[0];
        const Array item = got(b);
        REQUIRE(item.shape() == want.shape());
        REQUIRE(item.dtype() == want.dtype());
        const auto gv = values(item), wv = values(want);
        // Batching reorders no arithmetic except a dot's accumulation: 1e-13 relative.
        for (std::size_t i = 0; i < gv.size(); ++i)
          CHECK(std::abs(gv[i] - wv[i]) <= 1e-13 * std::max(1.0, std::abs(wv[i])));
      }
    }
  }
}
