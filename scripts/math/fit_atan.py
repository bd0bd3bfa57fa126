# Fits the polynomials of include/fusejit/backend/llvm/math_inverse_trig.hpp (needs mpmath;
# about a minute per fit):
#   python3 scripts/math/fit_atan.py atan f64 20     # atan t = t + t^3 P(t^2), t in [0, 1]
#   python3 scripts/math/fit_atan.py asin f32 6      # asin s = s + s^3 P(s^2), s in [0, 1/2]
# Minimax in z = t^2, weighted for the relative error of atan t / asin s (what both the direct
# results and the pi/2 - ... forms need); prints that error after rounding the coefficients to the
# format (scripts/math/remez.py), then the coefficients (lowest degree first) as hex floats.
import sys

import mpmath as mp

from remez import fit, hexf

mp.mp.dps = 50


def g_atan(z):  # (atan s - s) / s^3, s = sqrt z: -1/3 + z/5 - z^2/7 + ...
    if z < mp.mpf("1e-12"):
        return sum((-1) ** (k + 1) * z**k / (2 * k + 3) for k in range(6))
    s = mp.sqrt(z)
    return (mp.atan(s) - s) / (s * z)


def g_asin(z):  # (asin s - s) / s^3: 1/6 + 3z/40 + 15z^2/336 + ...
    if z < mp.mpf("1e-12"):
        return mp.mpf(1) / 6 + 3 * z / 40 + 15 * z**2 / 336 + 35 * z**3 / 1152
    s = mp.sqrt(z)
    return (mp.asin(s) - s) / (s * z)


# Relative error of s + s^3 P: s^3 (P - g) / f(s). z >= 2^-20: below, the weight (~z) makes any
# bounded error of P negligible.
FNS = {
    "atan": (g_atan, lambda z: z * mp.sqrt(z) / mp.atan(mp.sqrt(z)), mp.mpf(2) ** -20, mp.mpf(1)),
    "asin": (g_asin, lambda z: z * mp.sqrt(z) / mp.asin(mp.sqrt(z)), mp.mpf(2) ** -20,
             mp.mpf("0.2501")),
}

if __name__ == "__main__":
    name, fmt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    g, w, lo, hi = FNS[name]
    cs, err = fit(g, w, lo, hi, n, fmt)
    print(f"{name} {fmt} {n} terms on z in [{mp.nstr(lo, 3)}, {mp.nstr(hi, 4)}]: "
          f"relative error {mp.nstr(err, 3)}")
    print(", ".join(hexf(c, fmt) for c in cs))
