# Prints what tests/test_quantile_golden.cpp checks fj::quantile, fj::percentile, fj::median and
# their nan-ignoring forms against: JAX 0.10.2's values and gradients (f64) and jaxpr text (f32).
#   python tests/golden/quantile_goldens.py > tests/golden/quantile_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
nan = float("nan")
inputs = {
    "m": np.array([[3.0, -1.0, 4.0, 1.5, 9.0], [2.0, 6.0, -5.0, 3.5, 8.0],
                   [0.25, 7.0, 8.5, -3.0, 2.5]]),
    "t": np.sin(0.37 * np.arange(24.0) + 0.1).reshape(2, 3, 4),
    "n": np.array([[3.0, nan, 4.0, 1.5, 9.0], [nan, nan, nan, nan, nan],
                   [0.25, 7.0, nan, -3.0, 2.0]]),
    "q": np.array([0.0, 0.1, 0.5, 0.75, 1.0]),
    "p": np.array([10.0, 50.5, 100.0]),
    "i": np.array([[4.0, 1.0, 7.0, 2.0], [9.0, 3.0, 3.0, 8.0]]),
}
print_inputs(inputs)
m, t, n, q, p = (jnp.asarray(inputs[k]) for k in "mtnqp")
i = jnp.asarray(inputs["i"]).astype(jnp.int32)


def show(name, r):
    print(f"=== values {name}")
    print(shape_and_values(r, float).replace(" : ", "\n"))


values = {
    "quantile_all": jnp.quantile(m, 0.3),
    "quantile_axis1_linear": jnp.quantile(m, q, axis=1),
    "quantile_axis1_lower": jnp.quantile(m, q, axis=1, method="lower"),
    "quantile_axis1_higher": jnp.quantile(m, q, axis=1, method="higher"),
    "quantile_axis1_midpoint": jnp.quantile(m, q, axis=1, method="midpoint"),
    "quantile_axis1_nearest": jnp.quantile(m, q, axis=1, method="nearest"),
    "quantile_axis0_keepdims": jnp.quantile(m, 0.6, axis=0, keepdims=True),
    "quantile_all_keepdims_q": jnp.quantile(m, q, keepdims=True),
    "quantile_tuple02_keepdims": jnp.quantile(t, 0.3, axis=(0, 2), keepdims=True),
    "quantile_tuple12": jnp.quantile(t, q, axis=(1, 2)),
    "quantile_tuple20": jnp.quantile(t, 0.7, axis=(2, 0), method="nearest"),
    "quantile_nan_rows": jnp.quantile(n, 0.5, axis=1),
    "percentile_axis0": jnp.percentile(m, 30.0, axis=0),
    "percentile_p": jnp.percentile(m, p, axis=-1),
    "median_all": jnp.median(m),
    "median_axis1_keepdims": jnp.median(m, axis=1, keepdims=True),
    "median_int": jnp.median(i.astype(jnp.float64)),
    "nanquantile_axis1": jnp.nanquantile(n, q, axis=1),
    "nanquantile_axis1_keepdims": jnp.nanquantile(n, 0.25, axis=1, keepdims=True),
    "nanquantile_all_nearest": jnp.nanquantile(n, q, method="nearest"),
    "nanpercentile_axis0": jnp.nanpercentile(n, 40.0, axis=0),
    "nanmedian_all": jnp.nanmedian(n),
    "nanmedian_axis1": jnp.nanmedian(n, axis=1),
    "nanmedian_axis0_keepdims": jnp.nanmedian(n, axis=0, keepdims=True),
}
for name, r in values.items():
    show(name, r)

# Gradients of sum(w * f(m)), w = 1, 2, ... (m's values are distinct: no ties).
grads = {
    "median_axis1": lambda x: jnp.median(x, axis=1),
    "quantile_q_axis0": lambda x: jnp.quantile(x, q, axis=0),
    "nanmedian_all": lambda x: jnp.nanmedian(x),
    "percentile_nearest": lambda x: jnp.percentile(x, 35.0, method="nearest"),
}
for name, f in grads.items():
    y = f(m)
    w = jnp.arange(1.0, y.size + 1.0).reshape(y.shape)
    show("grad " + name, jax.grad(lambda x: jnp.sum(w * f(x)))(m))

jax.config.update("jax_enable_x64", False)
f32 = jnp.float32
m35 = jnp.ones((3, 5), f32)
texts = {
    "median": (lambda x: jnp.median(x), (m35,)),
    "median_axis1_keepdims": (lambda x: jnp.median(x, axis=1, keepdims=True), (m35,)),
    "median_int": (lambda x: jnp.median(x), (jnp.ones((3, 5), jnp.int32),)),
    "quantile_q_axis1": (lambda x, q: jnp.quantile(x, q, axis=1), (m35, jnp.ones(2, f32))),
    "quantile_lower": (lambda x: jnp.quantile(x, 0.3, method="lower"), (jnp.ones(4, f32),)),
    "quantile_tuple_keepdims_nearest": (
        lambda x: jnp.quantile(x, 0.3, axis=(1, 2), keepdims=True, method="nearest"),
        (jnp.ones((2, 3, 4), f32),)),
    "quantile_tuple_trailing": (lambda x: jnp.quantile(x, 0.3, axis=(1, 2)),
                                (jnp.ones((2, 3, 4), f32),)),
    "quantile_all_keepdims_q": (lambda x, q: jnp.quantile(x, q, keepdims=True, method="higher"),
                                (m35, jnp.ones(2, f32))),
    "percentile_axis0": (lambda x: jnp.percentile(x, 30.0, axis=0), (m35,)),
    "percentile_q": (lambda x, q: jnp.percentile(x, q, axis=1, method="midpoint"),
                     (m35, jnp.ones(3, f32))),
    "nanmedian_axis0": (lambda x: jnp.nanmedian(x, axis=0), (m35,)),
    "nanmedian_all": (lambda x: jnp.nanmedian(x), (m35,)),
    "nanquantile_q_keepdims": (lambda x, q: jnp.nanquantile(x, q, axis=1, keepdims=True),
                               (m35, jnp.ones(2, f32))),
    "nanpercentile_nearest": (lambda x: jnp.nanpercentile(x, 75.0, axis=1, method="nearest"),
                              (m35,)),
}
for name, (f, args) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))
