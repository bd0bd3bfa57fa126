# Prints what tests/test_linalg_extras_golden.cpp checks fusejit's jax.numpy.linalg and
# jax.scipy.linalg additions against: one `values` section per row of its table, JAX 0.10.2's
# result for the call the row names (f64 inputs, x64 on). Inputs are well-conditioned.
#   python tests/golden/linalg_extras_goldens.py > tests/golden/linalg_extras_goldens.txt
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", True)
inputs = {
    # A well-conditioned square matrix (cond ~ 5), integers.
    "a": np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),
    # A nonsymmetric one that needs pivoting.
    "g": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [7.0, 8.5, 1.0]]),
    "r": np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [1.0, -1.0]]),
    "b": np.array([1.0, -2.0, 0.5]),
    "b4": np.array([1.0, 2.0, 2.5, -1.0]),
    "bm": np.array([[1.0, 0.0], [2.0, 1.0], [-1.0, 3.0]]),
    "v": np.array([1.0, 2.0, 3.0, 4.0]),
    "w": np.array([1.0, -2.0, 0.5]),
    "e": np.array([[0.1, 0.2, 0.0], [-0.1, 0.05, 0.3], [0.0, 0.2, -0.1]]),
    "t": np.arange(24.0).reshape(2, 3, 4) * 0.25 - 1.0,
    "t4": np.array([[[[2.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 0.0]]],
                    [[[0.0, 0.0], [3.0, 0.0]], [[1.0, 0.0], [0.0, 2.0]]]]),
}
print_inputs(inputs)
a, g, r, b, b4, bm, v, w, e, t, t4 = (jnp.asarray(inputs[q]) for q in
                                       ["a", "g", "r", "b", "b4", "bm", "v", "w", "e", "t", "t4"])
lu_g, piv_g = jsl.lu_factor(g)
lstsq_r = jnp.linalg.lstsq(r, b4)
lstsq_m = jnp.linalg.lstsq(r.T, bm[:2])
polar_r = jsl.polar(r, method="svd")
polar_l = jsl.polar(r.T, side="left", method="svd")
p, l, u = jsl.lu(g)

values = {
    # numpy.linalg.
    "matrix_power_0": jnp.linalg.matrix_power(g, 0),
    "matrix_power_3": jnp.linalg.matrix_power(g, 3),
    "matrix_power_5": jnp.linalg.matrix_power(g, 5),
    "matrix_power_neg2": jnp.linalg.matrix_power(a, -2),
    "multi_dot_3": jnp.linalg.multi_dot([r, r.T, r]),
    "multi_dot_vec": jnp.linalg.multi_dot([v, r, bm.T, b]),
    "svdvals": jnp.linalg.svdvals(g),
    "pinv": jnp.linalg.pinv(r),
    "pinv_rtol": jnp.linalg.pinv(r, rtol=0.5),
    "pinv_hermitian": jnp.linalg.pinv(a - 2.5 * jnp.eye(3), hermitian=True),
    "matrix_rank_hermitian": jnp.linalg.matrix_rank(a - 2.5 * jnp.eye(3), hermitian=True),
    "matrix_rank": jnp.linalg.matrix_rank(g),
    "matrix_rank_deficient": jnp.linalg.matrix_rank(jnp.outer(v, b)),
    "matrix_rank_vec": jnp.linalg.matrix_rank(v),
    "cond": jnp.linalg.cond(a),
    "cond_m2": jnp.linalg.cond(a, -2),
    "cond_fro": jnp.linalg.cond(g, "fro"),
    "cond_1": jnp.linalg.cond(g, 1),
    "lstsq_x": lstsq_r[0],
    "lstsq_resid": lstsq_r[1],
    "lstsq_rank": lstsq_r[2],
    "lstsq_s": lstsq_r[3],
    "lstsq_under_x": lstsq_m[0],
    "vector_norm": jnp.linalg.vector_norm(t),
    "vector_norm_inf": jnp.linalg.vector_norm(t, axis=1, ord=jnp.inf),
    "vector_norm_ninf": jnp.linalg.vector_norm(t, axis=-1, ord=-jnp.inf),
    "vector_norm_0": jnp.linalg.vector_norm(t, axis=(0, 2), ord=0),
    "vector_norm_1_keepdims": jnp.linalg.vector_norm(t, axis=2, keepdims=True, ord=1),
    "vector_norm_3": jnp.linalg.vector_norm(v, ord=3),
    "matrix_norm": jnp.linalg.matrix_norm(t),
    "matrix_norm_1": jnp.linalg.matrix_norm(t, ord=1),
    "matrix_norm_nuc": jnp.linalg.matrix_norm(g, ord="nuc"),
    "tensorinv": jnp.linalg.tensorinv(t4, ind=2),
    "tensorsolve": jnp.linalg.tensorsolve(t4, jnp.array([[1.0, 2.0], [0.5, -1.0]])),
    # scipy.linalg: special matrices.
    "block_diag": jsl.block_diag(g[:2, :2], v, jnp.float64(7.0), bm),
    "toeplitz": jsl.toeplitz(v, b),
    "toeplitz_c": jsl.toeplitz(b),
    "hankel": jsl.hankel(v, w),
    "hankel_c": jsl.hankel(b),
    "toeplitz_batch": jsl.toeplitz(t[0], b),
    "hankel_batch": jsl.hankel(t[:, 0, :], w),
    "circulant": jsl.circulant(v),
    "leslie": jsl.leslie(v, w),
    "companion": jsl.companion(v),
    "fiedler": jsl.fiedler(v),
    "companion_batch": jsl.companion(t[1]),
    "fiedler_companion_batch": jsl.fiedler_companion(t[1]),
    "leslie_batch": jsl.leslie(t[1], w),
    "fiedler_companion": jsl.fiedler_companion(jnp.array([2.0, 1.0, -3.0, 4.0, 0.5, 2.0])),
    "convolution_matrix_full": jsl.convolution_matrix(w, 4),
    "convolution_matrix_same": jsl.convolution_matrix(v, 3, "same"),
    "convolution_matrix_valid": jsl.convolution_matrix(v, 3, "valid"),
    "hilbert": jsl.hilbert(4),
    "invhilbert": jsl.invhilbert(4),
    "pascal": jsl.pascal(5),
    "pascal_lower": jsl.pascal(5, "lower"),
    "invpascal": jsl.invpascal(5),
    "invpascal_upper": jsl.invpascal(5, "upper"),
    "helmert": jsl.helmert(4),
    "helmert_full": jsl.helmert(4, full=True),
    "hadamard": jsl.hadamard(4),
    # scipy.linalg: decompositions and functions.
    "lu_factor_lu": lu_g,
    "lu_factor_piv": piv_g,
    "lu_p": p,
    "lu_l": l,
    "lu_u": u,
    "lu_permute_l": jsl.lu(g, permute_l=True)[0],
    "lu_solve": jsl.lu_solve((lu_g, piv_g), b),
    "lu_solve_t": jsl.lu_solve((lu_g, piv_g), bm, trans=1),
    "polar_u": polar_r[0],
    "polar_p": polar_r[1],
    "polar_left_u": polar_l[0],
    "polar_left_p": polar_l[1],
    "polar_batch_p": jsl.polar(jnp.stack([r, r * 0.5 + 1.0]), method="svd")[1],
    "expm_pade3": jsl.expm(e * 0.01),
    "expm_pade5": jsl.expm(e * 0.05),
    "expm": jsl.expm(e),
    "expm_pade9": jsl.expm(e * 4.0),
    "expm_squarings": jsl.expm(g * 0.5),
    "expm_batch": jsl.expm(jnp.stack([e, e * 2.0])),
    "expm_upper": jsl.expm(jnp.triu(a) * 0.25, upper_triangular=True),
    "expm_f32": jsl.expm(e.astype(jnp.float32)),
    "expm_f32_pade7": jsl.expm((e * 6.0).astype(jnp.float32)),
}
for name, val in values.items():
    print(f"=== values {name}")
    print(shape_and_values(val))
