// Definitions of api/tensor_products.hpp (implementation unit only).
#include "fusejit/api/tensor_products.hpp"

#include <string>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_methods.hpp"

namespace fj {

Array tensordot(const Array& a, const Array& b, int axes) {
  if (axes < 0 || axes > a.ndim() || axes > b.ndim())
    throw ValueError("fj::tensordot: axes " + std::to_string(axes) + " out of range for " +
                     a.aval().str() + " and " + b.aval().str());
  std::vector<int> ca, cb;
  for (int i = 0; i < axes; ++i) {
    ca.push_back(a.ndim() - axes + i);
    cb.push_back(i);
  }
  return tensordot(a, b, {ca, cb});
}

Array tensordot(const Array& a, const Array& b,
                const std::pair<std::vector<int>, std::vector<int>>& axes) {
  const char* who = "fj::tensordot";
  if (axes.first.size() != axes.second.size())
    throw ValueError(std::string(who) + ": the axes lists differ in length (" +
                     std::to_string(axes.first.size()) + " and " +
                     std::to_string(axes.second.size()) + ")");
  std::vector<std::int64_t> ca, cb;
  for (std::size_t i = 0; i < axes.first.size(); ++i) {
    const int x = detail::axis_of(axes.first[i], a, who),
              y = detail::axis_of(axes.second[i], b, who);
    if (a.shape()[x] != b.shape()[y])
      throw ShapeError(std::string(who) + ": axis " + std::to_string(x) + " of " + a.aval().str() +
                       " and axis " + std::to_string(y) + " of " + b.aval().str() +
                       " differ in extent");
    ca.push_back(x);
    cb.push_back(y);
  }
  return Array(lax::dot_general(a, b, ca, cb));
}

Array inner(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return Array(a * b);
  return tensordot(a, b, {{-1}, {-1}});
}

Array vdot(const Array& a, const Array& b) {
  if (a.shape().size() != b.shape().size())
    throw ShapeError("fj::vdot: the operands have different sizes, " + a.aval().str() + " and " +
                     b.aval().str());
  return Array(dot(a.ravel(), b.ravel()));
}

Array vecdot(const Array& x1, const Array& x2, int axis) {
  // JAX: both vectors moved last, then matmul of (..., 1, n) by (..., n, 1).
  const Array u = moveaxis(x1, axis, -1), v = moveaxis(x2, axis, -1);
  if (u.shape()[u.ndim() - 1] != v.shape()[v.ndim() - 1])
    throw ShapeError("fj::vecdot: axis " + std::to_string(axis) +
                     " differs in extent: " + x1.aval().str() + " and " + x2.aval().str());
  const Array m = Array(matmul(Array(expand_dims(u, {-2})), Array(expand_dims(v, {-1}))));
  return Array(squeeze(m, {-2, -1}));
}

Array matvec(const Array& x1, const Array& x2) {
  return Array(squeeze(matmul(x1, Array(expand_dims(x2, {-1}))), {-1}));
}

Array vecmat(const Array& x1, const Array& x2) {
  return Array(squeeze(matmul(Array(expand_dims(x1, {-2})), x2), {-2}));
}

Array kron(const Array& a0, const Array& b0) {
  Array a = a0, b = b0;
  const int nd = std::max(a.ndim(), b.ndim());
  auto lift = [nd](const Array& x) {
    std::vector<std::int64_t> s(static_cast<std::size_t>(nd - x.ndim()), 1);
    for (std::int64_t d : x.shape().to_vector()) s.push_back(d);
    return detail::reshape_dyn(x, s);
  };
  a = lift(a);
  b = lift(b);
  // JAX: a's axes at the even positions, b's at the odd ones, multiplied, then merged pairwise.
  std::vector<std::int64_t> sa, sb, out;
  for (int d = 0; d < nd; ++d) {
    const std::int64_t m = a.shape()[d], n = b.shape()[d];
    sa.insert(sa.end(), {m, 1});
    sb.insert(sb.end(), {1, n});
    out.push_back(m * n);
  }
  return detail::reshape_dyn(Array(detail::reshape_dyn(a, sa) * detail::reshape_dyn(b, sb)), out);
}

Array cross(const Array& a0, const Array& b0, int axis) {
  const Array a = moveaxis(a0, axis, -1), b = moveaxis(b0, axis, -1);
  const std::int64_t na = a.shape()[a.ndim() - 1], nb = b.shape()[b.ndim() - 1];
  if ((na != 2 && na != 3) || (nb != 2 && nb != 3))
    throw ValueError("fj::cross: the vectors must have 2 or 3 components, got " + a0.aval().str() +
                     " and " + b0.aval().str());
  auto at = [](const Array& v, std::int64_t i) {
    return detail::reshape_dyn(detail::slice_axis(v, v.ndim() - 1, i, i + 1), [&] {
      std::vector<std::int64_t> s = v.shape().to_vector();
      s.pop_back();
      return s;
    }());
  };
  const Array a0c = at(a, 0), a1 = at(a, 1), b0c = at(b, 0), b1 = at(b, 1);
  if (na == 2 && nb == 2) return Array(a0c * b1 - a1 * b0c);
  const Array a2 = na == 3 ? at(a, 2) : Array(zeros_like(a0c));
  const Array b2 = nb == 3 ? at(b, 2) : Array(zeros_like(b0c));
  const Array c0 = Array(a1 * b2 - a2 * b1), c1 = Array(a2 * b0c - a0c * b2),
              c2 = Array(a0c * b1 - a1 * b0c);
  return Array(stack({c0, c1, c2}, -1));
}

}  // namespace fj
