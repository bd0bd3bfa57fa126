#!/usr/bin/env python3
"""Builds the summary table of scripts/bench from its result files (standard library only).

Usage: bench/summarize.py RESULTS_DIR [--cpu "model"] [--date "..."] [--load "..."] [--commit "..."]
                           [--matmul-load "..."]

Reads, from RESULTS_DIR:
  fused_elementwise_1thread.json     every row, FUSEJIT_NUM_THREADS=1 (Google Benchmark JSON)
  fused_elementwise_allthreads.json  the fusejit_jit rows, FUSEJIT_NUM_THREADS unset
  cold_start.jsonl                   one line per fresh process of bench_cold_start (disk cache
                                     off, or pairs on a fresh disk cache: the second one loads)
  matmul_1thread.json                bench_matmul, every row, FUSEJIT_NUM_THREADS=1
  matmul_allthreads.json             bench_matmul's jit and eigen_tensor rows, all threads
  workloads_1thread.json             bench_workloads, every row, FUSEJIT_NUM_THREADS=1
  workloads_allthreads.json          bench_workloads' fusejit_jit rows, all threads
  peers.json                         optional: JAX, NumPy, Dr.Jit, MLX (bench/peers.py)
and prints Markdown: one table per workload (ns per element, and each column's time divided by
the bandwidth floor and by the best Eigen column), the cold start and dispatch numbers, the
matmul tables (ms per call and GFLOP/s per size and column, jit warm / Eigen), and the issue's
targets, then a side-by-side table (one row per workload and size, one column per system:
fusejit 1 thread and all threads, JAX jit, JAX eager, NumPy, Dr.Jit, MLX, Eigen, with each peer's
time divided by fusejit's) and issue 8's targets, and last (bench/summarize_floor.py) selu,
softmax and layernorm of every system against the bandwidth floor (bench/floor.cpp) at the same
thread count, and issue 20's targets. Each benchmark value is the median over its
repetitions. Also writes RESULTS_DIR/results.json: every figure (fusejit's and Eigen's from the
Google Benchmark JSONs, the peers' from peers.json, in peers.json's schema), the machine's CPU
model and core count, and the versions.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from summarize_floor import floor_section  # bench/, the directory of this script

# Workload -> (title, [(row key, column header)], floor key, [Eigen keys]).
WORKLOADS = {
    "selu": (
        "selu(x) = 1.05 * where(x > 0, x, 1.67 * exp(x) - 1.67)",
        [
            ("fusejit_jit@1", "fusejit jit, 1 thread"),
            ("fusejit_jit@all", "fusejit jit, all threads"),
            ("fusejit_reference@1", "reference (eager)"),
            ("eigen_select@1", "Eigen select"),
            ("eigen_maxmin@1", "Eigen max/min"),
            ("hand@1", "hand loop"),
            ("memcpy@1", "memcpy"),
            ("floor_nt_1thread@1", "floor, 1 thread"),
            ("floor_nt@1", "floor, all threads"),
        ],
        "memcpy@1",
        ["eigen_select@1", "eigen_maxmin@1"],
    ),
    "sumsq_sin": (
        "sum(x**2 + sin(x))",
        [
            ("fusejit_jit@1", "fusejit jit, 1 thread"),
            ("fusejit_jit@all", "fusejit jit, all threads"),
            ("fusejit_reference@1", "reference (eager)"),
            ("eigen@1", "Eigen"),
            ("hand@1", "hand loop"),
            ("read@1", "read floor"),
        ],
        "read@1",
        ["eigen@1"],
    ),
}
SIZES = ["1M", "16M"]
# The bandwidth floor of a workload's table (bench/floor.cpp), at 1 thread and at all threads;
# its rows all come from the FUSEJIT_NUM_THREADS=1 process, whatever their own thread count.
FLOOR_KEYS = {"selu": ("floor_nt_1thread@1", "floor_nt@1")}
ALL_THREADS_KEYS = {"fusejit_jit@all", "floor_nt@1"}  # the columns divided by the all-threads floor
TARGETS = {"selu16_memcpy": 1.15, "cold_ms": 10.0, "dispatch_ns": 300.0, "select_speedup": 10.0,
           "matmul_vs_eigen": 1.10}

# bench_matmul: (row key, column header) per table; sizes are read from the results.
MATMUL_COLS = [
    ("reference@1", "reference (eager)"),
    ("jit_cold@1", "jit cold, 1 thread"),
    ("jit_warm@1", "jit warm, 1 thread"),
    ("eigen@1", "Eigen GEMM, 1 thread"),
    ("eigen_tune_generic@1", "Eigen GEMM -mtune=generic, 1 thread"),
    ("eigen_tensor@1", "Eigen Tensor, 1 thread"),
    ("jit_cold@all", "jit cold, all threads"),
    ("jit_warm@all", "jit warm, all threads"),
    ("eigen_tensor@all", "Eigen Tensor, all threads"),
]
RELU_COLS = [
    ("jit_warm@1", "jit warm (fused epilogue), 1 thread"),
    ("eigen@1", "Eigen GEMM, then bias + max, 1 thread"),
    ("eigen_tune_generic@1", "the same, -mtune=generic"),
    ("jit_warm@all", "jit warm (fused epilogue), all threads"),
]
MATMUL_TARGET_SIZES = ["1024", "2048"]


ERRORS = {}  # (workload, column@threads, size) -> why the row was skipped


def load_rows(path, threads):
    """{(workload, column@threads, size): entry} from one Google Benchmark JSON file."""
    if not path.exists():
        return {}, {}
    doc = json.loads(path.read_text())
    rows = {}
    spreads = {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            parts = b.get("run_name", b["name"]).split("/")
            if len(parts) >= 3:
                ERRORS[(parts[0], f"{parts[1]}@{threads}", parts[2])] = b.get("error_message", "")
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) < 3:
            continue
        key = (parts[0], f"{parts[1]}@{threads}", parts[2])
        # With repetitions, keep the median aggregate, and the coefficient of variation as the
        # spread; a single run has only iterations.
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            if b.get("aggregate_name") == "cv":
                spreads[key] = b.get("real_time")
            continue
        if b.get("run_type") == "aggregate" or key not in rows:
            rows[key] = b
    for key, cv in spreads.items():
        if key in rows:
            rows[key] = dict(rows[key], spread_cv=cv)
    return rows, doc.get("context", {})


def ns(entry):
    """Time of one call in nanoseconds."""
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[entry.get("time_unit", "ns")]
    return entry["real_time"] * scale


def fmt(v, digits=3):
    if v is None:
        return "n/a"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "not met")


def ratio(a, b):
    return a / b if a is not None and b else None


def matmul_section(results_dir, out, load=""):
    """Appends the bench_matmul tables to `out`; returns {size: (jit_warm@1 / best Eigen GEMM,
    the same in CPU time)}."""
    rows, ctx = load_rows(results_dir / "matmul_1thread.json", "1")
    rows_all, ctx_all = load_rows(results_dir / "matmul_allthreads.json", "all")
    rows.update(rows_all)
    if not rows:
        return {}
    sizes = sorted({k[2] for k in rows} | {k[2] for k in ERRORS if k[0] in
                                           ("matmul", "relu_matmul")}, key=int)

    def ms(workload, col, size):
        e = rows.get((workload, col, size))
        return ns(e) / 1e6 if e else None

    def cpu_ms(workload, col, size):
        e = rows.get((workload, col, size))
        return e["cpu_time"] * ns(e) / e["real_time"] / 1e6 if e and e.get("real_time") else None

    def best(values):
        values = [v for v in values if v is not None]
        return min(values) if values else None

    def gflops(t_ms, size):
        n = int(size)
        return 2.0 * n * n * n / (t_ms * 1e6) if t_ms else None

    reps = next(iter(rows.values())).get("repetitions", 1)
    threads_all = ctx_all.get("fusejit_threads_used", "?") if ctx_all else "?"
    out.append("### matmul: C = A @ B, square f32 n x n")
    out.append("")
    out.append(f"bench_matmul, median of {reps} repetitions (the reference at n = 1024: one "
               f"iteration per repetition; not run at 2048), real time per call. Eigen is "
               f"compiled {ctx.get('baselines_compiled_with', '?')}; Eigen GEMM is single-"
               f"threaded (no OpenMP); \"best Eigen GEMM\" is the faster of its two builds; "
               f"Eigen Tensor is the tensor contraction on a "
               f"ThreadPoolDevice of as many threads as fusejit uses in that run (all threads: "
               f"{threads_all}). fusejit's GEMM ISA: {ctx.get('fusejit_gemm_isa', '?')}."
               + (f" Load average when bench_matmul started: {load}." if load else ""))
    out.append("")
    out.append("| n | | " + " | ".join(h for _, h in MATMUL_COLS) + " |")
    out.append("| --- | --- | " + " | ".join("---:" for _ in MATMUL_COLS) + " |")
    for size in sizes:
        t = {k: ms("matmul", k, size) for k, _ in MATMUL_COLS}
        out.append(f"| {size} | ms | " + " | ".join(fmt(t[k]) for k, _ in MATMUL_COLS) + " |")
        out.append("| | GFLOP/s | " + " | ".join(fmt(gflops(t[k], size)) for k, _ in MATMUL_COLS)
                   + " |")
    out.append("")
    out.append("Ratios of times (below 1: fusejit is faster). CPU time is the calling thread's, "
               "which for 1-thread rows is all the work and leaves out time the process waited "
               "for a core while other jobs ran.")
    out.append("")
    out.append("| n | jit warm ÷ Eigen GEMM -march=native (1 thread) | jit warm ÷ best Eigen GEMM "
               "(1 thread) | the same in CPU time | jit warm ÷ Eigen Tensor (all threads) "
               "| jit warm, all threads ÷ best Eigen GEMM, 1 thread |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    vs_eigen = {}
    gemms = ("eigen@1", "eigen_tune_generic@1")
    for size in sizes:
        best_ms = best(ms("matmul", k, size) for k in gemms)
        best_cpu = best(cpu_ms("matmul", k, size) for k in gemms)
        rn = ratio(ms("matmul", "jit_warm@1", size), ms("matmul", "eigen@1", size))
        r1 = ratio(ms("matmul", "jit_warm@1", size), best_ms)
        rc = ratio(cpu_ms("matmul", "jit_warm@1", size), best_cpu)
        ra = ratio(ms("matmul", "jit_warm@all", size), ms("matmul", "eigen_tensor@all", size))
        rx = ratio(ms("matmul", "jit_warm@all", size), best_ms)
        vs_eigen[size] = (r1, rc)
        out.append(f"| {size} | {fmt(rn)} | {fmt(r1)} | {fmt(rc)} | {fmt(ra)} | {fmt(rx)} |")
    out.append("")
    out.append("### relu(x @ W + b), square f32 n x n")
    out.append("")
    out.append("| n | | " + " | ".join(h for _, h in RELU_COLS)
               + " | jit warm ÷ best Eigen (1 thread) |")
    out.append("| --- | --- | " + " | ".join("---:" for _ in RELU_COLS) + " | ---: |")
    for size in sizes:
        t = {k: ms("relu_matmul", k, size) for k, _ in RELU_COLS}
        r = ratio(t["jit_warm@1"], best([t["eigen@1"], t["eigen_tune_generic@1"]]))
        out.append(f"| {size} | ms | " + " | ".join(fmt(t[k]) for k, _ in RELU_COLS)
                   + f" | {fmt(r)} |")
    for (w, col, size), msg in sorted(ERRORS.items()):
        if w in ("matmul", "relu_matmul"):
            out.append("")
            out.append(f"{w} {col.replace('@', ' (threads: ')}) {size} was skipped: {msg}")
    out.append("")
    return vs_eigen


# --- side by side with JAX, NumPy, Dr.Jit (peers.json from bench/peers.py) and Eigen ----------

PEER_SYSTEMS = [("jax_jit", "JAX jit"), ("jax_eager", "JAX eager"), ("numpy", "NumPy"),
                ("drjit", "Dr.Jit"), ("mlx", "MLX")]
# (workload, size) rows of the side-by-side table, in order.
SIDE_ROWS = ([("selu", s) for s in SIZES] + [("sum_sq_sin", s) for s in SIZES]
             + [("softmax", "4096x1024"), ("layernorm", "4096x1024")]
             + [(w, str(n)) for w in ("matmul_eager", "matmul_cold", "matmul_warm")
                for n in (64, 256, 1024, 2048)]
             + [("dispatch", "1"), ("cold_compile", "1M")]
             + [("jit_in_loop", v) for v in ("partial", "lambda", "normal")])
SIDE_TARGETS = {"jax_speedup": 1.5, "dispatch_speedup": 10.0}


def entry_s(entry):
    return ns(entry) / 1e9


def fusejit_figures(results_dir, rows, cold):
    """[{system, workload, size, threads, median_s, ..., note}] of fusejit and Eigen, in the
    schema of peers.json, from the Google Benchmark JSONs already loaded (`rows`: the
    fused_elementwise ones) and the others in results_dir."""
    out = []

    def add(system, workload, size, threads, entry, note=""):
        if entry is None:
            return
        reps = entry.get("repetitions", 1)
        out.append({"system": system, "workload": workload, "size": size, "threads": threads,
                    "median_s": entry_s(entry), "min_s": None, "max_s": None, "repeats": reps,
                    "spread_cv": entry.get("spread_cv"), "note": note})

    for ours, theirs in (("selu", "selu"), ("sumsq_sin", "sum_sq_sin")):
        for size in SIZES:
            for t in ("1", "all"):
                add("fusejit_jit", theirs, size, t, rows.get((ours, f"fusejit_jit@{t}", size)))
            eig = [rows.get((ours, k, size)) for k in (("eigen_maxmin@1", "eigen_select@1")
                                                       if ours == "selu" else ("eigen@1",))]
            eig = [e for e in eig if e]
            if eig:
                add("eigen", theirs, size, "1", min(eig, key=ns),
                    "Eigen max/min form" if ours == "selu" else "")
    for t in ("1", "all"):
        add("fusejit_jit", "dispatch", "1", t, rows.get(("dispatch", f"fusejit_jit@{t}", "1")))
    floor_note = "bench/floor.cpp: vector loads, non-temporal stores, the same bytes"
    for size in SIZES:
        add("memcpy", "selu", size, "1", rows.get(("selu", "memcpy@1", size)),
            "std::memcpy of the same bytes")
        add("floor_nt", "selu", size, "1", rows.get(("selu", "floor_nt_1thread@1", size)),
            floor_note)
        add("floor_nt", "selu", size, "all", rows.get(("selu", "floor_nt@1", size)), floor_note)

    wl, _ = load_rows(results_dir / "workloads_1thread.json", "1")
    wl_all, _ = load_rows(results_dir / "workloads_allthreads.json", "all")
    wl.update(wl_all)
    # The floor measured again after the peers (scripts/bench), to show the bandwidth's drift.
    again, _ = load_rows(results_dir / "floor_after_peers_elementwise.json", "1")
    again.update(load_rows(results_dir / "floor_after_peers_workloads.json", "1")[0])
    for (w, col, size), e in sorted(again.items()):
        if col in ("floor_nt_1thread@1", "floor_nt@1"):
            add("floor_nt_after_peers", w, size, "1" if col == "floor_nt_1thread@1" else "all",
                e, floor_note + ", measured again after bench/peers.py")
    for w in ("softmax", "layernorm"):
        for t in ("1", "all"):
            add("fusejit_jit", w, "4096x1024", t, wl.get((w, f"fusejit_jit@{t}", "4096x1024")))
        add("eigen", w, "4096x1024", "1", wl.get((w, "eigen@1", "4096x1024")))
        add("floor_nt", w, "4096x1024", "1", wl.get((w, "floor_nt_1thread@1", "4096x1024")),
            floor_note)
        add("floor_nt", w, "4096x1024", "all", wl.get((w, "floor_nt@1", "4096x1024")),
            floor_note)
    for v in ("partial", "lambda", "normal"):
        for t in ("1", "all"):
            e = wl.get(("jit_in_loop", f"fusejit_jit@{t}", v))
            if e:
                add("fusejit_jit", "jit_in_loop", v, t, e,
                    f"compiles per call: {e.get('compiles_per_call', '?'):g}, traces per call: "
                    f"{e.get('traces_per_call', '?'):g}")

    mm, _ = load_rows(results_dir / "matmul_1thread.json", "1")
    mm_all, _ = load_rows(results_dir / "matmul_allthreads.json", "all")
    mm.update(mm_all)
    for (w, col, size), e in sorted(mm.items()):
        if w != "matmul":
            continue
        c, t = col.split("@")
        if c in ("jit_cold", "jit_warm"):
            add("fusejit_jit", "matmul_" + c[4:], size, t, e)
        elif c == "eigen" and t == "1":
            g = mm.get(("matmul", "eigen_tune_generic@1", size))
            add("eigen", "matmul_warm", size, "1", min([x for x in (e, g) if x], key=ns),
                "best of -march=native and -mtune=generic builds")
    if cold:
        v = statistics.median(c["first_call_ms"] for c in cold) / 1e3
        out.append({"system": "fusejit_jit", "workload": "cold_compile", "size": "1M",
                    "threads": "all", "median_s": v,
                    "min_s": min(c["first_call_ms"] for c in cold) / 1e3,
                    "max_s": max(c["first_call_ms"] for c in cold) / 1e3, "repeats": len(cold),
                    "note": "first call of a fresh jit(selu) in a fresh process: trace + "
                            "compile + run"})
    return out


def fmt_s(s):
    if s is None:
        return "n/a"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            return f"{fmt(s / scale)} {unit}"


def side_by_side(results_dir, rows, cold, args, backend, out):
    """Appends the side-by-side table and the issue 8 targets; writes results.json."""
    ours = fusejit_figures(results_dir, rows, cold)
    peers_path = results_dir / "peers.json"
    peers = json.loads(peers_path.read_text()) if peers_path.exists() else None
    theirs = peers.get("results", []) if peers else []
    unavailable = peers.get("unavailable", {}) if peers else {}

    def pick(system, workload, size, threads=None):
        cands = [r for r in ours + theirs if r["system"] == system and r["workload"] == workload
                 and str(r["size"]) == size and r.get("median_s") is not None]
        if threads:
            cands = [r for r in cands if str(r.get("threads")) == threads] or []
        else:  # a peer's default configuration: all threads if it was run so
            cands.sort(key=lambda r: str(r.get("threads")) != "all")
        return cands[0] if cands else None

    def fj_for(workload, size, threads):
        """fusejit's time to compare with a peer run on `threads`: the same thread count if
        measured, else the other one."""
        r = pick("fusejit_jit", workload, size, "1" if threads == "1" else "all")
        return r or pick("fusejit_jit", workload, size, "all" if threads == "1" else "1")

    def missing(system):
        if peers is None:
            return "not run"
        return unavailable.get(system, "no results in peers.json")

    out.append("### Side by side: fusejit, JAX, NumPy, Dr.Jit, MLX, Eigen")
    out.append("")
    if peers is None:
        out.append("No `peers.json` (bench/peers.py was not run): the JAX, NumPy, Dr.Jit and "
                   "MLX columns read \"not run\".")
    else:
        m = peers.get("machine", {})
        vers = ", ".join(f"{k} {v}" for k, v in peers.get("versions", {}).items())
        out.append(f"Peers from `peers.json` (machine: {m.get('cpu', '?')}, "
                   f"{m.get('cores', '?')} cores; {vers}).")
        for system, why in unavailable.items():
            out.append(f"{system}: unavailable ({why}).")
    out.append("Median time per call; under each peer, in brackets, peer time ÷ fusejit time "
               "(above 1: fusejit is faster), against fusejit at the same thread count (all "
               "threads unless the peer ran on 1). Eigen is single-threaded. jit_in_loop is "
               "the time of one call of g(10, 20) (20 fresh jits inside).")
    out.append("")
    # A peer that did not run says why in its header; its cells then read "–".
    down = {sys_: (missing(sys_)) for sys_, _ in PEER_SYSTEMS
            if peers is None or sys_ in unavailable
            or not any(r["system"] == sys_ for r in theirs)}
    cols = ([("fj1", "fusejit jit, 1 thread"), ("fjall", "fusejit jit, all threads")]
            + [(k, h + (f" ({down[k]})" if k in down else "")) for k, h in PEER_SYSTEMS]
            + [("eigen", "Eigen")])
    out.append("| workload | size | " + " | ".join(h for _, h in cols) + " |")
    out.append("| --- | --- | " + " | ".join("---:" for _ in cols) + " |")
    for workload, size in SIDE_ROWS:
        cells = []
        r1 = pick("fusejit_jit", workload, size, "1")
        ra = pick("fusejit_jit", workload, size, "all")
        cells.append(fmt_s(r1["median_s"]) if r1 else "n/a")
        cells.append(fmt_s(ra["median_s"]) if ra else "n/a")
        any_peer = False
        for system, _ in PEER_SYSTEMS + [("eigen", "Eigen")]:
            r = pick(system, workload, size)
            if r is None:
                cells.append("–" if system in down else ("" if system == "eigen" else "n/a"))
                continue
            any_peer = True
            f = fj_for(workload, size, str(r.get("threads")))
            rr = ratio(r["median_s"], f["median_s"]) if f else None
            extra = [f"{fmt(rr)}×"] if rr is not None else []
            if r.get("note") and workload == "jit_in_loop":
                extra.append(r["note"])
            cells.append(fmt_s(r["median_s"]) + (f" ({'; '.join(extra)})" if extra else ""))
        if r1 or ra or any_peer:
            out.append(f"| {workload} | {size} | " + " | ".join(cells) + " |")
    out.append("")

    # The targets.
    def vs(system, workload, size):
        r = pick(system, workload, size)
        f = fj_for(workload, size, str(r.get("threads"))) if r else None
        return ratio(r["median_s"], f["median_s"]) if r and f else None

    def ratio_or_why(r, system):
        return (f"{fmt(r)}×" if r is not None
                else f"n/a ({down.get(system, 'not measured')})")

    out.append("### Side-by-side targets (issue 8)")
    out.append("")
    out.append("Measured: the peer's time ÷ fusejit's (at the peer's thread count), so above 1 is "
               "fusejit faster.")
    out.append("")
    out.append("| measure | target | measured | |")
    out.append("| --- | --- | --- | --- |")
    for workload, label in (("selu", "selu 16M"), ("sum_sq_sin", "sum(x**2 + sin(x)) 16M")):
        j = vs("jax_jit", workload, "16M")
        d = vs("drjit", workload, "16M")
        lim = SIDE_TARGETS["jax_speedup"]
        out.append(f"| {label} vs JAX jit | ≥ {lim}× faster | {ratio_or_why(j, 'jax_jit')} | "
                   f"{verdict(None if j is None else j >= lim)} |")
        out.append(f"| {label} vs Dr.Jit | not slower | {ratio_or_why(d, 'drjit')} | "
                   f"{verdict(None if d is None else d >= 1.0)} |")
    j = vs("jax_jit", "dispatch", "1")
    lim = SIDE_TARGETS["dispatch_speedup"]
    out.append(f"| warm dispatch vs JAX jit | ≥ {lim:.0f}× lower | {ratio_or_why(j, 'jax_jit')} | "
               f"{verdict(None if j is None else j >= lim)} |")
    j = vs("jax_jit", "cold_compile", "1M")
    out.append(f"| cold compile (first call) vs JAX jit | lower | {ratio_or_why(j, 'jax_jit')} | "
               f"{verdict(None if j is None else j > 1.0)} |")
    loops = [r for r in ours if r["workload"] == "jit_in_loop" and r["threads"] == "1"]
    comp = {r["size"]: r["note"] for r in loops}
    ok = None
    if loops:
        ok = all(n.startswith("compiles per call: 0,") for n in comp.values())
    out.append("| jit in a loop, fresh lambdas (partial, lambda, normal) | no recompiles | "
               + ("; ".join(f"{k}: {v}" for k, v in comp.items()) or "n/a")
               + f" | {verdict(ok)} |")
    out.append("")

    versions = dict(peers.get("versions", {})) if peers else {}
    versions.update(dict(v.split("=", 1) for v in args.version if "=" in v))
    if args.commit:
        versions["fusejit_commit"] = args.commit
    doc = {
        "machine": {"cpu": args.cpu_model or args.cpu, "cores": args.cores,
                    "load_average": args.load},
        "peers_machine": peers.get("machine") if peers else None,
        "date": args.date,
        "versions": versions,
        "fusejit_backend": backend,
        "unavailable": unavailable if peers else {"jax_jit": "not run", "jax_eager": "not run",
                                                  "numpy": "not run", "drjit": "not run",
                                                  "mlx": "not run"},
        "results": ours + theirs,
    }
    return doc


def results_json_text(doc):
    """results.json with one figure per line: a diff of two runs then reads row by row."""
    lines = ["{"]
    keys = list(doc)
    for n, key in enumerate(keys):
        end = "," if n + 1 < len(keys) else ""
        value = doc[key]
        if key == "results" and isinstance(value, list):
            rows = [" " + json.dumps(r) for r in value]
            lines.append(f' "results": [')
            lines.extend(row + ("," if k + 1 < len(rows) else "") for k, row in enumerate(rows))
            lines.append(" ]" + end)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
    return "\n".join(lines) + "\n}\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", type=Path)
    ap.add_argument("--cpu", default="unknown CPU")
    ap.add_argument("--date", default="")
    ap.add_argument("--load", default="")
    ap.add_argument("--commit", default="")
    ap.add_argument("--matmul-load", default="", help="load average when bench_matmul started")
    ap.add_argument("--cpu-model", default="", help="the CPU model alone, for results.json")
    ap.add_argument("--cores", type=int, default=None, help="core count, for results.json")
    ap.add_argument("--version", action="append", default=[],
                    help="NAME=VERSION of a tool or library, for results.json (repeatable)")
    args = ap.parse_args()

    rows, ctx = load_rows(args.results / "fused_elementwise_1thread.json", "1")
    rows_all, _ = load_rows(args.results / "fused_elementwise_allthreads.json", "all")
    rows.update(rows_all)
    if not rows:
        sys.exit(f"summarize.py: no benchmark results in {args.results}")

    def per_elem(workload, col, size):
        e = rows.get((workload, col, size))
        if e is None:
            return None
        return e["ns_per_elem"] if "ns_per_elem" in e else ns(e) / (int(size[:-1]) << 20)

    out = []
    backend = ctx.get("fusejit_backend", "?")
    reps = next(iter(rows.values())).get("repetitions", 1)
    out.append(f"Machine: {args.cpu} ({ctx.get('mhz_per_cpu', '?')} MHz); load average at "
               f"start: {args.load or '?'}.")
    commit = f" at commit {args.commit}" if args.commit else ""
    out.append(f"Date: {args.date or ctx.get('date', '?')}. fusejit{commit}, backend: **{backend}**. "
               f"Median of {reps} repetitions, real time. Baselines (hand loops, Eigen) are "
               f"compiled {ctx.get('baselines_compiled_with', '?')}.")
    out.append("")

    results = {}
    for workload, (title, cols, floor_key, eigen_keys) in WORKLOADS.items():
        out.append(f"### {title}")
        out.append("")
        out.append("| size | | " + " | ".join(h for _, h in cols) + " |")
        out.append("| --- | --- | " + " | ".join("---:" for _ in cols) + " |")
        for size in SIZES:
            vals = {k: per_elem(workload, k, size) for k, _ in cols}
            floor = vals.get(floor_key)
            eigens = [vals[k] for k in eigen_keys if vals.get(k) is not None]
            best_eigen = min(eigens) if eigens else None
            results[(workload, size)] = (vals, floor, best_eigen)
            out.append(f"| {size} | ns/elem | " + " | ".join(fmt(vals[k]) for k, _ in cols) + " |")
            if floor:
                out.append(f"| | ÷ {dict(cols)[floor_key]} | " + " | ".join(
                    fmt(vals[k] / floor if vals[k] is not None else None) for k, _ in cols) + " |")
            f1, fall = (vals.get(k) for k in FLOOR_KEYS.get(workload, (None, None)))
            if f1 and fall:
                out.append("| | ÷ floor (same thread count) | " + " | ".join(
                    fmt(ratio(vals[k], fall if k in ALL_THREADS_KEYS else f1)) for k, _ in cols)
                    + " |")
            if best_eigen:
                out.append("| | ÷ best Eigen | " + " | ".join(
                    fmt(vals[k] / best_eigen if vals[k] is not None else None) for k, _ in cols)
                    + " |")
        for (w, col, size), msg in sorted(ERRORS.items()):
            if w == workload:
                out.append("")
                out.append(f"{col.replace('@', ' (threads: ')}) {size} was skipped: {msg}")
        if ctx.get("fusejit_has_sum") == "no" and workload == "sumsq_sin":
            out.append("")
            out.append("fusejit has no `fj::sum` yet (reductions come with issue 4): its columns "
                       "are n/a.")
        out.append("")

    cold_lines = []
    cold_path = args.results / "cold_start.jsonl"
    if cold_path.exists():
        cold_lines = [json.loads(l) for l in cold_path.read_text().splitlines() if l.strip()]
    # Processes with the disk cache off (lines without cache_dir predate it: off too) compile;
    # a second process on a directory the first one filled loads (disk_hits).
    cold = [c for c in cold_lines if not c.get("cache_dir")]
    disk_warm = [c for c in cold_lines if c.get("cache_dir") and c.get("disk_hits", 0) > 0]
    # Warm dispatch in the default configuration (all threads), else with one thread.
    dispatch_threads = "unset" if ("dispatch", "fusejit_jit@all", "1") in rows else "1"
    dispatch = rows.get(("dispatch", "fusejit_jit@all", "1")) or rows.get(
        ("dispatch", "fusejit_jit@1", "1"))
    dispatch_ns = ns(dispatch) if dispatch else None

    out.append("### Latency")
    out.append("")
    out.append("| measure | median | range |")
    out.append("| --- | ---: | ---: |")
    latency_rows = [
        (cold, "first_call_ms", "cold first call of jit(selu), 1M f32 (trace + compile + run), "
         "disk cache off"),
        (cold, "first_call_cpu_ms", "the same, CPU time of the calling thread"),
        (cold, "warm_call_ms", "warm call of the same, in the same process"),
        (cold, "compile_ms", "cold first call − warm call (trace + compile)"),
        (disk_warm, "first_call_ms", "first call, disk cache warm (second process)"),
        (disk_warm, "first_call_cpu_ms", "the same, CPU time of the calling thread"),
        (disk_warm, "compile_ms", "first call, disk cache warm − warm call (trace + load)"),
    ]
    for lines, key, label in latency_rows:
        v = [c[key] for c in lines if key in c]
        if v:
            out.append(f"| {label} | {statistics.median(v):.2f} ms | "
                       f"{min(v):.2f}–{max(v):.2f} ms ({len(v)} processes) |")
    if dispatch:
        out.append(f"| warm dispatch: a jitted x + 1 on f32[1] (FUSEJIT_NUM_THREADS "
                   f"{dispatch_threads}) | {dispatch_ns:.0f} ns | |")
    out.append("")

    matmul_vs_eigen = matmul_section(args.results, out, args.matmul_load)

    # The targets.
    def jit_best(workload, size):
        vals = results[(workload, size)][0]
        c = [v for v in (vals.get("fusejit_jit@1"), vals.get("fusejit_jit@all")) if v is not None]
        return min(c) if c else None

    sv16, floor16, _ = results[("selu", "16M")]
    jit16 = sv16.get("fusejit_jit@all") or sv16.get("fusejit_jit@1")
    r16 = jit16 / floor16 if jit16 and floor16 else None
    sv1, _, _ = results[("selu", "1M")]
    j1 = jit_best("selu", "1M")
    vs_fast = j1 / sv1["eigen_maxmin@1"] if j1 and sv1.get("eigen_maxmin@1") else None
    speedup = sv1["eigen_select@1"] / j1 if j1 and sv1.get("eigen_select@1") else None
    cold_ms = statistics.median(c["compile_ms"] for c in cold) if cold else None
    first_ms = statistics.median(c["first_call_ms"] for c in cold) if cold else None

    out.append(f"### Targets (fusejit backend: {backend})")
    out.append("")
    out.append("| measure | target | measured | |")
    out.append("| --- | --- | --- | --- |")
    out.append(f"| selu 16M, all threads | ≤ {TARGETS['selu16_memcpy']} × memcpy | "
               f"{fmt(r16)} × memcpy | {verdict(None if r16 is None else r16 <= TARGETS['selu16_memcpy'])} |")
    ok1 = None if vs_fast is None or speedup is None else (
        vs_fast <= 1.0 and speedup >= TARGETS["select_speedup"])
    out.append(f"| selu 1M | ≥ Eigen's fastest form, ≥ {TARGETS['select_speedup']:.0f}× the "
               f"natural select form | {fmt(vs_fast)} × the time of Eigen max/min; "
               f"{fmt(speedup)}× as fast as Eigen select | {verdict(ok1)} |")
    out.append(f"| cold compile of selu | ≤ {TARGETS['cold_ms']:.0f} ms median | "
               f"{fmt(cold_ms)} ms trace + compile ({fmt(first_ms)} ms whole first call) | "
               f"{verdict(None if cold_ms is None else cold_ms <= TARGETS['cold_ms'])} |")
    out.append(f"| warm dispatch | ≤ {TARGETS['dispatch_ns']:.0f} ns | {fmt(dispatch_ns)} ns | "
               f"{verdict(None if dispatch_ns is None else dispatch_ns <= TARGETS['dispatch_ns'])} |")
    if matmul_vs_eigen:
        lim = TARGETS["matmul_vs_eigen"]
        for size in MATMUL_TARGET_SIZES:
            r, rc = matmul_vs_eigen.get(size, (None, None))
            out.append(f"| matmul {size}, jit warm, 1 thread | ≤ {lim} × Eigen's GEMM (the "
                       f"faster build) | {fmt(r)} × (CPU time: {fmt(rc)} ×) | "
                       f"{verdict(None if r is None else r <= lim)} |")
    out.append("")

    doc = side_by_side(args.results, rows, cold, args, backend, out)
    floor_section(doc["results"], out, ctx.get("floor_isa", "?"), ctx.get("floor_threads", "?"),
                  doc["unavailable"])
    (args.results / "results.json").write_text(results_json_text(doc))
    print("\n".join(out))


if __name__ == "__main__":
    main()
