# Fits the f64 erf_inv pieces of include/fusejit/ir/erf_inv.hpp (needs mpmath; a few minutes):
#   python3 scripts/math/fit_erf_inv64.py A 18 0 2.5        # x * P(w - 1.25), w < 2.5
#   python3 scripts/math/fit_erf_inv64.py A 18 2.5 6.25     # x * P(w - 4.375)
#   python3 scripts/math/fit_erf_inv64.py S 18 2.5 4        # P(sqrt(w) - 3.25), w < 16
#   python3 scripts/math/fit_erf_inv64.py S 18 4 6.015625   # P(sqrt(w) - 5.0078125)
# Prints the relative error of the degree-n Chebyshev interpolant before and after rounding its
# coefficients to double, then the coefficients (lowest degree first) as hex floats.
import sys

import mpmath as mp

mp.mp.dps = 60


def x_of_w(w):  # w = -log(1 - x^2)
    return mp.sqrt(-mp.expm1(-w))


def g_body(v, c):  # erf_inv(x) / x as a function of v = w - c
    w = v + c
    if w == 0:
        return mp.sqrt(mp.pi) / 2
    x = x_of_w(w)
    return mp.erfinv(x) / x


def g_tail(v, c):  # erf_inv(x) as a function of v = sqrt(w) - c
    s = v + c
    return mp.erfinv(x_of_w(s * s))


def cheb_fit(F, lo, hi, n):  # interpolant at n+1 Chebyshev nodes, monomials in v
    m, h = (lo + hi) / 2, (hi - lo) / 2
    nodes = [m + h * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
    A = mp.matrix([[((t - m) / h) ** j for j in range(n + 1)] for t in nodes])
    cs = mp.lu_solve(A, mp.matrix([F(t) for t in nodes]))
    return [cs[j] / h**j for j in range(n + 1)]


def horner(cs, v):
    r = mp.mpf(0)
    for c in reversed(cs):
        r = r * v + c
    return r


def max_rel_err(F, cs, lo, hi, npts=400):
    return max(abs(horner(cs, v) / F(v) - 1) for v in (lo + (hi - lo) * k / npts for k in range(npts + 1)))


piece, n, lo_b, hi_b = sys.argv[1], int(sys.argv[2]), mp.mpf(sys.argv[3]), mp.mpf(sys.argv[4])
c = (lo_b + hi_b) / 2
assert mp.mpf(float(c)) == c, "the center must be a double, so v = w - c rounds once"
F = (lambda v: g_body(v, c)) if piece == "A" else (lambda v: g_tail(v, c))
cs = cheb_fit(F, lo_b - c, hi_b - c, n)
rc = [mp.mpf(float(x)) for x in cs]
print(f"center {float(c)!r}: exact {mp.nstr(max_rel_err(F, cs, lo_b - c, hi_b - c), 3)},"
      f" rounded {mp.nstr(max_rel_err(F, rc, lo_b - c, hi_b - c), 3)}")
print(", ".join(float(x).hex() for x in rc))
