// Shape and dtype rules of the library primitives: dot_general, argmax/argmin, concatenate,
// stack, dynamic_slice, dynamic_update_slice, the cumulative reductions, sort, top_k,
// cholesky, triangular_solve, lu, eigh, qr and svd; gather and the scatters in
// shape_rules_index.hpp (implementation unit only).
#pragma once
#include <algorithm>
#include <initializer_list>
#include <string>

#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/dot_dims.hpp"
#include "fusejit/ir/shape_rules_common.hpp"

namespace fj::ir {

namespace library_rules {

inline std::vector<Aval> dot_general(const std::vector<Aval>& in, const Params& params) {
  const Aval &l = in[0], &r = in[1];
  const DotDims dd = DotDims::from(params);
  const std::string both = l.str() + " and " + r.str() + " with dimension_numbers=" + dd.str();
  if (dd.lhs_contract.size() != dd.rhs_contract.size() ||
      dd.lhs_batch.size() != dd.rhs_batch.size())
    throw ShapeError("dot_general: unequal numbers of dimensions for " + both);
  std::vector<bool> lu(static_cast<std::size_t>(l.shape.rank()), false),
      ru(static_cast<std::size_t>(r.shape.rank()), false);
  check_axes("dot_general", dd.lhs_batch, l.shape.rank(), l, lu);
  check_axes("dot_general", dd.lhs_contract, l.shape.rank(), l, lu);
  check_axes("dot_general", dd.rhs_batch, r.shape.rank(), r, ru);
  check_axes("dot_general", dd.rhs_contract, r.shape.rank(), r, ru);
  for (std::size_t i = 0; i < dd.lhs_contract.size(); ++i)
    if (l.shape[static_cast<int>(dd.lhs_contract[i])] !=
        r.shape[static_cast<int>(dd.rhs_contract[i])])
      throw ShapeError("dot_general: contracting dimensions differ in size: " + both);
  for (std::size_t i = 0; i < dd.lhs_batch.size(); ++i)
    if (l.shape[static_cast<int>(dd.lhs_batch[i])] != r.shape[static_cast<int>(dd.rhs_batch[i])])
      throw ShapeError("dot_general: batch dimensions differ in size: " + both);
  DType out = l.dtype;
  if (const auto* pe = params.find("preferred_element_type"); pe && std::get_if<DType>(pe)) {
    out = std::get<DType>(*pe);
  } else if (l.dtype != r.dtype) {
    throw DTypeError("dot_general: operands must have one dtype, got " + l.str() + " and " +
                     r.str());
  }
  if (l.dtype == DType::bool_ || r.dtype == DType::bool_ || out == DType::bool_)
    throw DTypeError("dot_general: does not take bool operands, got " + l.str() + " and " +
                     r.str());
  Shape s;
  for (auto d : dd.lhs_batch) s.push_back(l.shape[static_cast<int>(d)]);
  for (auto d : DotDims::free_dims(l.shape.rank(), dd.lhs_batch, dd.lhs_contract))
    s.push_back(l.shape[static_cast<int>(d)]);
  for (auto d : DotDims::free_dims(r.shape.rank(), dd.rhs_batch, dd.rhs_contract))
    s.push_back(r.shape[static_cast<int>(d)]);
  return {Aval{out, s, false}};
}

inline std::vector<Aval> arg_reduce(Prim p, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto& axes = params.get<std::vector<std::int64_t>>("axes");
  const std::string who(name(p));
  if (axes.size() != 1 || axes[0] < 0 || axes[0] >= a.shape.rank())
    throw ShapeError(who + ": axes " + tuple_str(axes) + " must name one axis of " + a.str());
  if (a.shape[static_cast<int>(axes[0])] == 0)
    throw ValueError(who + ": attempt to get " + who + " of an empty sequence (axis " +
                     std::to_string(axes[0]) + " of " + a.str() + ")");
  if (a.dtype == DType::bool_)
    throw DTypeError(who + ": does not take bool operands, got " + a.str());
  const DType idx = params.get<DType>("index_dtype");
  if (idx != DType::i32 && idx != DType::i64)
    throw DTypeError(who + ": index_dtype must be int32 or int64");
  Shape s;
  for (int d = 0; d < a.shape.rank(); ++d)
    if (d != axes[0]) s.push_back(a.shape[d]);
  return {Aval{idx, s, false}};
}

// concatenate along `dimension`, or stack along a new `axis`.
inline std::vector<Aval> join(Prim p, const std::vector<Aval>& in, const Params& params) {
  const bool stack = p == Prim::stack;
  const std::string who(name(p));
  if (in.empty()) throw ValueError(who + ": needs at least one operand");
  const int rank = in[0].shape.rank();
  const std::int64_t axis = params.get<std::int64_t>(stack ? "axis" : "dimension");
  if (axis < 0 || axis > rank - (stack ? 0 : 1))
    throw ShapeError(who + ": axis " + std::to_string(axis) + " is out of range for " + list(in));
  std::int64_t total = 0;
  for (const Aval& a : in) {
    if (a.dtype != in[0].dtype)
      throw DTypeError(who + ": operands must have one dtype, got " + list(in));
    if (a.shape.rank() != rank)
      throw ShapeError(who + ": operands must have one rank, got " + list(in));
    for (int d = 0; d < rank; ++d)
      if ((stack || d != axis) && a.shape[d] != in[0].shape[d])
        throw ShapeError(who + ": operand shapes differ" +
                         (stack ? std::string("") : " outside dimension " + std::to_string(axis)) +
                         ": " + list(in));
    total += stack ? 1 : a.shape[static_cast<int>(axis)];
  }
  Shape s;
  bool weak = true;
  for (const Aval& a : in) weak = weak && a.weak;
  for (int d = 0; d < rank; ++d) {
    if (stack && d == axis) s.push_back(total);
    s.push_back(!stack && d == axis ? total : in[0].shape[d]);
  }
  if (stack && axis == rank) s.push_back(total);
  return {Aval{in[0].dtype, s, weak}};
}

// Start indices are rank-0 integers of one dtype, one per operand dim, after `skip` operands.
inline void check_indices(const char* who, const std::vector<Aval>& in, std::size_t skip) {
  const Aval& a = in[0];
  if (in.size() != skip + static_cast<std::size_t>(a.shape.rank()))
    throw ShapeError(std::string(who) + ": needs one start index per axis of " + a.str() +
                     ", got " + std::to_string(in.size() - skip));
  for (std::size_t i = skip; i < in.size(); ++i)
    if (in[i].shape.rank() != 0 || is_float(in[i].dtype) || in[i].dtype == DType::bool_ ||
        in[i].dtype != in[skip].dtype)
      throw DTypeError(std::string(who) +
                       ": start indices must be integer scalars of one dtype, got " +
                       list(in, skip));
}

inline std::vector<Aval> dynamic_slice(const std::vector<Aval>& in, const Params& params) {
  check_indices("dynamic_slice", in, 1);
  const Aval& a = in[0];
  const auto& sizes = params.get<std::vector<std::int64_t>>("slice_sizes");
  if (static_cast<int>(sizes.size()) != a.shape.rank())
    throw ShapeError("dynamic_slice: slice_sizes " + tuple_str(sizes) + " for " + a.str());
  for (int d = 0; d < a.shape.rank(); ++d)
    if (sizes[static_cast<std::size_t>(d)] < 0 || sizes[static_cast<std::size_t>(d)] > a.shape[d])
      throw ShapeError("dynamic_slice: slice_sizes " + tuple_str(sizes) +
                       " do not fit in the operand " + a.str());
  return {Aval{a.dtype, Shape(sizes), a.weak}};
}

inline std::vector<Aval> dynamic_update_slice(const std::vector<Aval>& in) {
  if (in.size() < 2) throw ValueError("dynamic_update_slice: needs an operand and an update");
  const Aval &a = in[0], &u = in[1];
  check_indices("dynamic_update_slice", in, 2);
  if (u.dtype != a.dtype)
    throw DTypeError("dynamic_update_slice: update " + u.str() + " and operand " + a.str() +
                     " differ in dtype");
  if (u.shape.rank() != a.shape.rank())
    throw ShapeError("dynamic_update_slice: update " + u.str() + " and operand " + a.str() +
                     " differ in rank");
  for (int d = 0; d < a.shape.rank(); ++d)
    if (u.shape[d] > a.shape[d])
      throw ShapeError("dynamic_update_slice: update " + u.str() + " does not fit in operand " +
                       a.str());
  return {a};
}

// cumsum/cumprod/cummax/cummin: one numeric operand, the same aval back.
inline std::vector<Aval> cumulative(Prim p, const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const std::string who(name(p));
  const auto axis = params.get<std::int64_t>("axis");
  if (axis < 0 || axis >= a.shape.rank())
    throw ShapeError(who + ": axis " + std::to_string(axis) + " is out of range for " + a.str());
  if (a.dtype == DType::bool_)
    throw DTypeError(who + ": does not accept dtype bool (numbers only), got " + a.str());
  (void)params.get<bool>("reverse");
  return {Aval{a.dtype, a.shape, a.weak}};
}

// sort: operands of one shape; each comes back with its own dtype.
inline std::vector<Aval> sort(const std::vector<Aval>& in, const Params& params) {
  if (in.empty()) throw ValueError("sort: needs at least one operand");
  const auto dim = params.get<std::int64_t>("dimension");
  const auto keys = params.get<std::int64_t>("num_keys");
  (void)params.get<bool>("is_stable");
  for (const Aval& a : in)
    if (!(a.shape == in[0].shape))
      throw ShapeError("sort: operands must have one shape, got " + list(in));
  if (dim < 0 || dim >= in[0].shape.rank())
    throw ShapeError("sort: dimension " + std::to_string(dim) + " is out of range for " +
                     in[0].str());
  if (keys < 1 || keys > static_cast<std::int64_t>(in.size()))
    throw ValueError("sort: num_keys=" + std::to_string(keys) + " must be between 1 and the " +
                     std::to_string(in.size()) + " operands");
  std::vector<Aval> out;
  for (const Aval& a : in) out.push_back(Aval{a.dtype, a.shape, false});
  return out;
}

// top_k: the operand with its `axis` (the last) cut to k, and i32 indices of that shape.
inline std::vector<Aval> top_k(const std::vector<Aval>& in, const Params& params) {
  const Aval& a = in[0];
  const auto k = params.get<std::int64_t>("k");
  const auto axis = params.get<std::int64_t>("axis");
  if (a.shape.rank() == 0 || axis != a.shape.rank() - 1)
    throw ShapeError("top_k: axis " + std::to_string(axis) + " must be the last axis of " +
                     a.str());
  if (k < 0 || k > a.shape[static_cast<int>(axis)])
    throw ValueError("top_k: k=" + std::to_string(k) +
                     " must be between 0 and the size along "
                     "axis " +
                     std::to_string(axis) + " of " + a.str());
  Shape s = a.shape;
  s[static_cast<int>(axis)] = k;
  return {Aval{a.dtype, s, false}, Aval{DType::i32, s, false}};
}

// The linear-algebra primitives take f32 or f64 matrices (Eigen's decompositions in those
// two; JAX's lax.linalg refuses integers too).
inline void check_matrix(const char* who, const char* arg, const Aval& a, bool square) {
  if (a.dtype != DType::f32 && a.dtype != DType::f64)
    throw DTypeError(std::string(who) + ": argument " + arg + " must be float32 or float64, got " +
                     a.str());
  const int r = a.shape.rank();
  if (r < 2 || (square && a.shape[r - 1] != a.shape[r - 2]))
    throw ShapeError(std::string(who) + ": argument " + arg + " must be " +
                     (square ? "a (batch of) square matrices" : "a (batch of) matrices") +
                     " (rank >= 2), got " + a.str());
}

// The spectral decompositions' params that this library supports only as JAX's defaults
// print them (None).
inline void check_none_params(const char* who, const Params& params,
                              std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (params.get<std::string>(n) != "None")
      throw ValueError(std::string(who) + ": only " + n + "=None is supported, got " +
                       params.get<std::string>(n));
}

// eigh: a batch of square matrices; the eigenvectors (the same aval) and the eigenvalues
// (..., n).
inline std::vector<Aval> eigh(const std::vector<Aval>& in, const Params& params) {
  check_matrix("eigh", "a", in[0], true);
  (void)params.get<bool>("lower");
  (void)params.get<bool>("sort_eigenvalues");
  check_none_params("eigh", params, {"algorithm", "subset_by_index"});
  const Shape& s = in[0].shape;
  std::vector<std::int64_t> w = s.to_vector();
  w.pop_back();
  return {Aval{in[0].dtype, s, false}, Aval{in[0].dtype, Shape(w), false}};
}

// qr: a batch of (m, n) matrices; q (..., m, k) and r (..., k, n), k = min(m, n), or with
// full_matrices k = m.
inline std::vector<Aval> qr(const std::vector<Aval>& in, const Params& params) {
  check_matrix("qr", "a", in[0], false);
  if (params.get<bool>("pivoting")) throw ValueError("qr: pivoting=True is not supported");
  check_none_params("qr", params, {"use_magma"});
  const Shape& s = in[0].shape;
  const int r = s.rank();
  const std::int64_t m = s[r - 2], n = s[r - 1];
  const std::int64_t k = params.get<bool>("full_matrices") ? m : std::min(m, n);
  Shape qs = s, rs = s;
  qs[r - 1] = k;
  rs[r - 2] = k;
  return {Aval{in[0].dtype, qs, false}, Aval{in[0].dtype, rs, false}};
}

// svd: a batch of (m, n) matrices; s (..., k), k = min(m, n), then with compute_uv u
// (..., m, k) and vt (..., k, n), or u (..., m, m) and vt (..., n, n) with full_matrices.
inline std::vector<Aval> svd(const std::vector<Aval>& in, const Params& params) {
  check_matrix("svd", "a", in[0], false);
  check_none_params("svd", params, {"algorithm", "subset_by_index"});
  const Shape& s = in[0].shape;
  const int r = s.rank();
  const std::int64_t m = s[r - 2], n = s[r - 1], k = std::min(m, n);
  const bool full = params.get<bool>("full_matrices");
  std::vector<std::int64_t> sv = s.to_vector();
  sv.pop_back();
  sv.back() = k;
  std::vector<Aval> out{Aval{in[0].dtype, Shape(sv), false}};
  if (!params.get<bool>("compute_uv")) return out;
  Shape us = s, vs = s;
  us[r - 1] = full ? m : k;
  vs[r - 2] = full ? n : k;
  out.push_back(Aval{in[0].dtype, us, false});
  out.push_back(Aval{in[0].dtype, vs, false});
  return out;
}

// cholesky: a batch of square matrices, the same aval back.
inline std::vector<Aval> cholesky(const std::vector<Aval>& in) {
  check_matrix("cholesky", "a", in[0], true);
  return {Aval{in[0].dtype, in[0].shape, false}};
}

// triangular_solve: a (..., m, m) and b (..., m, n) (left_side) or (..., n, m), one dtype and
// the same batch axes; b's aval back.
inline std::vector<Aval> triangular_solve(const std::vector<Aval>& in, const Params& params) {
  const Aval &a = in[0], &b = in[1];
  check_matrix("triangular_solve", "a", a, true);
  check_matrix("triangular_solve", "b", b, false);
  const bool left = params.get<bool>("left_side");
  for (const char* flag : {"lower", "transpose_a", "conjugate_a", "unit_diagonal"})
    (void)params.get<bool>(flag);
  const int r = a.shape.rank();
  bool batch_ok = b.shape.rank() == r;
  for (int d = 0; batch_ok && d < r - 2; ++d) batch_ok = a.shape[d] == b.shape[d];
  if (!batch_ok || a.shape[r - 1] != b.shape[left ? r - 2 : r - 1])
    throw ShapeError("triangular_solve: incompatible shapes a " + a.str() + " and b " + b.str() +
                     (left ? " (left_side: a's size must be b's second-to-last)"
                           : " (right side: a's size must be b's last)"));
  if (a.dtype != b.dtype) throw DTypeError("triangular_solve: dtypes differ, " + list(in));
  return {Aval{b.dtype, b.shape, false}};
}

// split: pieces of the operand along `axis`, of the extents `sizes`, which sum to the operand's.
inline std::vector<Aval> split(const std::vector<Aval>& in, const Params& params) {
  const Aval& x = in[0];
  const auto axis = params.get<std::int64_t>("axis");
  const auto& sizes = params.get<std::vector<std::int64_t>>("sizes");
  if (axis < 0 || axis >= x.shape.rank())
    throw ShapeError("split: axis " + std::to_string(axis) + " is out of range for " + x.str());
  std::int64_t total = 0;
  for (auto s : sizes) {
    if (s < 0) throw ShapeError("split: sizes " + tuple_str(sizes) + " must not be negative");
    total += s;
  }
  const std::int64_t extent = x.shape[static_cast<int>(axis)];
  if (total != extent)
    throw ShapeError("split: sizes " + tuple_str(sizes) + " sum to " + std::to_string(total) +
                     ", but " + x.str() + " has " + std::to_string(extent) + " along axis " +
                     std::to_string(axis));
  std::vector<Aval> out;
  for (auto s : sizes) {
    Shape piece = x.shape;
    piece[static_cast<int>(axis)] = s;
    out.push_back(Aval{x.dtype, piece, x.weak});
  }
  return out;
}

// lu: a batch of (m, n) matrices; lu of the same aval, i32 pivots (..., min(m, n)) and an i32
// permutation (..., m).
inline std::vector<Aval> lu(const std::vector<Aval>& in) {
  check_matrix("lu", "a", in[0], false);
  const Shape& s = in[0].shape;
  const int r = s.rank();
  std::vector<std::int64_t> piv(s.begin(), s.end() - 1), perm = piv;
  piv.back() = std::min(s[r - 2], s[r - 1]);
  return {Aval{in[0].dtype, s, false}, Aval{DType::i32, Shape(piv), false},
          Aval{DType::i32, Shape(perm), false}};
}

}  // namespace library_rules

}  // namespace fj::ir

#include "fusejit/ir/shape_rules_index.hpp"
#include "fusejit/ir/shape_rules_collective.hpp"
#include "fusejit/ir/shape_rules_pad.hpp"
