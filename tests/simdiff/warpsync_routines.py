#!/usr/bin/env python3
"""sm_8x warp-sync slow paths (src/phases/expand/WarpSyncRoutines.cpp) under differential execution.

The SASS simulator runs sm_90 cubins only, so the kernel is compiled for sm_90 with the knob
OptxasWarpSyncRoutines=1, which gives it the sm_8x convergence tests and `__cuda_sm70_*`
subroutines. At -O0 and -O3:
  * the cubin has the expected routines (the knob took effect: the check can fail)
  * the simulator agrees with the PTX interpreter
Exit status 0 when all hold.
"""
import os
import sys
import tempfile

from scriptlib import run, sim_agrees, tool_parser

# tests/exec/warpsync_diverged, and its copy with a per-half-mask ballot.
KERNELS = [("exec", "warpsync_diverged"), ("exec", "warpsync_halves")]
ROUTINES = ["shflsync_down_p", "shflsync_idx", "shflsync_idx_p", "shflsync_up_p", "votesync_all",
            "votesync_any", "votesync_ballot", "votesync_uni", "warpsync"]


def main():
    ap = tool_parser()
    a = ap.parse_args()
    failed = False
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        for where, kernel in KERNELS:
            base = os.path.join(a.exec_dir if where == "exec" else os.path.join(here, where), kernel)
            ptx, spec = base + ".ptx", base + ".spec"
            for opt in ("-O0", "-O3"):
                cubin = os.path.join(tmp, f"{kernel}{opt}.cubin")
                c = run([a.optxas, "-arch=sm_90", opt, "-knob", "OptxasWarpSyncRoutines=1", ptx, "-o", cubin])
                if c.returncode != 0:
                    print(f"FAIL {kernel} {opt}: compile error\n{c.stdout}")
                    failed = True
                    continue
                data = open(cubin, "rb").read()
                missing = [r for r in ROUTINES if f"$__cuda_sm70_{r}\0".encode() not in data]
                if missing:
                    print(f"FAIL {kernel} {opt}: routines missing: {missing}")
                    failed = True
                if not sim_agrees(a.sim_diff, cubin, spec, ptx, f"{kernel} {opt}"):
                    failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
