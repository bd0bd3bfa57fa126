// Element types (fj::f32, fj::i32, ...), their names, sizes and C++ counterparts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace fj {

/// An array's element type, jnp's dtypes: jnp.bool_, int32, int64, uint32, float32, float64.
/// x64 mode (fj::enable_x64) makes i64 and f64 the default dtypes, as jax_enable_x64 does.
enum class DType : std::uint8_t { bool_, i32, i64, u32, f32, f64 };

/// The dtypes by their jaxpr names (jnp.bool_, jnp.int32, ...): fj::zeros({3}, fj::i32).
///@{
inline constexpr DType bool_ = DType::bool_;
inline constexpr DType i32 = DType::i32;
inline constexpr DType i64 = DType::i64;
inline constexpr DType u32 = DType::u32;
inline constexpr DType f32 = DType::f32;
inline constexpr DType f64 = DType::f64;
///@}

/// How many dtypes there are (the values of DType are 0 to kNumDTypes - 1).
inline constexpr int kNumDTypes = 6;

/// Short name as jaxprs print it: f32, i32, bool.
constexpr std::string_view short_name(DType d) {
  constexpr std::string_view n[] = {"bool", "i32", "i64", "u32", "f32", "f64"};
  return n[static_cast<int>(d)];
}
/// NumPy name as `dtype=` and params print it: float32, int32, bool.
constexpr std::string_view long_name(DType d) {
  constexpr std::string_view n[] = {"bool", "int32", "int64", "uint32", "float32", "float64"};
  return n[static_cast<int>(d)];
}
/// Bytes per element (dtype.itemsize): 1 for bool, 4 or 8 for the others.
constexpr std::size_t size_of(DType d) {
  constexpr std::size_t s[] = {1, 4, 8, 4, 4, 8};
  return s[static_cast<int>(d)];
}
/// Whether d is f32 or f64 (jnp.issubdtype(d, jnp.floating)).
constexpr bool is_float(DType d) { return d == DType::f32 || d == DType::f64; }
/// Whether d is i32, i64 or u32 (jnp.issubdtype(d, jnp.integer)); bool is not.
constexpr bool is_int(DType d) { return d == DType::i32 || d == DType::i64 || d == DType::u32; }
/// Whether d has no sign: u32 and bool.
constexpr bool is_unsigned(DType d) { return d == DType::u32 || d == DType::bool_; }

/// The dtype of a C++ element type; only the six supported types have one.
template <class T>
struct dtype_of;
/// bool is fj::bool_.
template <>
struct dtype_of<bool> {
  static constexpr DType value = DType::bool_;  ///< fj::bool_
};
/// std::int32_t is fj::i32.
template <>
struct dtype_of<std::int32_t> {
  static constexpr DType value = DType::i32;  ///< fj::i32
};
/// std::int64_t is fj::i64.
template <>
struct dtype_of<std::int64_t> {
  static constexpr DType value = DType::i64;  ///< fj::i64
};
/// std::uint32_t is fj::u32.
template <>
struct dtype_of<std::uint32_t> {
  static constexpr DType value = DType::u32;  ///< fj::u32
};
/// float is fj::f32.
template <>
struct dtype_of<float> {
  static constexpr DType value = DType::f32;  ///< fj::f32
};
/// double is fj::f64.
template <>
struct dtype_of<double> {
  static constexpr DType value = DType::f64;  ///< fj::f64
};
/// dtype_of<T>::value, cv-qualifiers ignored: dtype_of_v<float> is fj::f32.
template <class T>
inline constexpr DType dtype_of_v = dtype_of<std::remove_cv_t<T>>::value;

/// A C++ element type fusejit has a dtype for: bool, std::int32_t, std::int64_t, std::uint32_t,
/// float, double.
template <class T>
concept Element = requires {
  dtype_of<std::remove_cv_t<T>>::value;
};

/// Calls f(T{}) with the C++ type of dtype d; the one dtype switch the library uses.
template <class F>
decltype(auto) visit_dtype(DType d, F&& f) {
  switch (d) {
    case DType::bool_:
      return f(bool{});
    case DType::i32:
      return f(std::int32_t{});
    case DType::i64:
      return f(std::int64_t{});
    case DType::u32:
      return f(std::uint32_t{});
    case DType::f32:
      return f(float{});
    case DType::f64:
      break;
  }
  return f(double{});
}

}  // namespace fj
