// Reductions for the reference backend: plain loops in a fixed order, the oracle for the
// compiled backends (which reduce in vector lanes and blocks, so floats may differ by rounding).
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/float_math.hpp"
#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::detail::reference {

namespace ops {

template <class T>
constexpr T lowest() {
  if constexpr (std::is_floating_point_v<T>)
    return -std::numeric_limits<T>::infinity();
  else
    return std::numeric_limits<T>::lowest();
}
template <class T>
constexpr T highest() {
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::infinity();
  else
    return std::numeric_limits<T>::max();
}

struct Reduction {
  static constexpr int arity = 1;
  static constexpr bool is_reduction = true;
};
struct reduce_sum : Reduction {
  template <class T>
  static constexpr bool accepts = !std::is_same_v<T, bool>;
  template <class T>
  static T identity() {
    return T(0);
  }
  template <class T>
  static T combine(T a, T b) {
    return wrap_add(a, b);  // integers wrap
  }
};
struct reduce_prod : Reduction {
  template <class T>
  static constexpr bool accepts = !std::is_same_v<T, bool>;
  template <class T>
  static T identity() {
    return T(1);
  }
  template <class T>
  static T combine(T a, T b) {
    return wrap_mul(a, b);  // integers wrap
  }
};
// As lax.max / lax.min (math::max_scalar): NaN propagates from either side, max(+0, -0) = +0 and
// min(+0, -0) = -0 in either order. The LLVM backend combines its thread partials with these.
struct reduce_max : Reduction {
  template <class T>
  static constexpr bool accepts = true;
  template <class T>
  static T identity() {
    return lowest<T>();
  }
  template <class T>
  static T combine(T a, T b) {
    return math::max_scalar(a, b);
  }
};
struct reduce_min : Reduction {
  template <class T>
  static constexpr bool accepts = true;
  template <class T>
  static T identity() {
    return highest<T>();
  }
  template <class T>
  static T combine(T a, T b) {
    return math::min_scalar(a, b);
  }
};
struct reduce_and : Reduction {
  template <class T>
  static constexpr bool accepts = !std::is_floating_point_v<T>;
  template <class T>
  static T identity() {
    if constexpr (std::is_same_v<T, bool>)
      return true;
    else
      return static_cast<T>(~T(0));
  }
  template <class T>
  static T combine(T a, T b) {
    return static_cast<T>(a & b);
  }
};
struct reduce_or : Reduction {
  template <class T>
  static constexpr bool accepts = !std::is_floating_point_v<T>;
  template <class T>
  static T identity() {
    return T(0);
  }
  template <class T>
  static T combine(T a, T b) {
    return static_cast<T>(a | b);
  }
};

}  // namespace ops

// Float sums are pairwise, as NumPy's: a serial f32 chain over a million terms loses about
// four digits; pairwise summation keeps the error near log2(n) ulps.
template <class T>
void pairwise_sum(const Shape& s, const std::vector<bool>& reduced, const T* x, T* o) {
  const auto st = row_major_strides(s);
  std::vector<int> kept_dims, red_dims;
  for (int d = 0; d < s.rank(); ++d)
    (reduced[static_cast<std::size_t>(d)] ? red_dims : kept_dims).push_back(d);
  auto offset = [&](const std::vector<int>& dims, std::int64_t flat) {
    std::int64_t off = 0;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
      off += (flat % s[*it]) * st[static_cast<std::size_t>(*it)];
      flat /= s[*it];
    }
    return off;
  };
  std::int64_t n_red = 1, n_out = 1;
  for (int d : red_dims) n_red *= s[d];
  for (int d : kept_dims) n_out *= s[d];
  for (std::int64_t j = 0; j < n_out; ++j) {
    const std::int64_t base = offset(kept_dims, j);
    auto sum = [&](auto& self, std::int64_t lo, std::int64_t hi) -> T {
      if (hi - lo <= 128) {
        T acc = 0;
        for (std::int64_t r = lo; r < hi; ++r) acc += x[base + offset(red_dims, r)];
        return acc;
      }
      const std::int64_t mid = lo + (hi - lo) / 2;
      return self(self, lo, mid) + self(self, mid, hi);
    };
    o[j] = sum(sum, 0, n_red);
  }
}

/// out[j] = combine over the reduced axes, visiting the input in row-major order.
template <class Op, class T>
void run_reduce(const ir::Eqn& eqn, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const auto& axes = eqn.params.get<std::vector<std::int64_t>>("axes");
  std::vector<bool> reduced(static_cast<std::size_t>(s.rank()), false);
  for (auto a : axes) reduced[static_cast<std::size_t>(a)] = true;
  // Output stride of each input dim (0 along reduced dims).
  std::vector<std::int64_t> ostride(static_cast<std::size_t>(s.rank()), 0);
  std::int64_t acc = 1;
  for (int d = s.rank() - 1; d >= 0; --d)
    if (!reduced[static_cast<std::size_t>(d)])
      ostride[static_cast<std::size_t>(d)] = acc, acc *= s[d];
  T* o = static_cast<T*>(out[0].buf->data);
  const T* x = static_cast<const T*>(in[0].buf->data);
  if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, ops::reduce_sum>)
    return pairwise_sum(s, reduced, x, o);
  const std::int64_t n_out = out[0].aval.shape.size();
  for (std::int64_t j = 0; j < n_out; ++j) o[j] = Op::template identity<T>();
  std::vector<std::int64_t> idx(static_cast<std::size_t>(s.rank()), 0);
  std::int64_t oj = 0;
  const std::int64_t n = s.size();
  for (std::int64_t i = 0; i < n; ++i) {
    o[oj] = Op::combine(o[oj], x[i]);
    // Advance the multi-index (row-major) and the output offset with it.
    for (int d = s.rank() - 1; d >= 0; --d) {
      const auto ud = static_cast<std::size_t>(d);
      if (++idx[ud] < s[d]) {
        oj += ostride[ud];
        break;
      }
      oj -= ostride[ud] * (s[d] - 1);
      idx[ud] = 0;
    }
  }
}

}  // namespace fj::detail::reference
