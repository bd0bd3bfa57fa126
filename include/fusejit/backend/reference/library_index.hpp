// The host routines of gather and the scatters, shared by the reference and LLVM backends: each
// element of the window tensor (gather's result, scatter's updates) is mapped to the operand
// element it reads or accumulates into, after XLA's gather/scatter semantics.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/reference/float_math.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/ir/gather_dims.hpp"
#include "fusejit/ir/graph.hpp"

namespace fj::detail::reference::library {

/// Maps window-tensor elements to operand elements. Window axes (dims.window) walk the window
/// along the operand axes that are neither collapsed nor batching, in order; the other axes of
/// the window tensor are the indices' batch axes, in order, and pick the index vector (the
/// indices' last axis), whose k-th entry starts operand axis start_map[k].
class IndexMap {
 public:
  IndexMap(const ir::Params& params, const Shape& operand, const backend::Value& indices,
           const Shape& window_tensor, std::vector<std::int64_t> window_sizes)
      : d_(ir::IndexDims::from(params)),
        mode_(ir::mode_of(params)),
        operand_(operand),
        wt_(window_tensor),
        sizes_(std::move(window_sizes)),
        indices_(indices) {
    const Shape& is = indices.aval.shape;
    vec_ = is[is.rank() - 1];
    for (int a = 0; a < wt_.rank(); ++a) (is_window(a) ? window_axes_ : batch_axes_).push_back(a);
    for (int a = 0; a < operand_.rank(); ++a)
      if (!d_.is_inserted(a)) operand_window_.push_back(a);
    for (int a = 0; a + 1 < is.rank(); ++a) indices_batch_sizes_.push_back(is[a]);
    strides_.assign(static_cast<std::size_t>(operand_.rank()), 1);
    for (int a = operand_.rank() - 2; a >= 0; --a)
      strides_[static_cast<std::size_t>(a)] =
          strides_[static_cast<std::size_t>(a) + 1] * operand_[a + 1];
    for (auto axis : d_.start_map) {
      const auto a = static_cast<std::size_t>(axis);
      starts_.push_back({operand_[static_cast<int>(axis)] - sizes_[a], strides_[a]});
    }
    clamps_ = mode_ != ir::GatherMode::fill_or_drop;
  }

  using Coord = std::array<std::int64_t, static_cast<std::size_t>(kMaxRank)>;

  /// Calls f(t, position) for every window-tensor element t in order, with the flat operand
  /// position it maps to, or -1 where its window leaves the operand and the mode fills (gather)
  /// or drops (scatter). The index array is read in its own dtype, never copied.
  template <class F>
  void for_each(F&& f) const {
    visit_dtype(indices_.aval.dtype, [&](auto t) {
      const auto* idx = static_cast<const decltype(t)*>(indices_.buf->data);
      if (rows_then_window())
        for_each_row(idx, f);
      else
        for_each_element(idx, f);
    });
  }

  /// XLA's scatter drops out-of-range updates unless told to clip.
  void drop_unless_clip() { clamps_ = mode_ == ir::GatherMode::clip; }

 private:
  // The layout jnp stages for x[idx], x.at[idx] and take: the batch axes first, then the window
  // axes, and no batching dims. Then element t is window element t % W of index vector t / W,
  // and a window's operand positions are one start plus fixed offsets: a histogram's scatter-add
  // costs a load of the index, a bounds check and the update per element (8x faster than the
  // general walk below on 1M indices, bench/index_linalg.cpp).
  bool rows_then_window() const {
    if (!d_.operand_batching.empty()) return false;
    for (std::size_t k = 0; k < window_axes_.size(); ++k)
      if (window_axes_[k] != static_cast<int>(batch_axes_.size() + k)) return false;
    return true;
  }

  template <class I, class F>
  void for_each_row(const I* idx, F& f) const {
    // The offsets of the window's elements from its start, in the window tensor's order.
    std::vector<std::int64_t> offsets{0};
    for (std::size_t k = 0; k < window_axes_.size(); ++k) {
      const std::int64_t n = wt_[window_axes_[k]];
      const std::int64_t stride = strides_[static_cast<std::size_t>(operand_window_[k])];
      std::vector<std::int64_t> next;
      next.reserve(offsets.size() * static_cast<std::size_t>(n));
      for (std::int64_t o : offsets)
        for (std::int64_t i = 0; i < n; ++i) next.push_back(o + i * stride);
      offsets = std::move(next);
    }
    const auto w = static_cast<std::int64_t>(offsets.size());
    if (w == 0) return;
    const std::int64_t rows = wt_.size() / w;
    if (w == 1 && vec_ == 1 && starts_.size() == 1) {
      // One index per element (a histogram, x[idx] of a vector): the start axis's bound and
      // stride, and a copy of f, are locals the loop keeps in registers. Through window_start's
      // loop over the vector, f's captures reloaded from the caller's frame each time, the
      // routine took 1.3 ms of the 1M-index histogram (bench/index_linalg.cpp), now 0.6 ms
      // (with the updates a splat, run_scatter). window_start's per-axis check is written out
      // here: through a shared helper returning -1 for a dropped start the loop took 0.70 ms
      // instead of 0.62 (measured in review).
      const StartAxis a = starts_[0];
      const bool clamps = clamps_;
      F g = f;
      for (std::int64_t r = 0; r < rows; ++r) {
        auto s = static_cast<std::int64_t>(idx[r]);
        if (s < 0 || s > a.hi) {
          if (!clamps) {
            g(r, std::int64_t{-1});
            continue;
          }
          s = std::clamp<std::int64_t>(s, 0, a.hi);
        }
        g(r, s * a.stride);
      }
      return;
    }
    if (w == 1) {  // one element per index vector
      for (std::int64_t r = 0; r < rows; ++r) f(r, window_start(idx + r * vec_, Coord{}));
      return;
    }
    for (std::int64_t r = 0, t = 0; r < rows; ++r) {
      const std::int64_t start = window_start(idx + r * vec_, Coord{});
      for (std::int64_t o : offsets) f(t++, start < 0 ? -1 : start + o);
    }
  }

  // The general walk: the coordinates advance like an odometer, with no division per element.
  template <class I, class F>
  void for_each_element(const I* idx, F& f) const {
    const std::int64_t n = wt_.size();
    Coord coord{};
    for (std::int64_t t = 0; t < n; ++t) {
      f(t, position(idx, coord));
      for (int a = wt_.rank() - 1; a >= 0; --a) {
        if (++coord[static_cast<std::size_t>(a)] < wt_[a]) break;
        coord[static_cast<std::size_t>(a)] = 0;
      }
    }
  }

  // The flat position of a window's first element from its index vector `v` (and the batching
  // coordinates in `batch_pos`), or -1 if the window leaves the operand and is dropped or filled.
  template <class I>
  std::int64_t window_start(const I* v, const Coord& batch_pos) const {
    std::int64_t flat = 0;
    for (std::size_t k = 0; k < starts_.size(); ++k) {
      const StartAxis& a = starts_[k];
      auto s = static_cast<std::int64_t>(v[k]);
      if (s < 0 || s > a.hi) {
        if (!clamps_) return -1;
        s = std::clamp<std::int64_t>(s, 0, a.hi);
      }
      flat += s * a.stride;
    }
    for (std::size_t k = 0; k < d_.operand_batching.size(); ++k) {
      const auto axis = static_cast<std::size_t>(d_.operand_batching[k]);
      flat += batch_pos[axis] * strides_[axis];
    }
    return flat;
  }

  template <class I>
  std::int64_t position(const I* idx, const Coord& coord) const {
    // The index vector's position: the batch coordinates, row-major over the indices' batch axes.
    std::int64_t row = 0;
    for (std::size_t k = 0; k < batch_axes_.size(); ++k)
      row = row * indices_batch_sizes_[k] + coord[static_cast<std::size_t>(batch_axes_[k])];
    Coord batch_pos{};
    for (std::size_t k = 0; k < d_.operand_batching.size(); ++k)
      batch_pos[static_cast<std::size_t>(d_.operand_batching[k])] = coord[static_cast<std::size_t>(
          batch_axes_[static_cast<std::size_t>(d_.indices_batching[k])])];
    const std::int64_t start = window_start(idx + row * vec_, batch_pos);
    if (start < 0) return -1;
    std::int64_t flat = start;
    for (std::size_t k = 0; k < operand_window_.size(); ++k)
      flat += coord[static_cast<std::size_t>(window_axes_[k])] *
              strides_[static_cast<std::size_t>(operand_window_[k])];
    return flat;
  }

  bool is_window(int a) const {
    return std::find(d_.window.begin(), d_.window.end(), a) != d_.window.end();
  }
  ir::IndexDims d_;
  ir::GatherMode mode_;
  bool clamps_ = false;  // an out-of-range start is clamped, else its window dropped or filled
  // Per index-vector entry: the largest start its operand axis takes, and that axis's stride.
  struct StartAxis {
    std::int64_t hi, stride;
  };
  std::vector<StartAxis> starts_;
  Shape operand_, wt_;
  std::vector<std::int64_t> sizes_, indices_batch_sizes_, strides_;
  const backend::Value& indices_;
  std::vector<int> window_axes_, batch_axes_, operand_window_;
  std::int64_t vec_ = 0;
};

/// gather's fill for an out-of-range window: the param, or JAX's default for None (NaN for
/// floats, the lowest value of signed integers, the highest of unsigned ones, true for bool).
template <class T>
T gather_fill(const ir::Params& p) {
  const std::string& s = p.get<std::string>("fill_value");
  if (s != "None") {
    if (s == "True" || s == "False") return static_cast<T>(s == "True");
    return static_cast<T>(std::strtod(s.c_str(), nullptr));
  }
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
  if constexpr (std::is_same_v<T, bool>) return true;
  if constexpr (std::is_signed_v<T>) return std::numeric_limits<T>::lowest();
  return std::numeric_limits<T>::max();
}

template <class T>
void run_gather(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const auto& ss = e.params.get<std::vector<std::int64_t>>("slice_sizes");
  const IndexMap map(e.params, in[0].aval.shape, in[1], out[0].aval.shape, ss);
  const T* x = static_cast<const T*>(in[0].buf->data);
  T* y = static_cast<T*>(out[0].buf->data);
  const T fill = gather_fill<T>(e.params);
  map.for_each([x, y, fill](std::int64_t t, std::int64_t at) { y[t] = at < 0 ? fill : x[at]; });
}

/// The window extent of each operand axis of a scatter: 1 on inserted and batching axes, the
/// updates' window axes, in order, on the rest.
inline std::vector<std::int64_t> scatter_window_sizes(const ir::IndexDims& d, const Shape& operand,
                                                      const Shape& updates) {
  std::vector<std::int64_t> sizes;
  std::size_t k = 0;
  for (int a = 0; a < operand.rank(); ++a)
    sizes.push_back(d.is_inserted(a) ? 1 : updates[static_cast<int>(d.window[k++])]);
  return sizes;
}

/// How each scatter combines an update into the operand element it lands on, as its
/// update_jaxpr does: scatter replaces (so of repeated indices the last one wins), the others
/// add, multiply (integers wrap) or take lax.max / lax.min (NaN from either side wins).
template <ir::Prim P, class T>
T scatter_combine(T old, T update) {
  if constexpr (P == ir::Prim::scatter) {
    return update;
  } else if constexpr (std::is_same_v<T, bool>) {
    // Only scatter takes bools (the shape rule); the others, for hand-built graphs, as or/and.
    return P == ir::Prim::scatter_max || P == ir::Prim::scatter_add ? (old || update)
                                                                    : (old && update);
  } else if constexpr (P == ir::Prim::scatter_add) {
    return wrap_add(old, update);
  } else if constexpr (P == ir::Prim::scatter_mul) {
    return wrap_mul(old, update);
  } else if constexpr (P == ir::Prim::scatter_max) {
    return math::max_scalar(old, update);
  } else {
    static_assert(P == ir::Prim::scatter_min);
    return math::min_scalar(old, update);
  }
}

/// The operand, then each update combined into its element in the updates' row-major order;
/// out-of-range windows are dropped unless the mode clips.
template <ir::Prim P, class T>
void run_scatter(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape &os = in[0].aval.shape, &us = in[2].aval.shape;
  IndexMap map(e.params, os, in[1], us,
               scatter_window_sizes(ir::IndexDims::from(e.params), os, us));
  map.drop_unless_clip();
  T* y = static_cast<T*>(out[0].buf->data);
  if (os.size() > 0)
    std::memcpy(y, in[0].buf->data, static_cast<std::size_t>(os.size()) * sizeof(T));
  const T* u = static_cast<const T*>(in[2].buf->data);
  // The pointers are captured by value: through references, each element reloaded them.
  // A splat (x.at[i].add(1) in the LLVM backend): one update for every index, held in a
  // register. Read through the loop below as u[t * 0] it was reloaded after each store to y
  // (they may alias): 1.37 ms instead of 0.54 for the 1M-index histogram (measured in review).
  if (in[2].splat) {
    const T v = u[0];
    map.for_each([y, v](std::int64_t, std::int64_t at) {
      if (at >= 0) y[at] = scatter_combine<P>(y[at], v);
    });
    return;
  }
  map.for_each([y, u](std::int64_t t, std::int64_t at) {
    if (at >= 0) y[at] = scatter_combine<P>(y[at], u[t]);
  });
}

}  // namespace fj::detail::reference::library

namespace fj::detail::reference::ops {

struct gather {
  static constexpr bool is_library = true;
  static constexpr int arity = 2;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return visit_dtype(g.aval(e.in[0]).dtype,
                       [](auto t) -> EqnFn { return &library::run_gather<decltype(t)>; });
  }
};
/// The scatters: one host routine per dtype, its combine chosen by the primitive. The updates
/// may come as a splat (a broadcast scalar, never materialized).
template <ir::Prim P>
struct scatter_like {
  static constexpr bool is_library = true;
  static constexpr int arity = 3;
  static constexpr bool reads_splat(int operand) { return operand == 2; }
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return visit_dtype(g.aval(e.in[0]).dtype,
                       [](auto t) -> EqnFn { return &library::run_scatter<P, decltype(t)>; });
  }
};
struct scatter_add : scatter_like<ir::Prim::scatter_add> {};
struct scatter : scatter_like<ir::Prim::scatter> {};
struct scatter_mul : scatter_like<ir::Prim::scatter_mul> {};
struct scatter_min : scatter_like<ir::Prim::scatter_min> {};
struct scatter_max : scatter_like<ir::Prim::scatter_max> {};

}  // namespace fj::detail::reference::ops
