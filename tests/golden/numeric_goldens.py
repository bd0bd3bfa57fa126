# Prints what tests/test_numeric_golden.cpp checks fj::diff, fj::ptp, fj::isclose, fj::allclose
# and fj::bincount against: JAX 0.10.2's values (f64, exact: these subtract, compare and count)
# and jaxpr text (f32).
#   python tests/golden/numeric_goldens.py > tests/golden/numeric_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
nan, inf = float("nan"), float("inf")
inputs = {
    "m": np.array([[1.0, 4.0, 9.0, 16.0, 25.0], [2.0, -1.0, 0.5, 8.0, 3.0],
                   [0.0, 0.0, 7.0, -2.0, 1.0]]),
    "v": np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]),
    "p": np.array([1.0, 1.0 + 1e-6, nan, inf, -inf, 1e-9, 100.0]),
    "q": np.array([1.0, 1.0, nan, inf, inf, 0.0, 100.001]),
    "i": np.array([1, 3, 3, 0, 7, 3, -2]),
    "w": np.array([0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0]),
}
print_inputs(inputs)


def show(a):
    return shape_and_values(a, float)


m, v, p, q, i, w = (jnp.asarray(inputs[k]) for k in "mvpqiw")
values = {
    "diff_m": jnp.diff(m),
    "diff_m_n2_axis0": jnp.diff(m, n=2, axis=0),
    "diff_v_n3": jnp.diff(v, n=3),
    "diff_v_n0": jnp.diff(v, n=0),
    "diff_bool": jnp.diff(m > 2.0),
    "ptp_m": jnp.ptp(m),
    "ptp_m_axis0": jnp.ptp(m, axis=0),
    "ptp_m_axis1_keepdims": jnp.ptp(m, axis=1, keepdims=True),
    "isclose_pq": jnp.isclose(p, q),
    "isclose_pq_nan": jnp.isclose(p, q, equal_nan=True),
    "isclose_pq_tol": jnp.isclose(p, q, rtol=0.0, atol=1e-3),
    "allclose_pq": jnp.allclose(p, q),
    "allclose_vv": jnp.allclose(v, v + 1e-9),
    "bincount_i": jnp.bincount(jnp.clip(i, 0), length=9),
    "bincount_i_w": jnp.bincount(jnp.clip(i, 0), w, length=6),
    "bincount_i_short": jnp.bincount(jnp.clip(i, 0), length=4),
    "bincount_concrete": jnp.bincount(jnp.clip(i, 0)),
    "bincount_minlength": jnp.bincount(jnp.clip(i, 0), minlength=10),
}
for name, r in values.items():
    print(f"=== values {name}")
    print(show(r))

jax.config.update("jax_enable_x64", False)
f32, i32 = jnp.float32, jnp.int32
texts = {
    "diff": (lambda x: jnp.diff(x), (jnp.ones((3, 5), f32),)),
    "diff_n2_axis0": (lambda x: jnp.diff(x, n=2, axis=0), (jnp.ones((4, 3), f32),)),
    "diff_n0": (lambda x: jnp.diff(x, n=0), (jnp.ones(3, f32),)),
    "diff_bool": (lambda x: jnp.diff(x), (jnp.ones(4, bool),)),
    "ptp": (lambda x: jnp.ptp(x), (jnp.ones((3, 4), i32),)),
    "ptp_axis1_keepdims": (lambda x: jnp.ptp(x, axis=1, keepdims=True), (jnp.ones((3, 4), f32),)),
    "isclose": (lambda x, y: jnp.isclose(x, y), (jnp.ones(3, f32), jnp.ones(3, f32))),
    "isclose_tol_nan": (lambda x, y: jnp.isclose(x, y, rtol=0.1, atol=0.0, equal_nan=True),
                        (jnp.ones(3, f32), jnp.ones((2, 3), f32))),
    "isclose_rtol": (lambda x, y: jnp.isclose(x, y, rtol=0.5), (jnp.ones(3, f32), jnp.ones(3, f32))),
    "isclose_int": (lambda x, y: jnp.isclose(x, y), (jnp.ones(3, i32), jnp.ones(3, f32))),
    "allclose": (lambda x, y: jnp.allclose(x, y), (jnp.ones((2, 3), f32), jnp.ones((2, 3), f32))),
    "bincount": (lambda x: jnp.bincount(x, length=5), (jnp.ones(6, i32),)),
    "bincount_weights": (lambda x, w: jnp.bincount(x, w, length=4),
                         (jnp.ones(6, i32), jnp.ones(6, f32))),
}
for name, (f, args) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))
