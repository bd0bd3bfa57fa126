// tanh, erf, erf_inv, logistic, rsqrt, pow as inline IR (definitions of math_ir.hpp, over
// math_fp.hpp).
#pragma once
#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "fusejit/ir/erf_inv.hpp"
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"

namespace fj::backend::llvm_ir::detail {

// tanh on |x| < 0.625: x + x^3 * P(x^2), minimax P from our Remez fit (relative error of tanh):
// 1.8e-10 (f32, 6 terms), 1.3e-17 (f64, 12 terms). Above, with t = expm1(2|x|),
// tanh|x| = 1 - 2 / (t + 2): the subtracted term is below 0.45, so its rounding errors shrink in
// the result. t overflows to inf for |x| > 44 (f32) / 355 (f64), which gives 1 - 0 = 1.
inline constexpr std::array<double, 6> kTanhP32 = {-0x1.555554p-2, 0x1.11107ap-3,  -0x1.b9f188p-5,
                                                   0x1.63a55p-6,   -0x1.0c5ed0p-7, 0x1.1a2814p-9};
inline constexpr std::array<double, 12> kTanhP64 = {
    -0x1.5555555555552p-2,  0x1.1111111110bd9p-3,  -0x1.ba1ba1b9cc205p-5,  0x1.664f486fbb223p-6,
    -0x1.226e32b1d5235p-7,  0x1.d6d355ed2f79ap-9,  -0x1.7d9bfe891bb86p-10, 0x1.3509d8d070ad9p-11,
    -0x1.f10104ac8bb95p-13, 0x1.7fdc630bb7fc6p-14, -0x1.f9ca9ae7a681fp-16, 0x1.94509e3ed0f18p-18};

inline llvm::Value* tanh_impl(Fp& f, llvm::Value* x) {
  llvm::Value* a = f.abs(x);
  llvm::Value* z = f.mul(a, a);
  llvm::Value* small = f.fma(f.mul(a, z), f.poly(z, kTanhP32, kTanhP64), a);
  llvm::Value* t = expm1_impl(f, f.add(a, a));
  llvm::Value* big = f.sub(f.k(1.0), f.div(f.k(2.0), f.add(t, f.k(2.0))));
  return f.copysign(f.sel(f.lt(a, f.k(0.625)), small, big), x);
}

// 1/(1 + e^-x) for x >= 0 and e^x/(1 + e^x) for x < 0, with e = exp(-|x|) <= 1: exp never
// overflows (so no inf/inf = NaN for large |x|), and the left tail keeps full relative
// precision down into the subnormals.
inline llvm::Value* logistic_impl(Fp& f, llvm::Value* x) {
  llvm::Value* e = exp_impl(f, f.neg(f.abs(x)));
  llvm::Value* d = f.add(f.k(1.0), e);
  return f.div(f.sel(f.lt(x, f.k(0.0)), e, f.k(1.0)), d);
}

// Two correctly rounded operations (no rsqrtps, whose 12-bit estimate would need Newton steps to
// match): within 1.5 ulp. 1/sqrt(+-0) = +-inf, 1/sqrt(+inf) = 0 and negative inputs give NaN,
// as for the reference backend.
inline llvm::Value* rsqrt_impl(Fp& f, llvm::Value* x) { return f.div(f.k(1.0), f.sqrt(x)); }

// erf on |x| < 1: erf x = x + x * P(x^2), P(z) = erf(sqrt z)/sqrt z - 1. Fitting the part beyond
// x (not erf(x)/x itself) keeps the rounding of the constant term 2/sqrt(pi) out of the result's
// leading bits. Minimax P from our Remez fit, relative error of erf: 1.4e-9 (f32, 7 terms),
// 1.1e-17 (f64, 13 terms).
inline constexpr std::array<double, 7> kErfSmall32 = {
    0x1.06eba8p-3, -0x1.81273ep-2,  0x1.ce2ce6p-4, -0x1.b7f71ap-6,
    0x1.53f224p-8, -0x1.a3515ep-11, 0x1.4771fep-14};
inline constexpr std::array<double, 13> kErfSmall64 = {
    0x1.06eba8214db69p-3,  -0x1.812746b0379e6p-2,  0x1.ce2f21a042b20p-4,  -0x1.b82ce3128499cp-6,
    0x1.565bcd0db02e3p-8,  -0x1.c02db3d8ed1f9p-11, 0x1.f9a321a11d2f6p-14, -0x1.f4d1df393e2c7p-17,
    0x1.b9def19d42fefp-20, -0x1.5f1d36bc52b79p-23, 0x1.f7a411ee1b57ap-27, -0x1.386abfffff66ap-30,
    0x1.0579a8a93ba56p-34};

// erf on 1 <= |x| <= xmax: erf x = 1 - erfc x with erfc x = exp(-x^2 + H(x)), H = log erfcx, the
// log of the scaled complementary error function: smooth, slowly varying (-0.85 to -2.4) and
// free of the 10^16 range of erfc itself. -x^2 + H is one fma (x^2 exact inside it). H is a
// polynomial in u = (x - center)/half, minimax with weight erfc(x), i.e. for the absolute error
// of erfc, which is what 1 - erfc needs. Centers and halves make u exact (x - center is exact by
// Sterbenz, half is a power of 2). Absolute error of erfc: f32 one piece on [1, 3.92], 7 terms,
// 1.1e-9; f64 [1,2] 13 terms 8.5e-18, [2,4] 14 terms 6.2e-19, [4,5.93] 11 terms 5e-23.
// Past xmax (3.92 / 5.93), erfc < 2^-25 / 2^-54 and erf rounds to 1.
struct ErfPiece {
  double start, center, half;
  std::span<const double> c;
};
inline constexpr std::array<double, 7> kErfTail32 = {
    -0x1.8e8b9cp+0, -0x1.69287ap-2,  0x1.cbb2a6p-5, -0x1.5f366ep-7,
    0x1.41eb9ap-9,  -0x1.49d082p-13, 0x1.848ecp-13};
inline constexpr std::array<double, 13> kErfTail64a = {
    -0x1.226e12d631d2cp+0,  -0x1.048189e7a4b00p-2,  0x1.b7bec5ceaebbdp-6,   -0x1.a71a4bddfb2dfp-9,
    0x1.89a87b4b02863p-12,  -0x1.4992623b0d5ddp-15, 0x1.c4e8654af2f4dp-19,  -0x1.790bcc1add5afp-23,
    -0x1.6333daeadd589p-27, 0x1.3e3bf1a76bd87p-28,  -0x1.b87b5c300cc4dp-31, 0x1.9bace8a496319p-34,
    -0x1.a1d1f0ed3b928p-38};
inline constexpr std::array<double, 14> kErfTail64b = {
    -0x1.b869b65a8e54cp+0,  -0x1.370b35013bbdep-2,  0x1.5d06cc9be90c2p-5,  -0x1.e5bee8d919c6ap-8,
    0x1.62c32039babcap-10,  -0x1.01a07e1eefca1p-12, 0x1.6965555693bccp-15, -0x1.dd803765fa465p-18,
    0x1.1f25b17a1322dp-20,  -0x1.2483e8e89c0e5p-23, 0x1.77f915b84f84cp-27, 0x1.6f0ad2dd71434p-32,
    -0x1.b4ded144569b5p-32, 0x1.dd491627468c9p-32};
inline constexpr std::array<double, 11> kErfTail64c = {
    -0x1.19b6bfa618775p+1, -0x1.8aa6538c91870p-3,  0x1.25d0bf67a8902p-6,  -0x1.1a26e942c7b8ep-9,
    0x1.272251210d949p-12, -0x1.3ee19dff1c989p-15, 0x1.5b6160f3ae02fp-18, -0x1.78695775d51a7p-21,
    0x1.8dbda10e6758bp-24, -0x1.9cb71bda68e1dp-27, 0x1.1d5ed168bfd90p-29};
inline constexpr ErfPiece kErfPieces32[] = {{1.0, 2.5, 1.0, kErfTail32}};
inline constexpr ErfPiece kErfPieces64[] = {
    {1.0, 1.5, 0.5, kErfTail64a}, {2.0, 3.0, 1.0, kErfTail64b}, {4.0, 5.0, 1.0, kErfTail64c}};

// A piecewise polynomial evaluated branch-free: each lane selects its piece's center, scale and
// coefficients (missing high-order coefficients are 0), then runs one Horner loop.
inline llvm::Value* piecewise_poly(Fp& f, llvm::Value* a, std::span<const ErfPiece> ps) {
  std::vector<llvm::Value*> in_piece;  // in_piece[i]: a >= start of piece i+1
  std::size_t n = 0;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    n = std::max(n, ps[i].c.size());
    if (i > 0) in_piece.push_back(f.ge(a, f.k(ps[i].start)));
  }
  auto pick = [&](auto get) {
    llvm::Value* v = f.k(get(ps[0]));
    for (std::size_t i = 1; i < ps.size(); ++i) v = f.sel(in_piece[i - 1], f.k(get(ps[i])), v);
    return v;
  };
  auto coef = [](std::size_t j) {
    return [j](const ErfPiece& p) { return j < p.c.size() ? p.c[j] : 0.0; };
  };
  llvm::Value* u = f.mul(f.sub(a, pick([](const ErfPiece& p) { return p.center; })),
                         pick([](const ErfPiece& p) { return 1.0 / p.half; }));
  llvm::Value* r = pick(coef(n - 1));
  for (std::size_t j = n - 1; j-- > 0;) r = f.fma(r, u, pick(coef(j)));
  return r;
}

inline llvm::Value* erf_impl(Fp& f, llvm::Value* x) {
  llvm::Value* a = f.abs(x);
  llvm::Value* small = f.fma(a, f.poly(f.mul(a, a), kErfSmall32, kErfSmall64), a);
  llvm::Value* h = f.f64 ? piecewise_poly(f, a, kErfPieces64) : piecewise_poly(f, a, kErfPieces32);
  llvm::Value* g = f.fma(f.neg(a), a, h);  // log erfc = -x^2 + h, one rounding
  llvm::Value* big = f.sub(f.k(1.0), exp_impl(f, g));
  llvm::Value* res = f.sel(f.lt(a, f.k(1.0)), small, big);
  res = f.sel(f.gt(a, f.k(3.92, 5.93)), f.k(1.0), res);
  return f.copysign(res, x);
}

// erf_inv: the steps of ir/erf_inv.hpp (XLA's ErfInv32 for f32, each `c + p * w` one fma; for
// f64 our four pieces in w = -log(1 - x^2)), on every lane at once.
// ir::xla_logf / xla_log1pf (XLA's CPU log1p for f32) as IR, the same operations in the same
// order, so the reference backend and this one round identically.
inline llvm::Value* xla_logf_impl(Fp& f, llvm::Value* v) {
  auto& b = f.b;
  llvm::Value* in = v;
  v = f.sel(f.lt(v, f.k(std::numeric_limits<float>::min())), f.k(std::numeric_limits<float>::min()),
            v);
  llvm::Value* bits = f.as_int(v);
  llvm::Value* e = b.CreateSIToFP(f.isub(f.lshr(bits, 23), f.ki(126)), f.ty);
  llvm::Value* m = f.as_fp(b.CreateOr(f.iand(bits, f.ki(0x807fffff)), f.ki(0x3f000000)));
  llvm::Value* below = f.lt(m, f.k(0.707106781186547524));
  llvm::Value* x = f.sub(m, f.k(1.0));
  e = f.sel(below, f.sub(e, f.k(1.0)), e);
  x = f.sel(below, f.add(x, m), x);
  llvm::Value* x2 = f.mul(x, x);
  llvm::Value* x3 = f.mul(x2, x);
  auto P = [&](int i) {
    return f.k(static_cast<double>(ir::kXlaLogP[static_cast<std::size_t>(i)]));
  };
  llvm::Value* y = f.fma(P(0), x, P(1));
  llvm::Value* y1 = f.fma(P(3), x, P(4));
  llvm::Value* y2 = f.fma(P(6), x, P(7));
  y = f.fma(y, x, P(2));
  y1 = f.fma(y1, x, P(5));
  y2 = f.fma(y2, x, P(8));
  y = f.fma(y, x3, y1);
  y = f.fma(y, x3, y2);
  y = f.fma(y, x3, f.mul(e, f.k(static_cast<double>(ir::kXlaLogQ1))));
  x = f.fma(x2, f.k(-0.5), x);
  x = f.add(x, y);
  llvm::Value* r = f.fma(e, f.k(static_cast<double>(ir::kXlaLogQ2)), x);
  // NaN and +inf pass through, negative inputs give NaN, zero gives -inf (ir::xla_logf).
  r = f.sel(f.eq(in, f.k(0.0)), f.neg(f.inf()), r);
  r = f.sel(f.lt(in, f.k(0.0)), f.nan(), r);
  return f.sel(f.either(f.isnan(in), f.eq(in, f.inf())), in, r);
}
inline llvm::Value* xla_log1pf_impl(Fp& f, llvm::Value* x) {
  llvm::Value* x2 = f.mul(x, x);
  llvm::Value* num = f.k(0.0);
  llvm::Value* den = f.k(0.0);
  for (double c : ir::kXlaLog1pNum)
    num = f.fma(num, x, f.k(static_cast<double>(static_cast<float>(c))));
  for (double c : ir::kXlaLog1pDen)
    den = f.fma(den, x, f.k(static_cast<double>(static_cast<float>(c))));
  llvm::Value* r = f.mul(f.mul(x, x2), f.div(num, den));
  llvm::Value* small = f.add(x, f.fma(f.k(-0.5), x2, r));
  llvm::Value* is_small =
      f.lt(f.abs(x), f.k(static_cast<double>(static_cast<float>(0.41421356237309504880))));
  return f.sel(is_small, small, xla_logf_impl(f, f.add(x, f.k(1.0))));
}

// f64: every lane evaluates both forms of w and one Horner loop on its piece's coefficients
// (selected per lane, as piecewise_poly does), then x * P or copysign(P, x).
inline llvm::Value* erf_inv64_impl(Fp& f, llvm::Value* x) {
  llvm::Value* w_small = f.neg(log1p_impl(f, f.neg(f.mul(x, x))));
  llvm::Value* w_big = f.neg(log_impl(f, f.fma(f.neg(x), x, f.k(1.0))));
  llvm::Value* w = f.sel(f.lt(f.abs(x), f.k(0.5)), w_small, w_big);
  const auto& ps = ir::kErfInv64;
  // at_least[i]: w is not below piece i's start (NaN lanes go to the last piece, as in the
  // scalar code: `!(w < end)` is true for NaN).
  std::array<llvm::Value*, ps.size()> at_least{};
  for (std::size_t i = 1; i < ps.size(); ++i)
    at_least[i] = f.b.CreateNot(f.lt(w, f.k(ps[i - 1].w_end)));
  auto pick = [&](auto get) {
    llvm::Value* v = f.k(get(ps[0]));
    for (std::size_t i = 1; i < ps.size(); ++i) v = f.sel(at_least[i], f.k(get(ps[i])), v);
    return v;
  };
  llvm::Value* in_sqrt = at_least[2];  // pieces 2 and 3 are in sqrt(w)
  static_assert(!ir::kErfInv64[1].in_sqrt && ir::kErfInv64[2].in_sqrt);
  llvm::Value* v =
      f.sub(f.sel(in_sqrt, f.sqrt(w), w), pick([](const auto& p) { return p.center; }));
  const std::size_t n = ps[0].c.size();
  llvm::Value* p = pick([n](const auto& pc) { return pc.c[n - 1]; });
  for (std::size_t j = n - 1; j-- > 0;)
    p = f.fma(p, v, pick([j](const auto& pc) { return pc.c[j]; }));
  return f.sel(in_sqrt, f.copysign(p, x), f.mul(p, x));
}

inline llvm::Value* erf_inv_impl(Fp& f, llvm::Value* x) {
  llvm::Value* y;
  if (f.f64) {
    y = erf_inv64_impl(f, x);
  } else {
    llvm::Value* w = f.neg(xla_log1pf_impl(f, f.mul(f.neg(x), x)));
    llvm::Value* small = f.lt(w, f.k(5.0));
    w = f.sel(small, f.sub(w, f.k(2.5)), f.sub(f.sqrt(w), f.k(3.0)));
    auto coef = [&](std::size_t i) {
      return f.sel(small, f.k(static_cast<double>(ir::kErfInvSmallW[i])),
                   f.k(static_cast<double>(ir::kErfInvLargeW[i])));
    };
    llvm::Value* p = coef(0);
    for (std::size_t i = 1; i < ir::kErfInvSmallW.size(); ++i) p = f.fma(p, w, coef(i));
    y = f.mul(p, x);
  }
  llvm::Value* edge =
      f.mul(x, f.k(std::numeric_limits<float>::max(), std::numeric_limits<double>::max()));
  return f.sel(f.eq(f.abs(x), f.k(1.0)), edge, y);
}

// log(x) as a double-word hi + lo with a relative error near 2^-64, for pow in f64 (|y log x| up
// to 745 needs that many bits for the product to be good to an ulp). Same decomposition as log;
// log m = 2s + (2/3)s^3 + s^5 * P(s^2) with s = (m-1)/(m+1) kept as a double-word, the first two
// terms in double-word arithmetic and only the s^5 tail (< 2e-4 of the total) in plain double.
// Minimax P from our Remez fit, weighted for the error relative to log m: 2.2e-20.
inline constexpr std::array<double, 7> kLogDdP64 = {
    0x1.9999999999b30p-2, 0x1.2492492457c90p-2, 0x1.c71c722d78d74p-3, 0x1.745ce9dccd222p-3,
    0x1.3b1eed44be6f8p-3, 0x1.0f7fcc00dc849p-3, 0x1.0e43c8a719489p-3};

struct DoubleWord {
  llvm::Value* hi;
  llvm::Value* lo;
};
inline DoubleWord two_sum(Fp& f, llvm::Value* a, llvm::Value* b) {
  llvm::Value* s = f.add(a, b);
  llvm::Value* bb = f.sub(s, a);
  return {s, f.add(f.sub(a, f.sub(s, bb)), f.sub(b, bb))};
}
// Requires |a| >= |b| or a = 0.
inline DoubleWord fast_two_sum(Fp& f, llvm::Value* a, llvm::Value* b) {
  llvm::Value* s = f.add(a, b);
  return {s, f.sub(b, f.sub(s, a))};
}
inline DoubleWord two_prod(Fp& f, llvm::Value* a, llvm::Value* b) {
  llvm::Value* p = f.mul(a, b);
  return {p, f.fma(a, b, f.neg(p))};
}

inline DoubleWord log_dd(Fp& f, llvm::Value* x) {
  auto [e, m] = log_decompose(f, x, true);
  llvm::Value* one = f.k(1.0);
  llvm::Value* num = f.sub(m, one);  // exact (Sterbenz)
  DoubleWord den = two_sum(f, m, one);
  llvm::Value* s_hi = f.div(num, den.hi);
  llvm::Value* rem = f.fma(f.neg(s_hi), den.hi, num);  // exact remainder of the division
  rem = f.fma(f.neg(s_hi), den.lo, rem);
  llvm::Value* s_lo = f.div(rem, den.hi);

  DoubleWord z = two_prod(f, s_hi, s_hi);
  // s^3 = (z.hi + z.lo) * (s_hi + s_lo), dropping terms below 2^-100 relative.
  DoubleWord c = two_prod(f, z.hi, s_hi);
  c.lo = f.add(c.lo, f.fma(z.lo, s_hi, f.mul(f.mul(f.k(3.0), z.hi), s_lo)));
  // (2/3) s^3 with 2/3 as a double-word constant.
  DoubleWord t3 = two_prod(f, c.hi, f.k(0x1.5555555555555p-1));
  t3.lo =
      f.add(t3.lo, f.fma(c.hi, f.k(0x1.5555555555555p-55), f.mul(c.lo, f.k(0x1.5555555555555p-1))));
  llvm::Value* t5 = f.mul(f.mul(s_hi, f.mul(z.hi, z.hi)), f.poly(z.hi, kLogDdP64));

  // 2s + t3 (|2s| >= |t3|), then e*ln2 on top (|e*ln2| >= 0.69 > |log m|, or e = 0).
  DoubleWord a = fast_two_sum(f, f.mul(f.k(2.0), s_hi), t3.hi);
  a.lo = f.add(a.lo, f.add(f.fma(f.k(2.0), s_lo, t3.lo), t5));
  DoubleWord l = two_prod(f, e, f.k(kLn2.hi64));
  l.lo = f.fma(e, f.k(kLn2.lo64), l.lo);
  DoubleWord r = fast_two_sum(f, l.hi, a.hi);
  r.lo = f.add(r.lo, f.add(a.lo, l.lo));
  return r;
}

// exp(y * log|x|) for finite nonzero |x| and finite y; the special cases are selects on top.
// f32 evaluates in f64 (log and exp at full f64 accuracy), which makes the f32 result correctly
// rounded in all but rare near-halfway cases; f64 uses the double-word log and passes the low
// word of the product to exp as a correction to its reduced argument.
inline llvm::Value* pow_core_body(Fp& f, llvm::Value* ax, llvm::Value* y) {
  if (!f.f64) {
    llvm::Type* dty = llvm::Type::getDoubleTy(f.b.getContext());
    if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(f.ty))
      dty = llvm::FixedVectorType::get(dty, v->getNumElements());
    Fp d(f.b, dty);
    llvm::Value* l = log_impl(d, d.b.CreateFPExt(ax, dty));
    llvm::Value* p = d.mul(d.b.CreateFPExt(y, dty), l);
    return f.b.CreateFPTrunc(exp_impl(d, p), f.ty);
  }
  DoubleWord l = log_dd(f, ax);
  DoubleWord p = two_prod(f, y, l.hi);
  p.lo = f.fma(y, l.lo, p.lo);
  return exp_impl(f, p.hi, p.lo);
}
// A helper of pow and polygamma's zeta sum (eleven uses there): outlined in the GPU's C.
inline llvm::Value* pow_core(Fp& f, llvm::Value* ax, llvm::Value* y) {
  return f.outlined("pow_core", {ax, y}, [](Fp& g, std::span<llvm::Value* const> a) {
    return pow_core_body(g, a[0], a[1]);
  });
}

// C99 Annex F (IEEE 754 pow): pow(x, +-0) = 1 and pow(1, y) = 1 even for NaN; a negative x
// with a finite non-integer y gives NaN; an odd integer y keeps the sign of x (also for -0 and
// -inf); +-0 and +-inf bases and +-inf exponents follow the usual limits.
inline llvm::Value* pow_impl(Fp& f, llvm::Value* x, llvm::Value* y) {
  llvm::Value* zero = f.k(0.0);
  llvm::Value* one = f.k(1.0);
  llvm::Value* inf = f.inf();
  llvm::Value* ax = f.abs(x);
  llvm::Value* ylt0 = f.lt(y, zero);
  llvm::Value* y_int = f.eq(f.floor(y), y);  // true for +-inf too; those are handled first
  llvm::Value* yh = f.mul(y, f.k(0.5));
  llvm::Value* y_odd = f.both(y_int, f.ne(f.floor(yh), yh));

  llvm::Value* res = pow_core(f, ax, y);
  res = f.sel(f.eq(ax, zero), f.sel(ylt0, inf, zero), res);
  res = f.sel(f.eq(ax, inf), f.sel(ylt0, zero, inf), res);
  llvm::Value* below_one = f.lt(ax, one);
  res = f.sel(f.eq(f.abs(y), inf),
              f.sel(f.eq(ax, one), one, f.sel(f.b.CreateXor(below_one, ylt0), zero, inf)), res);
  llvm::Value* x_neg = f.b.CreateICmpSLT(f.as_int(x), f.ki(0));  // sign bit: -0 counts
  res = f.sel(f.both(x_neg, y_odd), f.neg(res), res);
  llvm::Value* bad = f.both(f.both(f.lt(x, zero), f.ne(ax, inf)), f.ne(f.floor(y), y));
  res = f.sel(bad, f.nan(), res);
  res = f.sel(f.either(f.isnan(x), f.isnan(y)), f.nan(), res);
  return f.sel(f.either(f.eq(y, zero), f.eq(x, one)), one, res);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_tanh(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::tanh_impl(f, x);
}
inline llvm::Value* emit_erf(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::erf_impl(f, x);
}
inline llvm::Value* emit_erf_inv(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::erf_inv_impl(f, x);
}
inline llvm::Value* emit_logistic(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::logistic_impl(f, x);
}
inline llvm::Value* emit_rsqrt(llvm::IRBuilderBase& b, llvm::Value* x) {
  detail::Fp f(b, x->getType());
  return detail::rsqrt_impl(f, x);
}
inline llvm::Value* emit_pow(llvm::IRBuilderBase& b, llvm::Value* x, llvm::Value* y) {
  detail::Fp f(b, x->getType());
  return detail::pow_impl(f, x, y);
}

}  // namespace fj::backend::llvm_ir
