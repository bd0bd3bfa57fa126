#!/usr/bin/env python3
"""Runs bench/scale side by side: fusejit and JAX on the chain and the MLP gradient at growing
sizes, one process per measurement, alternating systems so both see the same machine state.

Usage: bench/scale/run_scale.py BENCH_SCALE_BINARY [--python PY] [--out DIR] [--timeout S]

Writes DIR/scale.json (every measurement, with the CPU model), DIR/scale.txt (the table) and,
with matplotlib, DIR/scale.png (first call and warm time against size, log-log, one line per
system). PY (default: this interpreter) must import jax for JAX's rows; without it they read
"not run". A process past the timeout (default 600 s) is recorded as such. fusejit's on-disk
kernel cache is off (FUSEJIT_CACHE_DIR=), so each first call compiles.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The chain's sizes in equations (three a step), the MLP's in layers.
CHAIN_EQUATIONS = [10, 100, 1000, 10000, 100000]
MLP_LAYERS = [2, 8, 32, 64, 128, 512]


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def run(cmd, timeout, env):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--out", default=str(HERE.parent / "results"))
    ap.add_argument("--timeout", type=int, default=600)
    args = ap.parse_args()
    env = dict(os.environ, FUSEJIT_CACHE_DIR="")
    has_jax = subprocess.run([args.python, "-c", "import jax"], capture_output=True).returncode == 0
    rows = []
    cases = [("chain", max(1, n // 3), n) for n in CHAIN_EQUATIONS]
    cases += [("mlp", layers, layers) for layers in MLP_LAYERS]
    for workload, arg, size in cases:
        for system in ("fusejit", "jax"):
            if system == "fusejit":
                r = run([args.binary, workload, str(arg)], args.timeout, env)
            elif has_jax:
                r = run([args.python, str(HERE / "scale_jax.py"), workload, str(arg)],
                        args.timeout, env)
            else:
                r = {"error": "not run (jax not importable)"}
            r.update(system=system, workload=workload, size=size)
            print(json.dumps(r), flush=True)
            rows.append(r)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "scale.json").write_text(json.dumps(
        {"cpu": cpu_model(), "cores": os.cpu_count(), "rows": rows}, indent=1) + "\n")
    lines = [f"CPU: {cpu_model()}, {os.cpu_count()} cores; one process per row",
             "workload  size     system   first call       warm"]
    for r in rows:
        if "error" in r:
            lines.append(f"{r['workload']:<9} {r['size']:<8} {r['system']:<8} {r['error']}")
        else:
            lines.append(f"{r['workload']:<9} {r['size']:<8} {r['system']:<8} "
                         f"{r['first_ms']:>10.1f} ms {r['warm_ms']:>10.3f} ms")
    (out / "scale.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no scale.png", file=sys.stderr)
        return
    fig, axes = plt.subplots(2, 2, figsize=(10, 8))
    titles = {"chain": "chain y = sin(y)*0.5 + y, f32[65536] (equations)",
              "mlp": "jit(grad) of an MLP, width 64, batch 32 (layers)"}
    for col, workload in enumerate(("chain", "mlp")):
        for row, key in enumerate(("first_ms", "warm_ms")):
            ax = axes[row][col]
            for system in ("fusejit", "jax"):
                pts = [(r["size"], r[key]) for r in rows
                       if r["workload"] == workload and r["system"] == system and key in r]
                if pts:
                    ax.plot(*zip(*pts), marker="o", label=system)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(titles[workload], fontsize=9)
            ax.set_ylabel(("first call" if key == "first_ms" else "warm call") + " (ms)")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
    fig.suptitle(f"Time against program size ({cpu_model()}, {os.cpu_count()} cores)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out / "scale.png", dpi=110)


if __name__ == "__main__":
    main()
