#!/usr/bin/env python3
"""Plots bench_matmul's results: time per call against matrix size, one line per column.

Usage: bench/plot_matmul.py RESULTS_DIR [--out PNG]

Reads RESULTS_DIR/matmul_1thread.json (every row, FUSEJIT_NUM_THREADS=1) and, if present,
RESULTS_DIR/matmul_allthreads.json (the fusejit jit rows and Eigen's tensor contraction with
FUSEJIT_NUM_THREADS unset), and writes RESULTS_DIR/matmul.png (or --out): the size n of the
square f32 matrices on the x axis, the median time per call on a log y axis; the left panels are
C = A @ B, the right ones relu(A @ W + b). Below each, the warm and Eigen columns' times divided
by the faster single-threaded Eigen GEMM build's (linear axis), where the lines of the log plot
overlap. Needs matplotlib (bench/requirements.txt).
"""

import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# (workload, column, threads) -> legend label; the order is the legend's.
SERIES = [
    ("matmul", "reference", "1", "reference (eager), 1 thread"),
    ("matmul", "jit_cold", "1", "fusejit jit cold, 1 thread"),
    ("matmul", "jit_warm", "1", "fusejit jit warm, 1 thread"),
    ("matmul", "eigen", "1", "Eigen GEMM, 1 thread"),
    ("matmul", "eigen_tune_generic", "1", "Eigen GEMM -mtune=generic, 1 thread"),
    ("matmul", "eigen_tensor", "1", "Eigen Tensor contraction, 1 thread"),
    ("matmul", "jit_cold", "all", "fusejit jit cold, all threads"),
    ("matmul", "jit_warm", "all", "fusejit jit warm, all threads"),
    ("matmul", "eigen_tensor", "all", "Eigen Tensor contraction, all threads"),
    ("relu_matmul", "jit_cold", "1", "fusejit jit cold, 1 thread"),
    ("relu_matmul", "jit_warm", "1", "fusejit jit warm (fused epilogue), 1 thread"),
    ("relu_matmul", "eigen", "1", "Eigen GEMM, then bias + max, 1 thread"),
    ("relu_matmul", "eigen_tune_generic", "1", "the same, -mtune=generic"),
    ("relu_matmul", "jit_warm", "all", "fusejit jit warm (fused epilogue), all threads"),
]
PANELS = {"matmul": "C = A @ B (square f32)", "relu_matmul": "relu(A @ W + b) (square f32)"}
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load(path, threads, rows):
    """Adds {(workload, column, threads): {n: ms}} from one Google Benchmark JSON file."""
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) < 3 or parts[0] not in PANELS:
            continue
        series = rows.setdefault((parts[0], parts[1], threads), {})
        n = int(parts[2])
        # The median aggregate wins over single runs (a row with one repetition has only those).
        if b.get("run_type") == "aggregate" or n not in series:
            series[n] = b["real_time"] * TO_MS[b.get("time_unit", "ns")]
    return doc.get("context", {})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    out = args.out or args.results / "matmul.png"

    rows = {}
    ctx = load(args.results / "matmul_1thread.json", "1", rows)
    ctx_all = load(args.results / "matmul_allthreads.json", "all", rows)
    if not rows:
        sys.exit(f"plot_matmul.py: no bench_matmul results in {args.results}")
    all_threads = ctx_all.get("fusejit_threads_used", "?") if ctx_all else None

    fig, axes = plt.subplots(2, 2, figsize=(14, 10), sharex=True,
                             gridspec_kw={"width_ratios": [3, 2], "height_ratios": [3, 2]})
    sizes = sorted({n for s in rows.values() for n in s})
    for col_axes, (workload, title) in zip(axes.T, PANELS.items()):
        ax, rax = col_axes
        base = {}  # n -> the faster single-threaded Eigen GEMM build's time
        for c in ("eigen", "eigen_tune_generic"):
            for n, t in rows.get((workload, c, "1"), {}).items():
                base[n] = min(base.get(n, t), t)
        for w, col, threads, label in SERIES:
            series = rows.get((w, col, threads))
            if w != workload or not series:
                continue
            ns = sorted(series)
            style = "-" if threads == "1" else "--"
            if all_threads and threads == "all":
                label = label.replace("all threads", f"all threads ({all_threads})")
            line, = ax.plot(ns, [series[n] for n in ns], style, marker="o", label=label)
            if col in ("reference", "jit_cold"):
                continue
            rn = [n for n in ns if n in base]
            rax.plot(rn, [series[n] / base[n] for n in rn], style, marker="o",
                     color=line.get_color(), label=label)
        ax.set_yscale("log")
        ax.set_ylabel("time per call (ms, median)")
        ax.set_title(title)
        ax.legend(fontsize=8)
        rax.axhline(1.0, color="black", linewidth=0.8)
        rax.set_ylabel("time ÷ best Eigen GEMM, 1 thread")
        rax.set_xlabel("n (n x n times n x n)")
        for a in (ax, rax):
            a.set_xscale("log", base=2)
            a.set_xticks(sizes)
            a.set_xticklabels([str(n) for n in sizes])
            a.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"bench_matmul: fusejit (backend {ctx.get('fusejit_backend', '?')}) against "
                 f"Eigen, {ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot_matmul.py: wrote {out}")


if __name__ == "__main__":
    main()
