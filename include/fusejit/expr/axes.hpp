// fj::Axes: the axis argument of jnp's reductions and normalizations (an int, a list, or
// fj::none for all), shared by the free functions and fj::Array's methods.
#pragma once
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace fj {

/// The axes a function reduces or normalizes over: one (`0`, `-1`), several (`{0, 1}`), or
/// all of them (`fj::none`, JAX's axis=None).
struct Axes {
  std::vector<int> list;  ///< the axes given (negative ones count from the end); empty if `all`
  bool all = false;       ///< every axis (fj::none)
  bool tuple = false;     ///< given as a list (JAX's tuple), where a function tells `0` from `(0,)`
  /// One axis: fj::sum(x, 0). Integers only (not bool or floats), so that logsumexp's weights
  /// and keepdims never convert to an axis and make its overloads ambiguous.
  template <class I>
  requires std::integral<I> &&(!std::same_as<I, bool>)Axes(I a) : list{static_cast<int>(a)} {}
  /// Several axes, as JAX's tuple: fj::mean(x, {0, 2}).
  Axes(std::initializer_list<int> a) : list(a), tuple(true) {}
  /// All axes: fj::none, JAX's axis=None.
  Axes(std::nullopt_t) : all(true) {}
  /// Appends these axes to an expression cache key `k` (for fusejit's own expression nodes).
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(all ? -1 : static_cast<std::int64_t>(list.size()) + (tuple ? 1000 : 0));
    for (int a : list) k.push_back(a);
  }
};

}  // namespace fj
