#!/usr/bin/env python3
"""Plots the elementwise workloads side by side: time per call against size, one line per system.

Usage: bench/plot_workloads.py RESULTS_DIR [--out PNG]

Reads RESULTS_DIR/results.json (written by bench/summarize.py: fusejit's and Eigen's figures and,
when bench/peers.py ran, JAX's, NumPy's and Dr.Jit's) and writes RESULTS_DIR/workloads.png (or
--out): one panel per workload (selu, sum(x**2 + sin(x))), the number of elements (1M, 16M) on a
log x axis, the median time per call on a log y axis, one line per system and thread count.
Needs matplotlib (bench/requirements.txt).
"""

import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

WORKLOADS = [("selu", "selu(x), f32"), ("sum_sq_sin", "sum(x**2 + sin(x)), f32")]
SIZES = {"1M": 1 << 20, "16M": 1 << 24}
# system -> legend label; the order is the legend's.
SYSTEMS = {
    "fusejit_jit": "fusejit jit",
    "jax_jit": "JAX jit",
    "jax_eager": "JAX eager",
    "numpy": "NumPy",
    "drjit": "Dr.Jit",
    "eigen": "Eigen",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    path = args.results / "results.json"
    if not path.exists():
        sys.exit(f"plot_workloads.py: no {path} (run bench/summarize.py first)")
    doc = json.loads(path.read_text())

    fig, axes = plt.subplots(1, len(WORKLOADS), figsize=(12, 5))
    for ax, (workload, title) in zip(axes, WORKLOADS):
        series = {}  # (system, threads) -> {n: seconds}
        for r in doc.get("results", []):
            if r.get("workload") != workload or r.get("size") not in SIZES:
                continue
            if r.get("median_s") is None:
                continue
            series.setdefault((r["system"], str(r.get("threads"))), {})[SIZES[r["size"]]] = \
                r["median_s"]
        order = list(SYSTEMS)
        for (system, threads), pts in sorted(
                series.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order
                                                else len(order), kv[0][1])):
            xs = sorted(pts)
            label = f"{SYSTEMS.get(system, system)}, {'1 thread' if threads == '1' else threads + ' threads'}"
            style = "-" if system == "fusejit_jit" else "--"
            ax.plot(xs, [pts[x] * 1e3 for x in xs], style, marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(list(SIZES.values()), list(SIZES))
        ax.set_xlabel("elements")
        ax.set_ylabel("ms per call (median)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    missing = doc.get("unavailable") or {}
    note = "; ".join(f"{k}: {v}" for k, v in missing.items())
    cpu = (doc.get("machine") or {}).get("cpu", "?")
    cores = (doc.get("machine") or {}).get("cores", "?")
    fig.suptitle(f"Elementwise workloads on {cpu}, {cores} cores"
                 + (f"\nnot shown: {note}" if note else ""), fontsize=10)
    fig.tight_layout()
    out = args.out or args.results / "workloads.png"
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
