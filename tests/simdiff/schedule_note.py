#!/usr/bin/env python3
"""sim-diff's schedule note: a mismatch that the PTX interpreter itself changes when its threads
run in step (a data race in the kernel) is called schedule-dependent; a miscompile is not.

  racy spec (local_memory_structs.racy.spec)        -> differ, "schedule-dependent", the simulator's
  race made benign (tests/exec/local_memory_structs) -> agree
  fast_math with a phase broken on purpose            -> differ, no note
"""
import argparse
import os
import stat
import subprocess
import sys
import tempfile


def sim_diff(args, ptx, spec, compiler):
    p = subprocess.run([args.sim_diff, ptx, "--spec", spec, "--compiler", compiler, "--seeds", "1",
                        "--quiet"], capture_output=True, text=True, timeout=300)
    return (p.stdout.strip().splitlines() or [p.stderr.strip()])[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim-diff", required=True)
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--exec-dir", required=True)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    lms = os.path.join(args.exec_dir, "local_memory_structs.ptx")
    failed = 0

    def check(what, line, ok):
        nonlocal failed
        print(f"{'PASS' if ok else 'FAIL'}    {what}: {line}")
        failed += not ok

    line = sim_diff(args, lms, os.path.join(here, "local_memory_structs.racy.spec"), args.optxas)
    check("racy", line, ": differ" in line and "schedule-dependent" in line and "the simulator's" in line)
    line = sim_diff(args, lms, os.path.join(args.exec_dir, "local_memory_structs.spec"), args.optxas)
    check("benign", line, ": agree" in line)
    with tempfile.TemporaryDirectory() as tmp:
        broken = os.path.join(tmp, "optxas-broken")
        with open(broken, "w") as f:
            f.write(f'#!/bin/sh\nexec "{os.path.abspath(args.optxas)}" -knob OptxasBreakPhase=GvnCse "$@"\n')
        os.chmod(broken, os.stat(broken).st_mode | stat.S_IXUSR)
        line = sim_diff(args, os.path.join(args.exec_dir, "fast_math.ptx"),
                        os.path.join(args.exec_dir, "fast_math.spec"), broken)
        check("miscompile", line, ": differ" in line and "schedule-dependent" not in line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
