// fj::lax::switch_, fj::lax::map and fj::lax::associative_scan (jax.lax.switch, lax.map and
// lax.associative_scan), composed from fusejit's own operations: switch_ is a balanced tree of
// fj::lax::cond on the clamped index, map a fj::lax::scan (of fj::vmap for a batch_size), and
// associative_scan JAX's odd/even recursion on strided slices, interleaved by lax.pad and add.
// No primitive of their own: a jaxpr shows the conds, the scan, the slices they stage.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/api/lax_control.hpp"
#include "fusejit/api/transforms.hpp"
#include "fusejit/core/function_ref.hpp"

namespace fj::detail::lax_impl {

/// lax.switch's index, taken as the first argument so that the caller's line is recorded (a
/// defaulted parameter cannot follow the operand pack): one integer scalar, as an array.
struct SwitchIndex {
  Array value;
  std::source_location loc;
  template <class P>
  SwitchIndex(const P& p, std::source_location l = std::source_location::current())
      : value(as_array(p)), loc(l) {
    static_assert(!pytree::is_node_v<P>, "fj::lax::switch_: index must be one integer scalar");
    static_assert(array_tree_v<P>,
                  "fj::lax::switch_: index must be an array, expression or "
                  "integer scalar");
  }
};

/// lax.switch's checks: raises fj::TypeError unless `index` is an integer scalar, fj::ValueError
/// when there are no branches (n = 0).
void check_switch_index(const Array& index, std::size_t n);
/// JAX's index in lax.switch: converted to i32 and clamped into [0, n - 1] (`index` itself when
/// n is 1, as JAX calls the one branch directly), in the active trace.
Array switch_index(const Array& index, std::size_t n);

/// The first branch's outputs (structure and avals), which every other branch must match.
struct BranchOutputs {
  bool set = false;
  std::size_t branch = 0;
  PyTreeDef tree;
  std::vector<ir::Aval> avals;
};
/// Records branch `branch`'s outputs in `ref` if it is the first, else raises fj::TypeError,
/// naming both branches and what differs, when they differ from ref's.
void check_branch_outputs(BranchOutputs& ref, std::size_t branch, const PyTreeDef& tree,
                          const std::vector<Array>& leaves);

/// Lowers `leaves` as a traced body's outputs and returns `tree` (a TraceBody's result).
PyTreeDef lower_outputs(LowerCtx& ctx, const std::vector<Array>& leaves, const PyTreeDef& tree,
                        std::vector<ir::Atom>& outs);

/// `idx < mid` in the active trace (or eagerly), as cond's predicate.
Array index_below(const Array& idx, std::size_t mid);

template <class T>
struct is_std_tuple : std::false_type {};
template <class... T>
struct is_std_tuple<std::tuple<T...>> : std::true_type {};

/// How many branches a std::tuple of callables, or a std::vector / std::array of one callable
/// type, holds; and the first branch's type.
template <class B>
constexpr bool branch_tuple_v = is_std_tuple<std::remove_cvref_t<B>>::value;
template <class B>
std::size_t branch_count(const B& bs) {
  if constexpr (branch_tuple_v<B>)
    return std::tuple_size_v<std::remove_cvref_t<B>>;
  else
    return bs.size();
}
template <class B, bool = branch_tuple_v<B>>
struct first_branch {
  using type = std::remove_cvref_t<decltype(std::declval<B&>()[0])>;
};
template <class B>
struct first_branch<B, true> {
  using type = std::remove_cvref_t<std::tuple_element_t<0, std::remove_cvref_t<B>>>;
};

/// Calls branch i of `bs` on `ops`, checks its outputs against `ref` and returns their leaves;
/// sets `tree` to their structure.
template <class B, class... Ops>
std::vector<Array> call_branch(B& bs, std::size_t i, BranchOutputs& ref, PyTreeDef& tree,
                               Ops&... ops) {
  std::vector<Array> leaves;
  auto finish = [&](const auto& r) {
    leaves = flatten_arrays(r);
    tree = tree_structure(r);
    check_branch_outputs(ref, i, tree, leaves);
  };
  if constexpr (branch_tuple_v<B>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (void)((i == I ? (finish(std::get<I>(bs)(ops...)), true) : false) || ...);
    }
    (std::make_index_sequence<std::tuple_size_v<std::remove_cvref_t<B>>>{});
  } else {
    finish(bs[i](ops...));
  }
  return leaves;
}

/// Branches [lo, hi) of `bs` on the operand leaves `ops` (structures `trees`, C++ types
/// Operands), selected by the clamped index `idx`: one branch is called, more split at the
/// middle into a cond on `idx < mid`, its halves traced recursively. Returns the result's leaves
/// and sets `out_tree` to its structure.
template <class... Operands, class B>
std::vector<Array> switch_flat(B& bs, const Array& idx, std::size_t lo, std::size_t hi,
                               const std::vector<Array>& ops, const std::vector<PyTreeDef>& trees,
                               const LaxSite& at, BranchOutputs& ref, PyTreeDef& out_tree) {
  if (hi - lo == 1) {
    auto leaf = [&](out_t<Operands>&... o) { return call_branch(bs, lo, ref, out_tree, o...); };
    return call_unflat<Operands...>(leaf, ops, trees);
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  std::vector<Array> in{index_below(idx, mid)};
  in.insert(in.end(), ops.begin(), ops.end());
  auto half = [&](std::size_t a, std::size_t b) {
    return [&, a, b](std::vector<Array>& t, LowerCtx& ctx, std::vector<ir::Atom>& outs) {
      PyTreeDef tree;
      const std::vector<Array> r = switch_flat<Operands...>(bs, idx, a, b, t, trees, at, ref, tree);
      return lower_outputs(ctx, r, tree, outs);
    };
  };
  auto low = half(lo, mid), high = half(mid, hi);
  return cond_traced(in, at, low, high, out_tree);
}

/// lax.map's checks: xs has leaves, each with a leading axis of one length (returned);
/// batch_size, if given, is >= 0. Raises fj::ValueError naming fj::lax::map and the shapes.
std::int64_t map_length(const std::vector<Array>& xs, std::optional<std::int64_t> batch_size);
/// JAX's _batch_and_remainder on one leaf: its first `batches * batch_size` rows reshaped to
/// (batches, batch_size, ...), and the rows after them.
Array map_batched_leaf(const Array& x, std::int64_t batches, std::int64_t batch_size);
Array map_remainder_leaf(const Array& x, std::int64_t start);
/// lax.map's result leaf: the scanned batches' ys (batches, batch_size, ...) flattened to rows,
/// then the remainder's rows (either may be absent: an empty Array).
Array map_join_leaf(const Array& scanned, const Array& remainder);

/// The combine function of associative_scan on flat leaves: fn(a, b) flattened.
using CombineFlat =
    FunctionRef<std::vector<Array>(const std::vector<Array>&, const std::vector<Array>&)>;
/// JAX's associative_scan on flat leaves (one axis length along `axis`, which may be
/// negative): checks the arguments and each combine's outputs (same dtypes and shapes as its
/// inputs), raising fj::ShapeError, fj::ValueError or fj::TypeError naming
/// fj::lax::associative_scan.
std::vector<Array> associative_scan_flat(CombineFlat combine, std::vector<Array> elems,
                                         bool reverse, int axis, const LaxSite& at);

}  // namespace fj::detail::lax_impl

namespace fj::lax {

/// jax.lax.switch(index, branches, *operands): `branches[clamp(index, 0, n - 1)](operands...)`.
/// (`switch` is a C++ keyword, hence the trailing underscore.) `branches` is a std::tuple of
/// callables (fj::lax::switch_(i, std::tuple{f0, f1, f2}, x)), or a std::vector or std::array
/// of one callable type (e.g. std::function); each is called with the operands (pytrees of
/// arrays, expressions or scalars) rebuilt with fj::Array leaves. The index, an integer scalar
/// (traced or not), is converted to i32 and clamped into [0, n - 1] as JAX clamps it. Every
/// branch is traced, and staged as a balanced tree of n - 1 fj::lax::cond on `index < mid`
/// (JAX stages one `cond` with n branches; a jaxpr here shows nested conds instead, each listing
/// its upper half first); outside a trace the whole call is traced into one graph and run, as
/// cond's is. One branch is called directly (traced all the same), as JAX calls it.
/// Raises fj::ValueError for no branches; fj::TypeError, naming fj::lax::switch, the branch
/// and the avals, when a branch's result differs from branch 0's in structure, shape or dtype,
/// and when the index is not an integer scalar.
/// Example: fj::lax::switch_(i, std::tuple{[](Array x) { return x + 1; },
///                                         [](Array x) { return x * 2; }}, x)
template <class Branches, class... Operands>
auto switch_(const detail::lax_impl::SwitchIndex& index, Branches&& branches,
             const Operands&... operands) {
  namespace L = detail::lax_impl;
  using B = std::remove_reference_t<Branches>;
  if constexpr (L::branch_tuple_v<B>)
    static_assert(std::tuple_size_v<std::remove_cvref_t<B>> > 0,
                  "fj::lax::switch_: branches must hold at least one callable");
  using F0 = typename L::first_branch<B>::type;
  static_assert(std::is_invocable_v<F0&, L::out_t<Operands>&...>,
                "fj::lax::switch_: each branch must take the operands (their pytree types, "
                "fj::Array leaves)");
  using R = std::remove_cvref_t<std::invoke_result_t<F0&, L::out_t<Operands>&...>>;
  const L::LaxSite at{"fj::lax::switch", index.loc};
  const std::size_t n = L::branch_count(branches);
  L::check_switch_index(index.value, n);
  std::vector<Array> in{index.value};
  (detail::flatten_arrays(operands, in), ...);
  const std::vector<PyTreeDef> trees{tree_structure(operands)...};
  PyTreeDef out_tree;
  const std::vector<Array> outs = L::stage_or_run("switch", at, in, [&](std::vector<Array>& a) {
    const Array idx = L::switch_index(a[0], n);
    const std::vector<Array> ops(a.begin() + 1, a.end());
    L::BranchOutputs ref;
    return L::switch_flat<Operands...>(branches, idx, 0, n, ops, trees, at, ref, out_tree);
  });
  return detail::unflatten_arrays<R>(out_tree, outs);
}

/// jax.lax.map(f, xs, batch_size=None): f applied to each slice of xs (a pytree of arrays
/// sharing their leading axis length) along the leading axis, the results stacked, as a
/// fj::lax::scan without carry. With `batch_size` b, as JAX 0.10.2 does: the first
/// (n / b) * b rows are reshaped to (n / b, b, ...) and scanned with fj::vmap(f), the remaining
/// n % b rows go through fj::vmap(f) alone, and the two concatenated; b = 0 is one vmap of all
/// rows. Staged as JAX stages it; outside a trace the whole call is traced into one graph and
/// run. Raises fj::ValueError, naming fj::lax::map and the shapes, for xs without leaves,
/// leaves without a leading axis or of different lengths, and a negative batch_size.
/// Example: fj::lax::map([](Array r) { return fj::sum(r); }, rows, 4)
template <class F, class Xs>
auto map(F&& f, const Xs& xs, std::optional<std::int64_t> batch_size = std::nullopt,
         std::source_location loc = std::source_location::current()) {
  namespace L = detail::lax_impl;
  static_assert(std::is_invocable_v<F&, L::out_t<Xs>&>,
                "fj::lax::map: f must take one slice of xs (xs's pytree type, fj::Array leaves)");
  using Y = std::remove_cvref_t<std::invoke_result_t<F&, L::out_t<Xs>&>>;
  const std::vector<Array> leaves = detail::flatten_arrays(xs);
  const std::int64_t n = L::map_length(leaves, batch_size);
  const PyTreeDef x_tree = tree_structure(xs);
  PyTreeDef y_tree;
  auto body = [&](std::vector<Array>& x_leaves) {
    if (!batch_size) {
      auto step = [&](auto& c, auto& x) { return std::make_pair(c, f(x)); };
      const auto ys = lax::scan(step, std::tuple<>{},
                                detail::unflatten_arrays<Xs>(x_tree, x_leaves), false, loc)
                          .second;
      y_tree = tree_structure(ys);
      return detail::flatten_arrays(ys);
    }
    // JAX's _batch_and_remainder: both parts sliced before the scan.
    const std::int64_t b = *batch_size, batches = b == 0 ? 0 : n / b;
    std::vector<Array> sx, rx;
    if (batches > 0)
      for (const Array& x : x_leaves) sx.push_back(L::map_batched_leaf(x, batches, b));
    if (batches * b < n || batches == 0)
      for (const Array& x : x_leaves) rx.push_back(L::map_remainder_leaf(x, batches * b));
    auto one = [&f](auto& x) { return f(x); };
    auto batched = vmap(one, in_axes<1>{0}, out_axes<1>{0}, loc);
    std::vector<Array> scanned, rest;
    if (!sx.empty()) {
      auto step = [&](auto& c, auto& x) { return std::make_pair(c, batched(x)); };
      const auto ys =
          lax::scan(step, std::tuple<>{}, detail::unflatten_arrays<Xs>(x_tree, sx), false, loc)
              .second;
      scanned = detail::flatten_arrays(ys);
      y_tree = tree_structure(ys);
    }
    if (!rx.empty()) {
      const auto ys = batched(detail::unflatten_arrays<Xs>(x_tree, rx));
      rest = detail::flatten_arrays(ys);
      y_tree = tree_structure(ys);
    }
    std::vector<Array> out;
    for (std::size_t i = 0; i < std::max(scanned.size(), rest.size()); ++i)
      out.push_back(L::map_join_leaf(scanned.empty() ? Array() : scanned[i],
                                     rest.empty() ? Array() : rest[i]));
    return out;
  };
  const std::vector<Array> outs = L::stage_or_run("map", {"fj::lax::map", loc}, leaves, body);
  return detail::unflatten_arrays<Y>(y_tree, outs);
}

/// jax.lax.associative_scan(fn, elems, reverse=False, axis=0): the inclusive scan of elems (an
/// array, or a pytree of arrays sharing the length of `axis`) along `axis` with an associative
/// fn(a, b) -> c (pytrees of elems' structure; fn must act elementwise along the axis), by JAX's
/// odd/even recursion: ceil(log2 n) levels of strided slices, fn on whole halves, interleaves.
/// The k-th result is fn(...fn(fn(e0, e1), e2)..., ek); with `reverse`, the scan runs from the
/// end: [..., fn(fn(z, y), x), fn(z, y), z] for elems [..., x, y, z]. `axis` may be negative
/// (also with reverse, which JAX 0.10.2 rejects). Staged equation for equation as JAX stages it;
/// outside a trace the whole call is traced into one graph and run. Raises fj::ShapeError, naming
/// fj::lax::associative_scan, for an axis out of range or fn changing a shape; fj::ValueError
/// for elems without leaves or with different axis lengths; fj::TypeError when fn changes the
/// structure or a dtype.
/// Example: fj::lax::associative_scan([](Array a, Array b) { return a + b; }, x)  // cumsum
template <class Fn, class Elems>
auto associative_scan(Fn&& fn, const Elems& elems, bool reverse = false, int axis = 0,
                      std::source_location loc = std::source_location::current()) {
  namespace L = detail::lax_impl;
  static_assert(std::is_invocable_v<Fn&, L::out_t<Elems>&, L::out_t<Elems>&>,
                "fj::lax::associative_scan: fn must take two values of elems' pytree type "
                "(fj::Array leaves)");
  const PyTreeDef tree = tree_structure(elems);
  auto combine = [&](const std::vector<Array>& a, const std::vector<Array>& b) {
    L::out_t<Elems> ta = detail::unflatten_arrays<Elems>(tree, a);
    L::out_t<Elems> tb = detail::unflatten_arrays<Elems>(tree, b);
    const auto r = fn(ta, tb);
    L::check_structure("fj::lax::associative_scan", "fn returns structure", tree_structure(r),
                       "elems has", tree);
    return detail::flatten_arrays(r);
  };
  std::vector<Array> out = L::associative_scan_flat(combine, detail::flatten_arrays(elems), reverse,
                                                    axis, {"fj::lax::associative_scan", loc});
  return detail::unflatten_arrays<Elems>(tree, out);
}
/// lax.associative_scan's keyword arguments: fj::lax::associative_scan(fn, x, {.axis = 1}).
struct AssociativeScanOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  bool reverse = false;             ///< scan from the end
  int axis = 0;                     ///< the axis scanned along
};
/// lax.associative_scan(fn, elems, reverse=..., axis=...) with keyword-style options.
template <class Fn, class Elems>
auto associative_scan(Fn&& fn, const Elems& elems, const AssociativeScanOptions& o,
                      std::source_location loc = std::source_location::current()) {
  return associative_scan(std::forward<Fn>(fn), elems, o.reverse, o.axis, loc);
}

}  // namespace fj::lax
