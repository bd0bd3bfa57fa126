// What every jax.scipy.stats distribution in fusejit shares: the argument type that lets loc = 0
// and scale = 1 default as Python numbers do in JAX, and promote_args_inexact with the shape
// check that names the function, the argument and the shapes.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/factories.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/promotion.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/expr/array.hpp"
#include "fusejit/expr/special_functions.hpp"

namespace fj::scipy::stats {

/// A distribution's argument: an array, an expression, or a C++ number taken as a weakly typed
/// scalar (a Python number in JAX), so that the other arguments' dtype wins as it does in JAX.
struct Arg {
  Array value;  ///< the argument as an array
  /// From an array.
  Arg(const Array& a) : value(a) {}  // NOLINT: implicit, as JAX takes any array-like
  /// From an expression, evaluated (or recorded, under a trace).
  template <detail::Expr E>
  Arg(const E& e) : value(e) {}  // NOLINT
  /// From a C++ integer or float: a weakly typed scalar of the default dtype.
  template <class T>
  requires std::is_arithmetic_v<T> Arg(T v)  // NOLINT
      : value(detail::full_like_value(detail::index_scalar(0), static_cast<double>(v),
                                      default_dtype_of<T>(), true)) {}
};

}  // namespace fj::scipy::stats

namespace fj::detail::stats {

/// One named argument of a stats function, for promotion and the error messages.
struct Named {
  const char* name;  ///< the argument's name in JAX's signature
  Array value;       ///< its value
};

/// "x f64[3], loc f64[2]": the arguments and their types, for error messages.
inline std::string describe(const std::vector<Named>& args) {
  std::string s;
  for (const Named& a : args)
    s += (s.empty() ? "" : ", ") + std::string(a.name) + " " + a.value.aval().str();
  return s;
}

/// The broadcast shape of the arguments, or fj::ShapeError naming `fn` and every argument's
/// shape (JAX raises when the elementwise arithmetic meets them; this says where).
inline Shape broadcast_all(const char* fn, const std::vector<Named>& args) {
  std::vector<std::int64_t> out;
  for (const Named& a : args) {
    const Shape& s = a.value.shape();
    const int r = s.rank();
    if (static_cast<int>(out.size()) < r) out.insert(out.begin(), r - out.size(), 1);
    for (int i = 0; i < r; ++i) {
      std::int64_t& o = out[out.size() - r + i];
      const std::int64_t d = s[i];
      if (o == d || d == 1) continue;
      if (o != 1)
        throw ShapeError(std::string("scipy.stats.") + fn +
                         ": the shapes of the arguments do not " + "broadcast together (" +
                         describe(args) + ")");
      o = d;
    }
  }
  return Shape(out);
}

/// jnp's promote_args_inexact: every argument converted to their common dtype (JAX's lattice,
/// weak types included), made a float (i64 to f64, other integers and bool to f32) when it is
/// not one; the shapes must broadcast (fj::ShapeError otherwise).
inline std::vector<Array> promote_args_inexact(const char* fn, const std::vector<Named>& args) {
  (void)broadcast_all(fn, args);
  TypedDType t{args.at(0).value.dtype(), args.at(0).value.weak_type()};
  for (std::size_t i = 1; i < args.size(); ++i)
    t = promote_types(t, TypedDType{args[i].value.dtype(), args[i].value.weak_type()});
  const DType d = is_float(t.dtype) ? t.dtype : (t.dtype == DType::i64 ? DType::f64 : DType::f32);
  std::vector<Array> out;
  for (const Named& a : args)
    out.push_back(a.value.dtype() == d ? a.value : Array(fj::astype(a.value, d)));
  return out;
}

/// jnp's promote_dtypes_inexact: promote_args_inexact without the shape check, for the
/// functions whose arguments do not broadcast elementwise (multivariate_normal, dirichlet).
inline std::vector<Array> promote_dtypes_inexact(const std::vector<Named>& args) {
  TypedDType t{args.at(0).value.dtype(), args.at(0).value.weak_type()};
  for (std::size_t i = 1; i < args.size(); ++i)
    t = promote_types(t, TypedDType{args[i].value.dtype(), args[i].value.weak_type()});
  const DType d = is_float(t.dtype) ? t.dtype : (t.dtype == DType::i64 ? DType::f64 : DType::f32);
  std::vector<Array> out;
  for (const Named& a : args)
    out.push_back(a.value.dtype() == d ? a.value : Array(fj::astype(a.value, d)));
  return out;
}

/// A scalar of x's dtype, as JAX's _lax_const(x, v) (v rounded to that dtype).
inline Array cst(const Array& x, double v) { return fj::full({}, v, x.dtype()); }

/// `v` in x's float type and back: the value a constant JAX computes in that type has.
inline double in_dtype(const Array& x, double v) {
  return x.dtype() == DType::f32 ? static_cast<double>(static_cast<float>(v)) : v;
}

}  // namespace fj::detail::stats
