#!/usr/bin/env python3
"""Find the optimization that breaks a kernel: binary search over the OptBudget knob.

  optbudget-bisect.py --optxas BIN --sim-diff BIN FILE.ptx --spec FILE.spec
                      [-O3] [--knob NAME=VALUE ...] [--seeds N] [--expect-phase PHASE]

The oracle is tools/sim-diff: the PTX interpreter against the SASS simulator running the cubin
optxas makes with `-knob OptBudget=N` (the first N consultations of the OptBudget gate granted,
the rest of the optimizing phases acting as at -O0; docs/phases.md). The procedure:

  1. count the consultations of a full compilation (C, from `-v`);
  2. check that budget C fails and budget 0 passes;
  3. binary-search the smallest failing budget N (N-1 passes);
  4. compile once more with budget N and `-v`: consultation #N names the phase and function
     whose transformation introduced the failure.

Prints "culprit: #N <Phase> in <function>". With --expect-phase, exits 1 unless that phase is the
culprit (used by the ctest that breaks a phase on purpose with -knob OptxasBreakPhase=PHASE).
Exit status 0 when a culprit was found (and matched), 1 otherwise, 2 on usage errors.
"""
import argparse
import os
import re
import shlex
import stat
import subprocess
import sys
import tempfile

BUDGET_ENV = "OPTXAS_BISECT_BUDGET"


def make_wrapper(tmp, optxas, opt, knobs):
    """A compiler for sim-diff: optxas with the level, the knobs and the budget from the environment."""
    path = os.path.join(tmp, "optxas-budget")
    extra = " ".join(f"-knob {shlex.quote(k)}" for k in knobs)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n"
                f'if [ -n "${BUDGET_ENV}" ]; then B="-knob OptBudget=${BUDGET_ENV}"; else B=""; fi\n'
                f'exec {shlex.quote(optxas)} {opt} {extra} $B "$@"\n')
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def passes(args, wrapper, budget):
    env = dict(os.environ)
    env[BUDGET_ENV] = "" if budget is None else str(budget)
    cmd = [args.sim_diff, args.ptx, "--spec", args.spec, "--compiler", wrapper, "--seeds", str(args.seeds),
           "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    line = (p.stdout.strip().splitlines() or [p.stderr.strip() or "no output"])[0]
    ok = p.returncode == 0
    if args.verbose:
        print(f"  OptBudget={budget if budget is not None else 'unlimited'}: {'pass' if ok else 'FAIL'}  ({line})")
    return ok


def budget_report(args, budget):
    """Runs optxas -v with the budget; returns (granted, last granted (number, phase, function))."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.optxas, "-arch=sm_90", args.opt, "-v", "-knob", f"OptBudget={budget}"]
        for k in args.knob:
            cmd += ["-knob", k]
        cmd += [args.ptx, "-o", os.path.join(tmp, "out.cubin")]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    text = p.stdout + p.stderr
    m = re.search(r"OptBudget: (\d+) of (-?\d+) consultations granted", text)
    if not m:
        sys.exit(f"no OptBudget report from optxas -v (exit {p.returncode}):\n{text[-2000:]}")
    last = re.search(r"last granted #(\d+): (\w+) in ([^;\n]+)", text)
    return int(m.group(1)), (int(last.group(1)), last.group(2), last.group(3).strip()) if last else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--sim-diff", required=True)
    ap.add_argument("--spec", required=True)
    ap.add_argument("-O", dest="level", default="3")
    ap.add_argument("--knob", action="append", default=[], help="extra -knob NAME=VALUE for optxas")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--expect-phase")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("ptx")
    args = ap.parse_args()
    args.opt = "-O" + args.level

    total, _ = budget_report(args, 1 << 40)
    print(f"{os.path.basename(args.ptx)}: {total} OptBudget consultations at {args.opt}")
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = make_wrapper(tmp, args.optxas, args.opt, args.knob)
        if passes(args, wrapper, total):
            print("no failure with the full budget: nothing to bisect")
            return 1
        if not passes(args, wrapper, 0):
            print("fails even with OptBudget=0 (every optimizing phase at -O0): not an optimization bug")
            return 1
        lo, hi, steps = 0, total, 0   # passes(lo), fails(hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            steps += 1
            if passes(args, wrapper, mid):
                lo = mid
            else:
                hi = mid
    granted, last = budget_report(args, hi)
    if last is None or last[0] != hi:
        print(f"first failing budget {hi}, but optxas -v does not name consultation #{hi}")
        return 1
    print(f"first failing budget: {hi} (OptBudget={lo} passes; {steps} bisection steps)")
    print(f"culprit: #{last[0]} {last[1]} in {last[2]}")
    if args.expect_phase and last[1].lower() != args.expect_phase.lower():
        print(f"FAIL: expected the culprit to be {args.expect_phase}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
