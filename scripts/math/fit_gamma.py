# Fits the polynomials of include/fusejit/backend/llvm/math_gamma.hpp (erfc, lgamma, digamma) with
# mpmath (50 digits): for each piece the Chebyshev interpolant of the lowest degree whose relative
# error (before rounding) is below TARGET, in monomials of v = x - center (unscaled, so the IR
# evaluates Horner in v directly). Prints each piece's error before and after rounding the
# coefficients to double, then the coefficients (lowest degree first) as hex floats.
#   python3 scripts/math/fit_gamma.py            # every piece
#   python3 scripts/math/fit_gamma.py lg1 dg1    # the named pieces
import sys

import mpmath as mp

mp.mp.dps = 50
TARGET = mp.mpf(2) ** -60

X0 = mp.findroot(mp.digamma, 1.46)  # digamma's positive root, 1.4616321449683623...


def erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def erfc_tail(u):  # x * erfcx(x) as a function of u = 1/x^2 (x >= 4)
    if u == 0:
        return 1 / mp.sqrt(mp.pi)
    x = 1 / mp.sqrt(u)
    return x * erfcx(x)


def lg_over_t(c):  # lgamma(c + t) / t: the zeros of lgamma at 1 and 2 divided out
    def F(t):
        return mp.diff(mp.loggamma, c) if t == 0 else mp.loggamma(c + t) / t

    return F


def stirling(u):  # (lgamma(x) - (x - 1/2) log x + x - log(2 pi)/2) * x, u = 1/x^2
    if u == 0:
        return mp.mpf(1) / 12
    x = 1 / mp.sqrt(u)
    return (mp.loggamma(x) - (x - mp.mpf(1) / 2) * mp.log(x) + x - mp.log(2 * mp.pi) / 2) * x


YMIN = mp.loggamma(X0)  # lgamma's minimum, at digamma's root


def lg_min(x):  # (lgamma(x) - lgamma(x0)) / (x - x0)^2 next to the minimum
    return mp.polygamma(1, X0) / 2 if x == X0 else (mp.loggamma(x) - YMIN) / (x - X0) ** 2


def dg_over_t(x):  # digamma(x) / (x - x0): the positive root divided out
    return mp.polygamma(1, X0) if x == X0 else mp.digamma(x) / (x - X0)


def dg_asym(u):  # (log x - 1/(2x) - digamma(x)) / u, u = 1/x^2
    if u == 0:
        return mp.mpf(1) / 12
    x = 1 / mp.sqrt(u)
    return (mp.log(x) - 1 / (2 * x) - mp.digamma(x)) / u


def sinpi_over(r2):  # sin(pi r) / r as a function of r^2
    if r2 == 0:
        return +mp.pi
    r = mp.sqrt(r2)
    return mp.sinpi(r) / r


# name: (function of v, lo, hi, center): v runs over [lo - center, hi - center].
PIECES = {
    # erfc: erfcx on [0.5, 4] in three pieces, then x erfcx(x) in u = 1/x^2.
    "ec1": (erfcx, 0.5, 1, 0.75),
    "ec2": (erfcx, 1, 2, 1.5),
    "ec3": (erfcx, 2, 4, 3),
    "ec4": (erfc_tail, 0, mp.mpf(1) / 16, 0),
    # lgamma(1 + t) / t on t in [-0.3, 0.7] (t = x or x - 1), (lgamma(x) - lgamma(x0)) / (x - x0)^2
    # on [1.25, 1.75] around the minimum, lgamma(2 + t) / t for t = x - 2 in [-0.25, 0.5], [0.5, 3],
    # [3, 8] (t exact; centered so that v = t - center is exact too): the
    # zeros at 1 and 2 divided out, and every piece a product t * P with P free of cancellation.
    "lg1": (lg_over_t(1), -0.3, 0.7, 0),
    "lgm": (lg_min, 1.25, 1.75, X0),
    "lg2": (lg_over_t(2), -0.25, 0.5, 0),
    "lg3": (lg_over_t(2), 0.5, 3, 1.75),
    "lg4": (lg_over_t(2), 3, 8, 5.5),
    "lgs": (stirling, 0, mp.mpf(1) / 100, 0),
    # digamma(1 + x) on x in [0, 1] (digamma(x) = that - 1/x); digamma(x) / (x - x0) on [1, 2.5]
    # (v = x - x0 as a double-word), [2.5, 5], [5, 10]; then the asymptotic series in u = 1/x^2.
    "dg0": (lambda x: mp.digamma(1 + x), 0, 1, 0.5),
    "dg1": (dg_over_t, 1, 2.5, X0),
    "dg2": (dg_over_t, 2.5, 5, 3.75),
    "dg3": (dg_over_t, 5, 10, 7.5),
    "dgs": (dg_asym, 0, mp.mpf(1) / 100, 0),
    # sin(pi r) / r in r^2, r in [0, 1/2] (reflection of lgamma and digamma).
    "sinpi": (sinpi_over, 0, mp.mpf(1) / 4, 0),
    "cospi": (lambda r2: mp.cospi(mp.sqrt(r2)), 0, mp.mpf(1) / 4, 0),
}
ABSOLUTE = {"cospi", "dg0"}  # dg0: digamma(1 + x) - 1/x is at least 0.577 in magnitude
# cospi: zero at r = 1/2; its absolute error is what cot(pi r) needs


def cheb_fit(F, lo, hi, n):  # interpolant at n+1 Chebyshev nodes, monomials in v
    m, h = (lo + hi) / 2, (hi - lo) / 2
    nodes = [m + h * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
    A = mp.matrix([[((t - m) / h) ** j for j in range(n + 1)] for t in nodes])
    cs = mp.lu_solve(A, mp.matrix([F(t) for t in nodes]))
    # expand sum c_j ((v - m)/h)^j into monomials of v
    out = [mp.mpf(0)] * (n + 1)
    for j in range(n + 1):
        cj = cs[j] / h**j
        for i in range(j + 1):
            out[i] += cj * mp.binomial(j, i) * (-m) ** (j - i)
    return out


def horner(cs, v):
    r = mp.mpf(0)
    for c in reversed(cs):
        r = r * v + c
    return r


def max_rel_err(F, cs, lo, hi, npts=300, absolute=False):
    pts = [lo + (hi - lo) * k / npts for k in range(npts + 1)]
    if absolute:
        return max(abs(horner(cs, v) - F(v)) for v in pts)
    return max(abs(horner(cs, v) / F(v) - 1) for v in pts)


def fit(name):
    g, lo, hi, c = PIECES[name]
    lo, hi, c = mp.mpf(lo), mp.mpf(hi), mp.mpf(c)
    F = lambda v: g(v + c)  # noqa: E731
    a = name in ABSOLUTE
    for n in range(4, 40):
        cs = cheb_fit(F, lo - c, hi - c, n)
        e = max_rel_err(F, cs, lo - c, hi - c, 60, a)
        if e < TARGET:
            break
    rc = [mp.mpf(float(x)) for x in cs]
    print(f"{name}: degree {n} on [{mp.nstr(lo, 8)}, {mp.nstr(hi, 8)}] center {float(c)!r}:"
          f" exact {mp.nstr(max_rel_err(F, cs, lo - c, hi - c, 300, a), 3)},"
          f" rounded {mp.nstr(max_rel_err(F, rc, lo - c, hi - c, 300, a), 3)}"
          + (" (absolute)" if a else ""))
    print("    " + ", ".join(float(x).hex() for x in rc))
    print(f"    c0 = hi + lo, lo = {float(cs[0] - rc[0]).hex()}")
    sys.stdout.flush()


if __name__ == "__main__":
    for name in sys.argv[1:] or PIECES:
        fit(name)
