// Integer-array indexing and JAX's functional updates (group 3 of issue 19): x(idx, ...),
// fj::take, fj::take_along_axis and x.at(idx...).get() / .set / .add / .mul / .min / .max(v)
// for any mix of static integers, fj::range and integer arrays,
// staged through gather and the scatters as JAX 0.10.2's jnp stages them.
#pragma once
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "fusejit/expr/array.hpp"
#include "fusejit/expr/array_methods.hpp"
#include "fusejit/expr/lowering_index.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {

namespace lax {
/// jax.lax.GatherScatterMode: out-of-range indices are clamped (clip), read as a fill value or
/// dropped from a scatter (fill_or_drop), or promised not to occur (promise_in_bounds: gathers
/// clamp, scatters drop, as XLA's CPU code does).
using GatherScatterMode = ir::GatherMode;
}  // namespace lax

namespace detail {

/// x[...] or x.at[...] for any mix of static integers, fj::range and integer arrays; with
/// `update` (a scatter primitive) the last operand is the updates of x.at[...].set/add/mul/
/// min/max, and the operands between x and it are the index arrays in order.
struct TupleIndexOp {
  std::vector<AtItem> items;
  std::optional<ir::Prim> update;
  ir::GatherMode mode = ir::GatherMode::promise_in_bounds;
  bool at = false;  // x.at(...).get() rather than x(...), for errors
  void key(std::vector<std::int64_t>& k) const {
    index_items_key(items, k);
    for (std::int64_t v : {update ? static_cast<std::int64_t>(*update) : -1,
                           static_cast<std::int64_t>(mode), std::int64_t{at}})
      k.push_back(v);
  }
  template <class... A>
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, A... rest) const {
    std::vector<ir::Atom> arrays{rest...};
    std::optional<ir::Atom> updates;
    if constexpr (sizeof...(A) > 0)  // an update always has its operand
      if (update) {
        updates = arrays.back();
        arrays.pop_back();
      }
    const char* fn = update ? caller(*update)
                     : at   ? "fj::Array::at(...).get"
                            : "fj::Array::operator()";
    return lower_index_tuple(b, x, items, arrays, updates, update.value_or(ir::Prim::scatter), mode,
                             fn);
  }
  static const char* caller(ir::Prim p) {
    switch (p) {
      case ir::Prim::scatter:
        return "fj::Array::at(...).set";
      case ir::Prim::scatter_mul:
        return "fj::Array::at(...).mul";
      case ir::Prim::scatter_min:
        return "fj::Array::at(...).min";
      case ir::Prim::scatter_max:
        return "fj::Array::at(...).max";
      default:
        return "fj::Array::at(...).add";
    }
  }
};

/// The array arguments of x(...) or x.at(...), in order (expressions evaluated).
template <class... I>
auto index_arrays(const I&... idx) {
  auto one = []<class T>(const T& v) {
    if constexpr (IndexArg<T>)
      return std::tuple<>{};
    else
      return std::tuple<Array>{Array(v)};
  };
  return std::tuple_cat(one(idx)...);
}

struct TakeOp {
  std::optional<int> axis;
  ir::GatherMode mode;
  bool along = false;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v : {std::int64_t{axis.has_value()}, std::int64_t{axis.value_or(0)},
                           static_cast<std::int64_t>(mode), std::int64_t{along}})
      k.push_back(v);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom idx) const {
    return along ? lower_take_along_axis(b, x, idx, axis.value_or(0))
                 : lower_take(b, x, idx, axis, mode);
  }
};

/// What x.at(idx...) returns: the array and the index (`Arrays`, a tuple of its N index
/// arrays), waiting for .get() or an update.
template <class Arrays>
class AtIndex {
 public:
  AtIndex(Array x, std::vector<AtItem> items, Arrays arrays)
      : x_(std::move(x)), items_(std::move(items)), arrays_(std::move(arrays)) {}
  /// x[idx] (jnp's x.at[idx].get()): static indices slice, others gather; out-of-range array
  /// entries are clamped.
  Array get() const {
    return node(TupleIndexOp{items_, std::nullopt, ir::GatherMode::promise_in_bounds, true});
  }
  /// x with v at idx (x.at[idx].set(v)): a scatter; of repeated indices the last update wins.
  /// v broadcasts to the indexed shape and is converted to x's dtype; out-of-range indices are
  /// dropped (fill_or_drop, JAX's default) or clamped (clip). So for the other updates:
  template <Operand U>
  Array set(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return node(TupleIndexOp{items_, ir::Prim::scatter, mode, true}, std::forward<U>(v));
  }
  /// x with v added at idx (x.at[idx].add(v)): a scatter-add; repeated indices accumulate.
  template <Operand U>
  Array add(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return node(TupleIndexOp{items_, ir::Prim::scatter_add, mode, true}, std::forward<U>(v));
  }
  /// x multiplied by v at idx (x.at[idx].mul(v)): a scatter-mul; repeated indices accumulate.
  template <Operand U>
  Array mul(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return node(TupleIndexOp{items_, ir::Prim::scatter_mul, mode, true}, std::forward<U>(v));
  }
  /// x.at[idx].multiply(v), JAX's current name for mul.
  template <Operand U>
  Array multiply(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return mul(std::forward<U>(v), mode);
  }
  /// x with v subtracted at idx (x.at[idx].subtract(v)): a scatter-add of -v, the same values
  /// as JAX's scatter_sub (x - v is x + (-v) in IEEE arithmetic and in wrapping integers);
  /// make_jaxpr shows `neg` and `scatter-add` where JAX shows `scatter_sub`.
  template <Operand U>
  Array subtract(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return add(-std::forward<U>(v), mode);
  }
  /// x divided by v at idx (x.at[idx].divide(v)), as JAX computes it: x / ones_like(x) with v
  /// multiplied in at idx. Defined in api/creation.hpp, beside ones_like.
  template <Operand U>
  Array divide(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const;
  /// x to the power v at idx (x.at[idx].power(v)), as JAX computes it: x ** (ones_like(x) with
  /// v multiplied in at idx). Defined in api/creation.hpp.
  template <Operand U>
  Array power(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const;
  /// f applied at idx (x.at[idx].apply(f)): f must act elementwise, as JAX's ufunc; a place
  /// that repeated index-array entries name gets f once per entry, as JAX's scatter_apply. f
  /// takes and returns fj::Array. Defined in api/at_apply.hpp.
  template <class F>
  Array apply(F&& f, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const;
  /// min(x, v) at idx (x.at[idx].min(v)): a scatter-min, NaN propagating as lax.min.
  template <Operand U>
  Array min(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return node(TupleIndexOp{items_, ir::Prim::scatter_min, mode, true}, std::forward<U>(v));
  }
  /// max(x, v) at idx (x.at[idx].max(v)): a scatter-max, NaN propagating as lax.max.
  template <Operand U>
  Array max(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return node(TupleIndexOp{items_, ir::Prim::scatter_max, mode, true}, std::forward<U>(v));
  }

 private:
  template <class... U>
  Array node(const TupleIndexOp& op, U&&... v) const {
    return std::apply(
        [&](const auto&... a) { return Array(make_node(op, x_, a..., std::forward<U>(v)...)); },
        arrays_);
  }
  Array x_;
  std::vector<AtItem> items_;
  Arrays arrays_;
};

}  // namespace detail

/// Elements of x at `idx` along `axis` (jnp.take; no axis: of the flattened x). Out-of-range
/// indices read NaN (integers: their lowest value) in fill_or_drop mode, JAX's default, or
/// are clamped (clip). A float index array raises fj::DTypeError.
template <detail::Operand A, detail::Operand I>
auto take(A&& x, I&& idx, std::optional<int> axis = std::nullopt,
          lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) {
  return detail::make_node(detail::TakeOp{axis, mode}, std::forward<A>(x), std::forward<I>(idx));
}
/// jnp.take's keyword arguments: fj::take(x, idx, {.axis = 1, .mode = clip}).
struct TakeOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  std::optional<int> axis{};        ///< the axis indexed (none: the flattened x)
  lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop;  ///< out-of-range indices
};
/// jnp.take(x, idx, axis=..., mode=...) with keyword-style options.
template <detail::Operand A, detail::Operand I>
auto take(A&& x, I&& idx, const TakeOptions& o) {
  return take(std::forward<A>(x), std::forward<I>(idx), o.axis, o.mode);
}
/// jnp.take_along_axis: idx has x's shape off `axis`; element k of idx along the axis reads x
/// at idx's value there (argsort's output picks the sorted values). Out of range: NaN.
template <detail::Operand A, detail::Operand I>
auto take_along_axis(A&& x, I&& idx, int axis) {
  return detail::make_node(detail::TakeOp{axis, lax::GatherScatterMode::fill_or_drop, true},
                           std::forward<A>(x), std::forward<I>(idx));
}

namespace detail {
template <class S>
template <class... I>
requires(AtArg<I>&&...) &&
    (!(IndexArg<I> && ...)) auto ArrayMethods<S>::operator()(const I&... index) const {
  return std::apply(
      [&](const auto&... a) {
        return make_node(
            TupleIndexOp{
                {at_item(index)...}, std::nullopt, ir::GatherMode::promise_in_bounds, false},
            self(), a...);
      },
      index_arrays(index...));
}
template <class S>
template <class... I>
requires(AtArg<I>&&...) auto ArrayMethods<S>::at(const I&... index) const {
  auto arrays = index_arrays(index...);
  return AtIndex<decltype(arrays)>(Array(self()), {at_item(index)...}, std::move(arrays));
}

}  // namespace detail

}  // namespace fj
