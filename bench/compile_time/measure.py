#!/usr/bin/env python3
"""Times the C++ compile and link of the programs in bench/compile_time/programs/.

Each program is built as a user builds it, against an installed fusejit (find_package), by the
user project beside this file. The compile and link commands CMake generates are run directly,
best of --repeats, with each command's wall time and peak memory (the child's max RSS); the Eigen
baselines are built by the same compiler in the same run, so their ratios compare like with like.

With --trace (clang only), each program's -ftime-trace is summarized: parsing, template
instantiation by family (self time, so nested instantiations are not counted twice) and the
back end (optimizer and code generation).

Usage: measure.py --prefix LABEL=INSTALL_DIR [--prefix ...] [--compiler g++] [--pch] [--trace]
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["eigen_core", "eigen_dense", "include_only", "one_jit", "jit_grad_vmap", "lax_loops",
            "training"]


def run_measured(cmd, cwd):
    """Runs a shell command; returns (wall seconds, peak RSS in MiB). Raises on failure."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, shell=True, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.stderr.write(out.decode(errors="replace"))
        raise SystemExit(f"measure.py: command failed: {cmd}")
    return wall, usage.ru_maxrss / 1024.0


def target_commands(build, target):
    """The compile and link commands of an executable target (ninja -t commands lists its
    dependencies' first, the precompiled header's among them; the link is last)."""
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", target], check=True,
                         capture_output=True, text=True).stdout.strip().splitlines()
    compiles = [c for c in out if " -c " in c and f"programs/{target}.cpp" in c]
    if len(compiles) != 1:
        raise SystemExit(f"measure.py: no single compile command for {target}: {out}")
    return compiles[0], out[-1]


def configure(prefix, compiler, pch, build, extra_flags):
    flags = "-O2 -DNDEBUG" + (" " + extra_flags if extra_flags else "")
    subprocess.run(["cmake", "-S", HERE, "-B", build, "-G", "Ninja",
                    f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCMAKE_CXX_COMPILER={compiler}",
                    "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_FLAGS_RELEASE={flags}",
                    f"-DFUSEJIT_CT_PCH={'ON' if pch else 'OFF'}"],
                   check=True, capture_output=True)
    if pch:  # the precompiled header is built once, before the programs that reuse it
        subprocess.run(["ninja", "-C", build, "fusejit_pch"], check=True, capture_output=True)


FAMILIES = [
    ("jit", r"Jitted|trace_function|collect_args|call_traced|run_trace|unflatten_result|"
            r"flatten_output|cached_call|inline_call|args_match|arg_trees|TraceResult"),
    ("transforms", r"GradFn|VmapFn|Transformed|JvpFn|VjpFn|value_and_grad|fj::vmap|fj::grad|"
                   r"trace_subgraph|SubGraph"),
    ("lax loops", r"lax::|lax_impl|fori_loop|scan_flat|while_loop|call_unflat"),
    ("pytree", r"pytree|PyTreeDef|tree_map|for_each_leaf|traced_t|unflatten_arrays|tree_structure|"
               r"flatten_arrays|array_tree"),
    ("expression nodes", r"fj::detail::Node|make_node|Operand|Op>|Op,|lower"),
    ("other fusejit", r"fj::"),
]


def family(name):
    # A standard container or algorithm is the standard library's, whatever it holds.
    if re.match(r"(std::|__gnu_cxx::)", name):
        return "standard library"
    for fam, pattern in FAMILIES:
        if re.search(pattern, name):
            return fam
    return "other"


def self_times(events):
    """Exclusive durations of complete ('X') events, nested by time on one thread."""
    events = sorted((e for e in events if e.get("ph") == "X"), key=lambda e: (e["ts"], -e["dur"]))
    result, stack = [], []
    for e in events:
        while stack and stack[-1][0]["ts"] + stack[-1][0]["dur"] <= e["ts"]:
            result.append(tuple(stack.pop()))
        if stack:
            stack[-1][1] -= e["dur"]
        stack.append([e, e["dur"]])
    result.extend(tuple(s) for s in stack)
    return result


def summarize_trace(path):
    data = json.load(open(path))
    ev = data["traceEvents"]
    totals = {e["name"][6:]: e["dur"] / 1e6 for e in ev if e["name"].startswith("Total ")}
    inst = collections.Counter()
    for e, self_us in self_times([e for e in ev if e.get("ph") == "X" and e["name"] in
                                  ("InstantiateFunction", "InstantiateClass")] +
                                 [e for e in ev if e.get("ph") == "X" and
                                  e["name"] in ("Frontend", "Backend")]):
        if e["name"].startswith("Instantiate"):
            inst[family(e.get("args", {}).get("detail", ""))] += self_us / 1e6
    return {"frontend": totals.get("Frontend", 0.0), "backend": totals.get("Backend", 0.0),
            "instantiation": dict(inst)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prefix", action="append", required=True,
                    help="LABEL=DIR: an installed fusejit (several: one table each)")
    ap.add_argument("--compiler", default="g++")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pch", action="store_true", help="also measure with a precompiled header")
    ap.add_argument("--trace", action="store_true", help="clang -ftime-trace summary")
    ap.add_argument("--json", help="write the results here as JSON")
    args = ap.parse_args()

    results = []
    work = tempfile.mkdtemp(prefix="fusejit-compile-time-")
    variants = [(p.split("=", 1)[0], p.split("=", 1)[1], False) for p in args.prefix]
    if args.pch:
        variants += [(label + "+pch", prefix, True) for label, prefix, _ in variants]
    for label, prefix, pch in variants:
        build = os.path.join(work, re.sub(r"\W", "_", label))
        configure(os.path.abspath(prefix), args.compiler, pch, build,
                  "-ftime-trace" if args.trace else "")
        for program in PROGRAMS:
            if pch and program.startswith("eigen"):
                continue
            compile_cmd, link_cmd = target_commands(build, program)
            best = None
            for _ in range(args.repeats):
                c_wall, c_mem = run_measured(compile_cmd, build)
                l_wall, l_mem = run_measured(link_cmd, build)
                if best is None or c_wall + l_wall < best[0] + best[2]:
                    best = (c_wall, c_mem, l_wall, l_mem)
            exe = os.path.join(build, program)
            row = {"variant": label, "program": program, "compile_s": best[0],
                   "compile_peak_mib": best[1], "link_s": best[2], "link_peak_mib": best[3],
                   "binary_bytes": os.path.getsize(exe)}
            if args.trace:
                traces = [os.path.join(r, f) for r, _, fs in os.walk(build) for f in fs
                          if f == f"{program}.cpp.json"]
                if traces:
                    row["trace"] = summarize_trace(traces[0])
            results.append(row)
            print(json.dumps(row), flush=True)

    print()
    print(f"compiler: {args.compiler}; -O2; best of {args.repeats}")
    base = {r["variant"]: r for r in results if r["program"] == "eigen_core"}
    print("| variant | program | compile s | link s | total s | x Eigen/Core | peak MiB | binary MB |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        total = r["compile_s"] + r["link_s"]
        b = base.get(r["variant"].removesuffix("+pch"))
        ratio = total / (b["compile_s"] + b["link_s"]) if b else float("nan")
        print(f"| {r['variant']} | {r['program']} | {r['compile_s']:.2f} | {r['link_s']:.2f} | "
              f"{total:.2f} | {ratio:.2f} | {max(r['compile_peak_mib'], r['link_peak_mib']):.0f} | "
              f"{r['binary_bytes'] / 1e6:.2f} |")
    if args.trace:
        fams = sorted({f for r in results for f in r.get("trace", {}).get("instantiation", {})})
        print()
        print("| variant | program | front end s | " + " | ".join(fams) + " | back end s |")
        print("| --- | --- | ---: | " + " | ".join("---:" for _ in fams) + " | ---: |")
        for r in results:
            t = r.get("trace")
            if not t:
                continue
            cells = " | ".join(f"{t['instantiation'].get(f, 0.0):.2f}" for f in fams)
            print(f"| {r['variant']} | {r['program']} | {t['frontend']:.2f} | {cells} | "
                  f"{t['backend']:.2f} |")
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
