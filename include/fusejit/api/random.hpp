// fj::random: JAX's counter-based random numbers (threefry2x32, partitionable mode), bit for bit.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "fusejit/api/factories.hpp"
#include "fusejit/expr/array_ops.hpp"

namespace fj {
namespace detail {

/// One fj::random function with its static arguments; its operands (the key first, then the
/// function's array arguments) are the ListNode's items. Lowered in api/random.cpp.
struct RandomOp {
  enum Kind : std::uint8_t {
    seed,         // key(seed array)
    split,        // n = lo (has_shape false), or shape
    fold_in,      // items: key, data; or key alone, data = lo
    bits,         // shape, dtype
    uniform,      // shape, dtype, a = minval, b = maxval
    normal,       // shape, dtype
    bernoulli,    // items: key, p (or key alone, p = a in f32); shape (has_shape: else p's)
    randint,      // shape, dtype, lo, hi
    permutation,  // items: key, x (or n: a range); axis
    categorical,  // items: key, logits; axis; shape (has_shape)
    threefry,     // items: k0, k1, x0, x1; result lo of lax's threefry2x32
  } kind = seed;
  std::vector<std::int64_t> shape;
  bool has_shape = true;
  DType dtype = DType::f32;
  double a = 0, b = 1;
  std::int64_t lo = 0, hi = 0;  // randint bounds; permutation: n when there is no x
  int axis = 0;

  void key(std::vector<std::int64_t>& k) const;
  ir::Atom operator()(ir::GraphBuilder& b, const std::vector<ir::Atom>& xs) const;
};

/// A RandomOp of `kind` with the fields `set` fills (designated initializers would leave the
/// rest unnamed, which -Wextra flags in every user's build).
template <class F>
RandomOp with_fields(RandomOp::Kind kind, F&& set) {
  RandomOp o;
  o.kind = kind;
  set(o);
  return o;
}

inline Array random_node(RandomOp op, std::vector<Array> items) {
  return Array(ListNode<RandomOp>{{}, std::move(op), std::move(items)});
}

}  // namespace detail

namespace random {

/// A key from a seed: u32[2] = [seed >> 32, seed & 0xFFFFFFFF] (jax.random.PRNGKey / key_data
/// of jax.random.key).
Array key(std::uint64_t seed);
/// The same from an integer scalar array, traced or not: an i32/u32 seed has a zero high word
/// (JAX's threefry_seed), an i64 seed is split in two.
Array key(const Array& seed);

/// n new keys, u32[n, 2]: key i is threefry(key, (0, i)) (JAX's foldlike split). n >= 0.
inline Array split(const Array& key, std::int64_t n = 2) {
  return detail::random_node(detail::with_fields(detail::RandomOp::split,
                                                 [&](detail::RandomOp& o) {
                                                   o.lo = n;
                                                   o.has_shape = false;
                                                 }),
                             {key});
}
/// Keys of any shape, u32[*shape, 2]: the key at flat index i is threefry(key, (hi_i, lo_i)), as
/// jax.random.split(key, shape).
inline Array split(const Array& key, std::vector<std::int64_t> shape) {
  return detail::random_node(
      detail::with_fields(detail::RandomOp::split,
                          [&](detail::RandomOp& o) { o.shape = std::move(shape); }),
      {key});
}
/// A new key from key and a 32-bit integer: threefry(key, (0, data)).
inline Array fold_in(const Array& key, std::uint32_t data) {
  return detail::random_node(
      detail::with_fields(detail::RandomOp::fold_in, [&](detail::RandomOp& o) { o.lo = data; }),
      {key});
}
/// fold_in with a scalar integer array (traced or not), converted to u32 as JAX does.
inline Array fold_in(const Array& key, const Array& data) {
  return detail::random_node(
      detail::with_fields(detail::RandomOp::fold_in, [](detail::RandomOp&) {}), {key, data});
}

/// Uniform random bits: u32 (x0 ^ x1 of threefry(key, counter)), or i64 holding the u64 bits JAX
/// gives for uint64 (the high word from x0, the low from x1); fusejit has no u64 dtype.
inline Array bits(const Array& key, std::vector<std::int64_t> shape = {},
                  DType dtype = DType::u32) {
  return detail::random_node(detail::with_fields(detail::RandomOp::bits,
                                                 [&](detail::RandomOp& o) {
                                                   o.shape = std::move(shape);
                                                   o.dtype = dtype;
                                                 }),
                             {key});
}
/// Floats in [minval, maxval) (f32 or f64; the default float dtype unless given): the mantissa
/// filled from bits, as JAX does.
inline Array uniform(const Array& key, std::vector<std::int64_t> shape = {},
                     DType dtype = default_float_dtype(), double minval = 0, double maxval = 1) {
  return detail::random_node(detail::with_fields(detail::RandomOp::uniform,
                                                 [&](detail::RandomOp& o) {
                                                   o.shape = std::move(shape);
                                                   o.dtype = dtype;
                                                   o.a = minval;
                                                   o.b = maxval;
                                                 }),
                             {key});
}
/// jax.random.uniform's keyword arguments: fj::random::uniform(key, {2, 3}, {.minval = -1}).
/// No dtype means the default float dtype.
struct UniformOptions {
  std::optional<DType> dtype{};  ///< f32 or f64; the default float dtype when not given
  double minval = 0;             ///< the smallest value drawn (included)
  double maxval = 1;             ///< the bound (excluded)
};
/// jax.random.uniform(key, shape, dtype=..., minval=..., maxval=...) with keyword-style options.
inline Array uniform(const Array& key, std::vector<std::int64_t> shape, const UniformOptions& o) {
  return uniform(key, std::move(shape), o.dtype.value_or(default_float_dtype()), o.minval,
                 o.maxval);
}
/// Standard normal floats: sqrt(2) * erf_inv(u), u uniform in [nextafter(-1, 0), 1). f32 is
/// bit-exact with JAX; f64 uses fusejit's own f64 erf_inv (not XLA's ErfInv64): close, not exact.
inline Array normal(const Array& key, std::vector<std::int64_t> shape = {},
                    DType dtype = default_float_dtype()) {
  return detail::random_node(detail::with_fields(detail::RandomOp::normal,
                                                 [&](detail::RandomOp& o) {
                                                   o.shape = std::move(shape);
                                                   o.dtype = dtype;
                                                 }),
                             {key});
}
/// jax.random.normal's keyword arguments: fj::random::normal(key, {4}, {.dtype = fj::f64}).
struct NormalOptions {
  std::optional<DType> dtype{};  ///< f32 or f64; the default float dtype when not given
};
/// jax.random.normal(key, shape, dtype=...) with keyword-style options.
inline Array normal(const Array& key, std::vector<std::int64_t> shape, const NormalOptions& o) {
  return normal(key, std::move(shape), o.dtype.value_or(default_float_dtype()));
}
/// Bools, true with probability p: uniform(key, shape, p's dtype) < p.
inline Array bernoulli(const Array& key, double p = 0.5, std::vector<std::int64_t> shape = {}) {
  return detail::random_node(detail::with_fields(detail::RandomOp::bernoulli,
                                                 [&](detail::RandomOp& o) {
                                                   o.shape = std::move(shape);
                                                   o.a = p;
                                                 }),
                             {key});
}
/// jax.random.bernoulli's keyword arguments: fj::random::bernoulli(key, {.p = 0.3, .shape = {4}}).
struct BernoulliOptions {
  detail::KeywordsOnly keywords{};    ///< holds nothing: designated initializers only
  double p = 0.5;                     ///< the probability of true
  std::vector<std::int64_t> shape{};  ///< the result's shape (a scalar by default)
};
/// jax.random.bernoulli(key, p=..., shape=...) with keyword-style options.
inline Array bernoulli(const Array& key, const BernoulliOptions& o) {
  return bernoulli(key, o.p, o.shape);
}
/// With an array of probabilities (a float dtype); the shape defaults to p's.
inline Array bernoulli(const Array& key, const Array& p,
                       std::optional<std::vector<std::int64_t>> shape = std::nullopt) {
  auto op = detail::with_fields(detail::RandomOp::bernoulli, [&](detail::RandomOp& o) {
    o.shape = shape.value_or(std::vector<std::int64_t>{});
    o.has_shape = shape.has_value();
  });
  return detail::random_node(std::move(op), {key, p});
}
/// Integers in [minval, maxval) (i32 or u32), JAX's algorithm: two words of bits per value
/// reduced modulo the span. maxval <= minval gives minval. int32 also in x64 mode, where JAX's
/// default is int64: 64-bit random integers need a uint64 dtype, which fusejit lacks.
inline Array randint(const Array& key, std::vector<std::int64_t> shape, std::int64_t minval,
                     std::int64_t maxval, DType dtype = DType::i32) {
  return detail::random_node(detail::with_fields(detail::RandomOp::randint,
                                                 [&](detail::RandomOp& o) {
                                                   o.shape = std::move(shape);
                                                   o.dtype = dtype;
                                                   o.lo = minval;
                                                   o.hi = maxval;
                                                 }),
                             {key});
}
/// A random permutation of 0 .. n-1 (i32), as jax.random.permutation(key, n).
inline Array permutation(const Array& key, std::int64_t n) {
  return detail::random_node(
      detail::with_fields(detail::RandomOp::permutation, [&](detail::RandomOp& o) { o.lo = n; }),
      {key});
}
/// x with its slices along `axis` permuted (all together, as JAX's independent=False).
inline Array permutation(const Array& key, const Array& x, int axis = 0) {
  return detail::random_node(detail::with_fields(detail::RandomOp::permutation,
                                                 [&](detail::RandomOp& o) {
                                                   o.lo = -1;
                                                   o.axis = axis;
                                                 }),
                             {key, x});
}
/// Samples of the categories along `axis` of `logits` (unnormalized log-probabilities), i32:
/// argmax(gumbel + logits), JAX's replace=True. `shape` defaults to logits' shape without axis;
/// when given it must end with that batch shape (its leading dims are independent samples).
inline Array categorical(const Array& key, const Array& logits, int axis = -1,
                         std::optional<std::vector<std::int64_t>> shape = std::nullopt) {
  auto op = detail::with_fields(detail::RandomOp::categorical, [&](detail::RandomOp& o) {
    o.shape = shape.value_or(std::vector<std::int64_t>{});
    o.has_shape = shape.has_value();
    o.axis = axis;
  });
  return detail::random_node(std::move(op), {key, logits});
}
/// jax.random.categorical's keyword arguments: fj::random::categorical(key, logits, {.axis = 0}).
struct CategoricalOptions {
  detail::KeywordsOnly keywords{};  ///< holds nothing: designated initializers only
  int axis = -1;                    ///< the axis of the categories
  std::optional<std::vector<std::int64_t>> shape{};  ///< the samples' shape (see above)
};
/// jax.random.categorical(key, logits, axis=..., shape=...) with keyword-style options.
inline Array categorical(const Array& key, const Array& logits, const CategoricalOptions& o) {
  return categorical(key, logits, o.axis, o.shape);
}

}  // namespace random

namespace lax {
/// The threefry2x32 primitive: (y0, y1) = threefry2x32((k0, k1), (x0, x1)), elementwise over
/// u32 arrays that broadcast as lax's elementwise operands. Each result is its own equation.
inline std::array<Array, 2> threefry2x32(const Array& k0, const Array& k1, const Array& x0,
                                         const Array& x1) {
  using detail::RandomOp;
  return {detail::random_node(
              detail::with_fields(RandomOp::threefry, [&](detail::RandomOp& o) { o.lo = 0; }),
              {k0, k1, x0, x1}),
          detail::random_node(
              detail::with_fields(RandomOp::threefry, [&](detail::RandomOp& o) { o.lo = 1; }),
              {k0, k1, x0, x1})};
}
}  // namespace lax
}  // namespace fj
