"""The Python peers of fusejit's benchmarks (issues 8, 20): JAX (jit, eager), NumPy, Dr.Jit, MLX.

Runs the same workloads as bench/fused_elementwise.cpp, bench/matmul.cpp and
bench/cold_start.cpp, plus softmax, layernorm and the JAX tutorial's "jit in a loop", on the
same data (the C++ benchmarks' 64-bit LCG, reproduced bit for bit below), and writes
bench/results/peers.json (schema in bench/README.md, "Python peers"). scripts/bench runs it in
build/bench-venv after the C++ benchmarks; by hand:

    build/bench-venv/bin/python bench/peers.py [--out bench/results/peers.json]

A system that cannot be imported or run is listed under "unavailable" with the reason, and the
run goes on without it. Every timing: one warm-up, then the median of at least 7 repeats (min and
max kept); a repeat of a fast call loops it enough times to last >= 20 ms and reports the time
per call.
"""

import argparse
import functools
import importlib
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

# Dr.Jit's LLVM backend loads libLLVM at run time; Debian's LLVM 19 is the one installed by
# scripts/lib/setup.sh. Set before drjit is imported (it reads the variable then).
os.environ.setdefault("DRJIT_LIBLLVM_PATH", "/usr/lib/llvm-19/lib/libLLVM.so.1")

import numpy as np  # noqa: E402  (after the environment above, like the imports below)

HERE = os.path.dirname(os.path.abspath(__file__))
REPEATS = 7
MIN_REPEAT_S = 0.02  # a repeat of a fast call loops it so that timer overhead stays negligible
XLA_1THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"

# --- data: the C++ benchmarks' generator ----------------------------------------------------

_A = 6364136223846793005
_C = 1442695040888963407
_M = (1 << 64) - 1


def lcg_states(n, seed):
    """s_1 .. s_n of s = s * A + C (mod 2^64), as the C++ loops produce them, vectorized.

    Doubling: if s[0:m] is known, s[m:2m] = A^m * s[0:m] + C * (A^(m-1) + ... + 1), all mod
    2^64, which numpy's uint64 arithmetic does by wrapping.
    """
    s = np.empty(n, dtype=np.uint64)
    s[0] = (seed * _A + _C) & _M
    m, am, cm = 1, _A, _C  # am = A^m, cm = C * (A^(m-1) + ... + 1), mod 2^64
    with np.errstate(over="ignore"):
        while m < n:
            k = min(m, n - m)
            s[m:m + k] = s[:k] * np.uint64(am) + np.uint64(cm)
            am, cm = (am * am) & _M, (cm * am + cm) & _M
            m *= 2
    return s


def lcg_floats(n, seed, lo, width):
    """lo + width * float(s >> 40) * 2^-24, in float32 arithmetic in the C++ order."""
    u = (lcg_states(n, seed) >> np.uint64(40)).astype(np.float32)  # 24-bit integers: exact
    return np.float32(lo) + (np.float32(width) * u) * np.float32(2.0**-24)


def elementwise_input(n):
    """bench/fused_elementwise.cpp's x: in [-3, 3], seed 0x9E3779B97F4A7C15."""
    return lcg_floats(n, 0x9E3779B97F4A7C15, -3.0, 6.0)


def matmul_inputs(n):
    """bench/matmul.cpp's A and B: n x n row-major, in [-1, 1]."""
    a = lcg_floats(n * n, 0x9E3779B97F4A7C15, -1.0, 2.0).reshape(n, n)
    b = lcg_floats(n * n, 0xD1B54A32D192ED03, -1.0, 2.0).reshape(n, n)
    return a, b


SIZES = {"1M": 1 << 20, "16M": 1 << 24}
ROWS, COLS = 4096, 1024
MATMUL_NS = [64, 256, 1024, 2048]

# --- timing ----------------------------------------------------------------------------------


def bench(fn, repeats=REPEATS):
    """Seconds per call of fn: one warm-up, then `repeats` repeats; returns the list."""
    fn()  # warm-up (compiles, faults pages in)
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-9)
    inner = max(1, int(MIN_REPEAT_S / one)) if one < MIN_REPEAT_S else 1
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return times


RESULTS = []


def record(system, workload, size, times, threads="all", note=""):
    RESULTS.append({
        "system": system, "workload": workload, "size": size, "threads": threads,
        "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
        "repeats": len(times), "note": note,
    })
    print(f"{system:10s} {workload:13s} {size:>10s} threads={threads:3s} "
          f"median {statistics.median(times) * 1e3:10.4f} ms  {note}", flush=True)


def skip(system, workload, size, why, threads="all"):
    RESULTS.append({
        "system": system, "workload": workload, "size": size, "threads": threads,
        "median_s": None, "min_s": None, "max_s": None, "repeats": 0, "note": why,
    })
    print(f"{system:10s} {workload:13s} {size:>10s} skipped: {why}", flush=True)


# --- references and checks -------------------------------------------------------------------

# Entries compared against float64 references: the ends and a few pseudo-random ones.
def probe_indices(n, k=16):
    rng = np.random.default_rng(12345)
    return np.unique(np.concatenate([[0, n - 1], rng.integers(0, n, k - 2)]))


def ref_selu(x):
    x = x.astype(np.float64)
    return 1.05 * np.where(x > 0, x, 1.67 * np.exp(x) - 1.67)


def ref_sum(x):
    x = x.astype(np.float64)
    return float(np.sum(x * x + np.sin(x)))


def ref_softmax_rows(x, rows):
    r = x[rows].astype(np.float64)
    e = np.exp(r - r.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def ref_layernorm_rows(x, rows):
    r = x[rows].astype(np.float64)
    mu = r.mean(axis=-1, keepdims=True)
    var = ((r - mu) ** 2).mean(axis=-1, keepdims=True)
    return (r - mu) / np.sqrt(var + 1e-5)


def check(got, ref, floor):
    """'' if |got - ref| <= 1e-4 * max(|ref|, floor) everywhere, else a note saying by how much."""
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), floor)))
    return "" if err <= 1e-4 else f"MISMATCH: relative error {err:.3g} > 1e-4"


class Checker:
    """Float64 references of every workload, computed once, probed at a few entries."""

    def __init__(self, xs, x2d):
        self.xs, self.x2d = xs, x2d
        self.idx = {k: probe_indices(len(v)) for k, v in xs.items()}
        self.selu = {k: ref_selu(v[self.idx[k]]) for k, v in xs.items()}
        self.sum = {k: ref_sum(v) for k, v in xs.items()}
        self.rows = probe_indices(ROWS, 4)
        self.softmax = ref_softmax_rows(x2d, self.rows)
        self.layernorm = ref_layernorm_rows(x2d, self.rows)

    def __call__(self, workload, size, out):
        out = np.asarray(out)
        if workload == "selu":
            return check(out[self.idx[size]], self.selu[size], 1.0)
        if workload == "sum_sq_sin":
            return check(out.reshape(-1)[:1], [self.sum[size]], 0.0)
        if workload == "softmax":
            return check(out[self.rows], self.softmax, 0.0)
        if workload == "layernorm":
            return check(out[self.rows], self.layernorm, 1.0)
        raise KeyError(workload)


def check_matmul(c, a, b):
    """bench/matmul.cpp's check: |got - exact| / sum_k |a_ik b_kj| at 16 entries, <= 1e-4."""
    c = np.asarray(c)
    n = a.shape[0]
    rng = np.random.default_rng(n)
    ij = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)] + [tuple(p) for p in rng.integers(0, n, (12, 2))]
    worst = 0.0
    for i, j in ij:
        prod = a[i].astype(np.float64) * b[:, j].astype(np.float64)
        worst = max(worst, abs(float(c[i, j]) - prod.sum()) / np.abs(prod).sum())
    return "" if worst <= 1e-4 else f"MISMATCH: relative error {worst:.3g} > 1e-4"


def join(*notes):
    return "; ".join(n for n in notes if n)


# --- JAX -------------------------------------------------------------------------------------


class CompileCounter(logging.Handler):
    """Counts JAX's "Compiling ..." log records (emitted while jax_log_compiles is on)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record):
        if record.getMessage().startswith("Compiling"):
            self.count += 1


def array_functions(xp):
    """The workloads in a NumPy-like namespace: jax.numpy, or mlx.core (the same names)."""

    def selu(x):
        return 1.05 * xp.where(x > 0, x, 1.67 * xp.exp(x) - 1.67)

    def sum_sq_sin(x):
        return xp.sum(x**2 + xp.sin(x))

    def softmax(x):
        e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
        return e / xp.sum(e, axis=-1, keepdims=True)

    def layernorm(x):
        mu = xp.mean(x, axis=-1, keepdims=True)
        var = xp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) / xp.sqrt(var + 1e-5)

    return {"selu": selu, "sum_sq_sin": sum_sq_sin, "softmax": softmax, "layernorm": layernorm}


def elementwise_cases(xs, x2d):
    for size in SIZES:
        yield "selu", size, xs[size]
    for size in SIZES:
        yield "sum_sq_sin", size, xs[size]
    yield "softmax", f"{ROWS}x{COLS}", x2d
    yield "layernorm", f"{ROWS}x{COLS}", x2d


def run_jax(xs, x2d, checker, threads="all", full=True):
    import jax
    import jax.numpy as jnp

    counter = CompileCounter()
    jax_logger = logging.getLogger("jax")
    jax_logger.addHandler(counter)
    jax_logger.propagate = False  # count the records, print none of them
    jax_logger.setLevel(logging.DEBUG)

    fns = array_functions(jnp)
    tnote = "" if threads == "all" else f"XLA_FLAGS={XLA_1THREAD}"
    for workload, size, x in elementwise_cases(xs, x2d):
        xd = jax.device_put(x).block_until_ready()
        f = fns[workload]
        jf = jax.jit(f)
        out = jf(xd).block_until_ready()
        record("jax_jit", workload, size, bench(lambda: jf(xd).block_until_ready()),
               threads, join(tnote, checker(workload, size, out)))
        if full:
            out = f(xd).block_until_ready()
            record("jax_eager", workload, size, bench(lambda: f(xd).block_until_ready()),
                   threads, join("each jnp op dispatched on its own", checker(workload, size, out)))

    for n in MATMUL_NS:
        a, b = matmul_inputs(n)
        ad, bd = jax.device_put(a), jax.device_put(b)
        jm = jax.jit(lambda p, q: p @ q)
        out = jm(ad, bd).block_until_ready()
        record("jax_jit", "matmul_warm", str(n), bench(lambda: jm(ad, bd).block_until_ready()),
               threads, join(tnote, check_matmul(out, a, b)))
        if not full:
            continue
        out = jnp.matmul(ad, bd).block_until_ready()
        record("jax_eager", "matmul_eager", str(n),
               bench(lambda: jnp.matmul(ad, bd).block_until_ready()), threads,
               check_matmul(out, a, b))

        # Cold: a fresh function (a new lambda object) under a fresh jax.jit each repeat, so
        # that JAX's caches, keyed on the function, cannot hit; only the first call is timed.
        jax.config.update("jax_log_compiles", True)
        before = counter.count
        times = []
        for _ in range(REPEATS + 1):  # the first is the warm-up (XLA's own first-use costs)
            g = jax.jit(lambda p, q: p @ q)
            t0 = time.perf_counter()
            out = g(ad, bd).block_until_ready()
            times.append(time.perf_counter() - t0)
        jax.config.update("jax_log_compiles", False)
        compiles = counter.count - before
        record("jax_jit", "matmul_cold", str(n), times[1:], threads,
               join(f"{compiles} compilations in {REPEATS + 1} first calls (one warm-up)",
                    check_matmul(out, a, b)))

    if not full:
        return

    x1 = jnp.ones((1,), jnp.float32).block_until_ready()
    inc = jax.jit(lambda v: v + 1)
    record("jax_jit", "dispatch", "1", bench(lambda: inc(x1).block_until_ready()), threads,
           "jax.jit(lambda v: v + 1)(x), x f32[1], block_until_ready each call")
    record("jax_eager", "dispatch", "1", bench(lambda: (x1 + 1).block_until_ready()), threads,
           "x + 1 un-jitted")

    # The JAX tutorial's "jit in a loop" (Just-in-time compilation, "Caching").
    def unjitted_loop_body(prev_i):
        return prev_i + 1

    def g_inner_jitted_partial(x, n):
        i = 0
        while i < n:
            i = jax.jit(functools.partial(unjitted_loop_body))(i)  # a new partial: a new key
        return x + i

    def g_inner_jitted_lambda(x, n):
        i = 0
        while i < n:
            i = jax.jit(lambda x: unjitted_loop_body(x))(i)  # a new lambda: a new key
        return x + i

    def g_inner_jitted_normal(x, n):
        i = 0
        while i < n:
            i = jax.jit(unjitted_loop_body)(i)  # the same function: cached after the first
        return x + i

    for label, g in [("partial", g_inner_jitted_partial), ("lambda", g_inner_jitted_lambda),
                     ("normal", g_inner_jitted_normal)]:
        jax.config.update("jax_log_compiles", True)
        c0 = counter.count
        out = g(10, 20).block_until_ready()
        c1 = counter.count
        g(10, 20).block_until_ready()
        c2 = counter.count
        times = bench(lambda: g(10, 20).block_until_ready())
        jax.config.update("jax_log_compiles", False)
        ok = "" if int(out) == 30 else f"MISMATCH: g(10, 20) = {out}, expected 30"
        record("jax_jit", "jit_in_loop", label, times, threads,
               join(f"compilations: first call of g {c1 - c0}, a later call {c2 - c1} "
                    "(counted from jax_log_compiles 'Compiling' messages)", ok))


def run_jax_1thread_child(out_path):
    """In a subprocess with XLA_FLAGS set: jax_jit rows at one thread, as JSON to out_path."""
    xs = {k: elementwise_input(v) for k, v in SIZES.items()}
    x2d = elementwise_input(ROWS * COLS).reshape(ROWS, COLS)
    run_jax(xs, x2d, Checker(xs, x2d), threads="1", full=False)
    with open(out_path, "w") as f:
        json.dump(RESULTS, f)


# --- NumPy -----------------------------------------------------------------------------------


def run_numpy(xs, x2d, checker):
    def selu(x):
        return 1.05 * np.where(x > 0, x, 1.67 * np.exp(x) - 1.67)

    def sum_sq_sin(x):
        return np.sum(x**2 + np.sin(x))

    def softmax(x):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)

    def layernorm(x):
        mu = np.mean(x, axis=-1, keepdims=True)
        var = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + np.float32(1e-5))

    fns = {"selu": selu, "sum_sq_sin": sum_sq_sin, "softmax": softmax, "layernorm": layernorm}
    for workload, size, x in elementwise_cases(xs, x2d):
        f = fns[workload]
        out = f(x)
        assert out.dtype == np.float32, (workload, out.dtype)
        record("numpy", workload, size, bench(lambda: f(x)), "all",
               join("ufuncs run on one thread", checker(workload, size, out)))
    for n in MATMUL_NS:
        a, b = matmul_inputs(n)
        out = a @ b
        record("numpy", "matmul_eager", str(n), bench(lambda: a @ b), "all",
               join("a @ b (numpy's BLAS)", check_matmul(out, a, b)))
    x1 = np.ones(1, np.float32)
    record("numpy", "dispatch", "1", bench(lambda: x1 + 1), "all", "x + 1, x f32[1]")


# --- Dr.Jit ----------------------------------------------------------------------------------


def drjit_selu(dr, x):
    return dr.select(x > 0, x, 1.67 * dr.exp(x) - 1.67) * 1.05


def run_drjit(xs, x2d, checker):
    import drjit as dr
    from drjit.llvm.ad import Float, TensorXf

    def force(y):
        dr.eval(y)
        dr.sync_thread()  # the LLVM backend runs kernels asynchronously on its thread pool
        return y

    note = "drjit.llvm.ad, dr.eval + dr.sync_thread each call (kernel replayed from its cache)"
    size2d = f"{ROWS}x{COLS}"

    def col(v):
        return dr.reshape(TensorXf, v, (ROWS, 1))

    # Softmax and layernorm on a TensorXf: reductions along axis 1, broadcast back by
    # reshaping the (rows,) result to (rows, 1).
    def softmax(x):
        e = dr.exp(x - col(dr.max(x, axis=1)))
        return e / col(dr.sum(e, axis=1))

    def layernorm(x):
        mu = col(dr.mean(x, axis=1))
        d = x - mu
        var = col(dr.mean(d * d, axis=1))
        return d / dr.sqrt(var + 1e-5)

    # Each workload on Dr.Jit's default pool (all threads), then with dr.set_thread_count(1):
    # no worker threads, every kernel runs on the calling thread.
    default_threads = dr.thread_count()
    for threads in ("all", "1"):
        dr.set_thread_count(default_threads if threads == "all" else 1)
        tnote = join(note, "" if threads == "all" else "dr.set_thread_count(1)")
        for size, n in SIZES.items():
            x = force(Float(xs[size]))
            out = force(drjit_selu(dr, x))
            record("drjit", "selu", size, bench(lambda: force(drjit_selu(dr, x))), threads,
                   join(tnote, checker("selu", size, out.numpy())))
        for size, n in SIZES.items():
            x = force(Float(xs[size]))
            out = force(dr.sum(x * x + dr.sin(x)))
            record("drjit", "sum_sq_sin", size, bench(lambda: force(dr.sum(x * x + dr.sin(x)))),
                   threads, join(tnote, checker("sum_sq_sin", size, out.numpy())))
        t = force(TensorXf(x2d))
        for workload, f in [("softmax", softmax), ("layernorm", layernorm)]:
            try:
                out = force(f(t))
                record("drjit", workload, size2d, bench(lambda: force(f(t))), threads,
                       join(tnote, checker(workload, size2d, out.numpy())))
            except Exception as e:  # an API this version lacks: say so, carry on
                skip("drjit", workload, size2d, f"{type(e).__name__}: {e}"[:200], threads)
    dr.set_thread_count(default_threads)

    for n in MATMUL_NS:
        for mode in ("matmul_eager", "matmul_cold", "matmul_warm"):
            skip("drjit", mode, str(n), "not run: Dr.Jit has no general dense GEMM on its LLVM "
                 "backend (dr.matmul is for small fixed-size matrices and cooperative vectors)")

    # make_opaque: Float([1.0]) alone is a literal, and x + 1 would be constant-folded with no
    # kernel launched at all (0.4 us instead of a real call).
    x1 = Float(np.ones(1, np.float32))
    dr.make_opaque(x1)
    record("drjit", "dispatch", "1", bench(lambda: force(x1 + 1)), "all",
           "x + 1 on an opaque Float of size 1, dr.eval + dr.sync_thread (trace, kernel cache lookup, launch)")


# --- MLX -------------------------------------------------------------------------------------


def run_mlx(xs, x2d, checker):
    """MLX on its CPU device (the mlx-cpu wheel): mx.compile'd functions, warm, each call forced
    with mx.eval (MLX builds a lazy graph until then). Its default configuration, so threads
    "all"; its compiled CPU kernels (C++ it generates and builds with the system compiler, a
    scalar loop per fused graph) ran on one thread in our runs (process CPU time <= wall time)."""
    import mlx.core as mx

    mx.set_default_device(mx.cpu)
    fns = array_functions(mx)
    note = "mx.compile, mx.eval each call, CPU device"
    for workload, size, x in elementwise_cases(xs, x2d):
        xd = mx.array(x)
        mx.eval(xd)
        f = mx.compile(fns[workload])
        out = f(xd)
        mx.eval(out)
        record("mlx", workload, size, bench(lambda: mx.eval(f(xd))), "all",
               join(note, checker(workload, size, np.array(out))))
    x1 = mx.ones((1,), dtype=mx.float32)
    mx.eval(x1)
    inc = mx.compile(lambda v: v + 1)
    mx.eval(inc(x1))
    record("mlx", "dispatch", "1", bench(lambda: mx.eval(inc(x1))), "all",
           "mx.compile(lambda v: v + 1)(x), x f32[1], mx.eval each call")


# --- cold compile in fresh processes ---------------------------------------------------------

COLD_CHILD = (
    "import sys; sys.path.insert(0, {here!r}); import peers; peers.cold_child({system!r})"
)


def cold_child(system):
    """In a fresh process: time trace + compile + first call of selu on 1M f32; print JSON."""
    x = elementwise_input(1 << 20)
    if system == "jax":
        import jax
        import jax.numpy as jnp
        xd = jax.device_put(x).block_until_ready()  # the client exists before timing
        t0 = time.perf_counter()
        y = jax.jit(array_functions(jnp)["selu"])(xd).block_until_ready()
        first = time.perf_counter() - t0
        out = np.asarray(y)
    elif system == "mlx":
        import mlx.core as mx
        mx.set_default_device(mx.cpu)
        xd = mx.array(x)
        mx.eval(xd)
        t0 = time.perf_counter()
        y = mx.compile(array_functions(mx)["selu"])(xd)
        mx.eval(y)
        first = time.perf_counter() - t0
        out = np.array(y)
    else:
        import drjit as dr
        from drjit.llvm.ad import Float
        xd = Float(x)
        dr.eval(xd)
        dr.sync_thread()
        t0 = time.perf_counter()
        y = drjit_selu(dr, xd)
        dr.eval(y)
        dr.sync_thread()
        first = time.perf_counter() - t0
        out = y.numpy()
    idx = probe_indices(len(x))
    print(json.dumps({"first_call_s": first, "check": check(out[idx], ref_selu(x[idx]), 1.0)}))


def run_cold(system, runs=REPEATS):
    times, notes = [], set()
    for _ in range(runs):
        env = dict(os.environ)
        with tempfile.TemporaryDirectory() as home:
            # Dr.Jit keeps compiled kernels in ~/.drjit and MLX its compiled CPU kernels (C++
            # built by the system compiler) in $TMPDIR/mlx: a fresh HOME and TMPDIR make the
            # first call compile instead of loading. JAX's persistent cache is off by default.
            env["HOME"] = home
            env["TMPDIR"] = home
            p = subprocess.run([sys.executable, "-c", COLD_CHILD.format(here=HERE, system=system)],
                               env=env, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError(f"cold child failed: {p.stderr.strip()[-300:]}")
        r = json.loads(p.stdout.strip().splitlines()[-1])
        times.append(r["first_call_s"])
        if r["check"]:
            notes.add(r["check"])
    return times, join(*sorted(notes))


# --- main ------------------------------------------------------------------------------------


def probe_drjit():
    from drjit.llvm.ad import Float
    Float([1.0]).numpy()  # initializes the LLVM backend: fails here if libLLVM is missing


def probe_mlx():
    import mlx.core as mx
    mx.eval(mx.ones((1,)) + 1)  # loads libmlx: fails here without the mlx-cpu wheel


def run_peer(system, probe, run, args, unavailable, cold_note):
    """One peer: probe() (its import and a tiny computation), run(*args) (its rows), then its
    cold first calls in fresh processes. A failure goes under unavailable[system]; the run goes
    on with the next peer."""
    try:
        probe()
    except Exception as e:
        unavailable[system] = f"{type(e).__name__}: {e}"[:300]
        return
    try:
        run(*args)
        t, note = run_cold(system)
        record(system, "cold_compile", "1M", t, "all", join(cold_note, note))
    except Exception as e:
        unavailable[system] = f"failed while running: {type(e).__name__}: {e}"[:300]


def isa_name():
    """The widest vector ISA of the host (what JIT compilers target by default)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l for l in f if l.startswith("flags")), "").split()
    except OSError:
        return "unknown ISA"
    if "avx512f" in flags:
        return "AVX-512"
    if "avx2" in flags and "fma" in flags:
        return "AVX2+FMA"
    return "SSE"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip() + f" ({isa_name()})"
    except OSError:
        pass
    return platform.processor() or "unknown"


def version_of(module):
    try:
        return importlib.import_module(module).__version__
    except Exception:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "results", "peers.json"))
    ap.add_argument("--no-1thread", action="store_true", help="skip the 1-thread JAX rows")
    ap.add_argument("--jax-1thread-child", metavar="PATH", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.jax_1thread_child:
        run_jax_1thread_child(args.jax_1thread_child)
        return

    start = time.time()
    xs = {k: elementwise_input(v) for k, v in SIZES.items()}
    x2d = elementwise_input(ROWS * COLS).reshape(ROWS, COLS)
    checker = Checker(xs, x2d)
    unavailable = {}

    run_numpy(xs, x2d, checker)

    try:
        import jax  # noqa: F401
    except Exception as e:
        unavailable["jax"] = f"import failed: {type(e).__name__}: {e}"[:300]
    else:
        run_jax(xs, x2d, checker)
        t, note = run_cold("jax")
        record("jax_jit", "cold_compile", "1M", t, "all",
               join("fresh python -c process each; jax.jit(selu)(x) first call, input already on device", note))
        if not args.no_1thread:
            with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
                env = dict(os.environ, XLA_FLAGS=XLA_1THREAD)
                p = subprocess.run([sys.executable, __file__, "--jax-1thread-child", tmp.name],
                                   env=env, capture_output=True, text=True, timeout=600)
                if p.returncode == 0:
                    RESULTS.extend(json.load(open(tmp.name)))
                    print(p.stdout, end="")
                else:
                    unavailable["jax_1thread"] = p.stderr.strip()[-300:]

    run_peer("drjit", probe_drjit, run_drjit, (xs, x2d, checker), unavailable,
             "fresh python -c process each, fresh HOME (no ~/.drjit kernel cache)")
    run_peer("mlx", probe_mlx, run_mlx, (xs, x2d, checker), unavailable,
             "fresh python -c process each, fresh TMPDIR (no $TMPDIR/mlx kernel cache); "
             "mx.compile(selu)(x) first call, input already evaluated")

    doc = {
        "machine": {"cpu": cpu_name(), "cores": os.cpu_count()},
        "versions": {"python": platform.python_version(), "jax": version_of("jax"),
                     "jaxlib": version_of("jaxlib"), "numpy": np.__version__,
                     "drjit": version_of("drjit"), "mlx": version_of("mlx.core")},
        "unavailable": unavailable,
        "results": RESULTS,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out} ({len(RESULTS)} rows, {time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
