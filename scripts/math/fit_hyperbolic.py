# Fits the polynomials of include/fusejit/backend/llvm/math_hyperbolic.hpp (needs mpmath; about a
# minute):
#   python3 scripts/math/fit_hyperbolic.py sinh 32 4     # f32 sinh: P of 4 terms on x^2 in [0, 1]
#   python3 scripts/math/fit_hyperbolic.py sinh 64 8     # f64 sinh: 8 terms
#   python3 scripts/math/fit_hyperbolic.py cbrt 32 6     # cbrt(m) on [1, 2], 6 terms (starting guess)
#   python3 scripts/math/fit_hyperbolic.py cbrt 64 6
# Remez exchange on the error measure that matters (weighted minimax), in 60 digits. For f32
# the coefficients are rounded to float one at a time, lowest degree first, refitting the rest
# after each rounding; for f64 they are rounded to double at the end. Prints the max weighted
# error before and after rounding, then the coefficients (lowest degree first) as hex floats.
#
#   sinh: sinh x = x + x^3 P(x^2) for |x| < 1; P(z) ~ (sinh(sqrt z)/sqrt z - 1)/z, weight
#         z^(3/2)/sinh(sqrt z): the error of x^3 P relative to sinh x.
#   cbrt: P(m) ~ m^(1/3) on [1, 2], relative error: the starting point of the Newton steps.
import struct
import sys

import mpmath as mp

mp.mp.dps = 60


def to_f32(v):
    return mp.mpf(struct.unpack("f", struct.pack("f", float(v)))[0])


def horner(cs, z):
    r = mp.mpf(0)
    for c in reversed(cs):
        r = r * z + c
    return r


def remez(g, w, lo, hi, fixed, nfree, iters=30, grid=3000):
    """Minimax of w(z) * (P(z) - g(z)) on [lo, hi], P = sum_j c_j z^j; c_j for j < len(fixed) are
    given, the next nfree are fitted. Returns (coefficients, max |weighted error|)."""
    p0 = len(fixed)
    gf = lambda z: g(z) - horner(fixed, z)  # noqa: E731
    m = nfree + 1  # reference points
    ref = [(lo + hi) / 2 - (hi - lo) / 2 * mp.cos(mp.pi * i / (m - 1)) for i in range(m)]
    pts = [lo + (hi - lo) * (1 - mp.cos(mp.pi * i / grid)) / 2 for i in range(grid + 1)]
    best = None
    for _ in range(iters):
        A = mp.matrix(m, m)
        rhs = mp.matrix(m, 1)
        for i, z in enumerate(ref):
            for j in range(nfree):
                A[i, j] = z ** (p0 + j)
            A[i, nfree] = (-1) ** i / w(z)
            rhs[i] = gf(z)
        sol = mp.lu_solve(A, rhs)
        cs = list(fixed) + [sol[j] for j in range(nfree)]
        err = [w(z) * (horner(cs, z) - g(z)) for z in pts]
        emax = max(abs(e) for e in err)
        if best is None or emax < best[1]:
            best = (cs, emax)
        # New reference: the extremum of each run of equal sign, then the m largest adjacent ones.
        ext = []
        i = 0
        while i < len(pts):
            j = i
            k = i
            while j < len(pts) and (err[j] >= 0) == (err[i] >= 0):
                if abs(err[j]) > abs(err[k]):
                    k = j
                j += 1
            ext.append(k)
            i = j
        while len(ext) > m:  # drop the smaller end, keeping alternation
            if abs(err[ext[0]]) < abs(err[ext[-1]]):
                ext.pop(0)
            else:
                ext.pop()
        if len(ext) < m:
            break
        ref = [pts[k] for k in ext]
    return best


def fit(g, w, lo, hi, n, f32):
    cs, e = remez(g, w, lo, hi, [], n)
    print(f"exact: max weighted error {mp.nstr(e, 3)}")
    if f32:
        fixed = []
        for j in range(n):
            cs, e = remez(g, w, lo, hi, fixed, n - j) if j < n - 1 else (fixed + [cs[j]], e)
            fixed.append(to_f32(cs[j]))
        cs = fixed
    else:
        cs = [mp.mpf(float(c)) for c in cs]
    pts = [lo + (hi - lo) * i / 20000 for i in range(20001)]
    er = max(abs(w(z) * (horner(cs, z) - g(z))) for z in pts)
    print(f"rounded: max weighted error {mp.nstr(er, 3)}")
    def fmt(c):
        h = float(c).hex()
        if not f32:
            return h
        mant, exp = h.split("p")
        return mant.rstrip("0").rstrip(".") + "p" + exp

    print(", ".join(fmt(c) for c in cs))


def sinh_g(z):
    if z == 0:
        return mp.mpf(1) / 6
    s = mp.sqrt(z)
    return (mp.sinh(s) / s - 1) / z


def sinh_w(z):
    if z == 0:
        return mp.mpf(0)
    s = mp.sqrt(z)
    return z * s / mp.sinh(s)


which, bits, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if which == "sinh":
    fit(sinh_g, sinh_w, mp.mpf("1e-30"), mp.mpf(1), n, bits == 32)
elif which == "cbrt":
    fit(lambda m: mp.cbrt(m), lambda m: 1 / mp.cbrt(m), mp.mpf(1), mp.mpf(2), n, bits == 32)
