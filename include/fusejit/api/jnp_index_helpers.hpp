// jnp's index constructors and converters: tril/triu_indices(_from), diag_indices(_from),
// diagflat, fill_diagonal, ravel_multi_index, unravel_index, ix_ and mask_indices, composed of
// nonzero (with a static size), iota and scatters as JAX's lax_numpy.py.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fusejit/api/creation.hpp"
#include "fusejit/api/jnp_arithmetic.hpp"
#include "fusejit/api/nonzero.hpp"
#include "fusejit/api/stacking.hpp"
#include "fusejit/core/error.hpp"
#include "fusejit/core/x64.hpp"
#include "fusejit/expr/layout.hpp"
#include "fusejit/expr/pad_roll.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/expr/shape_ops.hpp"

namespace fj {
namespace detail::jnp_more {

/// The number of entries of an n x m matrix on or above diagonal k (JAX's _triu_size), the
/// static size of triu_indices' nonzero.
inline std::int64_t triu_size(std::int64_t n, std::int64_t m, std::int64_t k) {
  if (k < 0) return n * m - triu_size(m, n, 1 - k);
  if (k >= m) return 0;
  const std::int64_t mk = std::min(n, m - k);
  return mk * (mk + 1) / 2 + mk * (m - k - mk);
}
/// Throws fj::ValueError unless the extent `v` (named `arg`) is nonnegative.
inline void require_nonnegative(std::int64_t v, const char* fn, const char* arg) {
  if (v < 0)
    throw ValueError(std::string(fn) + ": " + arg + " must be nonnegative, got " +
                     std::to_string(v));
}

}  // namespace detail::jnp_more

/// jnp.tril_indices(n, k, m): the (row, column) indices of an n x m matrix's entries on or
/// below diagonal k (m = n when not given), row by row.
inline std::pair<Array, Array> tril_indices(std::int64_t n, std::int64_t k = 0,
                                            std::optional<std::int64_t> m = std::nullopt) {
  namespace M = detail::jnp_more;
  const std::int64_t cols = m.value_or(n);
  M::require_nonnegative(n, "fj::tril_indices", "n");
  M::require_nonnegative(cols, "fj::tril_indices", "m");
  const auto ij = nonzero(Array(tril(ones({n, cols}), k)), M::triu_size(cols, n, -k));
  return {ij[0], ij[1]};
}
/// jnp.triu_indices(n, k, m): the indices of the entries on or above diagonal k.
inline std::pair<Array, Array> triu_indices(std::int64_t n, std::int64_t k = 0,
                                            std::optional<std::int64_t> m = std::nullopt) {
  namespace M = detail::jnp_more;
  const std::int64_t cols = m.value_or(n);
  M::require_nonnegative(n, "fj::triu_indices", "n");
  M::require_nonnegative(cols, "fj::triu_indices", "m");
  const auto ij = nonzero(Array(triu(ones({n, cols}), k)), M::triu_size(n, cols, k));
  return {ij[0], ij[1]};
}
/// tril_indices / triu_indices' keyword arguments: fj::triu_indices(3, {.k = 1, .m = 4}).
struct TriIndicesOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::int64_t k = 0;               ///< the diagonal (positive: above the main one)
  std::optional<std::int64_t> m{};  ///< the number of columns (n when not given)
};
/// tril_indices / triu_indices with keyword-style options.
///@{
inline std::pair<Array, Array> tril_indices(std::int64_t n, const TriIndicesOptions& o) {
  return tril_indices(n, o.k, o.m);
}
inline std::pair<Array, Array> triu_indices(std::int64_t n, const TriIndicesOptions& o) {
  return triu_indices(n, o.k, o.m);
}
///@}
/// jnp.tril_indices_from / triu_indices_from(arr, k): the indices for a 2-d arr's shape
/// (fj::ValueError for another rank).
///@{
inline std::pair<Array, Array> tril_indices_from(const Array& arr, std::int64_t k = 0) {
  if (arr.ndim() != 2)
    throw ValueError("fj::tril_indices_from: arr must be 2-d, got " + arr.aval().str());
  return tril_indices(arr.shape()[0], k, arr.shape()[1]);
}
inline std::pair<Array, Array> triu_indices_from(const Array& arr, std::int64_t k = 0) {
  if (arr.ndim() != 2)
    throw ValueError("fj::triu_indices_from: arr must be 2-d, got " + arr.aval().str());
  return triu_indices(arr.shape()[0], k, arr.shape()[1]);
}
///@}

/// jnp.diag_indices(n, ndim): ndim copies of arange(n) (the default int dtype), the indices of
/// the main diagonal of an n x ... x n array.
inline std::vector<Array> diag_indices(std::int64_t n, int ndim = 2) {
  detail::jnp_more::require_nonnegative(n, "fj::diag_indices", "n");
  detail::jnp_more::require_nonnegative(ndim, "fj::diag_indices", "ndim");
  return std::vector<Array>(static_cast<std::size_t>(ndim), Array(iota(default_int_dtype(), n)));
}
/// jnp.diag_indices_from(arr): diag_indices for an arr of two or more equal extents
/// (fj::ValueError otherwise).
inline std::vector<Array> diag_indices_from(const Array& arr) {
  if (arr.ndim() < 2)
    throw ValueError("fj::diag_indices_from: arr must be at least 2-d, got " + arr.aval().str());
  for (int i = 1; i < arr.ndim(); ++i)
    if (arr.shape()[i] != arr.shape()[0])
      throw ValueError("fj::diag_indices_from: arr's extents must be equal, got " +
                       arr.aval().str());
  return diag_indices(arr.shape()[0], arr.ndim());
}

/// jnp.diagflat(v, k): the square matrix with the flattened v on diagonal k, zeros elsewhere.
inline Array diagflat(const Array& v, std::int64_t k = 0) {
  const Array flat = Array(reshape(v, {v.size()}));
  const std::int64_t len = flat.size(), adj = len + std::abs(k);
  const Array i = Array(iota(default_int_dtype(), adj - std::abs(k)));
  const Array fi =
      k >= 0 ? Array(Array(i + k) + Array(i * adj)) : Array(i + Array(Array(i - k) * adj));
  const Array res = Array(zeros({adj * adj}, flat.dtype()).at(fi).set(flat));
  return Array(reshape(res, {adj, adj}));
}

/// jnp.fill_diagonal(a, val, inplace=False): a with its main diagonal set to val (a scalar, or
/// values repeated to the diagonal's length). a needs two axes or more, all of one extent when
/// more than two (fj::ValueError). JAX's wrap=True and in-place forms are not offered.
inline Array fill_diagonal(const Array& a, const Array& val) {
  if (a.ndim() < 2)
    throw ValueError("fj::fill_diagonal: a must be at least 2-d, got " + a.aval().str());
  if (a.ndim() > 2)
    for (int i = 1; i < a.ndim(); ++i)
      if (a.shape()[i] != a.shape()[0])
        throw ValueError("fj::fill_diagonal: a's extents must be equal beyond 2-d, got " +
                         a.aval().str());
  std::int64_t n = a.shape()[0], step = 0, stride = 1;
  for (int d = a.ndim() - 1; d >= 0; --d) step += stride, stride *= a.shape()[d];
  for (int d = 1; d < a.ndim(); ++d) n = std::min(n, a.shape()[d]);
  // a.at[i, i, ...] as one scatter into the flattened a: element (i, ..., i) sits at i * step.
  const Array flat_idx = Array(Array(iota(default_int_dtype(), n)) * step);
  Array v = Array(astype(val, a.dtype()));
  if (v.ndim() != 0) {
    v = Array(reshape(v, {v.size()}));
    if (v.size() < n) v = Array(tile(v, (n + v.size() - 1) / v.size()));
    if (v.size() > n) v = Array(v(range(0, n)));
  }
  const Array flat = Array(reshape(a, {a.size()}));
  return detail::reshape_dyn(Array(flat.at(flat_idx).set(v)), a.shape().to_vector());
}

/// How ravel_multi_index treats out-of-range indices: raise (needs concrete indices), wrap
/// them around, clip them to the extent, or ignore (leave them; the result is then undefined).
enum class IndexMode {
  raise,   ///< check the range (concrete indices only); an fj::ValueError when out of it
  wrap,    ///< indices taken modulo the extent
  clip,    ///< indices clipped to [0, extent - 1]
  ignore,  ///< indices used as they are
};

/// jnp.ravel_multi_index(multi_index, dims, mode): the row-major flat index of each tuple of
/// indices (the indices' common integer dtype). mode raise checks the range, so the indices
/// must be concrete (fj::ConcretizationError) and in range (fj::ValueError).
inline Array ravel_multi_index(const std::vector<Array>& multi_index,
                               const std::vector<std::int64_t>& dims,
                               IndexMode mode = IndexMode::raise) {
  if (multi_index.size() != dims.size())
    throw ValueError("fj::ravel_multi_index: " + std::to_string(multi_index.size()) +
                     " index arrays for " + std::to_string(dims.size()) + " dims");
  if (multi_index.empty()) return array(std::int64_t{0});
  TypedDType t{multi_index[0].dtype(), multi_index[0].weak_type()};
  for (const Array& i : multi_index) {
    if (!is_int(i.dtype()))
      throw TypeError("fj::ravel_multi_index: the indices must be integers, got " + i.aval().str());
    t = promote_types(t, TypedDType{i.dtype(), i.weak_type()});
  }
  std::vector<Array> idx = multi_index;
  for (std::size_t d = 0; d < idx.size(); ++d) {
    const std::int64_t n = dims[d];
    if (mode == IndexMode::raise) {
      if (idx[d].is_traced())
        throw ConcretizationError(
            "fj::ravel_multi_index: index " + std::to_string(d) + " " + idx[d].aval().str() +
            " is traced and mode raise checks its values; use IndexMode::wrap or clip");
      // Checked on the host: a concrete index stays concrete under jit, as in JAX.
      bool bad = false;
      for (std::int64_t k = 0; k < idx[d].size(); ++k) {
        const std::int64_t x = visit_dtype(idx[d].dtype(), [&](auto t) {
          return static_cast<std::int64_t>(idx[d].data<decltype(t)>()[k]);
        });
        bad = bad || x < 0 || x >= n;
      }
      if (bad)
        throw ValueError("fj::ravel_multi_index: index " + std::to_string(d) + " " +
                         idx[d].aval().str() + " has an entry outside [0, " + std::to_string(n) +
                         ")");
    } else if (mode == IndexMode::clip) {
      idx[d] = Array(clip(idx[d], 0, n - 1));
    } else if (mode == IndexMode::wrap) {
      idx[d] = Array(idx[d] % n);
    }
  }
  std::vector<std::int64_t> strides(dims.size(), 1);
  for (std::size_t d = dims.size() - 1; d > 0; --d) strides[d - 1] = strides[d] * dims[d];
  Array result = detail::jnp_more::int_scalar(0, t.dtype == DType::u32 ? DType::i64 : t.dtype);
  if (t.dtype == DType::u32) result = Array(astype(result, DType::u32));
  for (std::size_t d = 0; d < idx.size(); ++d)
    result = Array(result + Array(Array(astype(idx[d], t.dtype)) * strides[d]));
  return result;
}

/// jnp.unravel_index(indices, shape): the row-major index tuple of each flat index, by
/// divmod from the last axis; out of range indices are clipped to the first / last element.
inline std::vector<Array> unravel_index(const Array& indices,
                                        const std::vector<std::int64_t>& shape) {
  if (!is_int(indices.dtype()))
    throw TypeError("fj::unravel_index: indices must be integers, got " + indices.aval().str());
  std::vector<Array> out(shape.size());
  Array rest = indices;
  for (std::size_t d = shape.size(); d-- > 0;) {
    auto [q, r] = divmod(rest, Array(full({}, double(shape[d]), indices.dtype())));
    rest = q;
    out[d] = r;
  }
  const Array oob_pos = Array(rest > 0);
  const Array oob_neg = Array(rest < -1);
  for (std::size_t d = 0; d < shape.size(); ++d)
    out[d] = Array(where(oob_pos, Array(full({}, double(shape[d] - 1), indices.dtype())),
                         Array(where(oob_neg, Array(zeros({}, indices.dtype())), out[d]))));
  return out;
}

/// jnp.ix_(*args): open-mesh index arrays, the i-th 1-d argument shaped with its extent on
/// axis i and 1 elsewhere, to index the cross product of the arguments. Bool arguments are
/// not offered (fj::NotImplementedError, as JAX).
inline std::vector<Array> ix_(const std::vector<Array>& args) {
  std::vector<Array> out;
  const std::size_t n = args.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Array& a = args[i];
    if (a.ndim() != 1)
      throw ValueError("fj::ix_: argument " + std::to_string(i) + " must be 1-d, got " +
                       a.aval().str());
    if (a.dtype() == DType::bool_)
      throw NotImplementedError("fj::ix_: bool argument " + std::to_string(i) + " " +
                                a.aval().str() + " is not supported (as in JAX)");
    std::vector<std::int64_t> shape(n, 1);
    shape[i] = a.shape()[0];
    out.push_back(detail::reshape_dyn(a, shape));
  }
  return out;
}

/// jnp.mask_indices(n, mask_func, k, size): the indices where mask_func(ones((n, n)), k) is
/// nonzero (mask_func such as fj::triu); `size` fixes their count, as nonzero's.
inline std::pair<Array, Array> mask_indices(
    std::int64_t n, const std::function<Array(const Array&, std::int64_t)>& mask_func,
    std::int64_t k = 0, std::optional<std::int64_t> size = std::nullopt) {
  detail::jnp_more::require_nonnegative(n, "fj::mask_indices", "n");
  const auto ij = nonzero(mask_func(ones({n, n}), k), size);
  return {ij[0], ij[1]};
}
/// jnp.mask_indices's keyword arguments: fj::mask_indices(3, fn, {.k = 1, .size = 3}).
struct MaskIndicesOptions {
  detail::KeywordsOnly keywords{};     ///< holds nothing: designated initializers only
  std::int64_t k = 0;                  ///< the second argument of mask_func
  std::optional<std::int64_t> size{};  ///< the static count of indices (jit needs it)
};
/// jnp.mask_indices with keyword-style options.
inline std::pair<Array, Array> mask_indices(
    std::int64_t n, const std::function<Array(const Array&, std::int64_t)>& mask_func,
    const MaskIndicesOptions& o) {
  return mask_indices(n, mask_func, o.k, o.size);
}

}  // namespace fj
