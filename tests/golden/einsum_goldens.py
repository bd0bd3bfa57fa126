"""Goldens for tests/test_einsum_golden.cpp from JAX 0.10.2: jnp.einsum's jaxpr text at f32,
values and gradients in f64. Run: python tests/golden/einsum_goldens.py > tests/golden/einsum_goldens.txt

Operand k of a case holds sin(0.37 i + 1.3 k + 0.1) for i = 0, 1, ... in row-major order, so the
C++ test rebuilds the same inputs from the shapes alone.
"""
import numpy as np
import jax
import jax.numpy as jnp
import opt_einsum

jax.config.update("jax_enable_x64", True)

# name: (subscripts, shapes); the name is what the C++ test looks up.
cases = {
    "batched_matmul": ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    "matmul_transposed_rhs": ("ij,kj->ik", [(3, 4), (5, 4)]),
    "implicit_matmul": ("ij,jk", [(3, 4), (4, 2)]),
    "diagonal": ("ii->i", [(3, 3)]),
    "trace": ("ii", [(3, 3)]),
    "transpose": ("ij->ji", [(2, 3)]),
    "sum_all": ("ij->", [(3, 4)]),
    "dot": ("i,i->", [(5,), (5,)]),
    "outer": ("i,j->ij", [(3,), (4,)]),
    "matvec": ("ij,j->i", [(3, 4), (4,)]),
    "elementwise": ("ij,ij->ij", [(2, 3), (2, 3)]),
    "attention_scores": ("bhqd,bhkd->bhqk", [(2, 2, 3, 4), (2, 2, 5, 4)]),
    "attention_values": ("bhqk,bhkd->bhqd", [(2, 2, 3, 5), (2, 2, 5, 4)]),
    "ellipsis": ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 2)]),
    "permute3": ("ijk->kij", [(2, 3, 4)]),
    "repeated_kept": ("iij->ij", [(3, 3, 2)]),
    "sum_one_side": ("ij,jk->k", [(3, 4), (4, 2)]),
    "broadcast_one": ("ij,jk->ik", [(1, 4), (4, 3)]),
    "three_operands": ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
}


def operand(shape, k):
    n = int(np.prod(shape))
    return np.sin(0.37 * np.arange(n) + 1.3 * k + 0.1).reshape(shape)


def text(v):
    return " ".join(float(x).hex() for x in np.asarray(v, dtype=np.float64).ravel())


def print_values_and_grads(cases):
    for name, (spec, shapes) in cases.items():
        xs = [operand(s, k) for k, s in enumerate(shapes)]
        out = jnp.einsum(spec, *xs)
        print(f"=== values {name}")
        print(" ".join(str(d) for d in np.shape(out)))
        print(text(out))
        # d/dx_k sum(w * einsum(...)), w = 1, 2, ... over the output.
        w = np.arange(1.0, 1.0 + out.size).reshape(np.shape(out))
        grads = jax.grad(lambda *v: jnp.sum(w * jnp.einsum(spec, *v)),
                         argnums=tuple(range(len(xs))))(*xs)
        for k, g in enumerate(grads):
            print(f"=== grad {name} {k}")
            print(text(g))


def print_jaxprs(cases):
    for name, (spec, shapes) in cases.items():
        xs = [jnp.ones(s, jnp.float32) for s in shapes]
        print(f"=== jaxpr {name}")
        print(jax.make_jaxpr(lambda *v: jnp.einsum(spec, *v))(*xs))


print_values_and_grads(cases)

jax.config.update("jax_enable_x64", False)
print_jaxprs(cases)

# Three and four operands: opt_einsum's "optimal" order (optimize="auto" up to four operands),
# which need not be left to right. Printed after the cases above, so their lines keep their place.
jax.config.update("jax_enable_x64", True)
more = {
    "three_right_first": ("ij,jk,kl->il", [(10, 8), (8, 6), (6, 2)]),
    "chain4": ("ab,bc,cd,de->ae", [(2, 9), (9, 3), (3, 8), (8, 2)]),
    "bilinear": ("i,ij,j->", [(5,), (5, 6), (6,)]),
    "batched3": ("bij,bjk,bkl->bil", [(2, 3, 4), (2, 4, 5), (2, 5, 2)]),
    "outer3": ("i,j,k->kji", [(3,), (4,), (2,)]),
    "shared_letter3": ("ij,ik,il->jkl", [(4, 2), (4, 3), (4, 5)]),
}
print_values_and_grads(more)
jax.config.update("jax_enable_x64", False)
print_jaxprs(more)

# Five operands and more: opt_einsum's "branch-all" (5, 6), "branch-2" (7, 8), "branch-1" (9 to
# 14) and "greedy" (15 and more), which optimize="auto" picks by the count of operands.
jax.config.update("jax_enable_x64", True)
many = {
    "chain5": ("ab,bc,cd,de,ef->af", [(2, 9), (9, 3), (3, 8), (8, 2), (2, 7)]),
    "ring6": ("ij,jk,kl,lm,mn,ni->", [(3, 4), (4, 2), (2, 5), (5, 3), (3, 2), (2, 3)]),
    "vector_chain7": ("a,ab,bc,cd,de,ef,f->", [(4,), (4, 3), (3, 5), (5, 2), (2, 6), (6, 3), (3,)]),
    "star9": ("ia,ib,ic,id,ie,if,ig,ih,i->abc",
              [(3, 2), (3, 4), (3, 2), (3, 3), (3, 2), (3, 2), (3, 3), (3, 2), (3,)]),
    "chain15": (",".join(chr(97 + k) + chr(98 + k) for k in range(15)) + "->ap",
                [(2 + k % 3, 2 + (k + 1) % 3) for k in range(15)]),
    "hadamard16": ("ab,ab,bc,cd,cd,de,ef,fg,gh,hi,ij,jk,kl,lm,mn,no->ao",
                   [(2, 3), (2, 3), (3, 2), (2, 2), (2, 2), (2, 3), (3, 2), (2, 2), (2, 3),
                    (3, 2), (2, 2), (2, 3), (3, 2), (2, 2), (2, 3), (3, 2)]),
}
print_values_and_grads(many)
jax.config.update("jax_enable_x64", False)
print_jaxprs(many)

# opt_einsum's path for random subscripts of 3 to 17 operands, against which the C++ test checks
# fusejit's own search: the subscripts, each letter's extent, the linear path.
rng = np.random.RandomState(19)
for case in range(300):
    n = int(rng.randint(3, 18))
    pool = "abcdefghijklmnopqrstuvwxyz"[: int(rng.randint(3, 14))]
    size = {c: int(rng.randint(1, 10)) for c in pool}
    terms = ["".join(rng.choice(list(pool), int(rng.randint(0, 5)))) for _ in range(n)]
    used = sorted(set("".join(terms)))
    out = "".join(c for c in used if rng.rand() < 0.3)
    spec = ",".join(terms) + "->" + out
    shapes = [tuple(size[c] for c in t) for t in terms]
    path, _ = opt_einsum.contract_path(spec, *shapes, shapes=True, optimize="auto")
    print(f"=== path {case}")
    print(spec)
    print(" ".join(f"{c}={size[c]}" for c in used))
    print(" ".join(f"{i} {j}" for i, j in path))
