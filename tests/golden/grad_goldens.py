# Prints the JAX jaxprs of gradients that tests/test_grad_golden.cpp checks fusejit's text
# against (tanh's rule, mul's transpose, residuals in the forward pass, add_any). Run with JAX
# installed (pip install jax); the expected strings came from JAX 0.10.2:
#   python tests/golden/grad_goldens.py > tests/golden/grad_goldens.txt
import jax
import jax.numpy as jnp

cases = {
    "grad_tanh": (jax.grad(jnp.tanh), (1.0,)),
    "grad_sum_tanh_times_x": (jax.grad(lambda x: jnp.sum(jnp.tanh(x) * x)), (jnp.ones(3),)),
    "grad_tanh_times_const": (jax.grad(lambda x: jnp.tanh(x) * 2.0), (1.0,)),
    "grad_tanh_of_sin": (jax.grad(lambda x: jnp.tanh(jnp.sin(x))), (1.0,)),
    "grad_sin_times_x": (jax.grad(lambda x: jnp.sin(x) * x), (1.0,)),
    "grad_sum_exp": (jax.grad(lambda x: jnp.sum(jnp.exp(x))), (jnp.ones(3),)),
    "jvp_tanh": (lambda x, t: jax.jvp(jnp.tanh, (x,), (t,)), (1.0, 1.0)),
}
# A nested jit under grad stays two jits of its name, as JAX's partial evaluation and transpose
# leave it: the forward part (outputs, then residuals) and the backward part (residuals and the
# outputs' cotangents in, the inputs' cotangents out); under jvp, one jit of its JVP.
jit_sin_x = jax.jit(lambda x: jnp.sin(x) * x)
jit_double = jax.jit(lambda x: x * 2.0)
jit_sin_times = jax.jit(lambda x, y: jnp.sin(x) * y)
jit_tanh_nested = jax.jit(lambda x: jnp.tanh(jit_sin_x(x)))
x23 = jnp.arange(1.0, 7.0).reshape(2, 3)
cases.update({
    "grad_jit_sin_times_x": (jax.grad(lambda x: jnp.sum(jit_sin_x(x))), (jnp.ones(3),)),
    "grad_jit_linear": (jax.grad(lambda x: jnp.sum(jit_double(x))), (jnp.ones(3),)),
    "grad_jit_one_input": (jax.grad(lambda x, y: jnp.sum(jit_sin_times(x, y))),
                           (jnp.ones(3), jnp.ones(3))),
    "grad_jit_nested": (jax.grad(lambda x: jnp.sum(jit_tanh_nested(x))), (jnp.ones(3),)),
    "grad_jit_cumsum": (jax.grad(lambda x: jnp.sum(jnp.cumsum(x) * x)), (jnp.ones(3),)),
    "jvp_jit_sin_times_x": (lambda x, t: jax.jvp(jit_sin_x, (x,), (t,)), (jnp.ones(3), jnp.ones(3))),
    # select_n's JVP makes zeros for the case without a tangent: a residual its transpose
    # takes but does not read.
    "grad_jit_where": (jax.grad(lambda x: jnp.sum(jnp.where(x > 2.0, x, 0.0))), (x23,)),
    "grad_jit_tril": (jax.grad(lambda x: jnp.sum(jnp.tril(x) * x)), (x23,)),
    "grad_jit_triu": (jax.grad(lambda x: jnp.sum(jnp.triu(x))), (x23,)),
    # div's transpose (ct / y, and y's through its y^-2 residual), sub's (neg), a scalar
    # select's literal zero residual, under jnp.var's jits.
    "grad_jit_var": (jax.grad(lambda x: jnp.var(x)), (x23,)),
    "grad_mean": (jax.grad(lambda x: jnp.mean(x * x)), (x23,)),
    "grad_div": (jax.grad(lambda x: jnp.sum(x / (x + 1.0))), (x23,)),
    "jvp_div_sub": (lambda x, t: jax.jvp(lambda a: a / (a - 2.0) - a, (x,), (t,)), (x23, x23)),
    "grad_jit_flip": (jax.grad(lambda x: jnp.sum(jnp.flip(x, 0) * x)), (x23,)),
    "grad_jit_take": (jax.grad(lambda x: jnp.sum(jnp.take(x, jnp.array([1, 0]), axis=0) * x)),
                      (x23,)),
    # Unary rules JAX writes as a division (log, log1p, atan), a negated product (cos) or a
    # scaled one (erf), and tan's square.
    "grad_log": (jax.grad(lambda x: jnp.sum(jnp.log(x))), (x23,)),
    "grad_log1p": (jax.grad(lambda x: jnp.sum(jnp.log1p(x))), (x23,)),
    "grad_atan": (jax.grad(lambda x: jnp.sum(jnp.arctan(x))), (x23,)),
    "grad_cos": (jax.grad(lambda x: jnp.sum(jnp.cos(x))), (x23,)),
    "grad_erf": (jax.grad(lambda x: jnp.sum(jax.scipy.special.erf(x))), (x23,)),
    "grad_erfc": (jax.grad(lambda x: jnp.sum(jax.scipy.special.erfc(x))), (x23,)),
    "grad_tan": (jax.grad(lambda x: jnp.sum(jnp.tan(x))), (x23,)),
    "grad_log2": (jax.grad(lambda x: jnp.sum(jnp.log2(x))), (x23,)),
    "jvp_log_cos_erf": (lambda x, t: jax.jvp(
        lambda a: jnp.log(a) + jnp.cos(a) + jax.scipy.special.erf(a), (x,), (t,)), (x23, x23)),
    # abs as a select_n of -t and t, exp2 scaled by a forward-pass `log 2`, atanh's two
    # residuals; max and min through _balanced_eq's partials (ties split), per operand.
    "grad_abs": (jax.grad(lambda x: jnp.sum(jnp.abs(x))), (x23,)),
    "grad_exp2": (jax.grad(lambda x: jnp.sum(jnp.exp2(x))), (x23,)),
    "grad_arctanh": (jax.grad(lambda x: jnp.sum(jnp.arctanh(x))), (x23,)),
    "grad_abs_scalar": (jax.grad(lambda x: jnp.abs(x) * x), (2.0,)),
    "grad_abs_sin": (jax.grad(lambda x: jnp.sum(jnp.abs(x) * jnp.sin(x))), (x23,)),
    # digamma's derivative is polygamma(1, x); polygamma's in x stages `add m 1` unfolded.
    "grad_digamma": (jax.grad(lambda x: jnp.sum(jax.lax.digamma(x))), (x23,)),
    "grad_polygamma": (jax.grad(lambda x: jnp.sum(jax.lax.polygamma(2.0, x))), (x23,)),
    "jvp_abs_exp2_arctanh": (lambda x, t: jax.jvp(
        lambda a: jnp.abs(a) + jnp.exp2(a) + jnp.arctanh(a), (x,), (t,)), (x23, x23)),
    "grad_maximum": (jax.grad(lambda x, y: jnp.sum(jnp.maximum(x, y)), argnums=(0, 1)),
                     (x23, x23)),
    "grad_minimum_x": (jax.grad(lambda x, y: jnp.sum(jnp.minimum(x, y))), (x23, x23)),
    "grad_maximum_y": (jax.grad(lambda x, y: jnp.sum(jnp.maximum(x, y)), argnums=1), (x23, x23)),
    "grad_maximum_literal": (jax.grad(lambda x: jnp.sum(jnp.maximum(x, 0.0) * x)), (x23,)),
    "grad_jit_clip": (jax.grad(lambda x: jnp.sum(jnp.clip(x, -0.5, 0.5))), (x23,)),
    "jvp_maximum": (lambda x, y, tx, ty: jax.jvp(jnp.maximum, (x, y), (tx, ty)),
                    (x23, x23, x23, x23)),
    # sort's JVP sorts a uint32 iota along and gathers the tangents through it; reverse mode
    # scatter-adds back, two scatters sharing one update_jaxpr (JAX caches it).
    "grad_jit_sort": (jax.grad(lambda x, w: jnp.sum(jnp.sort(x) * w)), (jnp.ones(3), jnp.ones(3))),
    "grad_jit_sort_axis0": (jax.grad(lambda x: jnp.sum(jnp.sin(jnp.sort(x, 0)))), (x23,)),
    "jvp_jit_sort_axis1": (lambda x, t: jax.jvp(lambda v: jnp.sort(v, 1), (x,), (t,)),
                           (x23, x23)),
    "grad_lax_sort_two": (jax.grad(lambda k, v: jnp.sum(jnp.sin(jax.lax.sort(
        (k, v), dimension=0, is_stable=True, num_keys=1)[0]) * jax.lax.sort(
        (k, v), dimension=0, is_stable=True, num_keys=1)[1]), argnums=(0, 1)),
                          (jnp.array([3.0, 1.0, 2.0]), jnp.ones(3))),
    # slice's transpose is a pad (np.int64 high edges, a stride's interior), concatenate's a
    # split; pad's a negative pad and a strided slice, its padding value's zero tangent a
    # literal residual.
    "grad_slice": (jax.grad(lambda x: jnp.sum(jnp.sin(x[1:4]))), (jnp.arange(6.0),)),
    "grad_slice_strided": (jax.grad(lambda x: jnp.sum(jnp.sin(x[1::2]))), (jnp.arange(6.0),)),
    "grad_jit_roll": (jax.grad(lambda x: jnp.sum(jnp.sin(jnp.roll(x, 2)))), (jnp.arange(6.0),)),
    "grad_concatenate": (jax.grad(lambda x, y: jnp.sum(jnp.sin(jnp.concatenate([x, y]))),
                                  argnums=(0, 1)), (jnp.arange(6.0), jnp.arange(3.0))),
    "grad_jit_pad": (jax.grad(lambda x: jnp.sum(jnp.sin(jnp.pad(x, (1, 2))))),
                     (jnp.arange(6.0),)),
    "lax_split": (lambda x: jax.lax.split(x, (1, 0, 2), axis=1), (x23,)),
    "grad_lax_split": (jax.grad(lambda x: jnp.sum(jnp.sin(jax.lax.split(x, (1, 2), axis=1)[1]))),
                       (x23,)),
    # reduce_max's and reduce_min's JVP: the location of the extremum and its count, computed
    # in the forward pass (JAX's _reduce_chooser_jvp_rule); softmax and logsumexp through it.
    "grad_reduce_max": (jax.grad(lambda x: jnp.sum(jnp.max(x, 1) * jnp.sin(jnp.max(x, 1)))),
                        (x23,)),
    "grad_reduce_min_all": (jax.grad(lambda x: jnp.min(x)), (x23,)),
    "jvp_reduce_max": (lambda x, t: jax.jvp(lambda v: jnp.max(v, 0), (x,), (t,)), (x23, x23)),
    "grad_softmax": (jax.grad(lambda x, w: jnp.sum(jax.nn.softmax(x) * w)), (x23, x23)),
    "grad_logsumexp": (jax.grad(lambda x: jnp.sum(jax.nn.logsumexp(x, 1))), (x23,)),
    # cumprod, cummax and cummin differentiate through their associative scan
    # (_cumulative_jvp_rule): its values in the forward pass, its transposes in the backward.
    "grad_jit_cumprod": (jax.grad(lambda x: jnp.sum(jnp.cumprod(x))), (jnp.arange(1.0, 6.0),)),
    "grad_jit_cumprod_axis1": (jax.grad(lambda x: jnp.sum(jnp.sin(jnp.cumprod(x, axis=1)))),
                               (x23,)),
    "grad_lax_cummax": (jax.grad(lambda x: jnp.sum(jax.lax.cummax(x, axis=0) * x)),
                        (jnp.array([1.0, 3.0, 2.0, 5.0]),)),
    "grad_lax_cummin_reverse": (jax.grad(lambda x: jnp.sum(jax.lax.cummin(x, axis=1,
                                                                          reverse=True))), (x23,)),
    "jvp_lax_cumprod": (lambda x, t: jax.jvp(lambda v: jax.lax.cumprod(v, axis=1), (x,), (t,)),
                        (x23, x23)),
})
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))
