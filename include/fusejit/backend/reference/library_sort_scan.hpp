// The host routines of the cumulative reductions (cumsum, cumprod, cummax, cummin), sort and
// top_k, shared by the reference and LLVM backends (library primitives: no kernel fuses them).
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/backend/reference/float_math.hpp"
#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::detail::reference::library {

/// The operand's shape split around `axis`: outer blocks, the axis' length, inner stride.
struct AxisSplit {
  std::int64_t outer = 1, n = 1, inner = 1;
  AxisSplit(const Shape& s, int axis) {
    for (int d = 0; d < axis; ++d) outer *= s[d];
    n = s[axis];
    for (int d = axis + 1; d < s.rank(); ++d) inner *= s[d];
  }
};

// ---- cumulative reductions ----------------------------------------------------------------

/// Each line along the axis accumulated in order (from the far end when reversed): element i
/// of the result combines elements 0..i. Integers wrap; max/min propagate NaN as lax.max does.
template <class T, ir::Prim P>
void run_cumulative(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const AxisSplit a(s, static_cast<int>(e.params.get<std::int64_t>("axis")));
  const bool reverse = e.params.get<bool>("reverse");
  const T* x = static_cast<const T*>(in[0].buf->data);
  T* o = static_cast<T*>(out[0].buf->data);
  auto combine = [](T acc, T v) -> T {
    if constexpr (P == ir::Prim::cummax)
      return math::max_scalar(acc, v);
    else if constexpr (P == ir::Prim::cummin)
      return math::min_scalar(acc, v);
    else if constexpr (std::is_integral_v<T>) {
      return P == ir::Prim::cumsum ? wrap_add(acc, v) : wrap_mul(acc, v);
    } else {
      return P == ir::Prim::cumsum ? acc + v : acc * v;
    }
  };
  for (std::int64_t p = 0; p < a.outer; ++p)
    for (std::int64_t q = 0; q < a.inner; ++q) {
      const std::int64_t base = p * a.n * a.inner + q;
      T acc{};
      for (std::int64_t k = 0; k < a.n; ++k) {
        const std::int64_t i = base + (reverse ? a.n - 1 - k : k) * a.inner;
        acc = k == 0 ? x[i] : combine(acc, x[i]);
        o[i] = acc;
      }
    }
}

/// A value's place in IEEE 754's total order (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN),
/// as an unsigned integer; integers and bools by value.
template <class T>
auto total_order_key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const U bits = std::bit_cast<U>(v);
    constexpr U sign = U{1} << (sizeof(T) * 8 - 1);
    return (bits & sign) ? static_cast<U>(~bits) : static_cast<U>(bits | sign);
  } else {
    return v;
  }
}

// ---- sort ----------------------------------------------------------------------------------

/// lax.sort's order on one key: floats as -inf < ... < -0 == 0 < ... < inf < NaN (every NaN
/// equal), bools false < true, integers by value. Returns <0, 0 or >0.
template <class T>
int compare_keys(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

/// One key operand of a sort, compared through its dtype.
struct SortKey {
  const void* data;
  int (*cmp)(const void*, std::int64_t, std::int64_t);
};
template <class T>
int compare_at(const void* d, std::int64_t i, std::int64_t j) {
  const T* x = static_cast<const T*>(d);
  return compare_keys(x[i], x[j]);
}

/// A value's place in lax.sort's order as an unsigned integer of its width: floats as
/// total_order_key (below) with -0 made +0 and every NaN the largest value; integers and bools
/// by value.
template <class T>
auto lax_order_key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    if (std::isnan(v)) return std::numeric_limits<U>::max();
    return total_order_key(v == 0 ? T(0) : v);
  } else if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<U>(static_cast<U>(v) ^ (U{1} << (sizeof(T) * 8 - 1)));
  } else {
    return v;
  }
}

/// One line's stable order under a single key: the keys made unsigned (lax_order_key) and
/// paired with their index, so that std::sort, on distinct pairs, gives the stable order. Keys
/// of 32 bits or fewer pack with a 32-bit index into one 64-bit integer. Measured on 1M f32:
/// 3x faster than std::stable_sort of the indices through the comparison function.
template <class T>
void single_key_order(const T* key, std::int64_t n, std::vector<std::int64_t>& perm) {
  using K = decltype(lax_order_key(T{}));
  if constexpr (sizeof(K) <= 4) {
    if (n <= (std::int64_t{1} << 32)) {
      std::vector<std::uint64_t> packed(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i)
        packed[static_cast<std::size_t>(i)] =
            (static_cast<std::uint64_t>(lax_order_key(key[i])) << 32) |
            static_cast<std::uint64_t>(i);
      std::sort(packed.begin(), packed.end());
      for (std::int64_t i = 0; i < n; ++i)
        perm[static_cast<std::size_t>(i)] =
            static_cast<std::int64_t>(packed[static_cast<std::size_t>(i)] & 0xffffffffu);
      return;
    }
  }
  std::vector<std::pair<std::uint64_t, std::int64_t>> pairs(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    pairs[static_cast<std::size_t>(i)] = {static_cast<std::uint64_t>(lax_order_key(key[i])), i};
  std::sort(pairs.begin(), pairs.end());
  for (std::int64_t i = 0; i < n; ++i)
    perm[static_cast<std::size_t>(i)] = pairs[static_cast<std::size_t>(i)].second;
}

/// Sorts every line along `dimension` by the first num_keys operands (lexicographically) and
/// permutes all operands alike. A stable sort keeps equal keys in order; so does the unstable
/// request (the same routine), which JAX allows.
inline void run_sort(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const AxisSplit a(s, static_cast<int>(e.params.get<std::int64_t>("dimension")));
  const auto num_keys = static_cast<std::size_t>(e.params.get<std::int64_t>("num_keys"));
  const std::size_t ops = e.in.size();
  std::vector<std::vector<char>> lines(ops);  // one line of each operand, contiguous
  std::vector<SortKey> keys;
  for (std::size_t k = 0; k < ops; ++k) {
    lines[k].resize(static_cast<std::size_t>(a.n) * size_of(in[k].aval.dtype));
    if (k < num_keys)
      keys.push_back({lines[k].data(), visit_dtype(in[k].aval.dtype, [](auto t) {
                        return &compare_at<decltype(t)>;
                      })});
  }
  std::vector<std::int64_t> perm(static_cast<std::size_t>(a.n));
  for (std::int64_t p = 0; p < a.outer; ++p)
    for (std::int64_t q = 0; q < a.inner; ++q) {
      const std::int64_t base = p * a.n * a.inner + q;
      for (std::size_t k = 0; k < ops; ++k) {
        const std::size_t w = size_of(in[k].aval.dtype);
        const char* src = static_cast<const char*>(in[k].buf->data);
        for (std::int64_t i = 0; i < a.n; ++i)
          std::memcpy(lines[k].data() + static_cast<std::size_t>(i) * w,
                      src + static_cast<std::size_t>(base + i * a.inner) * w, w);
      }
      if (num_keys == 1) {
        visit_dtype(in[0].aval.dtype, [&](auto t) {
          using T = decltype(t);
          single_key_order(reinterpret_cast<const T*>(lines[0].data()), a.n, perm);
        });
      } else {
        std::iota(perm.begin(), perm.end(), std::int64_t{0});
        // Stable by the index tiebreak (std::stable_sort's libstdc++ 12 buffer trips clang
        // 19's deprecation warning, an error in the -Werror build).
        std::sort(perm.begin(), perm.end(), [&](std::int64_t i, std::int64_t j) {
          for (const SortKey& key : keys)
            if (const int c = key.cmp(key.data, i, j); c != 0) return c < 0;
          return i < j;
        });
      }
      for (std::size_t k = 0; k < ops; ++k) {
        const std::size_t w = size_of(in[k].aval.dtype);
        char* dst = static_cast<char*>(out[k].buf->data);
        for (std::int64_t i = 0; i < a.n; ++i)
          std::memcpy(
              dst + static_cast<std::size_t>(base + i * a.inner) * w,
              lines[k].data() + static_cast<std::size_t>(perm[static_cast<std::size_t>(i)]) * w, w);
      }
    }
}

// ---- top_k ---------------------------------------------------------------------------------

/// The k largest of each line along the last axis, largest first; among equal values the
/// lower index first (as XLA's TopK).
template <class T>
void run_top_k(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const AxisSplit a(s, s.rank() - 1);
  const auto k = e.params.get<std::int64_t>("k");
  const T* x = static_cast<const T*>(in[0].buf->data);
  T* values = static_cast<T*>(out[0].buf->data);
  auto* indices = static_cast<std::int32_t*>(out[1].buf->data);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(a.n));
  for (std::int64_t p = 0; p < a.outer; ++p) {
    const T* row = x + p * a.n;
    std::iota(idx.begin(), idx.end(), std::int64_t{0});
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), [&](std::int64_t i, std::int64_t j) {
      const auto ki = total_order_key(row[i]), kj = total_order_key(row[j]);
      return ki != kj ? ki > kj : i < j;
    });
    for (std::int64_t i = 0; i < k; ++i) {
      values[p * k + i] = row[idx[static_cast<std::size_t>(i)]];
      indices[p * k + i] = static_cast<std::int32_t>(idx[static_cast<std::size_t>(i)]);
    }
  }
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

template <ir::Prim P>
struct Cumulative {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return visit_dtype(g.aval(e.in[0]).dtype, [&](auto t) -> EqnFn {
      using T = decltype(t);
      if constexpr (std::is_same_v<T, bool>)
        throw DTypeError(std::string(ir::name(P)) + ": does not accept dtype bool");
      else
        return &library::run_cumulative<T, P>;
    });
  }
};
struct cumsum : Cumulative<ir::Prim::cumsum> {};
struct cumprod : Cumulative<ir::Prim::cumprod> {};
struct cummax : Cumulative<ir::Prim::cummax> {};
struct cummin : Cumulative<ir::Prim::cummin> {};
struct sort {
  static constexpr bool is_library = true;
  static constexpr int arity = -1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_sort; }
};
struct top_k {
  static constexpr bool is_library = true;
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return visit_dtype(g.aval(e.in[0]).dtype,
                       [](auto t) -> EqnFn { return &library::run_top_k<decltype(t)>; });
  }
};

}  // namespace fj::detail::reference::ops
