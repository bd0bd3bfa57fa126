// Definitions of api/numeric.hpp (implementation unit only): the checks JAX makes on shapes
// and static arguments happen here, the staging in expr/lowering_numeric.cpp.
#include "fusejit/api/numeric.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "fusejit/core/error.hpp"
#include "fusejit/expr/lowering_numeric.hpp"
#include "fusejit/expr/lowering_pad.hpp"
#include "fusejit/expr/node.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {

namespace numeric_detail {

struct DiffOp {
  int n, axis;
  void key(std::vector<std::int64_t>& k) const { k.insert(k.end(), {n, axis}); }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x) const {
    return detail::lower_diff(b, x, n, axis);
  }
};

struct PtpOp {
  std::optional<int> axis;
  bool keepdims;
  void key(std::vector<std::int64_t>& k) const {
    k.insert(k.end(), {axis.has_value(), axis.value_or(0), keepdims});
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x) const {
    return detail::lower_ptp(b, x, axis, keepdims);
  }
};

struct IsCloseOp {
  std::optional<double> rtol, atol;
  bool equal_nan, all;
  void key(std::vector<std::int64_t>& k) const {
    for (const std::optional<double>& t : {rtol, atol}) {
      k.push_back(t.has_value());
      k.push_back(std::bit_cast<std::int64_t>(t.value_or(0.0)));
    }
    k.insert(k.end(), {equal_nan, all});
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x, ir::Atom y) const {
    const detail::Tolerance r{rtol.value_or(1e-5), rtol.has_value()},
        a{atol.value_or(1e-8), atol.has_value()};
    return all ? detail::lower_allclose(b, x, y, r, a, equal_nan)
               : detail::lower_isclose(b, x, y, r, a, equal_nan, false);
  }
};

struct BincountOp {
  std::int64_t length;
  void key(std::vector<std::int64_t>& k) const { k.push_back(length); }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x) const {
    return detail::lower_bincount(b, x, std::nullopt, length, "fj::bincount");
  }
  ir::Atom operator()(detail::GraphBuilder& b, ir::Atom x, ir::Atom w) const {
    return detail::lower_bincount(b, x, w, length, "fj::bincount");
  }
};

// bincount's x as JAX takes it (bools as int32, integers only, rank 1) and its length.
std::pair<Array, std::int64_t> bincount_args(const Array& x, std::optional<std::int64_t> length,
                                             std::int64_t minlength) {
  const char* fn = "fj::bincount";
  const Array xi = x.dtype() == DType::bool_ ? Array(fj::astype(x, DType::i32)) : x;
  if (!is_int(xi.dtype()))
    throw TypeError(std::string(fn) + ": x must be an integer array, got " + x.aval().str());
  if (xi.ndim() != 1)
    throw ValueError(std::string(fn) + ": x must be one-dimensional, got " + x.aval().str());
  if (minlength < 0)
    throw ValueError(std::string(fn) + ": minlength must be nonnegative, got " +
                     std::to_string(minlength));
  if (length) {
    if (*length < 0)
      throw ValueError(std::string(fn) + ": length must be nonnegative, got " +
                       std::to_string(*length));
    return {xi, *length};
  }
  if (xi.is_traced())
    throw ConcretizationError(std::string(fn) + ": x " + x.aval().str() +
                              " is traced, so the number of bins is not static: pass length");
  std::int64_t n = minlength;
  for (std::int64_t v : Array(fj::astype(xi, DType::i64)).to_vector<std::int64_t>())
    n = std::max(n, v + 1);
  return {xi, n};
}

}  // namespace numeric_detail

Array diff(const Array& x, int n, int axis) {
  const char* fn = "fj::diff";
  if (x.ndim() == 0)
    throw ValueError(std::string(fn) + ": x must have at least one axis, got " + x.aval().str());
  if (n < 0)
    throw ValueError(std::string(fn) + ": the order n must be nonnegative, got " +
                     std::to_string(n));
  const int ax = detail::canonical_axis(axis, x.aval(), fn);
  return Array(detail::make_node(numeric_detail::DiffOp{n, ax}, x));
}

Array ptp(const Array& x, std::optional<int> axis, bool keepdims) {
  if (axis) (void)detail::canonical_axis(*axis, x.aval(), "fj::ptp");
  return Array(detail::make_node(numeric_detail::PtpOp{axis, keepdims}, x));
}

Array isclose(const Array& a, const Array& b, std::optional<double> rtol,
              std::optional<double> atol, bool equal_nan) {
  return Array(detail::make_node(numeric_detail::IsCloseOp{rtol, atol, equal_nan, false}, a, b));
}

Array allclose(const Array& a, const Array& b, std::optional<double> rtol,
               std::optional<double> atol, bool equal_nan) {
  return Array(detail::make_node(numeric_detail::IsCloseOp{rtol, atol, equal_nan, true}, a, b));
}

Array bincount(const Array& x, std::optional<std::int64_t> length, std::int64_t minlength) {
  const auto [xi, n] = numeric_detail::bincount_args(x, length, minlength);
  return Array(detail::make_node(numeric_detail::BincountOp{n}, xi));
}

Array bincount(const Array& x, const Array& weights, std::optional<std::int64_t> length,
               std::int64_t minlength) {
  if (weights.shape() != x.shape())
    throw ValueError("fj::bincount: weights " + weights.aval().str() + " must have x's shape " +
                     x.aval().str());
  const auto [xi, n] = numeric_detail::bincount_args(x, length, minlength);
  return Array(detail::make_node(numeric_detail::BincountOp{n}, xi, weights));
}

}  // namespace fj
