// fj::random's lowering: each function as lax primitives around threefry2x32, following
// jax/_src/random (core.py, threefry2x32.py) step by step (implementation unit only).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "fusejit/api/random.hpp"
#include "fusejit/transforms/emit.hpp"

namespace fj {
namespace detail {
namespace {

using transforms::Emit;
using Dims = std::vector<std::int64_t>;

const char* random_fn_name(RandomOp::Kind k) {
  switch (k) {
    case RandomOp::seed:
      return "fj::random::key";
    case RandomOp::split:
      return "fj::random::split";
    case RandomOp::fold_in:
      return "fj::random::fold_in";
    case RandomOp::bits:
      return "fj::random::bits";
    case RandomOp::uniform:
      return "fj::random::uniform";
    case RandomOp::normal:
      return "fj::random::normal";
    case RandomOp::bernoulli:
      return "fj::random::bernoulli";
    case RandomOp::randint:
      return "fj::random::randint";
    case RandomOp::permutation:
      return "fj::random::permutation";
    case RandomOp::categorical:
      return "fj::random::categorical";
    case RandomOp::threefry:
      break;
  }
  return "fj::lax::threefry2x32";
}

/// An integer literal of dtype d holding v exactly (Emit::lit goes through a double).
Atom int_lit(std::int64_t v, DType d) {
  ir::Literal l;
  l.dtype = d;
  l.i = v;
  return Atom::of_literal(l);
}

/// The generator state of one call: the function's name (for errors) and the key's two words.
struct Rng {
  Emit& E;
  const char* fn;
  Atom k0, k1;

  Atom prim(Prim p, std::vector<Atom> in, ir::Params params = {}) {
    return E.b.emit1(p, std::move(in), std::move(params));
  }
  std::pair<Atom, Atom> threefry(Atom a0, Atom a1, Atom x0, Atom x1) {
    auto out = E.b.emit(Prim::threefry2x32, {a0, a1, x0, x1});
    return {out[0], out[1]};
  }
  Atom iota(DType d, const Shape& s, int dim) { return lower_iota(E.b, d, s, dim); }
  Atom bitcast(Atom x, DType to) {
    ir::Params p;
    p.items.push_back({"new_dtype", to, true});
    return prim(Prim::bitcast_convert_type, {x}, std::move(p));
  }

  /// The counter words (hi, lo) of every flat index of `shape` (JAX's iota_2x32_shape): one u32
  /// iota sum while every index fits in 32 bits, else a 64-bit index split in two.
  std::pair<Atom, Atom> counters(const Shape& shape) {
    const Atom zero = int_lit(0, DType::u32);
    if (shape.rank() == 0) return {zero, zero};
    const bool wide = shape.size() > (std::int64_t{1} << 32);
    const DType d = wide ? DType::i64 : DType::u32;
    std::optional<Atom> flat;
    std::int64_t stride = 1;
    for (int dim = shape.rank() - 1; dim >= 0; --dim) {
      Atom term = iota(d, shape, dim);
      if (stride != 1) term = prim(Prim::mul, {term, int_lit(stride, d)});
      flat = flat ? prim(Prim::add, {*flat, term}) : term;
      stride *= shape[dim];
    }
    if (!wide) return {zero, *flat};
    const Atom hi = prim(Prim::shift_right_logical, {*flat, int_lit(32, DType::i64)});
    return {E.convert(hi, DType::u32), E.convert(*flat, DType::u32)};
  }

  /// Uniform bits of `shape` under key (a0, a1): u32, or i64 for 64 (JAX's uint64).
  Atom bits_of(Atom a0, Atom a1, const Shape& shape, int nbits) {
    auto [hi, lo] = counters(shape);
    auto [y0, y1] = threefry(a0, a1, hi, lo);
    if (nbits == 32) return prim(Prim::xor_, {y0, y1});
    const Atom h = prim(Prim::shift_left, {E.convert(y0, DType::i64), int_lit(32, DType::i64)});
    return prim(Prim::or_, {h, E.convert(y1, DType::i64)});
  }
  Atom bits(const Shape& shape, int nbits) { return bits_of(k0, k1, shape, nbits); }

  /// Key i of split(key, n) (i < 2^32): threefry(key, (0, i)).
  std::pair<Atom, Atom> subkey(std::int64_t i) {
    return threefry(k0, k1, int_lit(0, DType::u32), int_lit(i, DType::u32));
  }

  /// [w0, w1] as a u32[..., 2] of `shape` (whose last dim is 2): w0 where the last index is 0.
  Atom pair(Atom w0, Atom w1, const Shape& shape) {
    const Atom first =
        prim(Prim::eq, {iota(DType::i32, shape, shape.rank() - 1), int_lit(0, DType::i32)});
    return E.select(first, E.broadcast_to(w1, shape), E.broadcast_to(w0, shape));
  }

  /// JAX's _uniform: the mantissa filled from the top bits, minus 1, then scaled and clamped.
  Atom uniform(const Shape& shape, DType dtype, double minval, double maxval) {
    const bool f64 = dtype == DType::f64;
    const int nbits = f64 ? 64 : 32, nmant = f64 ? 52 : 23;
    const DType ut = f64 ? DType::i64 : DType::u32;
    Atom b = bits(shape, nbits);
    b = prim(Prim::shift_right_logical, {b, int_lit(nbits - nmant, ut)});
    const std::int64_t one_bits = f64 ? std::int64_t{0x3FF0000000000000} : 0x3F800000;
    b = prim(Prim::or_, {b, int_lit(one_bits, ut)});
    const Atom floats = prim(Prim::sub, {bitcast(b, dtype), Emit::lit(1, dtype)});
    // minval, maxval and their difference rounded to dtype, as JAX converts them first.
    const double lo = f64 ? minval : static_cast<float>(minval);
    const double hi = f64 ? maxval : static_cast<float>(maxval);
    const double scale =
        f64 ? hi - lo : static_cast<float>(static_cast<float>(hi) - static_cast<float>(lo));
    // floats * scale + lo with one rounding, as XLA's CPU code computes it (a fused
    // multiply-add). Where scale is a power of two the product is exact and plain f32 (or f64)
    // ops give that; otherwise f32 goes through f64, where both operations are exact for any
    // range whose bounds are within 2^29 of each other in magnitude, then rounds once to f32.
    // (f64 with such a scale rounds twice on the reference backend; the LLVM backend contracts.)
    int exponent = 0;
    const bool pow2 = scale == 0 || std::abs(std::frexp(scale, &exponent)) == 0.5;
    Atom r;
    if (pow2 || f64) {
      r = E.add(E.mul(floats, Emit::lit(scale, dtype)), Emit::lit(lo, dtype));
    } else {
      const Atom wide = E.convert(floats, DType::f64);
      r = E.convert(E.add(E.mul(wide, Emit::lit(scale, DType::f64)), Emit::lit(lo, DType::f64)),
                    dtype);
    }
    return prim(Prim::max, {Emit::lit(lo, dtype), r});
  }
};

void check_shape(const char* fn, const Dims& shape) {
  for (auto d : shape)
    if (d < 0)
      throw ShapeError(std::string(fn) + ": shape " + ir::tuple_str(shape) +
                       " has a negative dimension");
}

void check_float(const char* fn, const char* what, DType d) {
  if (d != DType::f32 && d != DType::f64)
    throw DTypeError(std::string(fn) + ": " + what + " must be float32 or float64, got " +
                     std::string(long_name(d)));
}

std::pair<Atom, Atom> key_words(Emit& E, Atom key, const char* fn) {
  const ir::Aval a = E.aval(key);
  if (a.dtype != DType::u32 || !(a.shape == Shape{2})) {
    const std::string msg = std::string(fn) +
                            ": the key must be a uint32[2] array (from fj::random::key, split or "
                            "fold_in), got " +
                            a.str();
    if (a.dtype != DType::u32) throw DTypeError(msg);
    throw ShapeError(msg);
  }
  // squeeze, not reshape: an index map the fusion pass keeps inside the kernel (a reshape's
  // operand would be written to memory first).
  auto word = [&](std::int64_t i) {
    ir::Params p;
    p.items.push_back({"dimensions", Dims{0}, true});
    return E.b.emit1(Prim::squeeze, {E.slice(key, {i}, {i + 1})}, std::move(p));
  };
  return {word(0), word(1)};
}

// XLA's integer remainder: x % 0 == x.
std::uint32_t rem_u32(std::uint32_t a, std::uint32_t b) { return b == 0 ? a : a % b; }

Atom lower_randint(Rng& r, const RandomOp& op) {
  if (op.dtype != DType::i32 && op.dtype != DType::u32)
    throw DTypeError(std::string(r.fn) + ": dtype must be int32 or uint32, got " +
                     std::string(long_name(op.dtype)) +
                     " (64-bit integers need a uint64 dtype, which fusejit lacks)");
  const bool is_signed = op.dtype == DType::i32;
  const std::int64_t dmin = is_signed ? std::numeric_limits<std::int32_t>::min() : 0;
  const std::int64_t dmax = is_signed ? std::numeric_limits<std::int32_t>::max()
                                      : std::numeric_limits<std::uint32_t>::max();
  // JAX's _randint with static bounds, its span and multiplier computed here in u32 arithmetic.
  const bool maxval_out_of_range = op.hi > dmax;
  const std::int64_t lo = std::clamp(op.lo, dmin, dmax), hi = std::clamp(op.hi, dmin, dmax);
  std::uint32_t span = static_cast<std::uint32_t>(hi) - static_cast<std::uint32_t>(lo);
  if (hi <= lo) span = 1;
  if (maxval_out_of_range && hi > lo) span += 1;
  std::uint32_t multiplier = rem_u32(1u << 16, span);
  multiplier = rem_u32(multiplier * multiplier, span);
  const Shape shape(op.shape);
  auto [a0, a1] = r.subkey(0);
  auto [b0, b1] = r.subkey(1);
  const Atom higher = r.bits_of(a0, a1, shape, 32), lower = r.bits_of(b0, b1, shape, 32);
  const Atom S = int_lit(span, DType::u32), M = int_lit(multiplier, DType::u32);
  Atom off = r.prim(Prim::mul, {r.prim(Prim::rem, {higher, S}), M});
  off = r.prim(Prim::add, {off, r.prim(Prim::rem, {lower, S})});
  off = r.prim(Prim::rem, {off, S});
  return r.prim(Prim::add, {int_lit(lo, op.dtype), r.E.convert(off, op.dtype)});
}

/// The stable order of `v` (i32[m]) sorted by `keys` (u32[m]), as lax.sort_key_val with
/// is_stable: each element's rank is the number of keys below it plus equal keys before it,
/// then element r of the result is the one of rank r. O(m^2) work, all elementwise and reduce.
Atom sort_by_keys(Rng& r, Atom keys, Atom v, std::int64_t m) {
  Emit& E = r.E;
  const Shape sq{m, m};
  const Atom ki = E.broadcast_in_dim(keys, sq, {0}), kj = E.broadcast_in_dim(keys, sq, {1});
  const Atom ii = r.iota(DType::i32, sq, 0), jj = r.iota(DType::i32, sq, 1);
  const Atom before = r.prim(
      Prim::or_, {r.prim(Prim::lt, {kj, ki}),
                  r.prim(Prim::and_, {r.prim(Prim::eq, {kj, ki}), r.prim(Prim::lt, {jj, ii})})});
  const Atom rank = E.reduce_sum(E.convert(before, DType::i32), {1});  // rank[i]
  // out[a] = v[i] where rank[i] == a: row a of the (a, i) mask picks one element.
  const Atom hit = r.prim(Prim::eq, {E.broadcast_in_dim(rank, sq, {1}), ii});
  const Atom picked =
      E.select(hit, E.zeros(ir::Aval{DType::i32, sq, false}), E.broadcast_in_dim(v, sq, {1}));
  return E.reduce_sum(picked, {1});
}

/// x's slices along `axis` taken in the order `perm` (i32[m], a permutation): a one-hot select
/// summed over the old positions (exact: one term is x, the others 0; -0.0 comes out as +0.0).
Atom take_along(Rng& r, Atom x, Atom perm, int axis) {
  Emit& E = r.E;
  const DType dt = E.dtype(x);
  if (dt == DType::bool_) return E.convert(take_along(r, E.convert(x, DType::i32), perm, axis), dt);
  const int R = E.rank(x) - 1;
  x = E.move_axis(x, axis, R);
  const Shape s = E.shape(x);
  const std::int64_t m = s[R];
  Dims full = s.to_vector();
  full.push_back(m);  // (rest..., new position a, old position i)
  Dims xdims;
  for (int d = 0; d < R; ++d) xdims.push_back(d);
  xdims.push_back(R + 1);
  const Atom xb = E.broadcast_in_dim(x, Shape(full), xdims);
  const Shape sq{m, m};
  const Atom hit = r.prim(Prim::eq, {E.broadcast_in_dim(perm, sq, {0}), r.iota(DType::i32, sq, 1)});
  const Atom mask = E.broadcast_in_dim(hit, Shape(full), {R, R + 1});
  const Atom picked = E.select(mask, E.zeros(ir::Aval{dt, Shape(full), false}), xb);
  return E.move_axis(E.reduce_sum(picked, {R + 1}), R, axis);
}

Atom lower_permutation(Rng& r, const RandomOp& op, const std::vector<Atom>& xs) {
  std::optional<Atom> x;
  std::int64_t m = op.lo;
  int axis = 0;
  if (xs.size() > 1) {
    x = xs[1];
    const int rank = r.E.rank(*x);
    if (rank == 0)
      throw ShapeError(std::string(r.fn) +
                       ": x must be at least 1-D (pass an integer n for a "
                       "permutation of 0 .. n-1), got " +
                       r.E.aval(*x).str());
    axis = op.axis < 0 ? op.axis + rank : op.axis;
    if (axis < 0 || axis >= rank)
      throw ShapeError(std::string(r.fn) + ": axis " + std::to_string(op.axis) +
                       " is out of range for " + r.E.aval(*x).str());
    m = r.E.shape(*x)[axis];
  } else if (m < 0) {
    throw ValueError(std::string(r.fn) + ": n must be >= 0, got " + std::to_string(m));
  }
  // JAX's _shuffle: rounds of sorting by fresh 32-bit keys until collisions are unlikely.
  const double uint32max = 4294967295.0;
  const int rounds = static_cast<int>(std::ceil(
      3 * std::log(static_cast<double>(std::max<std::int64_t>(1, m))) / std::log(uint32max)));
  Atom perm = r.iota(DType::i32, Shape{m}, 0);
  for (int k = 0; k < rounds; ++k) {
    auto [n0, n1] = r.subkey(0);
    auto [s0, s1] = r.subkey(1);
    perm = sort_by_keys(r, r.bits_of(s0, s1, Shape{m}, 32), perm, m);
    r.k0 = n0, r.k1 = n1;
  }
  return x ? take_along(r, *x, perm, axis) : perm;
}

Atom lower_categorical(Rng& r, const RandomOp& op, Atom logits) {
  Emit& E = r.E;
  const ir::Aval la = E.aval(logits);
  check_float(r.fn, "logits", la.dtype);
  const int rank = la.shape.rank();
  const int axis = op.axis < 0 ? op.axis + rank : op.axis;
  if (rank == 0 || axis < 0 || axis >= rank)
    throw ShapeError(std::string(r.fn) + ": axis " + std::to_string(op.axis) +
                     " is out of range for logits " + la.str());
  Dims batch;
  for (int d = 0; d < rank; ++d)
    if (d != axis) batch.push_back(la.shape[d]);
  const Dims shape = op.has_shape ? op.shape : batch;
  check_shape(r.fn, shape);
  if (shape.size() < batch.size() ||
      !std::equal(batch.begin(), batch.end(),
                  shape.end() - static_cast<std::ptrdiff_t>(batch.size())))
    throw ShapeError(std::string(r.fn) + ": shape " + ir::tuple_str(shape) +
                     " must end with the logits' batch shape " + ir::tuple_str(batch) +
                     " (logits " + la.str() + " without axis " + std::to_string(axis) + ")");
  const auto prefix = static_cast<int>(shape.size() - batch.size());
  Dims gshape(shape.begin(), shape.begin() + prefix);
  for (int d = 0; d < rank; ++d) gshape.push_back(la.shape[d]);
  // Gumbel noise (JAX's mode "low"): -log(-log(u)), u uniform in [tiny, 1).
  const double tiny = la.dtype == DType::f64 ? std::numeric_limits<double>::min()
                                             : std::numeric_limits<float>::min();
  const Atom u = r.uniform(Shape(gshape), la.dtype, tiny, 1.0);
  const Atom g = E.neg(E.un(Prim::log, E.neg(E.un(Prim::log, u))));
  Dims ldims;
  for (int d = 0; d < rank; ++d) ldims.push_back(prefix + d);
  const Atom y = r.prim(Prim::add, {g, E.broadcast_in_dim(logits, Shape(gshape), ldims)});
  return lower_arg_reduce(E.b, Prim::argmax, y, prefix + axis, false, false);
}

}  // namespace

void RandomOp::key(std::vector<std::int64_t>& k) const {
  k.push_back(kind);
  k.push_back(static_cast<std::int64_t>(shape.size()));
  k.insert(k.end(), shape.begin(), shape.end());
  std::int64_t fa, fb;
  std::memcpy(&fa, &a, sizeof fa);
  std::memcpy(&fb, &b, sizeof fb);
  for (std::int64_t v : {std::int64_t{has_shape}, static_cast<std::int64_t>(dtype), fa, fb, lo, hi,
                         std::int64_t{axis}})
    k.push_back(v);
}

ir::Atom RandomOp::operator()(ir::GraphBuilder& gb, const std::vector<ir::Atom>& xs) const {
  Emit E(gb);
  const char* fn = random_fn_name(kind);
  check_shape(fn, shape);
  if (kind == seed) {
    const ir::Aval s = E.aval(xs[0]);
    if (s.shape.rank() != 0 || !is_int(s.dtype))
      throw DTypeError(std::string(fn) + ": the seed must be an integer scalar, got " + s.str());
    Atom hi = int_lit(0, DType::u32);
    if (s.dtype == DType::i64)
      hi = E.convert(E.b.emit1(Prim::shift_right_logical, {xs[0], int_lit(32, DType::i64)}),
                     DType::u32);
    Rng r{E, fn, {}, {}};
    return r.pair(hi, E.convert(xs[0], DType::u32), Shape{2});
  }
  if (kind == threefry) return E.b.emit(Prim::threefry2x32, xs).at(static_cast<std::size_t>(lo));
  auto [k0, k1] = key_words(E, xs[0], fn);
  Rng r{E, fn, k0, k1};
  const Shape s(shape);
  switch (kind) {
    case split: {
      if (!has_shape && lo < 0)
        throw ValueError(std::string(fn) + ": n must be >= 0, got " + std::to_string(lo));
      const Dims keys = has_shape ? shape : Dims{lo};
      if (static_cast<int>(keys.size()) + 1 > kMaxRank)
        throw ShapeError(std::string(fn) + ": shape " + ir::tuple_str(keys) + " has too many dims");
      Dims out = keys;
      out.push_back(2);
      // Counters over the keys' shape, broadcast along the last axis (the two words).
      auto [hi, lo_words] = r.counters(Shape(keys));
      Dims dims(keys.size());
      for (std::size_t d = 0; d < dims.size(); ++d) dims[d] = static_cast<std::int64_t>(d);
      auto widen = [&](Atom a) {
        return E.rank(a) == 0 ? a : E.broadcast_in_dim(a, Shape(out), dims);
      };
      auto [y0, y1] = r.threefry(k0, k1, widen(hi), widen(lo_words));
      return r.pair(y0, y1, Shape(out));
    }
    case fold_in: {
      Atom data = int_lit(static_cast<std::uint32_t>(lo), DType::u32);
      if (xs.size() > 1) {
        const ir::Aval d = E.aval(xs[1]);
        if (d.shape.rank() != 0 || !is_int(d.dtype))
          throw DTypeError(std::string(fn) + ": data must be an integer scalar, got " + d.str() +
                           " (use fj::vmap for batches)");
        data = E.convert(xs[1], DType::u32);
      }
      auto [y0, y1] = r.threefry(k0, k1, int_lit(0, DType::u32), data);
      return r.pair(y0, y1, Shape{2});
    }
    case bits:
      if (dtype != DType::u32 && dtype != DType::i64)
        throw DTypeError(std::string(fn) +
                         ": dtype must be uint32, or int64 for JAX's uint64 "
                         "bits (fusejit has no uint64), got " +
                         std::string(long_name(dtype)));
      return r.bits(s, dtype == DType::u32 ? 32 : 64);
    case uniform:
      check_float(fn, "dtype", dtype);
      if (!(a <= b))
        throw ValueError(std::string(fn) + ": minval " + std::to_string(a) +
                         " must not exceed maxval " + std::to_string(b));
      return r.uniform(s, dtype, a, b);
    case normal: {
      check_float(fn, "dtype", dtype);
      const double lo1 = dtype == DType::f64 ? std::nextafter(-1.0, 0.0)
                                             : static_cast<double>(std::nextafter(-1.0f, 0.0f));
      const Atom u = r.uniform(s, dtype, lo1, 1.0);
      return r.prim(Prim::mul, {Emit::lit(std::sqrt(2.0), dtype), E.un(Prim::erf_inv, u)});
    }
    case bernoulli: {
      Atom p = Emit::lit(a, DType::f32);
      if (xs.size() > 1) {
        p = xs[1];
        check_float(fn, "p", E.dtype(p));
      }
      const ir::Aval pa = E.aval(p);
      const Shape out = has_shape ? s : pa.shape;
      if (has_shape && pa.shape.rank() > 0) broadcast_shapes(out, pa.shape, fn);
      const Atom u = r.uniform(out, pa.dtype, 0, 1);
      return lower_binary(E.b, Prim::lt, u, p);
    }
    case randint:
      return lower_randint(r, *this);
    case permutation:
      return lower_permutation(r, *this, xs);
    case categorical:
      return lower_categorical(r, *this, xs.at(1));
    case seed:
    case threefry:
      break;
  }
  throw ValueError(std::string(fn) + ": unknown random function");
}

}  // namespace detail

Array random::key(std::uint64_t seed) {
  const std::uint32_t w[2] = {static_cast<std::uint32_t>(seed >> 32),
                              static_cast<std::uint32_t>(seed & 0xFFFFFFFFu)};
  return detail::array_from(w, Shape{2});
}

Array random::key(const Array& seed) {
  return detail::random_node(detail::with_fields(detail::RandomOp::seed, [](detail::RandomOp&) {}),
                             {seed});
}

}  // namespace fj
