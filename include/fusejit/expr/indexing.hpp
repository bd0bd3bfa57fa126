// Integer-array indexing and JAX's functional updates (group 3 of issue 19): x(idx),
// fj::take, fj::take_along_axis and x.at(idx).get() / .set / .add / .mul / .min / .max(v),
// staged through gather and the scatters as JAX 0.10.2's jnp stages them.
#pragma once
#include <optional>
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

/// x[i, j, ...] (integer arrays on the leading axes) or x.at[n] for a static n; with `update`
/// (a scatter primitive) the last operand is the updates of x.at[...].set/add/mul/min/max.
struct AdvancedIndexOp {
  std::optional<std::int64_t> scalar;
  std::optional<ir::Prim> update;
  ir::GatherMode mode = ir::GatherMode::promise_in_bounds;
  void key(std::vector<std::int64_t>& k) const {
    for (std::int64_t v :
         {std::int64_t{scalar.has_value()}, scalar.value_or(0),
          update ? static_cast<std::int64_t>(*update) : -1, static_cast<std::int64_t>(mode)})
      k.push_back(v);
  }
  template <class... A>
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, A... rest) const {
    std::vector<ir::Atom> ints{rest...};
    std::optional<ir::Atom> updates;
    if (update) {
      updates = ints.back();
      ints.pop_back();
    }
    return lower_advanced_index(b, x, ints, scalar, updates, update.value_or(ir::Prim::scatter),
                                mode, update ? caller(*update) : "fj::Array indexing");
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

/// What x.at(idx) returns: the array and the index, waiting for .get() or an update.
class AtIndex {
 public:
  AtIndex(Array x, std::vector<Array> idx, std::optional<std::int64_t> scalar)
      : x_(std::move(x)), idx_(std::move(idx)), scalar_(scalar) {}
  /// x[idx] (jnp's x.at[idx].get()): a gather; out-of-range indices are clamped.
  Array get() const {
    if (scalar_) return Array(x_(*scalar_));
    return idx_.size() == 1 ? Array(make_node(AdvancedIndexOp{}, x_, idx_[0]))
                            : Array(make_node(AdvancedIndexOp{}, x_, idx_[0], idx_[1]));
  }
  /// x with v at idx (x.at[idx].set(v)): a scatter; of repeated indices the last update wins.
  /// v broadcasts to the indexed shape and is converted to x's dtype; out-of-range indices are
  /// dropped (fill_or_drop, JAX's default) or clamped (clip). So for the other updates:
  template <Operand U>
  Array set(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return update(ir::Prim::scatter, std::forward<U>(v), mode);
  }
  /// x with v added at idx (x.at[idx].add(v)): a scatter-add; repeated indices accumulate.
  template <Operand U>
  Array add(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return update(ir::Prim::scatter_add, std::forward<U>(v), mode);
  }
  /// x multiplied by v at idx (x.at[idx].mul(v)): a scatter-mul; repeated indices accumulate.
  template <Operand U>
  Array mul(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return update(ir::Prim::scatter_mul, std::forward<U>(v), mode);
  }
  /// min(x, v) at idx (x.at[idx].min(v)): a scatter-min, NaN propagating as lax.min.
  template <Operand U>
  Array min(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return update(ir::Prim::scatter_min, std::forward<U>(v), mode);
  }
  /// max(x, v) at idx (x.at[idx].max(v)): a scatter-max, NaN propagating as lax.max.
  template <Operand U>
  Array max(U&& v, lax::GatherScatterMode mode = lax::GatherScatterMode::fill_or_drop) const {
    return update(ir::Prim::scatter_max, std::forward<U>(v), mode);
  }

 private:
  template <Operand U>
  Array update(ir::Prim scatter, U&& v, lax::GatherScatterMode mode) const {
    const AdvancedIndexOp op{scalar_, scatter, mode};
    if (scalar_) return Array(make_node(op, x_, std::forward<U>(v)));
    return idx_.size() == 1 ? Array(make_node(op, x_, idx_[0], std::forward<U>(v)))
                            : Array(make_node(op, x_, idx_[0], idx_[1], std::forward<U>(v)));
  }
  Array x_;
  std::vector<Array> idx_;
  std::optional<std::int64_t> scalar_;
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
/// jnp.take_along_axis: idx has x's shape off `axis`; element k of idx along the axis reads x
/// at idx's value there (argsort's output picks the sorted values). Out of range: NaN.
template <detail::Operand A, detail::Operand I>
auto take_along_axis(A&& x, I&& idx, int axis) {
  return detail::make_node(detail::TakeOp{axis, lax::GatherScatterMode::fill_or_drop, true},
                           std::forward<A>(x), std::forward<I>(idx));
}

namespace detail {
template <class S>
auto ArrayMethods<S>::operator()(const Array& idx) const {
  return make_node(AdvancedIndexOp{}, self(), idx);
}
template <class S>
auto ArrayMethods<S>::operator()(const Array& i, const Array& j) const {
  return make_node(AdvancedIndexOp{}, self(), i, j);
}
template <class S>
AtIndex ArrayMethods<S>::at(const Array& idx) const {
  return AtIndex(Array(self()), {idx}, std::nullopt);
}
template <class S>
AtIndex ArrayMethods<S>::at(const Array& i, const Array& j) const {
  return AtIndex(Array(self()), {i, j}, std::nullopt);
}
template <class S>
AtIndex ArrayMethods<S>::at(std::int64_t n) const {
  return AtIndex(Array(self()), {}, n);
}

}  // namespace detail

}  // namespace fj
