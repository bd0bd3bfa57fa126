// jnp semantics on top of lax primitives: dtype promotion, rank promotion, and the composite
// functions (where, clip, round, %) that JAX stages as named sub-graphs.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "fusejit/core/promotion.hpp"
#include "fusejit/expr/range.hpp"
#include "fusejit/ir/builder.hpp"
#include "fusejit/ir/dot_dims.hpp"

namespace fj::detail {

using ir::Atom;
using ir::GraphBuilder;
using ir::Prim;

/// convert_element_type to `to`, or nothing when the atom already has that dtype and weak flag.
/// A literal is retyped in place, as JAX converts a Python scalar before staging it.
Atom convert(GraphBuilder& b, Atom a, TypedDType to);
/// broadcast_in_dim of `a` to `shape` (trailing-aligned, NumPy style); nothing if equal.
Atom broadcast_to(GraphBuilder& b, Atom a, const Shape& shape);
/// A sub-graph's body: its results, emitted into the builder given its invars.
using SubgraphBody = std::function<std::vector<Atom>(GraphBuilder&, const std::vector<Atom>&)>;
/// The sub-graph `body` traces on invars of `ops`' avals, traced once per `key` and avals and
/// shared (call_named's and custom_jvp_call's sub-graphs).
ir::GraphPtr shared_subgraph(GraphBuilder& b, std::string key, const std::vector<Atom>& ops,
                             const SubgraphBody& body);
/// A `jit[name=...]` equation around `body`, whose sub-graph is traced once per name, variant
/// (the composite's static arguments) and operand avals, and shared.
Atom call_named(GraphBuilder& b, const std::string& name, const std::vector<Atom>& ops,
                const std::function<Atom(GraphBuilder&, const std::vector<Atom>&)>& body,
                const std::string& variant = "");

Atom lower_unary(GraphBuilder& b, Prim p, Atom a);
/// Arithmetic, comparison and bitwise binary ops with JAX's promotion and rank promotion.
Atom lower_binary(GraphBuilder& b, Prim p, Atom x, Atom y);
Atom lower_true_divide(GraphBuilder& b, Atom x, Atom y);
/// jnp.power with a traced exponent: `pow` on floats; on two integers (or bools) JAX's unrolled
/// integer exponentiation (lower_pow_int_int), an integer result.
Atom lower_pow(GraphBuilder& b, Atom x, Atom y);
Atom lower_pow_int_int(GraphBuilder& b, Atom x, Atom y);
Atom lower_logical(GraphBuilder& b, Prim p, Atom x, Atom y);
Atom lower_logical_not(GraphBuilder& b, Atom x);
Atom lower_astype(GraphBuilder& b, Atom x, DType to);
/// jnp.where: a `jit[name=_where]` equation around select_n.
Atom lower_where(GraphBuilder& b, Atom c, Atom x, Atom y);
/// jnp.clip: a `jit[name=clip]` equation around max (when `lo` is given) and min (`hi`); the
/// bounds not given are not its operands, as JAX's None.
Atom lower_clip(GraphBuilder& b, Atom x, std::optional<Atom> lo, std::optional<Atom> hi);
/// jnp.round: a `jit[name=round]` equation around round[rounding_method=1] (half to even).
Atom lower_round(GraphBuilder& b, Atom x);
/// Python's %: a `jit[name=remainder]` equation; the result has the divisor's sign.
Atom lower_remainder(GraphBuilder& b, Atom x, Atom y);

/// jnp.bitwise_and / or / xor (`and`, `or`, `xor`): bitwise on integers, logical on bools.
/// Floats raise DTypeError naming `fn` (the user-facing function) and the dtype.
Atom lower_bitwise(GraphBuilder& b, Prim p, Atom x, Atom y, const char* fn);
/// jnp.bitwise_not (`~`): `not` of an integer or bool operand.
Atom lower_bitwise_not(GraphBuilder& b, Atom x);
/// jnp.left_shift / right_shift: bools become i32; right shifts are arithmetic on signed
/// integers and logical on unsigned ones.
Atom lower_shift(GraphBuilder& b, bool left, Atom x, Atom y);
/// x ** n for a static integer n (jnp.power with a concrete int): `integer_pow[y=n]`; bools
/// become i32; a negative n on integers raises DTypeError, as JAX's TypeError.
Atom lower_integer_pow(GraphBuilder& b, Atom x, std::int64_t n);
/// Python's //: a `jit[name=floor_divide]` equation, as jnp.floor_divide stages it.
Atom lower_floor_divide(GraphBuilder& b, Atom x, Atom y);

}  // namespace fj::detail

namespace fj::detail {
/// jnp.sum / prod / max / min / any / all: `axes` empty with `all_axes` reduces everything;
/// negative axes count from the end; keepdims re-inserts size-1 dims with broadcast_in_dim.
Atom lower_reduce(GraphBuilder& b, Prim p, Atom x, const std::vector<int>& axes, bool all_axes,
                  bool keepdims);
/// jnp.mean: a sum divided by the number of reduced elements; integers average in f32.
Atom lower_mean(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes,
                bool keepdims);
}  // namespace fj::detail

namespace fj::detail {
/// lax.transpose; an empty `perm` reverses the axes (x.T).
Atom lower_transpose(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& perm);
/// jnp.reshape; one size may be -1 (inferred).
Atom lower_reshape(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& sizes);
/// lax.split: x cut along `axis` (negative: from the end) into pieces of `sizes`.
std::vector<Atom> lower_split(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& sizes,
                              int axis);
/// Static slicing x[start:stop:step] per axis; negative bounds count from the end.
Atom lower_slice(GraphBuilder& b, Atom x, const std::vector<std::int64_t>& start,
                 const std::vector<std::int64_t>& stop, const std::vector<std::int64_t>& step);
}  // namespace fj::detail

namespace fj::detail {
/// lax.dot_general; `preferred` is printed as preferred_element_type when set (jnp's dot and
/// matmul set it to the promoted dtype and keep each operand's own dtype, as JAX does).
Atom lower_dot_general(GraphBuilder& b, Atom x, Atom y, const ir::DotDims& dims,
                       std::optional<DType> preferred, const char* who);
/// jnp.dot: contracts x's last axis with y's only (1-D) or second-to-last axis.
Atom lower_dot(GraphBuilder& b, Atom x, Atom y);
/// jnp.matmul: batched over leading dims, which broadcast; 1-D operands as in NumPy.
Atom lower_matmul(GraphBuilder& b, Atom x, Atom y);
/// jnp.argmax / argmin: over one axis, or over the flattened array when `all_axes`.
Atom lower_arg_reduce(GraphBuilder& b, Prim p, Atom x, int axis, bool all_axes, bool keepdims);
/// jnp.concatenate / jnp.stack along `axis` (negative counts from the end), dtypes promoted.
Atom lower_join(GraphBuilder& b, Prim p, std::vector<Atom> xs, int axis);
/// lax.dynamic_slice: negative starts wrap once, then starts are clamped into range.
Atom lower_dynamic_slice(GraphBuilder& b, Atom x, const std::vector<Atom>& starts,
                         const std::vector<std::int64_t>& sizes);
/// lax.dynamic_update_slice: `update` written into `x` at the clamped starts.
Atom lower_dynamic_update_slice(GraphBuilder& b, Atom x, Atom update,
                                const std::vector<Atom>& starts);

/// One index of x(...): an integer, or a range of one axis.
struct Index {
  bool is_range = false;
  std::int64_t i = 0;
  Range r;
};
/// One index of x(...) or x.at(...): a static integer, an fj::Range (a Python slice), the next
/// integer-array operand (a NumPy advanced index; rank 0 indexes like an integer), fj::newaxis
/// (Python's None) or fj::ellipsis (`...`).
struct AtItem {
  enum class Kind : std::uint8_t { range, integer, array, newaxis, ellipsis };
  Kind kind = Kind::range;
  std::int64_t i = 0;
  Range r;
};
/// An index's items appended to an expression node's cache key.
inline void index_items_key(const std::vector<AtItem>& items, std::vector<std::int64_t>& k) {
  k.push_back(static_cast<std::int64_t>(items.size()));
  for (const AtItem& it : items)
    k.insert(k.end(),
             {static_cast<std::int64_t>(it.kind), it.i, it.r.start.has_value(),
              it.r.start.value_or(0), it.r.stop.has_value(), it.r.stop.value_or(0), it.r.step});
}
/// x[items] for static items only (no arrays): jnp's static-slice path, then the new axes
/// (defined in lowering_index.cpp).
Atom lower_static_index(GraphBuilder& b, Atom x, const std::vector<AtItem>& items);
/// jnp.flip: a `jit[name=_flip]` around rev; every axis when `all_axes`.
Atom lower_flip(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes);
/// jnp.squeeze: every axis of size 1 when `all_axes`; a listed axis of another size raises.
Atom lower_squeeze(GraphBuilder& b, Atom x, const std::vector<int>& axes, bool all_axes);
/// jnp.expand_dims: size-1 axes inserted at `axes` (of the result), as broadcast_in_dim.
Atom lower_expand_dims(GraphBuilder& b, Atom x, const std::vector<int>& axes);
/// jnp.broadcast_to: NumPy broadcasting to `shape`, checked, as broadcast_in_dim.
Atom lower_broadcast_to(GraphBuilder& b, Atom x, const Shape& shape);
/// x[i, a:b:c, ...] with static indices: slice, then rev, then squeeze, as JAX stages it.
Atom lower_index(GraphBuilder& b, Atom x, const std::vector<Index>& index);
/// lax.broadcasted_iota: the index along `dimension` (negative counts from the end).
Atom lower_iota(GraphBuilder& b, DType dtype, const Shape& shape, int dimension);
}  // namespace fj::detail

namespace fj::detail {
/// jnp.eye: ones where column == row + k, in an n x m array.
Atom lower_eye(GraphBuilder& b, std::int64_t n, std::int64_t m, std::int64_t k, DType dtype);
/// jnp.linspace: a `jit[name=_linspace]` of `num` points from start to stop.
Atom lower_linspace(GraphBuilder& b, Atom start, Atom stop, std::int64_t num, bool endpoint,
                    DType dtype);
/// lax.full_like: `value` broadcast to `shape` (a literal when the shape is ()).
Atom lower_full(GraphBuilder& b, const Shape& shape, const ir::Literal& value);
}  // namespace fj::detail
