// integer_pow's evaluation order, written once for every backend (values or emitted IR).
#pragma once
#include <cstdint>
#include <optional>

namespace fj::ir {

/// x**y as XLA evaluates JAX's integer_pow (lax._integer_pow): binary exponentiation, squaring
/// x and multiplying it into the accumulator from the lowest bit up; y == 0 gives one(), a
/// negative y gives one() / x**|y|. Backends pass their own multiply and divide, so each
/// multiply happens in the same order everywhere and float results are bit-identical.
/// (XLA's special cases y = 2, 3, -1 are x*x, (x*x)*x and 1/x: this same order.)
template <class V, class Mul, class Div, class One>
V integer_pow_by_squaring(V x, std::int64_t y, Mul mul, Div div, One one) {
  if (y == 0) return one();
  // |y| as unsigned, so y = INT64_MIN does not overflow.
  std::uint64_t n =
      y < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(y) : static_cast<std::uint64_t>(y);
  std::optional<V> acc;
  while (n > 0) {
    if (n & 1) acc = acc ? mul(*acc, x) : x;
    n >>= 1;
    if (n > 0) x = mul(x, x);
  }
  return y < 0 ? div(one(), *acc) : *acc;
}

}  // namespace fj::ir
