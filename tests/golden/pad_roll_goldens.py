"""Goldens for tests/test_pad_roll_golden.cpp from JAX 0.10.2: jnp.pad (constant (a scalar, or a
pair per side), edge, reflect, symmetric and wrap, reflect_type odd, maximum, minimum, mean,
median and empty),
lax.pad (negative and interior padding), jnp.roll, jnp.tile and jnp.repeat: values and gradients
in f64, jaxpr text at f32 (plain, vmapped).
Run: python tests/golden/pad_roll_goldens.py > tests/golden/pad_roll_goldens.txt

Operand k of a case holds sin(0.37 i + 1.3 k + 0.1), i = 0, 1, ... in row-major order.
"""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)

cases = {
    "pad": (lambda a: jnp.pad(a, ((1, 2), (0, 1))), (3, 4)),
    "pad_all": (lambda a: jnp.pad(a, 1), (3, 4)),
    "pad_value": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), constant_values=2.5), (3, 4)),
    "pad_1d": (lambda a: jnp.pad(a, ((2, 0),)), (5,)),
    "pad_edge": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="edge"), (3, 4)),
    "pad_edge_3d": (lambda a: jnp.pad(a, ((0, 1), (2, 0), (1, 1)), mode="edge"), (2, 3, 2)),
    "pad_reflect": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="reflect"), (3, 4)),
    "pad_reflect_wide": (lambda a: jnp.pad(a, ((5, 4),), mode="reflect"), (3,)),
    "pad_reflect_one": (lambda a: jnp.pad(a, ((2, 1), (1, 0)), mode="reflect"), (1, 3)),
    "pad_wrap": (lambda a: jnp.pad(a, ((4, 2), (0, 1)), mode="wrap"), (3, 4)),
    "pad_wrap_wide": (lambda a: jnp.pad(a, ((7, 5),), mode="wrap"), (3,)),
    "pad_symmetric": (lambda a: jnp.pad(a, ((1, 2), (0, 5)), mode="symmetric"), (3, 4)),
    "pad_symmetric_one": (lambda a: jnp.pad(a, ((2, 1), (1, 0)), mode="symmetric"), (1, 3)),
    "pad_reflect_odd": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="reflect", reflect_type="odd"),
                        (3, 4)),
    "pad_reflect_odd_wide": (lambda a: jnp.pad(a, ((5, 4),), mode="reflect", reflect_type="odd"),
                             (3,)),
    "pad_symmetric_odd": (lambda a: jnp.pad(a, ((2, 3), (1, 1)), mode="symmetric",
                                            reflect_type="odd"), (2, 3)),
    "pad_reflect_odd_one": (lambda a: jnp.pad(a, ((0, 0), (2, 1)), mode="reflect",
                                              reflect_type="odd"), (2, 1)),
    "pad_maximum": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="maximum"), (3, 4)),
    "pad_minimum": (lambda a: jnp.pad(a, ((0, 2), (3, 1)), mode="minimum"), (3, 4)),
    "pad_mean": (lambda a: jnp.pad(a, ((1, 0), (0, 2)), mode="mean"), (3, 4)),
    "pad_maximum_stat_length": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="maximum",
                                                  stat_length=((2, 1), (5, 3))), (3, 4)),
    "pad_mean_stat_length": (lambda a: jnp.pad(a, ((2, 1), (1, 2)), mode="mean",
                                               stat_length=((1, 2),)), (3, 4)),
    "pad_median": (lambda a: jnp.pad(a, ((1, 0), (0, 2)), mode="median"), (3, 4)),
    "pad_median_stat_length": (lambda a: jnp.pad(a, ((2, 1), (1, 2)), mode="median",
                                                 stat_length=((2, 3),)), (3, 4)),
    "lax_pad": (lambda a: lax.pad(a, 0.0, ((1, -1, 1), (0, 2, 0))), (3, 4)),
    "lax_pad_crop": (lambda a: lax.pad(a, -1.0, ((-1, 2, 2), (-2, -1, 1))), (3, 4)),
    "roll": (lambda a: jnp.roll(a, 2, axis=0), (3, 4)),
    "roll_flat": (lambda a: jnp.roll(a, -1), (3, 4)),
    "roll_flat_1d": (lambda a: jnp.roll(a, 7), (5,)),
    "roll_axes": (lambda a: jnp.roll(a, (1, -6), axis=(0, 1)), (3, 4)),
    # Traced shifts (jit[name=_roll_dynamic]): closed-over int32 arrays here; as arguments below.
    "roll_dynamic": (lambda a: jnp.roll(a, jnp.int32(-5), axis=0), (3, 4)),
    "roll_dynamic_flat": (lambda a: jnp.roll(a, jnp.int32(7)), (3, 4)),
    "roll_dynamic_axes": (lambda a: jnp.roll(a, jnp.array([1, -6], jnp.int32), axis=(0, 1)),
                          (3, 4)),
    "tile": (lambda a: jnp.tile(a, (2, 3)), (3, 4)),
    "tile_int": (lambda a: jnp.tile(a, 2), (3, 4)),
    "tile_more": (lambda a: jnp.tile(a, (2, 1, 3)), (3, 4)),
    "tile_3d": (lambda a: jnp.tile(a, (1, 2, 2)), (2, 1, 3)),
    "repeat": (lambda a: jnp.repeat(a, 3, axis=1), (3, 4)),
    "repeat_flat": (lambda a: jnp.repeat(a, 2), (3, 4)),
    "repeat_neg_axis": (lambda a: jnp.repeat(a, 2, axis=-2), (2, 3, 2)),
    "pad_empty_mode": (lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode="empty"), (3, 4)),
    "pad_empty_mode_3d": (lambda a: jnp.pad(a, ((0, 1), (2, 0), (1, 1)), mode="empty"),
                          (2, 3, 2)),
    # constant_values per side: Python floats, one pair for all axes or one per axis.
    "pad_value_pairs": (lambda a: jnp.pad(a, ((1, 2), (0, 1)),
                                          constant_values=((1.0, 2.0), (3.0, 4.0))), (3, 4)),
    "pad_value_pair": (lambda a: jnp.pad(a, ((0, 2), (1, 0)), constant_values=(1.5, 2.5)),
                       (3, 4)),
}

# Empty operands or results: the result's shape and values (no gradient lines), and the jaxpr.
empty_cases = {
    "pad_empty": (lambda a: jnp.pad(a, ((1, 1), (0, 2))), (0, 3)),
    "pad_edge_flat_axis": (lambda a: jnp.pad(a, ((0, 0), (2, 1)), mode="edge"), (0, 3)),
    "tile_zero": (lambda a: jnp.tile(a, (0, 2)), (3, 4)),
    "repeat_zero": (lambda a: jnp.repeat(a, 0, axis=1), (3, 4)),
    "roll_empty_axis": (lambda a: jnp.roll(a, 1, axis=0), (0, 2)),
    "pad_empty_mode_empty_axis": (lambda a: jnp.pad(a, ((1, 1), (0, 0)), mode="empty"), (0, 3)),
}


def operand(shape, k):
    n = int(np.prod(shape))
    return np.sin(0.37 * np.arange(n) + 1.3 * k + 0.1).reshape(shape)


def text(v):
    return " ".join(float(x).hex() for x in np.asarray(v, dtype=np.float64).ravel())


for name, (f, shape) in cases.items():
    x = operand(shape, 0)
    out = f(x)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
    w = np.arange(1.0, 1.0 + out.size).reshape(np.shape(out))
    g = jax.grad(lambda v: jnp.sum(w * f(v)))(x)
    print(f"=== grad {name}")
    print(text(g))

for name, (f, shape) in empty_cases.items():
    out = f(operand(shape, 0))
    print(f"=== shape {name}")
    print(" ".join(str(d) for d in np.shape(out)) + " : " + text(out))

# lax.pad's gradient with respect to its padding value too, and vmapped with a batched value.
x, v = operand((3, 4), 0), 0.75
out = lax.pad(x, v, ((1, -1, 1), (0, 2, 0)))
w = np.arange(1.0, 1.0 + out.size).reshape(out.shape)
gx, gv = jax.grad(lambda a, b: jnp.sum(w * lax.pad(a, b, ((1, -1, 1), (0, 2, 0)))),
                  argnums=(0, 1))(x, v)
print("=== grad lax_pad_both")
print(text(gx))
print(text(gv))
xb, vb = operand((2, 3, 4), 0), operand((2,), 1)
print("=== values vmap_lax_pad")
print(text(jax.vmap(lambda a, b: lax.pad(a, b, ((1, -1, 1), (0, 2, 0))))(xb, vb)))
print("=== values vmap_tile")
print(text(jax.vmap(lambda a: jnp.tile(a, (2, 1)))(xb)))

jax.config.update("jax_enable_x64", False)
for name, (f, shape) in (cases | empty_cases).items():
    if name.startswith("roll_dynamic"):
        continue  # with the shift an argument, below
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(jnp.ones(shape, jnp.float32)))
print("=== jaxpr pad_value_pairs_int")
print(jax.make_jaxpr(lambda a: jnp.pad(a, ((1, 2), (0, 1)), constant_values=((1.0, 2.0), (3.0, 4.0))))(
    jnp.ones((3, 4), jnp.int32)))
print("=== jaxpr pad_int")
print(jax.make_jaxpr(lambda a: jnp.pad(a, ((1, 0), (0, 2))))(jnp.ones((2, 2), jnp.int32)))
# Integer statistics: jnp.round (a jit returning its operand for integers) once per side.
for mode in ["mean", "minimum", "median"]:
    print(f"=== jaxpr pad_{mode}_int")
    print(jax.make_jaxpr(lambda a: jnp.pad(a, ((1, 0), (0, 2)), mode=mode))(
        jnp.ones((3, 4), jnp.int32)))
    print(f"=== values pad_{mode}_int")
    print(" ".join(str(int(v)) for v in np.ravel(jnp.pad(
        jnp.arange(12, dtype=jnp.int32).reshape(3, 4) * 7 % 10, ((1, 0), (0, 2)), mode=mode))))
for name, axis, s in [("roll_dynamic", 0, jnp.int32(-5)), ("roll_dynamic_flat", None, jnp.int32(7)),
                      ("roll_dynamic_axes", (0, 1), jnp.array([1, -6], jnp.int32))]:
    print(f"=== jaxpr {name}_arg")
    print(jax.make_jaxpr(lambda a, t: jnp.roll(a, t, axis=axis))(jnp.ones((3, 4), jnp.float32), s))
print("=== jaxpr lax_pad_value")
print(jax.make_jaxpr(lambda a, b: lax.pad(a, b, ((1, -1, 1), (0, 2, 0))))(
    jnp.ones((3, 4), jnp.float32), jnp.float32(1)))
print("=== jaxpr vmap_lax_pad")
print(jax.make_jaxpr(jax.vmap(lambda a, b: lax.pad(a, b, ((1, -1, 1), (0, 2, 0)))))(
    jnp.ones((2, 3, 4), jnp.float32), jnp.ones(2, jnp.float32)))
print("=== jaxpr vmap_tile")
print(jax.make_jaxpr(jax.vmap(lambda a: jnp.tile(a, (2, 3))))(jnp.ones((2, 3, 4), jnp.float32)))
print("=== jaxpr grad_tile")
print(jax.make_jaxpr(jax.grad(lambda a: jnp.sum(jnp.tile(a, (2, 3)))))(
    jnp.ones((3, 4), jnp.float32)))
