// fj::Axes: the axis argument of jnp's reductions and normalizations (an int, a list, or
// fj::none for all), and the keyword options of the axis-taking functions that fj::Array's
// methods share with the free functions (reductions, var/std, sort/argsort).
#pragma once
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
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

namespace detail {
/// The first member of fusejit's keyword-options structs. It holds nothing and converts from
/// nothing, so only designated initializers ({.axis = 1}) make an options struct: a positional
/// braced list such as fj::var(x, {0, 1}) stays the list of axes it was before the struct
/// existed, rather than an ambiguous call.
struct KeywordsOnly {
  explicit KeywordsOnly() = default;
};
}  // namespace detail

/// The keyword arguments of jnp's reductions (axis=..., keepdims=...), for designated
/// initializers: fj::sum(x, {.axis = 1, .keepdims = true}), x.mean({.axis = {0, 2}}).
struct ReduceOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  Axes axis = std::nullopt;  ///< the axes reduced: one, a list, or fj::none (all, the default)
  bool keepdims = false;     ///< keep each reduced axis with extent 1
};

namespace detail {
/// ReduceOptions{axis, keepdims}, for the library's own compositions.
inline ReduceOptions reduce_over(Axes axis, bool keepdims) {
  ReduceOptions o;
  o.axis = std::move(axis);
  o.keepdims = keepdims;
  return o;
}
}  // namespace detail

/// jnp.var / jnp.std's keyword arguments: fj::var(x, {.axis = 0, .ddof = 1}), x.std({.ddof = 1}).
struct VarOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  Axes axis = std::nullopt;         ///< the axes reduced (all by default)
  std::int64_t ddof = 0;            ///< delta degrees of freedom: the sum is divided by N - ddof
  bool keepdims = false;            ///< keep each reduced axis with extent 1
};

/// jnp.sort / jnp.argsort's keyword arguments: fj::sort(x, {.axis = 0, .descending = true}).
struct SortOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<int> axis = -1;     ///< the axis sorted (the last by default); nullopt: flattened
  bool stable = true;       ///< equal elements keep their order (fusejit always sorts stably)
  bool descending = false;  ///< largest first (equal elements still in their order)
};

}  // namespace fj
