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
for name, (f, args) in cases.items():
    print(f"=== {name}")
    print(jax.make_jaxpr(f)(*args))
