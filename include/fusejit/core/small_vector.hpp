// SmallVector: a vector whose first N elements live inline, for the per-call lists of jit's warm
// path (argument avals and values, outputs, a run's environment), which must not allocate.
#pragma once
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace fj {

/// A vector with inline room for N elements; past N it moves them to the heap and grows as
/// std::vector does. Only what the run paths use: appending, indexing, iteration, clear. It is
/// a contiguous range, so std::span views it.
template <class T, std::size_t N>
class SmallVector {
 public:
  /// The member types of std::vector<T>.
  ///@{
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  ///@}

  /// Empty, inline.
  SmallVector() = default;
  /// Copies and moves, as std::vector's; a move takes o's heap block, or moves its inline
  /// elements.
  ///@{
  SmallVector(const SmallVector& o) { append(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept(std::is_nothrow_move_constructible_v<T>) {
    take(std::move(o));
  }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      clear();
      append(o.begin(), o.end());
    }
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &o) {
      reset();
      take(std::move(o));
    }
    return *this;
  }
  ///@}
  ~SmallVector() { reset(); }

  /// std::vector's size, access and iteration (no bounds checks).
  ///@{
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  ///@}

  /// Room for n elements without reallocating, as std::vector::reserve.
  void reserve(std::size_t n) {
    if (n > capacity_) grow(n);
  }
  /// Appends an element made from `a` (which may be an element of this vector) and returns it.
  template <class... A>
  T& emplace_back(A&&... a) {
    if (size_ == capacity_) [[unlikely]] {
      T v(std::forward<A>(a)...);  // first: `a` may refer to an element that growing moves
      grow(capacity_ * 2);
      return *::new (static_cast<void*>(data_ + size_++)) T(std::move(v));
    }
    return *::new (static_cast<void*>(data_ + size_++)) T(std::forward<A>(a)...);
  }
  /// Appends a copy of v, or v moved.
  ///@{
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  ///@}
  /// Appends the elements of [first, last).
  template <class It>
  void append(It first, It last) {
    reserve(size_ + static_cast<std::size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  /// n value-initialized elements.
  void resize(std::size_t n) {
    reserve(n);
    while (size_ > n) data_[--size_].~T();
    while (size_ < n) emplace_back();
  }
  /// Destroys every element; the storage (inline or heap) is kept.
  void clear() {
    std::destroy(data_, data_ + size_);
    size_ = 0;
  }

 private:
  bool is_inline() const { return data_ == inline_ptr(); }
  T* inline_ptr() { return reinterpret_cast<T*>(inline_); }
  const T* inline_ptr() const { return reinterpret_cast<const T*>(inline_); }

  void grow(std::size_t n) {
    n = std::max<std::size_t>(n, 2 * N);
    T* p = std::allocator<T>{}.allocate(n);
    std::uninitialized_move(data_, data_ + size_, p);
    std::destroy(data_, data_ + size_);
    if (!is_inline()) std::allocator<T>{}.deallocate(data_, capacity_);
    data_ = p;
    capacity_ = n;
  }
  // Destroys the elements and frees heap storage: back to empty and inline.
  void reset() {
    clear();
    if (!is_inline()) std::allocator<T>{}.deallocate(data_, capacity_);
    data_ = inline_ptr();
    capacity_ = N;
  }
  // Takes o's elements (this is empty and inline): its heap block, or moves of its inline ones.
  void take(SmallVector&& o) {
    if (o.is_inline()) {
      std::uninitialized_move(o.begin(), o.end(), data_);
      size_ = o.size_;
      o.clear();
    } else {
      data_ = o.data_;
      size_ = o.size_;
      capacity_ = o.capacity_;
      o.data_ = o.inline_ptr();
      o.size_ = 0;
      o.capacity_ = N;
    }
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* data_ = inline_ptr();
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
};

}  // namespace fj
