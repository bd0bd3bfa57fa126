# Prints what tests/test_x64.cpp checks fj's x64 mode against: JAX 0.10.2's make_jaxpr text of
# the same programs with jax_enable_x64 on (default ints int64, default floats float64), and
# the dtypes of jnp's factories and random functions without a dtype.
#   python tests/golden/x64_goldens.py > tests/golden/x64_goldens.txt
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)


def f64(*shape):
    return jnp.ones(shape, jnp.float64)


programs = {
    # The int32 differences fusejit's float64 text had without x64 (docs/jax-differences.md):
    # eye's and diagonal's iotas, count_nonzero's sums and the sign's arithmetic.
    "det_4x4": (jnp.linalg.det, (f64(4, 4),)),
    "slogdet_4x4": (jnp.linalg.slogdet, (f64(4, 4),)),
    "slogdet_3x4x4_batched": (jnp.linalg.slogdet, (f64(2, 3, 4, 4),)),
    "inv_3x3": (jnp.linalg.inv, (f64(3, 3),)),
    "jvp_det_4x4": (lambda a, t: jax.jvp(jnp.linalg.det, (a,), (t,)), (f64(4, 4), f64(4, 4))),
    "grad_det_4x4": (jax.grad(jnp.linalg.det), (f64(4, 4),)),
    "quantile": (lambda x: jnp.quantile(x, 0.3), (f64(5),)),
    "roll": (lambda x, s: jnp.roll(x, s), (f64(5), 2)),
    # Index dtypes: iota, argmax/argmin, argsort, counts, nonzero, cumsum of bools.
    "argmax": (lambda x: jnp.argmax(x, axis=1), (f64(3, 4),)),
    "argmin_f32": (jnp.argmin, (jnp.ones((2, 3), jnp.float32),)),
    "eye": (lambda x: x + jnp.eye(3), (f64(3, 3),)),
    "tril": (jnp.tril, (f64(3, 3),)),
    "argsort": (jnp.argsort, (f64(5),)),
    "nonzero": (lambda x: jnp.nonzero(x > 0.5, size=3), (f64(5),)),
    "sum_bool": (lambda x: jnp.sum(x > 0.5), (f64(5),)),
    "sum_int32": (jnp.sum, (jnp.ones(5, jnp.int32),)),
    "cumsum_bool": (lambda x: jnp.cumsum(x > 0.5), (f64(5),)),
    "bincount": (lambda x: jnp.bincount(x, length=4), (jnp.ones(3, jnp.int32),)),
    # Weak scalars take the 64-bit defaults.
    "int32_times_float": (lambda x: x * 2.0, (jnp.ones(3, jnp.int32),)),
    "bool_plus_int": (lambda x: x + 1, (jnp.ones(3, jnp.bool_),)),
    "f64_weak": (lambda x: x * 2 + 1.5, (f64(3),)),
    "scalar_arg": (lambda s: s * 3, (2.0,)),
    "fori_loop": (lambda x: lax.fori_loop(0, 3, lambda i, c: c + i, x), (f64(3),)),
}
for name, (f, args) in programs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))

key = jax.random.PRNGKey(0)
dtypes = {
    "zeros": jnp.zeros(3).dtype,
    "ones": jnp.ones(3).dtype,
    "full": jnp.full(3, 1.5).dtype,
    "eye": jnp.eye(2).dtype,
    "linspace": jnp.linspace(0, 1, 3).dtype,
    "arange_int": jnp.arange(3).dtype,
    "arange_float": jnp.arange(3.0).dtype,
    "uniform": jax.random.uniform(key, (3,)).dtype,
    "normal": jax.random.normal(key, (3,)).dtype,
}
# float64 draws (JAX's x64 default): 64 bits per value for uniform, erf_inv of them for normal.
print("=== uniform")
print(" ".join(repr(float(v)) for v in jax.random.uniform(key, (6,))))
print("=== normal")
print(" ".join(repr(float(v)) for v in jax.random.normal(key, (6,))))
print("=== dtypes")
print(" ".join(f"{k}={v}" for k, v in dtypes.items()))
