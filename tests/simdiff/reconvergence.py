#!/usr/bin/env python3
"""Warps reach bar.sync converged: BSSY/BSYNC regions from lowering (src/lower/Reconvergence.cpp)
checked by the SASS simulator's diverged-barrier fault (docs/simulation.md).

On an H200 a BAR.SYNC reached by a diverged warp counted the whole warp at its first lanes and
released early (tests/exec/atomics_half lost shared-memory adds). The simulator faults on such a
barrier. For each kernel:
  * optxas                                       -> agrees with the PTX interpreter
  * optxas -knob OptxasNoReconvergence=<kinds>   -> "barrier reached by a diverged warp"
  * ptxas                                        -> agrees (the fault model fits NVIDIA's code)
The second run proves the check can fail. Exit status 0 when all hold. ptxas's warpsync kernels
take the slow path of a vote whose mask differs between lanes (`R2UR P, URZ, R; @!P BRA.DIV`,
WARPSYNC.COLLECTIVE) before a WARPSYNC.ALL and BAR.SYNC (docs/simulation.md).
"""
import os
import shutil
import sys
import tempfile

from scriptlib import run, tool_parser

# kernel (tests/exec/NAME.ptx), the region kinds whose absence must fault
KERNELS = [("atomics_half", "cas+loops"),   # the f16/bf16 CAS loops (the H200 failure)
           ("loop_barrier", "loops"),       # data-dependent loops before bar.sync
           ("func_barrier", "calls"),       # device functions that return diverged
           # recursion with bar.sync inside: regions saved around each activation (BMOV)
           ("func_barrier_recursion_sync", "calls"),
           ("warpsync_bracket", "warpsync"),  # WARPSYNC.EXCLUSIVE sites (lower/WarpSyncBracket.cpp)
           ("warpsync_bracket_calls", "warpsync")]  # the same in device functions, a loop, a guard


def main():
    ap = tool_parser()
    a = ap.parse_args()
    if shutil.which("ptxas") is None:
        print("FAIL: ptxas (the oracle) is not on PATH")
        return 1
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, kinds in KERNELS:
            ptx = os.path.join(a.exec_dir, kernel + ".ptx")
            spec = os.path.join(a.exec_dir, kernel + ".spec")
            cases = [("optxas", [a.optxas], "agree"),
                     (f"optxas without {kinds} regions",
                      [a.optxas, "-knob", f"OptxasNoReconvergence={kinds}"],
                      "barrier reached by a diverged warp"),
                     ("ptxas", ["ptxas"], "agree")]
            for i, (name, compiler, expect) in enumerate(cases):
                cubin = os.path.join(tmp, f"{kernel}{i}.cubin")
                c = run(compiler + ["-arch=sm_90", ptx, "-o", cubin])
                if c.returncode != 0:
                    print(f"FAIL {kernel} {name}: compile error\n{c.stdout}")
                    failed = True
                    continue
                r = run([a.sim_diff, "--cubin", cubin, "--spec", spec, "--seeds", "1", ptx])
                ok = expect in r.stdout and (expect != "agree" or r.returncode == 0)
                last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "(no output)"
                print(f"{'ok  ' if ok else 'FAIL'} {kernel} {name}: {last}")
                if not ok:
                    print(r.stdout[-2000:])
                failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
