// jnp's array-editing functions (append, delete_, insert, ravel, rot90, rollaxis, unstack, resize,
// trim_zeros), composed of concatenate, moves, gathers and scatters as JAX's lax_numpy.py.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/nonzero.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/pad_roll.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/shape_ops.hpp"
#include "fusejit/expr/sort_scan.hpp"

namespace fj {
namespace detail::jnp_more {

/// `axis` counted from the end when negative; out of [-rank, rank) is an fj::ShapeError naming
/// `fn` and x's shape.
inline int canonical_axis(int axis, int rank, const char* fn, const Array& x) {
  if (axis < -rank || axis >= rank)
    throw ShapeError(std::string(fn) + ": axis " + std::to_string(axis) + " is out of bounds for " +
                     x.aval().str());
  return axis < 0 ? axis + rank : axis;
}
/// The values of a concrete integer array as int64 (its flattened order); `fn` and `what` name
/// it in the fj::ConcretizationError a tracer raises.
inline std::vector<std::int64_t> concrete_ints(const Array& a, const char* fn, const char* what) {
  if (a.is_traced())
    throw ConcretizationError(std::string(fn) + ": " + what + " " + a.aval().str() +
                              " is traced, but its values decide the output's shape: pass a "
                              "concrete array (or the jit-friendly form the function offers)");
  // Read on the host, not through astype: under jit a staged conversion would be a tracer,
  // while JAX reads a concrete obj (a NumPy array) directly.
  return visit_dtype(a.dtype(), [&](auto x) {
    using T = decltype(x);
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < a.size(); ++i)
      v.push_back(static_cast<std::int64_t>(a.data<T>()[i]));
    return v;
  });
}

}  // namespace detail::jnp_more

/// jnp.ravel(a): a as one axis, row-major.
inline Array ravel(const Array& a) { return Array(reshape(a, {a.size()})); }

/// jnp.append(arr, values, axis): concatenate([arr, values], axis); without an axis both are
/// flattened first.
inline Array append(const Array& arr, const Array& values, std::optional<int> axis = std::nullopt) {
  if (!axis) return concatenate({ravel(arr), ravel(values)}, 0);
  return concatenate({arr, values}, *axis);
}

/// jnp.rot90(m, k, axes): m rotated by k quarter turns in the plane of `axes` (from the first
/// axis toward the second); m needs two axes or more (fj::ValueError).
inline Array rot90(const Array& m, int k = 1, std::pair<int, int> axes = {0, 1}) {
  if (m.ndim() < 2)
    throw ValueError("fj::rot90: m must have two axes or more, got " + m.aval().str());
  const int a1 = detail::jnp_more::canonical_axis(axes.first, m.ndim(), "fj::rot90", m);
  const int a2 = detail::jnp_more::canonical_axis(axes.second, m.ndim(), "fj::rot90", m);
  if (a1 == a2)
    throw ValueError("fj::rot90: axes must differ, got (" + std::to_string(axes.first) + ", " +
                     std::to_string(axes.second) + ") for " + m.aval().str());
  k = ((k % 4) + 4) % 4;
  if (k == 0) return m;
  if (k == 2) return Array(flip(Array(flip(m, {a1})), {a2}));
  if (k == 1) return swapaxes(Array(flip(m, {a2})), a1, a2);
  return Array(flip(swapaxes(m, a1, a2), {a2}));
}
/// jnp.rot90's keyword arguments: fj::rot90(m, {.k = 3, .axes = {1, 2}}).
struct Rot90Options {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  int k = 1;                        ///< the number of quarter turns
  std::pair<int, int> axes{0, 1};   ///< the plane of the rotation
};
/// jnp.rot90 with keyword-style options.
inline Array rot90(const Array& m, const Rot90Options& o) { return rot90(m, o.k, o.axes); }

/// jnp.rollaxis(a, axis, start): `axis` moved to sit before position `start` (NumPy's older
/// form of moveaxis); start outside [-ndim, ndim] is an fj::ValueError.
inline Array rollaxis(const Array& a, int axis, int start = 0) {
  const int n = a.ndim();
  axis = detail::jnp_more::canonical_axis(axis, n, "fj::rollaxis", a);
  if (start < -n || start > n)
    throw ValueError("fj::rollaxis: start " + std::to_string(start) + " must lie in [" +
                     std::to_string(-n) + ", " + std::to_string(n) + "] for " + a.aval().str());
  if (start < 0) start += n;
  if (start > axis) --start;
  return moveaxis(a, axis, start);
}

/// jnp.unstack(x, axis): the slices of x along `axis`, each without that axis (lax.unstack:
/// one index_in_dim per entry).
inline std::vector<Array> unstack(const Array& x, int axis = 0) {
  if (x.ndim() == 0)
    throw ValueError("fj::unstack: x must have an axis to unstack, got " + x.aval().str());
  axis = detail::jnp_more::canonical_axis(axis, x.ndim(), "fj::unstack", x);
  std::vector<std::int64_t> dims = x.shape().to_vector();
  dims.erase(dims.begin() + axis);
  std::vector<Array> out;
  for (std::int64_t i = 0; i < x.shape()[axis]; ++i)
    out.push_back(detail::reshape_dyn(detail::slice_axis(x, axis, i, i + 1), dims));
  return out;
}

/// jnp.resize(a, new_shape): a flattened, repeated as often as needed, cut to the new size and
/// reshaped (zeros when either is empty); a negative extent is an fj::ValueError.
inline Array resize(const Array& a, const Shape& new_shape) {
  for (int i = 0; i < new_shape.rank(); ++i)
    if (new_shape[i] < 0)
      throw ValueError("fj::resize: new_shape " + new_shape.str() +
                       " has a negative extent (a is " + a.aval().str() + ")");
  const Array flat = ravel(a);
  const std::int64_t n = new_shape.size();
  if (flat.size() == 0 || n == 0) return zeros(new_shape, a.dtype());
  const std::int64_t reps = (n + flat.size() - 1) / flat.size();
  return detail::reshape_dyn(Array(Array(tile(flat, reps))(range(0, n))), new_shape.to_vector());
}

/// jnp.delete's keyword arguments: fj::delete_(x, idx, {.axis = 1}).
struct DeleteOptions {
  detail::KeywordsOnly keywords{};     ///< holds nothing: designated initializers only
  std::optional<int> axis{};           ///< the axis deleted along (none: the flattened array)
  bool assume_unique_indices = false;  ///< integer indices, distinct: the jit-friendly form
};

/// jnp.delete(arr, obj, axis) (`delete` is a C++ keyword): arr without the entries `obj` along
/// `axis` (the flattened arr without one). A single index removes one slice, negatives counting
/// from the end; out of range is an fj::ShapeError.
inline Array delete_(const Array& arr, std::int64_t obj, std::optional<int> axis = std::nullopt) {
  const Array a = axis ? arr : ravel(arr);
  const int ax = detail::jnp_more::canonical_axis(axis.value_or(0), a.ndim(), "fj::delete_", arr);
  const std::int64_t n = a.shape()[ax];
  if (obj < -n || obj >= n)
    throw ShapeError("fj::delete_: index " + std::to_string(obj) + " is out of bounds for axis " +
                     std::to_string(ax) + " of " + a.aval().str());
  if (obj < 0) obj += n;
  namespace M = detail::jnp_more;
  return concatenate({detail::slice_axis(a, ax, 0, obj), detail::slice_axis(a, ax, obj + 1, n)},
                     ax);
}

/// jnp.delete(arr, obj, axis=..., assume_unique_indices=...) for an array of indices (or a
/// bool mask of the axis's length). The kept entries' count depends on obj's values, so obj
/// must be concrete (fj::ConcretizationError) unless it holds distinct integers and
/// assume_unique_indices says so: then the kept positions are computed as JAX does, traceable.
inline Array delete_(const Array& arr, const Array& obj, const DeleteOptions& o = {}) {
  namespace M = detail::jnp_more;
  const Array a = o.axis ? arr : ravel(arr);
  const int ax = M::canonical_axis(o.axis.value_or(0), a.ndim(), "fj::delete_", arr);
  const std::int64_t n = a.shape()[ax];
  if (is_int(obj.dtype()) && o.assume_unique_indices) {
    Array idx = ravel(obj);
    idx = Array(clip(Array(where(idx < 0, Array(idx + n), idx)), 0, n));
    idx = Array(sort(idx));
    const std::int64_t k = idx.size();
    idx = Array(idx - Array(iota(idx.dtype(), k)));
    const Array i = Array(iota(idx.dtype(), n - k));
    const Array hits = Array(Array(reshape(i, {1, n - k})) >= Array(reshape(idx, {k, 1})));
    const Array kept = Array(i + Array(astype(Array(hits.sum({0})), i.dtype())));
    return Array(take(a, kept, ax));
  }
  std::vector<char> keep(static_cast<std::size_t>(n), 1);
  if (obj.dtype() == DType::bool_) {
    if (obj.shape() != Shape{n})
      throw ValueError("fj::delete_: a bool obj must be 1-d of the axis's length " +
                       std::to_string(n) + ", got " + obj.aval().str() + " for " + a.aval().str());
    const std::vector<std::int64_t> mask = M::concrete_ints(obj, "fj::delete_", "obj");
    for (std::int64_t j = 0; j < n; ++j) keep[static_cast<std::size_t>(j)] = !mask[j];
  } else if (is_int(obj.dtype())) {
    for (std::int64_t j : M::concrete_ints(obj, "fj::delete_", "obj")) {
      if (j < -n || j >= n)
        throw ShapeError("fj::delete_: index " + std::to_string(j) + " is out of bounds for axis " +
                         std::to_string(ax) + " of " + a.aval().str());
      keep[static_cast<std::size_t>(j < 0 ? j + n : j)] = 0;
    }
  } else {
    throw DTypeError("fj::delete_: obj must hold integers or bools, got " + obj.aval().str());
  }
  std::vector<std::int32_t> kept;
  for (std::int64_t j = 0; j < n; ++j)
    if (keep[static_cast<std::size_t>(j)]) kept.push_back(static_cast<std::int32_t>(j));
  return Array(take(a, array(kept, Shape{static_cast<std::int64_t>(kept.size())}), ax));
}
/// jnp.delete with a list of indices.
inline Array delete_(const Array& arr, const std::vector<std::int64_t>& obj,
                     const DeleteOptions& o = {}) {
  return delete_(arr, array(obj, Shape{static_cast<std::int64_t>(obj.size())}), o);
}

/// jnp.insert(arr, obj, values, axis): `values` placed before the entries `obj` along `axis`
/// (the flattened arr without one), as JAX composes it: the values' positions from a scatter-add
/// of their ranks, the rest by a static-size nonzero, so a traced obj works under jit. obj is
/// a scalar or a 1-d integer array (fj::ValueError otherwise); values broadcast to the slots.
inline Array insert(const Array& arr, const Array& obj, const Array& values,
                    std::optional<int> axis = std::nullopt) {
  namespace M = detail::jnp_more;
  Array a = axis ? arr : ravel(arr);
  const int ax = M::canonical_axis(axis.value_or(0), a.ndim(), "fj::insert", arr);
  if (obj.ndim() > 1 || !is_int(obj.dtype()))
    throw ValueError("fj::insert: obj must be an integer scalar or 1-d array, got " +
                     obj.aval().str());
  Array vals = Array(astype(values, a.dtype()));
  // array(values, ndmin=a.ndim): leading axes of 1 added.
  if (vals.ndim() < a.ndim()) {
    std::vector<std::int64_t> d(static_cast<std::size_t>(a.ndim() - vals.ndim()), 1);
    for (int i = 0; i < vals.ndim(); ++i) d.push_back(vals.shape()[i]);
    vals = detail::reshape_dyn(vals, d);
  }
  Array indices = obj;
  if (obj.size() == 1) {
    const Array index = Array(ravel(obj)(0));
    if (obj.ndim() == 0) vals = moveaxis(vals, 0, ax);
    indices = Array(broadcast_to(index, Shape{vals.shape()[ax]}));
  }
  const std::int64_t n_input = a.shape()[ax];
  const std::int64_t n_insert =
      broadcast_shapes(indices.shape(), Shape{vals.shape()[ax]}, "fj::insert")[0];
  indices = Array(broadcast_to(indices, Shape{n_insert}));
  indices = Array(where(indices < 0, Array(indices + n_input), indices));
  indices = Array(clip(indices, 0, n_input));
  const Array values_ind =
      Array(indices.at(Array(argsort(indices))).add(Array(iota(indices.dtype(), n_insert))));
  const Array mask =
      Array(ones({n_input + n_insert}, DType::bool_).at(values_ind).set(array(false)));
  const Array arr_ind = flatnonzero(mask, n_input);
  // The scatters along the front axis: `ax` moved there and back.
  std::vector<std::int64_t> slots{n_insert};
  const Array a0 = moveaxis(a, ax, 0);
  for (int i = 1; i < a0.ndim(); ++i) slots.push_back(a0.shape()[i]);
  const Array v0 = Array(broadcast_to(moveaxis(vals, ax, 0), Shape(slots)));
  std::vector<std::int64_t> out_dims = a0.shape().to_vector();
  out_dims[0] += n_insert;
  Array out = zeros(Shape(out_dims), a.dtype());
  out = Array(out.at(values_ind).set(v0));
  out = Array(out.at(arr_ind).set(a0));
  return moveaxis(out, 0, ax);
}
/// jnp.insert with one index.
inline Array insert(const Array& arr, std::int64_t obj, const Array& values,
                    std::optional<int> axis = std::nullopt) {
  return insert(arr, array(obj), values, axis);
}

/// jnp.trim_zeros(filt, trim, axis): filt without its leading ('f' in trim) and trailing ('b')
/// all-zero slices along each of `axes` (all axes when empty). The result's shape depends on
/// the values, so filt must be concrete (fj::ConcretizationError).
inline Array trim_zeros(const Array& filt, const std::string& trim = "fb",
                        const std::vector<int>& axes = {}) {
  namespace M = detail::jnp_more;
  if (filt.is_traced())
    throw ConcretizationError("fj::trim_zeros: filt " + filt.aval().str() +
                              " is traced, but its zeros decide the output's shape");
  std::string t = trim;
  for (char& ch : t) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const bool front = t.find('f') != std::string::npos, back = t.find('b') != std::string::npos;
  std::vector<char> chosen(static_cast<std::size_t>(filt.ndim()), axes.empty() ? 1 : 0);
  for (int ax : axes) chosen[M::canonical_axis(ax, filt.ndim(), "fj::trim_zeros", filt)] = 1;
  if (!front && !back) return filt;
  // Each axis's mask of slices holding a nonzero, from filt's values on the host (JAX reads
  // them concretely too), so a concrete filt works under jit.
  const std::vector<double> vals = visit_dtype(filt.dtype(), [&](auto x) {
    using T = decltype(x);
    std::vector<double> v;
    for (std::int64_t i = 0; i < filt.size(); ++i)
      v.push_back(static_cast<double>(filt.data<T>()[i]));
    return v;
  });
  const auto strides = row_major_strides(filt.shape());
  Array out = filt;
  for (int ax = 0; ax < filt.ndim(); ++ax) {
    if (!chosen[static_cast<std::size_t>(ax)]) continue;
    const std::int64_t n = filt.shape()[ax];
    std::vector<char> mask(static_cast<std::size_t>(n), 0);
    for (std::int64_t i = 0; i < filt.size(); ++i)
      if (vals[static_cast<std::size_t>(i)] != 0)
        mask[static_cast<std::size_t>((i / strides[static_cast<std::size_t>(ax)]) % n)] = 1;
    std::int64_t lo = 0, hi = n;
    if (std::none_of(mask.begin(), mask.end(), [](char b) { return b != 0; })) {
      lo = hi = 0;
    } else {
      if (front)
        while (!mask[static_cast<std::size_t>(lo)]) ++lo;
      if (back)
        while (!mask[static_cast<std::size_t>(hi - 1)]) --hi;
    }
    out = detail::slice_axis(out, ax, lo, hi);
  }
  return out;
}
/// jnp.trim_zeros's keyword arguments: fj::trim_zeros(x, {.trim = "f", .axes = {0}}).
struct TrimZerosOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::string trim = "fb";          ///< 'f' trims the front, 'b' the back
  std::vector<int> axes{};          ///< the axes trimmed (all when empty)
};
/// jnp.trim_zeros with keyword-style options.
inline Array trim_zeros(const Array& filt, const TrimZerosOptions& o) {
  return trim_zeros(filt, o.trim, o.axes);
}

}  // namespace fj
