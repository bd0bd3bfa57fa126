# Prints what tests/test_math_golden.cpp checks issue 19's elementwise functions against: JAX
# 0.10.2's jaxpr text (f32), its f64 values and gradients on fixed inputs, mpmath's values on the
# same inputs (128 bits, rounded to double) and how far JAX's are from them, in ulps:
#   python tests/golden/math_goldens.py > tests/golden/math_goldens.txt
# Needs jax==0.10.2 and mpmath.
import jax
import jax.numpy as jnp
import mpmath as mp
import numpy as np
from jax import lax
from jax.scipy import special

jax.config.update("jax_enable_x64", True)
mp.mp.prec = 128

inf, nan = float("inf"), float("nan")
unary = {
    # name: (jnp function, mpmath reference or None, inputs)
    "arcsin": (jnp.arcsin, mp.asin, [-1, -0.7, -1e-8, -0.0, 0.0, 0.3, 0.5, 0.99, 1, 1.5, nan]),
    "arccos": (jnp.arccos, mp.acos, [-1, -0.7, -1e-8, 0.0, 0.3, 0.5, 0.99, 1, -2, nan]),
    "arctan": (jnp.arctan, mp.atan, [-inf, -1e10, -2, -1e-8, -0.0, 0.0, 0.4, 1, 3, 1e300, inf, nan]),
    "sinh": (jnp.sinh, mp.sinh, [-710, -20, -1, -1e-8, -0.0, 0.0, 0.3, 1, 5, 88, 700, 711, inf, nan]),
    "cosh": (jnp.cosh, mp.cosh, [-710, -20, -1, -1e-8, 0.0, 0.3, 1, 5, 88, 700, 711, inf, nan]),
    "arcsinh": (jnp.arcsinh, mp.asinh, [-1e300, -20, -1, -1e-8, -0.0, 0.0, 0.3, 1, 5, 1e10, inf, nan]),
    "arccosh": (jnp.arccosh, mp.acosh, [0.5, 1, 1.0000001, 1.5, 2, 10, 1e10, 1e300, inf, nan]),
    "arctanh": (jnp.arctanh, mp.atanh, [-1, -0.99, -0.5, -1e-8, -0.0, 0.0, 0.3, 0.9, 1, 2, nan]),
    "cbrt": (jnp.cbrt, lambda v: mp.sign(v) * mp.cbrt(abs(v)), [-inf, -27, -2, -1e-300, -0.0, 0.0, 1e-310, 0.001, 2, 8, 1e300, inf, nan]),
    "exp2": (jnp.exp2, lambda v: mp.mpf(2) ** v, [-1080, -1074, -1022.5, -10, -0.5, -0.0, 0.0, 0.3, 3, 10.5, 1023.9, 1024, inf, -inf, nan]),
    "log2": (jnp.log2, lambda v: mp.log(v, 2), [0.0, 1e-310, 0.1, 1, 2, 3, 1024, 1e300, inf, -1, nan]),
    "log10": (jnp.log10, mp.log10, [0.0, 1e-310, 0.1, 1, 2, 10, 1000, 1e300, inf, -1, nan]),
    "erfc": (special.erfc, mp.erfc, [-inf, -6, -1, -0.3, 0.0, 0.3, 0.7, 1, 2.5, 5, 10, 26, 27.3, inf, nan]),
    "lgamma": (special.gammaln, lambda v: mp.log(abs(mp.gamma(v))), [-inf, -2.5, -1.5, -0.5, -1e-8, 0.0, 1e-8, 0.5, 1, 1.5, 2, 3, 10.5, 100, 1e10, 1e300, inf, nan]),
    "digamma": (special.digamma, mp.digamma, [-2.5, -1.5, -0.5, -1e-8, 1e-8, 0.5, 1, 1.4616321449683622, 2, 3, 10.5, 100, 1e10, inf, nan]),
    # polygamma of a literal order, as digamma's derivative stages it; fusejit sums the Hurwitz
    # zeta as XLA does, so both lose accuracy below x = -3 and are not polygamma below -9.
    "polygamma1": (lambda x: lax.polygamma(1.0, x), lambda v: mp.polygamma(1, v), [-3.3, -2.5, -0.5, -1e-8, 1e-8, 0.1, 0.5, 1, 1.5, 2.5, 10.5, 100, 1e5, 1e10, -2.0, 0.0, -inf, inf, nan]),
    "polygamma2": (lambda x: lax.polygamma(2.0, x), lambda v: mp.polygamma(2, v), [-2.7, -0.3, 1e-3, 0.25, 1, 3.5, 40, 1e4, -1.0, 0.0, inf, nan]),
    # The scaled Bessel functions (Cephes' Chebyshev series in XLA and fusejit) and jnp.i0 (a
    # custom_jvp around exp(|x|) bessel_i0e(|x|)), across both series' ranges (|x| <= 8 and past).
    "i0e": (special.i0e, lambda v: mp.besseli(0, v) * mp.exp(-abs(v)), [-inf, -30, -8, -1.5, -1e-8, -0.0, 0.0, 1e-300, 0.5, 2, 7.99, 8, 8.01, 20, 700, 1e10, inf, nan]),
    "i1e": (special.i1e, lambda v: mp.besseli(1, v) * mp.exp(-abs(v)), [-inf, -30, -8, -1.5, -1e-8, -0.0, 0.0, 1e-300, 0.5, 2, 7.99, 8, 8.01, 20, 700, 1e10, inf, nan]),
    "i0": (jnp.i0, lambda v: mp.besseli(0, v), [-700, -8, -1.5, -1e-8, 0.0, 0.5, 2, 8.5, 20, 700, inf, nan]),
    "i1": (special.i1, lambda v: mp.besseli(1, v), [-700, -8, -1.5, -1e-8, 0.0, 0.5, 2, 8.5, 20, 700, inf, nan]),
    "trunc": (jnp.trunc, None, [-inf, -2.5, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.7, 1e300, inf, nan]),
    "rint": (jnp.rint, None, [-inf, -2.5, -1.5, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 2.7, 1e300, inf, nan]),
    "square": (jnp.square, None, [-inf, -3, -0.5, 0.0, 1.5, 1e200, inf, nan]),
    "reciprocal": (jnp.reciprocal, None, [-inf, -4, -0.0, 0.0, 0.5, 3, 1e-310, inf, nan]),
}
# Points where XLA's algorithm is within 32 ulps of the exact value: at a = x = 20 or 30 it is 80
# to 200 ulps off (lgamma(a) and a log x are large, and their roundings are relative to them),
# and igammac(1e-3, 1e-3) = 1 - P loses 1 460 ulps to cancellation (docs/MATH.md, "igamma").
igamma_points = [(0.5, 0.2), (1, 1), (2.5, 3), (10, 12), (3, 0.5), (0.1, 5), (5, 30), (4, 1.5), (0.0, 1),
                 (-1, 1), (2, -1), (2, 0.0), (2, inf), (nan, 1), (1, nan)]


def in_domain(f, a_min_open=False):
    # mpmath continues P and Q to a < 0 and x < 0, where XLA's are NaN.
    return lambda a, x: mp.nan if a < 0 or x < 0 or (a_min_open and a <= 0) else f(a, x)

binary = {
    "arctan2": (jnp.arctan2, mp.atan2, [(0.0, -0.0), (-0.0, -0.0), (0.0, 0.0), (-0.0, 0.0), (1, 0.0), (-1, 0.0),
                                        (inf, inf), (inf, -inf), (-inf, inf), (-inf, -inf), (1, -inf), (-1, inf),
                                        (1, 2), (-3, -4), (1e-300, 1e300), (nan, 1), (2.5, -0.5)]),
    "hypot": (jnp.hypot, lambda a, b: mp.sqrt(a * a + b * b), [(3, 4), (0.0, 0.0), (-0.0, 5), (1e300, 1e300), (1e-300, 2e-300),
                                                              (inf, nan), (nan, -inf), (nan, 1), (-2, 1e-20)]),
    "logaddexp": (jnp.logaddexp, lambda a, b: mp.log(mp.exp(a) + mp.exp(b)), [(0.0, 0.0), (1, 2), (-1000, -1000), (1000, 999), (-inf, -inf),
                                                                       (inf, inf), (-inf, 3), (inf, -inf), (nan, 1), (-745, 2)]),
    "logaddexp2": (jnp.logaddexp2, lambda a, b: mp.log(mp.mpf(2) ** a + mp.mpf(2) ** b, 2), [(0.0, 0.0), (1, 2), (-1000, -1000), (1000, 999),
                                                                                      (-inf, -inf), (inf, inf), (-inf, 3), (nan, 1)]),
    "copysign": (jnp.copysign, None, [(1, -0.0), (-2, 0.0), (3, -5), (-0.0, 1), (inf, -1), (nan, -1), (1, nan)]),
    "fmod": (jnp.fmod, None, [(5.5, 2), (-5.5, 2), (5.5, -2), (1e300, 3), (1, 0.0), (inf, 2), (2, inf), (-0.0, 3)]),
    "rem": (lax.rem, None, [(5.5, 2), (-5.5, 2), (5.5, -2), (1e300, 3), (1, 0.0), (inf, 2), (2, inf), (-0.0, 3)]),
    "polygamma": (lax.polygamma, lambda m, v: mp.polygamma(int(m), v) if m == int(m) and m >= 0 else mp.nan,
                  [(0, 1.5), (0, -0.5), (1, 0.1), (1, 3.3), (2, 0.7), (3, 0.7), (3, 7.9), (3, -1.5), (4, 1e-3), (5, 2.5), (6, 50),
                   (12, 0.5), (25, 100), (0.5, 1), (-1, 1), (1, -2.0), (2, -3.0), (3, -inf), (nan, 1), (2, nan)]),
    # The Hurwitz zeta: XLA's sum (fusejit's too), its domain errors and poles; q below -9 is
    # left out, where the sum is not zeta's (docs/MATH.md, "polygamma").
    # lax.zeta, the primitive (jax.scipy.special.zeta wraps it in a custom_jvp). mpmath continues
    # zeta below x = 1 and to fractional x at q < 0, where XLA's is NaN; q = -2.5 with x = 3 is
    # left out, where the sum cancels (JAX is 55 ulps off there).
    "zeta": (lax.zeta, lambda a, q: mp.nan if a < 1 or (q <= 0 and a != int(a)) else mp.zeta(a, q),
             [(2, 1), (2, 0.5), (3, 2), (1.5, 0.25), (4.5, 10), (30, 1), (2, 1e5), (1.0001, 1), (60, 0.9),
              (2, -0.5), (1, 1), (0.5, 1), (2.5, -1.5), (2, 0.0), (2, -3.0), (3, -3.0), (nan, 1), (2, nan), (2, inf)]),
    # The incomplete gamma family (lax's primitives; jax.scipy.special.gammainc and gammaincc
    # are igamma and igammac). The x^a e^-x / Gamma(a) factor carries lgamma's and log's
    # rounding, about eps (|a log x| + x + |lgamma(a)|) relative, so the points keep a and x
    # below 30 (see the bounds in test_math_golden.cpp).
    "igamma": (lax.igamma, in_domain(lambda a, x: mp.gammainc(a, 0, x, regularized=True)), igamma_points),
    "igammac": (lax.igammac, in_domain(lambda a, x: mp.gammainc(a, x, mp.inf, regularized=True)), igamma_points),
    "igamma_grad_a": (lax.igamma_grad_a, in_domain(lambda a, x: mp.diff(
        lambda t: mp.gammainc(t, 0, x, regularized=True), a), True), igamma_points),
    "random_gamma_grad": (lax.random_gamma_grad, in_domain(lambda a, x: -mp.diff(
        lambda t: mp.gammainc(t, 0, x, regularized=True), a) / (x ** (a - 1) * mp.exp(-x) / mp.gamma(a)), True),
        igamma_points),
    "nextafter": (jnp.nextafter, None, [(0.0, 1), (0.0, -1), (-0.0, 0.0), (1, 2), (1, 0.0), (-1, -2), (inf, 0.0), (1.7976931348623157e308, inf), (nan, 1), (1, nan), (5e-324, 0.0)]),
}
predicates = {
    "isnan": jnp.isnan, "isinf": jnp.isinf, "isfinite": jnp.isfinite, "signbit": jnp.signbit,
}
pred_inputs = [-inf, -1.5, -0.0, 0.0, 2, inf, nan, -nan]


def hexs(vals):
    # float.hex drops a NaN's sign, which signbit reads
    return " ".join(("-nan" if np.signbit(v) else "nan") if np.isnan(v) else float(v).hex()
                    for v in vals)


def ulps(got, want):
    # the error of a double result in ulps of the exact value (0 for matching specials)
    if mp.isnan(want) or want is None:
        return 0.0
    g = mp.mpf(float(got))
    if mp.isinf(want) or abs(want) > mp.mpf(1.7976931348623157e308):
        return 0.0 if (mp.isinf(g) and mp.sign(g) == mp.sign(want)) else 1e30
    if want == 0:
        return 0.0 if g == 0 else 1e30
    e = int(mp.floor(mp.log(abs(want), 2)))
    ulp = mp.mpf(2) ** max(e - 52, -1074)
    return float(abs(g - want) / ulp)


def jax_ulps(o, r):
    if np.isnan(r):
        return 0.0 if np.isnan(o) else 1e30
    if np.isinf(r):
        return 0.0 if o == r else 1e30
    return ulps(o, mp.mpf(r))


def reference(ref, args, jax_value, plain_first=False):
    # mpmath's value rounded to double; JAX's own where a special value (zero, inf, NaN) is an
    # operand, since those are the semantics being checked (mpmath has no signed zero). An order
    # of 0 (polygamma's first operand: plain_first) is no special value.
    if ref is None or any(np.isnan(a) or np.isinf(a) or (a == 0 and not (plain_first and i == 0))
                          for i, a in enumerate(args)):
        return float(jax_value)
    try:
        want = ref(*[mp.mpf(a) for a in args])
    except (ValueError, ZeroDivisionError):
        return float(jax_value)
    if isinstance(want, mp.mpc):
        return nan
    return float(want)  # rounds to nearest, overflowing to inf


def print_values(name, ins, out, ref):
    refs = [reference(ref, args, o, name == "polygamma") for args, o in zip(zip(*ins), out)]
    print(f"=== values {name}")
    for col in ins:
        print(hexs(col))
    print(hexs(out))  # JAX
    print(hexs(refs))  # mpmath, or JAX at special values
    # JAX's error in ulps against mpmath per input (0 where the reference is JAX's own value).
    print(" ".join(f"{jax_ulps(o, r):.3g}" for o, r in zip(out, refs)))


for name, (f, ref, xs) in unary.items():
    x = np.array(xs, np.float64)
    print_values(name, [x], np.asarray(jax.jit(f)(x)), ref)
for name, (f, ref, pairs) in binary.items():
    a = np.array([p[0] for p in pairs], np.float64)
    b = np.array([p[1] for p in pairs], np.float64)
    print_values(name, [a, b], np.asarray(jax.jit(f)(a, b)), ref)
for name, f in predicates.items():
    x = np.array(pred_inputs, np.float64)
    print(f"=== values {name}")
    print(hexs(x))
    print(" ".join(str(int(v)) for v in np.asarray(f(x))))

# Gradients in f64 at interior points, elementwise through vmap(grad).
grad_points = {
    "arcsin": [-0.7, 0.1, 0.5], "arccos": [-0.7, 0.1, 0.5], "arctan": [-2, 0.1, 3],
    "sinh": [-2, 0.1, 3], "cosh": [-2, 0.1, 3], "arcsinh": [-2, 0.1, 3], "arccosh": [1.5, 2, 10],
    "arctanh": [-0.7, 0.1, 0.5], "cbrt": [-8, 0.1, 3], "exp2": [-2, 0.1, 3], "log2": [0.5, 2, 10],
    "log10": [0.5, 2, 10], "erfc": [-1, 0.1, 2], "lgamma": [-1.5, 0.5, 3.5], "square": [-2, 0.1, 3],
    "reciprocal": [-2, 0.1, 3],
    "digamma": [-0.5, 0.7, 4], "polygamma1": [-0.5, 0.7, 4], "polygamma2": [-1.5, 0.7, 4],
    # i1e's rule at 0 (its limit 1/2) and i0's custom rule at 0 (0) among them.
    "i0e": [-3, 0.0, 0.5, 9], "i1e": [-3, 0.0, 0.5, 9], "i0": [-3, 0.0, 0.5, 9], "i1": [-3, 0.5, 9],
}
for name, xs in grad_points.items():
    f = unary[name][0]
    g = jax.vmap(jax.grad(f))(np.array(xs, np.float64))
    print(f"=== grad {name}")
    print(hexs(xs))
    print(hexs(np.asarray(g)))
for name, pairs in {"arctan2": [(1, 2), (-3, 0.5)], "hypot": [(3, 4), (-1, 2)],
                    "igamma": [(2.5, 3), (3, 0.5), (0.5, 2)], "igammac": [(2.5, 3), (3, 0.5), (0.5, 2)],
                    "logaddexp": [(1, 2), (-3, 0.5)], "logaddexp2": [(1, 2), (-3, 0.5)]}.items():
    f = binary[name][0]
    a = np.array([p[0] for p in pairs], np.float64)
    b = np.array([p[1] for p in pairs], np.float64)
    ga, gb = jax.vmap(jax.grad(f, argnums=(0, 1)))(a, b)
    print(f"=== grad {name}")
    print(hexs(a))
    print(hexs(b))
    print(hexs(np.asarray(ga)))
    print(hexs(np.asarray(gb)))

# jaxpr text, f32 (and int32 where JAX promotes or branches on integers).
jax.config.update("jax_enable_x64", False)
x = jnp.ones(3, jnp.float32)
i = jnp.ones(3, jnp.int32)
jaxprs = {name: (f, (x,)) for name, (f, _, _) in unary.items()}
# lax.random_gamma_grad is a function in JAX, not a primitive: its jaxpr is the loops' program,
# where fusejit stages one equation of its own (docs/MATH.md, "igamma").
jaxprs.update({name: (f, (x, x)) for name, (f, _, _) in binary.items() if name != "random_gamma_grad"})
jaxprs.update({name: (f, (x,)) for name, f in predicates.items()})
jaxprs.update({
    "arcsin_int": (jnp.arcsin, (i,)), "trunc_int": (jnp.trunc, (i,)), "rint_int": (jnp.rint, (i,)),
    "isinf_int": (jnp.isinf, (i,)), "isfinite_int": (jnp.isfinite, (i,)), "signbit_int": (jnp.signbit, (i,)),
    "fmod_int": (jnp.fmod, (i, i)), "copysign_int": (jnp.copysign, (i, i)), "square_int": (jnp.square, (i,)),
    "reciprocal_int": (jnp.reciprocal, (i,)), "population_count": (lax.population_count, (i,)),
    "clz": (lax.clz, (i,)), "is_finite": (lax.is_finite, (x,)),
})
for name, (f, args) in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))
