// Golden jaxprs of gradients: fusejit's make_jaxpr text of grad (and jvp) must equal JAX's byte
// for byte. Expected texts: tests/golden/grad_goldens.txt, printed by JAX 0.10.2 from
// tests/golden/grad_goldens.py (same case names).
#include <doctest/doctest.h>

#include <array>
#include <fusejit/fusejit.hpp>
#include <functional>
#include <map>
#include <string>

#include "golden_file.hpp"

using fj::Array;
using fj::Tracer;

namespace {

const std::string& golden(const std::string& name) {
  static const auto g = fusejit_test::read_goldens("grad_goldens.txt");
  auto it = g.find(name);
  REQUIRE_MESSAGE(it != g.end(), "no golden named " << name);
  return it->second;
}

}  // namespace

TEST_CASE("grad golden: grad_tanh") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(x); });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh"));
}

TEST_CASE("grad golden: grad_sum_tanh_times_x") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::tanh(x) * x); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_sum_tanh_times_x"));
}

TEST_CASE("grad golden: grad_tanh_times_const") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(x) * 2.0; });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh_times_const"));
}

TEST_CASE("grad golden: grad_tanh_of_sin") {
  auto f = fj::grad([](Tracer x) { return fj::tanh(fj::sin(x)); });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_tanh_of_sin"));
}

TEST_CASE("grad golden: grad_sin_times_x") {
  auto f = fj::grad([](Tracer x) { return fj::sin(x) * x; });
  CHECK(fj::make_jaxpr(f)(1.0).str() == golden("grad_sin_times_x"));
}

TEST_CASE("grad golden: grad_sum_exp") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::exp(x)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_sum_exp"));
}

TEST_CASE("grad golden: jvp_tanh") {
  auto f = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer a) { return fj::tanh(a); }, std::array<Array, 1>{x},
                           std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(f)(1.0, 1.0).str() == golden("jvp_tanh"));
}

// A nested jit under grad: JAX's partial evaluation leaves a jit of the forward part (outputs,
// then the residuals it does not get from outside) and its transpose a jit of the backward
// part; under jvp one jit of the JVP. Inlining the jits (fusejit before) fails every one.
namespace {
const auto jit_sin_x = fj::jit([](Tracer x) { return Array(fj::sin(x) * x); });
}  // namespace

TEST_CASE("grad golden: grad_jit_sin_times_x") {
  auto f = fj::grad([](Tracer x) { return fj::sum(jit_sin_x(x)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_jit_sin_times_x"));
}

TEST_CASE("grad golden: grad_jit_linear") {
  auto dbl = fj::jit([](Tracer x) { return Array(x * 2.0); });
  auto f = fj::grad([&](Tracer x) { return fj::sum(dbl(x)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_jit_linear"));
}

TEST_CASE("grad golden: grad_jit_one_input") {
  auto sin_times = fj::jit([](Tracer x, Tracer y) { return Array(fj::sin(x) * y); });
  auto f = fj::grad([&](Tracer x, Tracer y) { return fj::sum(sin_times(x, y)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3}), fj::ones({3})).str() == golden("grad_jit_one_input"));
}

TEST_CASE("grad golden: grad_jit_nested") {
  auto tanh_nested = fj::jit([](Tracer x) { return fj::tanh(jit_sin_x(x)); });
  auto f = fj::grad([&](Tracer x) { return fj::sum(tanh_nested(x)); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_jit_nested"));
}

TEST_CASE("grad golden: grad_jit_cumsum") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::cumsum(x) * x); });
  CHECK(fj::make_jaxpr(f)(fj::ones({3})).str() == golden("grad_jit_cumsum"));
}

TEST_CASE("grad golden: jvp_jit_sin_times_x") {
  auto f = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp(jit_sin_x, std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(f)(fj::ones({3}), fj::ones({3})).str() == golden("jvp_jit_sin_times_x"));
}

namespace {
Array x23() { return fj::reshape(fj::arange(1.0f, 7.0f), {2, 3}); }
}  // namespace

TEST_CASE("grad golden: grad_jit_where") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::where(x > 2.0, x, 0.0)); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_where"));
}

TEST_CASE("grad golden: grad_jit_tril") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::tril(x) * x); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_tril"));
}

TEST_CASE("grad golden: grad_jit_triu") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::triu(x)); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_triu"));
}

TEST_CASE("grad golden: grad_jit_var") {
  auto f = fj::grad([](Tracer x) { return fj::var(x); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_var"));
}

TEST_CASE("grad golden: grad_mean") {
  auto f = fj::grad([](Tracer x) { return fj::mean(x * x); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_mean"));
}

TEST_CASE("grad golden: grad_div") {
  auto f = fj::grad([](Tracer x) { return fj::sum(x / (x + 1.0)); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_div"));
}

TEST_CASE("grad golden: jvp_div_sub") {
  auto f = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer a) { return Array(a / (a - 2.0) - a); },
                           std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(f)(x23(), x23()).str() == golden("jvp_div_sub"));
}

TEST_CASE("grad golden: grad_jit_flip") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::flip(x, {0}) * x); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_flip"));
}

TEST_CASE("grad golden: grad_jit_take") {
  auto f = fj::grad([](Tracer x) { return fj::sum(fj::take(x, fj::array({1, 0}), 0) * x); });
  CHECK(fj::make_jaxpr(f)(x23()).str() == golden("grad_jit_take"));
}

// JAX's forms of the unary rules: t / r (log, log1p, atan), -(t * r) (cos), 2/sqrt(pi) (t * r)
// (erf), tan's and erf's `square`, abs's select_n of -t and t, exp2's forward-pass `log 2`,
// atanh's two residuals.
TEST_CASE("grad golden: unary rules in JAX's forms") {
  const std::map<std::string, std::function<Array(Tracer)>> fns = {
      {"grad_log", [](Tracer x) { return Array(fj::log(x)); }},
      {"grad_log1p", [](Tracer x) { return Array(fj::log1p(x)); }},
      {"grad_atan", [](Tracer x) { return Array(fj::arctan(x)); }},
      {"grad_cos", [](Tracer x) { return Array(fj::cos(x)); }},
      {"grad_erf", [](Tracer x) { return Array(fj::erf(x)); }},
      {"grad_erfc", [](Tracer x) { return Array(fj::erfc(x)); }},
      {"grad_tan", [](Tracer x) { return Array(fj::tan(x)); }},
      {"grad_log2", [](Tracer x) { return Array(fj::log2(x)); }},
      {"grad_abs", [](Tracer x) { return Array(fj::abs(x)); }},
      {"grad_exp2", [](Tracer x) { return Array(fj::exp2(x)); }},
      {"grad_arctanh", [](Tracer x) { return Array(fj::arctanh(x)); }},
      {"grad_abs_sin", [](Tracer x) { return Array(fj::abs(x) * fj::sin(x)); }},
      {"grad_digamma", [](Tracer x) { return Array(fj::digamma(x)); }},
      {"grad_polygamma", [](Tracer x) { return Array(fj::lax::polygamma(2.0f, x)); }},
  };
  for (const auto& [name, fn] : fns) {
    CAPTURE(name);
    auto f = fj::grad([&](Tracer x) { return fj::sum(fn(x)); });
    CHECK(fj::make_jaxpr(f)(x23()).str() == golden(name));
  }
  auto j = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer a) { return Array(fj::log(a) + fj::cos(a) + fj::erf(a)); },
                           std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23()).str() == golden("jvp_log_cos_erf"));
}

TEST_CASE("grad golden: abs of a scalar, and a jvp of abs, exp2 and arctanh") {
  auto f = fj::grad([](Tracer x) { return Array(fj::abs(x) * x); });
  CHECK(fj::make_jaxpr(f)(2.0f).str() == golden("grad_abs_scalar"));
  auto j = [](Tracer x, Tracer t) {
    auto [y, ty] =
        fj::jvp([](Tracer a) { return Array(fj::abs(a) + fj::exp2(a) + fj::arctanh(a)); },
                std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23()).str() == golden("jvp_abs_exp2_arctanh"));
}

// max's and min's partials are JAX's _balanced_eq, computed in the forward pass for each
// operand differentiated, the second operand's cotangent first; clip is max then min in a jit.
TEST_CASE("grad golden: maximum, minimum and clip") {
  auto both =
      fj::grad([](Tracer x, Tracer y) { return fj::sum(fj::maximum(x, y)); }, fj::argnums_v<0, 1>);
  CHECK(fj::make_jaxpr(both)(x23(), x23()).str() == golden("grad_maximum"));
  auto min_x = fj::grad([](Tracer x, Tracer y) { return fj::sum(fj::minimum(x, y)); });
  CHECK(fj::make_jaxpr(min_x)(x23(), x23()).str() == golden("grad_minimum_x"));
  auto max_y =
      fj::grad([](Tracer x, Tracer y) { return fj::sum(fj::maximum(x, y)); }, fj::argnums_v<1>);
  CHECK(fj::make_jaxpr(max_y)(x23(), x23()).str() == golden("grad_maximum_y"));
  auto literal = fj::grad([](Tracer x) { return fj::sum(fj::maximum(x, 0.0) * x); });
  CHECK(fj::make_jaxpr(literal)(x23()).str() == golden("grad_maximum_literal"));
  auto clip = fj::grad([](Tracer x) { return fj::sum(fj::clip(x, -0.5, 0.5)); });
  CHECK(fj::make_jaxpr(clip)(x23()).str() == golden("grad_jit_clip"));
  auto j = [](Tracer x, Tracer y, Tracer tx, Tracer ty) {
    auto [o, to] = fj::jvp([](Tracer a, Tracer b) { return Array(fj::maximum(a, b)); },
                           std::array<Array, 2>{x, y}, std::array<Array, 2>{tx, ty});
    return std::make_tuple(o, to);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23(), x23(), x23()).str() == golden("jvp_maximum"));
}

// sort's JVP sorts a uint32 iota along with the operands and gathers the tangents through the
// permutation; reverse mode keeps the permutation from the forward pass and scatter-adds the
// cotangents back (scatters of one dtype share JAX's cached update_jaxpr).
TEST_CASE("grad golden: sort through its permutation") {
  auto weighted = fj::grad([](Tracer x, Tracer w) { return fj::sum(fj::sort(x) * w); });
  CHECK(fj::make_jaxpr(weighted)(fj::ones({3}), fj::ones({3})).str() == golden("grad_jit_sort"));
  auto axis0 = fj::grad([](Tracer x) { return fj::sum(fj::sin(fj::sort(x, 0))); });
  CHECK(fj::make_jaxpr(axis0)(x23()).str() == golden("grad_jit_sort_axis0"));
  auto j = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer v) { return Array(fj::sort(v, 1)); }, std::array<Array, 1>{x},
                           std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23()).str() == golden("jvp_jit_sort_axis1"));
  auto two = fj::grad(
      [](Tracer k, Tracer v) {
        const Array a = fj::sin(fj::lax::sort({k, v}, 0, true, 1)[0]);
        return fj::sum(a * fj::lax::sort({k, v}, 0, true, 1)[1]);
      },
      fj::argnums_v<0, 1>);
  const Array keys = fj::array(std::vector<float>{3, 1, 2}, {3});
  CHECK(fj::make_jaxpr(two)(keys, fj::ones({3})).str() == golden("grad_lax_sort_two"));
}

// slice's transpose is JAX's pad (np.int64 high edges; a stride's gaps as interior padding),
// concatenate's a split, pad's a negative pad then a strided slice.
TEST_CASE("grad golden: slice, roll, concatenate, pad and split transposed as JAX's") {
  const Array x6 = fj::arange(6.0f);
  auto slice = fj::grad([](Tracer x) { return fj::sum(fj::sin(x(fj::range(1, 4)))); });
  CHECK(fj::make_jaxpr(slice)(x6).str() == golden("grad_slice"));
  auto strided = fj::grad([](Tracer x) { return fj::sum(fj::sin(x(fj::range(1, fj::none, 2)))); });
  CHECK(fj::make_jaxpr(strided)(x6).str() == golden("grad_slice_strided"));
  auto roll = fj::grad([](Tracer x) { return fj::sum(fj::sin(fj::roll(x, 2))); });
  CHECK(fj::make_jaxpr(roll)(x6).str() == golden("grad_jit_roll"));
  auto cat = fj::grad(
      [](Tracer x, Tracer y) {
        return fj::sum(fj::sin(fj::concatenate({x, y})));
      },
      fj::argnums_v<0, 1>);
  CHECK(fj::make_jaxpr(cat)(x6, fj::arange(3.0f)).str() == golden("grad_concatenate"));
  using W = std::vector<std::pair<std::int64_t, std::int64_t>>;
  auto pad = fj::grad([](Tracer x) { return fj::sum(fj::sin(fj::pad(x, W{{1, 2}}))); });
  CHECK(fj::make_jaxpr(pad)(x6).str() == golden("grad_jit_pad"));
  auto split = [](Tracer x) {
    const std::vector<Array> p = fj::lax::split(x, {1, 0, 2}, 1);
    return std::make_tuple(p[0], p[1], p[2]);
  };
  CHECK(fj::make_jaxpr(split)(x23()).str() == golden("lax_split"));
  auto split_grad = fj::grad([](Tracer x) {
    return fj::sum(fj::sin(fj::lax::split(x, {1, 2}, 1)[1]));
  });
  CHECK(fj::make_jaxpr(split_grad)(x23()).str() == golden("grad_lax_split"));
}

// reduce_max's and reduce_min's JVP as JAX's _reduce_chooser_jvp_rule: where the extremum is
// and how many times, computed in the forward pass; softmax and logsumexp go through it.
TEST_CASE("grad golden: reduce_max, reduce_min, softmax and logsumexp") {
  auto rmax = fj::grad([](Tracer x) {
    const Array first = fj::max(x, {1});  // staged in this order, as Python evaluates
    const Array second = fj::max(x, {1});
    return fj::sum(first * fj::sin(second));
  });
  CHECK(fj::make_jaxpr(rmax)(x23()).str() == golden("grad_reduce_max"));
  auto rmin = fj::grad([](Tracer x) { return Array(fj::min(x)); });
  CHECK(fj::make_jaxpr(rmin)(x23()).str() == golden("grad_reduce_min_all"));
  auto j = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer v) { return Array(fj::max(v, {0})); }, std::array<Array, 1>{x},
                           std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23()).str() == golden("jvp_reduce_max"));
  auto softmax = fj::grad([](Tracer x, Tracer w) { return fj::sum(fj::nn::softmax(x) * w); });
  CHECK(fj::make_jaxpr(softmax)(x23(), x23()).str() == golden("grad_softmax"));
  auto lse = fj::grad([](Tracer x) { return fj::sum(fj::nn::logsumexp(x, 1)); });
  CHECK(fj::make_jaxpr(lse)(x23()).str() == golden("grad_logsumexp"));
}

// cumprod, cummax and cummin differentiate through their associative scan, as JAX's
// _cumulative_jvp_rule does: the scan's values in the forward pass (the primitive is not run),
// its transposes (pads, split, products, max/min partials) in the backward pass.
TEST_CASE("grad golden: cumprod, cummax and cummin through their associative scan") {
  auto cumprod = fj::grad([](Tracer x) { return fj::sum(fj::cumprod(x)); });
  CHECK(fj::make_jaxpr(cumprod)(fj::arange(1.0f, 6.0f)).str() == golden("grad_jit_cumprod"));
  auto axis1 = fj::grad([](Tracer x) { return fj::sum(fj::sin(fj::cumprod(x, 1))); });
  CHECK(fj::make_jaxpr(axis1)(x23()).str() == golden("grad_jit_cumprod_axis1"));
  auto cummax = fj::grad([](Tracer x) { return fj::sum(fj::lax::cummax(x, 0) * x); });
  const Array v = fj::array(std::vector<float>{1, 3, 2, 5}, {4});
  CHECK(fj::make_jaxpr(cummax)(v).str() == golden("grad_lax_cummax"));
  auto cummin = fj::grad([](Tracer x) { return fj::sum(fj::lax::cummin(x, 1, true)); });
  CHECK(fj::make_jaxpr(cummin)(x23()).str() == golden("grad_lax_cummin_reverse"));
  auto j = [](Tracer x, Tracer t) {
    auto [y, ty] = fj::jvp([](Tracer a) { return Array(fj::lax::cumprod(a, 1)); },
                           std::array<Array, 1>{x}, std::array<Array, 1>{t});
    return std::make_tuple(y, ty);
  };
  CHECK(fj::make_jaxpr(j)(x23(), x23()).str() == golden("jvp_lax_cumprod"));
}
