#!/usr/bin/env python3
"""Register-allocation quality under pressure: totals over the corpus compiled with a low
-maxrregcount, where the default compilation rarely spills (docs/regalloc.md, splitting).

  spill-pressure.py COMPILER N [--opt -O3] [--json F] [PTX ...]

COMPILER is optxas or ptxas; N the -maxrregcount. Inputs default to tests/corpus/ptx,
tests/corpus/handwritten and tests/exec (sm_90-compatible targets only). Prints the totals over
every kernel: spill bytes (stores + loads), stack frame bytes, SASS instructions, static cycles
(tools/bench/quality.py) and registers; --json also writes them per kernel, to compare two runs.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import quality  # noqa: E402


def target_ok(path):
    with open(path, errors="replace") as f:
        m = re.search(r"^\s*\.target\s+sm_(\d+)(\w*)", f.read(), re.M)
    return m is not None and int(m.group(1)) <= 90 and not m.group(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("compiler")
    ap.add_argument("maxrregcount")
    ap.add_argument("--opt", default="-O3")
    ap.add_argument("--json")
    ap.add_argument("inputs", nargs="*")
    a = ap.parse_args()
    dirs = ["tests/corpus/ptx", "tests/corpus/handwritten", "tests/exec"]
    files = a.inputs or [os.path.join(ROOT, d, f) for d in dirs
                         for f in sorted(os.listdir(os.path.join(ROOT, d))) if f.endswith(".ptx")]
    tot = dict(spill=0, stack=0, insts=0, cycles=0, regs=0, failed=0)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "o.cubin")
        for p in files:
            if not target_ok(p):
                continue
            for extra in ([], ["-c"]):
                r = subprocess.run([a.compiler, *extra, "-arch=sm_90", a.opt, "-v",
                                    f"-maxrregcount={a.maxrregcount}", p, "-o", cubin],
                                   capture_output=True, text=True)
                if r.returncode == 0:
                    break
            if r.returncode != 0:
                tot["failed"] += 1
                print("not compiled:", os.path.relpath(p, ROOT))
                continue
            for fn, f in quality.analyse(r.stdout + r.stderr, cubin).functions.items():
                if f.regs is None:
                    continue
                rows[os.path.basename(p) + ":" + fn] = dict(spill=f.spill_bytes, stack=f.stack,
                                                            insts=f.instructions or 0,
                                                            cycles=f.cycles or 0, regs=f.regs)
                for k, v in rows[os.path.basename(p) + ":" + fn].items():
                    tot[k] += v
    print(json.dumps(tot))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"totals": tot, "kernels": rows}, f, indent=1)


if __name__ == "__main__":
    main()
