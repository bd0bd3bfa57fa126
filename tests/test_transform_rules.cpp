// Every transformation rule against an independent reference: each differentiable primitive's
// JVP against central finite differences in f64 and its VJP against its JVP (the transpose
// identity <vjp(u), v> = <u, jvp(v)>); each batching rule against stacking per-example results
// for in_axes 0, 1 and none; and a walk of the primitive table for missing rules.
#include <doctest/doctest.h>

#include <cmath>
#include <fusejit/fusejit.hpp>
#include <fusejit/ir/pad_config.hpp>
#include <fusejit/ir/passes/dce.hpp>
#include <functional>
#include <random>
#include <set>

namespace {

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
  binary("max", ir::Prim::max, distinct());
  binary("min", ir::Prim::min, distinct());
  c.push_back({"select_n",
               ir::Prim::select_n,
               {typed(DType::bool_, s), f64(s), f64(s)},
               {},
               [](std::mt19937& g, std::size_t k, std::int64_t) {
                 return k == 0 ? static_cast<double>(g() % 2) : uniform(g, -2, 2);
               }});
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
  // Zero derivative (is_finite: a bool result; nextafter: JAX defines none and neither does
  // fusejit) or integer-only; digamma's derivative raises NotImplementedError (tested in
  // test_math_golden.cpp), its batching rule is checked here.
  c.push_back({"is_finite", ir::Prim::is_finite, {f64(s)}, {}, in_range(-2, 2)});
  c.push_back({"nextafter", ir::Prim::nextafter, {f64(s), f64(s)}, {}, in_range(-2, 2)});
  c.push_back({"digamma", ir::Prim::digamma, {f64(s)}, {}, in_range(0.5, 4)});
  // cumprod, cummax and cummin: JVPs not yet written (they raise NotImplementedError, tested in
  // test_sort_golden.cpp); their batching rules are checked here.
  for (auto p : {ir::Prim::cumprod, ir::Prim::cummax, ir::Prim::cummin})
    c.push_back({std::string(ir::name(p)),
                 p,
                 {f64({3, 4})},
                 params({int_param("axis", 1), {"reverse", true, true}}),
                 distinct()});
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
  std::set<ir::Prim> tested;
  for (auto& c : differentiable_cases()) tested.insert(c.prim);
  for (auto& c : other_cases()) tested.insert(c.prim);
  for (int i = 0; i < ir::kNumPrims; ++i) {
    const auto p = static_cast<ir::Prim>(i);
    const auto& info = ir::info(p);
    // jit is inlined before any transformation and fused exists only inside a backend.
    if (p == ir::Prim::jit || p == ir::Prim::fused) continue;
    CAPTURE(info.name);
    CHECK(fj::transforms::has_batch_rule(p));
    if (info.flags & ir::prim_flags::D) {
      CHECK(fj::transforms::has_jvp_rule(p));
      // while_loop is forward-only, as in JAX (its reverse rule raises; tested with lax).
      CHECK(fj::transforms::has_vjp_rule(p) == (p != ir::Prim::while_));
    }
    // A rule nobody exercises is a rule nobody checked: every primitive with operands has a case
    // (the callbacks' rules, which call C++ functions, in test_debug_print/callback.cpp).
    if (info.arity != 0 && info.kind != ir::PrimKind::control &&
        info.kind != ir::PrimKind::callback)
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
      CHECK(values(jout[0]) == values(run(g, arrays(c, x))[0]));  // the primal is untouched

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
    default:
      return {call(std::integral_constant<std::size_t, 4>{})};
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
