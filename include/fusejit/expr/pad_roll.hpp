// fj::pad, fj::roll, fj::tile, fj::repeat (jnp's) and fj::lax::pad, over arrays, tracers and
// expressions.
#pragma once
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "fusejit/expr/lowering_pad.hpp"
#include "fusejit/expr/node.hpp"

namespace fj {

/// jnp.pad's modes (constant, edge, reflect, symmetric, wrap, maximum, minimum, mean, empty) and
/// reflect_type (even, odd).
///@{
using PadMode = detail::PadMode;
using ReflectType = detail::ReflectType;
///@}

namespace detail {

inline void key_vec(std::vector<std::int64_t>& k, const std::vector<std::int64_t>& v) {
  k.push_back(static_cast<std::int64_t>(v.size()));
  k.insert(k.end(), v.begin(), v.end());
}

struct LaxPadOp {
  std::vector<PadTriple> config;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(static_cast<std::int64_t>(config.size()));
    for (const auto& t : config) k.insert(k.end(), t.begin(), t.end());
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom v) const {
    return lower_lax_pad(b, x, v, config);
  }
};
struct PadOp {
  std::vector<PadPair> widths;
  PadMode mode;
  ReflectType reflect_type = ReflectType::even;
  std::vector<PadPair> stat_length;                       // empty: the whole axis
  std::vector<std::pair<double, double>> constant_pairs;  // empty: the scalar operand
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(static_cast<std::int64_t>(constant_pairs.size()));
    for (const auto& [lo, hi] : constant_pairs)
      k.insert(k.end(), {std::bit_cast<std::int64_t>(lo), std::bit_cast<std::int64_t>(hi)});
    k.push_back(static_cast<std::int64_t>(mode));
    k.push_back(static_cast<std::int64_t>(reflect_type));
    k.push_back(static_cast<std::int64_t>(stat_length.size()));
    for (const auto& [lo, hi] : stat_length) k.insert(k.end(), {lo, hi});
    k.push_back(static_cast<std::int64_t>(widths.size()));
    for (const auto& [lo, hi] : widths) {
      k.push_back(lo);
      k.push_back(hi);
    }
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom v) const {
    return lower_pad(b, x, v, widths, mode, reflect_type, stat_length, constant_pairs);
  }
};
struct RollOp {
  std::vector<std::int64_t> shifts;
  std::vector<int> axes;
  bool flatten;
  void key(std::vector<std::int64_t>& k) const {
    key_vec(k, shifts);
    key_vec(k, std::vector<std::int64_t>(axes.begin(), axes.end()));
    k.push_back(flatten);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_roll(b, x, shifts, axes, flatten);
  }
};
struct RollDynamicOp {
  std::vector<int> axes;
  bool flatten;
  void key(std::vector<std::int64_t>& k) const {
    key_vec(k, std::vector<std::int64_t>(axes.begin(), axes.end()));
    k.push_back(flatten);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x, ir::Atom shift) const {
    return lower_roll_dynamic(b, x, shift, axes, flatten);
  }
};
struct TileOp {
  std::vector<std::int64_t> reps;
  void key(std::vector<std::int64_t>& k) const { key_vec(k, reps); }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const { return lower_tile(b, x, reps); }
};
struct RepeatOp {
  std::int64_t repeats;
  int axis;
  bool flatten;
  void key(std::vector<std::int64_t>& k) const {
    k.push_back(repeats);
    k.push_back(axis);
    k.push_back(flatten);
  }
  ir::Atom operator()(GraphBuilder& b, ir::Atom x) const {
    return lower_repeat(b, x, repeats, axis, flatten);
  }
};

}  // namespace detail

/// jnp.pad: `widths` holds a (before, after) pair per axis, or one pair for every axis; every
/// mode but constant needs a nonempty axis wherever it pads. `reflect_type` applies to reflect
/// and symmetric.
template <detail::Operand A>
auto pad(A&& x, std::vector<std::pair<std::int64_t, std::int64_t>> widths,
         PadMode mode = PadMode::constant, ReflectType reflect_type = ReflectType::even) {
  return detail::make_node(detail::PadOp{std::move(widths), mode, reflect_type, {}, {}},
                           std::forward<A>(x), 0);
}
/// jnp.pad(x, widths, mode, stat_length=...) for the maximum, minimum and mean modes: each side's
/// statistic over that many leading or trailing elements of the axis (a pair per axis, or one
/// for all; capped at the axis's extent).
template <detail::Operand A>
auto pad(A&& x, std::vector<std::pair<std::int64_t, std::int64_t>> widths, PadMode mode,
         std::vector<std::pair<std::int64_t, std::int64_t>> stat_length) {
  return detail::make_node(
      detail::PadOp{std::move(widths), mode, ReflectType::even, std::move(stat_length), {}},
      std::forward<A>(x), 0);
}
/// jnp.pad's keyword arguments: fj::pad(x, {{1, 2}}, {.mode = fj::PadMode::reflect,
/// .reflect_type = fj::ReflectType::odd}) or {.constant_values = 5}.
struct PadOptions {
  detail::KeywordsOnly keywords{};               ///< holds nothing: designated initializers only
  PadMode mode = PadMode::constant;              ///< how the new elements are filled
  double constant_values = 0;                    ///< the fill of PadMode::constant (x's dtype)
  ReflectType reflect_type = ReflectType::even;  ///< reflect / symmetric: mirrored or negated
  /// maximum / minimum / mean modes: each side's statistic over this many elements (all if empty)
  std::vector<std::pair<std::int64_t, std::int64_t>> stat_length{};
};
/// jnp.pad(x, widths, mode=..., constant_values=..., reflect_type=..., stat_length=...) with
/// keyword-style options.
template <detail::Operand A>
Array pad(A&& x, std::vector<std::pair<std::int64_t, std::int64_t>> widths, const PadOptions& o) {
  // A nonzero fill is an operand, as jnp.pad(x, w, constant_values=v) stages its Python scalar.
  if (o.mode == PadMode::constant && o.constant_values != 0)
    return Array(pad(std::forward<A>(x), std::move(widths), o.constant_values));
  return Array(
      detail::make_node(detail::PadOp{std::move(widths), o.mode, o.reflect_type, o.stat_length, {}},
                        std::forward<A>(x), 0));
}
/// jnp.pad with `width` before and after every axis.
template <detail::Operand A>
auto pad(A&& x, std::int64_t width, PadMode mode = PadMode::constant,
         ReflectType reflect_type = ReflectType::even) {
  return pad(std::forward<A>(x), {{width, width}}, mode, reflect_type);
}
/// jnp.pad with `width` before and after every axis and keyword-style options.
template <detail::Operand A>
Array pad(A&& x, std::int64_t width, const PadOptions& o) {
  return pad(std::forward<A>(x), {{width, width}}, o);
}
/// jnp.pad(x, widths, constant_values=value): a scalar value, converted to x's dtype.
template <detail::Operand A, detail::Operand B>
auto pad(A&& x, std::vector<std::pair<std::int64_t, std::int64_t>> widths, B&& value) {
  return detail::make_node(
      detail::PadOp{std::move(widths), PadMode::constant, ReflectType::even, {}, {}},
      std::forward<A>(x), std::forward<B>(value));
}
/// jnp.pad(x, widths, constant_values=...) with a value per side: one (before, after) pair for
/// every axis (JAX's `(b, a)`) or one per axis (`((b0, a0), (b1, a1), ...)`), converted to x's
/// dtype; staged as JAX stages those Python floats (an f32 array inside the jit).
template <detail::Operand A>
auto pad(A&& x, std::vector<std::pair<std::int64_t, std::int64_t>> widths,
         std::vector<std::pair<double, double>> constant_values) {
  return detail::make_node(
      detail::PadOp{
          std::move(widths), PadMode::constant, ReflectType::even, {}, std::move(constant_values)},
      std::forward<A>(x), 0);
}

/// jnp.roll(x, shift): the flattened array shifted, reshaped back.
template <detail::Operand A>
auto roll(A&& x, std::int64_t shift) {
  return detail::make_node(detail::RollOp{{shift}, {}, true}, std::forward<A>(x));
}
/// jnp.roll(x, shift, axis): elements shifted by `shift` along `axis`, wrapping around.
template <detail::Operand A>
auto roll(A&& x, std::int64_t shift, int axis) {
  return detail::make_node(detail::RollOp{{shift}, {axis}, false}, std::forward<A>(x));
}
/// jnp.roll(x, shifts, axes): each axis shifted by its shift (one of either applies to all).
template <detail::Operand A>
auto roll(A&& x, std::vector<std::int64_t> shifts, std::vector<int> axes) {
  return detail::make_node(detail::RollOp{std::move(shifts), std::move(axes), false},
                           std::forward<A>(x));
}

/// jnp.roll(x, shift) with a traced integer shift, over the flattened array.
template <detail::Operand A, detail::ArrayLike S>
auto roll(A&& x, S&& shift) {
  return detail::make_node(detail::RollDynamicOp{{}, true}, std::forward<A>(x),
                           std::forward<S>(shift));
}
/// jnp.roll(x, shift, axis) with a traced integer shift.
template <detail::Operand A, detail::ArrayLike S>
auto roll(A&& x, S&& shift, int axis) {
  return detail::make_node(detail::RollDynamicOp{{axis}, false}, std::forward<A>(x),
                           std::forward<S>(shift));
}
/// jnp.roll(x, shifts, axes) with traced integer shifts: a scalar, or one per axis (1-D).
template <detail::Operand A, detail::ArrayLike S>
auto roll(A&& x, S&& shifts, std::vector<int> axes) {
  return detail::make_node(detail::RollDynamicOp{std::move(axes), false}, std::forward<A>(x),
                           std::forward<S>(shifts));
}

/// jnp.tile: x repeated reps[d] times along each axis; a shorter reps applies to the trailing
/// axes, a longer one adds leading axes.
///@{
template <detail::Operand A>
auto tile(A&& x, std::vector<std::int64_t> reps) {
  return detail::make_node(detail::TileOp{std::move(reps)}, std::forward<A>(x));
}
template <detail::Operand A>
auto tile(A&& x, std::int64_t reps) {
  return tile(std::forward<A>(x), std::vector<std::int64_t>{reps});
}
///@}

/// jnp.repeat(x, repeats): each element of the flattened array `repeats` times.
template <detail::Operand A>
auto repeat(A&& x, std::int64_t repeats) {
  return detail::make_node(detail::RepeatOp{repeats, 0, true}, std::forward<A>(x));
}
/// jnp.repeat(x, repeats, axis): each slice along `axis` `repeats` times.
template <detail::Operand A>
auto repeat(A&& x, std::int64_t repeats, int axis) {
  return detail::make_node(detail::RepeatOp{repeats, axis, false}, std::forward<A>(x));
}

namespace lax {
/// lax.pad: (lo, hi, interior) per axis; lo and hi may be negative (cropping), interior puts
/// that many padding values between neighbours. The padding value has x's dtype (a C++ scalar
/// takes it).
template <detail::Operand A, detail::Operand B>
auto pad(A&& x, B&& padding_value, std::vector<std::array<std::int64_t, 3>> config) {
  return detail::make_node(detail::LaxPadOp{std::move(config)}, std::forward<A>(x),
                           std::forward<B>(padding_value));
}
}  // namespace lax

}  // namespace fj
