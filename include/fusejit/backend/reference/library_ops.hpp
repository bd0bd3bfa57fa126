// The reference backend's library primitives: dot_general as plain loops in the output dtype,
// argmax/argmin, concatenate/stack, split and dynamic (update) slices as element copies. The LLVM
// backend runs the same routines (all but dot_general) on materialized operands.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "fusejit/backend/backend.hpp"
#include "fusejit/backend/host_callback.hpp"
#include "fusejit/backend/reference/resolve.hpp"
#include "fusejit/backend/reference/wrapping.hpp"
#include "fusejit/ir/dot_dims.hpp"

namespace fj::detail::reference {

/// Runs one equation: reads `in` (one Value per operand) and fills the preallocated `out`.
using EqnFn = void (*)(const ir::Eqn& eqn, const backend::Value* in, backend::Value* out);

namespace library {

/// Reads a rank-0 integer Value of any integer dtype.
inline std::int64_t scalar_index(const backend::Value& v) {
  return visit_dtype(v.aval.dtype, [&](auto x) -> std::int64_t {
    using T = decltype(x);
    if constexpr (std::is_floating_point_v<T>)
      throw DTypeError("reference backend: a start index is " + v.aval.str());
    else
      return static_cast<std::int64_t>(*static_cast<const T*>(v.buf->data));
  });
}

/// Copies the box `extent` from `src` (shape `ss`, starting at `s0`) to `dst` (shape `ds`,
/// starting at `d0`); both row-major with elements of `bytes` bytes. Rows are memcpy'd.
inline void copy_box(char* dst, const Shape& ds, const std::vector<std::int64_t>& d0,
                     const char* src, const Shape& ss, const std::vector<std::int64_t>& s0,
                     const std::vector<std::int64_t>& extent, std::size_t bytes) {
  const int r = static_cast<int>(extent.size());
  for (auto e : extent)
    if (e == 0) return;
  if (r == 0) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const auto dst_st = row_major_strides(ds);
  const auto src_st = row_major_strides(ss);
  const std::size_t row = static_cast<std::size_t>(extent.back()) * bytes;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  while (true) {
    std::int64_t so = 0, doff = 0;
    for (int d = 0; d < r; ++d) {
      const auto u = static_cast<std::size_t>(d);
      so += (s0[u] + idx[u]) * src_st[u];
      doff += (d0[u] + idx[u]) * dst_st[u];
    }
    std::memcpy(dst + doff * static_cast<std::int64_t>(bytes),
                src + so * static_cast<std::int64_t>(bytes), row);
    int d = r - 2;
    for (; d >= 0; --d) {
      const auto u = static_cast<std::size_t>(d);
      if (++idx[u] < extent[u]) break;
      idx[u] = 0;
    }
    if (d < 0) return;
  }
}

// ---- dot_general ---------------------------------------------------------------------------

/// out[batch, lhs free, rhs free] = sum over the contracting dims, in order, of lhs * rhs,
/// each operand converted to the output dtype first (preferred_element_type).
template <class L, class R, class T>
void run_dot_general(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const ir::DotDims dd = ir::DotDims::from(e.params);
  const Shape &ls = in[0].aval.shape, &rs = in[1].aval.shape;
  const auto lst = row_major_strides(ls);
  const auto rst = row_major_strides(rs);
  // Per output dim: the lhs and rhs strides it walks.
  std::vector<std::int64_t> ext, lstep, rstep;
  for (std::size_t i = 0; i < dd.lhs_batch.size(); ++i) {
    ext.push_back(ls[static_cast<int>(dd.lhs_batch[i])]);
    lstep.push_back(lst[static_cast<std::size_t>(dd.lhs_batch[i])]);
    rstep.push_back(rst[static_cast<std::size_t>(dd.rhs_batch[i])]);
  }
  for (auto d : ir::DotDims::free_dims(ls.rank(), dd.lhs_batch, dd.lhs_contract)) {
    ext.push_back(ls[static_cast<int>(d)]);
    lstep.push_back(lst[static_cast<std::size_t>(d)]);
    rstep.push_back(0);
  }
  for (auto d : ir::DotDims::free_dims(rs.rank(), dd.rhs_batch, dd.rhs_contract)) {
    ext.push_back(rs[static_cast<int>(d)]);
    lstep.push_back(0);
    rstep.push_back(rst[static_cast<std::size_t>(d)]);
  }
  std::vector<std::int64_t> cext, clstep, crstep;
  std::int64_t csize = 1;
  for (std::size_t i = 0; i < dd.lhs_contract.size(); ++i) {
    cext.push_back(ls[static_cast<int>(dd.lhs_contract[i])]);
    clstep.push_back(lst[static_cast<std::size_t>(dd.lhs_contract[i])]);
    crstep.push_back(rst[static_cast<std::size_t>(dd.rhs_contract[i])]);
    csize *= cext.back();
  }
  const L* a = static_cast<const L*>(in[0].buf->data);
  const R* b = static_cast<const R*>(in[1].buf->data);
  T* o = static_cast<T*>(out[0].buf->data);
  const std::int64_t n = out[0].aval.shape.size();
  std::vector<std::int64_t> idx(ext.size(), 0), cidx(cext.size(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t la = 0, rb = 0;
    for (std::size_t d = 0; d < ext.size(); ++d) la += idx[d] * lstep[d], rb += idx[d] * rstep[d];
    T acc = T(0);
    std::fill(cidx.begin(), cidx.end(), 0);
    for (std::int64_t k = 0; k < csize; ++k) {
      std::int64_t lo = la, ro = rb;
      for (std::size_t d = 0; d < cext.size(); ++d)
        lo += cidx[d] * clstep[d], ro += cidx[d] * crstep[d];
      acc = wrap_add(acc, wrap_mul(static_cast<T>(a[lo]), static_cast<T>(b[ro])));
      for (int d = static_cast<int>(cext.size()) - 1; d >= 0; --d) {
        const auto u = static_cast<std::size_t>(d);
        if (++cidx[u] < cext[u]) break;
        cidx[u] = 0;
      }
    }
    o[i] = acc;
    for (int d = static_cast<int>(ext.size()) - 1; d >= 0; --d) {
      const auto u = static_cast<std::size_t>(d);
      if (++idx[u] < ext[u]) break;
      idx[u] = 0;
    }
  }
}

// ---- argmax / argmin -----------------------------------------------------------------------

/// The index of the first maximum (or minimum) along the axis; a NaN wins, the first one.
template <class T, class I, bool Max>
void run_arg_reduce(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const Shape& s = in[0].aval.shape;
  const auto axis = static_cast<int>(e.params.get<std::vector<std::int64_t>>("axes").at(0));
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= s[d];
  for (int d = axis + 1; d < s.rank(); ++d) inner *= s[d];
  const std::int64_t n = s[axis];
  const T* x = static_cast<const T*>(in[0].buf->data);
  I* o = static_cast<I*>(out[0].buf->data);
  for (std::int64_t p = 0; p < outer; ++p)
    for (std::int64_t q = 0; q < inner; ++q) {
      const T* row = x + p * n * inner + q;
      std::int64_t best = 0;
      T bv = row[0];
      for (std::int64_t k = 1; k < n; ++k) {
        if constexpr (std::is_floating_point_v<T>)
          if (std::isnan(bv)) break;
        const T v = row[k * inner];
        bool take;
        if constexpr (std::is_floating_point_v<T>)
          take = std::isnan(v) || (Max ? v > bv : v < bv);
        else
          take = Max ? v > bv : v < bv;
        if (take) best = k, bv = v;
      }
      o[p * inner + q] = static_cast<I>(best);
    }
}

// ---- concatenate / stack -------------------------------------------------------------------

/// Each operand's block along the axis goes to its offset in the output (stack: one slot each).
inline void run_join(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const bool stack = e.prim == ir::Prim::stack;
  const auto axis = e.params.get<std::int64_t>(stack ? "axis" : "dimension");
  const Shape& os = out[0].aval.shape;
  const std::size_t bytes = size_of(out[0].aval.dtype);
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < e.in.size(); ++i) {
    // The operand as seen in the output's rank (stack: a size-1 dim inserted at the axis).
    Shape src;
    for (int d = 0; d < in[i].aval.shape.rank(); ++d) {
      if (stack && d == axis) src.push_back(1);
      src.push_back(in[i].aval.shape[d]);
    }
    if (stack && axis == in[i].aval.shape.rank()) src.push_back(1);
    std::vector<std::int64_t> d0(static_cast<std::size_t>(os.rank()), 0),
        s0(static_cast<std::size_t>(os.rank()), 0), ext = src.to_vector();
    d0[static_cast<std::size_t>(axis)] = offset;
    copy_box(static_cast<char*>(out[0].buf->data), os, d0,
             static_cast<const char*>(in[i].buf->data), src, s0, ext, bytes);
    offset += src[static_cast<int>(axis)];
  }
}

/// split: each result is its block of the operand along the axis, in order.
inline void run_split(const ir::Eqn& e, const backend::Value* in, backend::Value* out) {
  const auto axis = static_cast<std::size_t>(e.params.get<std::int64_t>("axis"));
  const Shape& s = in[0].aval.shape;
  const std::size_t bytes = size_of(in[0].aval.dtype);
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < e.out.size(); ++k) {
    const Shape& os = out[k].aval.shape;
    std::vector<std::int64_t> s0(static_cast<std::size_t>(os.rank()), 0),
        d0(static_cast<std::size_t>(os.rank()), 0);
    s0[axis] = offset;
    copy_box(static_cast<char*>(out[k].buf->data), os, d0,
             static_cast<const char*>(in[0].buf->data), s, s0, os.to_vector(), bytes);
    offset += os[static_cast<int>(axis)];
  }
}

// ---- dynamic_slice / dynamic_update_slice --------------------------------------------------

/// Start indices clamped so that a box of `size` fits in `extent`, as XLA clamps them.
inline std::vector<std::int64_t> clamped_starts(const backend::Value* idx, const Shape& operand,
                                                const std::vector<std::int64_t>& size) {
  std::vector<std::int64_t> s;
  for (int d = 0; d < operand.rank(); ++d) {
    const std::int64_t hi = operand[d] - size[static_cast<std::size_t>(d)];
    s.push_back(std::clamp<std::int64_t>(scalar_index(idx[d]), 0, std::max<std::int64_t>(hi, 0)));
  }
  return s;
}

inline void run_dynamic_slice(const ir::Eqn&, const backend::Value* in, backend::Value* out) {
  const Shape &s = in[0].aval.shape, &os = out[0].aval.shape;
  const auto size = os.to_vector();
  copy_box(static_cast<char*>(out[0].buf->data), os,
           std::vector<std::int64_t>(static_cast<std::size_t>(os.rank()), 0),
           static_cast<const char*>(in[0].buf->data), s, clamped_starts(in + 1, s, size), size,
           size_of(out[0].aval.dtype));
}

inline void run_dynamic_update_slice(const ir::Eqn&, const backend::Value* in,
                                     backend::Value* out) {
  const Shape &s = in[0].aval.shape, &us = in[1].aval.shape;
  const std::size_t bytes = size_of(out[0].aval.dtype);
  if (s.size())
    std::memcpy(out[0].buf->data, in[0].buf->data, static_cast<std::size_t>(s.size()) * bytes);
  const auto size = us.to_vector();
  copy_box(static_cast<char*>(out[0].buf->data), s, clamped_starts(in + 2, s, size),
           static_cast<const char*>(in[1].buf->data), us,
           std::vector<std::int64_t>(static_cast<std::size_t>(us.rank()), 0), size, bytes);
}

}  // namespace library

namespace ops {

struct Library {
  static constexpr bool is_library = true;
};
struct dot_general : Library {
  static constexpr int arity = 2;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    return visit_dtype(g.aval(e.in[0]).dtype, [&](auto l) -> EqnFn {
      return visit_dtype(g.aval(e.in[1]).dtype, [&](auto r) -> EqnFn {
        return visit_dtype(g.aval(e.out[0]).dtype, [&](auto t) -> EqnFn {
          using L = decltype(l);
          using R = decltype(r);
          using T = decltype(t);
          if constexpr (std::is_same_v<T, bool> || std::is_same_v<L, bool> ||
                        std::is_same_v<R, bool>)
            throw DTypeError("reference backend: dot_general does not take bool operands");
          else
            return &library::run_dot_general<L, R, T>;
        });
      });
    });
  }
};
template <bool Max>
struct ArgReduce : Library {
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph& g, const ir::Eqn& e) {
    const bool i64 = g.aval(e.out[0]).dtype == DType::i64;
    return visit_dtype(g.aval(e.in[0]).dtype, [&](auto x) -> EqnFn {
      using T = decltype(x);
      if constexpr (std::is_same_v<T, bool>)
        throw DTypeError(std::string("reference backend: ") + (Max ? "argmax" : "argmin") +
                         " does not take bool operands");
      else
        return i64 ? &library::run_arg_reduce<T, std::int64_t, Max>
                   : &library::run_arg_reduce<T, std::int32_t, Max>;
    });
  }
};
struct argmax : ArgReduce<true> {};
struct argmin : ArgReduce<false> {};
struct concatenate : Library {
  static constexpr int arity = -1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_join; }
};
struct stack : concatenate {};
struct split : Library {
  static constexpr int arity = 1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_split; }
};
struct dynamic_slice : Library {
  static constexpr int arity = -1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &library::run_dynamic_slice; }
};
struct dynamic_update_slice : Library {
  static constexpr int arity = -1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) {
    return &library::run_dynamic_update_slice;
  }
};

// The callback primitives call their C++ function (backend/host_callback.hpp), on every backend.
struct Callback : Library {
  static constexpr int arity = -1;
  static EqnFn resolve(const ir::Graph&, const ir::Eqn&) { return &backend::run_callback; }
};
struct debug_print : Callback {};
struct debug_callback : Callback {};
struct pure_callback : Callback {};

}  // namespace ops

}  // namespace fj::detail::reference

#include "fusejit/backend/reference/library_sort_scan.hpp"
#include "fusejit/backend/reference/library_linalg.hpp"
#include "fusejit/backend/reference/library_lu.hpp"
#include "fusejit/backend/reference/library_spectral.hpp"
#include "fusejit/backend/reference/library_index.hpp"
#include "fusejit/backend/reference/library_pad.hpp"
#include "fusejit/backend/reference/library_collective.hpp"
