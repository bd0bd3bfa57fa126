// erfc as inline IR (a definition of math_ir.hpp, over math_fp.hpp), and the two helpers that
// math_gamma.hpp's lgamma and digamma share with it: f32 evaluated in f64, and per-lane pieces.
#pragma once
#include <array>
#include <span>

#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/backend/llvm/math_special.hpp"

namespace fj::backend::llvm_ir::detail {

// erfc, lgamma and digamma run their f32 lanes through the f64 code (as pow does): one set of
// fits, and f32 results that carry only the final rounding (plus f64's error, 2^-29 of an f32
// ulp) -- which is also what keeps lgamma's and digamma's f32 results accurate next to their
// negative zeros, where the reflection formula cancels. `name` is the function's, which the f32
// code calls at f64 in the GPU's C (Fp::outlined).
template <class Impl>
llvm::Value* via_f64(llvm::IRBuilderBase& b, const char* name, llvm::Value* x, Impl impl) {
  Fp f(b, x->getType());
  if (f.f64) return impl(f, x);
  llvm::Type* dty = llvm::Type::getDoubleTy(b.getContext());
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(f.ty))
    dty = llvm::FixedVectorType::get(dty, v->getNumElements());
  Fp d(b, dty);
  llvm::Value* y =
      d.outlined(name, {b.CreateFPExt(x, dty)},
                 [&](Fp& g, std::span<llvm::Value* const> a) { return impl(g, a[0]); });
  return b.CreateFPTrunc(y, f.ty);
}

// One Horner loop over per-lane coefficients: piece 0's, replaced by piece i's where in[i-1]
// holds (later pieces win); a piece's missing high-order coefficients are 0.
inline llvm::Value* select_poly(Fp& f, llvm::Value* v, std::span<llvm::Value* const> in,
                                std::span<const std::span<const double>> ps) {
  std::size_t n = 0;
  for (auto p : ps) n = std::max(n, p.size());
  auto coef = [&](std::size_t j) {
    llvm::Value* c = f.k(j < ps[0].size() ? ps[0][j] : 0.0);
    for (std::size_t i = 1; i < ps.size(); ++i)
      c = f.sel(in[i - 1], f.k(j < ps[i].size() ? ps[i][j] : 0.0), c);
    return c;
  };
  llvm::Value* r = coef(n - 1);
  for (std::size_t j = n - 1; j-- > 0;) r = f.fma(r, v, coef(j));
  return r;
}

// c0 + v q(v) as a double-word, c0 + v q being select_poly's polynomial and each piece's
// constant term hi + lo (hi in its table, lo in `lo`): the rounding of c0 and of the last Horner
// step would each cost up to 0.5 ulp of the result, and more where c0 and v q cancel.
inline DoubleWord select_poly_dw(Fp& f, llvm::Value* v, std::span<llvm::Value* const> in,
                                 std::span<const std::span<const double>> ps,
                                 std::span<const double> lo) {
  std::array<std::span<const double>, 8> tails{};
  assert(ps.size() <= tails.size() && lo.size() == ps.size());
  for (std::size_t i = 0; i < ps.size(); ++i) tails[i] = ps[i].subspan(1);
  llvm::Value* q = select_poly(f, v, in, std::span(tails).first(ps.size()));
  auto pick = [&](auto get) {
    llvm::Value* c = f.k(get(0));
    for (std::size_t i = 1; i < ps.size(); ++i) c = f.sel(in[i - 1], f.k(get(i)), c);
    return c;
  };
  llvm::Value* c0 = pick([&](std::size_t i) { return ps[i][0]; });
  llvm::Value* c0_lo = pick([&](std::size_t i) { return lo[i]; });
  return two_sum(f, c0, f.fma(v, q, c0_lo));
}

// erfc x = exp(-x^2) erfcx(x) for x >= 0.5, with erfcx (the scaled function, smooth and between
// 0.62 and 0.02) from Chebyshev interpolants of our own (scripts/math/fit_gamma.py, 50 digits):
// in v = x - center on [0.5, 1], [1, 2], [2, 4] (v exact; degrees 14, 17, 19), and past 4 as
// erfcx(x) = t R(t^2), t = 1/x, R = x erfcx(x) in u = t^2 on [0, 1/16] (degree 15; R tends to
// 1/sqrt(pi): the asymptotic series' terms, summed without its divergence). Relative errors
// before rounding the coefficients: 1.8e-19, 9.0e-20, 7.6e-19, 3.1e-19.
inline constexpr std::array<double, 15> kErfcx1 = {
    0x1.038d54ea3d834p-1,  -0x1.78cdd551ee51ap-2,  0x1.d90093ae10928p-3,  -0x1.09e77d40e01cep-3,
    0x1.1192f5bd6873cp-4,  -0x1.054d68296d26ap-5,  0x1.d43a7c7a7c0fap-7,  -0x1.8c97dd23cacebp-8,
    0x1.3f818962c9a60p-9,  -0x1.ec0d293395f67p-11, 0x1.6b984c0138dd8p-12, -0x1.02a04a14e43aap-13,
    0x1.635d5fe5fc73cp-15, -0x1.e412f7345926ep-17, 0x1.37d7863ebade2p-18};
inline constexpr std::array<double, 18> kErfcx2 = {
    0x1.494daffa2ad68p-2,  -0x1.4f1988444caf7p-3,  0x1.37ea271bc54bcp-4,  -0x1.0dc51d2941e6cp-5,
    0x1.b65944f34fbb6p-7,  -0x1.513ed7600d3c7p-8,  0x1.ee705e7311a51p-10, -0x1.5b0abfe6309ffp-11,
    0x1.d4509d425f248p-13, -0x1.30c0ec8eebc29p-14, 0x1.7f99660093fdap-16, -0x1.d4155e4da48d2p-18,
    0x1.15709ea561233p-19, -0x1.40090078056f8p-21, 0x1.66d11225ee11dp-23, -0x1.89dc72c25d886p-25,
    0x1.c8ee5d35f0fe6p-27, -0x1.ddfe13df3446dp-29};
inline constexpr std::array<double, 20> kErfcx3 = {
    0x1.6e9827d229d2dp-3,  -0x1.bd6ae4d14b16fp-5,  0x1.043fe1a98c0d4p-6,  -0x1.259061ba85698p-8,
    0x1.409cc2ed3f027p-10, -0x1.53dec9d0889cap-12, 0x1.5e73930542870p-14, -0x1.6025103cace20p-16,
    0x1.595f1b10ffe11p-18, -0x1.4b14624a945b9p-20, 0x1.3699168d7bd7ep-22, -0x1.1d7922347c7aap-24,
    0x1.014e0a0208be0p-26, -0x1.c74e1c5371149p-29, 0x1.8c2f441a8c0efp-31, -0x1.527f395f218fap-33,
    0x1.1666810f3d63bp-35, -0x1.cd539a8193ddep-38, 0x1.d497f9598b60ap-40, -0x1.765214aed4921p-42};
inline constexpr std::array<double, 16> kErfcxTail = {
    0x1.20dd750429b6dp-1,  -0x1.20dd750429b54p-2,  0x1.b14c2f86360bdp-2,  -0x1.0ecf9daf5d178p+0,
    0x1.d9eb516c68a6fp+1,  -0x1.0a94270f7922dp+4,  0x1.6e859d847245cp+6,  -0x1.29907d25ac21fp+9,
    0x1.155083f96552cp+12, -0x1.1e2db3cbd1648p+15, 0x1.33f6600f66e90p+18, -0x1.3c32fd41d1422p+21,
    0x1.16858e480fa67p+24, -0x1.763e63825e792p+26, 0x1.490a16223ea52p+28, -0x1.16028ed3905d5p+29};

// The constant terms' rounding errors (their low words), for erfcx as a double-word.
inline constexpr std::array<double, 4> kErfcxLo = {-0x1.ec2134d851665p-55, 0x1.3a3865ece002dp-56,
                                                   -0x1.99ac9296879fap-58, 0x1.148778b8df9dep-57};

// exp(-x^2) takes x^2 as a double-word: x^2 is up to 745, so its rounding alone (2^-53 relative,
// 8e-14 absolute) would cost erfc up to 370 ulp in the tail. 1/x is a double-word too (its
// remainder by fma). Subnormal results are rounded once, by the final scaling. Below 0.5, erfc = 1
// - erf with erf's own small-argument polynomial (math_special.hpp; erfc >= 0.48 there, so no
// relative precision is lost); for x <= -0.5, erfc = 2 - erfc(-x) in [1.52, 2].
inline llvm::Value* erfc_impl(Fp& f, llvm::Value* x) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* a = f.abs(x);
  llvm::Value* small = f.sub(one, f.fma(x, f.poly(f.mul(x, x), kErfSmall64), x));

  llvm::Value* tail = f.ge(a, f.k(4.0));
  llvm::Value* t = f.div(one, a);
  llvm::Value* t_lo = f.mul(f.fma(f.neg(t), a, one), t);  // 1/a - t, to 2^-106 relative
  llvm::Value* u = f.mul(t, t);
  llvm::Value* in[] = {f.ge(a, one), f.ge(a, f.k(2.0)), tail};
  llvm::Value* center = f.sel(in[0], f.sel(in[1], f.k(3.0), f.k(1.5)), f.k(0.75));
  const std::span<const double> pieces[] = {kErfcx1, kErfcx2, kErfcx3, kErfcxTail};
  DoubleWord p = select_poly_dw(f, f.sel(tail, u, f.sub(a, center)), in, pieces, kErfcxLo);
  // Past 4, times t + t_lo, keeping the product's rounding error.
  llvm::Value* e_hi = f.sel(tail, f.mul(t, p.hi), p.hi);
  llvm::Value* e_lo = f.add(f.fma(t, p.hi, f.neg(e_hi)), f.fma(t, p.lo, f.mul(t_lo, p.hi)));
  e_lo = f.sel(tail, e_lo, p.lo);

  // exp(-x^2) = 2^k (1 + expm1(r)): exp_reduce's steps on the double-word -x^2, with r kept as a
  // double-word too (its rounding is 2^-54 relative, a quarter to half an ulp of erfc; the low
  // word enters expm1 to first order). The significand is multiplied by erfcx before scaling:
  // erfcx (1 + em1) = e_hi + (e_hi em1 + e_lo) rounds once.
  llvm::Value* sq = f.mul(a, a);
  llvm::Value* sq_lo = f.fma(a, a, f.neg(sq));
  auto [kf, k] = f.round_mul(f.neg(sq), f.k(kLog2e32, kLog2e64));
  llvm::Value* nk = f.neg(kf);
  llvm::Value* r1 = f.fma(nk, f.k(kLn2.hi32, kLn2.hi64), f.neg(sq));  // exact
  DoubleWord r = two_sum(f, r1, f.fma(nk, f.k(kLn2.lo32, kLn2.lo64), f.neg(sq_lo)));
  llvm::Value* em1 = f.add(expm1_poly(f, r.hi), r.lo);
  llvm::Value* big = scale_2k(f, f.add(e_hi, f.fma(e_hi, em1, e_lo)), kf, k);
  // Past 27.3 erfc is below half the smallest subnormal (from 27.23 on); this also keeps
  // x = inf (whose inf * 0 would be NaN) at 0.
  big = f.sel(f.gt(a, f.k(27.3)), f.k(0.0), big);
  llvm::Value* res = f.sel(f.lt(x, f.k(0.0)), f.sub(f.k(2.0), big), big);
  return f.sel(f.lt(a, f.k(0.5)), small, res);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_erfc(llvm::IRBuilderBase& b, llvm::Value* x) {
  return detail::via_f64(b, "erfc", x,
                         [](detail::Fp& f, llvm::Value* v) { return detail::erfc_impl(f, v); });
}

}  // namespace fj::backend::llvm_ir
