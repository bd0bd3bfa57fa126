// The device functions every generated CUDA kernel starts with: JAX's integer and comparison
// semantics (no traps, no undefined behaviour), rounding and the generated math's helpers.
#pragma once

namespace fj::backend::cuda {

/// CUDA C++ for NVRTC, which sees no standard headers: everything here is spelled out. The
/// integer rules are the LLVM backend's (emit_ops.hpp): wrapping arithmetic, x / 0 == -1,
/// x % 0 == x, INT_MIN / -1 == INT_MIN, shifts by the width or more give 0 or the sign fill,
/// float to integer saturates with NaN to 0 (PTX's cvt.rzi does exactly that).
///
/// The transcendentals are not here: kernel_math.hpp adds those a module calls, generated from
/// the LLVM backend's own polynomials, so that CPU and GPU results are the same bits.
inline const char* kernel_prelude() {
  return R"CUDA(
#define FJ_DEVICE __device__ __forceinline__

FJ_DEVICE float fj_sqrt(float x) { return __fsqrt_rn(x); }
FJ_DEVICE double fj_sqrt(double x) { return __dsqrt_rn(x); }
FJ_DEVICE float fj_nextafter(float x, float y) { return nextafterf(x, y); }
FJ_DEVICE double fj_nextafter(double x, double y) { return nextafter(x, y); }
FJ_DEVICE bool fj_is_finite(float x) { return isfinite(x); }
FJ_DEVICE bool fj_is_finite(double x) { return isfinite(x); }
FJ_DEVICE int fj_population_count(int x) { return __popc((unsigned)x); }
FJ_DEVICE unsigned fj_population_count(unsigned x) { return __popc(x); }
FJ_DEVICE long long fj_population_count(long long x) { return __popcll((unsigned long long)x); }
FJ_DEVICE int fj_clz(int x) { return __clz(x); }
FJ_DEVICE unsigned fj_clz(unsigned x) { return __clz((int)x); }
FJ_DEVICE long long fj_clz(long long x) { return __clzll(x); }
FJ_DEVICE float fj_floor(float x) { return floorf(x); }
FJ_DEVICE double fj_floor(double x) { return floor(x); }
FJ_DEVICE float fj_ceil(float x) { return ceilf(x); }
FJ_DEVICE double fj_ceil(double x) { return ceil(x); }
FJ_DEVICE float fj_round_away(float x) { return roundf(x); }
FJ_DEVICE double fj_round_away(double x) { return round(x); }
FJ_DEVICE float fj_round_even(float x) { return rintf(x); }
FJ_DEVICE double fj_round_even(double x) { return rint(x); }
FJ_DEVICE float fj_fmod(float x, float y) { return fmodf(x, y); }
FJ_DEVICE double fj_fmod(double x, double y) { return fmod(x, y); }

// What the generated math (kernel_math.hpp) calls besides fj_abs, fj_floor and fj_sqrt, each
// exactly the LLVM instruction or intrinsic it stands for: fma, copysign, count leading zeros,
// funnel shift left, signed max, bit casts, loads and stores through byte pointers, and a
// helper's pair of results.
#define FJM_FN static __device__
#define FJM_GLOBAL __device__
template <class T> FJ_DEVICE T fjm_load(const unsigned char* p) { T v; memcpy(&v, p, sizeof v); return v; }
template <class T> FJ_DEVICE void fjm_store(unsigned char* p, T v) { memcpy(p, &v, sizeof v); }
FJ_DEVICE float fjm_f32(unsigned long long b) { return __int_as_float((int)(unsigned)b); }
FJ_DEVICE double fjm_f64(unsigned long long b) { return __longlong_as_double((long long)b); }
FJ_DEVICE unsigned fjm_bits(float x) { return (unsigned)__float_as_int(x); }
FJ_DEVICE unsigned long long fjm_bits(double x) { return (unsigned long long)__double_as_longlong(x); }
FJ_DEVICE float fjm_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
FJ_DEVICE double fjm_fma(double a, double b, double c) { return __fma_rn(a, b, c); }
FJ_DEVICE float fjm_copysign(float x, float y) { return copysignf(x, y); }
FJ_DEVICE double fjm_copysign(double x, double y) { return copysign(x, y); }
FJ_DEVICE unsigned long long fjm_ctlz64(unsigned long long x) { return (unsigned long long)__clzll((long long)x); }
FJ_DEVICE unsigned long long fjm_fshl64(unsigned long long a, unsigned long long b, unsigned long long s) {
  s &= 63;
  return s ? (a << s) | (b >> (64 - s)) : a;
}
FJ_DEVICE unsigned long long fjm_smax64(unsigned long long a, unsigned long long b) {
  return (long long)a > (long long)b ? a : b;
}
// A helper's two results (an LLVM struct {float, integer}), built by fjm_with_*.
template <class A, class B> struct fjm_pair { A first; B second; };
template <class A, class B> FJ_DEVICE fjm_pair<A, B> fjm_with_first(fjm_pair<A, B> p, A v) { p.first = v; return p; }
template <class A, class B> FJ_DEVICE fjm_pair<A, B> fjm_with_second(fjm_pair<A, B> p, B v) { p.second = v; return p; }

// Wrapping integer arithmetic: signed overflow is undefined in C++, so it goes through unsigned.
FJ_DEVICE int fj_wrap_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
FJ_DEVICE int fj_wrap_sub(int a, int b) { return (int)((unsigned)a - (unsigned)b); }
FJ_DEVICE int fj_wrap_mul(int a, int b) { return (int)((unsigned)a * (unsigned)b); }
FJ_DEVICE int fj_wrap_neg(int a) { return (int)(0u - (unsigned)a); }
FJ_DEVICE long long fj_wrap_add(long long a, long long b) {
  return (long long)((unsigned long long)a + (unsigned long long)b);
}
FJ_DEVICE long long fj_wrap_sub(long long a, long long b) {
  return (long long)((unsigned long long)a - (unsigned long long)b);
}
FJ_DEVICE long long fj_wrap_mul(long long a, long long b) {
  return (long long)((unsigned long long)a * (unsigned long long)b);
}
FJ_DEVICE long long fj_wrap_neg(long long a) { return (long long)(0ull - (unsigned long long)a); }
FJ_DEVICE unsigned fj_wrap_add(unsigned a, unsigned b) { return a + b; }
FJ_DEVICE unsigned fj_wrap_sub(unsigned a, unsigned b) { return a - b; }
FJ_DEVICE unsigned fj_wrap_mul(unsigned a, unsigned b) { return a * b; }
FJ_DEVICE unsigned fj_wrap_neg(unsigned a) { return 0u - a; }

FJ_DEVICE int fj_idiv(int a, int b) { return b == 0 ? -1 : b == -1 ? fj_wrap_neg(a) : a / b; }
FJ_DEVICE long long fj_idiv(long long a, long long b) {
  return b == 0 ? -1 : b == -1 ? fj_wrap_neg(a) : a / b;
}
FJ_DEVICE unsigned fj_idiv(unsigned a, unsigned b) { return b == 0 ? 0xffffffffu : a / b; }
FJ_DEVICE int fj_irem(int a, int b) { return b == 0 ? a : b == -1 ? 0 : a % b; }
FJ_DEVICE long long fj_irem(long long a, long long b) { return b == 0 ? a : b == -1 ? 0 : a % b; }
FJ_DEVICE unsigned fj_irem(unsigned a, unsigned b) { return b == 0 ? a : a % b; }

FJ_DEVICE float fj_abs(float a) { return fabsf(a); }
FJ_DEVICE double fj_abs(double a) { return fabs(a); }
FJ_DEVICE int fj_abs(int a) { return a < 0 ? fj_wrap_neg(a) : a; }
FJ_DEVICE long long fj_abs(long long a) { return a < 0 ? fj_wrap_neg(a) : a; }
FJ_DEVICE unsigned fj_abs(unsigned a) { return a; }

// lax.sign: -1, 0 or +1, and x itself for +-0 and NaN.
FJ_DEVICE float fj_sign(float a) { return a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : a; }
FJ_DEVICE double fj_sign(double a) { return a > 0.0 ? 1.0 : a < 0.0 ? -1.0 : a; }
FJ_DEVICE int fj_sign(int a) { return (a > 0) - (a < 0); }
FJ_DEVICE long long fj_sign(long long a) { return (a > 0) - (a < 0); }
FJ_DEVICE unsigned fj_sign(unsigned a) { return a != 0u; }

// lax.max / lax.min as XLA defines them: a NaN on either side propagates, and -0 < +0, so
// max(+0, -0) = +0 and min(+0, -0) = -0 in either order (equal operands differ only in the sign
// of zero: max takes the one without the sign bit, min the one with it).
FJ_DEVICE float fj_max(float a, float b) {
  return a != a ? a : a == b ? (__float_as_int(a) < 0 ? b : a) : a > b ? a : b;
}
FJ_DEVICE double fj_max(double a, double b) {
  return a != a ? a : a == b ? (__double_as_longlong(a) < 0 ? b : a) : a > b ? a : b;
}
FJ_DEVICE float fj_min(float a, float b) {
  return a != a ? a : a == b ? (__float_as_int(a) < 0 ? a : b) : a < b ? a : b;
}
FJ_DEVICE double fj_min(double a, double b) {
  return a != a ? a : a == b ? (__double_as_longlong(a) < 0 ? a : b) : a < b ? a : b;
}
template <class T>
FJ_DEVICE T fj_max(T a, T b) { return a > b ? a : b; }
template <class T>
FJ_DEVICE T fj_min(T a, T b) { return a < b ? a : b; }

// XLA's shifts: the amount is unsigned; one of the width or more gives 0 (left, logical) or the
// sign fill (arithmetic, on the bits read as signed).
FJ_DEVICE int fj_shift_left(int a, int n) { return (unsigned)n > 31u ? 0 : (int)((unsigned)a << n); }
FJ_DEVICE unsigned fj_shift_left(unsigned a, unsigned n) { return n > 31u ? 0u : a << n; }
FJ_DEVICE long long fj_shift_left(long long a, long long n) {
  return (unsigned long long)n > 63ull ? 0 : (long long)((unsigned long long)a << n);
}
FJ_DEVICE int fj_shift_right_logical(int a, int n) {
  return (unsigned)n > 31u ? 0 : (int)((unsigned)a >> n);
}
FJ_DEVICE unsigned fj_shift_right_logical(unsigned a, unsigned n) { return n > 31u ? 0u : a >> n; }
FJ_DEVICE long long fj_shift_right_logical(long long a, long long n) {
  return (unsigned long long)n > 63ull ? 0 : (long long)((unsigned long long)a >> n);
}
FJ_DEVICE int fj_shift_right_arithmetic(int a, int n) { return a >> ((unsigned)n > 31u ? 31 : n); }
FJ_DEVICE unsigned fj_shift_right_arithmetic(unsigned a, unsigned n) {
  return (unsigned)((int)a >> (n > 31u ? 31u : n));
}
FJ_DEVICE long long fj_shift_right_arithmetic(long long a, long long n) {
  return a >> ((unsigned long long)n > 63ull ? 63 : n);
}

// convert_element_type: C's conversions, except float to integer (saturating, NaN to 0, as
// XLA on CPU) and to bool (x != 0).
template <class To, class From>
FJ_DEVICE To fj_convert(From x) { return (To)x; }
template <> FJ_DEVICE int fj_convert<int, float>(float x) { return __float2int_rz(x); }
template <> FJ_DEVICE unsigned fj_convert<unsigned, float>(float x) { return __float2uint_rz(x); }
template <> FJ_DEVICE long long fj_convert<long long, float>(float x) { return __float2ll_rz(x); }
template <> FJ_DEVICE int fj_convert<int, double>(double x) { return __double2int_rz(x); }
template <> FJ_DEVICE unsigned fj_convert<unsigned, double>(double x) {
  return __double2uint_rz(x);
}
template <> FJ_DEVICE long long fj_convert<long long, double>(double x) {
  return __double2ll_rz(x);
}
template <> FJ_DEVICE bool fj_convert<bool, float>(float x) { return x != 0.0f; }
template <> FJ_DEVICE bool fj_convert<bool, double>(double x) { return x != 0.0; }

// bitcast_convert_type: the same bits (the shape rule checks that the widths agree); between
// integers of one width a C conversion keeps the bits.
template <class To, class From>
FJ_DEVICE To fj_bitcast(From x) { return (To)x; }
template <> FJ_DEVICE int fj_bitcast<int, float>(float x) { return __float_as_int(x); }
template <> FJ_DEVICE unsigned fj_bitcast<unsigned, float>(float x) { return __float_as_uint(x); }
template <> FJ_DEVICE float fj_bitcast<float, int>(int x) { return __int_as_float(x); }
template <> FJ_DEVICE float fj_bitcast<float, unsigned>(unsigned x) { return __uint_as_float(x); }
template <> FJ_DEVICE long long fj_bitcast<long long, double>(double x) {
  return __double_as_longlong(x);
}
template <> FJ_DEVICE double fj_bitcast<double, long long>(long long x) {
  return __longlong_as_double(x);
}

// Reduction identities: max starts at the lowest value, min at the highest.
template <class T> FJ_DEVICE T fj_lowest();
template <class T> FJ_DEVICE T fj_highest();
template <> FJ_DEVICE float fj_lowest<float>() { return __int_as_float(0xff800000); }
template <> FJ_DEVICE float fj_highest<float>() { return __int_as_float(0x7f800000); }
template <> FJ_DEVICE double fj_lowest<double>() { return __longlong_as_double(0xfff0000000000000ull); }
template <> FJ_DEVICE double fj_highest<double>() { return __longlong_as_double(0x7ff0000000000000ull); }
template <> FJ_DEVICE int fj_lowest<int>() { return -2147483647 - 1; }
template <> FJ_DEVICE int fj_highest<int>() { return 2147483647; }
template <> FJ_DEVICE unsigned fj_lowest<unsigned>() { return 0u; }
template <> FJ_DEVICE unsigned fj_highest<unsigned>() { return 0xffffffffu; }
template <> FJ_DEVICE long long fj_lowest<long long>() { return -9223372036854775807ll - 1; }
template <> FJ_DEVICE long long fj_highest<long long>() { return 9223372036854775807ll; }
template <> FJ_DEVICE bool fj_lowest<bool>() { return false; }
template <> FJ_DEVICE bool fj_highest<bool>() { return true; }

// A reduction tree's last five steps: lane i + d's value, from the whole warp.
template <class T> FJ_DEVICE T fj_shfl_down(T v, int d) { return __shfl_down_sync(0xffffffffu, v, d); }
FJ_DEVICE bool fj_shfl_down(bool v, int d) { return __shfl_down_sync(0xffffffffu, (int)v, d) != 0; }

)CUDA";
}

}  // namespace fj::backend::cuda
