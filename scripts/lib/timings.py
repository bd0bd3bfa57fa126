#!/usr/bin/env python3
"""Prints the slowest ctest entries of the last recorded runs, beside their timeouts.

Usage: timings.py BUILD_DIR [COUNT]

Each run of ./scripts/test writes its results as JUnit XML under BUILD_DIR/Testing/junit-*.xml
(one file per tier); for an entry seen in several, the newest file wins. Timeouts come from
`ctest --show-only=json-v1`, so the table shows what ctest enforces now. An entry that took more
than a third of its timeout is marked: the suite's rule is a threefold margin on a quiet machine.
"""
import glob
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def recorded_times(build_dir):
    """{test name: (seconds, status)} from the JUnit files, the newest file winning."""
    files = sorted(glob.glob(os.path.join(build_dir, "Testing", "junit-*.xml")),
                   key=os.path.getmtime)
    times = {}
    for path in files:
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for case in root.iter("testcase"):
            status = case.get("status", "run")
            if case.find("failure") is not None:
                status = "failed"
            elif case.find("skipped") is not None or status == "notrun":
                status = "skipped"
            else:
                status = "passed"
            times[case.get("name")] = (float(case.get("time", "0")), status)
    return times, files


def timeouts(build_dir):
    """{test name: (timeout seconds or None, labels)} as ctest would run them now."""
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                         check=True, capture_output=True, text=True).stdout
    result = {}
    for test in json.loads(out).get("tests", []):
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        result[test["name"]] = (props.get("TIMEOUT"), props.get("LABELS", []))
    return result


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build_dir = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    times, files = recorded_times(build_dir)
    if not times:
        print(f"[fusejit] no recorded run in {build_dir}/Testing (run ./scripts/test first)")
        return 0
    limits = timeouts(build_dir)
    rows = sorted(times.items(), key=lambda item: -item[1][0])[:count]
    name_width = min(72, max(len(name) for name, _ in rows))
    print(f"[fusejit] the {len(rows)} slowest of {len(times)} entries"
          f" (from {', '.join(os.path.basename(f) for f in files)}):")
    print(f"{'seconds':>8} {'timeout':>8} {'share':>6}  {'tier':<7} entry")
    over = 0
    for name, (seconds, status) in rows:
        timeout, labels = limits.get(name, (None, []))
        tier = "full" if "full" in labels else "default"
        if timeout:
            share = seconds / float(timeout)
            mark = "  <-- over a third of its timeout" if share > 1 / 3 else ""
            over += share > 1 / 3
            share_text = f"{share:6.0%}"
            timeout_text = f"{float(timeout):8.0f}"
        else:
            share_text, timeout_text, mark = "     -", "    none", ""
        state = "" if status == "passed" else f" [{status}]"
        shown = name if len(name) <= name_width else name[: name_width - 3] + "..."
        print(f"{seconds:8.1f} {timeout_text} {share_text}  {tier:<7} {shown}{state}{mark}")
    if over:
        print(f"[fusejit] {over} entries took over a third of their timeout: measure them on a"
              " quiet machine and make them cheaper, or set their timeout from the measurement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
