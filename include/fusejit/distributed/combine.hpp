// The elementwise combine of psum, pmax and pmin: the one piece of code behind both the in-memory
// reduction over a process's devices and the MPI reduction across processes, so the two give the
// same bits.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/ir/primitive.hpp"

namespace fj::distributed::detail {

/// `a` combined with `b`, where `a` comes from the earlier devices: psum wraps integers and is
/// `or` on bool; pmax and pmin give NaN if either side is NaN (lax.max, lax.min) and keep `a` on
/// ties, so that the result does not depend on how a reduction in device order is grouped.
template <ir::Prim P, class T>
T combine(T a, T b) {
  if constexpr (P == ir::Prim::psum) {
    if constexpr (std::is_same_v<T, bool>)
      return a || b;
    else
      return fj::detail::reference::wrap_add(a, b);
  } else {
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<T>::quiet_NaN();
    if constexpr (P == ir::Prim::pmax)
      return b > a ? b : a;
    else
      return b < a ? b : a;
  }
}

template <ir::Prim P, class T>
void combine_each(const T* a, const T* b, T* out, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k) out[k] = combine<P>(a[k], b[k]);
}

/// out[k] = combine(a[k], b[k]) for k < n under `p` (psum, pmax or pmin); `out` may be `a` or `b`.
/// The switch is outside the loop, which keeps each loop simple enough to vectorize.
template <class T>
void combine_range(ir::Prim p, const T* a, const T* b, T* out, std::int64_t n) {
  switch (p) {
    case ir::Prim::psum:
      return combine_each<ir::Prim::psum>(a, b, out, n);
    case ir::Prim::pmax:
      return combine_each<ir::Prim::pmax>(a, b, out, n);
    default:
      return combine_each<ir::Prim::pmin>(a, b, out, n);
  }
}

}  // namespace fj::distributed::detail
