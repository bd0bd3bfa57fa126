// The differential check of one fuzz program: the reference interpreter against another backend.
//
// An exact program (generator.hpp) runs whole on both and must agree bit for bit (NaN where NaN,
// +0 and -0 alike). Any other program exposes every intermediate; the target runs it whole and
// each equation is then rerun alone on the reference, on the target's own operand values, and
// compared within that primitive's bound (per_op_bound): rounding differences never compound,
// and a wrong value is pinned to one equation.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "generator.hpp"

namespace fusejit_fuzz {

using fj::backend::Value;

/// Allowed distance between a backend's element and the reference's: within `ulps` ulps, or
/// within `abs` absolutely; `skip` when the result depends on evaluation order beyond any bound
/// (a reduction whose partial sums overflow).
struct Bound {
  double ulps = 0;
  double abs = 0;
  bool skip = false;
};

struct Failure {
  std::uint64_t seed = 0;
  std::string message;
  int eqn = -1;  // the equation whose result differs (-1: a whole-program difference)
};

namespace check_detail {

/// Compiles and runs `g` on backend `name` (the default backend is switched for the call).
inline std::vector<Value> run_on(const std::string& name, const ir::GraphPtr& g,
                                 const std::vector<Value>& inputs) {
  struct Restore {
    std::string prev;
    ~Restore() { fj::set_default_backend(prev); }
  } restore{std::string(fj::backend::default_backend().name())};
  fj::set_default_backend(name);
  auto exe = fj::backend::default_backend().compile(g);
  return exe->run(inputs);
}

inline double element(const Value& v, std::int64_t i) {
  return fj::visit_dtype(v.aval.dtype, [&](auto x) {
    using T = decltype(x);
    return static_cast<double>(static_cast<const T*>(v.buf->data)[i]);
  });
}

inline std::uint64_t ulp_distance(double a, double b, bool f32) {
  auto key = [&](double x) -> std::int64_t {
    if (f32) {
      const float f = static_cast<float>(x);
      std::int32_t i;
      std::memcpy(&i, &f, sizeof i);
      return i < 0 ? std::int64_t{INT32_MIN} - i : i;
    }
    std::int64_t i;
    std::memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
  };
  const std::int64_t ka = key(a), kb = key(b);
  return ka > kb ? static_cast<std::uint64_t>(ka) - static_cast<std::uint64_t>(kb)
                 : static_cast<std::uint64_t>(kb) - static_cast<std::uint64_t>(ka);
}

/// The flat index into an operand of shape `in` that NumPy broadcasting reads for flat output
/// index `i` of shape `out` (dims aligned on the right, size-1 dims read at 0).
inline std::int64_t broadcast_source(std::int64_t i, const Shape& out, const Shape& in) {
  std::int64_t src = 0, stride = 1;
  for (int d = out.rank() - 1, e = in.rank() - 1; d >= 0; --d, --e) {
    const std::int64_t coord = i % out[d];
    i /= out[d];
    if (e < 0) continue;
    if (in[e] != 1) src += coord * stride;
    stride *= in[e];
  }
  return src;
}

inline std::string value_text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

/// Compares one output; the first differing element's description, or nothing.
template <class BoundAt>
std::optional<std::string> compare(const Value& got, const Value& want, BoundAt bound_at) {
  if (!(got.aval.dtype == want.aval.dtype) || !(got.aval.shape == want.aval.shape))
    return "aval " + got.aval.str() + " against the reference's " + want.aval.str();
  const bool is_float = fj::is_float(got.aval.dtype), f32 = got.aval.dtype == DType::f32;
  for (std::int64_t i = 0; i < got.aval.shape.size(); ++i) {
    const double g = element(got, i), w = element(want, i);
    if (!is_float) {
      if (g == w) continue;
    } else {
      const Bound b = bound_at(i);
      if (b.skip) continue;
      if (std::isnan(g) || std::isnan(w)) {
        if (std::isnan(g) && std::isnan(w)) continue;
      } else if (g == w || static_cast<double>(ulp_distance(g, w, f32)) <= b.ulps ||
                 std::abs(g - w) <= b.abs) {
        continue;
      }
    }
    return "element " + std::to_string(i) + ": " + value_text(g) + " against the reference's " +
           value_text(w);
  }
  return std::nullopt;
}

inline double ulp_of(double magnitude, bool f32) {
  const double m = std::abs(magnitude);
  if (!std::isfinite(m)) return INFINITY;
  return f32 ? static_cast<double>(std::nextafter(static_cast<float>(m), INFINITY) -
                                   static_cast<float>(m))
             : std::nextafter(m, INFINITY) - m;
}

/// A single-equation graph of `e` (from `g`), its var operands as invars, every result an
/// outvar; `abs_f64` converts float operands to f64 magnitudes first (for error bounds).
inline ir::GraphPtr single(const ir::Graph& g, const ir::Eqn& e, bool abs_f64 = false) {
  ir::GraphBuilder b;
  std::vector<ir::Atom> in;
  for (const ir::Atom& a : e.in) {
    if (a.is_literal()) {
      ir::Literal l = a.lit;
      if (abs_f64 && fj::is_float(l.dtype)) l.f = std::abs(l.f), l.dtype = DType::f64;
      in.push_back(ir::Atom::of_literal(l));
      continue;
    }
    ir::Aval av = g.aval(a.var);
    if (abs_f64 && fj::is_float(av.dtype)) av.dtype = DType::f64;
    in.push_back(ir::Atom::of_var(b.add_invar(av)));
  }
  ir::Params ps = e.params;
  if (abs_f64)
    for (auto& p : ps.items)
      if (p.name == "preferred_element_type") p.value = DType::f64;
  b.graph.outvars = b.emit(e.prim, in, ps);
  return std::make_shared<const ir::Graph>(std::move(b.graph));
}

inline Value abs_f64(const Value& v) {
  if (!fj::is_float(v.aval.dtype)) return v;
  const std::int64_t n = v.aval.shape.size();
  auto buf = fj::runtime::allocate(static_cast<std::size_t>(n) * sizeof(double));
  for (std::int64_t i = 0; i < n; ++i) static_cast<double*>(buf->data)[i] = std::abs(element(v, i));
  return {std::move(buf), {DType::f64, v.aval.shape, false}};
}

}  // namespace check_detail

/// Compiles and runs a graph on the backend under test.
using Runner = std::function<std::vector<Value>(const ir::GraphPtr&, const std::vector<Value>&)>;

inline Runner on_backend(const std::string& name) {
  return [name](const ir::GraphPtr& g, const std::vector<Value>& in) {
    return check_detail::run_on(name, g, in);
  };
}

/// The bound for primitive `p`'s float results (the rest are exact), from the reference backend
/// run on the operands' magnitudes where the bound depends on them. Transcendentals: each backend
/// is within its documented bound of the exact result (docs/MATH.md and the reference's measured
/// bounds), so the two may differ by their sum, rounded up, as in tests/test_llvm_backend.cpp.
/// add and sub: the LLVM backend may contract a * b + c into one fused multiply-add, whose exact
/// sum differs from the rounded product plus c by at most half an ulp of the product, an operand.
/// Rounded, the two land at most one ulp of the larger operand apart, or, when the sum carries
/// into the next binade, one ulp of the result (two of the operands'): seed 7260, 82.38 + 0.8435
/// * 82.38 = 151.868, 2^-16 apart where the operands' ulp is 2^-17. So one ulp of the larger of
/// the operands and the result (and FLT_MAX against inf at the overflow edge, one ulp too). Sums
/// and products of n terms (reduce_sum, dot_general) are reassociated (vector lanes, blocks, GEMM
/// panels): (n + 2) eps times the sum of magnitudes, plus, for dot_general, n smallest subnormals
/// for products that underflow.
class PerOpBound {
 public:
  PerOpBound(const ir::Graph& g, const ir::Eqn& e, const std::vector<Value>& operands)
      : g_(g), e_(e), ops_(operands) {
    using P = ir::Prim;
    const ir::Aval out = g.aval(e.out.at(0));
    f32_ = out.dtype == DType::f32;
    eps_ = f32_ ? 0x1.0p-24 : 0x1.0p-53;
    switch (e.prim) {
      case P::exp:
      case P::rsqrt:
      case P::tanh:
      case P::pow:
        ulps_ = 4;
        break;
      case P::expm1:
      case P::erf:
        ulps_ = 5;
        break;
      case P::log:
      case P::log1p:
        ulps_ = 3;
        break;
      case P::sin:
      case P::cos:
      case P::logistic:
        ulps_ = 6;
        break;
      case P::tan:
        ulps_ = 8;
        break;
      // Issue 19's functions: the LLVM polynomials' bounds (docs/MATH.md) plus the reference's
      // half ulp, rounded up.
      case P::asin:
      case P::acos:
      case P::atan:
      case P::atan2:
      case P::sinh:
      case P::cosh:
      case P::asinh:
      case P::acosh:
      case P::atanh:
      case P::exp2:
      case P::erfc:
        ulps_ = 4;
        break;
      case P::cbrt:
        ulps_ = 2;
        break;
      case P::lgamma:
      case P::digamma:
        // Both have zeros (lgamma at 1, 2 and once between negative integers; digamma at 1.46
        // and likewise), next to which the error is absolute: 8 ulps of 1 there (docs/MATH.md).
        // Below 0 both are reflections whose two terms cancel, so the absolute error is 8 ulps
        // of the terms' size instead (at()).
        ulps_ = 8;
        abs_floor_ = 8 * eps_;
        reflected_ = true;
        break;
      case P::bessel_i0e:
      case P::bessel_i1e:
        // The LLVM backend evaluates Cephes' Chebyshev series as XLA does (f32 in f32), the
        // reference the defining series in long double: the series' own error (docs/MATH.md:
        // the exhaustive sweep's and a sample's) is up to 7.7 / 13.8 ulps in f32 and 8.0 / 11.9
        // in f64; plus the reference's half ulp, rounded up.
        ulps_ = f32_ ? 15 : 13;
        break;
      case P::igamma:
      case P::igammac:
      case P::igamma_grad_a:
      case P::random_gamma_grad:
        // Both backends run XLA's series and continued fraction (the reference in long double);
        // the LLVM backend's x^a e^-x / Gamma(a) carries its format's roundings of a log x, x
        // and lgamma(a), each relative to its own size (at()).
        ulps_ = 16;
        incomplete_gamma_ = true;
        break;
      case P::zeta:
      case P::polygamma:
        // Both backends sum the same ten terms and Euler-Maclaurin tail (the reference in long
        // double, the LLVM backend with f64 powers, f32 through f64), each within a few ulps:
        // 8 ulps of the result, or of the terms' magnitude where they cancel (at()).
        ulps_ = 8;
        summed_terms_ = true;
        break;
      case P::erf_inv:
        // f32: XLA's polynomial, the same fused multiply-adds on both backends (bit-exact, as
        // normal() must be). f64: the same pieces on both (ir/erf_inv.hpp), each backend's own
        // log and log1p inside; each result is within 3 ulps of exact (docs/MATH.md, checked
        // against mpmath in tests/test_jax_numerics.cpp), so they differ by 6 at most.
        ulps_ = f32_ ? 0 : 6;
        break;
      case P::add:
      case P::add_any:
      case P::sub:
        contracted_ = true;
        ulps_ = 1;  // of the result; the operands' ulp is the abs part of at()
        break;
      case P::reduce_sum:
      case P::dot_general:
        magnitudes_ = magnitude_run();
        terms_ = terms();
        break;
      case P::reduce_prod:
        magnitudes_ = magnitude_run();
        terms_ = terms();
        ulps_ = static_cast<double>(2 * terms_ + 2);
        break;
      default:
        break;
    }
  }

  Bound at(std::int64_t i) const {
    Bound b;
    b.ulps = ulps_;
    b.abs = abs_floor_;
    if (reflected_) {
      // digamma(x) = digamma(1 - x) - pi cot(pi x) and lgamma(x) = log(pi / |sin(pi x)|) -
      // lgamma(1 - x): each term is about log(1 - x) (digamma) or (1 - x) log(1 - x) (lgamma)
      // in size, so a result near 0 keeps the terms' absolute error (seed 362 at width v3:
      // digamma(-95.81) = -0.1526, 10 eps apart, the terms 4.6 in size).
      const double x = check_detail::element(ops_.at(0), i);
      if (x < 0) {
        const double log_term = std::log1p(-x);
        const double size = e_.prim == ir::Prim::digamma ? log_term : (1 - x) * log_term;
        b.abs = std::max(b.abs, 8 * eps_ * size);
      }
    }
    if (incomplete_gamma_) {
      // 16 ulps of (1 + |a log x| + |x| + |lgamma(a)|), relative to the result and as an absolute
      // error (Q = 1 - P and the derivatives' differences cancel to far less than their terms).
      const double a = operand(0, i), x = operand(1, i);
      // Past 2^20 (or below 2^-20) the format's x^a e^-x / Gamma(a) has no correct bits left
      // (its log cancels), and where it overflows the reference's long double does not: the
      // backends then disagree on NaN against a value, as XLA's f64 would with a long double.
      if (a > 0 && x > 0 && std::isfinite(a) && std::isfinite(x) &&
          (beyond_sums_range(a) || beyond_sums_range(x)))
        b.skip = true;
      const double size = 1 + std::abs(a * std::log(x)) + std::abs(x) + std::abs(std::lgamma(a));
      if (std::isfinite(size)) {
        b.ulps = 16 * size;
        b.abs = std::max(b.abs, 16 * eps_ * size);
      }
    }
    if (summed_terms_) {
      // polygamma: m! sum |x + k|^-(m+1) over the directly summed terms (and the tail's point),
      // zeta the same without m! (its first operand the exponent),
      // which below x = 0 have both signs and may cancel to far less than themselves.
      const double m = operand(0, i), x = operand(1, i);
      if (e_.prim == ir::Prim::zeta) {  // zeta(m, x): sum |x + k|^-m, no factorial
        // Past 2^20 in magnitude (or below 2^-20), or infinite, the sum's powers overflow or
        // underflow in f64 where the reference's long double does not (inf or NaN against a
        // value); a sweep of 28 000 pairs of each format inside that range found no difference.
        if (beyond_sums_range(m) || beyond_sums_range(x)) b.skip = true;
        if (m >= 1 && std::isfinite(x)) {
          double terms = 0;
          for (int k = 0; k <= 10; ++k) terms += std::pow(std::abs(x + k), -m);
          b.abs = std::max(b.abs, 8 * eps_ * terms);
        }
      } else if (m >= 1 && m == std::floor(m) && std::isfinite(x)) {
        double terms = 0;
        for (int k = 0; k <= 10; ++k) terms += std::pow(std::abs(x + k), -(m + 1));
        b.abs = std::max(b.abs, 8 * eps_ * std::tgamma(m + 1) * terms);
      }
    }
    if (contracted_) {
      const Shape& out = g_.aval(e_.out[0]).shape;
      double m = 0;
      for (const Value& v : ops_)
        m = std::max(m, std::abs(check_detail::element(
                            v, check_detail::broadcast_source(i, out, v.aval.shape))));
      b.abs = check_detail::ulp_of(m, f32_);
    }
    if (!magnitudes_.empty()) {
      const double m = check_detail::element(magnitudes_[0], i);
      const double max_finite = f32_ ? 3.4e38 : 1.7e308;
      if (e_.prim == ir::Prim::reduce_prod) {
        // The product of magnitudes bounds no partial product: partials of an order that
        // multiplies the big factors first can overflow where others do not. Compare only when
        // every factor is near 1 in the sense that no partial can leave the normal range.
        const double lo = check_detail::element(magnitudes_[1], i);
        const double hi = check_detail::element(magnitudes_[2], i);
        const double n = static_cast<double>(terms_);
        const double min_normal = f32_ ? 1.2e-38 : 2.3e-308;
        b.skip = !(std::pow(hi, n) < max_finite && std::pow(std::max(lo, 1e-300), n) > min_normal &&
                   std::pow(std::min(1.0, lo), n) > min_normal);
      } else {
        b.skip = !(m < max_finite / 2);
        b.abs = static_cast<double>(terms_ + 2) * eps_ * m;
        // A product that lands among the subnormals has an absolute error of up to half the
        // smallest subnormal, not a relative one (Higham's model with gradual underflow); with
        // both backends' errors, n smallest subnormals (seed 204036).
        if (e_.prim == ir::Prim::dot_general)
          b.abs += static_cast<double>(terms_) * (f32_ ? 0x1p-149 : 0x1p-1074);
      }
    }
    return b;
  }

 private:
  // Where the incomplete gamma and zeta sums stop being comparable between the formats: a
  // magnitude past 2^20 or below 2^-20 (0 excluded), or an infinity.
  static bool beyond_sums_range(double v) {
    return std::isinf(v) || (v != 0 && (std::abs(v) < 0x1p-20 || std::abs(v) > 0x1p20));
  }

  // Operand k's element at result index i (the operands broadcast to the result's shape).
  double operand(std::size_t k, std::int64_t i) const {
    const Value& v = ops_.at(k);
    const Shape& out = g_.aval(e_.out[0]).shape;
    return check_detail::element(v, check_detail::broadcast_source(i, out, v.aval.shape));
  }

  const ir::Graph& g_;
  const ir::Eqn& e_;
  const std::vector<Value>& ops_;
  bool f32_ = false, contracted_ = false, reflected_ = false, summed_terms_ = false,
       incomplete_gamma_ = false;
  double eps_ = 0, ulps_ = 0, abs_floor_ = 0;
  std::int64_t terms_ = 0;
  std::vector<Value> magnitudes_;  // reduce_prod: product, min and max of magnitudes

  std::vector<Value> magnitude_run() const {
    std::vector<Value> abs_ops;  // the var operands (single() keeps literals in the graph)
    for (std::size_t j = 0; j < ops_.size(); ++j)
      if (!e_.in[j].is_literal()) abs_ops.push_back(check_detail::abs_f64(ops_[j]));
    auto r = check_detail::run_on("reference", check_detail::single(g_, e_, true), abs_ops);
    if (e_.prim == ir::Prim::reduce_prod) {
      for (ir::Prim q : {ir::Prim::reduce_min, ir::Prim::reduce_max}) {
        ir::Eqn m = e_;
        m.prim = q;
        r.push_back(
            check_detail::run_on("reference", check_detail::single(g_, m, true), abs_ops).at(0));
      }
    }
    return r;
  }
  std::int64_t terms() const {
    const std::int64_t in = ops_.at(0).aval.shape.size();
    const std::int64_t out = std::max<std::int64_t>(1, g_.aval(e_.out[0]).shape.size());
    if (e_.prim != ir::Prim::dot_general) return in / out > 0 ? in / out : in;
    const auto dims = ir::DotDims::from(e_.params);
    std::int64_t k = 1;
    for (auto d : dims.lhs_contract) k *= ops_[0].aval.shape[static_cast<int>(d)];
    return k;
  }
};

/// Runs program `p` on the reference and on `target`; the first difference, or nothing.
inline std::optional<Failure> check(const Program& p, const Runner& target) {
  using namespace check_detail;
  const ir::Graph& g = *p.graph;
  auto fail = [&](std::string msg, int eqn) {
    return std::optional<Failure>(Failure{p.seed, std::move(msg), eqn});
  };
  std::vector<Value> got;
  try {
    got = target(p.graph, p.inputs);
  } catch (const fj::Error& err) {
    // Fine only where the reference refuses the program too.
    try {
      run_on("reference", p.graph, p.inputs);
    } catch (const fj::Error&) {
      return std::nullopt;
    }
    return fail(std::string("raised where the reference did not: ") + err.what(), -1);
  }
  if (got.size() != g.outvars.size()) return fail("wrong number of results", -1);
  if (p.exact_only) {
    const auto want = run_on("reference", p.graph, p.inputs);
    for (std::size_t k = 0; k < got.size(); ++k)
      if (auto d = compare(got[k], want[k], [](std::int64_t) { return Bound{}; }))
        return fail("result " + std::to_string(k) + ": " + *d, -1);
    return std::nullopt;
  }
  // Every var's value as the target computed it (inputs as given).
  std::vector<const Value*> at(g.avals.size(), nullptr);
  for (std::size_t i = 0; i < g.invars.size(); ++i)
    at[static_cast<std::size_t>(g.invars[i])] = &p.inputs[i];
  for (std::size_t k = 0; k < g.outvars.size(); ++k)
    if (!g.outvars[k].is_literal()) at[static_cast<std::size_t>(g.outvars[k].var)] = &got[k];
  for (std::size_t ei = 0; ei < g.eqns.size(); ++ei) {
    const ir::Eqn& e = g.eqns[ei];
    std::vector<Value> operands;
    bool known = true;
    for (const ir::Atom& a : e.in) {
      if (a.is_literal()) continue;
      const Value* v = at[static_cast<std::size_t>(a.var)];
      if (!v)
        known = false;
      else
        operands.push_back(*v);
    }
    if (!known) continue;
    std::vector<Value> want;
    try {
      want = run_on("reference", single(g, e), operands);
    } catch (const fj::Error&) {
      continue;  // the reference refuses these operand values (none of the target's business)
    }
    for (std::size_t o = 0; o < e.out.size(); ++o) {
      const Value* v = at[static_cast<std::size_t>(e.out[o])];
      if (!v) continue;
      // Bounds read every operand, a literal as a rank-0 value.
      std::vector<Value> with_literals;
      for (std::size_t j = 0, k = 0; j < e.in.size(); ++j) {
        if (!e.in[j].is_literal()) {
          with_literals.push_back(operands[k++]);
          continue;
        }
        const ir::Literal& l = e.in[j].lit;
        auto buf = fj::runtime::allocate(fj::size_of(l.dtype));
        fj::visit_dtype(l.dtype, [&](auto x) {
          using T = decltype(x);
          *static_cast<T*>(buf->data) =
              fj::is_float(l.dtype) ? static_cast<T>(l.f) : static_cast<T>(l.i);
        });
        with_literals.push_back({std::move(buf), {l.dtype, Shape{}, false}});
      }
      PerOpBound bound(g, e, with_literals);
      if (auto d = compare(*v, want[o], [&](std::int64_t i) { return bound.at(i); }))
        return fail("equation " + std::to_string(ei) + " (" + std::string(ir::name(e.prim)) +
                        "), result " + std::to_string(o) + ": " + *d,
                    static_cast<int>(ei));
    }
  }
  return std::nullopt;
}

inline std::optional<Failure> check(const Program& p, const std::string& backend = "llvm") {
  return check(p, on_backend(backend));
}

}  // namespace fusejit_fuzz
