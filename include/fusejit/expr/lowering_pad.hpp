// lax.pad, jnp.pad, jnp.roll, jnp.tile and jnp.repeat's lowerings (defined in lowering_pad.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "fusejit/expr/lowering.hpp"

namespace fj::detail {

/// jnp.pad's modes: a constant value; the edge values repeated; a mirror image without the edge
/// (reflect) or with it (symmetric); the array repeated (wrap); the axis's maximum, minimum or
/// mean repeated (rounded to even for integers); zeros (empty: jnp.empty is jnp.zeros); the
/// axis's median repeated (jnp.median, rounded to even for integers).
enum class PadMode : std::uint8_t {
  constant,
  edge,
  reflect,
  symmetric,
  wrap,
  maximum,
  minimum,
  mean,
  empty,
  median
};
/// jnp.pad's reflect_type for reflect and symmetric: the mirror image as it is (even), or
/// reflected through the edge value as well, 2 * edge - image (odd).
enum class ReflectType : std::uint8_t { even, odd };

/// (lo, hi, interior) padding of one axis.
using PadTriple = std::array<std::int64_t, 3>;
/// (before, after) widths of one axis.
using PadPair = std::pair<std::int64_t, std::int64_t>;

/// lax.pad: the `pad` primitive (lo and hi may be negative; interior >= 0). A weakly typed
/// padding value takes x's dtype; any other must have it.
Atom lower_lax_pad(GraphBuilder& b, Atom x, Atom value, const std::vector<PadTriple>& config);
/// jnp.pad: a `jit[name=_pad]` around `pad` (constant: `value` converted to x's dtype), or the
/// slices, repeats, flips, reductions and concatenates JAX stages for the other modes.
/// `stat_length` (maximum, minimum, mean; empty: the whole axis) holds one positive (before,
/// after) pair per axis, or one for all. `widths`
/// holds one pair per axis, or one pair for all; widths are nonnegative. `constant_pairs`, when
/// not empty, are the constant mode's values instead of `value`: a (before, after) pair for all
/// axes or one per axis (JAX's `constant_values=(b, a)` and `((b, a), ...)`), passed to the jit
/// as JAX passes Python floats.
Atom lower_pad(GraphBuilder& b, Atom x, Atom value, const std::vector<PadPair>& widths,
               PadMode mode, ReflectType reflect_type = ReflectType::even,
               const std::vector<PadPair>& stat_length = {},
               const std::vector<std::pair<double, double>>& constant_pairs = {});
/// jnp.roll with static shifts: `jit[name=_roll_static]` of slices and concatenates per axis;
/// with no axes, over the flattened array, reshaped back.
Atom lower_roll(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& shifts,
                const std::vector<int>& axes, bool flatten);
/// jnp.roll with a traced shift (a scalar, or one per axis): `jit[name=_roll_dynamic]`, per
/// axis the shift modulo the extent, a concatenate of x with itself and a dynamic_slice.
Atom lower_roll_dynamic(GraphBuilder& b, Atom x, Atom shift, const std::vector<int>& axes,
                        bool flatten);
/// jnp.tile: the `tile` primitive, reps padded with leading 1s (or x with leading size-1 axes).
Atom lower_tile(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& reps);
/// jnp.repeat with a static scalar count: broadcast_in_dim after `axis`, then a reshape; over
/// the flattened array when `flatten`.
Atom lower_repeat(GraphBuilder& b, Atom x, std::int64_t repeats, int axis, bool flatten);
/// jnp.repeat with an array of counts (api/repeat.cpp has checked their number and the total):
/// JAX's _repeat from the counts' ravel and broadcast on, along a nonnegative `axis` of x: a
/// scalar x broadcast to total; `empty` (an empty array of x's dtype) reshaped when the total is
/// 0; x when its axis is empty; else a roll, a scatter, two cumsums and a take.
Atom lower_repeat_array(GraphBuilder& b, Atom x, Atom repeats, std::int64_t total, int axis,
                        std::optional<Atom> empty);
/// An axis in [-rank, rank) made nonnegative, or a ShapeError naming `who` and the shape.
int canonical_axis(int axis, const ir::Aval& a, const char* who);

}  // namespace fj::detail
