# Prints the jax.random values tests/test_random.cpp checks fj::random against, bit for bit:
# keys, split, fold_in, bits, uniform, normal, randint, bernoulli, permutation, categorical, for
# a few keys and shapes (threefry2x32, partitionable mode: JAX's default since 0.5). Floats are
# printed as their bit patterns (hex), so the file is exact. The values came from JAX 0.10.2:
#   python tests/golden/random_goldens.py > tests/golden/random_goldens.txt
# Each section: `=== name`, then `key k0 k1` (the key's two uint32 words), then `dtype dims...`,
# then the values in row-major order.
import jax
import jax.numpy as jnp
import numpy as np

assert jax.config.jax_threefry_partitionable


def words(k):
    return [int(v) for v in np.asarray(jax.random.key_data(k)).reshape(-1)]


def emit(name, key_words, x):
    x = np.asarray(x)
    print(f"=== {name}")
    print("key", *key_words)
    dt = {np.dtype("float32"): "f32", np.dtype("float64"): "f64", np.dtype("uint32"): "u32",
          np.dtype("uint64"): "u64", np.dtype("int32"): "i32", np.dtype("bool"): "bool"}[x.dtype]
    print(dt, *x.shape)
    flat = x.reshape(-1)
    if dt == "f32":
        vals = [f"{v:08x}" for v in flat.view(np.uint32)]
    elif dt == "f64":
        vals = [f"{v:016x}" for v in flat.view(np.uint64)]
    else:
        vals = [str(int(v)) for v in flat]
    print(" ".join(vals))


def raw(k0, k1):
    return jax.random.wrap_key_data(jnp.array([k0, k1], dtype=jnp.uint32))


keys = {"k0": jax.random.PRNGKey(0), "k42": jax.random.PRNGKey(42)}
keys["ks"] = raw(*words(jax.random.split(keys["k42"])[1]))  # a key with both words busy
keys["kf"] = raw(0xFFFFFFFF, 0x12345678)

for s in (0, 42, 7, 4294967295):
    emit(f"key {s}", [0, 0], jax.random.key_data(jax.random.PRNGKey(s)))
for kn, k in keys.items():
    w = words(k)
    for n in (1, 2, 3, 5):
        emit(f"split {kn} {n}", w, jax.random.key_data(jax.random.split(k, n)))
    emit(f"split {kn} 2x3", w, jax.random.key_data(jax.random.split(k, (2, 3))))
    for d in (0, 1, 7, 123456, 4294967295):
        emit(f"fold_in {kn} {d}", w, jax.random.key_data(jax.random.fold_in(k, d)))
    for shape in ((), (7,), (3, 4), (2, 3, 5)):
        tag = "x".join(map(str, shape)) or "scalar"
        emit(f"bits u32 {kn} {tag}", w, jax.random.bits(k, shape, jnp.uint32))
        emit(f"uniform f32 {kn} {tag}", w, jax.random.uniform(k, shape))
        emit(f"uniform_range f32 {kn} {tag}", w, jax.random.uniform(k, shape, minval=-2.0, maxval=3.0))
        emit(f"normal f32 {kn} {tag}", w, jax.random.normal(k, shape))
        emit(f"randint i32 0 10 {kn} {tag}", w, jax.random.randint(k, shape, 0, 10))
        emit(f"bernoulli 0.3 {kn} {tag}", w, jax.random.bernoulli(k, 0.3, shape))
    emit(f"normal f32 {kn} 4096", w, jax.random.normal(k, (4096,)))
    emit(f"randint i32 -5 5 {kn} 50", w, jax.random.randint(k, (50,), -5, 5))
    emit(f"randint i32 min max {kn} 20", w,
         jax.random.randint(k, (20,), -2**31, 2**31 - 1))
    emit(f"randint i32 3 3 {kn} 5", w, jax.random.randint(k, (5,), 3, 3))
    emit(f"bernoulli 0.5 {kn} 40", w, jax.random.bernoulli(k, 0.5, (40,)))
    for n in (1, 10, 100, 2000):
        emit(f"permutation {kn} {n}", w, jax.random.permutation(k, n))
    emit(f"permutation_array {kn} 6", w, jax.random.permutation(k, jnp.arange(6.0) * 1.5))
    emit(f"permutation_rows {kn} 4x3", w,
         jax.random.permutation(k, jnp.arange(12).reshape(4, 3), axis=0))
    logits5 = jnp.log(jnp.array([0.1, 0.2, 0.3, 0.15, 0.25]))
    logits46 = jnp.sin(jnp.arange(24.0)).reshape(4, 6)
    emit(f"categorical {kn} 5", w, jax.random.categorical(k, logits5))
    emit(f"categorical {kn} 5 shape 30", w, jax.random.categorical(k, logits5, shape=(30,)))
    emit(f"categorical {kn} 4x6 axis -1", w, jax.random.categorical(k, logits46, axis=-1))
    emit(f"categorical {kn} 4x6 axis 0", w, jax.random.categorical(k, logits46, axis=0))
    emit(f"categorical {kn} 4x6 shape 3x4", w,
         jax.random.categorical(k, logits46, axis=-1, shape=(3, 4)))

# 64-bit: bits as uint64 and f64 uniform/normal (jax_enable_x64).
jax.config.update("jax_enable_x64", True)
emit("key 1234567890123", [0, 0], jax.random.key_data(jax.random.PRNGKey(1234567890123)))
for kn in ("k0", "k42", "ks"):
    k = raw(*words(keys[kn]))
    w = words(k)
    for shape in ((), (7,), (3, 4)):
        tag = "x".join(map(str, shape)) or "scalar"
        emit(f"bits u64 {kn} {tag}", w, jax.random.bits(k, shape, jnp.uint64))
        emit(f"uniform f64 {kn} {tag}", w, jax.random.uniform(k, shape, jnp.float64))
        emit(f"uniform_range f64 {kn} {tag}", w,
             jax.random.uniform(k, shape, jnp.float64, minval=-2.0, maxval=3.0))
    emit(f"normal f64 {kn} 1000", w, jax.random.normal(k, (1000,), jnp.float64))
