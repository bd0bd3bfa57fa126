// Shape: up to 8 extents, row-major, stored inline so that copying one never allocates.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "fusejit/core/error.hpp"

namespace fj {

/// The largest rank an array may have: a Shape of more extents raises fj::ShapeError.
inline constexpr int kMaxRank = 8;

/// An array's shape (x.shape in JAX): up to kMaxRank extents, row-major, stored inline so that
/// copying one never allocates. fj::Shape{2, 3} is (2, 3); fj::Shape{} is a scalar's ().
class Shape {
 public:
  /// The rank-0 shape ().
  constexpr Shape() = default;
  /// The shape of these extents: fj::zeros({2, 3}). A negative extent, more than kMaxRank
  /// extents, or more elements than an int64 counts raise fj::ShapeError.
  ///@{
  Shape(std::initializer_list<std::int64_t> dims) { assign(dims.begin(), dims.end()); }
  explicit Shape(const std::vector<std::int64_t>& dims) { assign(dims.begin(), dims.end()); }
  ///@}

  /// The number of extents (x.ndim).
  constexpr int rank() const { return rank_; }
  /// Extent i, 0 <= i < rank() (not checked; no negative indices).
  ///@{
  constexpr std::int64_t operator[](int i) const { return dims_[static_cast<std::size_t>(i)]; }
  constexpr std::int64_t& operator[](int i) { return dims_[static_cast<std::size_t>(i)]; }
  ///@}
  /// The extents, for range-for.
  ///@{
  const std::int64_t* begin() const { return dims_.data(); }
  const std::int64_t* end() const { return dims_.data() + rank_; }
  ///@}
  /// The element count, the product of the extents (x.size); 1 for ().
  std::int64_t size() const {
    std::int64_t n = 1;
    for (int i = 0; i < rank_; ++i) n *= dims_[static_cast<std::size_t>(i)];
    return n;
  }
  /// Appends an extent; past kMaxRank, or past an int64's count of elements, fj::ShapeError.
  void push_back(std::int64_t d) {
    if (rank_ == kMaxRank) throw ShapeError("fj::Shape: rank above the maximum of 8");
    dims_[static_cast<std::size_t>(rank_++)] = d;
    check_size();
  }
  /// The extents as a std::vector (list(x.shape)).
  std::vector<std::int64_t> to_vector() const { return {begin(), end()}; }

  /// Same rank and extents.
  friend bool operator==(const Shape& a, const Shape& b) {
    return a.rank_ == b.rank_ && std::equal(a.begin(), a.end(), b.begin());
  }

  /// "(3, 4)" as NumPy prints a shape tuple.
  std::string str() const {
    std::string s(1, '(');
    s.append(join(", ")).append(rank_ == 1 ? ",)" : ")");
    return s;
  }
  /// "3,4" as jaxpr types print it inside brackets.
  std::string csv() const { return join(","); }

 private:
  std::string join(const char* sep) const {
    std::string s;
    for (int i = 0; i < rank_; ++i) {
      if (i) s.append(sep);
      s.append(std::to_string(dims_[static_cast<std::size_t>(i)]));
    }
    return s;
  }
  template <class It>
  void assign(It b, It e) {
    if (e - b > kMaxRank)
      throw ShapeError("fj::Shape: rank " + std::to_string(e - b) + " is above the maximum of 8");
    for (; b != e; ++b) {
      if (*b < 0) throw ShapeError("fj::Shape: negative extent " + std::to_string(*b));
      dims_[static_cast<std::size_t>(rank_++)] = *b;
    }
    check_size();
  }
  // The element count must fit in int64: a product that wrapped around (to 0 for
  // (2^40, 2^40)) would describe an array far smaller than its shape.
  void check_size() const {
    std::int64_t n = 1;
    for (int i = 0; i < rank_; ++i)
      if (__builtin_mul_overflow(n, dims_[static_cast<std::size_t>(i)], &n))
        throw ShapeError("fj::Shape: " + str() + " has more elements than an int64 can count");
  }
  std::array<std::int64_t, kMaxRank> dims_{};
  int rank_ = 0;
};

/// Row-major strides in elements.
inline std::array<std::int64_t, kMaxRank> row_major_strides(const Shape& s) {
  std::array<std::int64_t, kMaxRank> st{};
  std::int64_t acc = 1;
  for (int i = s.rank() - 1; i >= 0; --i) st[static_cast<std::size_t>(i)] = acc, acc *= s[i];
  return st;
}

/// NumPy broadcasting of two shapes; `what` names the operation for the error message.
inline Shape broadcast_shapes(const Shape& a, const Shape& b, const char* what) {
  const int r = std::max(a.rank(), b.rank());
  Shape out;
  for (int i = 0; i < r; ++i) {
    const int ia = i - (r - a.rank()), ib = i - (r - b.rank());
    const std::int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      throw ShapeError(std::string(what) + ": incompatible shapes for broadcasting: " + a.str() +
                       " and " + b.str());
    out.push_back(da == 1 ? db : da);
  }
  return out;
}

}  // namespace fj
