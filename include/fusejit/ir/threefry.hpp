// Threefry-2x32 (20 rounds) as JAX computes it, written once over a value type: the reference
// backend runs it on uint32_t, the LLVM backend on emitted IR, so both give the same bits.
#pragma once
#include <array>
#include <cstdint>
#include <utility>

namespace fj::ir {

inline constexpr std::array<std::array<int, 4>, 2> kThreefryRotations = {
    {{13, 15, 26, 6}, {17, 29, 16, 24}}};
// Skein's key-schedule parity constant: the third key word is k0 ^ k1 ^ this.
inline constexpr std::uint32_t kThreefryParity = 0x1BD11BDA;

/// (y0, y1) = threefry2x32((k0, k1), (x0, x1)). `ops` provides add(a, b) and xor_(a, b) (wrapping
/// u32), rotl(a, r) for a constant r, and k(c), a u32 constant.
template <class V, class Ops>
std::pair<V, V> threefry2x32(V k0, V k1, V x0, V x1, Ops& ops) {
  const std::array<V, 3> ks = {k0, k1, ops.xor_(ops.xor_(k0, k1), ops.k(kThreefryParity))};
  x0 = ops.add(x0, ks[0]);
  x1 = ops.add(x1, ks[1]);
  // Five groups of four rounds; after group i the key words are injected again, rotated by i,
  // with i added to the second word.
  for (int i = 1; i <= 5; ++i) {
    for (int r : kThreefryRotations[static_cast<std::size_t>((i - 1) % 2)]) {
      x0 = ops.add(x0, x1);
      x1 = ops.xor_(ops.rotl(x1, r), x0);
    }
    x0 = ops.add(x0, ks[static_cast<std::size_t>(i % 3)]);
    x1 = ops.add(ops.add(x1, ks[static_cast<std::size_t>((i + 1) % 3)]),
                 ops.k(static_cast<std::uint32_t>(i)));
  }
  return {x0, x1};
}

/// The scalar form, for the reference backend and host code.
struct ThreefryU32 {
  static std::uint32_t add(std::uint32_t a, std::uint32_t b) { return a + b; }
  static std::uint32_t xor_(std::uint32_t a, std::uint32_t b) { return a ^ b; }
  static std::uint32_t rotl(std::uint32_t a, int r) {
    return (a << r) | (a >> (32 - r));  // r is in [6, 29]: both shifts are defined
  }
  static std::uint32_t k(std::uint32_t c) { return c; }
};

}  // namespace fj::ir
