# Prints what tests/test_index_golden.cpp checks integer-array indexing, take,
# take_along_axis and x.at[...].get()/set()/add()/mul()/min()/max() (index arrays, static
# integers and slices mixed: the tup_* cases) against: JAX 0.10.2's values (exact: gathers copy
# and the scatter-adds add small integers), gradients (f64), vmap, out-of-range modes, a
# scatter-add histogram, and jaxpr text (f32):
#   python tests/golden/index_goldens.py > tests/golden/index_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

x = np.arange(15.0).reshape(5, 3) * 1.5 - 4.0
i = np.array([0, -1, 2, 2, 4], np.int32)  # a negative and a repeated index
j = np.array([1, 0, 2, -3, 1], np.int32)
k = np.array([2, 0, -1], np.int32)
flat = np.array([0, 14, -1, 3], np.int32)
oob = np.array([0, 7, -8, 3], np.int32)  # out of range both ways
along = np.array([[4, 0, 1], [2, -2, 0]], np.int32)
along_t = np.ascontiguousarray(along.T)  # (3, 2): one index row per column of x
u = np.arange(15.0).reshape(5, 3)
x3 = np.arange(60.0).reshape(4, 5, 3) * 0.5 - 7.0
scal = np.array(-2, np.int32)  # a rank-0 index array
perm = np.array([2, -3, 1], np.int32)  # distinct after normalization
ints = np.array([[3, -1, 2], [0, 1, 4], [-2, 7, 5], [6, 6, 1], [0, 9, -4]], np.int32)

cases = {
    # name: (function of x and an index array, x, index)
    "index": (lambda v, t: v[t], x, i),
    "index2": (lambda v, t: v[t, j], x, i),
    "at_get": (lambda v, t: v.at[t].get(), x, i),
    "at_add": (lambda v, t: v.at[t].add(10.0), x, i),
    "at_add_rows": (lambda v, t: v.at[t].add(u), x, i),
    "at_add2": (lambda v, t: v.at[t, j].add(1.0), x, i),
    "at_int_add": (lambda v, t: v.at[2].add(1.0), x, i),
    "take_axis1": (lambda v, t: jnp.take(v, t, axis=1), x, k),
    "take_flat": (lambda v, t: jnp.take(v, t), x, flat),
    "take_fill_oob": (lambda v, t: jnp.take(v, t, axis=0), x, oob),
    "take_clip_oob": (lambda v, t: jnp.take(v, t, axis=0, mode="clip"), x, oob),
    "index_oob": (lambda v, t: v[t], x, oob),
    "at_add_oob": (lambda v, t: v.at[t].add(1.0), x, oob),
    "at_add_oob_clip": (lambda v, t: v.at[t].add(1.0, mode="clip"), x, oob),
    "take_along_axis": (lambda v, t: jnp.take_along_axis(v, t, axis=0), x, along),
    "int_index": (lambda v, t: v[t], ints, i),
    "int_take_oob": (lambda v, t: jnp.take(v, t, axis=0), ints, oob),
    "int_at_add": (lambda v, t: v.at[t].add(3), ints, i),
    "vmap_operand": (jax.vmap(lambda v, t: v[t], in_axes=(1, None)), x, k),
    "vmap_indices": (jax.vmap(lambda v, t: v[t], in_axes=(None, 0)), x, along),
    "vmap_both": (jax.vmap(lambda v, t: v[t], in_axes=(1, 0)), x, along_t),
    "vmap_add_operand": (jax.vmap(lambda v, t: v.at[t].add(1.0), in_axes=(1, None)), x, k),
    "vmap_add_indices": (jax.vmap(lambda v, t: v.at[t].add(1.0), in_axes=(None, 0)), x, along),
    "vmap_add_both": (jax.vmap(lambda v, t: v.at[t].add(1.0), in_axes=(1, 0)), x, along_t),
    # The other updates: of repeated indices the last set wins; mul, min and max accumulate.
    "at_set": (lambda v, t: v.at[t].set(10.0), x, i),
    "at_set_rows": (lambda v, t: v.at[t].set(u), x, i),
    "at_set_oob": (lambda v, t: v.at[t].set(1.0), x, oob),
    "at_set_oob_clip": (lambda v, t: v.at[t].set(1.0, mode="clip"), x, oob),
    "at_int_set": (lambda v, t: v.at[-2].set(7.0), x, i),
    "at_mul": (lambda v, t: v.at[t].mul(-2.0), x, i),
    "at_min_rows": (lambda v, t: v.at[t].min(u * 0.5), x, i),
    "at_max_rows": (lambda v, t: v.at[t].max(u * 0.5), x, i),
    "at_max_oob_clip": (lambda v, t: v.at[t].max(100.0, mode="clip"), x, oob),
    "int_at_set": (lambda v, t: v.at[t].set(-5), ints, i),
    "int_at_mul": (lambda v, t: v.at[t].mul(3), ints, i),
    "int_at_min": (lambda v, t: v.at[t].min(1), ints, i),
    "int_at_max": (lambda v, t: v.at[t].max(4), ints, i),
    "vmap_set_both": (jax.vmap(lambda v, t: v.at[t].set(0.5), in_axes=(1, 0)), x, along_t),
    "vmap_max_indices": (jax.vmap(lambda v, t: v.at[t].max(3.0), in_axes=(None, 0)), x, along),
    # x.at[...] with static integers, slices (any step) and index arrays mixed (tup_*): static
    # reads slice, scalar array indices dynamic_slice, the rest gather or scatter.
    "tup_get_range": (lambda v, t: v.at[1:4].get(), x, k),
    "tup_set_range": (lambda v, t: v.at[1:4].set(10.0), x, k),
    "tup_add_int_step": (lambda v, t: v.at[2, ::2].add(10.0), x, k),
    "tup_get_arr_range": (lambda v, t: v.at[t, 0:2].get(), x, i),
    "tup_mul_range_arr": (lambda v, t: v.at[1:3, t].mul(-2.0), x, k),
    "tup_set_neg_step": (lambda v, t: v.at[::-2].set(u[:3]), x, k),
    "tup_get_neg_step_arr": (lambda v, t: v.at[4:0:-2, t].get(), x, k),
    "tup_add_full": (lambda v, t: v.at[:, :].add(u), x, k),
    "tup_min_full_col": (lambda v, t: v.at[:, 1].min(0.0), x, k),
    "tup_max_range_arr": (lambda v, t: v.at[1:, t].max(3.0), x, k),
    "tup_add_oob": (lambda v, t: v.at[1:3, t].add(1.0), x, oob),
    "tup_add_oob_clip": (lambda v, t: v.at[1:3, t].add(1.0, mode="clip"), x, oob),
    "tup_get_scalar": (lambda v, t: v.at[t, 1:3].get(), x, scal),
    "tup_set_scalar": (lambda v, t: v.at[t, ::-1].set(u[0]), x, scal),
    "tup_index_mixed": (lambda v, t: v[1:4, t], x, k),
    "tup_nonadj_add": (lambda v, t: v.at[t, 1:3, t].add(1.0), x3, k),
    "tup_nonadj_get": (lambda v, t: v.at[t, :, t].get(), x3, k),
    "tup_int_arr_sep_get": (lambda v, t: v.at[1, 2:4, t].get(), x3, k),
    "tup_int_set": (lambda v, t: v.at[t, 1:3].set(-5), ints, i),
    "tup_int_max_step": (lambda v, t: v.at[::2, 2].max(4), ints, k),
    "tup_int_add_neg": (lambda v, t: v.at[3::-1, t].add(3), ints, k),
    "tup_set_empty": (lambda v, t: v.at[3:1, t].set(1.0), x, k),
    "tup_vmap_add": (jax.vmap(lambda v, t: v.at[1:3, t].add(1.0), in_axes=(None, 0)), x, along),
    "tup_vmap_get": (jax.vmap(lambda v, t: v.at[t, ::2].get(), in_axes=(None, 0)), x, along),
}


def text(v):
    v = np.asarray(v)
    if v.dtype.kind == "f":
        return " ".join("nan" if np.isnan(a) else float(a).hex() for a in v.ravel())
    return " ".join(str(int(a)) for a in v.ravel())


for name, (f, v, t) in cases.items():
    out = jax.jit(f)(v, t)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))

# The histogram: bin indices from values in [0, 1), one count per value (repeats accumulate).
samples = np.random.default_rng(0).random(64)
print("=== hist_input")
print(text(samples))
for nbins in (8, 5):
    idx = jnp.floor(samples * nbins).astype(jnp.int32)
    print(f"=== hist {nbins}")
    print(text(jnp.zeros(nbins).at[idx].add(1)))

# Gradients of sum(w * f(x)) with distinct weights w, so that a misrouted cotangent shows.
grads = {
    "index": lambda v: v[i],
    "index2": lambda v: v[i, j],
    "take_axis1": lambda v: jnp.take(v, k, axis=1),
    "take_along_axis": lambda v: jnp.take_along_axis(v, along, axis=0),
    "at_add": lambda v: v.at[i].add(v[j] * v[j]),
    "updates": lambda w: jnp.asarray(x).at[i].add(w),
    "set": lambda v: v.at[i].set(v[j] * v[j]),
    "set_updates": lambda w: jnp.asarray(x).at[i].set(w),
    "mul": lambda v: v.at[i].mul(3.0),
    "max": lambda v: v.at[i].max(6.0 - u * 0.75),
    "min": lambda v: v.at[i].min(6.0 - u * 0.75),
    "max_updates": lambda w: jnp.asarray(x).at[i].max(w),
    "min_updates": lambda w: jnp.asarray(x).at[i].min(w),
}
for name, f in grads.items():
    arg = jnp.asarray(u[: len(i)] * 0.25 + 1.0 if name.endswith("updates") else x)
    w = np.arange(1.0, 1.0 + np.prod(np.shape(f(arg)))).reshape(np.shape(f(arg)))
    g = jax.grad(lambda v: jnp.sum(w * f(v)))(arg)
    print(f"=== grad {name}")
    print(text(g))

# Ties: scatter-max shares an element's cotangent evenly between the updates that reach its
# value and the operand if it holds it too (JAX's _scatter_extremal_jvp).
tie_idx = np.array([1, 1, 2, 0], np.int32)
tie_w = np.array([2.0, 2.0, 0.0, -1.0])
print("=== grad max_ties")
print(text(jax.grad(lambda w: jnp.sum(jnp.array([1.0, 2.0, 3.0]) *
                                      jnp.zeros(3).at[tie_idx].max(w)))(tie_w)))
print("=== grad max_ties_operand")
print(text(jax.grad(lambda v: jnp.sum(jnp.array([1.0, 2.0, 3.0]) *
                                      v.at[tie_idx].max(jnp.asarray(tie_w))))(jnp.zeros(3))))

# Gradients through x.at[...] with slices and arrays mixed, each at its own argument.
tup_grads = {
    "tup_set": (lambda v: v.at[1:3, perm].set(v[3:5] * v[3:5]), x),
    "tup_add": (lambda v: v.at[::-2, 1].add(v[1:4, 2] * v[1:4, 0]), x),
    "tup_get": (lambda v: v.at[k, 0:2].get(), x),
    "tup_updates": (lambda w: jnp.asarray(x).at[1:3, perm].add(w), u[:2] * 0.25 + 1.0),
    "tup_set_updates": (lambda w: jnp.asarray(x).at[::2, 1:].set(w), u[:3, :2] * 0.5 - 1.0),
}


def print_weighted_grads(fns):
    """d/dv sum(w * f(v)) at each case's own argument, w = 1, 2, ... over f's result."""
    for name, (f, arg) in fns.items():
        arg = jnp.asarray(arg)
        w = np.arange(1.0, 1.0 + np.prod(np.shape(f(arg)))).reshape(np.shape(f(arg)))
        print(f"=== grad {name}")
        print(text(jax.grad(lambda v: jnp.sum(w * f(v)))(arg)))


print_weighted_grads(tup_grads)

jax.config.update("jax_enable_x64", False)
o = jnp.ones((5, 3), jnp.float32)
ti = jnp.asarray(i)
jaxprs = {
    "index": lambda v, t: v[t],
    "index2": lambda v, t: v[t, t],
    "at_get": lambda v, t: v.at[t].get(),
    "at_add": lambda v, t: v.at[t].add(2.0),
    "at_add_clip": lambda v, t: v.at[t].add(2.0, mode="clip"),
    "at_int_add": lambda v, t: v.at[2].add(1.0),
    "take_axis1": lambda v, t: jnp.take(v, t, axis=1),
    "take_flat": lambda v, t: jnp.take(v, t),
    "take_clip": lambda v, t: jnp.take(v, t, axis=0, mode="clip"),
    "at_set": lambda v, t: v.at[t].set(2.0),
    "at_mul": lambda v, t: v.at[t].mul(2.0),
    "at_min": lambda v, t: v.at[t].min(2.0),
    "at_max_clip": lambda v, t: v.at[t].max(2.0, mode="clip"),
    "at_int_set": lambda v, t: v.at[1].set(0.0),
}
for name, f in jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(o, ti))
tk = jnp.asarray(k)
tup_jaxprs = {
    "tup_get_range": (lambda v, t: v.at[1:4].get(), o, tk),
    "tup_set_range": (lambda v, t: v.at[1:4].set(2.0), o, tk),
    "tup_add_int_step": (lambda v, t: v.at[2, ::2].add(1.0), o, tk),
    "tup_get_arr_range": (lambda v, t: v.at[t, 0:2].get(), o, tk),
    "tup_mul_range_arr": (lambda v, t: v.at[1:3, t].mul(2.0), o, tk),
    "tup_set_neg": (lambda v, t: v.at[::-2].set(0.0), o, tk),
    "tup_get_neg_arr": (lambda v, t: v.at[4:0:-2, t].get(), o, tk),
    "tup_set_full_col": (lambda v, t: v.at[:, 1].set(0.0), o, tk),
    "tup_add_int2": (lambda v, t: v.at[2, 1].add(1.0), o, tk),
    "tup_min_range_clip": (lambda v, t: v.at[1:, t].min(2.0, mode="clip"), o, tk),
    "tup_index_mixed": (lambda v, t: v[1:4, t], o, tk),
    "tup_get_scalar": (lambda v, t: v.at[t, 1:3].get(), o, jnp.asarray(scal)),
    "tup_get_scalar_rev": (lambda v, t: v.at[t, ::-1].get(), o, jnp.asarray(scal)),
    "tup_set_scalar": (lambda v, t: v.at[t, 1:3].set(1.0), o, jnp.asarray(scal)),
    "tup_nonadj_add": (lambda v, t: v.at[t, 1:3, t].add(1.0), jnp.ones((4, 5, 3)), tk),
    "tup_nonadj_get": (lambda v, t: v.at[t, :, t].get(), jnp.ones((4, 5, 3)), tk),
    "tup_int_arr_sep": (lambda v, t: v.at[1, 2:4, t].get(), jnp.ones((4, 5, 3)), tk),
    "tup_set_empty": (lambda v, t: v.at[3:1].set(1.0), o, tk),
}
for name, (f, v, t) in tup_jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(v, t))
print("=== jaxpr take_along_axis")
print(jax.make_jaxpr(lambda v, t: jnp.take_along_axis(v, t, axis=0))(o, jnp.asarray(along)))

# fj::newaxis (None) and fj::ellipsis (...) mixed with the other indices (nax_*): static reads
# slice then expand_dims, scalar arrays dynamic_slice, the rest gather with the new axes added
# after it (or, in updates, squeezed out of the broadcast updates); advanced indices that a new
# axis or `...` separates move to the front.
jax.config.update("jax_enable_x64", True)
nax_cases = {
    "nax_ell_int": (lambda v, t: v[..., 0], x3, k),
    "nax_new_mid": (lambda v, t: v[:, None], x3, k),
    "nax_new_front": (lambda v, t: v[None], x, k),
    "nax_int_ell": (lambda v, t: v[1, ...], x3, k),
    "nax_ell_new": (lambda v, t: v[..., None], x3, k),
    "nax_ell": (lambda v, t: v[...], x, k),
    "nax_new_slice_int": (lambda v, t: v[None, :, None, 2], x3, k),
    "nax_rev_new": (lambda v, t: v[::-1, None], x, k),
    "nax_mix_gather": (lambda v, t: v[1, None, 1:3, ..., t], x3, k),
    "nax_arr_new": (lambda v, t: v[t, None], x, k),
    "nax_new_arr_arr": (lambda v, t: v[None, t, t], x, k),
    "nax_arr_new_arr": (lambda v, t: v[t, None, t], x, k),
    "nax_arr_ell_arr": (lambda v, t: v[t, ..., t], x, k),
    "nax_sep_new": (lambda v, t: v[:, t, None, t], x3, k),
    "nax_sep_ell": (lambda v, t: v[:, t, ..., t], x3, k),
    "nax_ell_arr": (lambda v, t: v[..., t], x3, k),
    "nax_step_new_arr": (lambda v, t: v[None, ::-2, t], x3, k),
    "nax_scalar_new": (lambda v, t: v[None, t], x, scal),
    "nax_at_new_add": (lambda v, t: v.at[None, t].add(1.0), x, k),
    "nax_at_set_new": (lambda v, t: v.at[:, None].set(10.0), x, k),
    "nax_at_ell_int_set": (lambda v, t: v.at[..., 0].set(7.0), x3, k),
    "nax_at_ell_arr_mul": (lambda v, t: v.at[..., t].mul(-2.0), x3, k),
    "nax_at_arr_new_rows": (lambda v, t: v.at[t, None].add(u[:3].reshape(3, 1, 3)), x, k),
    "nax_at_rev_new": (lambda v, t: v.at[::-1, None, 1].add(np.arange(5.0).reshape(5, 1)), x, k),
    "nax_at_get": (lambda v, t: v.at[t, None].get(), x, k),
    "nax_vmap": (jax.vmap(lambda v, t: v[None, t], in_axes=(None, 0)), x, along),
}
for name, (f, v, t) in nax_cases.items():
    out = jax.jit(f)(v, t)
    print(f"=== values {name}")
    print(" ".join(str(d) for d in np.shape(out)))
    print(text(out))
nax_grads = {
    "nax_gather": (lambda v: v[None, k, None], x),
    "nax_scatter": (lambda v: v.at[..., perm].add(v[:, None, 0]), x),
    "nax_updates": (lambda w: jnp.asarray(x).at[None, perm].add(w), u[:3].reshape(1, 3, 3) * 0.5),
}
print_weighted_grads(nax_grads)

jax.config.update("jax_enable_x64", False)
o3 = jnp.ones((4, 5, 3))
nax_jaxprs = {
    "nax_ell_int": (lambda v, t: v[..., 0], o3, tk),
    "nax_new_mid": (lambda v, t: v[:, None], o3, tk),
    "nax_ell_new": (lambda v, t: v[..., None], o3, tk),
    "nax_ell": (lambda v, t: v[...], o, tk),
    "nax_new_slice_int": (lambda v, t: v[None, :, None, 2], o3, tk),
    "nax_mix_gather": (lambda v, t: v[1, None, 1:3, ..., t], o3, tk),
    "nax_new_arr_arr": (lambda v, t: v[None, t, t], o, tk),
    "nax_arr_new_arr": (lambda v, t: v[t, None, t], o, tk),
    "nax_sep_new": (lambda v, t: v[:, t, None, t], o3, tk),
    "nax_ell_arr": (lambda v, t: v[..., t], o3, tk),
    "nax_step_new_arr": (lambda v, t: v[None, ::-2, t], o3, tk),
    "nax_scalar_new": (lambda v, t: v[None, t], o, jnp.asarray(scal)),
    "nax_empty": (lambda v, t: v[None, 3:1, t], o, tk),
    "nax_at_new_add": (lambda v, t: v.at[None, t].add(1.0), o, tk),
    "nax_at_ell_int_set": (lambda v, t: v.at[..., 0].set(7.0), o3, tk),
    "nax_at_rev_new": (lambda v, t: v.at[::-1, None, 1].add(v[:, :1]), o, tk),
    "nax_at_get": (lambda v, t: v.at[t, None].get(), o, tk),
}
for name, (f, v, t) in nax_jaxprs.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(v, t))
