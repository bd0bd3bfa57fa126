// Definitions of api/lax_switch_map.hpp (implementation unit only): lax.switch's index and
// branch checks, lax.map's batching of xs, and JAX's associative_scan recursion on flat leaves.
#include "fusejit/api/lax_switch_map.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "fusejit/expr/array_ops.hpp"
#include "fusejit/expr/math_functions.hpp"
#include "fusejit/expr/node.hpp"
#include "fusejit/expr/operators.hpp"
#include "fusejit/expr/pad_roll.hpp"

namespace fj::detail::lax_impl {

namespace {

constexpr const char* kSwitch = "fj::lax::switch";
constexpr const char* kMap = "fj::lax::map";
constexpr const char* kScan = "fj::lax::associative_scan";

std::string shapes_str(const std::vector<Array>& xs) {
  std::string s = "(";
  for (std::size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i].aval().str();
  return s + ")";
}

// lax.slice_in_dim(x, start, limit, stride, axis), staged in the active trace as JAX stages it
// (its strides printed even when all 1).
Array slice_in_dim(const Array& x, int axis, std::int64_t start, std::int64_t limit,
                   std::int64_t stride) {
  ir::GraphBuilder& b = current_trace()->builder;
  const ir::Atom a = lower_arg(x);
  const Shape s = b.aval(a).shape;
  const auto k = static_cast<std::size_t>(axis);
  std::vector<std::int64_t> lo(static_cast<std::size_t>(s.rank()), 0),
      hi = s.to_vector(), steps(static_cast<std::size_t>(s.rank()), 1);
  lo[k] = start;
  hi[k] = std::max(start, limit);
  steps[k] = stride;
  ir::Params p;
  p.items.push_back({"limit_indices", std::move(hi), true});
  p.items.push_back({"start_indices", std::move(lo), true});
  p.items.push_back({"strides", std::move(steps), true});
  return atom_array(b.emit1(ir::Prim::slice, {a}, std::move(p)));
}

Array reshape_to(const Array& x, std::vector<std::int64_t> sizes) {
  return Array(make_node(IndexMapOp{ir::Prim::reshape, std::move(sizes), {}, {}}, x));
}

// lax.rev(x, [axis]) in the active trace (jnp.flip would stage a jit of _flip around it).
Array rev(const Array& x, int axis) {
  ir::Params p;
  p.items.push_back({"dimensions", std::vector<std::int64_t>{axis}, true});
  return atom_array(current_trace()->builder.emit1(ir::Prim::rev, {lower_arg(x)}, std::move(p)));
}

// JAX's _interleave: a's elements at the even positions of the axis, b's at the odd ones (a has
// as many as b, or one more): each padded with zeros in between, then added (or-ed for bool).
Array interleave(const Array& a, const Array& b, int axis) {
  const bool same = a.shape()[axis] == b.shape()[axis];
  std::vector<std::array<std::int64_t, 3>> pa(static_cast<std::size_t>(a.ndim()), {0, 0, 0}),
      pb = pa;
  const auto k = static_cast<std::size_t>(axis);
  pa[k] = {0, same ? 1 : 0, 1};
  pb[k] = {1, same ? 0 : 1, 1};
  const Array a_padded(fj::lax::pad(a, 0, std::move(pa)));  // a's first, as JAX stages them
  const Array b_padded(fj::lax::pad(b, 0, std::move(pb)));
  if (a.dtype() == DType::bool_) return Array(fj::bitwise_or(a_padded, b_padded));
  return Array(a_padded + b_padded);
}

// combine(a, b), checked to keep every leaf's dtype and shape.
std::vector<Array> combine_checked(CombineFlat combine, const std::vector<Array>& a,
                                   const std::vector<Array>& b) {
  std::vector<Array> c = combine(a, b);
  if (c.size() != a.size())
    throw TypeError(std::string(kScan) + ": fn returns " + std::to_string(c.size()) +
                    " arrays for operands of " + std::to_string(a.size()));
  for (std::size_t i = 0; i < c.size(); ++i) {
    const ir::Aval got = c[i].aval(), want = a[i].aval();
    const std::string what = std::string(kScan) + ": fn(a, b) returns leaf " + std::to_string(i) +
                             " as " + got.str() + " for a = " + want.str() +
                             " and b = " + b[i].aval().str();
    if (got.dtype != want.dtype) throw TypeError(what + "; fn must keep each leaf's dtype");
    if (!(got.shape == want.shape))
      throw ShapeError(what +
                       "; fn must keep each leaf's shape (act elementwise along the "
                       "scanned axis)");
  }
  return c;
}

// JAX's _scan: the pairs' combinations scanned recursively give the odd positions; each odd
// result combined with the next element gives the even ones; the two interleaved.
std::vector<Array> scan_levels(CombineFlat combine, const std::vector<Array>& elems, int axis) {
  const std::int64_t n = elems[0].shape()[axis];
  if (n < 2) return elems;
  std::vector<Array> left, right;
  for (const Array& e : elems) left.push_back(slice_in_dim(e, axis, 0, n - 1, 2));
  for (const Array& e : elems) right.push_back(slice_in_dim(e, axis, 1, n, 2));
  const std::vector<Array> odd = scan_levels(combine, combine_checked(combine, left, right), axis);
  std::vector<Array> head, tail;
  if (n % 2 == 0) {
    for (const Array& o : odd) head.push_back(slice_in_dim(o, axis, 0, o.shape()[axis] - 1, 1));
  } else {
    head = odd;
  }
  for (const Array& e : elems) tail.push_back(slice_in_dim(e, axis, 2, n, 2));
  const std::vector<Array> even = combine_checked(combine, head, tail);
  // The first element of the scan is the first element itself.
  std::vector<Array> evens;
  for (std::size_t i = 0; i < elems.size(); ++i)
    evens.push_back(Array(fj::concatenate({slice_in_dim(elems[i], axis, 0, 1, 1), even[i]}, axis)));
  std::vector<Array> out;
  for (std::size_t i = 0; i < elems.size(); ++i) out.push_back(interleave(evens[i], odd[i], axis));
  return out;
}

}  // namespace

void check_switch_index(const Array& index, std::size_t n) {
  const ir::Aval a = index.aval();
  if (a.shape.rank() != 0)
    throw TypeError(std::string(kSwitch) + ": the branch index must be a scalar, got " + a.str());
  if (!is_int(a.dtype))
    throw TypeError(std::string(kSwitch) + ": the branch index must be an integer, got " + a.str());
  if (n == 0) throw ValueError(std::string(kSwitch) + ": branches is empty; give at least one");
  if (n - 1 > static_cast<std::size_t>(INT32_MAX))
    throw ValueError(std::string(kSwitch) + ": " + std::to_string(n) +
                     " branches do not fit an i32 index");
}

Array switch_index(const Array& index, std::size_t n) {
  const ir::Aval a = index.aval();
  if (n == 1) return index;
  const Array i32 = a.dtype == DType::i32 && !a.weak ? index : Array(fj::astype(index, DType::i32));
  return Array(fj::lax::clamp(0, i32, static_cast<std::int32_t>(n - 1)));
}

void check_branch_outputs(BranchOutputs& ref, std::size_t branch, const PyTreeDef& tree,
                          const std::vector<Array>& leaves) {
  std::vector<ir::Aval> avals;
  for (const Array& l : leaves) avals.push_back(l.aval());
  if (!ref.set) {
    ref = {true, branch, tree, std::move(avals)};
    return;
  }
  const std::string first = "branch " + std::to_string(ref.branch),
                    other = "branch " + std::to_string(branch);
  if (!(tree == ref.tree))
    throw TypeError(std::string(kSwitch) + ": " + other + " returns structure " + tree.str() +
                    " but " + first + " returns " + ref.tree.str() +
                    "; every branch must return the same pytree structure");
  for (std::size_t i = 0; i < avals.size(); ++i)
    if (avals[i].dtype != ref.avals[i].dtype || !(avals[i].shape == ref.avals[i].shape))
      throw TypeError(std::string(kSwitch) + ": output " + std::to_string(i) + " of " + other +
                      " is " + avals[i].str() + " but output " + std::to_string(i) + " of " +
                      first + " is " + ref.avals[i].str() +
                      "; every branch must return the same shapes and dtypes");
}

PyTreeDef lower_outputs(LowerCtx& ctx, const std::vector<Array>& leaves, const PyTreeDef& tree,
                        std::vector<ir::Atom>& outs) {
  for (const Array& l : leaves) outs.push_back(lower_output(ctx, l));
  return tree;
}

Array index_below(const Array& idx, std::size_t mid) {
  return Array(idx < static_cast<std::int32_t>(mid));
}

std::int64_t map_length(const std::vector<Array>& xs, std::optional<std::int64_t> batch_size) {
  if (batch_size && *batch_size < 0)
    throw ValueError(std::string(kMap) + ": batch_size must be >= 0 (0 maps every row in one " +
                     "vmap), got " + std::to_string(*batch_size));
  if (xs.empty())
    throw ValueError(std::string(kMap) + ": xs must hold at least one array to map over");
  std::int64_t n = -1;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].ndim() == 0)
      throw ValueError(std::string(kMap) + ": leaf " + std::to_string(i) + " of xs is " +
                       xs[i].aval().str() + ", which has no leading axis to map over");
    if (n >= 0 && xs[i].shape()[0] != n)
      throw ValueError(std::string(kMap) +
                       ": the leaves of xs must share their leading axis length, got shapes " +
                       shapes_str(xs));
    n = xs[i].shape()[0];
  }
  return n;
}

Array map_batched_leaf(const Array& x, std::int64_t batches, std::int64_t batch_size) {
  const Shape s = x.shape();
  std::vector<std::int64_t> lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  hi[0] = batches * batch_size;
  // x[:batches * batch_size], which stages nothing when it is all of x (as in JAX).
  const Array head =
      hi[0] == s[0]
          ? x
          : Array(make_node(IndexMapOp{ir::Prim::slice, std::move(lo), std::move(hi), {}}, x));
  std::vector<std::int64_t> sizes{batches, batch_size};
  for (int d = 1; d < s.rank(); ++d) sizes.push_back(s[d]);
  return reshape_to(head, std::move(sizes));
}

Array map_remainder_leaf(const Array& x, std::int64_t start) {
  if (start == 0) return x;  // x[0:], which stages nothing (as in JAX)
  const Shape s = x.shape();
  std::vector<std::int64_t> lo(static_cast<std::size_t>(s.rank()), 0), hi = s.to_vector();
  lo[0] = start;
  return Array(make_node(IndexMapOp{ir::Prim::slice, std::move(lo), std::move(hi), {}}, x));
}

Array map_join_leaf(const Array& scanned, const Array& remainder) {
  if (scanned.is_empty()) return remainder;
  const Shape s = scanned.shape();
  std::vector<std::int64_t> sizes{s[0] * s[1]};
  for (int d = 2; d < s.rank(); ++d) sizes.push_back(s[d]);
  const Array rows = reshape_to(scanned, std::move(sizes));
  if (remainder.is_empty()) return rows;
  return Array(fj::concatenate({rows, remainder}, 0));
}

std::vector<Array> associative_scan_flat(CombineFlat combine, std::vector<Array> elems,
                                         bool reverse, int axis, const LaxSite& at) {
  if (elems.empty()) throw ValueError(std::string(kScan) + ": elems must hold at least one array");
  const int rank = elems[0].ndim();
  if (axis < -rank || axis >= rank)
    throw ShapeError(std::string(kScan) + ": axis " + std::to_string(axis) +
                     " is out of range for elems of shape " + elems[0].aval().str());
  if (axis < 0) axis += rank;
  const std::int64_t n = elems[0].shape()[axis];
  for (const Array& e : elems)
    if (e.ndim() <= axis || e.shape()[axis] != n)
      throw ValueError(std::string(kScan) + ": the leaves of elems must share the length of axis " +
                       std::to_string(axis) + ", got shapes " + shapes_str(elems));
  return stage_or_run("associative_scan", at, elems, [&](std::vector<Array>& x) {
    if (reverse)
      for (Array& e : x) e = rev(e, axis);
    std::vector<Array> out = scan_levels(combine, x, axis);
    if (reverse)
      for (Array& e : out) e = rev(e, axis);
    return out;
  });
}

}  // namespace fj::detail::lax_impl
