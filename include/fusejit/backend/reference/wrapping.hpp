// Integer arithmetic that wraps as XLA's does, without C++ undefined behaviour; floats as they are.
#pragma once
#include <type_traits>

namespace fj::detail::reference {

namespace wrapping_detail {
// The unsigned type the arithmetic goes through. Narrow types go through `unsigned int`: an
// unsigned short would be promoted to (signed) int, where 65535 * 65535 overflows.
template <class T>
struct unsigned_for {
  using type =
      std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
}  // namespace wrapping_detail

template <class T>
using wrap_unsigned = typename wrapping_detail::unsigned_for<T>::type;

template <class T>
T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return static_cast<T>(static_cast<wrap_unsigned<T>>(a) + static_cast<wrap_unsigned<T>>(b));
  else
    return static_cast<T>(a + b);
}
template <class T>
T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return static_cast<T>(static_cast<wrap_unsigned<T>>(a) - static_cast<wrap_unsigned<T>>(b));
  else
    return static_cast<T>(a - b);
}
template <class T>
T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return static_cast<T>(static_cast<wrap_unsigned<T>>(a) * static_cast<wrap_unsigned<T>>(b));
  else
    return static_cast<T>(a * b);
}
template <class T>
T wrap_neg(T x) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return static_cast<T>(wrap_unsigned<T>(0) - static_cast<wrap_unsigned<T>>(x));
  else
    return -x;
}

}  // namespace fj::detail::reference
