// lgamma and digamma as inline IR (definitions of math_ir.hpp, over math_fp.hpp).
#pragma once
#include <array>
#include <span>

#include "fusejit/backend/llvm/math_erfc.hpp"
#include "fusejit/backend/llvm/math_exp_log.hpp"
#include "fusejit/backend/llvm/math_fp.hpp"
#include "fusejit/backend/llvm/math_special.hpp"

namespace fj::backend::llvm_ir::detail {

// Every polynomial below is a Chebyshev interpolant of our own (scripts/math/fit_gamma.py, mpmath
// at 50 digits), in monomials of the variable named, lowest degree first, with its relative error
// before rounding the coefficients to double. Both functions run in f64 (f32 via via_f64).
//
// lgamma(1 + t) = t P(t), t in [-0.3, 0.7]: degree 26, 4.8e-19.
// lgamma(x) = lgamma(x0) + w^2 P(w), w = x - x0 on [1.25, 1.75] around the minimum at x0
// = 1.4616... (digamma's root): degree 15, 7.1e-19; between the zeros neither t P(t) below nor
// above would do without cancelling (at 1.48, lgamma(1 + t)/t = -0.577 + 0.395 - 0.092 ...).
// lgamma(2 + t) = t P(t), t in [-0.25, 0.5]: degree 16, 2.7e-19; the same quotient in v = t - 1.75
// on t in [0.5, 3] (degree 22, 2.5e-19) and in v = t - 5.5 on [3, 8] (degree 21, 7.8e-19): dividing
// out the zeros at 1 and 2 keeps the relative error small next to them, and P > 0 has no
// cancellation anywhere (lgamma itself in v = x - center would lose 2 bits to c0 + c1 v).
// Stirling, x >= 10: lgamma(x) = (x - 1/2) log x - x + log(2 pi)/2 + S(u) / x, u = 1/x^2: degree 6,
// 3.5e-19.
inline constexpr std::array<double, 27> kLgamma1 = {
    -0x1.2788cfc6fb619p-1, 0x1.a51a6625307d3p-1, -0x1.9a4d55beab2dap-2, 0x1.151322ac7d847p-2,
    -0x1.a8b9c17aa5986p-3, 0x1.5b40cb100b743p-3, -0x1.2703a1dd1ffcfp-3, 0x1.010b36b020e2ap-3,
    -0x1.c8067056ad0cbp-4, 0x1.9a01e32608222p-4, -0x1.748c3583c129bp-4, 0x1.556ae546e6329p-4,
    -0x1.3b1d7b2609c1fp-4, 0x1.249590d30cbe7p-4, -0x1.11127145264e5p-4, 0x1.00106213b7e3ap-4,
    -0x1.e22d953b932ccp-5, 0x1.c696e0b62b658p-5, -0x1.abf3b7c472a89p-5, 0x1.96b36ad28bcd7p-5,
    -0x1.915996c4f7accp-5, 0x1.974208d469e04p-5, -0x1.80d861b813248p-5, 0x1.26fb2ad42d9adp-5,
    -0x1.42d0148514e64p-6, 0x1.b440f4e02f777p-8, -0x1.0ee0749c80f88p-10};
inline constexpr std::array<double, 16> kLgammaMin = {
    0x1.ef72bc8ee38acp-2,  -0x1.2e4278dc6bc24p-3,  0x1.08b4294d5035cp-4,  -0x1.0c9a8df512be7p-5,
    0x1.266e797a15b34p-6,  -0x1.51f9f9514df13p-7,  0x1.8fce029d4e48ep-8,  -0x1.e2f1a2150c3dap-9,
    0x1.28312853ae96ep-9,  -0x1.6f9843ac7e1fep-10, 0x1.cc6fba481b6acp-11, -0x1.226385e834facp-11,
    0x1.70fbcc552ec27p-12, -0x1.e0bd2a192544ep-13, 0x1.3b3f0fbf2be63p-13, -0x1.22cd14dec16dap-14};
inline constexpr std::array<double, 17> kLgamma2 = {
    0x1.b0ee6072093cep-2,   0x1.4a34cc4a60fa6p-2,  -0x1.13e001a557603p-4,  0x1.51322ac7d85dfp-6,
    -0x1.e404fc21926a6p-8,  0x1.7add6ead744c1p-9,  -0x1.38ac5c27a2560p-10, 0x1.0b36afabbe6c1p-11,
    -0x1.d3fd526ba0846p-13, 0x1.a127a6d22dfc3p-14, -0x1.78dc56639cbb2p-15, 0x1.5808c46b7f777p-16,
    -0x1.3d07c37121ac6p-17, 0x1.276570d046809p-18, -0x1.10e4f9de8977dp-19, 0x1.b5618e4061423p-21,
    -0x1.9af96a4a16896p-23};
inline constexpr std::array<double, 23> kLgamma3 = {
    0x1.b2fff0216b62fp-1,   0x1.859f17755f486p-3,  -0x1.5fc983b488b65p-6,  0x1.c4e8d84fb664dp-9,
    -0x1.53d9b44efd5cap-11, 0x1.15e6641a5693ap-13, -0x1.e006f14083b29p-16, 0x1.ae716b29f76c7p-18,
    -0x1.8c984abdd5d55p-20, 0x1.74ebb0120d2b5p-22, -0x1.64362f11fbd22p-24, 0x1.587f52e853becp-26,
    -0x1.50840dba641a4p-28, 0x1.4b7b6e8f019f0p-30, -0x1.48afa1ba4eb1ap-32, 0x1.46a6af79e7f0fp-34,
    -0x1.474e345b02b1ap-36, 0x1.563bd2772c68cp-38, -0x1.59d1d77c0a2c1p-40, 0x1.01d53e4d2bebcp-42,
    -0x1.051f870357b17p-44, 0x1.4270cdfc4e98fp-45, -0x1.49e1314b31d51p-47};
inline constexpr std::array<double, 22> kLgamma4 = {
    0x1.5eb0be96016e8p+0,   0x1.ad9cf50609001p-4,  -0x1.901aa1242089cp-8,  0x1.035e961ff332dp-11,
    -0x1.83b0d12ded22ap-15, 0x1.3a09603fe369cp-18, -0x1.0bf7626fc8937p-21, 0x1.da4b8154edc13p-25,
    -0x1.af379ec7ae28cp-28, 0x1.904216bc72f27p-31, -0x1.79a82d02fbc37p-34, 0x1.69162f070fe12p-37,
    -0x1.5d1361c2fddf3p-40, 0x1.548456bad073cp-43, -0x1.4de936592e7cfp-46, 0x1.4a6577b59daf2p-49,
    -0x1.5302c56b248f7p-52, 0x1.5345918a195a4p-55, -0x1.07026ba678fd2p-58, 0x1.08471232e83ecp-61,
    -0x1.2d6273f6d8e15p-63, 0x1.32c39867898eap-66};
inline constexpr std::array<double, 7> kLgammaStirling = {
    0x1.5555555555555p-4,  -0x1.6c16c16c1697cp-9,  0x1.a01a019c051efp-11, -0x1.381377985f3f3p-11,
    0x1.b94707b01d2a5p-11, -0x1.f37f7526af077p-10, 0x1.6813d0b4b0fe4p-8};

// digamma(1 + x) on x in [0, 1] in v = x - 1/2 (degree 23, absolute error 8.5e-19); digamma(x) /
// (x - x0), x0 = 1.4616... its positive root, on [1, 2.5] in x - x0 (degree 27, 8.1e-19), on
// [2.5, 5] in x - 3.75 (degree 23, 3.4e-19), on [5, 10] in x - 7.5 (degree 23, 2.8e-19); x >= 10:
// digamma(x) = log x - 1/(2x) - u S(u), u = 1/x^2 (degree 7, 8.1e-20).
inline constexpr std::array<double, 24> kDigamma0 = {
    0x1.2aed059bd608ap-5,   0x1.de9e64df22ef3p-1,  -0x1.a85808a40abaep-2,  0x1.e0f840dad61e9p-3,
    -0x1.287825428d5e1p-3,  0x1.7b57ab63fd6bep-4,  -0x1.ee7460a6ddf25p-5,  0x1.456f1ad73e877p-5,
    -0x1.aeb6f0f445bb8p-6,  0x1.1de8189177092p-6,  -0x1.7c3e1557f4b18p-7,  0x1.fa3a9df220072p-8,
    -0x1.512d5f6787f80p-8,  0x1.c154a62362e90p-9,  -0x1.2b9ac56fb2ac7p-9,  0x1.8f65a1a606bfep-10,
    -0x1.0862fbd0945c2p-10, 0x1.607dcce96959dp-11, -0x1.f4e2ee84c02ffp-12, 0x1.4deaa522e373bp-12,
    -0x1.19312f14d75eep-13, 0x1.76eb05c41d419p-14, -0x1.76e9abff1b702p-13, 0x1.f3e1f8cfc4b15p-14};
inline constexpr std::array<double, 28> kDigamma1 = {
    0x1.ef72bc8ee38acp-1,  -0x1.c563b54aa1a35p-2,  0x1.08b4294d50381p-2,  -0x1.4fc1317257ebbp-3,
    0x1.b9a5b6370f5e3p-4,  -0x1.27baba26120c3p-4,  0x1.8fce02b2129b5p-5,  -0x1.0fa7ec39a4cb4p-5,
    0x1.723d6817674dcp-6,  -0x1.f9704fb2a6c82p-7,  0x1.5955c7a24c760p-7,  -0x1.d82817677c46dp-8,
    0x1.42e201b7b7053p-8,  -0x1.b9af76ccde868p-9,  0x1.2e1decd68f937p-9,  -0x1.9d59a5e5fba95p-10,
    0x1.1afac5a93ec3dp-10, -0x1.83adae27f887fp-11, 0x1.085ac615af8c6p-11, -0x1.64deffbd161f9p-12,
    0x1.e66049c4c3f56p-13, -0x1.5ef95b1e69992p-13, 0x1.07e7df7fa3da7p-13, -0x1.6b17cbb31931cp-14,
    0x1.89733894d26dfp-15, -0x1.297e4b700b521p-16, 0x1.11df6755aaf3fp-18, -0x1.cb85693e2a03cp-22};
inline constexpr std::array<double, 24> kDigamma2 = {
    0x1.0894ca60bcdd2p-1,  -0x1.7a6d07dba7661p-4,  0x1.4a2d0a2bf1761p-6,  -0x1.373feab32b010p-8,
    0x1.3199a9632104ap-10, -0x1.33851e38d646bp-12, 0x1.3a74ad10bb9cdp-14, -0x1.451a9ebf70a87p-16,
    0x1.52be7e28c1d80p-18, -0x1.62f6059a15c34p-20, 0x1.7583c1c5d6002p-22, -0x1.8a45a2f0acc43p-24,
    0x1.a1298735a0a92p-26, -0x1.ba30cff280758p-28, 0x1.d598f6645444ep-30, -0x1.f2ffe7282c926p-32,
    0x1.078474a43a1d3p-33, -0x1.186d14dff98a0p-35, 0x1.3e1accc29e726p-37, -0x1.52d895607eaebp-39,
    0x1.c8cb1d590702bp-42, -0x1.e6aaa279e27adp-44, 0x1.84629ddf52b35p-44, -0x1.9e1a815ef2096p-46};
inline constexpr std::array<double, 24> kDigamma3 = {
    0x1.4a22b0eb36b4bp-2,  -0x1.e7ce3867ae7fep-6,  0x1.a9e57ce63d918p-9,  -0x1.8d300920283eep-12,
    0x1.7ff82b5d8a63cp-15, -0x1.7bb8a544385c1p-18, 0x1.7d70c3922a115p-21, -0x1.838dbc03f4c94p-24,
    0x1.8d2b2a555baa7p-27, -0x1.99c198f984667p-30, 0x1.a8ff83ee54a46p-33, -0x1.bab4a8ed638f0p-36,
    0x1.cec48ddc434fbp-39, -0x1.e5290b83d203bp-42, 0x1.fe1b0287c8660p-45, -0x1.0c98a4cf42cf3p-47,
    0x1.197c45268aba1p-50, -0x1.295efbda867a6p-53, 0x1.4e82d731a4327p-56, -0x1.62514e18791a9p-59,
    0x1.e02ef7e0c26f8p-63, -0x1.fcb92b2589d1ap-66, 0x1.8f3ab254d3052p-67, -0x1.a853345bdf2f4p-70};
inline constexpr std::array<double, 8> kDigammaAsym = {
    0x1.5555555555555p-4, -0x1.11111111110dfp-7, 0x1.04104103dcfb0p-8, -0x1.1111106fd5075p-8,
    0x1.f07b24fc36f2dp-8, -0x1.59609637f3c51p-6, 0x1.4f05a054f4db8p-4, -0x1.5e57d05c6fc3dp-2};

// sin(pi r) = r P(r^2) for |r| <= 1/2 and cos(pi r) = Q(r^2) (used for |r| <= 1/4), for the
// reflection formulas: degree 8, relative error 3.2e-19, and degree 9, absolute error 6.4e-21.
inline constexpr std::array<double, 9> kSinPi = {
    0x1.921fb54442d18p+1,  -0x1.4abbce625be52p+2,  0x1.466bc6775aa7dp+1,
    -0x1.32d2cce627c86p-1, 0x1.5078348551854p-4,   -0x1.e3074dfaf87afp-8,
    0x1.e8f3675ee37ddp-12, -0x1.6f7acdb8f6580p-16, 0x1.9d462020fcc78p-21};
inline constexpr std::array<double, 10> kCosPi = {
    0x1.0000000000000p+0,  -0x1.3bd3cc9be45dep+2, 0x1.03c1f081b5ac3p+2,  -0x1.55d3c7e3cbf5ep+0,
    0x1.e1f5068913c52p-3,  -0x1.a6d1f29e543bcp-6, 0x1.f9d3881e49dfdp-10, -0x1.b6e1921f719a3p-14,
    0x1.209de0f1701fdp-18, -0x1.2084dd432a1bep-23};

inline constexpr double kSinPiLo = 0x1.18e26d3ec321cp-53;  // pi's fit: kSinPi[0] + this
inline constexpr double kLogPiHi = 0x1.250d048e7a1bdp+0, kLogPiLo = 0x1.7abf2ad8d5088p-57;
// The constant terms' low words (c0 = hi + lo; select_poly_dw), 0 for the asymptotic forms.
inline constexpr std::array<double, 6> kLgammaLo = {0x1.74ce0be4b1374p-58, -0x1.33e65f926fcbdp-56,
                                                    0x1.69e7100aa3046p-58, 0x1.88bdd3610b064p-55,
                                                    0x1.c7d8f39c5046dp-55, 0.0};
inline constexpr std::array<double, 5> kDigammaLo = {0x1.c090815e5e1e4p-61, -0x1.38d378bf0f917p-55,
                                                     -0x1.6f8e381936166p-56, -0x1.c0591a2c9cdeap-56,
                                                     0.0};
inline constexpr double kLgammaMinHi = -0x1.f19b9bcc38a42p-4, kLgammaMinLo = 0x1.f095c88d5a6c1p-59;
inline constexpr double kHalfLog2Pi = 0x1.d67f1c864beb5p-1;
inline constexpr double kDigammaRootHi = 0x1.762d86356be3fp+0,
                        kDigammaRootLo = 0x1.b86a722197829p-54;

// x minus its nearest integer (either one at a half): exact for x <= -0.25, where x + 0.5 is.
inline llvm::Value* frac_near(Fp& f, llvm::Value* x) {
  return f.sub(x, f.floor(f.add(x, f.k(0.5))));
}
// x is 0, a negative integer or -inf: lgamma's poles, digamma's NaNs.
inline llvm::Value* nonpositive_int(Fp& f, llvm::Value* x) {
  return f.both(f.b.CreateFCmpOLE(x, f.k(0.0)), f.eq(f.floor(x), x));
}

// lgamma on y > -0.3 (y = x, or 1 - x for the reflection). Pieces by y: (-0.3, 0.7):
// lgamma(1 + y) - log|y|; [0.7, 1.5): lgamma(1 + (y - 1)); [1.5, 10): lgamma(2 + (y - 2)) (t = y -
// 1 or y - 2 exact); [10, 2^60): Stirling, with log y as a double-word (log_dd) and (y - 1/2) log y
// - y summed in double-word arithmetic, so that only the final addition rounds; beyond, y (log y
// - 1), which overflows to inf only where lgamma does (2.55e305). One log_dd serves both ends.
// The value as hi + lo, and digamma(y) to about 1% (log y - 1/(2y) - 1/(12 y^2), for y >= 1.3),
// the derivative with which the reflection corrects for the rounding of 1 - x.
struct LgammaPos {
  DoubleWord v;
  llvm::Value* psi;
};
inline LgammaPos lgamma_pos(Fp& f, llvm::Value* y) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* near0 = f.lt(y, f.k(0.7));
  llvm::Value* t = f.sel(near0, y, f.sub(y, f.sel(f.lt(y, f.k(1.25)), one, f.k(2.0))));
  llvm::Value* in[] = {f.ge(y, f.k(1.25)), f.ge(y, f.k(1.75)), f.ge(y, f.k(2.5)), f.ge(y, f.k(5.0)),
                       f.ge(y, f.k(10.0))};
  llvm::Value* at_min = f.both(in[0], f.b.CreateNot(in[1]));
  llvm::Value* w = f.sub(f.sub(y, f.k(kDigammaRootHi)), f.k(kDigammaRootLo));
  llvm::Value* r = f.div(one, y);
  llvm::Value* mid = f.sel(in[3], f.k(5.5), f.sel(in[2], f.k(1.75), f.k(0.0)));
  llvm::Value* v = f.sel(in[4], f.mul(r, r), f.sel(at_min, w, f.sub(t, mid)));
  const std::span<const double> pieces[] = {kLgamma1, kLgammaMin, kLgamma2,
                                            kLgamma3, kLgamma4,   kLgammaStirling};
  DoubleWord pd = select_poly_dw(f, v, in, pieces, kLgammaLo);
  llvm::Value* p = pd.hi;
  llvm::Value* by_min = f.fma(f.mul(w, w), p, f.k(kLgammaMinLo));  // + kLgammaMinHi
  DoubleWord l = log_dd(f, f.sel(near0, f.abs(y), y));

  llvm::Value* small = f.fma(t, p, f.neg(l.lo));  // - l.hi
  llvm::Value* ym = f.sub(y, f.k(0.5));
  DoubleWord pr = two_prod(f, ym, l.hi);
  pr.lo = f.fma(ym, l.lo, pr.lo);
  DoubleWord s = fast_two_sum(f, pr.hi, f.neg(y));
  llvm::Value* stirling = f.add(f.add(s.lo, pr.lo), f.fma(r, p, f.k(kHalfLog2Pi)));  // + s.hi
  llvm::Value* huge = f.fma(y, f.sub(l.hi, one), f.mul(y, l.lo));  // l.hi - 1 is exact
  DoubleWord prod = two_prod(f, t, p);
  prod.lo = f.fma(t, pd.lo, prod.lo);
  // Each piece as an unevaluated sum hi + lo (the reflection subtracts it whole).
  llvm::Value* big_x = f.gt(y, f.k(0x1p60));
  llvm::Value* hi = f.sel(in[4], f.sel(big_x, huge, s.hi),
                          f.sel(near0, f.neg(l.hi), f.sel(at_min, f.k(kLgammaMinHi), prod.hi)));
  llvm::Value* lo = f.sel(in[4], f.sel(big_x, f.k(0.0), stirling),
                          f.sel(near0, small, f.sel(at_min, by_min, prod.lo)));
  return {{hi, lo}, f.sub(l.hi, f.mul(r, f.fma(r, f.k(1.0 / 12), f.k(0.5))))};
}

// x < -0.3: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x), with sin(pi x) from the exact
// r = x - round(x) and the difference taken in double-word arithmetic. Near the negative zeros
// the two terms cancel and the error is absolute (docs/MATH.md, "erfc, lgamma, digamma"). lgamma =
// +inf at 0, at the negative integers and at +-inf (C99, JAX).
inline llvm::Value* lgamma_impl(Fp& f, llvm::Value* x) {
  llvm::Value* neg = f.lt(x, f.k(-0.3));
  DoubleWord y = two_sum(f, f.k(1.0), f.neg(x));  // 1 - x and its rounding error
  LgammaPos lp = lgamma_pos(f, f.sel(neg, y.hi, x));
  DoubleWord pos = lp.v;
  // lgamma(1 - x) = lgamma(y.hi) + y.lo digamma(y.hi): up to 0.5 ulp of 1 - x times digamma,
  // 6e-16 at x = -3.7 (3 ulp of lgamma(x) = -1.34) without it.
  llvm::Value* pos_lo_neg = f.fma(y.lo, lp.psi, pos.lo);
  // log|sin(pi r)| to about 2^-60: for |r| <= 1/4 the log of |r| P(r^2) with P's constant term
  // and the product as double-words; past 1/4, log1p(cos(pi s) - 1), s = 1/2 - |r| exact, with
  // cos - 1 = s^2 Q'(s^2) free of cancellation (sin(pi r) itself would carry an ulp of 1 there).
  llvm::Value* r = frac_near(f, x);
  llvm::Value* a = f.abs(r);
  llvm::Value* swap = f.gt(a, f.k(0.25));
  llvm::Value* z = f.mul(a, a);
  DoubleWord sp =
      two_sum(f, f.k(kSinPi[0]), f.fma(z, f.poly(z, std::span(kSinPi).subspan(1)), f.k(kSinPiLo)));
  llvm::Value* s_hi = f.mul(a, sp.hi);
  llvm::Value* s_lo = f.fma(a, sp.lo, f.fma(a, sp.hi, f.neg(s_hi)));
  DoubleWord ls = log_dd(f, s_hi);
  ls.lo = f.add(ls.lo, f.div(s_lo, s_hi));
  llvm::Value* c = f.sub(f.k(0.5), a);
  llvm::Value* zc = f.mul(c, c);
  llvm::Value* cm1 = f.mul(zc, f.poly(zc, std::span(kCosPi).subspan(1)));
  ls.hi = f.sel(swap, log1p_impl(f, cm1), ls.hi);
  ls.lo = f.sel(swap, f.k(0.0), ls.lo);
  // log(pi) - log|sin| - lgamma(1 - x), summed in double-word arithmetic.
  DoubleWord d1 = two_sum(f, f.k(kLogPiHi), f.neg(ls.hi));
  DoubleWord d2 = two_sum(f, d1.hi, f.neg(pos.hi));
  llvm::Value* tail = f.add(f.add(d2.lo, d1.lo), f.sub(f.sub(f.k(kLogPiLo), ls.lo), pos_lo_neg));
  llvm::Value* refl = f.add(d2.hi, tail);
  llvm::Value* res = f.sel(neg, refl, f.add(f.add(pos.hi, pos.lo), f.k(0.0)));  // +0 at 1
  return f.sel(f.either(nonpositive_int(f, x), f.eq(f.abs(x), f.inf())), f.inf(), res);
}

// digamma on y > 0 (y = x, or 1 - x for the reflection). y < 1: digamma(1 + y) - 1/y with 1/y as
// a double-word (just -1/y below 2^-60, where 1/y may overflow); [1, 10): (y - x0) P with y - x0
// as a double-word (x0 as hi + lo), so the product rounds once; y >= 10: the asymptotic form with
// log y as a double-word.
inline llvm::Value* digamma_pos(Fp& f, llvm::Value* y) {
  llvm::Value* one = f.k(1.0);
  llvm::Value* in[] = {f.ge(y, one), f.ge(y, f.k(2.5)), f.ge(y, f.k(5.0)), f.ge(y, f.k(10.0))};
  DoubleWord t = two_sum(f, y, f.k(-kDigammaRootHi));  // y - x0 as hi + lo
  t.lo = f.sub(t.lo, f.k(kDigammaRootLo));
  llvm::Value* r = f.div(one, y);
  llvm::Value* r_lo = f.mul(f.fma(f.neg(r), y, one), r);
  llvm::Value* u = f.mul(r, r);
  llvm::Value* center = f.sel(in[2], f.k(7.5), f.k(3.75));
  llvm::Value* v =
      f.sel(in[3], u, f.sel(in[1], f.sub(y, center), f.sel(in[0], t.hi, f.sub(y, f.k(0.5)))));
  const std::span<const double> pieces[] = {kDigamma0, kDigamma1, kDigamma2, kDigamma3,
                                            kDigammaAsym};
  DoubleWord pd = select_poly_dw(f, v, in, pieces, kDigammaLo);
  llvm::Value* p = pd.hi;

  DoubleWord d = fast_two_sum(f, f.neg(r), p);  // |1/y| > 1 > |p|
  llvm::Value* small = f.add(d.hi, f.add(d.lo, f.sub(pd.lo, r_lo)));
  small = f.sel(f.lt(y, f.k(0x1p-60)), f.neg(r), small);
  DoubleWord l = log_dd(f, y);
  llvm::Value* asym = f.add(l.hi, f.sub(l.lo, f.fma(u, p, f.mul(f.k(0.5), r))));
  return f.sel(in[3], asym,
               f.sel(in[0], f.fma(t.hi, p, f.fma(t.hi, pd.lo, f.mul(t.lo, p))), small));
}

// x < 0: digamma(x) = digamma(1 - x) - pi cot(pi x), cot from sin and cos of pi r, r = x - round(x)
// exact. NaN at 0, the negative integers and -inf (JAX, scipy); digamma(+inf) = +inf.
inline llvm::Value* digamma_impl(Fp& f, llvm::Value* x) {
  llvm::Value* neg = f.lt(x, f.k(0.0));
  DoubleWord y = two_sum(f, f.k(1.0), f.neg(x));  // 1 - x and its rounding error
  llvm::Value* pos = digamma_pos(f, f.sel(neg, y.hi, x));
  // digamma(1 - x) = digamma(y.hi) + y.lo trigamma(y.hi), trigamma(y) ~ 1/y + 1/(2y^2) + 1/(6y^3)
  // (within 2% for y >= 1): the rounding of 1 - x would cost up to half an ulp of 1 - x.
  llvm::Value* ry = f.div(f.k(1.0), y.hi);
  llvm::Value* trigamma = f.mul(ry, f.fma(ry, f.fma(ry, f.k(1.0 / 6), f.k(0.5)), f.k(1.0)));
  llvm::Value* pos_neg = f.fma(y.lo, trigamma, pos);
  // cot(pi |r|) = cos / sin of pi s, s = |r|, or sin / cos of pi s, s = 1/2 - |r| (exact) past
  // 1/4: cos(pi r) from its polynomial would cancel next to r = 1/2 (1 - 4.9 r^2 + ...), an
  // absolute error of an ulp of 1 where the result may be near 0.
  llvm::Value* r = frac_near(f, x);
  llvm::Value* a = f.abs(r);
  llvm::Value* swap = f.gt(a, f.k(0.25));
  llvm::Value* s = f.sel(swap, f.sub(f.k(0.5), a), a);
  llvm::Value* z = f.mul(s, s);
  llvm::Value* sn = f.mul(s, f.poly(z, kSinPi));
  llvm::Value* cs = f.poly(z, kCosPi);
  llvm::Value* pi_cot = f.copysign(
      f.div(f.mul(f.k(0x1.921fb54442d18p+1), f.sel(swap, sn, cs)), f.sel(swap, cs, sn)), r);
  llvm::Value* res = f.sel(neg, f.sub(pos_neg, pi_cot), pos);
  res = f.sel(f.eq(x, f.inf()), x, res);
  return f.sel(nonpositive_int(f, x), f.nan(), res);
}

}  // namespace fj::backend::llvm_ir::detail

namespace fj::backend::llvm_ir {

inline llvm::Value* emit_lgamma(llvm::IRBuilderBase& b, llvm::Value* x) {
  return detail::via_f64(b, "lgamma", x,
                         [](detail::Fp& f, llvm::Value* v) { return detail::lgamma_impl(f, v); });
}
inline llvm::Value* emit_digamma(llvm::IRBuilderBase& b, llvm::Value* x) {
  return detail::via_f64(b, "digamma", x,
                         [](detail::Fp& f, llvm::Value* v) { return detail::digamma_impl(f, v); });
}

}  // namespace fj::backend::llvm_ir
