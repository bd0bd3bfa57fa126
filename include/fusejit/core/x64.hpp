// x64 mode (jax_enable_x64): whether the default integer and float dtypes are 64-bit.
#pragma once
#include <atomic>
#include <type_traits>

#include "fusejit/core/dtype.hpp"

namespace fj {

namespace detail {
// -1: not set on this thread (the process setting decides), 0: off, 1: on.
inline thread_local int x64_here = -1;
// -1: not set by fj::enable_x64 (FUSEJIT_ENABLE_X64 decides), 0: off, 1: on.
inline std::atomic<int> x64_process{-1};
/// FUSEJIT_ENABLE_X64 read once: set and not "0".
bool x64_from_environment();
}  // namespace detail

/// Whether x64 mode is on for this thread now: an fj::x64_scope, else fj::enable_x64's setting,
/// else the environment variable FUSEJIT_ENABLE_X64 (off when unset). With it on, as with
/// jax_enable_x64, the default integer dtype (iota, arange, argmax, counts, nonzero, sums of
/// bools and narrower ints, weak integer scalars) is int64 and the default float dtype
/// (factories without a dtype, weak float scalars, random's default) is float64. fusejit's
/// float64 arrays exist in either mode; only these defaults change.
inline bool x64_enabled() {
  if (detail::x64_here >= 0) return detail::x64_here == 1;
  const int p = detail::x64_process.load(std::memory_order_relaxed);
  return p >= 0 ? p == 1 : detail::x64_from_environment();
}

/// Turns x64 mode on or off for the whole process, as
/// `jax.config.update("jax_enable_x64", on)`; an fj::x64_scope still overrides it on its thread.
/// Every jit cache keys on the mode, so a function traced in one mode retraces in the other.
/// fj::enable_x64(); auto n = fj::arange(3);  // int64
inline void enable_x64(bool on = true) {
  detail::x64_process.store(on ? 1 : 0, std::memory_order_relaxed);
}

/// While one lives, x64 mode is `on` on the thread that made it (jax.experimental.enable_x64 /
/// disable_x64 as a context). Scopes nest; the previous mode returns when it is destroyed.
/// { fj::x64_scope x64; auto i = fj::argmax(x); }  // int64 index
class x64_scope {
 public:
  /// Sets x64 mode to `on` on this thread until destroyed.
  explicit x64_scope(bool on = true) : previous_(detail::x64_here) {
    detail::x64_here = on ? 1 : 0;
  }
  ~x64_scope() { detail::x64_here = previous_; }
  x64_scope(const x64_scope&) = delete;
  x64_scope& operator=(const x64_scope&) = delete;

 private:
  int previous_;
};

/// JAX's default integer dtype (dtypes.int_): int64 in x64 mode, else int32.
inline DType default_int_dtype() { return x64_enabled() ? DType::i64 : DType::i32; }
/// JAX's default float dtype (dtypes.float_): float64 in x64 mode, else float32.
inline DType default_float_dtype() { return x64_enabled() ? DType::f64 : DType::f32; }
/// The dtype JAX gives a Python scalar of C++ type T: bool, the default int for an integer, the
/// default float for a floating value.
template <class T>
DType default_dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return DType::bool_;
  else if constexpr (std::is_integral_v<T>)
    return default_int_dtype();
  else
    return default_float_dtype();
}

}  // namespace fj
