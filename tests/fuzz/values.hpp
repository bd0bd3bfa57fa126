// The fuzzer's random numbers, input values and array lengths (generator.hpp draws the programs).
//
// Values reach every binade of a float format (log-uniform exponents from the smallest subnormal
// to the largest finite, both signs) and the specials (NaN, +-inf, +-0). Whole arrays are drawn
// in one of several fills, because a vectorized kernel can go wrong where lanes differ: one lane
// taking a rare path (trig's Payne-Hanek reduction past 5e5 / 5e12, a NaN, an overflow) while its
// neighbours take the common one. Issue 18's bug was of that kind (on AVX2, lanes 4-7 of every
// f32 vector holding one huge argument came back wrong); the "sparse" fill, mostly ordinary
// values with a few rare ones at random positions, aims at it: put back, it fails 28 of seeds
// 0-1999 at FUSEJIT_CPU=x86-64-v3 (the earlier per-element draws: 17). Array lengths fill whole
// vectors of 4, 8 and 16 lanes (SSE, AVX2, AVX-512 f32) and leave tails.
// Deterministic: only the splitmix64 stream below, IEEE arithmetic and exact ldexp (no other libm,
// no std distributions), so a seed gives the same values on every platform.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fusejit/fusejit.hpp>
#include <limits>
#include <type_traits>
#include <vector>

namespace fusejit_fuzz {

using fj::DType;

/// splitmix64: tiny, portable, and good enough to pick structure.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  std::int64_t below(std::int64_t n) {
    return n <= 0 ? 0 : static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n));
  }
  bool chance(int percent) { return below(100) < percent; }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(below(static_cast<std::int64_t>(v.size())))];
  }

 private:
  std::uint64_t s_;
};

namespace value_detail {

/// The binades of f32 or f64: 2^lo is the smallest subnormal, 2^hi the top binade's start.
struct Binades {
  int lo, hi, mant;  // mant: significand bits after the point
  double max;        // largest finite
};
inline Binades binades(DType d) {
  if (d == DType::f32)
    return {-149, 127, 23, static_cast<double>(std::numeric_limits<float>::max())};
  return {-1074, 1023, 52, std::numeric_limits<double>::max()};
}

inline double signed_(Rng& r, double m) { return r.chance(50) ? m : -m; }

/// A magnitude 2^e (1 + u) with e uniform over binades [lo, hi], rounded to the format and never
/// past its largest finite (ldexp is exact; the float conversion rounds to nearest, ties even).
inline double in_binades(Rng& r, DType d, int lo, int hi) {
  const Binades b = binades(d);
  const int e = lo + static_cast<int>(r.below(hi - lo + 1));
  const double m = std::min(std::ldexp(1.0 + r.unit(), e), b.max);
  return d == DType::f32 ? static_cast<double>(static_cast<float>(m)) : m;
}

/// Any finite nonzero value, log-uniform over the whole format: subnormals to the largest.
inline double log_uniform(Rng& r, DType d) {
  const Binades b = binades(d);
  return signed_(r, in_binades(r, d, b.lo, b.hi));
}

/// A value of moderate magnitude (1e-3 to 1e3) or an integer or half (round's ties).
inline double ordinary(Rng& r) {
  if (r.chance(15)) return static_cast<double>(r.below(9) - 4) * 0.5;
  static const std::vector<double> scale{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3};  // no libm: exact
  return (r.unit() * 2 - 1) * r.pick(scale);
}

/// A value that takes a rare path somewhere: a special, a subnormal, the edges of the normal
/// range, or a huge one (past trig's reduction switch, near exp's and a sum's overflow).
inline double rare(Rng& r, DType d) {
  const Binades b = binades(d);
  switch (r.below(10)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return signed_(r, INFINITY);
    case 2:
      return signed_(r, 0.0);
    case 3:  // subnormal
      return signed_(r, in_binades(r, d, b.lo, b.lo + b.mant - 1));
    case 4:  // the smallest normal binades
      return signed_(r, in_binades(r, d, b.lo + b.mant, b.lo + b.mant + 2));
    case 5:  // the largest finite, or the top binade
      return signed_(r, r.chance(30) ? b.max : in_binades(r, d, b.hi - 1, b.hi));
    case 6:  // 2^19 (just past f32 trig's 5e5) to 2^64: large but far from overflow
      return signed_(r, in_binades(r, d, 19, 64));
    default:  // anywhere among the binades at or above 1
      return signed_(r, in_binades(r, d, 0, b.hi));
  }
}

}  // namespace value_detail

/// A special or ordinary value for a float dtype, each element drawn on its own.
inline double float_value(Rng& r, DType d) {
  using namespace value_detail;
  switch (r.below(8)) {
    case 0:
    case 1:
      return rare(r, d);
    case 2:
      return log_uniform(r, d);
    default:
      return ordinary(r);
  }
}

inline std::int64_t int_value(Rng& r, DType d) {
  switch (r.below(9)) {
    case 0:
      return d == DType::u32   ? 0xFFFFFFFFll
             : d == DType::i32 ? std::numeric_limits<std::int32_t>::max()
                               : std::numeric_limits<std::int64_t>::max();
    case 1:
      return d == DType::u32   ? 0
             : d == DType::i32 ? std::numeric_limits<std::int32_t>::min()
                               : std::numeric_limits<std::int64_t>::min();
    case 2:
      return 0;
    case 3: {  // any bits of the type (wrapping arithmetic, shifts, conversions to float)
      const std::uint64_t bits = r.next();
      return d == DType::u32   ? static_cast<std::int64_t>(bits & 0xFFFFFFFFull)
             : d == DType::i32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))
                               : static_cast<std::int64_t>(bits);
    }
    default:
      return r.below(41) - 20 + (d == DType::u32 ? 20 : 0);
  }
}

/// How an array's elements are drawn.
enum class Fill {
  mixed,        // each element independently: ordinary, rare or log-uniform (float_value)
  sparse,       // ordinary values, with a few rare or huge ones at random positions
  log_uniform,  // the whole format's range, with an occasional special
  ordinary,     // moderate values only (so sums, products and exp stay in range)
};

inline Fill random_fill(Rng& r) {
  switch (r.below(10)) {
    case 0:
    case 1:
    case 2:
      return Fill::mixed;
    case 3:
    case 4:
    case 5:
    case 6:
      return Fill::sparse;
    case 7:
    case 8:
      return Fill::log_uniform;
    default:
      return Fill::ordinary;
  }
}

/// n elements of float or integer dtype `d` (as doubles or int64s, the caller converts).
/// Sparse arrays put 1 to n/8 + 1 rare values at random positions among ordinary ones, so most
/// vectors of 4 to 16 lanes hold one rare lane next to ordinary ones, or none.
template <class T>
void fill(Rng& r, DType d, Fill f, T* p, std::int64_t n) {
  using namespace value_detail;
  auto one = [&](bool rare_one) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      switch (f) {
        case Fill::mixed:
          return static_cast<T>(float_value(r, d));
        case Fill::log_uniform:
          return static_cast<T>(r.chance(6) ? rare(r, d) : log_uniform(r, d));
        case Fill::ordinary:
          return static_cast<T>(ordinary(r));
        case Fill::sparse:
          return static_cast<T>(rare_one ? (r.chance(50) ? rare(r, d) : log_uniform(r, d))
                                         : ordinary(r));
      }
      return T{};
    } else {
      if (f == Fill::ordinary || (f == Fill::sparse && !rare_one))
        return static_cast<T>(r.below(41) - 20 + (d == DType::u32 ? 20 : 0));
      return static_cast<T>(int_value(r, d));
    }
  };
  for (std::int64_t i = 0; i < n; ++i) p[i] = one(false);
  if (f == Fill::sparse && n > 0) {
    const std::int64_t k = 1 + r.below(n / 8 + 1);
    for (std::int64_t j = 0; j < k; ++j) p[r.below(n)] = one(true);
  }
}

/// Dims of the arrays of ranks 0-4: small and size-0 ones that broadcasting and index maps need,
/// and a few that fill 4 or 8 lanes or leave tails.
inline const std::vector<std::int64_t>& dim_sizes() {
  static const std::vector<std::int64_t> s{1, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 0};
  return s;
}
/// The last dim of the "vector" arrays (rank 1 or 2): vectors of 4, 8 and 16 lanes filled whole
/// (4, 8, 16, 32, 48, 64) or with a tail (5, 7, 9, 17, 33, 37, 63).
inline const std::vector<std::int64_t>& vector_lengths() {
  static const std::vector<std::int64_t> s{4, 8, 16, 32, 48, 64, 5, 7, 9, 17, 33, 37, 63};
  return s;
}

}  // namespace fusejit_fuzz
