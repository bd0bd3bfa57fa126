# Prints what tests/test_checkpoint.cpp checks fj::checkpoint against: JAX 0.10.2's jaxpr text of
# a checkpointed function (remat2) and of its gradient (the recomputation inside a remat2 with
# differentiated=True), and f64 gradient values of a small two-layer network under each policy.
#   python tests/golden/checkpoint_goldens.py > tests/golden/checkpoint_goldens.txt
import jax
import jax.numpy as jnp
import numpy as np
from jax.ad_checkpoint import checkpoint_name

from golden_print import print_inputs, shape_and_values

jax.config.update("jax_enable_x64", False)
m = jnp.ones(3, jnp.float32)
g = lambda x: jnp.sin(jnp.sin(x))
print("=== jaxpr call")
print(jax.make_jaxpr(jax.checkpoint(g))(m))
print("=== jaxpr grad")
print(jax.make_jaxpr(jax.grad(lambda x: jax.checkpoint(g)(x).sum()))(m))
print("=== jaxpr dots")
print(jax.make_jaxpr(jax.checkpoint(g, policy=jax.checkpoint_policies.dots_saveable))(m))
print("=== jaxpr name")
print(jax.make_jaxpr(lambda x: checkpoint_name(x, "hidden") * 2.0)(m))

jax.config.update("jax_enable_x64", True)
inputs = {
    "w1": np.array([[0.5, -0.25, 1.5], [2.0, 0.75, -1.0], [0.1, 0.2, 0.3]]),
    "w2": np.array([[1.0, -0.5, 0.25], [-0.75, 0.5, 1.25]]),
    "x": np.array([0.3, -1.2, 2.0]),
}
print_inputs(inputs)
w1, w2, x = (jnp.asarray(inputs[k]) for k in ("w1", "w2", "x"))


def net(w1, w2, x):
    h = checkpoint_name(jnp.tanh(w1 @ x), "hidden")
    return jnp.sum(jnp.sin(w2 @ h) ** 2)


for name, policy in (("none", None), ("dots", jax.checkpoint_policies.dots_saveable),
                     ("names", jax.checkpoint_policies.save_only_these_names("hidden"))):
    grads = jax.grad(jax.checkpoint(net, policy=policy), argnums=(0, 1))(w1, w2, x)
    for k, leaf in enumerate(grads):
        print(f"=== grad {name} {k}")
        print(shape_and_values(leaf, float).replace(" : ", "\n"))
