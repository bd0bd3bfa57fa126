// jnp's set functions on flattened arrays (unique and its array-API forms, union1d, setdiff1d,
// intersect1d, setxor1d), composed of a stable sort, a neighbour mask and nonzero as JAX's
// setops.py. Their length depends on the values: without `size` the input must be concrete
// (fj::ConcretizationError under jit); with `size` (and `fill_value`) they trace.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/jnp_arithmetic.hpp"
#include "fusejit/api/jnp_search.hpp"
#include "fusejit/api/nonzero.hpp"
#include "fusejit/api/numeric.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/indexing.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/sort_scan.hpp"

namespace fj {

/// The set functions' keyword arguments: fj::unique(x, {.size = 4, .fill_value = -1}).
struct SetOptions {
  detail::KeywordsOnly keywords{};     ///< holds nothing: designated initializers only
  std::optional<std::int64_t> size{};  ///< the static length of the result (jit needs it)
  std::optional<double> fill_value{};  ///< what pads the result past the true count
  bool equal_nan = true;               ///< NaNs count as one value (unique only)
};

/// fj::unique_all's result, as jnp.unique_all's named tuple: the sorted distinct values, the
/// first index of each in the flattened x, each element's index into values (x's shape), and
/// each value's count.
struct UniqueAll {
  Array values;           ///< the sorted distinct values (size entries with `size`)
  Array indices;          ///< where each value first occurs in the flattened x
  Array inverse_indices;  ///< each element's position in values, x's shape
  Array counts;           ///< how often each value occurs (0 past the true count)
};

namespace detail::jnp_more {

/// JAX's _unique on the flattened x: the stably sorted values `aux`, the mask of first
/// occurrences, the sorting permutation, and the positions `ind` of the first occurrences
/// (nonzero of the mask, with `size` or from concrete values).
struct UniqueParts {
  Array aux, mask, perm, ind;
};
inline UniqueParts unique_parts(const Array& x, bool equal_nan, std::optional<std::int64_t> size,
                                const char* fn) {
  const Array flat = Array(reshape(x, {x.size()}));
  const std::int64_t n = flat.size();
  UniqueParts p;
  p.perm = Array(argsort(flat));
  p.aux = Array(take(flat, p.perm));
  if (n == 0) {
    p.mask = zeros({0}, DType::bool_);
  } else {
    const Array hi = Array(p.aux(range(1, n))), lo = Array(p.aux(range(0, n - 1)));
    Array neq = Array(hi != lo);
    if (equal_nan && is_float(flat.dtype()))
      neq = Array(logical_and(neq, logical_not(logical_and(isnan(hi), isnan(lo)))));
    p.mask = concatenate({ones({1}, DType::bool_), neq});
  }
  // The mask is a tracer under jit unless everything was concrete; JAX raises likewise.
  if (!size && p.mask.is_traced())
    throw ConcretizationError(std::string(fn) + ": x " + x.aval().str() +
                              " is traced, so the number of distinct values is not static: pass "
                              "size (and fill_value), as jnp's set functions need under jit");
  p.ind = flatnonzero(p.mask, size);
  return p;
}
/// result with the entries past `count` replaced by fill_value (when given and size is set).
inline Array fill_past(const Array& result, const Array& count, std::optional<std::int64_t> size,
                       std::optional<double> fill_value) {
  if (!size || !fill_value) return result;
  const Array valid = Array(Array(iota(count.dtype(), *size)) < count);
  return Array(where(valid, result, Array(full({}, *fill_value, result.dtype()))));
}
/// Throws fj::ValueError for an empty x with a nonzero size and no fill_value, as JAX does.
inline void require_fill_for_empty(const Array& x, const SetOptions& o, const char* fn) {
  if (x.size() == 0 && o.size && *o.size > 0 && !o.fill_value)
    throw ValueError(std::string(fn) + ": an empty x " + x.aval().str() + " with size " +
                     std::to_string(*o.size) + " needs fill_value");
}

/// jnp.unique's body; `fn` names the public function in errors (union1d calls it too).
inline Array unique_impl(const Array& x, const SetOptions& o, const char* fn) {
  require_fill_for_empty(x, o, fn);
  const UniqueParts p = unique_parts(x, o.equal_nan, o.size, fn);
  if (x.size() == 0) return o.size ? full({*o.size}, o.fill_value.value_or(0), x.dtype()) : p.aux;
  const Array result = Array(take(p.aux, p.ind));
  return fill_past(result, Array(p.mask.astype(DType::i32).sum()), o.size, o.fill_value);
}

/// The `size` entries of the sorted `aux` (n of them) where `aux_mask` (n - 1 or n long) holds,
/// picked by a static-size nonzero as JAX's set functions pick them, then padded with
/// `fill_value`, or without one the largest and then the smallest picked value, as JAX pads.
inline Array picked_and_padded(const Array& aux, const Array& aux_mask, std::int64_t size,
                               const std::optional<double>& fill_value) {
  const std::int64_t n = aux.size();
  const Array num = Array(aux_mask.astype(DType::i32).sum());
  const Array idx = flatnonzero(aux_mask, size, n);
  // aux.at[idx].get(mode='fill', fill_value=0): the padding index n reads 0.
  const Array got = Array(take(aux, Array(clip(idx, 0, n - 1))));
  Array vals = Array(where(idx < n, got, Array(zeros({}, aux.dtype()))));
  if (fill_value) return fill_past(vals, num, size, fill_value);
  const Array valid = Array(Array(iota(DType::i32, size)) < num);
  vals = Array(where(valid, vals, Array(vals.max())));
  return Array(where(valid, vals, Array(vals.min())));
}

}  // namespace detail::jnp_more

/// jnp.unique(x, size=..., fill_value=..., equal_nan=...): the sorted distinct values of the
/// flattened x. With `size`, the first `size` of them, padded with the smallest value (or
/// fill_value) when fewer.
inline Array unique(const Array& x, const SetOptions& o = {}) {
  return detail::jnp_more::unique_impl(x, o, "fj::unique");
}

/// jnp.unique_all(x, size=..., fill_value=...): values, first indices, inverse indices and
/// counts (NaNs distinct, as the array API's unique_all).
inline UniqueAll unique_all(const Array& x, const SetOptions& o = {}) {
  namespace M = detail::jnp_more;
  M::require_fill_for_empty(x, o, "fj::unique_all");
  const M::UniqueParts p = M::unique_parts(x, false, o.size, "fj::unique_all");
  const std::int64_t n = x.size();
  UniqueAll r;
  const DType it = default_int_dtype();
  if (n == 0) {
    const std::int64_t s = o.size.value_or(0);
    r.values = full({s}, o.fill_value.value_or(0), x.dtype());
    r.indices = zeros({s}, it), r.counts = zeros({s}, it);
    r.inverse_indices = zeros(x.shape(), it);
    return r;
  }
  const Array count = Array(p.mask.astype(DType::i32).sum());
  r.values = M::fill_past(Array(take(p.aux, p.ind)), count, o.size, o.fill_value);
  r.indices = Array(take(p.perm, p.ind));
  const Array imask = Array(Array(cumsum(p.mask.astype(it))) - Array(ones({}, it)));
  const Array inv = Array(zeros({n}, it).at(p.perm).set(Array(astype(imask, it))));
  r.inverse_indices = detail::reshape_dyn(inv, x.shape().to_vector());
  Array idx;
  if (!o.size) {
    idx = concatenate({Array(astype(p.ind, it)), Array(full({1}, double(n), it))});
  } else {
    idx = Array(astype(flatnonzero(p.mask, *o.size + 1), it));
    const Array tail = Array(idx(range(1, *o.size + 1)));
    idx = Array(idx.at(range(1, *o.size + 1))
                    .set(Array(where(tail != 0, tail, Array(full({}, double(n), it))))));
  }
  r.counts = diff(idx);
  return r;
}

/// jnp.unique_values(x): unique with NaNs distinct.
inline Array unique_values(const Array& x, const SetOptions& o = {}) {
  SetOptions u = o;
  u.equal_nan = false;
  return unique(x, u);
}
/// jnp.unique_counts(x): (values, counts), NaNs distinct.
inline std::pair<Array, Array> unique_counts(const Array& x, const SetOptions& o = {}) {
  const UniqueAll a = unique_all(x, o);
  return {a.values, a.counts};
}
/// jnp.unique_inverse(x): (values, inverse_indices of x's shape), NaNs distinct.
inline std::pair<Array, Array> unique_inverse(const Array& x, const SetOptions& o = {}) {
  const UniqueAll a = unique_all(x, o);
  return {a.values, a.inverse_indices};
}

/// jnp.union1d(ar1, ar2, size=..., fill_value=...): the sorted distinct values of both.
inline Array union1d(const Array& ar1, const Array& ar2, const SetOptions& o = {}) {
  auto [a, b] = detail::jnp_more::promote2(ar1, ar2);
  SetOptions u = o;
  u.equal_nan = true;
  return detail::jnp_more::unique_impl(
      concatenate({Array(reshape(a, {a.size()})), Array(reshape(b, {b.size()}))}), u,
      "fj::union1d");
}

/// jnp.setdiff1d(ar1, ar2, size=..., fill_value=...): the sorted distinct values of ar1 not in
/// ar2; with `size`, padded with fill_value (0 when not given).
inline Array setdiff1d(const Array& ar1, const Array& ar2, const SetOptions& o = {}) {
  namespace M = detail::jnp_more;
  Array a1 = Array(reshape(ar1, {ar1.size()}));
  const Array a2 = Array(reshape(ar2, {ar2.size()}));
  const Array fill = full({}, o.fill_value.value_or(0), a1.dtype());
  if (a1.size() == 0) return full({o.size.value_or(0)}, o.fill_value.value_or(0), a1.dtype());
  if (o.size) {
    a1 = M::unique_impl(a1, {.size = a1.size()}, "fj::setdiff1d");
  } else {
    a1 = M::unique_impl(a1, {}, "fj::setdiff1d");
  }
  Array mask = isin(a1, a2, true);
  if (!o.size) {
    if (mask.is_traced())
      throw ConcretizationError("fj::setdiff1d: ar1 " + ar1.aval().str() + " or ar2 " +
                                ar2.aval().str() + " is traced: pass size (and fill_value)");
    return Array(take(a1, flatnonzero(mask)));
  }
  // With a size, unique padded a1 with its first value: those copies are not candidates.
  const Array n_unique = Array(Array(full({}, double(a1.size() + 1), DType::i32)) -
                               Array(Array(a1 == Array(a1(0))).astype(DType::i32).sum()));
  mask = Array(where(Array(iota(DType::i32, a1.size())) < n_unique, mask, false));
  const Array picked = Array(take(a1, flatnonzero(mask, *o.size)));
  const Array valid =
      Array(Array(iota(DType::i32, *o.size)) < Array(mask.astype(DType::i32).sum()));
  return Array(where(valid, picked, fill));
}

/// jnp.intersect1d(ar1, ar2, size=..., fill_value=...): the sorted values found in both. With
/// `size`, JAX's jit-compatible form: both sets' distinct values side by side, sorted, equal
/// neighbours picked by a static-size nonzero, and the rest padded with fill_value (or with
/// the smallest value found).
inline Array intersect1d(const Array& ar1, const Array& ar2, const SetOptions& o = {}) {
  namespace M = detail::jnp_more;
  auto [a0, b0] = M::promote2(ar1, ar2);
  const Array a = Array(reshape(a0, {a0.size()})), b = Array(reshape(b0, {b0.size()}));
  if (!o.size) {
    const Array aux = Array(sort(concatenate(
        {M::unique_impl(a, {}, "fj::intersect1d"), M::unique_impl(b, {}, "fj::intersect1d")})));
    const std::int64_t n = aux.size();
    if (n < 2) return Array(aux(range(0, 0)));
    const Array lo = Array(aux(range(0, n - 1)));
    const Array mask = Array(Array(aux(range(1, n))) == lo);
    return Array(take(lo, flatnonzero(mask)));
  }
  const std::int64_t size = *o.size, n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n == 0) return full({size}, o.fill_value.value_or(0), a.dtype());
  // _unique(arr, size=len(arr), fill_value=0) of each, with its true count.
  auto uniq = [&](const Array& x) {
    const M::UniqueParts p = M::unique_parts(x, true, x.size(), "fj::intersect1d");
    const Array count = Array(p.mask.astype(DType::i32).sum());
    return std::pair{M::fill_past(Array(take(p.aux, p.ind)), count, x.size(), 0.0), count};
  };
  Array arr = zeros({n}, a.dtype());
  Array count1 = Array(zeros({}, DType::i32)), count2 = count1;
  if (n1 > 0) {
    auto [u1, c1] = uniq(a);
    arr = Array(lax::dynamic_update_slice(arr, u1, {DynamicIndex(0)}));
    count1 = c1;
  }
  if (n2 > 0) {
    auto [u2, c2] = uniq(b);
    arr = Array(lax::dynamic_update_slice(arr, u2, {DynamicIndex(count1)}));
    count2 = c2;
  }
  const Array pos = Array(iota(DType::i32, n));
  const Array mask = Array(pos < Array(count1 + count2));
  const Array aux =
      lax::sort(std::vector<Array>{Array(logical_not(mask)), arr, pos}, 0, true, 2).at(1);
  const Array aux_mask =
      n > 1 ? Array(logical_and(Array(aux(range(1, n))) == Array(aux(range(0, n - 1))),
                                Array(mask(range(1, n)))))
            : Array(zeros({0}, DType::bool_));
  return M::picked_and_padded(aux, aux_mask, size, o.fill_value);
}

/// jnp.setxor1d(ar1, ar2, size=..., fill_value=...): the sorted values found in exactly one of
/// them. With `size`, JAX's jit-compatible form (both sets' distinct values side by side,
/// sorted, the unpaired ones picked by a static-size nonzero), padded with fill_value or the
/// smallest value found.
inline Array setxor1d(const Array& ar1, const Array& ar2, const SetOptions& o = {}) {
  namespace M = detail::jnp_more;
  auto [a0, b0] = M::promote2(ar1, ar2);
  const Array a = Array(reshape(a0, {a0.size()})), b = Array(reshape(b0, {b0.size()}));
  if (!o.size) {
    Array aux =
        concatenate({M::unique_impl(a, {}, "fj::setxor1d"), M::unique_impl(b, {}, "fj::setxor1d")});
    if (aux.size() == 0) return aux;
    aux = Array(sort(aux));
    const std::int64_t n = aux.size();
    const Array t = ones({1}, DType::bool_);
    const Array flag =
        concatenate({t, Array(Array(aux(range(1, n))) != Array(aux(range(0, n - 1)))), t});
    const Array keep = Array(logical_and(Array(flag(range(1, n + 1))), Array(flag(range(0, n)))));
    return Array(take(aux, flatnonzero(keep)));
  }
  const std::int64_t size = *o.size, n = a.size() + b.size();
  if (n == 0) return full({size}, o.fill_value.value_or(0), a.dtype());
  // JAX's _concat_unique: each set's distinct values (padded with its smallest), the second
  // written right after the first's true count.
  Array arr = zeros({n}, a.dtype());
  Array count = Array(zeros({}, DType::i32));
  for (const Array& x : {a, b}) {
    if (x.size() == 0) continue;
    const M::UniqueParts p = M::unique_parts(x, true, x.size(), "fj::setxor1d");
    arr = Array(lax::dynamic_update_slice(arr, Array(take(p.aux, p.ind)), {DynamicIndex(count)}));
    count = Array(count + Array(p.mask.astype(DType::i32).sum()));
  }
  const Array mask = Array(Array(iota(DType::i32, n + 1)) < Array(count + 1));
  const Array aux =
      lax::sort(std::vector<Array>{Array(logical_not(Array(mask(range(1, n + 1))))), arr}, 0, true,
                2)
          .at(1);
  const Array t = ones({1}, DType::bool_), f = zeros({1}, DType::bool_);
  const Array neq = n > 1 ? Array(Array(aux(range(1, n))) != Array(aux(range(0, n - 1))))
                          : Array(zeros({0}, DType::bool_));
  const Array flag =
      Array(logical_and(mask, Array(concatenate({t, neq, f}).at(count).set(array(true)))));
  const Array aux_mask = Array(logical_and(Array(flag(range(1, n + 1))), Array(flag(range(0, n)))));
  return M::picked_and_padded(aux, aux_mask, size, o.fill_value);
}

}  // namespace fj
