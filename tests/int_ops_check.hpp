// Helpers of the integer-op tests: edge-heavy inputs, and one check that runs a function on
// every backend and compares it exactly with values computed by a plain loop in the test.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend_compare.hpp"

namespace fusejit_int_test {

inline const char* const kBackends[] = {"reference", "llvm"};

/// jit(f)(args...) on every backend this build has, each checked against `want`: same dtype and
/// shape, integers equal, floats equal or both NaN; zeros of either sign unless `zero_sign`.
template <class F, class... Args>
void check_on_backends(bool zero_sign, const std::string& what, const fj::Array& want, F f,
                       const Args&... args) {
  for (const char* name : kBackends) {
    if (!fusejit_test::has_backend(name)) continue;
    fusejit_test::BackendScope scope(name);
    const fj::Array got = fj::jit(f)(args...);
    fusejit_test::check_close(got, want, 0, what + " [" + name + "]");
    if (!zero_sign || got.dtype() != want.dtype() || got.size() != want.size()) continue;
    fj::visit_dtype(got.dtype(), [&](auto t) {
      using T = decltype(t);
      if constexpr (std::is_floating_point_v<T>) {
        std::int64_t wrong = -1;
        for (std::int64_t i = 0; i < got.size() && wrong < 0; ++i)
          if (const T w = want.data<T>()[i];
              !std::isnan(w) && std::signbit(got.data<T>()[i]) != std::signbit(w))
            wrong = i;
        CAPTURE(what);
        CAPTURE(name);
        CHECK_MESSAGE(wrong == -1, "the sign of element " << wrong << " differs");
      }
    });
  }
}
template <class F, class... Args>
void check_backends(const std::string& what, const fj::Array& want, F f, const Args&... args) {
  check_on_backends(false, what, want, f, args...);
}
/// As check_backends, and a float zero must have the expected sign.
template <class F, class... Args>
void check_backends_bits(const std::string& what, const fj::Array& want, F f, const Args&... args) {
  check_on_backends(true, what, want, f, args...);
}

/// n values of T: the edge cases first (0, +-1, the extremes and their neighbours, alternating
/// bit patterns), then uniform random bit patterns.
template <class T>
std::vector<T> int_values(std::size_t n, unsigned seed) {
  using L = std::numeric_limits<T>;
  std::vector<T> v{T(0),
                   T(1),
                   T(2),
                   T(7),
                   L::max(),
                   L::min(),
                   static_cast<T>(L::max() - 1),
                   static_cast<T>(L::min() + 1),
                   static_cast<T>(0x5555555555555555ull),
                   static_cast<T>(0xAAAAAAAAAAAAAAAAull),
                   static_cast<T>(-1),
                   static_cast<T>(-2),
                   static_cast<T>(-7),
                   static_cast<T>(12345),
                   static_cast<T>(-12345)};
  std::mt19937_64 rng(seed);
  while (v.size() < n) v.push_back(static_cast<T>(rng()));
  v.resize(n);
  return v;
}

/// n shift amounts for T: every amount from 0 to the width + 2, negative ones, 100, then random
/// amounts in [-4, width + 4].
template <class T>
std::vector<T> shift_amounts(std::size_t n, unsigned seed) {
  const int bits = static_cast<int>(sizeof(T) * 8);
  std::vector<T> v;
  for (int s = 0; s <= bits + 2; ++s) v.push_back(static_cast<T>(s));
  for (int s : {-1, -2, -bits, 100}) v.push_back(static_cast<T>(s));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> amount(-4, bits + 4);
  while (v.size() < n) v.push_back(static_cast<T>(amount(rng)));
  v.resize(n);
  return v;
}

/// out[i] = f(a[i], b[j]) with b broadcast NumPy-style from the trailing dims.
template <class R, class A, class B, class F>
std::vector<R> broadcast_map(const std::vector<A>& a, const std::vector<B>& b, F f) {
  std::vector<R> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = f(a[i], b[i % b.size()]);
  return out;
}

template <class T>
fj::Array vec(const std::vector<T>& v, const fj::Shape& shape) {
  return fj::array(v, shape);
}
template <class T>
fj::Array vec(const std::vector<T>& v) {
  return fj::array(v, fj::Shape{static_cast<std::int64_t>(v.size())});
}

}  // namespace fusejit_int_test
