# Prints what tests/test_keywords_golden.cpp checks fusejit's keyword-options structs and
# jnp.diagonal / trace / diag / .at[].apply against: JAX 0.10.2's values for each call written
# with keyword arguments (f64 inputs of small integers, so that most results are exact; the C++
# table states the few that are not), jax.random draws (x64 off, as the default), and jaxpr text.
#   python tests/golden/keywords_goldens.py > tests/golden/keywords_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
inputs = {
    "m": np.array([[3.0, -1.0, 4.0, 1.0], [5.0, 9.0, -2.0, 6.0], [5.0, 3.0, 5.0, -8.0]]),
    "c": np.arange(24.0).reshape(2, 3, 4) - 7.0,
    "v": np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]),
    "i": np.array([0.0, 2.0, 0.0, 3.0, 3.0, 1.0, 0.0]),
    "w": np.array([0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0]),
    "p": np.array([100.0, 1.0, 0.0, -50.0]),
    "q": np.array([100.5, 1.5, 0.25, -50.0]),
    "s": np.array([[2.0, 1.0], [7.0, 2.0]]),
    "z": np.array([[0.0, 3.0], [2.0, 0.0]]),
    "r": np.array([1.0, 5.0, 2.0, 8.0, 3.0]),
}
print_inputs(inputs)
m, c, v, i, w, p, q, s, z, r = (jnp.asarray(inputs[k]) for k in "mcviwpqszr")
ii, ri = i.astype(jnp.int32), r.astype(jnp.int32)
square_plus_one = lambda t: t * t + 1

values = {
    # The reductions' and var/std's keywords.
    "sum_axis1_keepdims": jnp.sum(m, axis=1, keepdims=True),
    "mean_axes02_keepdims": jnp.mean(c, axis=(0, 2), keepdims=True),
    "max_keepdims": m.max(keepdims=True),
    "min_axis0": m.min(axis=0),
    "var_axis0_ddof1": jnp.var(m, axis=0, ddof=1),
    "std_ddof1": m.std(ddof=1),
    "var_axis1_keepdims": m.var(axis=1, keepdims=True),
    "logsumexp_axis1_keepdims": jax.nn.logsumexp(m, axis=1, keepdims=True),
    "norm_ord1_axis1": jnp.linalg.norm(m, ord=1, axis=1),
    "norm_axis0_keepdims": jnp.linalg.norm(m, axis=0, keepdims=True),
    "median_axis1_keepdims": jnp.median(m, axis=1, keepdims=True),
    "quantile_axis0_nearest": jnp.quantile(m, 0.25, axis=0, method="nearest"),
    "percentile_lower_keepdims": jnp.percentile(m, 40.0, axis=1, method="lower", keepdims=True),
    # Sorting and scans.
    "sort_axis0_descending": jnp.sort(m, axis=0, descending=True),
    "argsort_descending": jnp.argsort(v, descending=True),
    "argsort_flat": jnp.argsort(m, axis=None),
    "lax_sort_num_keys": lax.sort((i, v), num_keys=1)[1],
    "lax_cumsum_axis1_reverse": lax.cumsum(m, axis=1, reverse=True),
    "lax_cummax_reverse": lax.cummax(v, reverse=True),
    "associative_scan_reverse": lax.associative_scan(jnp.add, v, reverse=True),
    "associative_scan_axis1": lax.associative_scan(jnp.maximum, m, axis=1),
    # Others with several keywords.
    "one_hot_i32_axis0": jax.nn.one_hot(ii, 4, dtype=jnp.int32, axis=0),
    "diff_n2_axis0": jnp.diff(m, n=2, axis=0),
    "isclose_atol": jnp.isclose(p, q, atol=0.3),
    "isclose_rtol": jnp.isclose(p, q, rtol=0.01),
    "allclose_atol": jnp.allclose(p, q, atol=1.0),
    "bincount_length": jnp.bincount(ii, length=6),
    "bincount_weights_minlength": jnp.bincount(ii, w, minlength=6),
    "svd_compute_uv_false": jnp.linalg.svd(z, compute_uv=False),
    "eigh_upper_no_symmetrize": jnp.linalg.eigh(s, UPLO="U", symmetrize_input=False)[0],
    "nonzero_size_fill": jnp.nonzero(ii, size=6, fill_value=-1)[0],
    "flatnonzero_size": jnp.flatnonzero(m > 4, size=3),
    "argwhere_size": jnp.argwhere(m > 4, size=5),
    "pad_reflect_odd": jnp.pad(ri, (2, 3), mode="reflect", reflect_type="odd"),
    "pad_constant_7": jnp.pad(m, 1, constant_values=7),
    "pad_mean_stat_length": jnp.pad(v, (2, 2), mode="mean", stat_length=(2, 3)),
    "pad_edge": jnp.pad(m, ((1, 0), (0, 2)), mode="edge"),
    "take_axis1_clip": jnp.take(m, jnp.array([0, 7, -9]), axis=1, mode="clip"),
    # jnp.diagonal, trace and diag, and the methods.
    "diagonal_m": jnp.diagonal(m),
    "diagonal_m_offset1": jnp.diagonal(m, offset=1),
    "diagonal_m_offset_neg1": jnp.diagonal(m, offset=-1),
    "diagonal_m_offset5": jnp.diagonal(m, offset=5),
    "diagonal_c_axes12": jnp.diagonal(c, axis1=1, axis2=2),
    "diagonal_c_offset1_axes02": jnp.diagonal(c, offset=1, axis1=0, axis2=2),
    "diagonal_c_offset_neg1_axes20": jnp.diagonal(c, offset=-1, axis1=2, axis2=0),
    "diagonal_s_square": jnp.diagonal(s),
    "trace_m": jnp.trace(m),
    "trace_m_offset_neg2": jnp.trace(m, offset=-2),
    "trace_c_offset1_axes12": jnp.trace(c, offset=1, axis1=1, axis2=2),
    "trace_int": jnp.trace(ri.reshape(1, 5), offset=2),
    "diag_v_k1": jnp.diag(v[:3], k=1),
    "diag_v_k_neg2": jnp.diag(v[:3], k=-2),
    "diag_m_k1": jnp.diag(m, k=1),
    "linalg_diagonal_c_offset1": jnp.linalg.diagonal(c, offset=1),
    "linalg_trace_c": jnp.linalg.trace(c),
    "method_diagonal_offset1": m.diagonal(1),
    "method_trace_offset_neg1": m.trace(-1),
    # .at[].apply: static indices, and index arrays that repeat a place (f once per entry).
    "apply_slice": r.at[1:3].apply(square_plus_one),
    "apply_repeated": r.at[jnp.array([0, 0, 3, 0])].apply(square_plus_one),
    "apply_2d": m.at[1, jnp.array([3, 3])].apply(jnp.negative),
    "apply_out_of_range_dropped": r.at[jnp.array([1, 9])].apply(square_plus_one),
}
for name, a in values.items():
    print(f"=== values {name}")
    print(shape_and_values(a, float))

jax.config.update("jax_enable_x64", False)
key = jax.random.key(7)
draws = {
    "bernoulli_p_shape": jax.random.bernoulli(key, p=0.6, shape=(10,)),
    "categorical_axis0": jax.random.categorical(
        key, jnp.array([[0.0, 2.0, -1.0], [1.0, 0.5, 3.0]], jnp.float32), axis=0),
}
for name, a in draws.items():
    print(f"=== values {name}")
    print(shape_and_values(a, float))

f32, i32 = jnp.float32, jnp.int32
texts = {
    "trace": (lambda x: jnp.trace(x), (jnp.ones((3, 4), f32),)),
    "trace_offset_axes": (lambda x: jnp.trace(x, offset=1, axis1=2, axis2=0),
                          (jnp.ones((2, 3, 4), f32),)),
    "diagonal_square": (lambda x: jnp.diagonal(x), (jnp.ones((3, 3), f32),)),
}
for name, (f, args) in texts.items():
    print(f"=== jaxpr {name}")
    print(jax.make_jaxpr(f)(*args))
