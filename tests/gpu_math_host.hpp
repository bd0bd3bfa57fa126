// The generated GPU math (backend/cuda/kernel_math.def) compiled for the host, with host
// versions of the few helpers it calls; the file that includes this is compiled with
// -ffp-contract=off (CMakeLists.txt), as the GPU compiles it with -fmad=false.
#pragma once
#include <bit>
#include <cmath>
#include <cstring>

namespace fusejit_test::gpu_math_host {

template <class T>
T fjm_load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void fjm_store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
inline float fjm_f32(unsigned long long b) {
  return std::bit_cast<float>(static_cast<unsigned>(b));
}
inline double fjm_f64(unsigned long long b) { return std::bit_cast<double>(b); }
inline unsigned fjm_bits(float x) { return std::bit_cast<unsigned>(x); }
inline unsigned long long fjm_bits(double x) { return std::bit_cast<unsigned long long>(x); }
template <class T>
T fjm_fma(T a, T b, T c) {
  return std::fma(a, b, c);
}
template <class T>
T fj_abs(T x) {
  return std::fabs(x);
}
template <class T>
T fj_floor(T x) {
  return std::floor(x);
}
template <class T>
T fjm_copysign(T x, T y) {
  return std::copysign(x, y);
}
template <class T>
T fj_sqrt(T x) {
  return std::sqrt(x);
}
inline unsigned long long fjm_ctlz64(unsigned long long x) {
  return x ? static_cast<unsigned long long>(__builtin_clzll(x)) : 64;
}
inline unsigned long long fjm_fshl64(unsigned long long a, unsigned long long b,
                                     unsigned long long s) {
  s &= 63;
  return s ? (a << s) | (b >> (64 - s)) : a;
}
inline unsigned long long fjm_smax64(unsigned long long a, unsigned long long b) {
  return static_cast<long long>(a) > static_cast<long long>(b) ? a : b;
}
template <class A, class B>
struct fjm_pair {
  A first;
  B second;
};
template <class A, class B>
fjm_pair<A, B> fjm_with_first(fjm_pair<A, B> p, A v) {
  p.first = v;
  return p;
}
template <class A, class B>
fjm_pair<A, B> fjm_with_second(fjm_pair<A, B> p, B v) {
  p.second = v;
  return p;
}

#define FJM_FN inline
#define FJM_GLOBAL inline
#define FJM_TABLE(...) __VA_ARGS__
#define FJM_ENTRY(name, type, uses_table, ...) __VA_ARGS__
#pragma GCC diagnostic push
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wunused-label"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <fusejit/backend/cuda/kernel_math.def>
#pragma GCC diagnostic pop
#undef FJM_ENTRY
#undef FJM_TABLE
#undef FJM_GLOBAL
#undef FJM_FN

}  // namespace fusejit_test::gpu_math_host
