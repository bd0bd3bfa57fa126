// The transformation-rule test cases: one single-equation program per primitive (operand
// avals, params and an input sampler that keeps it away from kinks and ties), for
// tests/test_transform_rules.cpp.
#pragma once
#include <cmath>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/linear_solve.hpp>
#include <fusejit/ir/pad_config.hpp>
#include <memory>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace transform_rule_cases {

using fj::Array;
using fj::DType;
using fj::Shape;
namespace ir = fj::ir;
using Dims = std::vector<std::int64_t>;

/// One equation to test: its operands' avals, its params, and where to sample its operands
/// (away from kinks and poles, where a derivative is not what finite differences see).
struct Case {
  std::string name;
  ir::Prim prim;
  std::vector<ir::Aval> ins;
  ir::Params params;
  std::function<double(std::mt19937&, std::size_t operand, std::int64_t element)> sample;
  // Where the JVP is checked against finite differences only for tangents of a subspace
  // (cholesky's rule, like JAX's, holds for symmetric ones): the projection onto it.
  std::function<void(std::size_t operand, std::vector<double>& tangent)> tangent_space = {};
};

ir::Aval f64(Dims s) { return {DType::f64, Shape(s), false}; }
ir::Aval typed(DType d, Dims s) { return {d, Shape(s), false}; }

double uniform(std::mt19937& g, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(g);
}
auto in_range(double lo, double hi) {
  return [=](std::mt19937& g, std::size_t, std::int64_t) { return uniform(g, lo, hi); };
}
/// Magnitudes in [lo, hi] with either sign: away from zero.
auto away_from_zero(double lo, double hi) {
  return [=](std::mt19937& g, std::size_t, std::int64_t) {
    return (g() % 2 ? 1 : -1) * uniform(g, lo, hi);
  };
}
/// Values at least 0.05 from every multiple of 0.5 (where floor, ceil, round and sign jump).
auto off_grid() {
  return [](std::mt19937& g, std::size_t, std::int64_t) {
    return std::floor(uniform(g, -4, 4)) * 0.5 + uniform(g, 0.05, 0.45);
  };
}
/// Distinct values (a shuffled ramp), so max/min have no ties.
auto distinct() {
  return [](std::mt19937& g, std::size_t k, std::int64_t i) {
    return 0.37 * static_cast<double>((i * 7 + static_cast<std::int64_t>(k) * 3 + 11) % 23) - 4 +
           uniform(g, 0, 0.01);
  };
}

ir::Params params(std::vector<ir::Param> items) {
  ir::Params p;
  p.items = std::move(items);
  return p;
}
ir::Param dims_param(const char* n, Dims v) { return {n, v, true}; }
ir::Param int_param(const char* n, std::int64_t v) { return {n, v, true}; }

ir::Params dot_params(Dims lc, Dims rc, Dims lb, Dims rb) {
  ir::Params p;
  ir::DotDims{lc, rc, lb, rb}.add_to(p);
  p.items.push_back({"preferred_element_type", DType::f64, true});
  return p;
}

/// The differentiable cases: every row of primitives.def with flag D, some more than once.
std::vector<Case> differentiable_cases() {
  const Dims s{2, 3};
  std::vector<Case> c;
  auto unary = [&](const char* n, ir::Prim p, auto sample, ir::Params ps = {}) {
    c.push_back({n, p, {f64(s)}, ps, sample});
  };
  unary("neg", ir::Prim::neg, in_range(-2, 2));
  unary("copy", ir::Prim::copy, in_range(-2, 2));
  unary("checkpoint_name", ir::Prim::checkpoint_name, in_range(-2, 2),
        params({{"name", std::string("hidden"), true}}));
  unary("exp", ir::Prim::exp, in_range(-2, 2));
  unary("log", ir::Prim::log, in_range(0.5, 3));
  unary("log1p", ir::Prim::log1p, in_range(-0.5, 2));
  unary("expm1", ir::Prim::expm1, in_range(-2, 2));
  unary("sin", ir::Prim::sin, in_range(-3, 3));
  unary("cos", ir::Prim::cos, in_range(-3, 3));
  unary("tan", ir::Prim::tan, in_range(-1.2, 1.2));
  unary("tanh", ir::Prim::tanh, in_range(-2, 2));
  unary("sqrt", ir::Prim::sqrt, in_range(0.5, 3));
  unary("rsqrt", ir::Prim::rsqrt, in_range(0.5, 3));
  unary("logistic", ir::Prim::logistic, in_range(-3, 3));
  unary("erf", ir::Prim::erf, in_range(-2, 2));
  unary("erf_inv", ir::Prim::erf_inv, in_range(-0.9, 0.9));
  unary("abs", ir::Prim::abs, away_from_zero(0.2, 2));
  unary("sign", ir::Prim::sign, off_grid());
  unary("floor", ir::Prim::floor, off_grid());
  unary("ceil", ir::Prim::ceil, off_grid());
  unary("round", ir::Prim::round, off_grid(), params({int_param("rounding_method", 1)}));
  unary("integer_pow 3", ir::Prim::integer_pow, in_range(-2, 2), params({int_param("y", 3)}));
  unary("integer_pow -2", ir::Prim::integer_pow, away_from_zero(0.5, 2),
        params({int_param("y", -2)}));
  unary("integer_pow 1", ir::Prim::integer_pow, in_range(-2, 2), params({int_param("y", 1)}));
  unary("asin", ir::Prim::asin, in_range(-0.9, 0.9));
  unary("acos", ir::Prim::acos, in_range(-0.9, 0.9));
  unary("atan", ir::Prim::atan, in_range(-3, 3));
  unary("sinh", ir::Prim::sinh, in_range(-2, 2));
  unary("cosh", ir::Prim::cosh, in_range(-2, 2));
  unary("asinh", ir::Prim::asinh, in_range(-3, 3));
  unary("acosh", ir::Prim::acosh, in_range(1.2, 4));
  unary("atanh", ir::Prim::atanh, in_range(-0.9, 0.9));
  unary("cbrt", ir::Prim::cbrt, away_from_zero(0.3, 3));
  unary("exp2", ir::Prim::exp2, in_range(-2, 2));
  unary("erfc", ir::Prim::erfc, in_range(-2, 2));
  unary("lgamma", ir::Prim::lgamma, in_range(0.3, 5));
  unary("digamma", ir::Prim::digamma, in_range(0.5, 4));
  unary("bessel_i0e", ir::Prim::bessel_i0e, away_from_zero(0.2, 10));
  unary("bessel_i1e", ir::Prim::bessel_i1e, away_from_zero(0.2, 10));
  unary("square", ir::Prim::square, in_range(-2, 2));
  auto binary = [&](const char* n, ir::Prim p, auto sample, Dims a = {2, 3}, Dims b = {2, 3}) {
    c.push_back({n, p, {f64(a), f64(b)}, {}, sample});
  };
  binary("add", ir::Prim::add, in_range(-2, 2));
  binary("add, size-1 broadcast", ir::Prim::add, in_range(-2, 2), {2, 3}, {1, 3});
  binary("add_any", ir::Prim::add_any, in_range(-2, 2));
  binary("sub", ir::Prim::sub, in_range(-2, 2));
  binary("mul", ir::Prim::mul, in_range(-2, 2));
  binary("mul, scalar operand", ir::Prim::mul, in_range(-2, 2), {}, {2, 3});
  binary("div", ir::Prim::div, away_from_zero(0.5, 2));
  binary("rem", ir::Prim::rem, [](std::mt19937& g, std::size_t k, std::int64_t) {
    // x / y stays within (1.2, 1.8): away from the integers where trunc jumps.
    return k == 0 ? uniform(g, 1.2, 1.8) : 1.0;
  });
  binary("pow", ir::Prim::pow, [](std::mt19937& g, std::size_t k, std::int64_t) {
    return k == 0 ? uniform(g, 0.5, 2) : uniform(g, -1.5, 1.5);
  });
  binary("atan2", ir::Prim::atan2, away_from_zero(0.3, 2));
  // a and x in (0.5, 4): both the series (x < 1 or x <= a) and the continued fraction.
  binary("igamma", ir::Prim::igamma, in_range(0.5, 4));
  binary("igammac", ir::Prim::igammac, in_range(0.5, 4));
  binary("max", ir::Prim::max, distinct());
  binary("min", ir::Prim::min, distinct());
  c.push_back({"select_n",
               ir::Prim::select_n,
               {typed(DType::bool_, s), f64(s), f64(s)},
               {},
               [](std::mt19937& g, std::size_t k, std::int64_t) {
                 return k == 0 ? static_cast<double>(g() % 2) : uniform(g, -2, 2);
               }});
  // clamp: x below min, between the bounds and above max (by element), away from all three.
  auto clamp_sample = [](std::mt19937& g, std::size_t k, std::int64_t i) {
    if (k != 1) return (k == 0 ? -1.0 : 1.0) * uniform(g, 0.8, 1.0);
    return 1.5 * static_cast<double>(i % 3 - 1) + uniform(g, -0.3, 0.3);
  };
  c.push_back({"clamp", ir::Prim::clamp, {f64(s), f64(s), f64(s)}, {}, clamp_sample});
  c.push_back(
      {"clamp, scalar bounds", ir::Prim::clamp, {f64({}), f64(s), f64({})}, {}, clamp_sample});
  c.push_back({"convert_element_type f64->f64",
               ir::Prim::convert_element_type,
               {f64(s)},
               params({{"new_dtype", DType::f64, true}, {"weak_type", false, true}}),
               in_range(-2, 2)});
  c.push_back({"broadcast_in_dim",
               ir::Prim::broadcast_in_dim,
               {f64({3})},
               params({dims_param("shape", {2, 3}), dims_param("broadcast_dimensions", {1})}),
               in_range(-2, 2)});
  c.push_back({"broadcast_in_dim, stretched size-1 dim",
               ir::Prim::broadcast_in_dim,
               {f64({1, 3})},
               params({dims_param("shape", {4, 3, 2}), dims_param("broadcast_dimensions", {0, 1})}),
               in_range(-2, 2)});
  c.push_back({"transpose",
               ir::Prim::transpose,
               {f64({2, 3, 4})},
               params({dims_param("permutation", {2, 0, 1})}),
               in_range(-2, 2)});
  c.push_back({"slice, strided",
               ir::Prim::slice,
               {f64({5, 7})},
               params({dims_param("start_indices", {1, 0}), dims_param("limit_indices", {5, 7}),
                       dims_param("strides", {2, 3})}),
               in_range(-2, 2)});
  c.push_back({"slice",
               ir::Prim::slice,
               {f64({5, 4})},
               params({dims_param("start_indices", {1, 1}),
                       dims_param("limit_indices", {4, 3}),
                       {"strides", std::string("None"), true}}),
               in_range(-2, 2)});
  c.push_back({"reshape",
               ir::Prim::reshape,
               {f64({2, 3})},
               params({dims_param("new_sizes", {3, 2}), {"dimensions", std::string("None"), true}}),
               in_range(-2, 2)});
  c.push_back({"rev",
               ir::Prim::rev,
               {f64({2, 3})},
               params({dims_param("dimensions", {1})}),
               in_range(-2, 2)});
  c.push_back({"squeeze",
               ir::Prim::squeeze,
               {f64({2, 1, 3})},
               params({dims_param("dimensions", {1})}),
               in_range(-2, 2)});
  c.push_back({"reduce_sum",
               ir::Prim::reduce_sum,
               {f64({2, 3, 4})},
               params({dims_param("axes", {0, 2})}),
               in_range(-2, 2)});
  c.push_back({"reduce_prod",
               ir::Prim::reduce_prod,
               {f64({2, 3})},
               params({dims_param("axes", {1})}),
               away_from_zero(0.5, 1.5)});
  // Rows with no zero, one zero and two zeros: the three branches of the exact derivative.
  c.push_back({"reduce_prod with zeros",
               ir::Prim::reduce_prod,
               {f64({3, 4})},
               params({dims_param("axes", {1})}),
               [](std::mt19937& g, std::size_t, std::int64_t i) {
                 const bool zero = i == 5 || i == 8 || i == 9;
                 return zero ? 0.0 : uniform(g, 0.5, 1.5);
               }});
  c.push_back({"reduce_max",
               ir::Prim::reduce_max,
               {f64({2, 5})},
               params({dims_param("axes", {1})}),
               distinct()});
  c.push_back({"reduce_min",
               ir::Prim::reduce_min,
               {f64({2, 5})},
               params({dims_param("axes", {0, 1})}),
               distinct()});
  c.push_back({"dot_general matmul",
               ir::Prim::dot_general,
               {f64({2, 3}), f64({3, 4})},
               dot_params({1}, {0}, {}, {}),
               in_range(-2, 2)});
  c.push_back({"dot_general batched",
               ir::Prim::dot_general,
               {f64({2, 3, 4}), f64({2, 4, 5})},
               dot_params({2}, {1}, {0}, {0}),
               in_range(-2, 2)});
  c.push_back({"dot_general transposed operands",
               ir::Prim::dot_general,
               {f64({3, 2}), f64({4, 3})},
               dot_params({0}, {1}, {}, {}),
               in_range(-2, 2)});
  c.push_back({"concatenate",
               ir::Prim::concatenate,
               {f64({2, 3}), f64({2, 2})},
               params({int_param("dimension", 1)}),
               in_range(-2, 2)});
  c.push_back({"stack",
               ir::Prim::stack,
               {f64({2, 3}), f64({2, 3})},
               params({int_param("axis", 1)}),
               in_range(-2, 2)});
  auto scan = [&](const char* n, ir::Prim p, std::int64_t axis, bool reverse) {
    c.push_back({n,
                 p,
                 {f64({3, 4})},
                 params({int_param("axis", axis), {"reverse", reverse, true}}),
                 in_range(-2, 2)});
  };
  scan("cumsum", ir::Prim::cumsum, 1, false);
  scan("cumsum reverse", ir::Prim::cumsum, 0, true);
  // cumprod, cummax and cummin through JAX's associative scan: lengths 5 (odd) and 4 (even)
  // along the axis; cummax and cummin on distinct values (no ties, where they have a kink).
  auto cum = [&](ir::Prim p, std::int64_t axis, bool reverse, auto sample) {
    c.push_back({std::string(ir::name(p)) + (reverse ? " reverse" : ""),
                 p,
                 {f64({5, 4})},
                 params({int_param("axis", axis), {"reverse", reverse, true}}),
                 sample});
  };
  cum(ir::Prim::cumprod, 0, false, away_from_zero(0.5, 1.5));
  cum(ir::Prim::cumprod, 1, true, away_from_zero(0.5, 1.5));
  for (auto p : {ir::Prim::cummax, ir::Prim::cummin}) {
    cum(p, 1, false, distinct());
    cum(p, 0, true, distinct());
  }
  auto sort_params = [](std::int64_t dim, std::int64_t keys) {
    return params(
        {int_param("dimension", dim), {"is_stable", true, true}, int_param("num_keys", keys)});
  };
  c.push_back({"sort", ir::Prim::sort, {f64({2, 5})}, sort_params(1, 1), distinct()});
  // Keys and a carried operand: the carried one's tangent moves with the keys' permutation.
  c.push_back({"sort, keys and values",
               ir::Prim::sort,
               {f64({4, 3}), f64({4, 3})},
               sort_params(0, 1),
               distinct()});
  c.push_back({"top_k",
               ir::Prim::top_k,
               {f64({2, 5})},
               params({int_param("k", 3), int_param("axis", 1)}),
               distinct()});
  auto index_or = [](std::size_t first_index, std::vector<double> starts) {
    return [=](std::mt19937& g, std::size_t k, std::int64_t) {
      return k >= first_index ? starts[k - first_index] : uniform(g, -2, 2);
    };
  };
  c.push_back({"dynamic_slice",
               ir::Prim::dynamic_slice,
               {f64({5, 4}), typed(DType::i32, {}), typed(DType::i32, {})},
               params({dims_param("slice_sizes", {2, 3})}),
               index_or(1, {2, 1})});
  c.push_back({"dynamic_update_slice",
               ir::Prim::dynamic_update_slice,
               {f64({5, 4}), f64({2, 3}), typed(DType::i32, {}), typed(DType::i32, {})},
               {},
               index_or(2, {1, 1})});
  // custom_jvp_call: call_jaxpr exp(x) * y, differentiated by its rule (written apart from the
  // body: t_x * out + t_y * exp(x)), with a scalar second operand to exercise broadcasting.
  {
    ir::GraphBuilder body;
    const ir::Atom x = ir::Atom::of_var(body.add_invar(f64({2, 3})));
    const ir::Atom y = ir::Atom::of_var(body.add_invar(f64({})));
    body.graph.outvars = {body.emit1(ir::Prim::mul, {body.emit1(ir::Prim::exp, {x}), y})};
    auto rule = std::make_shared<const ir::FunctionJvpRule>(
        "exp_mul_jvp", [](ir::GraphBuilder& b, const std::vector<ir::Atom>& p,
                          const std::vector<ir::Atom>& o, const std::vector<ir::Atom>& t) {
          const ir::Atom tx = b.emit1(ir::Prim::mul, {t[0], o[0]});
          const ir::Atom ty = b.emit1(ir::Prim::mul, {t[1], b.emit1(ir::Prim::exp, {p[0]})});
          return std::vector<ir::Atom>{b.emit1(ir::Prim::add, {tx, ty})};
        });
    c.push_back({"custom_jvp_call",
                 ir::Prim::custom_jvp_call,
                 {f64({2, 3}), f64({})},
                 ir::custom_jvp_params(
                     "exp_mul", std::make_shared<const ir::Graph>(std::move(body.graph)), rule),
                 in_range(-1, 1)});
  }
  // Linear algebra: matrices with a dominant diagonal (positive definite, well conditioned).
  auto dominant = [](double lo, double hi) {
    return [=](std::mt19937& g, std::size_t k, std::int64_t i) {
      return k == 0 && i % 9 % 4 == 0 ? uniform(g, lo, hi) : uniform(g, -0.5, 0.5);
    };
  };
  auto symmetric = [](std::size_t, std::vector<double>& t) {  // 3x3 matrices, batched or not
    for (std::size_t m = 0; m < t.size(); m += 9)
      for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t q = 0; q < r; ++q) t[m + q * 3 + r] = t[m + r * 3 + q];
  };
  c.push_back({"cholesky", ir::Prim::cholesky, {f64({3, 3})}, {}, dominant(3, 4), symmetric});
  c.push_back(
      {"cholesky batched", ir::Prim::cholesky, {f64({2, 3, 3})}, {}, dominant(3, 4), symmetric});
  // eigh: eigenvalues near 0, 2 and 4 (diagonal) with off-diagonal entries below 0.3, so the
  // gaps (which the rule divides by) stay near 2 and each eigenvector's sign is stable under
  // the differences' steps; tangents symmetric, as JAX's rule assumes.
  auto separated = [](std::mt19937& g, std::size_t, std::int64_t i) {
    const std::int64_t r = i % 9 / 3, q = i % 3;
    return r == q ? 2.0 * static_cast<double>(r) + uniform(g, -0.2, 0.2) : uniform(g, -0.3, 0.3);
  };
  auto eigh_params = [](bool lower) {
    return params({{"algorithm", std::string("None"), true},
                   {"lower", lower, true},
                   {"sort_eigenvalues", true, true},
                   {"subset_by_index", std::string("None"), true}});
  };
  c.push_back({"eigh", ir::Prim::eigh, {f64({3, 3})}, eigh_params(true), separated, symmetric});
  c.push_back({"eigh upper, batched",
               ir::Prim::eigh,
               {f64({2, 3, 3})},
               eigh_params(false),
               separated,
               symmetric});
  // qr: a dominant positive diagonal keeps r well conditioned and each Householder column's
  // leading entry away from 0, where LAPACK's (and Eigen's) sign choice flips.
  auto qr_sample = [](std::int64_t m, std::int64_t n) {
    return [=](std::mt19937& g, std::size_t, std::int64_t i) {
      return i % (m * n) / n == i % n ? uniform(g, 2, 3) : uniform(g, -0.5, 0.5);
    };
  };
  auto qr_params = [](bool full) {
    return params({{"full_matrices", full, true},
                   {"pivoting", false, true},
                   {"use_magma", std::string("None"), true}});
  };
  c.push_back({"qr, m > n", ir::Prim::qr, {f64({4, 3})}, qr_params(false), qr_sample(4, 3)});
  c.push_back({"qr square full_matrices, batched",
               ir::Prim::qr,
               {f64({2, 3, 3})},
               qr_params(true),
               qr_sample(3, 3)});
  // svd's singular values (compute_uv=False, the matrix norms' use): the qr matrices, whose
  // singular values are distinct and away from 0 (the rule holds where they are simple).
  auto svd_params = [](bool uv, bool full) {
    return params({{"algorithm", std::string("None"), true},
                   {"compute_uv", uv, true},
                   {"full_matrices", full, true},
                   {"subset_by_index", std::string("None"), true}});
  };
  c.push_back({"svd singular values, m > n",
               ir::Prim::svd,
               {f64({4, 3})},
               svd_params(false, true),
               qr_sample(4, 3)});
  c.push_back({"svd singular values, m < n, batched",
               ir::Prim::svd,
               {f64({2, 3, 4})},
               svd_params(false, false),
               qr_sample(3, 4)});
  // With u and v^T (output 0, checked against differences, is still s; the transpose check
  // covers all three through the tangent map's transpose).
  c.push_back({"svd thin u, s, v^T, m > n",
               ir::Prim::svd,
               {f64({4, 3})},
               svd_params(true, false),
               qr_sample(4, 3)});
  c.push_back({"svd thin u, s, v^T, m < n, batched",
               ir::Prim::svd,
               {f64({2, 3, 4})},
               svd_params(true, false),
               qr_sample(3, 4)});
  c.push_back(
      {"svd full square", ir::Prim::svd, {f64({3, 3})}, svd_params(true, true), qr_sample(3, 3)});
  auto solve = [](bool left, bool lower, bool transpose, bool unit) {
    return params({{"conjugate_a", false, true},
                   {"left_side", left, true},
                   {"lower", lower, true},
                   {"transpose_a", transpose, true},
                   {"unit_diagonal", unit, true}});
  };
  c.push_back({"triangular_solve left lower",
               ir::Prim::triangular_solve,
               {f64({3, 3}), f64({3, 2})},
               solve(true, true, false, false),
               dominant(1.5, 2.5)});
  c.push_back({"triangular_solve left upper transposed, m < n",
               ir::Prim::triangular_solve,
               {f64({3, 3}), f64({3, 4})},
               solve(true, false, true, false),
               dominant(1.5, 2.5)});
  c.push_back({"triangular_solve right lower unit diagonal, m < n",
               ir::Prim::triangular_solve,
               {f64({3, 3}), f64({2, 3})},
               solve(false, true, false, true),
               dominant(1.5, 2.5)});
  c.push_back({"triangular_solve right upper transposed, batched",
               ir::Prim::triangular_solve,
               {f64({2, 3, 3}), f64({2, 4, 3})},
               solve(false, false, true, false),
               dominant(1.5, 2.5)});
  // lu: random entries (pivoting happens; no column has two entries of equal magnitude, so a
  // small step keeps the pivots), square, tall and batched wide.
  c.push_back({"lu", ir::Prim::lu, {f64({3, 3})}, {}, away_from_zero(0.2, 2)});
  c.push_back({"lu tall", ir::Prim::lu, {f64({4, 3})}, {}, away_from_zero(0.2, 2)});
  c.push_back({"lu batched wide", ir::Prim::lu, {f64({2, 3, 4})}, {}, away_from_zero(0.2, 2)});
  // custom_linear_solve: L x = b for a lower-triangular L, each of the four functions taking L
  // as its const (matvec L x, vecmat L^T x, solve and transpose_solve by triangular_solve). As
  // jnp.linalg.solve passes one matrix to them all, the four operands hold the same values and
  // tangents (copied from operand 0, which the sampler and the projection see first); tangents
  // lower-triangular, as solve reads that triangle only.
  {
    auto part = [](const ir::Params& p, bool dot) {
      ir::GraphBuilder g;
      const ir::Atom l = ir::Atom::of_var(g.add_invar(f64({3, 3})));
      const ir::Atom x = ir::Atom::of_var(g.add_invar(f64({3, 2})));
      g.graph.outvars = {
          g.emit1(dot ? ir::Prim::dot_general : ir::Prim::triangular_solve, {l, x}, p)};
      return std::make_shared<const ir::Graph>(std::move(g.graph));
    };
    auto value = std::make_shared<std::vector<double>>();
    auto tangent = std::make_shared<std::vector<double>>();
    auto sample = [value](std::mt19937& g, std::size_t k, std::int64_t i) {
      if (k == 4) return uniform(g, -1, 1);
      if (k > 0) return (*value)[static_cast<std::size_t>(i)];
      if (i == 0) value->clear();
      const std::int64_t r = i / 3, col = i % 3;
      value->push_back(col > r ? 0 : col == r ? uniform(g, 1.5, 2.5) : uniform(g, -0.5, 0.5));
      return value->back();
    };
    auto tied = [tangent](std::size_t k, std::vector<double>& t) {
      if (k == 4) return;
      if (k > 0) {
        t = *tangent;
        return;
      }
      for (std::size_t i = 0; i < t.size(); ++i)
        if (i % 3 > i / 3) t[i] = 0;
      *tangent = t;
    };
    c.push_back(
        {"custom_linear_solve",
         ir::Prim::custom_linear_solve,
         {f64({3, 3}), f64({3, 3}), f64({3, 3}), f64({3, 3}), f64({3, 2})},
         ir::linear_solve_params({1, 1, 1, 1}, {part(dot_params({1}, {0}, {}, {}), true),
                                                part(dot_params({0}, {0}, {}, {}), true),
                                                part(solve(true, true, false, false), false),
                                                part(solve(true, true, true, false), false)}),
         sample,
         tied});
  }
  // gather / scatter-add: in-range indices with repeats (so the transposes accumulate).
  auto index_params = [](ir::IndexDims d, bool scatter, Dims slice_sizes, const char* mode) {
    ir::Params p;
    d.add_to(p, scatter);
    p.items.push_back({"indices_are_sorted", false, true});
    p.items.push_back({"unique_indices", false, true});
    p.items.push_back({"mode", std::string(mode), true});
    if (!scatter) {
      p.items.push_back({"slice_sizes", slice_sizes, true});
      p.items.push_back({"fill_value", std::string("None"), true});
    }
    return p;
  };
  auto indices_below = [](std::int64_t n) {
    return [=](std::mt19937& g, std::size_t k, std::int64_t i) {
      return k == 1 ? static_cast<double>(i * 2 % n) : uniform(g, -2, 2);
    };
  };
  c.push_back(
      {"gather rows",
       ir::Prim::gather,
       {f64({5, 3}), typed(DType::i32, {6, 1})},
       index_params({{1}, {0}, {0}, {}, {}}, false, {1, 3}, "GatherScatterMode.PROMISE_IN_BOUNDS"),
       indices_below(5)});
  c.push_back(
      {"gather with batching dims (take_along_axis)",
       ir::Prim::gather,
       {f64({4, 3}), typed(DType::i32, {2, 3, 1})},
       index_params({{}, {0}, {0}, {1}, {1}}, false, {1, 1}, "GatherScatterMode.FILL_OR_DROP"),
       indices_below(4)});
  c.push_back({"scatter-add rows",
               ir::Prim::scatter_add,
               {f64({5, 3}), typed(DType::i32, {6, 1}), f64({6, 3})},
               index_params({{1}, {0}, {0}, {}, {}}, true, {}, "GatherScatterMode.FILL_OR_DROP"),
               indices_below(5)});
  c.push_back({"scatter-add elements, clip",
               ir::Prim::scatter_add,
               {f64({4, 3}), typed(DType::i32, {5, 2}), f64({5})},
               index_params({{}, {0, 1}, {0, 1}, {}, {}}, true, {}, "GatherScatterMode.CLIP"),
               indices_below(3)});
  // The other scatters on the same rows, repeats included: scatter's last update wins, and
  // scatter-min/-max's contenders are continuous draws (ties have probability zero).
  // scatter-mul's derivative in its updates needs unique indices (0, 2, 4 here).
  const ir::IndexDims rows{{1}, {0}, {0}, {}, {}};
  const auto drop = "GatherScatterMode.FILL_OR_DROP";
  c.push_back({"scatter rows",
               ir::Prim::scatter,
               {f64({5, 3}), typed(DType::i32, {6, 1}), f64({6, 3})},
               index_params(rows, true, {}, drop),
               indices_below(5)});
  c.push_back({"scatter-max rows",
               ir::Prim::scatter_max,
               {f64({5, 3}), typed(DType::i32, {6, 1}), f64({6, 3})},
               index_params(rows, true, {}, drop),
               indices_below(5)});
  c.push_back({"scatter-min elements, clip",
               ir::Prim::scatter_min,
               {f64({4, 3}), typed(DType::i32, {5, 2}), f64({5})},
               index_params({{}, {0, 1}, {0, 1}, {}, {}}, true, {}, "GatherScatterMode.CLIP"),
               indices_below(3)});
  ir::Params unique_rows = index_params(rows, true, {}, drop);
  for (auto& item : unique_rows.items)
    if (item.name == "unique_indices") item.value = true;
  c.push_back({"scatter-mul rows, unique indices",
               ir::Prim::scatter_mul,
               {f64({5, 3}), typed(DType::i32, {3, 1}), f64({3, 3})},
               unique_rows,
               indices_below(5)});
  // pad (negative lo/hi crop, interior padding) and tile.
  c.push_back({"pad with cropping and interior padding",
               ir::Prim::pad,
               {f64({3, 4}), f64({})},
               ir::PadConfig{{1, -1}, {-1, 2}, {1, 0}, {}}.params(),
               in_range(-2, 2)});
  c.push_back({"pad cropping both ends of one axis",
               ir::Prim::pad,
               {f64({4}), f64({})},
               ir::PadConfig{{-1}, {-2}, {2}, {}}.params(),
               in_range(-2, 2)});
  c.push_back({"tile",
               ir::Prim::tile,
               {f64({2, 3})},
               params({dims_param("reps", {2, 3})}),
               in_range(-2, 2)});
  c.push_back({"split into three pieces, one empty",
               ir::Prim::split,
               {f64({2, 5})},
               params({int_param("axis", 1), dims_param("sizes", {2, 0, 3})}),
               in_range(-2, 2)});
  return c;
}

/// Primitives that take no float derivative: batching rules only.
std::vector<Case> other_cases() {
  const Dims s{2, 3};
  auto ints = [](std::mt19937& g, std::size_t, std::int64_t) {
    return static_cast<double>(static_cast<int>(g() % 7));
  };
  auto bits = [](std::mt19937& g, std::size_t, std::int64_t) { return double(g() % 2); };
  std::vector<Case> c;
  for (auto p :
       {ir::Prim::lt, ir::Prim::le, ir::Prim::gt, ir::Prim::ge, ir::Prim::eq, ir::Prim::ne})
    c.push_back(
        {std::string(ir::name(p)), p, {typed(DType::i32, s), typed(DType::i32, s)}, {}, ints});
  for (auto p : {ir::Prim::and_, ir::Prim::or_, ir::Prim::xor_})
    c.push_back(
        {std::string(ir::name(p)), p, {typed(DType::bool_, s), typed(DType::bool_, s)}, {}, bits});
  c.push_back({"not", ir::Prim::not_, {typed(DType::bool_, s)}, {}, bits});
  for (auto p :
       {ir::Prim::shift_left, ir::Prim::shift_right_arithmetic, ir::Prim::shift_right_logical})
    c.push_back(
        {std::string(ir::name(p)), p, {typed(DType::i32, s), typed(DType::i32, s)}, {}, ints});
  c.push_back({"stop_gradient", ir::Prim::stop_gradient, {f64(s)}, {}, in_range(-2, 2)});
  // Zero derivative (is_finite: a bool result; nextafter and zeta: JAX defines none and neither
  // does fusejit) or integer-only; polygamma has none in its order m (it raises ValueError, as
  // JAX's rule; its derivative in x is checked against JAX and central differences in
  // test_math_golden.cpp), its batching rule is checked here, at whole orders.
  c.push_back({"is_finite", ir::Prim::is_finite, {f64(s)}, {}, in_range(-2, 2)});
  c.push_back({"nextafter", ir::Prim::nextafter, {f64(s), f64(s)}, {}, in_range(-2, 2)});
  // igamma_grad_a and random_gamma_grad: no derivatives (JAX defines none).
  for (auto p : {ir::Prim::igamma_grad_a, ir::Prim::random_gamma_grad})
    c.push_back({std::string(ir::name(p)), p, {f64(s), f64(s)}, {}, in_range(0.5, 4)});
  // zeta(x, q): no derivative (JAX's lax.zeta has none; scipy's custom_jvp is not the primitive).
  c.push_back({"zeta",
               ir::Prim::zeta,
               {f64(s), f64(s)},
               {},
               [](std::mt19937& g, std::size_t k, std::int64_t) {
                 return k == 0 ? uniform(g, 1.5, 6) : uniform(g, 0.5, 4);
               }});
  c.push_back({"polygamma",
               ir::Prim::polygamma,
               {f64(s), f64(s)},
               {},
               [](std::mt19937& g, std::size_t k, std::int64_t) {
                 return k == 0 ? std::floor(uniform(g, 0, 4)) : uniform(g, 0.5, 4);
               }});
  // svd with full u and v^T of a non-square matrix: JVP undefined, as JAX's (it raises
  // NotImplementedError, tested in test_linalg_spectral.cpp); its batching rule is checked here.
  c.push_back({"svd with full u and v^T",
               ir::Prim::svd,
               {f64({3, 2})},
               params({{"algorithm", std::string("None"), true},
                       {"compute_uv", true, true},
                       {"full_matrices", true, true},
                       {"subset_by_index", std::string("None"), true}}),
               in_range(-2, 2)});
  for (auto p : {ir::Prim::population_count, ir::Prim::clz})
    c.push_back({std::string(ir::name(p)), p, {typed(DType::i32, s)}, {}, ints});
  c.push_back({"bitcast_convert_type f64->i64",
               ir::Prim::bitcast_convert_type,
               {f64(s)},
               params({{"new_dtype", DType::i64, true}}),
               in_range(-2, 2)});
  c.push_back(
      {"threefry2x32",
       ir::Prim::threefry2x32,
       {typed(DType::u32, s), typed(DType::u32, s), typed(DType::u32, s), typed(DType::u32, s)},
       {},
       [](std::mt19937& g, std::size_t, std::int64_t) { return double(g()); }});
  for (auto p : {ir::Prim::reduce_and, ir::Prim::reduce_or})
    c.push_back({std::string(ir::name(p)),
                 p,
                 {typed(DType::bool_, {2, 3})},
                 params({dims_param("axes", {1})}),
                 bits});
  for (auto p : {ir::Prim::argmax, ir::Prim::argmin})
    c.push_back({std::string(ir::name(p)),
                 p,
                 {f64({2, 5})},
                 params({dims_param("axes", {1}), {"index_dtype", DType::i32, true}}),
                 distinct()});
  return c;
}

}  // namespace transform_rule_cases
