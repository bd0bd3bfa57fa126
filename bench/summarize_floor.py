"""Issue 20's tables for bench/summarize.py: every system against the bandwidth floor, and the targets.

Works on the rows of results.json (peers.json's schema: system, workload, size, threads,
median_s), so every ratio it prints comes from one run of scripts/bench. Standard library only.
"""

# Elements per call of each (workload, size): the time per element divides by these.
ELEMS = {"1M": 1 << 20, "16M": 1 << 24, "4096x1024": 4096 * 1024}
ROWS = [("selu", "1M"), ("selu", "16M"), ("softmax", "4096x1024"), ("layernorm", "4096x1024")]
# (system, threads, header): threads "1" columns divide by the 1-thread floor, "all" ones by the
# all-threads floor. Eigen is single-threaded; MLX runs in its default configuration ("all").
COLUMNS = [
    ("floor_nt", "1", "floor, 1 thread"),
    ("floor_nt", "all", "floor, all threads"),
    ("memcpy", "1", "memcpy"),
    ("fusejit_jit", "1", "fusejit jit, 1 thread"),
    ("fusejit_jit", "all", "fusejit jit, all threads"),
    ("eigen", "1", "Eigen, 1 thread"),
    ("jax_jit", "1", "JAX jit, 1 thread"),
    ("jax_jit", "all", "JAX jit, all threads"),
    ("drjit", "1", "Dr.Jit, 1 thread"),
    ("drjit", "all", "Dr.Jit, all threads"),
    ("mlx", "all", "MLX (mx.compile)"),
    # The floor again after the peers: ÷ floor is then the drift of the memory bandwidth.
    ("floor_nt_after_peers", "1", "floor after the peers, 1 thread"),
    ("floor_nt_after_peers", "all", "floor after the peers, all threads"),
]
ELEMENTWISE_LIMIT = 1.15  # selu within 1.15 x the floor at the same thread count
ROWWISE_LIMIT = 2.0  # softmax, layernorm within 2 x the floor
JAX_SPEEDUP = 2.0  # softmax, layernorm at least 2 x as fast as JAX's jit


def _fmt(v):
    if v is None:
        return "n/a"
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def _times(v):
    return "n/a" if v is None else f"{_fmt(v)}×"


def _ratio(a, b):
    return a / b if a is not None and b else None


def _verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "not met")


def floor_section(results, out, floor_isa="?", floor_threads="?", unavailable=None):
    """Appends the floor table and issue 20's targets to `out` (a list of Markdown lines)."""
    unavailable = unavailable or {}
    med = {}
    for r in results:
        if r.get("median_s") is not None:
            med.setdefault((r["system"], r["workload"], str(r["size"]), str(r["threads"])),
                           r["median_s"])

    def s(system, workload, size, threads):
        return med.get((system, workload, size, threads))

    def per_elem(system, workload, size, threads):
        v = s(system, workload, size, threads)
        return v * 1e9 / ELEMS[size] if v is not None else None

    def vs_floor(system, workload, size, threads):
        return _ratio(s(system, workload, size, threads), s("floor_nt", workload, size, threads))

    out.append("### Against the bandwidth floor, with the peers (issue 20)")
    out.append("")
    out.append(f"The floor (`bench/floor.cpp`, {floor_isa}): the workload's bytes copied with vector "
               "loads and non-temporal stores (n f32 read, n written), on the calling thread or "
               f"split evenly over a persistent pool of all hardware threads ({floor_threads}). "
               "ns per element is the median time per call ÷ elements (2^20, 2^24, 4096 × 1024); "
               "under it, ÷ floor divides by the floor at the column's thread count. At 1M both "
               "arrays fit in the last-level cache, where a cached copy (memcpy) beats "
               "non-temporal stores: there the floor is no lower bound. Every figure is from this "
               "run (`results.json`); the peers ran minutes after the C++ rows, so the floor was "
               "measured again after them: its last two columns' ÷ floor is how far the memory "
               "bandwidth drifted in between (below 1: faster later).")
    for system, why in unavailable.items():
        out.append(f"{system}: {why}.")
    out.append("")
    ran = {k[0] for k in med}  # a system with no figure at all reads "not run"

    def cells(value):
        return " | ".join(_fmt(value(sys_, t)) if sys_ in ran else "not run"
                          for sys_, t, _ in COLUMNS)

    out.append("| workload | size | | " + " | ".join(h for _, _, h in COLUMNS) + " |")
    out.append("| --- | --- | --- | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for w, size in ROWS:
        out.append(f"| {w} | {size} | ns/elem | "
                   + cells(lambda sys_, t: per_elem(sys_, w, size, t)) + " |")
        out.append("| | | ÷ floor | " + cells(lambda sys_, t: vs_floor(sys_, w, size, t)) + " |")
    out.append("")

    out.append("### Issue 20 targets")
    out.append("")
    out.append("fusejit's time ÷ the floor's at the same thread count; against a peer, the peer's "
               "time ÷ fusejit's (above 1: fusejit is faster), at the same thread count.")
    out.append("")
    out.append("| measure | target | measured | |")
    out.append("| --- | --- | --- | --- |")
    for workload, size in ROWS:
        limit = ELEMENTWISE_LIMIT if workload == "selu" else ROWWISE_LIMIT
        for t, label in (("1", "1 thread"), ("all", "all threads")):
            r = vs_floor("fusejit_jit", workload, size, t)
            out.append(f"| {workload} {size}, fusejit {label} | ≤ {limit} × floor ({label}) | "
                       f"{_times(r)} | {_verdict(None if r is None else r <= limit)} |")
    for workload in ("softmax", "layernorm"):
        for t, label in (("1", "1 thread"), ("all", "all threads")):
            r = _ratio(s("jax_jit", workload, "4096x1024", t),
                       s("fusejit_jit", workload, "4096x1024", t))
            out.append(f"| {workload} vs JAX jit, {label} | ≥ {JAX_SPEEDUP:.0f}× faster | "
                       f"{_times(r)} | {_verdict(None if r is None else r >= JAX_SPEEDUP)} |")

    names = {"jax_jit": "JAX jit", "drjit": "Dr.Jit", "mlx": "MLX"}

    def peer_ratios(workload, size):
        fj = s("fusejit_jit", workload, size, "all")
        got = {p: _ratio(s(p, workload, size, "all"), fj) for p in names}
        return got, "; ".join(f"{names[p]}: {_times(v)}" for p, v in got.items())

    got, text = peer_ratios("dispatch", "1")
    j = got["jax_jit"]
    out.append(f"| warm dispatch (x + 1 on f32[1]), all threads, vs JAX jit (Dr.Jit, MLX: for "
               f"information) | lower | {text} | {_verdict(None if j is None else j > 1.0)} |")
    got, text = peer_ratios("cold_compile", "1M")
    both = [got["jax_jit"], got["drjit"]]
    out.append("| cold first call of jit(selu) on 1M, fresh process, vs JAX jit and Dr.Jit (MLX: "
               f"for information) | lower than both | {text} | "
               f"{_verdict(None if None in both else min(both) > 1.0)} |")
    out.append("")
