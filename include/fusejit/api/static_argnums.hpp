// fj::static_argnums<I...>: which arguments of a jitted function are passed as concrete values.
#pragma once
#include <concepts>
#include <cstddef>
#include <functional>

namespace fj {

/// Marks arguments I... static: passed to the function as their C++ values (so `while (i < n)`
/// works and unrolls), hashed into the cache key, and a new value retraces. The indices are
/// template arguments because they decide the C++ types the traced function is called with.
template <std::size_t... I>
struct static_argnums_t {
  /// Whether argument i is static.
  static constexpr bool contains(std::size_t i) { return ((i == I) || ...); }
  /// The largest static index (0 when there are none).
  static constexpr std::size_t max_index() {
    std::size_t m = 0;
    ((m = I > m ? I : m), ...);
    return m;
  }
  static constexpr std::size_t count = sizeof...(I);  ///< how many arguments are static
};
/// jax.jit's static_argnums: fj::jit(f, fj::static_argnums<1>) makes f's second argument static.
template <std::size_t... I>
inline constexpr static_argnums_t<I...> static_argnums{};

/// A static argument's value must hash and compare, as a jax.jit static argument must.
template <class T>
concept StaticValue = requires(const T& a, const T& b) {
  { std::hash<T>{}(a) } -> std::convertible_to<std::size_t>;
  { a == b } -> std::convertible_to<bool>;
};

}  // namespace fj
