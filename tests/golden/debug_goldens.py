# Prints the JAX jaxprs that tests/test_debug.cpp checks fusejit's text against: jax.debug.print,
# jax.debug.callback and jax.pure_callback, alone, under vmap, grad and in a fori_loop. Run with
# JAX installed (pip install jax); the expected strings came from JAX 0.10.2:
#   python tests/golden/debug_goldens.py > tests/golden/debug_goldens.txt
# A callback's repr holds a Python function name and an address, which C++ cannot share: both
# are masked, here and in the test, as <function F at 0xX>.
import re

import jax
import jax.numpy as jnp


def print_one(x):
    jax.debug.print("x = {}", x)
    return x * 2


def print_two(x):
    jax.debug.print("x = {} y = {}", x, x + 1)
    return x * 2


def print_tree(x):
    jax.debug.print("{} {}", x, (x, x + 1))
    return x


def print_in_loop(x):
    def body(i, c):
        jax.debug.print("i={} c={}", i, c)
        return c + 1

    return jax.lax.fori_loop(0, 3, body, x)


def print_then_sin(x):
    jax.debug.print("x = {}", x)
    return jnp.sin(x)


def callback_one(x):
    jax.debug.callback(lambda v: None, x)
    return x


def pure_one(x):
    return jax.pure_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                             vmap_method="sequential")


cases = {
    "print_one": (print_one, (jnp.arange(3.0),)),
    "print_two": (print_two, (jnp.arange(3.0),)),
    "print_tree": (print_tree, (jnp.float32(2.0),)),
    "print_vmap": (jax.vmap(print_one), (jnp.ones((2, 3)),)),
    "print_in_loop": (print_in_loop, (jnp.float32(1.0),)),
    "print_grad": (jax.grad(print_then_sin), (jnp.float32(1.0),)),
    "callback_one": (callback_one, (jnp.arange(3.0),)),
    "callback_vmap": (jax.vmap(callback_one), (jnp.ones((2, 3)),)),
    "pure_one": (pure_one, (jnp.arange(3.0),)),
    "pure_vmap": (jax.vmap(pure_one), (jnp.ones((2, 3)),)),
}

for name, (f, args) in cases.items():
    text = str(jax.make_jaxpr(f)(*args))
    text = re.sub(r"<function .*? at 0x[0-9a-fA-FX]+>", "<function F at 0xX>", text)
    print("=== " + name)
    print(text)
