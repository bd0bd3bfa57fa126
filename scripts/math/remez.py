# A small weighted minimax (Remez exchange) fitter in mpmath for the math library's polynomials,
# with the f32 / f64 coefficient rounding of docs/MATH.md: each coefficient is rounded to the
# format in turn, lowest degree first, and the ones above it are refitted to what is left.
#   fit(g, w, lo, hi, n, fmt) -> (coefficients as floats, max weighted error after rounding)
# g(z): the function the polynomial c0 + c1 z + ... + c(n-1) z^(n-1) approximates on [lo, hi];
# w(z): the weight (the error measured is w(z) * (g(z) - p(z))).
import struct

import mpmath as mp

mp.mp.dps = 50


def round_to(v, fmt):
    d = float(v)
    if fmt == "f32":
        d = struct.unpack("f", struct.pack("f", d))[0]
    return mp.mpf(d)


def _grid(lo, hi, m):  # Chebyshev-clustered sample points, ends included
    return [lo + (hi - lo) * (1 - mp.cos(mp.pi * k / m)) / 2 for k in range(m + 1)]


def _horner(cs, z):
    r = mp.mpf(0)
    for c in reversed(cs):
        r = r * z + c
    return r


def _remez(g, w, lo, hi, powers, iters=30, m=1500):
    """Minimax sum_j c_j z^powers[j] for g with weight w; returns the coefficients."""
    k = len(powers)
    ref = [lo + (hi - lo) * (1 - mp.cos(mp.pi * i / k)) / 2 for i in range(k + 1)]
    grid = _grid(lo, hi, m)
    gv = [g(z) for z in grid]
    wv = [w(z) for z in grid]
    pw = [[z**p for p in powers] for z in grid]
    cs = None
    for _ in range(iters):
        A = mp.matrix(k + 1, k + 1)
        rhs = mp.matrix(k + 1, 1)
        for i, z in enumerate(ref):
            for j, p in enumerate(powers):
                A[i, j] = z**p
            A[i, k] = (-1) ** i / w(z)
            rhs[i] = g(z)
        sol = mp.lu_solve(A, rhs)
        cs = [sol[j] for j in range(k)]
        E = abs(sol[k])
        err = [wv[i] * (gv[i] - mp.fdot(cs, pw[i])) for i in range(len(grid))]
        # local extrema of the error (ends included), then one per run of equal sign
        ext = [i for i in range(len(grid))
               if (i == 0 or abs(err[i]) >= abs(err[i - 1]))
               and (i == len(grid) - 1 or abs(err[i]) >= abs(err[i + 1]))]
        runs = []
        for i in ext:
            if runs and (err[i] > 0) == (err[runs[-1]] > 0):
                if abs(err[i]) > abs(err[runs[-1]]):
                    runs[-1] = i
            else:
                runs.append(i)
        while len(runs) > k + 1:  # drop the smaller end
            if abs(err[runs[0]]) < abs(err[runs[-1]]):
                runs.pop(0)
            else:
                runs.pop()
        emax = max(abs(e) for e in err)
        if len(runs) < k + 1:
            break
        ref = [grid[i] for i in runs]
        if emax <= E * (1 + mp.mpf("1e-4")):
            break
    return cs


def max_err(g, w, lo, hi, cs, m=20000):
    return max(abs(w(z) * (g(z) - _horner(cs, z))) for z in _grid(lo, hi, m))


def fit(g, w, lo, hi, n, fmt, fixed0=None):
    """n coefficients; fixed0: an exact value for c0 (e.g. 1/2), or None to fit it."""
    done = []
    if fixed0 is not None:
        done.append(mp.mpf(fixed0))
    while len(done) < n:
        d = len(done)
        rest = lambda z, d=d: g(z) - sum(c * z**j for j, c in enumerate(done))
        cs = _remez(rest, w, lo, hi, list(range(d, n)))
        done.append(round_to(cs[0], fmt))
    return [float(c) for c in done], max_err(g, w, lo, hi, done)


def hexf(v, fmt):
    """Hex literal, f32 values written with at most 24 significant bits (exact in float)."""
    if v == 0:
        return "0.0"
    h = float(v).hex()  # like 0x1.5555560000000p-2
    sign = "-" if h.startswith("-") else ""
    mant, exp = h.lstrip("-")[4:].split("p")
    mant = mant.rstrip("0")
    return f"{sign}0x1{'.' + mant if mant else ''}p{exp}"
