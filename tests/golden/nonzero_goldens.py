# Prints what tests/test_nonzero_golden.cpp checks fj::nonzero, fj::flatnonzero and
# fj::argwhere against: JAX 0.10.2's indices and jaxpr text.
#   python tests/golden/nonzero_goldens.py > tests/golden/nonzero_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

nan = float("nan")
inputs = {
    "v": np.array([0.0, 1.5, 0.0, -2.0, nan, -0.0, 3.0], np.float32),
    "m": np.array([[0, 3, 0, 1], [2, 0, 0, 0], [0, 0, 5, 7]], np.int32),
    "b": np.array([[True, False, True], [False, False, True]]),
    "z": np.zeros((2, 3), np.float32),
    "t": np.ones((2, 2, 2), np.float32),
    "s1": np.array(2.5, np.float32),
    "s0": np.array(0.0, np.float32),
}
print_inputs(inputs)


def ints(a):
    return shape_and_values(a, int)


# Values: concrete (the count is the size), a size below and above the count, a fill value.
cases = {
    "nonzero_v": lambda: jnp.nonzero(inputs["v"]),
    "nonzero_m": lambda: jnp.nonzero(inputs["m"]),
    "nonzero_b": lambda: jnp.nonzero(inputs["b"]),
    "nonzero_z": lambda: jnp.nonzero(inputs["z"]),
    "nonzero_t": lambda: jnp.nonzero(inputs["t"]),
    "nonzero_m_size3": lambda: jnp.nonzero(inputs["m"], size=3),
    "nonzero_m_size7": lambda: jnp.nonzero(inputs["m"], size=7),
    "nonzero_m_size7_fill": lambda: jnp.nonzero(inputs["m"], size=7, fill_value=-1),
    "nonzero_v_size0": lambda: jnp.nonzero(inputs["v"], size=0),
    "flatnonzero_m": lambda: (jnp.flatnonzero(inputs["m"]),),
    "flatnonzero_b_size5_fill": lambda: (jnp.flatnonzero(inputs["b"], size=5, fill_value=9),),
    "argwhere_m": lambda: (jnp.argwhere(inputs["m"]),),
    "argwhere_v_size6_fill": lambda: (jnp.argwhere(inputs["v"], size=6, fill_value=-2),),
    "argwhere_b": lambda: (jnp.argwhere(inputs["b"]),),
    "argwhere_s1": lambda: (jnp.argwhere(inputs["s1"]),),
    "argwhere_s0": lambda: (jnp.argwhere(inputs["s0"]),),
    "argwhere_z": lambda: (jnp.argwhere(inputs["z"]),),
}
for name, f in cases.items():
    print(f"=== values {name}")
    for r in f():
        print(ints(r))

# jaxpr text under jit (a static size), f32 / i32 / bool operands.
f32, i32 = jnp.float32, jnp.int32
texts = {
    "nonzero_1d": (lambda x: jnp.nonzero(x, size=4), jnp.ones(6, f32)),
    "nonzero_2d_fill": (lambda x: jnp.nonzero(x, size=5, fill_value=-1), jnp.ones((2, 3), f32)),
    "nonzero_3d_bool": (lambda x: jnp.nonzero(x, size=3), jnp.ones((2, 2, 2), bool)),
    "nonzero_size0": (lambda x: jnp.nonzero(x, size=0), jnp.ones(4, f32)),
    "nonzero_empty": (lambda x: jnp.nonzero(x, size=3), jnp.ones((0, 2), f32)),
    "flatnonzero_2d": (lambda x: jnp.flatnonzero(x, size=3), jnp.ones((2, 3), i32)),
    "argwhere_1d": (lambda x: jnp.argwhere(x, size=2), jnp.ones(4, f32)),
    "argwhere_2d_bool": (lambda x: jnp.argwhere(x, size=3, fill_value=0), jnp.ones((2, 3), bool)),
    "argwhere_scalar": (lambda x: jnp.argwhere(x, size=2), jnp.ones((), f32)),
    "argwhere_size0": (lambda x: jnp.argwhere(x, size=0), jnp.ones((2, 3), f32)),
}
for name, (f, x) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(x))
