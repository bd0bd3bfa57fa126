// Definitions of api/stacking.hpp (implementation unit only): the shape checks JAX makes, then
// reshape, transpose, slice and concatenate.
#include "fusejit/api/stacking.hpp"

#include "fusejit/expr/array_methods.hpp"

namespace fj {

namespace detail {

std::vector<Array> at_least(const std::vector<Array>& xs, int n) {
  std::vector<Array> out;
  for (const Array& x : xs) {
    const std::vector<std::int64_t> s = x.shape().to_vector();
    if (x.ndim() >= n) {
      out.push_back(x);
    } else if (x.ndim() == 0) {
      out.push_back(reshape_dyn(x, std::vector<std::int64_t>(static_cast<std::size_t>(n), 1)));
    } else if (x.ndim() == 1) {  // (n,) -> (1, n) or (1, n, 1)
      out.push_back(reshape_dyn(
          x, n == 2 ? std::vector<std::int64_t>{1, s[0]} : std::vector<std::int64_t>{1, s[0], 1}));
    } else {  // (m, n) -> (m, n, 1)
      out.push_back(reshape_dyn(x, {s[0], s[1], 1}));
    }
  }
  return out;
}

}  // namespace detail

Array column_stack(const std::vector<Array>& xs) {
  std::vector<Array> cols;
  for (const Array& x : xs)
    cols.push_back(x.ndim() < 2 ? detail::reshape_dyn(x, {x.shape().size(), 1}) : x);
  return Array(concatenate(cols, 1));
}

Array moveaxis(const Array& x, const std::vector<int>& source,
               const std::vector<int>& destination) {
  const char* who = "fj::moveaxis";
  if (source.size() != destination.size())
    throw ValueError(std::string(who) +
                     ": source and destination must have the same number "
                     "of elements, got " +
                     std::to_string(source.size()) + " and " + std::to_string(destination.size()));
  std::vector<std::pair<int, int>> moves;  // (destination, source)
  std::vector<bool> moved(static_cast<std::size_t>(x.ndim()), false);
  for (std::size_t i = 0; i < source.size(); ++i) {
    const int s = detail::axis_of(source[i], x, who), d = detail::axis_of(destination[i], x, who);
    for (const auto& [d2, s2] : moves)
      if (s2 == s || d2 == d)
        throw ValueError(std::string(who) + ": repeated axis in source or destination for " +
                         x.aval().str());
    moved[static_cast<std::size_t>(s)] = true;
    moves.emplace_back(d, s);
  }
  // JAX's _moveaxis: the unmoved axes in order, then each moved one inserted at its
  // destination, in increasing destination order.
  std::vector<std::int64_t> perm;
  for (int a = 0; a < x.ndim(); ++a)
    if (!moved[static_cast<std::size_t>(a)]) perm.push_back(a);
  std::sort(moves.begin(), moves.end());
  for (const auto& [d, s] : moves) perm.insert(perm.begin() + d, s);
  return detail::transpose_dyn(x, perm);
}

Array swapaxes(const Array& x, int axis1, int axis2) {
  const int a = detail::axis_of(axis1, x, "fj::swapaxes"),
            b = detail::axis_of(axis2, x, "fj::swapaxes");
  std::vector<std::int64_t> perm(static_cast<std::size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(a)], perm[static_cast<std::size_t>(b)]);
  return detail::transpose_dyn(x, perm);
}

Array matrix_transpose(const Array& x) {
  if (x.ndim() < 2)
    throw ValueError("fj::matrix_transpose: x must have at least two dimensions, got " +
                     x.aval().str());
  return swapaxes(x, -1, -2);
}

Array fliplr(const Array& x) {
  if (x.ndim() < 2)
    throw ValueError("fj::fliplr: x must have at least two dimensions, got " + x.aval().str());
  return Array(flip(x, {1}));
}

Array flipud(const Array& x) {
  if (x.ndim() < 1)
    throw ValueError("fj::flipud: x must have at least one dimension, got " + x.aval().str());
  return Array(flip(x, {0}));
}

namespace {

// The pieces of x along `axis` (nonnegative) between consecutive `bounds` (0 and the extent
// included, each clamped into [0, extent]).
std::vector<Array> pieces(const Array& x, int axis, std::vector<std::int64_t> bounds) {
  const std::int64_t n = x.shape()[axis];
  std::vector<Array> out;
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    const std::int64_t lo = std::clamp<std::int64_t>(bounds[i], 0, n);
    const std::int64_t hi = std::clamp<std::int64_t>(bounds[i + 1], lo, n);
    out.push_back(detail::slice_axis(x, axis, lo, hi));
  }
  return out;
}

std::vector<Array> split_sections(const Array& x, std::int64_t sections, int axis, bool equal,
                                  const char* who) {
  if (x.ndim() == 0) throw ValueError(std::string(who) + ": x must not be a scalar");
  const int a = detail::axis_of(axis, x, who);
  const std::int64_t n = x.shape()[a];
  if (sections <= 0)
    throw ValueError(std::string(who) + ": number sections must be larger than 0, got " +
                     std::to_string(sections));
  if (equal && n % sections != 0)
    throw ValueError(std::string(who) + ": array split does not result in an equal division: " +
                     "axis " + std::to_string(axis) + " of " + x.aval().str() + " into " +
                     std::to_string(sections) + " sections");
  // NumPy's array_split: the first n % sections pieces one longer.
  std::vector<std::int64_t> bounds{0};
  for (std::int64_t i = 0; i < sections; ++i)
    bounds.push_back(bounds.back() + n / sections + (i < n % sections ? 1 : 0));
  return pieces(x, a, bounds);
}

}  // namespace

std::vector<Array> split(const Array& x, std::int64_t sections, int axis) {
  return split_sections(x, sections, axis, true, "fj::split");
}

std::vector<Array> split(const Array& x, const std::vector<std::int64_t>& indices, int axis) {
  if (x.ndim() == 0) throw ValueError("fj::split: x must not be a scalar");
  const int a = detail::axis_of(axis, x, "fj::split");
  const std::int64_t n = x.shape()[a];
  std::vector<std::int64_t> bounds{0};
  for (std::int64_t i : indices) bounds.push_back(i < 0 ? i + n : i);
  bounds.push_back(n);
  return pieces(x, a, bounds);
}

std::vector<Array> array_split(const Array& x, std::int64_t sections, int axis) {
  return split_sections(x, sections, axis, false, "fj::array_split");
}

std::vector<Array> hsplit(const Array& x, std::int64_t sections) {
  return split_sections(x, sections, x.ndim() == 1 ? 0 : 1, true, "fj::hsplit");
}

std::vector<Array> vsplit(const Array& x, std::int64_t sections) {
  if (x.ndim() < 2)
    throw ValueError("fj::vsplit: x must have at least two dimensions, got " + x.aval().str());
  return split_sections(x, sections, 0, true, "fj::vsplit");
}

std::vector<Array> dsplit(const Array& x, std::int64_t sections) {
  if (x.ndim() < 3)
    throw ValueError("fj::dsplit: x must have at least three dimensions, got " + x.aval().str());
  return split_sections(x, sections, 2, true, "fj::dsplit");
}

}  // namespace fj
